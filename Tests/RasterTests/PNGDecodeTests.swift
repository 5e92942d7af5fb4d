import Testing
@testable import Raster

/// Every colour type and bit depth the PNG specification allows (table 11.1).
let colorTypeDepths: [(colorType: Int, depth: Int)] = [
    (0, 1), (0, 2), (0, 4), (0, 8), (0, 16),
    (2, 8), (2, 16),
    (3, 1), (3, 2), (3, 4), (3, 8),
    (4, 8), (4, 16),
    (6, 8), (6, 16),
]

struct DecodeCase: CustomTestStringConvertible, Sendable {
    let colorType: Int
    let depth: Int
    let interlaced: Bool
    let transparency: Bool
    var testDescription: String {
        "type \(colorType) depth \(depth)\(interlaced ? " interlaced" : "")\(transparency ? " tRNS" : "")"
    }
}

let decodeCases: [DecodeCase] = colorTypeDepths.flatMap { ct in
    [false, true].flatMap { interlaced in
        // tRNS exists for grey, RGB and palette images only (PNG specification, 11.3.2.1).
        ([0, 2, 3].contains(ct.colorType) ? [false, true] : [false]).map { trns in
            DecodeCase(colorType: ct.colorType, depth: ct.depth, interlaced: interlaced, transparency: trns)
        }
    }
}

@Suite("PNG decoding")
struct PNGDecodeTests {
    @Test("every colour type, bit depth, interlace and tRNS becomes the right RGBA8", arguments: decodeCases)
    func decodesEveryLayout(_ c: DecodeCase) throws {
        let forged = ForgeImage.sweep(colorType: c.colorType, bitDepth: c.depth, interlaced: c.interlaced,
                                      transparency: c.transparency)
        let decoded = try PNG.decode(forged.file())
        #expect(decoded.image.width == forged.width)
        #expect(decoded.image.height == forged.height)
        #expect(decoded.bitDepth == c.depth)
        #expect(decoded.colorType == c.colorType)
        #expect(decoded.interlaced == c.interlaced)
        let expected = forged.expectedRGBA()
        #expect(decoded.image.pixels == expected)
        if c.transparency {
            #expect(decoded.image.pixels.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 },
                    "tRNS must make at least one pixel transparent")
        }
    }

    @Test("interlaced and non-interlaced files of the same samples decode identically")
    func interlaceIsInvisible() throws {
        for ct in colorTypeDepths {
            let plain = ForgeImage.sweep(colorType: ct.colorType, bitDepth: ct.depth, width: 17, height: 9)
            var laced = plain
            laced.interlaced = true
            #expect(try PNG.decode(plain.file()).image == PNG.decode(laced.file()).image)
        }
    }

    @Test("16-bit samples are rounded to the nearest 8-bit level, not truncated")
    func sixteenBitRounding() throws {
        // All 65536 grey values, one per pixel.
        let side = 256
        let samples = (0..<side).map { y in (0..<side).map { x in [y * side + x] } }
        let forged = ForgeImage(width: side, height: side, colorType: 0, bitDepth: 16, samples: samples)
        let pixels = try PNG.decode(forged.file()).image.pixels
        var wrong = 0
        for v in 0..<65536 {
            // round(v * 255 / 65535); there are no ties because 65535 / 255 = 257 is odd.
            let rounded = UInt8((Double(v) * 255 / 65535).rounded())
            if pixels[v * 4] != rounded { wrong += 1 }
        }
        #expect(wrong == 0)
        // Truncation would give 0 for 0x0080 (128); rounding gives 0 too, but 0x0081 (129) must
        // round to 1 (129/257 = 0.502).
        #expect(pixels[129 * 4] == 1)
        #expect(pixels[65406 * 4] == 254) // 65406 / 257 = 254.498
        #expect(pixels[65407 * 4] == 255) // 65407 / 257 = 254.502
    }

    @Test("gamma and colour-profile chunks do not change the stored sample values")
    func noColourManagement() throws {
        var forged = ForgeImage.sweep(colorType: 2, bitDepth: 8)
        let gamma10 = be32(100_000)                       // gAMA 1.0, would brighten if applied
        let bogusProfile = Array("display".utf8) + [0, 0] + forgeZlib(Array(repeating: 7, count: 200))
        forged.extraChunksBeforeData = [forgeChunk("gAMA", gamma10), forgeChunk("iCCP", bogusProfile)]
        #expect(try PNG.decode(forged.file()).image.pixels == forged.expectedRGBA())
        forged.extraChunksBeforeData = [forgeChunk("sRGB", [0]), forgeChunk("gAMA", be32(45455))]
        #expect(try PNG.decode(forged.file()).image.pixels == forged.expectedRGBA())
    }

    @Test("text chunks written by other tools are read; unknown ancillary chunks are skipped")
    func foreignChunks() throws {
        var forged = ForgeImage.sweep(colorType: 6, bitDepth: 8)
        forged.extraChunksBeforeData = [forgeChunk("tEXt", Array("Software".utf8) + [0] + Array("Simulator".utf8)),
                                        forgeChunk("abCd", [1, 2, 3])]
        forged.extraChunksAfterData = [forgeChunk("tEXt", Array("Comment".utf8) + [0] + [0xE9])]  // Latin-1 é
        let decoded = try PNG.decode(forged.file())
        #expect(decoded.metadata.text == ["Software": "Simulator", "Comment": "é"])
        #expect(decoded.metadata.sideData == nil)
        #expect(decoded.image.pixels == forged.expectedRGBA())
    }
}
