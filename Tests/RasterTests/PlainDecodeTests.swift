import CPNG
import Testing
@testable import Raster

/// The plain decoder (libdeflate and NavReel's own unfiltering, issue 17) must give exactly what
/// libpng gives, for every row filter, RGB and RGBA, odd sizes, several IDAT chunks and text.
/// One of CPNG's plain decoders called directly on a file's IDAT chunks, into a buffer of the size
/// they need (RGBA8 plus a byte a row): the decoder's status and the RGBA8 pixels.
func callPlainDecoder(_ bytes: [UInt8], width: Int, height: Int,
                      _ decode: (UnsafePointer<UInt8>?, UnsafePointer<nr_span>?, Int, UnsafeMutablePointer<UInt8>?, Int) -> Int32)
    throws -> (Int32, [UInt8]) {
    let structure = try PNGStructure.scan(bytes, source: "t.png")
    let spans = structure.chunks.filter { $0.type == "IDAT" }.map { nr_span(offset: $0.dataOffset, length: $0.length) }
    var dst = [UInt8](repeating: 0, count: width * height * 4 + height)
    let capacity = dst.count
    let status = bytes.withUnsafeBufferPointer { b in
        spans.withUnsafeBufferPointer { sp in
            dst.withUnsafeMutableBufferPointer { d in decode(b.baseAddress, sp.baseAddress, sp.count, d.baseAddress, capacity) }
        }
    }
    return (status, Array(dst.prefix(width * height * 4)))
}

@Suite("PNG plain decoder")
struct PlainDecodeTests {
    /// A deterministic image with noise, flat runs and translucency, so every filter is chosen.
    static func image(width: Int, height: Int, opaque: Bool) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var seed: UInt32 = 0x9E37_79B9
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let i = (y * width + x) * 4
                let flat = (x / 7 + y / 5) % 3 == 0
                pixels[i] = flat ? 200 : UInt8(truncatingIfNeeded: seed >> 24)
                pixels[i + 1] = flat ? 30 : UInt8(truncatingIfNeeded: (x * 255) / max(1, width - 1))
                pixels[i + 2] = UInt8(truncatingIfNeeded: (seed >> 8) & 0xFF)
                pixels[i + 3] = opaque ? 255 : UInt8(truncatingIfNeeded: (y * 37 + x) & 0xFF)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    static func decodeBoth(_ bytes: [UInt8]) throws -> (plain: DecodedPNG, libpng: DecodedPNG) {
        try bytes.withUnsafeBytes { raw in
            (try PNG.decode(raw, source: "t.png", limits: .default, plain: true),
             try PNG.decode(raw, source: "t.png", limits: .default, plain: false))
        }
    }

    /// nr_png_decode_plain called directly on a file's IDAT chunks: its status and the RGBA8 pixels.
    static func plainStatus(_ bytes: [UInt8], width: Int, height: Int, channels: Int) throws -> (Int32, [UInt8]) {
        try callPlainDecoder(bytes, width: width, height: height) { data, spans, count, dst, capacity in
            nr_png_decode_plain(data, spans, count, UInt32(width), UInt32(height), Int32(channels), dst, capacity)
        }
    }

