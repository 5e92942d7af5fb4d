import Testing
@testable import Raster
import CPNG

/// The colour reduction against a plain per-pixel reference written from its rules: grey when
/// opaque and every pixel has r = g = b; a palette in first-seen order when at most 256 colours
/// (and at most 16, or translucent, or more than 1,024 pixels); RGB when opaque; RGBA otherwise.
/// The fast one skips repeated rows and runs, hashes colours in its own table and packs RGB four
/// pixels at a time: any slip there shows up as a different layout, palette or byte.
@Suite("Colour reduction")
struct ColorReductionTests {
    struct Reference {
        var colorType: Int32
        var palette: [RGBA8] = []
        var rows: [UInt8] = []
    }

    static func reference(_ image: Image) -> Reference {
        var order: [RGBA8] = []
        var seen: [RGBA8: Int] = [:]
        var opaque = true, grey = true
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image[x, y]
                if c.a != 255 { opaque = false }
                if c.r != c.g || c.g != c.b { grey = false }
                if seen[c] == nil { seen[c] = order.count; order.append(c) }
            }
        }
        var rows: [UInt8] = []
        func each(_ body: (RGBA8) -> [UInt8]) {
            for y in 0..<image.height { for x in 0..<image.width { rows += body(image[x, y]) } }
        }
        if opaque && grey {
            each { [$0.r] }
            return Reference(colorType: NR_COLOR_GRAY, rows: rows)
        }
        if order.count <= 256 && (order.count <= 16 || !opaque || image.pixelCount > 1024) {
            each { [UInt8(seen[$0]!)] }
            return Reference(colorType: NR_COLOR_PALETTE, palette: order, rows: rows)
        }
        if opaque {
            each { [$0.r, $0.g, $0.b] }
            return Reference(colorType: NR_COLOR_RGB, rows: rows)
        }
        each { [$0.r, $0.g, $0.b, $0.a] }
        return Reference(colorType: NR_COLOR_RGBA, rows: rows)
    }

    /// A UI-like frame: bands of repeated rows, runs of one colour, a gradient row now and then.
    static func uiImage(width: Int, height: Int, colors: Int, opaque: Bool, grey: Bool = false, seed: UInt64) -> Image {
        var state = seed
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        func color(_ i: Int) -> RGBA8 {
            let v = UInt8(truncatingIfNeeded: i &* 37), w = UInt8(truncatingIfNeeded: i &* 91 &+ 7)
            let a: UInt8 = opaque ? 255 : UInt8(truncatingIfNeeded: 128 + i % 128)
            return grey ? RGBA8(v, v, v, a) : RGBA8(v, w, UInt8(truncatingIfNeeded: i / 3), a)
        }
        var image = Image(width: width, height: height)
        var y = 0
        while y < height {
            var row: [RGBA8] = []
            var x = 0
            while x < width {
                let run = 1 + next() % 40
                let c = color(next() % colors)
                for _ in 0..<min(run, width - x) { row.append(c) }
                x += run
            }
            for r in y..<min(height, y + 1 + next() % 6) {
                for x in 0..<width { image[x, r] = row[x] }
            }
            y += 1 + next() % 6
        }
        return image
    }

    static func check(_ image: Image) {
        let expected = reference(image)
        let layout = ColorReduction.choose(for: image)
        #expect(layout.colorType == expected.colorType)
        if expected.colorType == NR_COLOR_PALETTE {
            #expect(layout.palette == expected.palette.flatMap { [$0.r, $0.g, $0.b] })
            let lastTranslucent = expected.palette.lastIndex { $0.a != 255 } ?? -1
            #expect(layout.paletteAlpha == expected.palette.prefix(lastTranslucent + 1).map(\.a))
        }
        let packed = layout.pack(image)
        #expect(packed.stride == image.width * layout.channels)
        #expect(Array(packed.bytes.prefix(image.height * packed.stride)) == expected.rows)
        // With filter bytes: each row is 0 and then the same bytes.
        let filtered = layout.packFiltered(image)
        var unfiltered: [UInt8] = []
        let stride = 1 + image.width * layout.channels
        #expect(filtered.count == stride * image.height)
        for y in 0..<image.height {
            #expect(filtered[y * stride] == 0)
            unfiltered += filtered[(y * stride + 1)..<((y + 1) * stride)]
        }
        #expect(unfiltered == expected.rows)
        // The encoder's way: opacity past 256 colours learnt while packing. Same layout, same rows.
        var learnt = ColorReduction.choose(for: image, deferringOpacity: true)
        let learntRows = learnt.packFiltered(checking: image)
        #expect(learnt.opacityKnown && learnt.colorType == expected.colorType && learnt.channels == layout.channels)
        #expect(learntRows == filtered)
    }

    @Test("random pixels: every layout, widths with and without a whole group of four")
    func random() {
        for (width, height) in [(1, 1), (3, 2), (4, 4), (7, 5), (33, 40), (64, 17)] {
            // (sampleImage draws colours with an 8-bit random number: 256 at most. The UI-like
            // frames and lateChanges go past 256 colours.)
            for colors in [nil, 1, 16, 17, 256] as [Int?] {
                for opaque in [true, false] {
                    for grey in [true, false] {
                        ColorReductionTests.check(sampleImage(width: width, height: height, colors: colors, opaque: opaque, grey: grey,
                                                              seed: UInt64(width * 1000 + height)))
                    }
                }
            }
        }
    }

    @Test("UI-like frames: repeated rows and runs, 1 to 300 colours, palettes over and under 1,024 pixels")
    func uiLike() {
        for seed in 1...4 as ClosedRange<UInt64> {
            for (width, height) in [(390, 107), (31, 30), (5, 300)] {
                for colors in [1, 2, 15, 200, 255, 256, 300] {
                    ColorReductionTests.check(ColorReductionTests.uiImage(width: width, height: height, colors: colors, opaque: true, seed: seed))
                    ColorReductionTests.check(ColorReductionTests.uiImage(width: width, height: height, colors: colors, opaque: false, seed: seed))
                    ColorReductionTests.check(ColorReductionTests.uiImage(width: width, height: height, colors: colors, opaque: true, grey: true, seed: seed))
                }
            }
        }
    }

    @Test("RGB packing, with the byte shuffle and without: alpha dropped, nothing written past the row")
    func packRGB() {
        var seed: UInt64 = 11
        func next() -> UInt8 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: seed >> 33) }
        for width in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 31, 390] {
            let rgba = (0..<width * 4).map { _ in next() }
            let expected = (0..<width).flatMap { rgba[4 * $0..<4 * $0 + 3] }
            for shuffle in nr_png_ssse3() == 1 ? [0, 1] : [0] as [Int32] {
                // Guard bytes after the row must come back untouched.
                var out = [UInt8](repeating: 0xA5, count: width * 3 + 16)
                let alphas = nr_pack_rgb(rgba, &out, width, shuffle)
                #expect(Array(out.prefix(width * 3)) == expected, "width \(width), shuffle \(shuffle)")
                #expect(alphas == (0..<width).reduce(UInt8(0xFF)) { $0 & rgba[4 * $1 + 3] }, "width \(width), shuffle \(shuffle): AND of alphas")
                // Opaque but for one pixel, in every place: the byte shuffle's lanes and the tail.
                for x in 0..<width {
                    var opaque = rgba
                    for i in 0..<width { opaque[4 * i + 3] = 0xFF }
                    opaque[4 * x + 3] = 0xFE
                    #expect(nr_pack_rgb(opaque, &out, width, shuffle) == 0xFE, "width \(width), pixel \(x), shuffle \(shuffle)")
                }
                #expect(out.suffix(16).allSatisfy { $0 == 0xA5 }, "width \(width), shuffle \(shuffle)")
            }
        }
    }

    @Test("pixels resized after the image was made are refused, not read past")
    func resizedPixels() {
        var image = ColorReductionTests.uiImage(width: 390, height: 20, colors: 12, opaque: true, seed: 5)
        image.pixels.removeLast(4)
        #expect { try PNG.encode(image, options: .baseline) } throws: { "\($0)".contains("do not fit 390x20") }
        image.pixels += [0, 0, 0, 255, 1, 2, 3, 255]
        #expect { try PNG.encode(image, options: .small) } throws: { "\($0)".contains("do not fit 390x20") }
    }

    @Test("the 257th colour in a late row, after grey rows; translucency only in the last pixel")
    func lateChanges() {
        // 256 grey shades, then one coloured pixel at the very end: RGB, not grey, not a palette.
        var image = Image(width: 64, height: 5, fill: RGBA8(0, 0, 0, 255))
        for i in 0..<256 { image[i % 64, i / 64] = RGBA8(UInt8(i), UInt8(i), UInt8(i), 255) }
        image[63, 4] = RGBA8(1, 2, 3, 255)
        ColorReductionTests.check(image)
        #expect(ColorReduction.choose(for: image).colorType == NR_COLOR_RGB)
        // Opaque colours with one translucent pixel last: a palette whose tRNS covers it.
        var translucent = ColorReductionTests.uiImage(width: 390, height: 50, colors: 30, opaque: true, seed: 9)
        translucent[389, 49] = RGBA8(9, 9, 9, 10)
        ColorReductionTests.check(translucent)
        #expect(ColorReduction.choose(for: translucent).colorType == NR_COLOR_PALETTE)
        // Over 256 colours with a translucent pixel after the 257th: RGBA.
        var many = sampleImage(width: 40, height: 40, colors: nil, opaque: true, seed: 3)
        many[39, 39] = RGBA8(1, 1, 1, 254)
        ColorReductionTests.check(many)
        #expect(ColorReduction.choose(for: many).colorType == NR_COLOR_RGBA)
        // The encoder's way leaves that pixel to the packing pass, which finds it.
        var learnt = ColorReduction.choose(for: many, deferringOpacity: true)
        #expect(learnt.colorType == NR_COLOR_RGB && !learnt.opacityKnown)
        _ = learnt.packFiltered(checking: many)
        #expect(learnt.colorType == NR_COLOR_RGBA && learnt.channels == 4)
    }
}
