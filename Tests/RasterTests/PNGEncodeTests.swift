import Testing
@testable import Raster

/// A deterministic test image with `colors` distinct colours (or fully random when nil).
func sampleImage(width: Int, height: Int, colors: Int? = nil, opaque: Bool = false, grey: Bool = false, seed: UInt64 = 1) -> Image {
    var state = seed
    func next() -> UInt8 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return UInt8(truncatingIfNeeded: state >> 40)
    }
    let palette: [RGBA8]? = colors.map { n in (0..<n).map { _ in RGBA8(next(), next(), next(), opaque ? 255 : next()) } }
    var image = Image(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            var c = palette.map { $0[Int(next()) % $0.count] } ?? RGBA8(next(), next(), next(), opaque ? 255 : next())
            if grey { c = RGBA8(c.r, c.r, c.r, c.a) }
            image[x, y] = c
        }
    }
    return image
}

struct EncodeCase: CustomTestStringConvertible, Sendable {
    let name: String
    let image: Image
    let options: PNGEncodeOptions
    let colorType: Int
    var testDescription: String { name }
}

let encodeCases: [EncodeCase] = [
    EncodeCase(name: "random RGBA, small", image: sampleImage(width: 31, height: 17), options: .small, colorType: 6),
    EncodeCase(name: "random RGBA, fast", image: sampleImage(width: 31, height: 17), options: .fast, colorType: 6),
    EncodeCase(name: "opaque, many colours -> RGB", image: sampleImage(width: 40, height: 40, opaque: true), options: .small, colorType: 2),
    EncodeCase(name: "opaque grey -> grey", image: sampleImage(width: 40, height: 40, opaque: true, grey: true), options: .small, colorType: 0),
    EncodeCase(name: "few translucent colours -> palette with tRNS", image: sampleImage(width: 50, height: 50, colors: 12), options: .small, colorType: 3),
    EncodeCase(name: "256 colours -> palette", image: sampleImage(width: 64, height: 64, colors: 256, opaque: true, seed: 3), options: .small, colorType: 3),
    EncodeCase(name: "no reduction keeps RGBA", image: sampleImage(width: 20, height: 20, colors: 3, opaque: true), options: PNGEncodeOptions(reduceColors: false), colorType: 6),
    EncodeCase(name: "level 0, no filter", image: sampleImage(width: 9, height: 9), options: PNGEncodeOptions(compressionLevel: 0, filter: .none, reduceColors: false), colorType: 6),
    EncodeCase(name: "paeth, huffman only", image: sampleImage(width: 9, height: 9), options: PNGEncodeOptions(compressionLevel: 5, filter: .paeth, strategy: .huffmanOnly, reduceColors: false), colorType: 6),
    EncodeCase(name: "one pixel", image: Image(width: 1, height: 1, fill: RGBA8(1, 2, 3, 4)), options: .small, colorType: 3),
]

@Suite("PNG encoding")
struct PNGEncodeTests {
    @Test("what NavReel writes decodes to identical pixels, in the smallest colour type", arguments: encodeCases)
    func roundTrip(_ c: EncodeCase) throws {
        let bytes = try PNG.encode(c.image, options: c.options)
        let decoded = try PNG.decode(bytes)
        #expect(decoded.image == c.image)
        #expect(decoded.colorType == c.colorType)
    }

    @Test("metadata round-trips: ASCII and UTF-8 text, binary side data")
    func metadataRoundTrip() throws {
        let side = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 3) }
        let metadata = PNGMetadata(text: ["navreel.scenario": "wechat-pop", "navreel.font": "Inter — Semibold 字",
                                          "navreel.frame": "12"], sideData: side)
        let image = sampleImage(width: 12, height: 8)
        let decoded = try PNG.decode(PNG.encode(image, metadata: metadata))
        #expect(decoded.metadata == metadata)
        #expect(decoded.image == image)
        let emptySide = PNGMetadata(sideData: [])
        #expect(try PNG.decode(PNG.encode(image, metadata: emptySide)).metadata == emptySide)
    }

    @Test("the same pixels and metadata give the same bytes, with no timestamp")
    func byteStable() throws {
        let metadata = PNGMetadata(text: ["b": "2", "a": "1", "c": "3"], sideData: [1, 2, 3])
        let image = sampleImage(width: 30, height: 30, colors: 40)
        let first = try PNG.encode(image, metadata: metadata)
        for _ in 0..<3 {
            #expect(try PNG.encode(image, metadata: metadata) == first)
        }
        // A dictionary built in another order encodes the same.
        var reordered = PNGMetadata(sideData: [1, 2, 3])
        for key in ["c", "a", "b"] { reordered.text[key] = metadata.text[key] }
        #expect(try PNG.encode(image, metadata: reordered) == first)
        let types = try PNGStructure.scan(first, source: "x").chunks.map(\.type)
        #expect(!types.contains("tIME"))
        #expect(types.first == "IHDR" && types.last == "IEND")
        #expect(types.contains("nrSD"))
        // Text before the image data (readable without inflating pixels), side data after.
        #expect(types.firstIndex(of: "tEXt")! < types.firstIndex(of: "IDAT")!)
        #expect(types.firstIndex(of: "nrSD")! > types.lastIndex(of: "IDAT")!)
    }

    @Test("compression settings matter: small is smaller than fast, level 0 is largest")
    func compressionLevels() throws {
        var image = Image(width: 200, height: 200, fill: RGBA8(240, 240, 240))
        for y in 0..<200 { for x in 0..<200 where (x / 10 + y / 10) % 2 == 0 { image[x, y] = RGBA8(UInt8(x), UInt8(y), 100) } }
        let small = try PNG.encode(image, options: .small).count
        let fast = try PNG.encode(image, options: .fast).count
        let stored = try PNG.encode(image, options: PNGEncodeOptions(compressionLevel: 0, filter: .none, reduceColors: false)).count
        #expect(small < fast)
        #expect(fast < stored)
        #expect(stored > 200 * 200 * 4)
    }

    @Test("bad metadata and empty images are refused, not written")
    func unencodable() {
        let image = sampleImage(width: 2, height: 2)
        for key in ["", String(repeating: "k", count: 80), " lead", "trail ", "dou  ble", "tab\tkey", "emoji😀"] {
            #expect(throws: PNGError.self, "key \"\(key)\"") { try PNG.encode(image, metadata: PNGMetadata(text: [key: "v"])) }
        }
        #expect(throws: PNGError.self) { try PNG.encode(Image(width: 0, height: 5)) }
        #expect(throws: PNGError.self) { try PNG.encode(image, options: PNGEncodeOptions(compressionLevel: 10)) }
    }
}
