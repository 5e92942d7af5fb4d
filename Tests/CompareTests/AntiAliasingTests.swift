import Testing
import Raster
import CCompare
@testable import Compare

/// isAntialiased against pixelmatch's loop transcribed as it is written (mapbox/pixelmatch,
/// `antialiased`: column-major over the 3x3 block, zero deltas counted, the first neighbour
/// with the most negative and the most positive delta kept, siblings tested in both images).
/// NavReel answers for interior pixels without branching on the deltas (min, max, bit masks):
/// few colours make many equal deltas, where the first-neighbour rule decides which sibling
/// test runs, and translucent pixels exercise the blending over white.
@Suite("Anti-aliasing detection")
struct AntiAliasingTests {
    /// pixelmatch's rgb2y of the pixel at byte `k`, blended over white when translucent (its blend).
    static func y(_ a: [UInt8], _ k: Int) -> Double {
        var r = Double(a[k]), g = Double(a[k + 1]), b = Double(a[k + 2])
        let alpha = a[k + 3]
        if alpha < 255 {
            let f = Double(alpha) / 255
            r = 255 + (r - 255) * f
            g = 255 + (g - 255) * f
            b = 255 + (b - 255) * f
        }
        return r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    static func reference(_ img: [UInt8], _ x1: Int, _ y1: Int, _ width: Int, _ height: Int, _ other: [UInt8]) -> Bool {
        func y(_ a: [UInt8], _ k: Int) -> Double { Self.y(a, k) }
        func same(_ a: [UInt8], _ k: Int, _ m: Int) -> Bool { a[k..<k + 4] == a[m..<m + 4] }
        func delta(_ a: [UInt8], _ k: Int, _ m: Int) -> Double { same(a, k, m) ? 0 : y(a, k) - y(a, m) }
        func hasManySiblings(_ a: [UInt8], _ x1: Int, _ y1: Int) -> Bool {
            let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
            let pos = (y1 * width + x1) * 4
            var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
            for x in x0...x2 {
                for y in y0...y2 where x != x1 || y != y1 {
                    if same(a, pos, (y * width + x) * 4) { zeroes += 1 }
                    if zeroes > 2 { return true }
                }
            }
            return false
        }
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0, minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                let d = delta(img, pos, (y * width + x) * 4)
                if d == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if d < minDelta {
                    minDelta = d; minX = x; minY = y
                } else if d > maxDelta {
                    maxDelta = d; maxX = x; maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minX, minY) && hasManySiblings(other, minX, minY))
            || (hasManySiblings(img, maxX, maxY) && hasManySiblings(other, maxX, maxY))
    }

    static func image(_ width: Int, _ height: Int, colors: [RGBA8], seed: UInt64) -> [UInt8] {
        var state = seed
        var out: [UInt8] = []
        for _ in 0..<(width * height) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let c = colors[Int(state >> 33) % colors.count]
            out += [c.r, c.g, c.b, c.a]
        }
        return out
    }

    static let closeColors: [RGBA8] = (0..<24).map { (k: Int) -> RGBA8 in
        let r = UInt8(100 + k * 7 % 13), g = UInt8(100 + k * 5 % 11), b = UInt8(100 + k * 3 % 17)
        return RGBA8(r, g, b, 255)
    }

    @Test("the C test's brightness is pixelmatch's to the bit, opaque and at every alpha")
    func brightnessIsPixelmatchs() {
        var state: UInt64 = 3, checked = 0
        for alpha in 0...255 {
            for k in 0..<48 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let pixel: [UInt8] = k < 16 ? [UInt8(k * 17), UInt8(k * 17), UInt8(k * 17), UInt8(alpha)]
                    : [UInt8(truncatingIfNeeded: state >> 24), UInt8(truncatingIfNeeded: state >> 32),
                       UInt8(truncatingIfNeeded: state >> 40), UInt8(alpha)]
                let reference = Self.y(pixel, 0)
                let got = pixel.withUnsafeBufferPointer { nr_pixel_brightness($0.baseAddress!) }
                #expect(got.bitPattern == reference.bitPattern, "\(pixel)")
                checked += 1
            }
        }
        #expect(checked == 256 * 48)
    }

    @Test("every pixel of random few-colour images, opaque and translucent, answers as pixelmatch's loop")
    func matchesReference() {
        // Greys with equal steps make equal deltas in both directions; a colour pair with the
        // same brightness makes a zero delta between different pixels; translucent pixels blend.
        let palettes: [[RGBA8]] = [
            [RGBA8(0, 0, 0, 255), RGBA8(128, 128, 128, 255), RGBA8(255, 255, 255, 255)],
            [RGBA8(10, 10, 10, 255), RGBA8(20, 20, 20, 255), RGBA8(30, 30, 30, 255), RGBA8(40, 40, 40, 255)],
            [RGBA8(200, 0, 0, 255), RGBA8(0, 102, 0, 255), RGBA8(90, 90, 90, 255), RGBA8(200, 0, 0, 128)],
            [RGBA8(0, 0, 0, 0), RGBA8(0, 0, 0, 255), RGBA8(255, 255, 255, 255), RGBA8(50, 100, 150, 200), RGBA8(50, 100, 150, 255)],
            // Many opaque colours, close in brightness: the order of the deltas decides.
            Self.closeColors,
        ]
        var antialiased = 0, checked = 0
        for (n, palette) in palettes.enumerated() {
            for seed in 1...6 as ClosedRange<UInt64> {
                let (width, height) = (9 + Int(seed), 7 + n)
                let a = Self.image(width, height, colors: palette, seed: seed * 31 + UInt64(n))
                // The other image: mostly the same pixels, so its siblings often agree.
                var b = a
                let c = Self.image(width, height, colors: palette, seed: seed * 97 + UInt64(n))
                for k in stride(from: 0, to: b.count, by: 12) { b[k..<k + 4] = c[k..<k + 4] }
                a.withUnsafeBufferPointer { ap in
                    b.withUnsafeBufferPointer { bp in
                        for y in 0..<height {
                            for x in 0..<width {
                                let expected = Self.reference(a, x, y, width, height, b)
                                let got = AntiAliasing.isAntialiased(ap.baseAddress!, x, y, width, height, bp.baseAddress!)
                                #expect(got == expected, "pixel (\(x), \(y)) of palette \(n), seed \(seed)")
                                if x > 0 && y > 0 && x < width - 1 && y < height - 1 {
                                    // The scalar masks, which machines without SSE2 run, answer the same.
                                    let scalar = nr_interior_antialiased_scalar(ap.baseAddress!, bp.baseAddress!, Int64(x), Int64(y),
                                                                                Int64(width), Int64(height)) != 0
                                    #expect(scalar == expected, "pixel (\(x), \(y)) of palette \(n), seed \(seed), scalar")
                                }
                                if expected { antialiased += 1 }
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        // The cases must include both answers, or the comparison proves little.
        #expect(antialiased > 20 && antialiased < checked - 20, "\(antialiased) of \(checked) anti-aliased")
    }
}
