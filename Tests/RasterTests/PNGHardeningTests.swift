import CPNG
import Testing
@testable import Raster

/// zlib at level 9 through the codec's own deflate (the forge writes stored blocks only, which
/// cannot make a small file that inflates to a lot).
private func deflated(_ data: [UInt8]) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = data.withUnsafeBufferPointer { nr_deflate($0.baseAddress, $0.count, 9, &out, &length, &message, message.count) }
    precondition(Int(status) == NR_OK)
    defer { nr_free(out) }
    return Array(UnsafeBufferPointer(start: out!, count: length))
}

private let good = ForgeImage.sweep(colorType: 6, bitDepth: 8, width: 40, height: 30)

private func file(width: UInt32, height: UInt32, depth: UInt8 = 8, color: UInt8 = 6, compression: UInt8 = 0, filter: UInt8 = 0,
                  idat: [UInt8], before: [[UInt8]] = []) -> [UInt8] {
    PNGStructure.signature + forgeChunk("IHDR", be32(width) + be32(height) + [depth, color, compression, filter, 0])
        + before.flatMap { $0 } + forgeChunk("IDAT", idat) + forgeChunk("IEND", [])
}

/// Hostile files of issue 16: each refused, before any large allocation, with what is wrong.
let hostileInputs: [BadInput] = {
    var cases: [BadInput] = []
    var critical = good
    critical.extraChunksBeforeData = [forgeChunk("ABCD", [1, 2, 3])]
    cases.append(BadInput(name: "an unknown critical chunk", bytes: critical.file(), kind: .corrupt, says: "unknown critical chunk ABCD"))
    let raw = good.rawData()
    cases.append(BadInput(name: "compression method 1", bytes: file(width: 40, height: 30, compression: 1, idat: forgeZlib(raw)),
                          kind: .corrupt, says: "unsupported compression method 1"))
    cases.append(BadInput(name: "filter method 1", bytes: file(width: 40, height: 30, filter: 1, idat: forgeZlib(raw)),
                          kind: .corrupt, says: "unsupported filter method 1"))
    // 16,384 x 16,384 at 1 bit: 33,570,816 bytes of rows, 1 GiB as RGBA. The stream holds 100,000
    // bytes, padded so that the compressed size alone cannot rule it out.
    let padded = deflated([UInt8](repeating: 0, count: 100_000)) + [UInt8](repeating: 0, count: 40_000)
    cases.append(BadInput(name: "16384x16384 declared, 100,000 bytes of rows", bytes: file(width: 16_384, height: 16_384, depth: 1, color: 0, idat: padded),
                          kind: .corrupt, says: "holds 100000 of the 33570816 bytes"))
    // The rows, then 32 MiB more in the same stream (a zlib bomb after the image).
    cases.append(BadInput(name: "a zlib bomb after the last row", bytes: good.file(idat: deflated(raw + [UInt8](repeating: 0, count: 32 << 20))),
                          kind: .corrupt, says: "continues after the last row"))
    var side = good
    side.extraChunksAfterData = [forgeChunk("nrSD", [1] + deflated([UInt8](repeating: 0, count: 4 << 20)))]
    cases.append(BadInput(name: "maps inflating past two bytes a pixel", bytes: side.file(), kind: .tooLarge,
                          says: "limit of \(40 * 30 * 2 + (1 << 20)) bytes"))
    var badData = good
    badData.extraChunksBeforeData = []
    var idat = forgeZlib(raw)
    idat[10] ^= 0xFF
    cases.append(BadInput(name: "damaged rows with a correct CRC", bytes: good.file(idat: idat), kind: .corrupt, says: "bad compressed data in the image data"))
    return cases
}()

@Suite("PNG hostile input")
struct PNGHardeningTests {
    @Test("each hostile input is refused with what is wrong", arguments: hostileInputs)
    func refused(_ c: BadInput) {
        do {
            let decoded = try PNG.decode(c.bytes, source: "x.png", limits: c.limits)
            Issue.record("decoded as \(decoded.image.width)x\(decoded.image.height)")
        } catch {
            #expect(error.kind == c.kind, "\(error)")
            #expect(error.description.contains(c.says), "\(error)")
        }
    }

    @Test("a compressed text chunk inflates to at most 1 MiB, however much it holds")
    func textBomb() throws {
        var bomb = good
        bomb.extraChunksAfterData = [forgeChunk("zTXt", Array("Comment".utf8) + [0, 0] + deflated([UInt8](repeating: 65, count: 32 << 20)))]
        let decoded = try? PNG.decode(bomb.file())
        #expect((decoded?.metadata.text["Comment"]?.utf8.count ?? 0) <= 1 << 20)
    }

    @Test("the exact size of the rows, per colour type, depth and interlacing", arguments: [
        (13, 11, 1, false, 11 * (1 + 2)), (13, 11, 32, false, 11 * (1 + 52)), (1, 1, 8, true, 2),
        // Adam7 of 3x3 at 8 bits: passes 1, 4, 5, 6 and 7 (2 and 3 are empty; PNG spec, 8.2).
        (3, 3, 8, true, 2 + 2 + 3 + 4 + 4),
    ])
    func filteredBytes(_ w: Int, _ h: Int, _ bpp: Int, _ interlaced: Bool, _ expected: Int) {
        #expect(PNGStructure.filteredBytes(width: w, height: h, bitsPerPixel: bpp, interlaced: interlaced) == expected)
    }

    @Test("every interlaced and plain file of the sweep measures exactly its rows")
    func measuredExactly() throws {
        for interlaced in [false, true] {
            for (color, depth) in [(0, 1), (0, 16), (2, 8), (3, 4), (4, 8), (6, 16)] {
                let f = ForgeImage.sweep(colorType: color, bitDepth: depth, width: 13, height: 7, interlaced: interlaced).file()
                #expect(throws: Never.self) { try PNG.decode(f) }
            }
        }
    }
}
