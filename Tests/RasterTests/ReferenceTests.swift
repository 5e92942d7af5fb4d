import CPNG
import Testing
@testable import Raster

/// Issue 17: the canvas's fast paths (one unpack for three box passes, table-driven blending,
/// integer rounding, copies of opaque runs) against plain reference versions of the same
/// arithmetic, written the slow and obvious way here, on random inputs. Any difference in any
/// byte fails: performance work must not change a pixel.
@Suite struct ReferenceTests {
    /// A small deterministic generator (SplitMix64), so failures repeat.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        /// A premultiplied pixel: opaque, transparent, or any alpha with channels at most alpha.
        mutating func premultipliedPixel() -> UInt32 {
            let a: UInt32 = [0, 255, 255, UInt32(int(256))][int(4)]
            func c() -> UInt32 { a == 0 ? 0 : UInt32(int(Int(a) + 1)) }
            return c() | c() << 8 | c() << 16 | a << 24
        }
    }

    /// The box blur as first written: unpack, one pass, pack, three times a line.
    static func referenceBox(_ line: inout [UInt32], d: Int) {
        let n = line.count, r = d / 2
        let reciprocal = UInt32((Double(1 << 24) / Double(d)).rounded())
        for _ in 0..<3 {
            var ext: [[UInt32]] = []
            for i in 0..<(n + d) {
                let p = line[min(max(i - r, 0), n - 1)]
                ext.append([p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF, p >> 24])
            }
            var sums = [UInt32](repeating: 0, count: 4)
            for i in 0..<d { for c in 0..<4 { sums[c] &+= ext[i][c] } }
            for i in 0..<n {
                var out: UInt32 = 0
                for c in 0..<4 {
                    out |= min(255, (sums[c] &* reciprocal &+ (1 << 23)) >> 24) << (8 * UInt32(c))
                    sums[c] = sums[c] &+ ext[i + d][c] &- ext[i][c]
                }
                line[i] = out
            }
        }
    }

    static func referenceGaussian(_ pixels: [UInt32], width: Int, height: Int, region: (Int, Int, Int, Int), sigma: Double,
                                  readsOutside: Bool) -> [UInt32] {
        let (x0, y0, x1, y1) = region
        let margin = readsOutside ? Int((3 * sigma).rounded(.up)) : 0
        let ex0 = max(0, x0 - margin), ey0 = max(0, y0 - margin), ex1 = min(width, x1 + margin), ey1 = min(height, y1 + margin)
        let d = Blur.boxSize(sigma: sigma)
        var plane = (ey0..<ey1).map { y in Array(pixels[(y * width + ex0)..<(y * width + ex1)]) }
        for y in plane.indices { referenceBox(&plane[y], d: d) }
        for x in 0..<(ex1 - ex0) {
            var column = plane.map { $0[x] }
            referenceBox(&column, d: d)
            for y in plane.indices { plane[y][x] = column[y] }
        }
        var out: [UInt32] = []
        for y in y0..<y1 {
            for x in x0..<x1 {
                let p = plane[y - ey0][x - ex0], a = p >> 24
                out.append(min(p & 0xFF, a) | min((p >> 8) & 0xFF, a) << 8 | min((p >> 16) & 0xFF, a) << 16 | a << 24)
            }
        }
        return out
    }

    @Test("the blur gives the reference's bytes", arguments: [(0.6, false), (2.0, true), (5.0, false), (9.5, true), (30.0, false)])
    func blur(_ sigma: Double, _ readsOutside: Bool) {
        var random = Random(state: UInt64(sigma * 1000))
        for _ in 0..<8 {
            let w = 1 + random.int(70), h = 1 + random.int(40)
            // Flat areas with noise, as UI: runs of one colour; rows that repeat the row above
            // and rows of one colour, which the blur takes short cuts for; whole columns alike.
            var pixels: [UInt32] = []
            var current = random.premultipliedPixel()
            let style = random.int(3)
            for y in 0..<h {
                if y > 0 && random.int(3) > 0 {
                    pixels.append(contentsOf: pixels[((y - 1) * w)..<(y * w)])
                    continue
                }
                let flat = random.int(4) == 0
                for x in 0..<w {
                    if style == 2 && y > 0 && x > 0 { pixels.append(pixels[x]); continue }
                    if !flat && random.int(8) == 0 { current = random.premultipliedPixel() }
                    pixels.append(current)
                }
            }
            let rx0 = random.int(w), ry0 = random.int(h)
            let region = (rx0, ry0, rx0 + 1 + random.int(w - rx0), ry0 + 1 + random.int(h - ry0))
            let fast = Blur.gaussian(pixels, width: w, height: h, region: region, sigma: sigma, readsOutside: readsOutside)
            let reference = Self.referenceGaussian(pixels, width: w, height: h, region: region, sigma: sigma, readsOutside: readsOutside)
            #expect(fast == reference, "σ \(sigma), \(w)x\(h), region \(region)")
        }
    }

    /// A canvas with varied content under translucent parts: opaque and translucent rows, weights
    /// from a backdrop, an element map.
    static func busyCanvas(_ random: inout Random, width: Int, height: Int) -> Canvas {
        let c = Canvas(width: width, height: height, scale: 1, background: RGBA8(255, 255, 255))
        for y in stride(from: 0, to: height, by: 3) {
            let a = UInt8([255, 255, 128, 0][random.int(4)])
            c.fill(Rect(x: Double(random.int(width / 2)), y: Double(y), width: Double(width), height: 2),
                   .solid(RGBA8(UInt8(random.int(256)), UInt8(random.int(256)), UInt8(random.int(256)), a)), element: 2)
        }
        c.backdrop(Rect(x: 0, y: 0, width: Double(width), height: Double(height / 2)), sigma: 3, saturation: 1.8, element: 3)
        return c
    }

    /// The pixels, weights and elements of a canvas, for comparing two.
    static func state(_ c: Canvas) -> ([UInt32], [UInt8], [UInt8]) {
        (c.layers[0].pixels, c.layers[0].weights, c.elements)
    }

    @Test("a large translucent fill by tables gives blendSpan's bytes", arguments: [1, 77, 128, 186, 209, 254])
    func solidTables(_ alpha: Int) {
        var random = Random(state: UInt64(alpha))
        for round in 0..<4 {
            let seed = random.state
            var r1 = Random(state: seed), r2 = Random(state: seed)
            let w = 80 + random.int(60), h = 60 + random.int(40)
            let tables = Self.busyCanvas(&r1, width: w, height: h), direct = Self.busyCanvas(&r2, width: w, height: h)
            let color = RGBA8(UInt8(random.int(256)), UInt8(random.int(256)), UInt8(random.int(256)), UInt8(alpha))
            // Fractional edges (partial coverage), and group alphas on either side of the claim threshold.
            let rect = Rect(x: 0.4, y: 0.7, width: Double(w) - 1.1, height: Double(h) - 1.5)
            let groupAlpha = [1.0, 0.3, 0.2, 0.9][round]
            #expect(w * h >= Canvas.SolidBlend.minimumPixels)
            tables.group(alpha: groupAlpha) { tables.fill(rect, .solid(color), element: 5) }
            // The same fill as strips too small for tables, so it goes through blendSpan.
            direct.group(alpha: groupAlpha) {
                var y = 0
                while y < h {
                    direct.clipped(to: Rect(x: 0, y: Double(y), width: Double(w), height: 20)) { direct.fill(rect, .solid(color), element: 5) }
                    y += 20
                }
            }
            let a = Self.state(tables), b = Self.state(direct)
            #expect(a.0 == b.0, "pixels, alpha \(alpha), round \(round)")
            #expect(a.1 == b.1, "weights, alpha \(alpha), round \(round)")
            #expect(a.2 == b.2, "elements, alpha \(alpha), round \(round)")
            // Directly on the canvas as well (no group: translucent destinations with weights).
            let t2 = Self.busyCanvas(&r1, width: w, height: h), d2 = Self.busyCanvas(&r2, width: w, height: h)
            t2.fill(rect, .solid(color), element: 6)
            var y = 0
            while y < h {
                d2.clipped(to: Rect(x: 0, y: Double(y), width: Double(w), height: 20)) { d2.fill(rect, .solid(color), element: 6) }
                y += 20
            }
            let c = Self.state(t2), d = Self.state(d2)
            #expect(c.0 == d.0 && c.1 == d.1 && c.2 == d.2, "ungrouped, alpha \(alpha), round \(round)")
        }
    }

    @Test("a translucent fill over weighted translucent pixels (a backdrop of clear content) gives blendSpan's bytes")
    func solidTablesOverWeightedTranslucent() {
        var random = Random(state: 99)
        for alpha in [77, 186, 209] {
            let w = 90, h = 70
            let color = RGBA8(UInt8(random.int(256)), UInt8(random.int(256)), UInt8(random.int(256)), UInt8(alpha))
            // Clear, with translucent strips: the backdrop's pixels are translucent and fully
            // weighted, which the tables do not cover (the SSE2 path must leave them too).
            func canvas() -> Canvas {
                let c = Canvas(width: w, height: h, scale: 1)
                for y in stride(from: 0, to: h, by: 4) {
                    c.fill(Rect(x: Double(y % 13), y: Double(y), width: Double(w), height: 2), .solid(RGBA8(200, 40, 90, UInt8(60 + y))), element: 2)
                }
                return c
            }
            let rect = Rect(x: 0.4, y: 0.7, width: Double(w) - 1.1, height: Double(h) - 1.5)
            let tables = canvas(), direct = canvas()
            tables.group(alpha: 1) {
                tables.backdrop(Rect(x: 0, y: 0, width: Double(w), height: Double(h)), sigma: 2, saturation: 1.8, element: 3)
                tables.fill(rect, .solid(color), element: 5)
            }
            direct.group(alpha: 1) {
                direct.backdrop(Rect(x: 0, y: 0, width: Double(w), height: Double(h)), sigma: 2, saturation: 1.8, element: 3)
                var y = 0
                while y < h {
                    direct.clipped(to: Rect(x: 0, y: Double(y), width: Double(w), height: 20)) { direct.fill(rect, .solid(color), element: 5) }
                    y += 20
                }
            }
            #expect(tables.layers[0].weights.contains { $0 != 0 && $0 != 255 }, "weighted translucent pixels were blended")
            let a = Self.state(tables), b = Self.state(direct)
            #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2, "alpha \(alpha)")
        }
    }

    @Test("the solid blend's runs give the same bytes at every SIMD level, and blendSpan's")
    func solidBlendLevels() {
        var random = Random(state: 123)
        for round in 0..<60 {
            let n = 1 + random.int(200)
            let claimMin = UInt32([1, 128, 255][round % 3])
            let colours = (0...random.int(3)).map { _ -> UInt32 in
                let a = UInt32(1 + random.int(254))
                return UInt32(random.int(Int(a) + 1)) | UInt32(random.int(Int(a) + 1)) << 8 | UInt32(random.int(Int(a) + 1)) << 16 | a << 24
            }
            var tables = Canvas.SolidBlend(colours[0], element: 7, claimMinAlpha: claimMin)
            for c in colours.dropFirst() { tables.compose(Canvas.SolidBlend(c, element: 7, claimMinAlpha: claimMin)) }
            // Runs of flat colour, different opaque pixels, weighted opaque ones; coverage mostly
            // full, with zeros; a partial or weighted translucent pixel near the end stops the run.
            var pixels: [UInt32] = [], weights: [UInt8] = [], coverage: [UInt8] = []
            while pixels.count < n {
                let kind = random.int(4), run = 1 + random.int(20)
                let flat = random.premultipliedPixel()
                for _ in 0..<run {
                    switch kind {
                    case 0: pixels.append(flat); weights.append(0)
                    case 1: pixels.append(random.premultipliedPixel()); weights.append(0)
                    case 2: pixels.append(random.premultipliedPixel() | 0xFF00_0000); weights.append(UInt8(random.int(256)))
                    default: pixels.append(flat | 0xFF00_0000); weights.append(random.int(2) == 0 ? 0 : 200)
                    }
                    coverage.append(random.int(12) == 0 ? 0 : 255)
                }
            }
            pixels = Array(pixels.prefix(n)); weights = Array(weights.prefix(n)); coverage = Array(coverage.prefix(n))
            if round % 2 == 1 { let k = n - 1 - random.int(min(n, 9)); coverage[k] = UInt8(1 + random.int(254)) }
            let elements = (0..<n).map { _ in UInt8(random.int(4)) }
            var results: [([UInt32], [UInt8], [UInt8], Int, UInt32, UInt32)] = []
            for level in 0...nr_simd_level() {
                var p = pixels, w = weights, e = elements
                var lastPixel: UInt32 = 0, lastResult = tables.channels[0] | tables.channels[256] | tables.channels[512] | tables.channels[768]
                let done = nr_solid_blend_level(&p, &w, &e, coverage, n, tables.channels, tables.opaqueWeights, tables.sources,
                                                tables.sources.count, tables.claims ? 1 : 0, 7, &lastPixel, &lastResult, level)
                results.append((p, w, e, done, lastPixel, lastResult))
            }
            for (level, r) in results.enumerated().dropFirst() {
                #expect(r.0 == results[0].0 && r.1 == results[0].1 && r.2 == results[0].2 && r.3 == results[0].3,
                        "round \(round): level \(level) differs from level 0")
            }
            // The pixels a run took, as blendSpan blends each colour in turn.
            let done = results[0].3
            #expect(done <= n && (done == n || coverage[done] != 0))
            var p = pixels, w = weights, e = elements
            let zeros = [UInt8](repeating: 0, count: n)
            p.withUnsafeMutableBufferPointer { pb in
                w.withUnsafeMutableBufferPointer { wb in
                    e.withUnsafeMutableBufferPointer { eb in
                        let t = Canvas.Target(pixels: pb.baseAddress!, weights: wb.baseAddress!, elements: eb.baseAddress!)
                        for source in tables.sources {
                            let row = [UInt32](repeating: source, count: n)
                            Canvas.blendSpanSwift(t, at: 0, row, coverage: coverage, weights: zeros, count: done, fromGroup: false,
                                                  element: 7, claimOpaque: true, claimMinAlpha: claimMin)
                        }
                    }
                }
            }
            #expect(Array(results.last!.0.prefix(done)) == Array(p.prefix(done)), "round \(round): pixels against blendSpan")
            #expect(Array(results.last!.1.prefix(done)) == Array(w.prefix(done)), "round \(round): weights against blendSpan")
            #expect(Array(results.last!.2.prefix(done)) == Array(e.prefix(done)), "round \(round): elements against blendSpan")
        }
    }

    @Test("blendSpan in C gives the Swift definition's bytes at every SIMD level: fills and groups, coverage, weights, claims")
    func blendSpanInC() {
        var random = Random(state: 2024)
        for round in 0..<400 {
            let n = random.int(90)
            let fromGroup = round % 2 == 1, claimOpaque = round % 3 != 0
            let claimMin = UInt32([0, 1, 128, 255, 256][round % 5])
            // Sources: runs of one colour (the remembered blend), zeros, opaque and translucent.
            // Every other round is mostly plain (full coverage, no weights: the vector runs)
            // with a few exceptions, and some sources of zero alpha but colour.
            let plain = round % 4 >= 2
            // Every third round a material bar's case: opaque destinations, mostly weight 255.
            let backdrop = round % 3 == 2
            var src: [UInt32] = [], coverage: [UInt8] = []
            while src.count < n {
                let c = random.int(3) == 0 ? 0 : random.premultipliedPixel(), run = 1 + random.int(12)
                for _ in 0..<run {
                    let odd: UInt32 = random.int(2) == 0 ? 0x0000_3020 : UInt32(truncatingIfNeeded: random.next())
                    src.append(random.int(5) == 0 ? random.premultipliedPixel() : (plain && random.int(40) == 0 ? odd : c))
                    coverage.append(plain && random.int(30) != 0 ? [255, 255, 255, 0, 1, 128, UInt8(random.int(256))][random.int(7)]
                                    : [0, 0, 255, 255, 255, UInt8(random.int(256))][random.int(6)])
                }
            }
            src = Array(src.prefix(n)); coverage = Array(coverage.prefix(n))
            let sourceWeights = (0..<n).map { _ in (plain || backdrop) && random.int(30) != 0 ? 0 : [0, 0, 255, UInt8(random.int(256))][random.int(4)] }
            let flat = random.premultipliedPixel()
            let pixels = (0..<n).map { _ -> UInt32 in
                let p = random.int(3) == 0 ? flat : random.premultipliedPixel()
                return backdrop && random.int(30) != 0 ? p | 0xFF00_0000 : p
            }
            let weights = (0..<n).map { _ -> UInt8 in
                if backdrop { return random.int(30) == 0 ? 0 : (random.int(4) == 0 ? UInt8(random.int(256)) : 255) }
                return plain && random.int(30) != 0 ? 0 : [0, 255, UInt8(random.int(256))][random.int(3)]
            }
            let elements = (0..<n).map { _ in UInt8(random.int(4)) }
            func run(_ level: Int32?) -> ([UInt32], [UInt8], [UInt8]) {
                var p = pixels, w = weights, e = elements
                p.withUnsafeMutableBufferPointer { pb in
                    w.withUnsafeMutableBufferPointer { wb in
                        e.withUnsafeMutableBufferPointer { eb in
                            // One past the end so an empty run has addresses too.
                            let t = Canvas.Target(pixels: pb.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!,
                                                  weights: wb.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!,
                                                  elements: eb.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!)
                            if let level {
                                nr_blend_span_level(t.pixels, t.weights, t.elements, src, coverage, sourceWeights, n, fromGroup ? 1 : 0,
                                                    9, claimOpaque ? 1 : 0, claimMin, level)
                            } else {
                                Canvas.blendSpanSwift(t, at: 0, src, coverage: coverage, weights: sourceWeights, count: n, fromGroup: fromGroup,
                                                      element: 9, claimOpaque: claimOpaque, claimMinAlpha: claimMin)
                            }
                        }
                    }
                }
                return (p, w, e)
            }
            let s = run(nil)
            for level in 0...nr_simd_level() {
                let c = run(level)
                #expect(c.0 == s.0 && c.1 == s.1 && c.2 == s.2, "round \(round): \(n) pixels, group \(fromGroup), level \(level)")
            }
        }
    }

    @Test("box3 in C gives the Swift passes' and the plain reference's bytes, boxes longer than the line included")
    func box3InC() {
        var random = Random(state: 55)
        for round in 0..<300 {
            let n = 1 + random.int(70), d = 2 * random.int(round % 4 == 0 ? 80 : 12) + 1
            // Runs and steps as interface content has, and noise; channels up to 255 either way.
            var line: [UInt32] = []
            while line.count < n {
                let c = random.int(2) == 0 ? random.premultipliedPixel() : UInt32(truncatingIfNeeded: random.next())
                line += [UInt32](repeating: c, count: 1 + random.int(9))
            }
            line = Array(line.prefix(n))
            var c = line, s = line, r = line
            var scratch = [UInt64](repeating: 0, count: 2 * 2 * (n + d))
            scratch.withUnsafeMutableBufferPointer { sb in
                // Into another line, and in place.
                var o = [UInt32](repeating: 0, count: n)
                line.withUnsafeBufferPointer { l in
                    o.withUnsafeMutableBufferPointer { Blur.box3(l.baseAddress!, into: $0.baseAddress!, count: n, d: d, scratch: sb.baseAddress!) }
                }
                #expect(line == r, "the input is left as it was")
                c.withUnsafeMutableBufferPointer { Blur.box3($0.baseAddress!, into: $0.baseAddress!, count: n, d: d, scratch: sb.baseAddress!) }
                #expect(o == c, "round \(round): into another line and in place")
                s.withUnsafeMutableBufferPointer { Blur.box3Swift($0.baseAddress!, count: n, d: d, scratch: sb.baseAddress!) }
            }
            Self.referenceBox(&r, d: d)
            // Two lines at once (AVX2), this line beside another of the same length.
            if nr_simd_level() >= 2 {
                let other = (0..<n).map { _ in UInt32(truncatingIfNeeded: random.next()) }
                var r2 = other
                Self.referenceBox(&r2, d: d)
                var pa = [UInt32](repeating: 0, count: n), pb = [UInt32](repeating: 0, count: n)
                var wide = [UInt64](repeating: 0, count: 2 * 2 * 2 * (n + d))
                let reciprocal = UInt32((Double(1 << 24) / Double(d)).rounded())
                let done = nr_box3_pair(line, &pa, other, &pb, n, d, reciprocal, &wide, 2)
                #expect(done == 1 && pa == r && pb == r2, "round \(round): \(n) pixels, box \(d), two lines at once")
            }
            #expect(c == s, "round \(round): \(n) pixels, box \(d), against box3Swift")
            #expect(c == r, "round \(round): \(n) pixels, box \(d), against the reference")
        }
    }

    @Test("saturation in C, with and without the clamp to alpha, gives the formula's bytes at every SIMD level")
    func saturationLevels() {
        var random = Random(state: 808)
        for amount in [0.0, 0.5, 1.8, 3.0, 8.4] {
            let m = Saturation.matrix(amount)
            let packed = m.joined().map { Int32($0) }
            for round in 0..<40 {
                let n = random.int(45)
                // Blurred planes before the clamp can have channels above alpha: any word.
                let pixels = (0..<n).map { _ in random.int(2) == 0 ? random.premultipliedPixel() : UInt32(truncatingIfNeeded: random.next()) }
                for clamp: Int32 in [0, 1] {
                    let expected = pixels.map { p0 -> UInt32 in
                        var p = p0
                        let a = p >> 24
                        if clamp == 1 { p = min(p & 0xFF, a) | min((p >> 8) & 0xFF, a) << 8 | min((p >> 16) & 0xFF, a) << 16 | a << 24 }
                        let r = Int(p & 0xFF), g = Int((p >> 8) & 0xFF), b = Int((p >> 16) & 0xFF)
                        let channels = (0..<3).map { row in min(max((m[row][0] * r + m[row][1] * g + m[row][2] * b + 2048) >> 12, 0), Int(a)) }
                        return UInt32(channels[0]) | UInt32(channels[1]) << 8 | UInt32(channels[2]) << 16 | a << 24
                    }
                    for level in 0...nr_simd_level() {
                        var out = [UInt32](repeating: 0xDEAD_BEEF, count: n + 1)
                        let done = nr_saturate_level(pixels, &out, n, packed, clamp, level)
                        #expect(done <= n && (level == 0 ? done == 0 : n - done < 4 * Int(level)),
                                "amount \(amount), level \(level): \(done) of \(n)")
                        #expect(Array(out.prefix(done)) == Array(expected.prefix(done)), "amount \(amount), round \(round), clamp \(clamp), level \(level)")
                        #expect(out[done...].allSatisfy { $0 == 0xDEAD_BEEF }, "level \(level) wrote past \(done)")
                    }
                }
            }
        }
    }

    @Test("a backdrop is the region's blur, clamped to alpha, then saturated", arguments: [0.3, 1.0, 1.8, 9.0])
    func backdropPasses(_ saturation: Double) {
        var random = Random(state: 31 + UInt64(saturation * 10))
        for round in 0..<6 {
            let w = 40 + random.int(50), h = 30 + random.int(30)
            let canvas = Self.busyCanvas(&random, width: w, height: h)
            let before = canvas.layers[0].pixels
            // Widths that leave 0 to 7 pixels after eight at a time; saturation 9 has entries
            // beyond 16 bits (Swift's loop throughout).
            let x0 = random.int(8), y0 = random.int(8), rw = 9 + round + random.int(w - 25), rh = 5 + random.int(h - 20)
            let sigma = [0.0, 1.5, 4.0][round % 3]
            canvas.backdrop(Rect(x: Double(x0), y: Double(y0), width: Double(rw), height: Double(rh)), sigma: sigma,
                            saturation: saturation, element: 4)
            let blurred = Blur.gaussian(before, width: w, height: h, region: (x0, y0, x0 + rw, y0 + rh), sigma: sigma, readsOutside: false)
            let expected = Saturation.apply(blurred, amount: saturation)
            var got: [UInt32] = []
            for y in y0..<(y0 + rh) { got += canvas.layers[0].pixels[(y * w + x0)..<(y * w + x0 + rw)] }
            #expect(got == expected, "saturation \(saturation), round \(round): \(rw) x \(rh), sigma \(sigma)")
        }
    }

    @Test("opaque and translucent runs are measured to their end, four at a time or one")
    func alphaRuns() {
        var random = Random(state: 64)
        for _ in 0..<500 {
            var pixels: [UInt32] = []
            let n = random.int(40)
            while pixels.count < n {
                let opaque = random.int(2) == 0
                for _ in 0...random.int(9) {
                    pixels.append(opaque ? 0xFF00_0000 | UInt32(random.int(1 << 24)) : UInt32(random.int(255)) << 24 | UInt32(random.int(1 << 24)))
                }
            }
            pixels = Array(pixels.prefix(n))
            for start in 0...n {
                for opaque: Int32 in [0, 1] {
                    var j = start
                    while j < n && (pixels[j] >= 0xFF00_0000) == (opaque == 1) { j += 1 }
                    let run = pixels.withUnsafeBufferPointer { nr_alpha_run($0.baseAddress! + start, n - start, opaque) }
                    #expect(run == j - start, "\(n) pixels from \(start), opaque \(opaque)")
                }
            }
        }
    }

    @Test("a rectangle's edge overlaps, worked out at its edges only, are overlap's for every pixel")
    func rectangleOverlaps() {
        var random = Random(state: 17)
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1e300, -1e300, 0.5, 3, 2.9999999999999996, 7.0000000000000009]
        for round in 0..<3000 {
            let start = random.int(20) - 10, n = random.int(30)
            func value() -> Double {
                random.int(6) == 0 ? specials[random.int(specials.count)]
                    : Double(start) + Double(random.int(4000)) / 100 - 5 + (random.int(3) == 0 ? 1e-13 : 0)
            }
            let lo = value(), hi = round % 7 == 0 ? lo : value()
            var q = [UInt32](repeating: 7, count: n)
            q.withUnsafeMutableBufferPointer { Canvas.overlaps(lo, hi, from: start, into: $0) }
            let expected = (0..<n).map { Canvas.overlap(lo, hi, start + $0) }
            #expect(q == expected, "\(lo)..<\(hi) from \(start), \(n) pixels")
        }
    }

    @Test("saturation skips greys without changing a byte")
    func saturationGreys() {
        var random = Random(state: 7)
        var pixels: [UInt32] = []
        for _ in 0..<5000 {
            var p = random.premultipliedPixel()
            if random.int(2) == 0 { let v = p & 0xFF; p = v | v << 8 | v << 16 | p & 0xFF00_0000 }
            pixels.append(p)
        }
        // Greys above alpha (not premultiplied) must still be clamped, as before, and so must any
        // channel above alpha (a blurred group layer may hold such pixels).
        pixels.append(0x10C0_C0C0)
        for _ in 0..<3000 { pixels.append(UInt32(truncatingIfNeeded: random.next())) }
        pixels += [0xFFFF_FFFF, 0xFF00_0000, 0x00FF_FFFF, 0x80FF_0000, 0x8000_FF00, 0x8000_00FF]
        // Beyond about 8.5 the matrix leaves the SSE2 path's 16-bit range: the Swift loop alone.
        for amount in [0.0, 0.5, 1.8, 2.5, 7.5, 9.0] {
            let m = Saturation.matrix(amount)
            let reference = pixels.map { p -> UInt32 in
                let a = Int(p >> 24), r = Int(p & 0xFF), g = Int((p >> 8) & 0xFF), b = Int((p >> 16) & 0xFF)
                let out = (0..<3).map { row in min(max((m[row][0] * r + m[row][1] * g + m[row][2] * b + 2048) >> 12, 0), a) }
                return UInt32(out[0]) | UInt32(out[1]) << 8 | UInt32(out[2]) << 16 | UInt32(a) << 24
            }
            #expect(Saturation.apply(pixels, amount: amount) == reference, "amount \(amount)")
            // Every short length (the four-pixel blocks and the rest after them).
            for n in 0...9 {
                #expect(Saturation.apply(Array(pixels.suffix(n)), amount: amount) == Array(reference.suffix(n)), "amount \(amount), \(n) pixels")
            }
        }
    }

    @Test("rounding without libm agrees with rounded() everywhere it is used")
    func rounding() {
        var random = Random(state: 11)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 254.5, 255, 0.49999999999999994, -0.49999999999999994,
                                4_503_599_627_370_495.5, 4_503_599_627_370_496, 1e300, -1e300, .infinity, -.infinity]
        for k in -600...600 {
            let half = Double(k) + 0.5
            values += [half, half.nextUp, half.nextDown, Double(k), Double(k).nextUp, Double(k).nextDown]
        }
        for _ in 0..<20000 {
            values.append((Double(random.next() % 2_000_000) - 1_000_000) / Double(1 + random.int(4096)))
        }
        for x in values { #expect(roundedHalfAway(x) == x.rounded(), "\(x)") }
        #expect(roundedHalfAway(.nan).isNaN)
    }

    /// Coverage from accumulated areas as `CoverageMask.rasterize` first computed it, in Swift:
    /// every row summed, each byte `(min(1, |sum|) * 255).rounded()`.
    static func referenceCoverage(_ areas: [Float], stride: Int, width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        for row in 0..<height {
            var sum: Float = 0
            for col in 0..<width {
                sum += areas[row * stride + col]
                out.append(UInt8((min(1, abs(sum)) * 255).rounded()))
            }
        }
        return out
    }

    static func coverageRows(_ areas: [Float], stride: Int, width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { c, n in
            areas.withUnsafeBufferPointer { nr_coverage_rows($0.baseAddress!, stride, width, height, c.baseAddress!) }
            n = width * height
        }
    }

    @Test("coverage rows in C give the plain sum's bytes: halves, zeros, repeated rows, NaN and infinities")
    func coverageRows() {
        var random = Random(state: 17)
        // Areas whose product with 255 lands on, just above and just below every half.
        var special: [Float] = [0, -0.0, 1, -1, 1.5, .nan, .infinity, -.infinity, Float.leastNonzeroMagnitude, 0.49999997 / 255]
        for k in 0..<256 {
            let h = (Float(k) + 0.5) / 255, v = Float(k) / 255
            special += [h, h.nextUp, h.nextDown, -h, v, v.nextUp, v.nextDown]
        }
        /// The first index where two byte arrays differ, as "index: a, b" (short messages on failure).
        func difference(_ a: [UInt8], _ b: [UInt8]) -> String? {
            guard a.count == b.count else { return "counts \(a.count), \(b.count)" }
            return a.indices.first { a[$0] != b[$0] }.map { "\($0): \(a[$0]), \(b[$0])" }
        }
        // One value a row: each byte of the special values alone.
        #expect(difference(Self.coverageRows(special, stride: 1, width: 1, height: special.count),
                           Self.referenceCoverage(special, stride: 1, width: 1, height: special.count)) == nil)
        for trial in 0..<400 {
            let width = 1 + random.int(70), height = 1 + random.int(12), stride = width + random.int(3)
            var areas = [Float](repeating: 0, count: stride * height)
            for row in 0..<height {
                // Some rows repeat the row above bit for bit, as the middle of a rounded rectangle does.
                if row > 0 && random.int(3) == 0 {
                    for col in 0..<stride { areas[row * stride + col] = areas[(row - 1) * stride + col] }
                    continue
                }
                for col in 0..<width {
                    switch random.int(10) {
                    case 0..<5: areas[row * stride + col] = 0   // runs of zeros, as inside and outside shapes
                    case 5: areas[row * stride + col] = special[random.int(special.count)]
                    default: areas[row * stride + col] = Float(Int(random.next() % 4001) - 2000) / 1000
                    }
                }
                // Past the width: never read.
                for col in width..<stride { areas[row * stride + col] = .nan }
            }
            let fast = Self.coverageRows(areas, stride: stride, width: width, height: height)
            let reference = Self.referenceCoverage(areas, stride: stride, width: width, height: height)
            #expect(difference(fast, reference) == nil, "trial \(trial)")
            if fast != reference { break }
        }
    }

    @Test("the blur's transpose, clamp to alpha and line comparison in C match plain loops")
    func blurHelpers() {
        var random = Random(state: 23)
        // Every shape around the 4 x 4 and 8 x 8 blocks and 32 x 32 tiles, at every SIMD level.
        for (width, height) in [(1, 1), (3, 5), (4, 4), (5, 4), (7, 9), (8, 8), (9, 8), (8, 17), (31, 33), (32, 32), (33, 70), (70, 9),
                                (130, 3), (40, 41)] {
            var src = (0..<(width * height)).map { _ in UInt32(truncatingIfNeeded: random.next()) }
            var expected = [UInt32](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { expected[x * height + y] = src[y * width + x] } }
            var out = [UInt32](repeating: 0, count: width * height)
            src.withUnsafeMutableBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in Blur.transpose(s.baseAddress!, width: width, height: height, into: o.baseAddress!) }
            }
            #expect(out == expected, "\(width) x \(height)")
            for level in 0...nr_simd_level() {
                var atLevel = [UInt32](repeating: 0, count: width * height)
                nr_transpose_level(src, width, height, &atLevel, level)
                #expect(atLevel == expected, "\(width) x \(height), level \(level)")
            }
        }
        for n in [0, 1, 3, 4, 5, 8, 9, 1001] {
            let line = (0..<n).map { _ in UInt32(truncatingIfNeeded: random.next()) }
            var clamped = [UInt32](repeating: 0, count: n)
            line.withUnsafeBufferPointer { l in
                clamped.withUnsafeMutableBufferPointer { c in
                    if n > 0 { Blur.clampToAlpha(l.baseAddress!, into: c.baseAddress!, count: n) }
                }
            }
            let expected = line.map { p -> UInt32 in
                let a = p >> 24
                return min(p & 0xFF, a) | min((p >> 8) & 0xFF, a) << 8 | min((p >> 16) & 0xFF, a) << 16 | a << 24
            }
            #expect(clamped == expected, "\(n) pixels")
            var other = line
            if n > 0 {
                #expect(line.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in Blur.equal(a.baseAddress!, b.baseAddress!, n) } })
                other[n - 1] ^= 0x100
                #expect(!line.withUnsafeBufferPointer { a in other.withUnsafeBufferPointer { b in Blur.equal(a.baseAddress!, b.baseAddress!, n) } })
            }
        }
    }

    @Test("runs of a byte are counted to their end, eight at a time or one")
    func leadingEqual() {
        for count in 0..<40 {
            for stop in 0...count {
                var bytes = [UInt8](repeating: 255, count: count)
                if stop < count { bytes[stop] = UInt8(stop % 255) }
                #expect(bytes.withUnsafeBufferPointer { nr_leading_equal($0.baseAddress, count, 255) } == stop, "\(count) \(stop)")
            }
        }
        #expect([UInt8](repeating: 7, count: 100).withUnsafeBufferPointer { nr_leading_equal($0.baseAddress, 64, 7) } == 64)
    }

    @Test("an opaque mask fill stores runs as blendSpan would blend them")
    func opaqueMask() {
        var random = Random(state: 5)
        for _ in 0..<6 {
            let w = 40 + random.int(60), h = 30 + random.int(30)
            var r1 = random, r2 = random
            let fast = Self.busyCanvas(&r1, width: w, height: h), reference = Self.busyCanvas(&r2, width: w, height: h)
            random = r1
            let path = Path.roundedRect(Rect(x: 1.3, y: 2.6, width: Double(w) - 5, height: Double(h) - 4), radius: 9)
            let colour = RGBA8(UInt8(random.int(256)), UInt8(random.int(256)), UInt8(random.int(256)))
            let ga = [1.0, 0.2][random.int(2)]
            fast.group(alpha: ga) { fast.fill(path, .solid(colour), element: 4) }
            let mask = CoverageMask.rasterize(path.flattened(tolerance: 0.1), clip: (0, 0, w, h))
            reference.group(alpha: ga) {
                reference.markDirty(mask.x, mask.y, mask.x + mask.width, mask.y + mask.height)
                let source = [UInt32](repeating: premultiply(colour), count: mask.width)
                let zeros = [UInt8](repeating: 0, count: mask.width)
                Canvas.borrow(reference.layers[reference.layers.count - 1], &reference.elementMap) { t in
                    for row in 0..<mask.height {
                        let cov = Array(mask.coverage[(row * mask.width)..<((row + 1) * mask.width)])
                        Canvas.blendSpan(t, at: (mask.y + row) * w + mask.x, source, coverage: cov, weights: zeros, count: mask.width,
                                         fromGroup: false, element: 4, claimOpaque: ga >= Canvas.claimAlpha,
                                         claimMinAlpha: Canvas.claimMinAlpha(groupAlpha: ga))
                    }
                }
            }
            let a = Self.state(fast), b = Self.state(reference)
            #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2)
        }
    }

    @Test("a deferred background gives the canvas of one written first, whatever is drawn first")
    func deferredBackground() {
        let w = 61, h = 47
        let white = RGBA8(255, 255, 255), grey = RGBA8(200, 200, 200, 255)
        // Each: a first drawing, then more. Opaque fills whole, partial, clipped, inside groups,
        // under a hidden region; a backdrop, a translucent fill, a path or nothing first.
        let drawings: [(String, (Canvas) -> Void)] = [
            ("nothing", { _ in }),
            ("opaque fill over all", { c in c.fill(Rect(x: 0, y: 0, width: 61, height: 47), .solid(grey), element: 1) }),
            ("opaque fill, fractional edges", { c in
                c.fill(Rect(x: 3.4, y: 2.7, width: 40.2, height: 30.5), .solid(grey), element: 1)
                c.fill(Rect(x: 20.5, y: 10, width: 50, height: 8), .solid(RGBA8(0, 0, 255, 128)), element: 2)
            }),
            ("clipped, then more", { c in
                c.clipped(to: Rect(x: 5, y: 5, width: 30, height: 30)) {
                    c.fill(Rect(x: 0, y: 0, width: 61, height: 47), .solid(grey), element: 1)
                }
                c.fill(Path.roundedRect(Rect(x: 30.3, y: 20.6, width: 25, height: 20), radius: 6), .solid(RGBA8(255, 0, 0)), element: 3)
            }),
            ("hidden region", { c in
                c.hiding(Rect(x: 30.5, y: 10, width: 40, height: 40)) {
                    c.fill(Rect(x: -2.5, y: 0, width: 61, height: 47), .solid(grey), element: 1)
                    c.fill(Path.roundedRect(Rect(x: 40, y: 20, width: 10, height: 10), radius: 3), .solid(RGBA8(255, 0, 0)), element: 3)
                }
                c.fill(Rect(x: 30.5, y: 0, width: 61, height: 47), .solid(RGBA8(10, 20, 30)), element: 4)
            }),
            ("group first", { c in
                c.group(alpha: 0.6) { c.fill(Rect(x: 4, y: 4, width: 30.5, height: 20), .solid(grey), element: 1) }
                c.fill(Rect(x: 10, y: 10, width: 20, height: 20), .solid(grey), element: 5)
            }),
            ("backdrop first", { c in
                c.group(alpha: 1) { c.backdrop(Rect(x: 0, y: 0, width: 61, height: 20), sigma: 3, saturation: 1.8, element: 6) }
            }),
            ("translucent first", { c in c.fill(Rect(x: 0.5, y: 0.5, width: 60, height: 46), .solid(RGBA8(0, 0, 0, 77)), element: 7) }),
            ("text-like path first", { c in c.fill(Path.ellipse(Rect(x: -5, y: -5, width: 30.3, height: 20.7)), .solid(grey), element: 8) }),
            ("hairline first", { c in c.hairline(bottom: 20, from: 3, to: 50, color: RGBA8(0, 0, 0, 77), element: 9) }),
        ]
        for (name, draw) in drawings {
            for scale in [1.0, 1.5] {
                let deferred = Canvas(width: w, height: h, scale: scale, background: white, deferBackground: true)
                let eager = Canvas(width: w, height: h, scale: scale, background: white)
                draw(deferred)
                draw(eager)
                // The element map read first, then the image, then the weights.
                #expect(deferred.elements == eager.elements, "\(name) at \(scale): elements")
                #expect(deferred.makeImage().pixels == eager.makeImage().pixels, "\(name) at \(scale): pixels")
                #expect(deferred.translucencyMap == eager.translucencyMap, "\(name) at \(scale): weights")
            }
        }
        // Read before anything is drawn, in each order.
        let a = Canvas(width: 5, height: 3, scale: 1, background: white, deferBackground: true)
        #expect(a.translucencyMap == [UInt8](repeating: 0, count: 15))
        let b = Canvas(width: 5, height: 3, scale: 1, background: white, deferBackground: true)
        #expect(b.makeImage().pixels == [UInt8](repeating: 255, count: 60))
    }

    @Test("makeImage unpremultiplies as the plain formula does, opaque runs included")
    func makeImage() {
        var random = Random(state: 3)
        // Runs of 9 opaque pixels in 17, runs of 40 in 57 (whole blocks of 16 and parts of them),
        // and lengths around the block size.
        for (width, height, opaque) in [(97, 13, { (i: Int) in i % 17 < 9 }), (101, 7, { (i: Int) in i % 57 < 40 }),
                                        (1, 1, { _ in true }), (15, 1, { _ in true }), (16, 1, { _ in true }),
                                        (17, 1, { (i: Int) in i != 16 }), (33, 2, { (i: Int) in i != 5 })] {
            let c = Canvas(width: width, height: height, scale: 1)
            c.layers[0].pixels = (0..<(width * height)).map { i in opaque(i) ? 0xFF00_0000 | UInt32(random.int(1 << 24)) : random.premultipliedPixel() }
            let image = c.makeImage()
            for (i, p) in c.layers[0].pixels.enumerated() {
                let a = p >> 24
                func channel(_ v: UInt32) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (v * 255 + a / 2) / a)) }
                let expected = [channel(p & 0xFF), channel((p >> 8) & 0xFF), channel((p >> 16) & 0xFF), UInt8(a)]
                #expect(Array(image.pixels[(i * 4)..<(i * 4 + 4)]) == expected, "\(width)x\(height) pixel \(i)")
            }
        }
    }

    @Test("group layers come back from the pool clean, nested groups included")
    func pooledLayers() {
        func pixels(_ c: Canvas) -> [UInt8] { c.makeImage().pixels + c.translucencyMap + c.elements }
        let fresh = pixels(CanvasScenes.groups())
        // Dirty every pooled layer of this size: nested groups blend into their parents outside
        // the parents' own drawing, which the pool must clear too.
        for round in 0..<6 {
            let c = Canvas(width: 80 * 2, height: 48 * 2, scale: 2, background: RGBA8(255, 255, 255))
            c.group(alpha: 0.9) {
                c.fill(Rect(x: 1, y: 1, width: 10, height: 10), .solid(RGBA8(200, 10, 10, 180)), element: 1)
                c.group(alpha: 0.5) {
                    c.fill(Rect(x: 30 + Double(round), y: 20, width: 40, height: 20), .solid(RGBA8(10, 200, 10)), element: 2)
                    c.group(alpha: 0.7) { c.backdrop(Rect(x: 50, y: 30, width: 25, height: 15), sigma: 2, saturation: 1.8, element: 3) }
                }
            }
        }
        #expect(pixels(CanvasScenes.groups()) == fresh)
        let idle = Canvas(width: 80 * 2, height: 48 * 2, scale: 2)
        for _ in 0..<3 { idle.group(alpha: 1) {} }
        #expect(Canvas.LayerPool.lock.locked {
            Canvas.LayerPool.free.allSatisfy { $0.pixels.allSatisfy { $0 == 0 } && $0.weights.allSatisfy { $0 == 0 } }
        })
    }

    @Test("translucent colours composed into one pass give the bytes of one fill after another")
    func composedFills() {
        var random = Random(state: 21)
        for round in 0..<8 {
            let w = 90 + random.int(50), h = 60 + random.int(30)
            var r1 = random, r2 = random
            let composed = Self.busyCanvas(&r1, width: w, height: h), sequential = Self.busyCanvas(&r2, width: w, height: h)
            random = r1
            let count = 2 + random.int(2)
            let colours = (0..<count).map { _ in
                RGBA8(UInt8(random.int(256)), UInt8(random.int(256)), UInt8(random.int(256)), UInt8(1 + random.int(254)))
            }
            let rect = Rect(x: 0.3 + Double(random.int(5)), y: 0.6, width: Double(w) - 7.2, height: Double(h) - 2.1)
            let ga = [1.0, 0.3, 0.2][round % 3]
            composed.group(alpha: ga) { composed.fill(rect, solids: colours, element: 7) }
            sequential.group(alpha: ga) { for c in colours { sequential.fill(rect, .solid(c), element: 7) } }
            let a = Self.state(composed), b = Self.state(sequential)
            #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2, "round \(round), colours \(colours)")
            // Straight onto a canvas with weighted, translucent pixels too.
            composed.fill(rect, solids: colours, element: 8)
            for c in colours { sequential.fill(rect, .solid(c), element: 8) }
            let c = Self.state(composed), d = Self.state(sequential)
            #expect(c.0 == d.0 && c.1 == d.1 && c.2 == d.2, "ungrouped, round \(round)")
        }
    }

    @Test("hash2 is fixed (baselines store it), tells close inputs apart, and reads every byte")
    func hash2() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        // Pinned, from a separate implementation of the description in Python: a change to the
        // function would make every stored content hash miss.
        #expect(FastHash.hex(FastHash.hash2(bytes)) == "30ca290809d2b48b")
        #expect(FastHash.hex(FastHash.hash2(Array(bytes.prefix(5)))) == "e545fdd6c609ef73")
        var seen = Set<UInt64>()
        for n in [0, 1, 7, 8, 31, 32, 33, 64, 999, 1000] { seen.insert(FastHash.hash2(Array(bytes.prefix(n)))) }
        #expect(seen.count == 10, "lengths")
        for i in [0, 8, 16, 24, 31, 32, 500, 968, 990, 999] {
            var changed = bytes
            changed[i] ^= 1
            #expect(FastHash.hash2(changed) != FastHash.hash2(bytes), "byte \(i)")
        }
        #expect(FastHash.hash2(bytes, seed: 1) != FastHash.hash2(bytes))
        // Every byte of a tail shorter than a block counts, the first as much as the last.
        let short = Array(bytes.prefix(63))
        for i in 32..<63 {
            var changed = short
            changed[i] ^= 0x10
            #expect(FastHash.hash2(changed) != FastHash.hash2(short), "tail byte \(i)")
        }
    }

    @Test("hash2 in C gives the Swift definition's value for every length, alignment and seed")
    func hash2InC() {
        var random = Random(state: 77)
        let bytes = (0..<4200).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { all in
            for n in 0...300 {
                for offset in [0, 1, 3, 8] {
                    let slice = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + n)])
                    let seed = random.next()
                    #expect(FastHash.hash2(slice, seed: seed) == FastHash.hash2Swift(slice, seed: seed), "\(n) bytes at +\(offset)")
                    #expect(FastHash.hash2(slice) == FastHash.hash2Swift(slice), "\(n) bytes at +\(offset), seed 0")
                }
            }
            // More than one of the Swift version's scratch blocks (512 x 32 bytes).
            let big = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 7) }
            big.withUnsafeBytes { b in #expect(FastHash.hash2(b, seed: 9) == FastHash.hash2Swift(b, seed: 9)) }
        }
        #expect(FastHash.hash2(UnsafeRawBufferPointer(start: nil, count: 0), seed: 5)
                == FastHash.hash2Swift(UnsafeRawBufferPointer(start: nil, count: 0), seed: 5))
    }

    @Test("the image shader's bilinear row in C gives ImageMapping.sample's pixels for every weight")
    func bilinearRow() {
        var random = Random(state: 404)
        let w = 37, h = 5
        // Premultiplied pixels and the extremes: 0 and 255 in every channel.
        var pixels = (0..<(w * h)).map { _ in random.premultipliedPixel() }
        pixels[0] = 0xFFFF_FFFF; pixels[1] = 0; pixels[w] = 0xFF00_00FF; pixels[w + 1] = 0xFFFF_FFFF
        pixels.withUnsafeBufferPointer { pb in
            let px = pb.baseAddress!
            for ay in UInt32(0)...255 {
                // Every column weight 0...255 once per row, at random source columns (including
                // the same column twice, as a clamped edge gives).
                var columns: [Int] = []
                var expected: [UInt32] = []
                let y0 = random.int(h), y1 = ay % 3 == 0 ? y0 : random.int(h)
                for ax in 0..<256 {
                    let x0 = random.int(w), x1 = ax % 5 == 0 ? x0 : random.int(w)
                    columns += [x0, x1, ax]
                    expected.append(ImageMapping.sample(px, w, (x0, x1, UInt32(ax)), (y0, y1, ay)))
                }
                for n in [256, 255, 3, 1, 0] {
                    var out = [UInt32](repeating: 0xDEAD_BEEF, count: n + 1)
                    out.withUnsafeMutableBufferPointer { ob in
                        columns.withUnsafeBufferPointer { cb in
                            nr_bilinear_row(px + y0 * w, px + y1 * w, cb.baseAddress!, ay, ob.baseAddress!, n)
                        }
                    }
                    let first = (0..<n).first { out[$0] != expected[$0] }
                    #expect(first == nil, "ay \(ay), \(n) pixels: pixel \(first ?? 0) is \(out[first ?? 0]), not \(expected[first ?? 0])")
                    #expect(out[n] == 0xDEAD_BEEF, "ay \(ay): wrote past \(n) pixels")
                }
            }
        }
    }

    @Test("a group composited at full opacity by run copies gives blendSpan's bytes")
    func groupRunCopies() {
        var random = Random(state: 31)
        for _ in 0..<6 {
            let w = 70 + random.int(40), h = 40 + random.int(20)
            var r1 = random
            let canvas = Self.busyCanvas(&r1, width: w, height: h)
            random = r1
            // A layer as a bar leaves it: a backdrop (opaque), translucent tints, transparent holes.
            let layer = Canvas.Layer(pixels: (0..<(w * h)).map { i in i % 23 < 15 ? 0xFF00_0000 | UInt32(i * 2_654_435_761 & 0xFF_FFFF) : random.premultipliedPixel() },
                                     weights: (0..<(w * h)).map { _ in UInt8(random.int(256)) })
            let region = (random.int(10), random.int(10), w - random.int(10), h - random.int(10))
            var e1 = canvas.elements, e2 = canvas.elements
            let t1 = Canvas.Layer(pixels: canvas.layers[0].pixels, weights: canvas.layers[0].weights)
            let t2 = Canvas.Layer(pixels: canvas.layers[0].pixels, weights: canvas.layers[0].weights)
            Canvas.composite(layer, region: region, into: t1, elements: &e1, width: w, opacity: 255, runCopies: true)
            Canvas.composite(layer, region: region, into: t2, elements: &e2, width: w, opacity: 255, runCopies: false)
            #expect(t1.pixels == t2.pixels && t1.weights == t2.weights && e1 == e2)
        }
    }
}
