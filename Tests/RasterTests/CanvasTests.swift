import Foundation
import Testing
@testable import Raster

let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

@Suite("canvas")
struct CanvasTests {
    @Test("random polygons against the clip's borders rasterize within it, never writing outside their buffer")
    func rasterizeRandomPolygons() {
        // Points on, just inside and just outside the clip's edges and at awkward fractions: a
        // write outside the accumulation buffer traps in a debug build (the test build).
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func coordinate(_ lo: Int, _ hi: Int) -> Double {
            let edges = [Double(lo), Double(hi)]
            switch next() % 5 {
            case 0: return edges[Int(next() % 2)]
            case 1: return edges[Int(next() % 2)] + [1e-12, -1e-12, 1e-17, 0.5, -0.5][Int(next() % 5)]
            case 2: return Double(lo) + Double(next() % 1000) / 1000 * Double(hi - lo)
            case 3: return Double(lo) - 3 + Double(next() % 7000) / 1000 * Double(hi - lo + 6) / 7
            default: return (Double(lo) + Double(next() % 97) / 3.3).nextUp
            }
        }
        for _ in 0..<3000 {
            let x0 = Int(next() % 20), y0 = Int(next() % 20)
            let clip = (x0, y0, x0 + 1 + Int(next() % 40), y0 + 1 + Int(next() % 40))
            let count = 3 + Int(next() % 6)
            let poly = (0..<count).map { _ in Point(coordinate(clip.0, clip.2), coordinate(clip.1, clip.3)) }
            let mask = CoverageMask.rasterize([poly], clip: clip)
            guard mask.width > 0 else { continue }
            #expect(mask.x >= clip.0 && mask.y >= clip.1 && mask.x + mask.width <= clip.2 && mask.y + mask.height <= clip.3)
            #expect(mask.coverage.count == mask.width * mask.height)
            // The same edges into a buffer with guards on both sides, as `rasterize` adds them: a
            // write outside fails in any build, not only where bounds are checked.
            let stride = mask.width + 2, guardCount = 8, inside = stride * mask.height
            typealias AddLine = (Point, Point, Double, Int, Int, UnsafeMutableBufferPointer<Float>) -> Void
            func areas(_ add: AddLine) -> [Float] {
                var storage = [Float](repeating: 0, count: guardCount + inside + guardCount)
                storage.withUnsafeMutableBufferPointer { all in
                    let acc = UnsafeMutableBufferPointer(rebasing: all[guardCount..<(guardCount + inside)])
                    for i in 0..<poly.count {
                        let p = poly[i], q = poly[(i + 1) % poly.count]
                        add(Point(p.x - Double(mask.x), p.y - Double(mask.y)), Point(q.x - Double(mask.x), q.y - Double(mask.y)),
                            Double(mask.width), mask.height, stride, acc)
                    }
                }
                return storage
            }
            let storage = areas { CoverageMask.addLine($0, $1, width: $2, height: $3, stride: $4, acc: $5) }
            #expect(storage[..<guardCount].allSatisfy { $0 == 0 } && storage[(guardCount + inside)...].allSatisfy { $0 == 0 })
            // The same areas, bit for bit, as the edges split by lists of pieces.
            let byLists = areas { CoverageMask.addLineByLists($0, $1, width: $2, height: $3, stride: $4, acc: $5) }
            #expect(storage.map(\.bitPattern) == byLists.map(\.bitPattern), "areas against addLineByLists")
        }
    }

