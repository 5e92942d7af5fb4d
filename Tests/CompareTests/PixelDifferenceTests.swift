import Testing
import Raster
@testable import Compare

@Suite("exact pixel difference")
struct PixelDifferenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let changes: [(x: Int, y: Int, color: RGBA8)]
        let differing: Int
        let maxDelta: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no change", changes: [], differing: 0, maxDelta: 0),
        Case(name: "one channel by one level", changes: [(0, 0, RGBA8(11, 20, 30, 255))], differing: 1, maxDelta: 1),
        Case(name: "alpha only", changes: [(5, 2, RGBA8(10, 20, 30, 0))], differing: 1, maxDelta: 255),
        Case(name: "three pixels, last one worst", changes: [(1, 1, RGBA8(12, 20, 30, 255)), (2, 1, RGBA8(10, 25, 30, 255)),
                                                             (6, 3, RGBA8(10, 20, 130, 255))], differing: 3, maxDelta: 100),
        Case(name: "same pixel changed twice counts once", changes: [(4, 4, RGBA8(0, 0, 0, 255)), (4, 4, RGBA8(10, 20, 31, 255))],
             differing: 1, maxDelta: 1),
    ]

    @Test("counts differing pixels and the largest channel difference", arguments: cases)
    func counts(_ c: Case) {
        let base = Image(width: 8, height: 5, fill: RGBA8(10, 20, 30))
        var other = base
        for change in c.changes { other[change.x, change.y] = change.color }
        let d = PixelDifference(base, other)
        #expect(d.differing == c.differing)
        #expect(d.maxChannelDelta == c.maxDelta)
        #expect(d.identical == (c.differing == 0))
        #expect(PixelDifference(other, base) == d, "symmetric")
    }
}
