@testable import Raster

// The Swift definitions that Raster's C loops (CPNG raster.c) replaced, kept here so that the
// tests hold the C to them (issue 17): each is the code as it stood before it moved to C.

extension Canvas {
    static func blendSpanSwift(_ t: Target, at base: Int, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>,
                               weights sourceWeights: UnsafePointer<UInt8>, count: Int, fromGroup: Bool,
                               element: UInt8, claimOpaque: Bool, claimMinAlpha: UInt32) {
        let pixels = t.pixels + base, weights = t.weights + base, elements = t.elements + base
        // The last translucent blend, (source, destination, weights) to (pixel, weight): a run of
        // equal inputs, as under a dimming layer or a tint over flat colour, reuses its result.
        var lastS: UInt32 = 0, lastD: UInt32 = 0, lastWs: UInt32 = 0, lastWd: UInt32 = 0
        var lastPixel: UInt32 = 0, lastWeight: UInt8 = 0, remembered = false
        var c = 0
        while c < count {
            var s = src[c]
            let cov = UInt32(coverage[c])
            if fromGroup ? s == 0 : cov == 0 { c += 1; continue }
            if cov < 255 {
                // div255 of each channel times the coverage, written out.
                var x = (s & 0xFF) * cov + 128
                let r0 = (x + (x >> 8)) >> 8
                x = ((s >> 8) & 0xFF) * cov + 128
                let g0 = (x + (x >> 8)) >> 8
                x = ((s >> 16) & 0xFF) * cov + 128
                let b0 = (x + (x >> 8)) >> 8
                x = (s >> 24) * cov + 128
                let a0 = (x + (x >> 8)) >> 8
                s = r0 | g0 << 8 | b0 << 16 | a0 << 24
            }
            let sa = s >> 24
            if !fromGroup && sa == 0 { c += 1; continue }
            let ws = UInt32(sourceWeights[c])
            if sa == 255 {
                pixels[c] = s
                weights[c] = UInt8(ws)
                if claimOpaque { elements[c] = element }
                c += 1
                continue
            }
            let d = pixels[c]
            let wd = UInt32(weights[c])
            if remembered && s == lastS && d == lastD && ws == lastWs && wd == lastWd {
                pixels[c] = lastPixel
                weights[c] = lastWeight
                if sa >= claimMinAlpha { elements[c] = element }
                c += 1
                continue
            }
            let inv = 255 - sa
            var x = (d & 0xFF) * inv + 128
            var r = (s & 0xFF) + ((x + (x >> 8)) >> 8)
            x = ((d >> 8) & 0xFF) * inv + 128
            var g = ((s >> 8) & 0xFF) + ((x + (x >> 8)) >> 8)
            x = ((d >> 16) & 0xFF) * inv + 128
            var b = ((s >> 16) & 0xFF) + ((x + (x >> 8)) >> 8)
            let da = d >> 24
            x = da * inv + 128
            var oa = sa + ((x + (x >> 8)) >> 8)
            if r > 255 { r = 255 }
            if g > 255 { g = 255 }
            if b > 255 { b = 255 }
            let denominator = 255 * oa
            if oa > 255 { oa = 255 }
            let out = r | g << 8 | b << 16 | oa << 24
            pixels[c] = out
            var weight = UInt8(wd)
            if ws != 0 || wd != 0 {
                if denominator == 0 {
                    weight = 0
                } else {
                    let q = (sa * ws * 255 + da * inv * wd + denominator / 2) / denominator
                    weight = UInt8(q < 255 ? q : 255)
                }
                weights[c] = weight
            }
            if sa >= claimMinAlpha { elements[c] = element }
            lastS = s; lastD = d; lastWs = ws; lastWd = wd
            lastPixel = out; lastWeight = weight; remembered = true
            c += 1
        }
    }
}

extension FastHash {
    /// `hash2` written in Swift: words copied in blocks into aligned scratch, then folded in.
    static func hash2Swift(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h0 = seed ^ k, h1 = seed ^ 0xBF58_476D_1CE4_E5B9, h2 = seed ^ 0x94D0_49BB_1331_11EB, h3 = seed ^ UInt64(bytes.count)
        let blocks = bytes.count / 32
        let block = 512
        let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: block * 4)
        defer { scratch.deallocate() }
        var b = 0
        while b < blocks {
            let n = blocks - b < block ? blocks - b : block
            UnsafeMutableRawPointer(scratch).copyMemory(from: bytes.baseAddress! + b * 32, byteCount: n * 32)
            var j = 0
            while j < n {
                let w = scratch + 4 * j
                h0 = (h0 ^ w[0]) &* k; h0 ^= h0 >> 29
                h1 = (h1 ^ w[1]) &* k; h1 ^= h1 >> 29
                h2 = (h2 ^ w[2]) &* k; h2 ^= h2 >> 29
                h3 = (h3 ^ w[3]) &* k; h3 ^= h3 >> 29
                j += 1
            }
            b += n
        }
        // The last 0...31 bytes, FNV-1a style (xor, then multiply by an odd number: each step is
        // invertible, so no byte's difference is lost).
        var tail: UInt64 = 0xCBF2_9CE4_8422_2325
        var i = blocks * 32
        while i < bytes.count {
            tail = (tail ^ UInt64(bytes[i])) &* 0x100_0000_01B3
            i += 1
        }
        return mix(mix(mix(mix(mix(h0 ^ tail) ^ h1) ^ h2) ^ h3) ^ UInt64(bytes.count))
    }
}

extension CoverageMask {
    /// `addLine` as first written, with lists of pieces: the definition the tests hold it to.
    static func addLineByLists(_ a: Point, _ b: Point, width: Double, height: Int, stride: Int, acc: UnsafeMutableBufferPointer<Float>) {
        if a.y == b.y { return }
        var pieces: [(Point, Point)] = [(a, b)]
        for border in [0.0, width] {
            var next: [(Point, Point)] = []
            for (p, q) in pieces {
                if (p.x - border) * (q.x - border) < 0 {
                    let t = (border - p.x) / (q.x - p.x)
                    let m = Point(border, p.y + (q.y - p.y) * t)
                    next.append((p, m))
                    next.append((m, q))
                } else {
                    next.append((p, q))
                }
            }
            pieces = next
        }
        for (p, q) in pieces {
            let pc = Point(min(max(p.x, 0), width), p.y), qc = Point(min(max(q.x, 0), width), q.y)
            accumulate(pc, qc, height: height, stride: stride, acc: acc)
        }
    }
}