    @Test("text and paths outside the clip are skipped with the bytes and width they had when drawn into nothing")
    func outsideClipSkipped() throws {
        let fonts = try FontSet.bundled()
        let font = fonts.regular
        let x = 4.3
        // Around a clip of rows 10..<20 at 1x and 2.5x: text and a tile from well above it,
        // across both edges, to well below; text upside down too (a negative size).
        for (scale, size) in [(1.0, 17.0), (2.5, 17.0), (1.0, -17.0)] {
            for step in 0..<120 {
                let centerY = -30 + Double(step) * 0.5
                let fast = Canvas(width: 80, height: 40, scale: scale), plain = Canvas(width: 80, height: 40, scale: scale)
                let clip = Rect(x: 0, y: 10 / scale, width: 80 / scale, height: 10 / scale)
                var width = 0.0
                fast.clipped(to: clip) {
                    width = fast.text("Row 12 Ägy", font: font, size: size, color: RGBA8(0, 0, 0), x: x, centerY: centerY, element: 4)
                    fast.fill(Path.roundedRect(Rect(x: 2, y: centerY - 8, width: 10, height: 9.5), radius: 3), .solid(RGBA8(255, 0, 0)), element: 5)
                }
                // As both drew before: the whole path built, moved, flattened and rasterized.
                plain.clipped(to: clip) {
                    let k = size / font.unitsPerEm
                    let baseline = centerY + (font.ascender + font.descender) * k / 2
                    let laid = font.layout("Row 12 Ägy", size: size, tracking: 0)
                    #expect(laid.width == width)
                    let tile = Path.roundedRect(Rect(x: 2, y: centerY - 8, width: 10, height: 9.5), radius: 3)
                    for (path, colour, element) in [(Typeface.path(laid.glyphs, origin: Point(x, baseline)), RGBA8(0, 0, 0), UInt8(4)),
                                                    (tile, RGBA8(255, 0, 0), UInt8(5))] {
                        let polys = path.transformed(scale: scale, dx: 0, dy: 0).flattened(tolerance: 0.1)
                        plain.fill(CoverageMask.rasterize(polys, clip: plain.clip), .solid(colour), element: element)
                    }
                }
                #expect(fast.makeImage().pixels == plain.makeImage().pixels && fast.elements == plain.elements, "centre \(centerY) at \(scale), size \(size)")
            }
        }
    }

    @Test("a path whose first line has no move starts at the origin and is drawn, not culled")
    func pathWithoutMove() {
        var path = Path()
        path.line(to: Point(200, 100))
        path.line(to: Point(200, 0))
        let fast = Canvas(width: 100, height: 100, scale: 1), plain = Canvas(width: 100, height: 100, scale: 1)
        fast.fill(path, .solid(RGBA8(0, 0, 0)), element: 1)
        plain.fill(CoverageMask.rasterize(path.flattened(tolerance: 0.1), clip: plain.clip), .solid(RGBA8(0, 0, 0)), element: 1)
        #expect(!path.startsWithMove)
        #expect(fast.elements == plain.elements && fast.elements.filter { $0 == 1 }.count > 2000)
    }

