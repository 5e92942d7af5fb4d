import Foundation
import Testing
import NavReel

@Suite("navreel diff")
struct DiffCLITests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let expected: Image?     // nil: write `raw` instead
        let actual: Image?
        var rawActual: [UInt8]? = nil
        let status: Int32
        let says: String
        var testDescription: String { name }
    }

    static let base: Image = {
        var image = Image(width: 20, height: 10, fill: RGBA8(255, 255, 255))
        for x in 0..<20 { image[x, 5] = RGBA8(0, 122, 255) }
        return image
    }()

    static let cases: [Case] = {
        var changed = base
        changed[3, 3] = RGBA8(0, 0, 0)
        changed[4, 3] = RGBA8(250, 255, 255)
        let bigger = Image(width: 21, height: 10, fill: RGBA8(255, 255, 255))
        return [
            Case(name: "equal images", expected: base, actual: base, status: 0, says: "0 pixels differ"),
            Case(name: "two pixels differ", expected: base, actual: changed, status: 1, says: "2 of 200 pixels differ"),
            Case(name: "size change", expected: base, actual: bigger, status: 1, says: "expected 20x10, actual 21x10"),
            Case(name: "actual is not a PNG", expected: base, actual: nil, rawActual: Array("GIF89a......".utf8), status: 2, says: "actual.png: not a PNG"),
            Case(name: "actual is truncated", expected: base, actual: nil,
                 rawActual: Array(try! PNG.encode(base).prefix(40)), status: 2, says: "actual.png: truncated"),
        ]
    }()

    @Test("exit status and message", arguments: cases)
    func diff(_ c: Case) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("expected.png"), b = dir.appendingPathComponent("actual.png")
        try Data(PNG.encode(c.expected!)).write(to: a)
        try Data(c.actual.map { try PNG.encode($0) } ?? c.rawActual!).write(to: b)
        let result = try CLI.run(["diff", a.path, b.path])
        #expect(result.status == c.status, "\(result)")
        #expect((result.stdout + result.stderr).contains(c.says), "\(result)")
    }

    @Test("the same pixels in different encodings are equal")
    func encodingsDoNotMatter() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try Data(PNG.encode(Self.base, options: .small)).write(to: a)
        try Data(PNG.encode(Self.base, options: .fast)).write(to: b)
        #expect(try Data(contentsOf: a) != Data(contentsOf: b))
        let result = try CLI.run(["diff", a.path, b.path])
        #expect(result.status == 0, "\(result)")
    }

    @Test("a missing file is a usage error naming the file")
    func missingFile() throws {
        let result = try CLI.run(["diff", "/nonexistent/a.png", "/nonexistent/b.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/a.png"))
    }

    @Test("identical bytes that are not a PNG are still an error, not a pass")
    func identicalGarbage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png")
        try Data("nonsense".utf8).write(to: a)
        let result = try CLI.run(["diff", a.path, a.path])
        #expect(result.status == 2)
    }
}
