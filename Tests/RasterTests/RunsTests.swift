import Testing
@testable import Raster

/// `Runs.end` against the plain loop it replaced, from every start of rows of map bytes and of
/// pixels: runs of several lengths, and values that differ from one another by a single bit in any
/// byte of a word, so that a wrong lane, shift or word offset shows up as a wrong end.
@Suite("Runs")
struct RunsTests {
    static func checkEnds<T: FixedWidthInteger & UnsignedInteger>(_ row: [T], _ note: String) {
        row.withUnsafeBufferPointer { p in
            for x in 0..<row.count {
                var e = x + 1
                while e < row.count && row[e] == row[x] { e += 1 }
                #expect(Runs.end(p.baseAddress!, x, row.count) == e, "\(note), x \(x)")
            }
        }
    }

    @Test("map bytes: where the value first changes, from every start")
    func bytes() {
        var seed: UInt64 = 99
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        for width in [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 300] {
            for round in 0..<20 {
                // Runs of 1-40 values; odd rounds change one value by a single bit.
                var row: [UInt8] = []
                while row.count < width {
                    let v = UInt8(truncatingIfNeeded: round % 2 == 0 ? next() : 0x80 ^ (next() % 2))
                    row += [UInt8](repeating: v, count: Int(next() % 40) + 1)
                }
                RunsTests.checkEnds(Array(row.prefix(width)), "width \(width)")
            }
        }
    }

    @Test("pixels: the first later pixel of another colour, from every start, a single bit off in any byte")
    func pixels() {
        var seed: UInt64 = 7
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        for width in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 63, 300] {
            for round in 0..<24 {
                // Runs of 1-12 pixels; odd rounds differ from one colour by one bit in one byte.
                let base = UInt32(truncatingIfNeeded: next())
                var row: [UInt32] = []
                while row.count < width {
                    let colour = round % 2 == 0 ? UInt32(truncatingIfNeeded: next()) : base ^ (1 << UInt32(next() % 32))
                    row += [UInt32](repeating: next() % 3 == 0 ? base : colour, count: Int(next() % 12) + 1)
                }
                RunsTests.checkEnds(Array(row.prefix(width)), "width \(width)")
            }
        }
    }
}