    @Test("curves through points at or near infinity, and rectangles and clips that are not finite, draw without trapping")
    func nonFiniteGeometry() {
        var curve = Path()
        curve.move(to: Point(0, 0))
        curve.quad(to: Point(10, 10), control: Point(1e200, 5))
        curve.cubic(to: Point(20, 0), control1: Point(.infinity, 1), control2: Point(3, .nan))
        curve.close()
        let c = Canvas(width: 40, height: 40, scale: 1)
        c.fill(curve, .solid(RGBA8(0, 0, 0)), element: 1)
        for bad in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            c.fill(Rect(x: bad, y: 3, width: 10, height: bad), .solid(RGBA8(255, 0, 0)), element: 2)
            c.fill(Rect(x: 2, y: 2, width: bad, height: 5), .solid(RGBA8(0, 0, 255, 128)), element: 3)
            c.clipped(to: Rect(x: bad, y: 0, width: 20, height: bad)) { c.fill(Rect(x: 0, y: 0, width: 40, height: 40), .solid(RGBA8(9, 9, 9)), element: 4) }
            c.hairline(bottom: bad, from: 0, to: bad, color: RGBA8(0, 0, 0, 77), element: 5)
            c.group(alpha: 1) { c.backdrop(Rect(x: bad, y: 0, width: 40, height: bad), sigma: 2, saturation: 1.8, element: 6) }
        }
        #expect(c.makeImage().pixels.count == 40 * 40 * 4)
    }

    @Test("an edge of subnormal height or a point that is not a number rasterizes without trapping")
    func degenerateEdges() {
        // 5e-324 high: an infinite slope; its area is below a Float's smallest, so nothing changes.
        let tiny = CoverageMask.rasterize([[Point(0, 0), Point(40, 5e-324), Point(0, 10)]], clip: (0, 0, 50, 50))
        let flat = CoverageMask.rasterize([[Point(0, 0), Point(40, 0), Point(0, 10)]], clip: (0, 0, 50, 50))
        #expect(tiny == flat)
        #expect(flat.coverage.contains(255))
        for bad in [Double.nan, .infinity, -.infinity] {
            let mask = CoverageMask.rasterize([[Point(0, 0), Point(bad, 5), Point(20, 10), Point(3, 12)]], clip: (0, 0, 50, 50))
            #expect(mask.coverage.count == mask.width * mask.height)
        }
    }

    @Test("an edge ending on a mask's left border never writes before its row (rounding drift, found at 2x)")
    func edgeDriftAtBorder() {
        // A glyph's edge clipped onto the mask's left border at x = 0: stepping along it once
        // gave x = -2.8e-17 and put area in column -1, before the buffer on the first row.
        let height = 26, stride = 14, guardCount = 16
        var storage = [Float](repeating: 0, count: guardCount + stride * height + guardCount)
        storage.withUnsafeMutableBufferPointer { all in
            let acc = UnsafeMutableBufferPointer(rebasing: all[guardCount..<(guardCount + stride * height)])
            CoverageMask.accumulate(Point(0.9691524809905533, 0.5112649936868365), Point(0.0, 0.8293306473260529),
                                    height: height, stride: stride, acc: acc)
        }
        #expect(storage[..<guardCount].allSatisfy { $0 == 0 })
        #expect(storage[(guardCount + stride * height)...].allSatisfy { $0 == 0 })
        // Row 0 holds the whole edge's area, its height.
        let row = storage[guardCount..<(guardCount + stride)].reduce(0, +)
        #expect(abs(Double(row) - (0.8293306473260529 - 0.5112649936868365)) < 1e-6)
    }

    @Test("each feature matches its golden image exactly", arguments: CanvasScenes.all.map(\.name))
    func golden(_ name: String) throws {
        let canvas = CanvasScenes.all.first { $0.name == name }!.draw()
        let image = canvas.makeImage()
        let url = goldenDirectory.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["NAVREEL_UPDATE_GOLDENS"] == "1" {
            try Data(PNG.encode(image)).write(to: url)
            return
        }
        let golden = try PNG.read(path: url.path).image
        #expect(golden.width == image.width && golden.height == image.height, "\(name): size changed")
        guard golden.width == image.width && golden.height == image.height else { return }
        var differing = 0, first: (Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where golden[x, y] != image[x, y] {
                differing += 1
                if first == nil { first = (x, y) }
            }
        }
        #expect(differing == 0, "\(name): \(differing) pixels differ, first at \(first.map { "\($0.0),\($0.1): golden \(golden[$0.0, $0.1]) now \(image[$0.0, $0.1])" } ?? ""); set NAVREEL_UPDATE_GOLDENS=1 after checking the new image by eye")
    }

    @Test("a 50% coverage edge gives half the colour")
    func halfCoverage() {
        let c = Canvas(width: 4, height: 1, scale: 1, background: .white)
        c.fill(Rect(x: 0.5, y: 0, width: 3, height: 1), .solid(.black), element: 1)
        let img = c.makeImage()
        #expect((127...128).contains(img[0, 0].r))      // 255 * 0.5 = 127.5
        #expect(img[1, 0] == .black && img[2, 0] == .black)
        #expect((127...128).contains(img[3, 0].r))
        // A quarter-covered pixel.
        let q = Canvas(width: 1, height: 1, scale: 1, background: .white)
        q.fill(Rect(x: 0.5, y: 0.5, width: 1, height: 1), .solid(.black), element: 1)
        #expect(q.makeImage()[0, 0].r == 191)
    }

    @Test("a blur of a constant image is that constant", arguments: [0.5, 3, 30, 90])
    func blurConstant(_ sigma: Double) {
        let color = premultiply(RGBA8(12, 200, 77, 255))
        let pixels = [UInt32](repeating: color, count: 64 * 40)
        let out = Blur.gaussian(pixels, width: 64, height: 40, region: (5, 5, 60, 30), sigma: sigma)
        #expect(out.allSatisfy { $0 == color })
    }

    @Test("box sizes follow the W3C formula, made odd", arguments: [(1.0, 3), (2.0, 5), (30.0, 57), (90.0, 169), (10.0, 19), (0.3, 1)])
    func boxSize(_ sigma: Double, _ d: Int) {
        #expect(Blur.boxSize(sigma: sigma) == d)
    }

    @Test("a blur spreads an edge smoothly and keeps the total")
    func blurSpreads() {
        var pixels = [UInt32](repeating: premultiply(.black), count: 100)
        for x in 50..<100 { pixels[x] = premultiply(.white) }
        let out = Blur.gaussian(pixels, width: 100, height: 1, region: (0, 0, 100, 1), sigma: 5)
        let reds: [Int] = out.map { Int($0 & 0xFF) }
        #expect(reds == reds.sorted(), "monotonic across the edge")
        let left = reds[40], right = reds[60], pair = reds[49] + reds[50]
        #expect(left < 20)
        #expect(right > 235)
        #expect(abs(pair - 255) <= 4)
    }

    @Test("the saturation matrix keeps greys grey", arguments: [0.0, 0.5, 1.8, 3.0])
    func saturationGrey(_ s: Double) {
        let greys: [UInt32] = (0...255).map { (v: Int) -> UInt32 in
            let g = UInt32(v)
            return g | (g << 8) | (g << 16) | (UInt32(255) << 24)
        }
        #expect(Saturation.apply(greys, amount: s) == greys)
        #expect(Saturation.matrix(s).allSatisfy { $0.reduce(0, +) == 4096 })
    }

    @Test("saturation 1.8 pushes colours away from grey")
    func saturationColour() {
        let p = Saturation.apply([premultiply(RGBA8(200, 100, 100))], amount: 1.8)[0]
        #expect(p & 0xFF == 255 && (p >> 8) & 0xFF < 100)
    }

    @Test("gradient endpoints hit their stop colours")
    func gradientEnds() {
        let c = Canvas(width: 100, height: 1, scale: 1)
        let stops = [RGBA8(0, 255, 0), RGBA8(255, 0, 0), RGBA8(0, 0, 255)]
        c.fill(Rect(x: 0, y: 0, width: 100, height: 1), .linearGradient(LinearGradient(start: Point(0.5, 0), end: Point(99.5, 0), colors: stops)), element: 1)
        let img = c.makeImage()
        #expect(img[0, 0] == stops[0])
        #expect(img[99, 0] == stops[2])
        let mid = img[49, 0], mid2 = img[50, 0]
        #expect(mid.r > 240 || mid2.r > 240)
    }

    @Test("translucency weight: backdrop, then tints multiply by 1 - alpha; group alpha scales it")
    func weights() {
        let c = Canvas(width: 10, height: 10, scale: 1, background: .white)
        c.group(alpha: 1) {
            c.backdrop(Rect(x: 0, y: 0, width: 10, height: 5), sigma: 1, saturation: 1.8, element: 3)
            c.fill(Rect(x: 0, y: 0, width: 10, height: 5), .solid(RGBA8(255, 255, 255, 77)), element: 3)   // white @ 0.3
        }
        c.group(alpha: 0.5) {
            c.backdrop(Rect(x: 0, y: 5, width: 10, height: 5), sigma: 1, saturation: 1.8, element: 3)
        }
        let w = c.translucencyMap
        #expect(abs(Int(w[0]) - 178) <= 1)        // 255 * (1 - 0.3)
        #expect(abs(Int(w[9 * 10]) - 128) <= 1)   // 255 * 0.5
        let opaque = Canvas(width: 2, height: 1, scale: 1, background: .white)
        opaque.fill(Rect(x: 0, y: 0, width: 2, height: 1), .solid(.black), element: 1)
        #expect(opaque.translucencyMap == [0, 0])
    }

    @Test("the element map names the topmost element drawn at a quarter opacity or more")
    func elementMap() {
        let c = Canvas(width: 4, height: 1, scale: 1, background: .white)
        c.fill(Rect(x: 0, y: 0, width: 4, height: 1), .solid(.black), element: 1)
        c.fill(Rect(x: 1, y: 0, width: 1, height: 1), .solid(RGBA8(255, 0, 0, 200)), element: 2)
        c.fill(Rect(x: 2, y: 0, width: 1, height: 1), .solid(RGBA8(255, 0, 0, 50)), element: 3)
        c.group(alpha: 0.2) { c.fill(Rect(x: 3, y: 0, width: 1, height: 1), .solid(.white), element: 4) }
        #expect(c.elements == [1, 2, 1, 1])
    }

    @Test("a missing glyph draws the font's notdef, never crashes")
    func notdef() {
        let font = CanvasScenes.fonts.regular
        #expect(font.glyphIndex("\u{10FFFD}") == 0)
        #expect(font.width(of: "\u{10FFFD}", size: 17) > 0)
        #expect(font.width(of: "", size: 17) == 0)
    }

    @Test("text is measured, truncated with an ellipsis, and fonts are fingerprinted")
    func textMetrics() {
        let font = CanvasScenes.fonts.semibold
        let w = font.width(of: "Favorites", size: 17)
        #expect(w > 60 && w < 90)
        #expect(abs(font.width(of: "Favorites", size: 34) - 2 * w) < 1e-9)
        #expect(font.width(of: "ab", size: 17, tracking: 1) == font.width(of: "ab", size: 17) + 1)
        let short = font.truncated("A title much too long", size: 17, maxWidth: 80)
        #expect(short.hasSuffix("…") && font.width(of: short, size: 17) <= 80)
        #expect(font.truncated("Me", size: 17, maxWidth: 80) == "Me")
        #expect(font.sha256.count == 64)
        #expect(CanvasScenes.fonts.fingerprint.contains(font.name))
    }

    @Test("kerning from the font's GPOS table (Inter) or kern table (DejaVu) narrows pairs like AV and To", arguments: ["AV", "To", "Ty", "Wa"])
    func kerning(_ pair: String) throws {
        for font in [CanvasScenes.fonts.regular, CanvasScenes.fonts.bold] {
            let chars = pair.map(String.init)
            let apart = font.width(of: chars[0], size: 100) + font.width(of: chars[1], size: 100)
            #expect(font.width(of: pair, size: 100) < apart - 1, "\(font.name) \(pair)")
        }
        // A pair the fonts do not kern keeps its advances.
        let f = CanvasScenes.fonts.regular
        #expect(abs(f.width(of: "ll", size: 100) - 2 * f.width(of: "l", size: 100)) < 1e-9)
    }

    @Test("a damaged GPOS table yields no kerning, never a crash")
    func damagedGPOS() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: CanvasScenes.fonts.regular.path)))
        guard let gpos = GPOSKerning.table("GPOS", in: bytes) else { return }
        var seed: UInt64 = 3
        for _ in 0..<200 {
            var damaged = bytes
            for _ in 0..<20 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                damaged[gpos + Int(seed >> 40) % 4000] = UInt8(truncatingIfNeeded: seed >> 20)
            }
            if let k = GPOSKerning(fontFile: damaged) {
                for a in UInt32(30)..<UInt32(60) { _ = k.adjustment(a, a + 1) }
            }
        }
        #expect(GPOSKerning(fontFile: Array(bytes.prefix(100))) == nil)
        #expect(GPOSKerning(fontFile: []) == nil)
    }

    @Test("SHA-256 test vectors (FIPS 180-4 examples)")
    func sha256() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // The SHA extensions' path (where the CPU has them) against the software one, for every
        // length around the padding's one and two final blocks and a larger file.
        var bytes: [UInt8] = []
        var x: UInt32 = 12345
        for length in 0...300 {
            #expect(SHA256.digest(bytes) == SHA256.software(bytes), "length \(length)")
            x = x &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: x >> 16))
        }
        let large = (0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 31 ^ $0 >> 7) }
        #expect(SHA256.digest(large) == SHA256.software(large))
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("a busy scene renders to the same bytes twice in parallel, and again serially")
    func determinism() {
        func busy() -> [UInt8] {
            var bytes: [UInt8] = []
            for (_, draw) in CanvasScenes.all {
                let c = draw()
                bytes += c.makeImage().pixels + c.translucencyMap + c.elements
            }
            return bytes
        }
        var results = [[UInt8]](repeating: [], count: 4)
        results.withUnsafeMutableBufferPointer { out in
            Parallel.forEach(4) { i in out[i] = busy() }
        }
        let serial = busy()
        #expect(results.allSatisfy { $0 == serial })
    }
}