    @Test("every filter, RGB and RGBA, several sizes: the same pixels and metadata as libpng",
          arguments: [PNGEncodeOptions.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func sameAsLibpng(_ filter: PNGEncodeOptions.Filter) throws {
        for (w, h) in [(1, 1), (2, 3), (13, 11), (64, 9), (257, 5)] {
            for opaque in [true, false] {
                for reduce in [true, false] {
                    let image = Self.image(width: w, height: h, opaque: opaque)
                    let metadata = PNGMetadata(text: ["navreel.frame": "3", "Title": "Größe ✓"], sideData: [1, 2, 3, 4, 5])
                    let bytes = try PNG.encode(image, metadata: metadata,
                                               options: PNGEncodeOptions(compressionLevel: 6, filter: filter, strategy: .default, reduceColors: reduce))
                    let (plain, libpng) = try Self.decodeBoth(bytes)
                    #expect(plain == libpng, "\(filter) \(w)x\(h) opaque \(opaque)")
                    #expect(plain.image == image, "\(filter) \(w)x\(h) opaque \(opaque)")
                    // RGBA always without colour reduction; RGB for opaque images of over 256 colours.
                    if !reduce { #expect(plain.colorType == 6) }
                    if reduce && w * h > 500 { #expect(plain.colorType == (opaque ? 2 : 6), "\(w)x\(h)") }
                    if plain.colorType == 2 || plain.colorType == 6 {
                        // The plain decoder itself took the file (no silent fallback to libpng).
                        let (status, pixels) = try Self.plainStatus(bytes, width: w, height: h, channels: plain.colorType == 6 ? 4 : 3)
                        #expect(Int(status) == NR_OK, "\(filter) \(w)x\(h)")
                        #expect(pixels == image.pixels, "\(filter) \(w)x\(h)")
                    }
                }
            }
        }
    }

    /// Average and Paeth rows are unfiltered a pixel at a time with all channels in SIMD lanes
    /// (SSE2), Paeth chosen by masks, and RGB None and Up rows four pixels at a time (SSSE3):
    /// forged rows of arbitrary filtered bytes, mostly 0-3 so that Paeth's three distances tie
    /// often (the specification's order of ties decides), and of any value, mixed with rows of
    /// every other filter, must decode as libpng decodes them.
    @Test("Average, Paeth, None and Up rows of arbitrary bytes, with ties: the same pixels as libpng", arguments: [2, 6])
    func filteredRowsAsLibpng(_ colorType: Int) throws {
        let channels = colorType == 6 ? 4 : 3
        var seed: UInt32 = 0x2545_F491
        func next() -> UInt32 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return seed >> 8
        }
        let mixed: [UInt8] = [4, 3, 4, 0, 4, 4, 1, 3, 2, 4, 3, 3, 2, 2, 0, 2]
        var cases = [1, 2, 3, 5, 6, 7, 16, 33].map { (width: $0, filters: mixed) }
        // One and two rows too: the output then comes closest to the unread input (in place).
        for filters: [UInt8] in [[0], [2], [3], [4], [0, 2], [2, 2], [4, 2], [2, 4]] {
            cases += [(width: 40, filters: filters), (width: 41, filters: filters)]
        }
        for (width, filters) in cases {
            let height = filters.count
            for wide in [false, true] {
                var raw: [UInt8] = []
                for row in 0..<filters.count {
                    raw.append(filters[row])
                    for _ in 0..<(width * channels) {
                        raw.append(UInt8(truncatingIfNeeded: wide ? next() : next() % 4))
                    }
                }
                let forged = ForgeImage.sweep(colorType: colorType, bitDepth: 8, width: width, height: height)
                let bytes = forged.file(idat: forgeZlib(raw))
                let (plain, libpng) = try Self.decodeBoth(bytes)
                #expect(plain.image == libpng.image, "colour type \(colorType), \(width)x\(height), wide \(wide)")
                #expect(plain.colorType == colorType)
                // The plain decoder itself decoded it (a silent fallback would compare libpng with itself).
                let (status, pixels) = try Self.plainStatus(bytes, width: width, height: height, channels: channels)
                #expect(Int(status) == NR_OK, "colour type \(colorType), \(width)x\(height)")
                #expect(pixels == libpng.image.pixels, "colour type \(colorType), \(width)x\(height), wide \(wide)")
            }
        }
    }

    @Test("image data split over many IDAT chunks, and files the plain decoder leaves to libpng")
    func splitAndFallback() throws {
        let image = Self.image(width: 40, height: 30, opaque: false)
        // The forge writes one IDAT a row when asked for chunks of `rowBytes`.
        var forged = ForgeImage.sweep(colorType: 6, bitDepth: 8, width: 40, height: 30)
        let data = forgeZlib(forged.rawData())
        var chunks: [[UInt8]] = []
        var at = 0
        while at < data.count {
            chunks.append(forgeChunk("IDAT", Array(data[at..<min(data.count, at + 97)])))
            at += 97
        }
        let file = PNGStructure.signature + forgeChunk("IHDR", forged.ihdr()) + chunks.flatMap { $0 } + forgeChunk("IEND", [])
        let (plain, libpng) = try Self.decodeBoth(file)
        #expect(plain == libpng)
        // Grey, palette, 16-bit and interlaced files are libpng's: still decoded, the same.
        for (color, depth) in [(0, 8), (3, 8), (2, 16), (4, 8)] {
            let f = ForgeImage.sweep(colorType: color, bitDepth: depth, width: 13, height: 11).file()
            let (p, l) = try Self.decodeBoth(f)
            #expect(p == l, "colour type \(color), \(depth) bits")
        }
        forged.interlaced = true
        let (p, l) = try Self.decodeBoth(forged.file())
        #expect(p == l, "interlaced")
        _ = image
    }

    @Test("a bad filter type or short data in a plain file gives libpng's error, as before")
    func errorsAsBefore() throws {
        let forged = ForgeImage.sweep(colorType: 2, bitDepth: 8, width: 13, height: 11)
        var raw = forged.rawData()
        raw[(1 + 13 * 3) * 4] = 9   // row 4's filter type
        let bad = forged.file(idat: forgeZlib(raw))
        var messages: [String] = []
        for plain in [true, false] {
            do {
                _ = try bad.withUnsafeBytes { try PNG.decode($0, source: "x.png", limits: .default, plain: plain) }
                Issue.record("decoded")
            } catch {
                messages.append("\(error)")
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1], "\(messages)")
        let short = forged.file(idat: forgeZlib(Array(forged.rawData().prefix(100))))
        do {
            _ = try PNG.decode(short, source: "x.png")
            Issue.record("decoded")
        } catch {
            #expect(error.description.contains("holds 100 of the"), "\(error)")
        }
    }
}

/// Grey and palette files (since issue 17's review: 112 of the 790 bundled baselines are one
/// or the other) through the plain decoder: the same as libpng, and taken by it.
@Suite("PNG plain decoder, grey and palette")
struct PlainIndexedDecodeTests {
    /// `colors` colours (translucent ones when `translucent`), in runs and noise.
    static func image(width: Int, height: Int, colors: Int, translucent: Bool, grey: Bool) -> Image {
        var image = Image(width: width, height: height, fill: RGBA8(0, 0, 0))
        var seed: UInt32 = 0x1234_5678
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let k = (x / 5 + y / 3) % 4 == 0 ? 0 : Int(seed >> 20) % colors
                let v = UInt8(truncatingIfNeeded: k * 255 / max(1, colors - 1))
                image[x, y] = grey ? RGBA8(v, v, v) : RGBA8(v, UInt8(truncatingIfNeeded: k * 37), UInt8(255 - Int(v)),
                                                          translucent && k % 3 == 1 ? UInt8(truncatingIfNeeded: k * 11) : 255)
            }
        }
        return image
    }

    /// What nr_png_decode_plain_indexed itself returns for the file (no silent fall-back).
    static func indexedStatus(_ bytes: [UInt8], width w: Int, height h: Int) throws -> (Int32, [UInt8]) {
        let structure = try PNGStructure.scan(bytes, source: "t.png")
        let (_, table) = try #require(bytes.withUnsafeBytes { PNG.plainChunks(structure, $0, chunkBound: 1 << 20) })
        let t = try #require(table)
        return try callPlainDecoder(bytes, width: w, height: h) { data, spans, count, dst, capacity in
            t.withUnsafeBufferPointer { tp in
                nr_png_decode_plain_indexed(data, spans, count, UInt32(w), UInt32(h), tp.baseAddress, Int32(tp.count), dst, capacity)
            }
        }
    }

    @Test("every filter, palette with and without tRNS, grey: the same pixels as libpng",
          arguments: [PNGEncodeOptions.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func sameAsLibpng(_ filter: PNGEncodeOptions.Filter) throws {
        for (w, h) in [(1, 1), (3, 2), (17, 13), (64, 9), (300, 5)] {
            for (colors, translucent, grey, type) in [(5, false, false, 3), (200, true, false, 3), (60, false, true, 0)] {
                let image = Self.image(width: w, height: h, colors: colors, translucent: translucent, grey: grey)
                let bytes = try PNG.encode(image, metadata: PNGMetadata(text: ["k": "v"], sideData: [9, 8, 7]),
                                           options: PNGEncodeOptions(compressionLevel: 6, filter: filter, strategy: .default, reduceColors: true))
                let (plain, libpng) = try PlainDecodeTests.decodeBoth(bytes)
                #expect(plain == libpng, "\(filter) \(w)x\(h) \(colors) colours")
                #expect(plain.image == image, "\(filter) \(w)x\(h) \(colors) colours")
                #expect(plain.colorType == type, "\(filter) \(w)x\(h) \(colors) colours")
                let (status, pixels) = try Self.indexedStatus(bytes, width: w, height: h)
                #expect(Int(status) == NR_OK, "\(filter) \(w)x\(h) \(colors) colours")
                #expect(pixels == image.pixels, "\(filter) \(w)x\(h) \(colors) colours")
            }
        }
    }

    @Test("indices past the palette, a tRNS longer than the palette or before it, grey with tRNS: left to libpng, same result")
    func oddFilesAsLibpng() throws {
        func outcome(_ bytes: [UInt8], plain: Bool) -> String {
            do {
                return "\(try bytes.withUnsafeBytes { try PNG.decode($0, source: "x.png", limits: .default, plain: plain) }.image.pixels)"
            } catch {
                return "error: \(error)"
            }
        }
        var forged = ForgeImage.sweep(colorType: 3, bitDepth: 8, width: 13, height: 11)
        var files: [(String, [UInt8])] = []
        // The sweep's indices run past a two-entry palette.
        forged.palette = [(1, 2, 3), (4, 5, 6)]
        files.append(("index past the palette", forged.file()))
        forged = ForgeImage.sweep(colorType: 3, bitDepth: 8, width: 13, height: 11)
        forged.trns = [UInt8](repeating: 7, count: forged.palette.count + 1)
        files.append(("tRNS longer than the palette", forged.file()))
        forged = ForgeImage.sweep(colorType: 0, bitDepth: 8, width: 13, height: 11)
        forged.trns = [0, 9]
        files.append(("grey with tRNS", forged.file()))
        for (name, bytes) in files {
            #expect(outcome(bytes, plain: true) == outcome(bytes, plain: false), "\(name)")
        }
        // And the indexed decoder itself refuses an index past its table.
        let past = files[0].1
        let structure = try PNGStructure.scan(past, source: "t.png")
        if let (_, table) = past.withUnsafeBytes({ PNG.plainChunks(structure, $0, chunkBound: 1 << 20) }), let table {
            #expect(table.count == 2)
            let (status, _) = try Self.indexedStatus(past, width: 13, height: 11)
            #expect(Int(status) == NR_PLAIN_FALLBACK)
        } else {
            Issue.record("the two-entry palette file should be plain")
        }
    }
}
