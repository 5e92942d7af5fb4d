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
        for _ in 0..<3 {
            let w = 1 + random.int(70), h = 1 + random.int(40)
            // Flat areas with noise, as UI: runs of one colour.
            var pixels: [UInt32] = []
            var current = random.premultipliedPixel()
            for _ in 0..<(w * h) {
                if random.int(8) == 0 { current = random.premultipliedPixel() }
                pixels.append(current)
            }
            let rx0 = random.int(w), ry0 = random.int(h)
            let region = (rx0, ry0, rx0 + 1 + random.int(w - rx0), ry0 + 1 + random.int(h - ry0))
            let fast = Blur.gaussian(pixels, width: w, height: h, region: region, sigma: sigma, readsOutside: readsOutside)
            let reference = Self.referenceGaussian(pixels, width: w, height: h, region: region, sigma: sigma, readsOutside: readsOutside)
            #expect(fast == reference, "σ \(sigma), \(w)x\(h), region \(region)")
        }
    }
}
