import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// Issue 16, end to end: baselines changed after `record` never pass `check` unnoticed.
@Suite("tampered baselines", .serialized)
struct TamperCLITests {
    /// Byte offset of the data of the first chunk of `type`, and its length.
    static func chunk(_ type: String, in file: [UInt8]) -> (data: Int, length: Int)? {
        var p = 8
        while p + 8 <= file.count {
            let length = Int(file[p]) << 24 | Int(file[p + 1]) << 16 | Int(file[p + 2]) << 8 | Int(file[p + 3])
            if String(decoding: file[p + 4..<p + 8], as: UTF8.self) == type { return (p + 8, length) }
            p += 12 + length
        }
        return nil
    }

    /// Data offset and length of the tEXt chunk holding `key`.
    static func text(_ key: String, in file: [UInt8]) -> (data: Int, length: Int)? {
        var p = 8
        while p + 8 <= file.count {
            let length = Int(file[p]) << 24 | Int(file[p + 1]) << 16 | Int(file[p + 2]) << 8 | Int(file[p + 3])
            if String(decoding: file[p + 4..<p + 8], as: UTF8.self) == "tEXt",
               String(decoding: file[p + 8..<p + 8 + length], as: UTF8.self).hasPrefix(key + "\0") {
                return (p + 8, length)
            }
            p += 12 + length
        }
        return nil
    }

    @Test("a baseline whose stored data hash is stale (an older NavReel's) is decoded, passes, and record refreshes it")
    func staleDataHash() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let url = p.baselines.appendingPathComponent("one/tiny/0001.png")
        var bytes = [UInt8](try Data(contentsOf: url))
        let t = try #require(Self.text("navreel.data", in: bytes))
        bytes[t.data + t.length - 1] = bytes[t.data + t.length - 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        refreshCRC(ofChunkAt: t.data, length: t.length, in: &bytes)
        try Data(bytes).write(to: url)
        func fastFrames() throws -> Int {
            let r = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
            #expect(r.status == 0, "\(r)")
            return r.stdout.components(separatedBy: "\"fastPath\": true").count - 1
        }
        #expect(try fastFrames() == 4)
        let record = try p.run(["record"])
        #expect(record.status == 0 && record.stdout.contains("1 changed"), "\(record)")
        #expect(try fastFrames() == 5)
    }

    @Test("a flipped bit in the maps, the image data or the header fails check with an error naming the chunk", arguments: ["nrSD", "IDAT", "IHDR"])
    func flippedBit(_ type: String) throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let url = p.baselines.appendingPathComponent("one/tiny/0002.png")
        var bytes = [UInt8](try Data(contentsOf: url))
        let c = try #require(Self.chunk(type, in: bytes))
        bytes[c.data + c.length - 1] ^= 0x04
        try Data(bytes).write(to: url)
        let r = try p.run(["check", "--record", "never"])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("ERROR one/tiny frame 2") || r.stdout.contains("ERROR one/tiny frame 2"), "\(r)")
        // Named by the chunk: a CRC error, or for the header the field it no longer allows.
        let says = type == "IHDR" ? "IHDR declares unknown interlace method" : "bad CRC in chunk \(type)"
        #expect((r.stdout + r.stderr).contains(says), "\(r)")
    }

    @Test("an inverted palette with its CRC fixed fails check; an edited version label does not matter")
    func editedWithCRC() throws {
        // No text: few colours, so the baselines are palette images.
        let p = try Project(["one": Project.scenario("one").replacingOccurrences(of: "title: A", with: "title: \"\"")
                                                         .replacingOccurrences(of: "title: B, content: {rows: 3}", with: "title: \"\"")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let url = p.baselines.appendingPathComponent("one/tiny/0002.png")
        let original = [UInt8](try Data(contentsOf: url))
        // The palette inverted, CRC recomputed: issue 16 measured this passing `check`.
        var bytes = original
        let plte = try #require(Self.chunk("PLTE", in: bytes), "the baseline is a palette image")
        for i in plte.data..<plte.data + plte.length { bytes[i] = ~bytes[i] }
        refreshCRC(ofChunkAt: plte.data, length: plte.length, in: &bytes)
        try Data(bytes).write(to: url)
        let inverted = try p.run(["check", "--record", "never"])
        #expect(inverted.status == 1 && inverted.stdout.contains("FAIL one/tiny frame 2"), "\(inverted)")
        // A text chunk NavReel does not use for pixels: the version that wrote it, CRC recomputed.
        // The pixels and maps are untouched, so the fast path still holds and check passes.
        bytes = original
        let l = try #require(Self.text("navreel.version", in: bytes))
        bytes[l.data + l.length - 1] = UInt8(ascii: "9")
        refreshCRC(ofChunkAt: l.data, length: l.length, in: &bytes)
        try Data(bytes).write(to: url)
        let relabelled = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
        #expect(relabelled.status == 0, "\(relabelled)")
        #expect(relabelled.stdout.components(separatedBy: "\"fastPath\": true").count - 1 == 5, "\(relabelled.stdout)")
    }

    @Test("diff of a damaged file with itself is exit 2, not a pass")
    func diffDamagedWithItself() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let url = p.baselines.appendingPathComponent("one/tiny/0001.png")
        var bytes = [UInt8](try Data(contentsOf: url))
        let c = try #require(Self.chunk("IDAT", in: bytes))
        bytes[c.data + 3] ^= 0x20
        try Data(bytes).write(to: url)
        let r = try CLI.run(["diff", url.path, url.path])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains(url.path) && r.stderr.contains("CRC"), "\(r)")
        // The undamaged neighbour with itself still passes.
        let fine = p.baselines.appendingPathComponent("one/tiny/0000.png").path
        #expect(try CLI.run(["diff", fine, fine]).status == 0)
    }
}
