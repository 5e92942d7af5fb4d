import Compare
import Testing
import Raster
@testable import NavReel

/// Issue 16: the fast path is proven, not trusted. A small baseline as NavReel writes it, then
/// every single-byte change of it: each must be refused with an error, or be provably irrelevant.
@Suite("baseline tampering")
struct BaselineTamperTests {
    /// A palette image (few colours) with maps: every chunk kind a baseline can hold.
    static func baseline() throws -> (bytes: [UInt8], image: Image, side: [UInt8]) {
        var image = Image(width: 12, height: 8, fill: RGBA8(250, 250, 250))
        for x in 0..<12 { image[x, 7] = RGBA8(0, 0, 0, 80) }
        image[3, 3] = RGBA8(0, 122, 255)
        let maps = FrameMaps(width: 12, height: 8, translucency: [UInt8](repeating: 7, count: 96),
                             elements: [UInt8](repeating: 1, count: 96), elementNames: [1: "bar"])
        let side = maps.serialized()
        let bytes = try BaselineFile.encode(image, text: ["navreel.content": "c0ffee", "navreel.frame": "1"], side: side)
        return (bytes, image, side)
    }

    enum Outcome: Equatable { case refused, fastPass, decodedSame, decodedDifferent }

    /// What `check` does with a baseline's bytes (SuiteRunner.frame): the fast path, else a full decode.
    static func judge(_ bytes: [UInt8], image: Image, side: [UInt8]) -> Outcome {
        do {
            if try BaselineFile.scan(bytes, source: "b.png").matches(content: "c0ffee") { return .fastPass }
            let decoded = try PNG.decode(bytes, source: "b.png")
            return decoded.image == image && decoded.metadata.sideData == side ? .decodedSame : .decodedDifferent
        } catch {
            return .refused
        }
    }

    @Test("the untouched baseline takes the fast path and is a palette image with tRNS and maps")
    func untouched() throws {
        let (bytes, image, side) = try Self.baseline()
        #expect(Self.judge(bytes, image: image, side: side) == .fastPass)
        let types = try PNGStructure.scan(bytes, source: "b.png").chunks.map(\.type)
        #expect(["PLTE", "tRNS", "IDAT", "nrSD", "tEXt"].allSatisfy(types.contains), "\(types)")
    }

    @Test("every single-byte change is refused, or leaves pixels and maps as they were and is in a text chunk",
          arguments: [0x01, 0x80, 0xFF] as [UInt8])
    func everyByte(_ mask: UInt8) throws {
        let (bytes, image, side) = try Self.baseline()
        let structure = try PNGStructure.scan(bytes, source: "b.png")
        var outcomes: [Outcome: Int] = [:]
        for i in 0..<bytes.count {
            var changed = bytes
            changed[i] ^= mask
            let outcome = Self.judge(changed, image: image, side: side)
            outcomes[outcome, default: 0] += 1
            #expect(outcome != .fastPass && outcome != .decodedDifferent, "byte \(i)")
            if outcome == .decodedSame {
                let chunk = structure.chunks.first { $0.dataOffset - 8 <= i && i < $0.dataOffset + $0.length + 4 }
                #expect(chunk?.type == "tEXt", "byte \(i) changed nothing it was allowed to")
            }
        }
        // All CRCs are checked, so in fact every change is refused.
        #expect(outcomes == [.refused: bytes.count], "\(outcomes)")
    }

    @Test("chunks edited with their CRC fixed no longer match the fast path", arguments: ["PLTE", "tRNS", "IDAT", "nrSD", "IHDR"])
    func editedWithCRC(_ type: String) throws {
        let (bytes, image, side) = try Self.baseline()
        let structure = try PNGStructure.scan(bytes, source: "b.png")
        let chunk = try #require(structure.chunks.first { $0.type == type })
        var changed = bytes
        // The whole palette inverted (the case measured in issue 16); the first byte of tRNS, IDAT
        // and the maps inverted; the header marked interlaced. The CRC recomputed as a forger would.
        switch type {
        case "PLTE": for i in chunk.dataOffset..<chunk.dataOffset + chunk.length { changed[i] = ~changed[i] }
        case "IHDR": changed[chunk.dataOffset + 12] = 1
        default: changed[chunk.dataOffset] = ~changed[chunk.dataOffset]
        }
        refreshCRC(ofChunkAt: chunk.dataOffset, length: chunk.length, in: &changed)
        // Not the fast path; decoded, it is refused or differs (so the comparison decides).
        let outcome = Self.judge(changed, image: image, side: side)
        #expect(outcome == .refused || outcome == .decodedDifferent, "\(outcome)")
    }
}

/// CRC-32 as PNG defines it (PNG specification, annex D), written out here so that the tests do not
/// rely on the code under test to forge a file.
func pngCRC32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}

/// Rewrites the CRC of the chunk whose data starts at `data`, as someone editing a file on purpose would.
func refreshCRC(ofChunkAt data: Int, length: Int, in bytes: inout [UInt8]) {
    let crc = pngCRC32(bytes[data - 4..<data + length])
    bytes.replaceSubrange(data + length..<data + length + 4,
                          with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
}
