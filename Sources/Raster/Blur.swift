/// Gaussian blur approximated by three box blurs (W3C Filter Effects, feGaussianBlur: box size
/// d = floor(σ · 3 · √(2π) / 4 + 0.5)), here always made odd so each box is centred; edges
/// extended. Integer arithmetic; rows (then columns) are independent and run in parallel, so the
/// same input gives the same bytes on any thread count.
public enum Blur {
    public static func boxSize(sigma: Double) -> Int {
        var d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        if d % 2 == 0 { d += 1 }
        // Beyond 65,535 (σ of about 35,000 px) a box is wider than any image NavReel accepts; the
        // cap keeps the 32-bit arithmetic of `box` exact.
        return min(max(1, d), 65_535)
    }

    /// Blurs `region` (x0, y0, x1, y1) of premultiplied pixels, reading up to 3σ around it, or,
    /// with `readsOutside: false`, only the region itself with its edges extended (what a
    /// backdrop view sees: it captures its own bounds). Returns the region's pixels, row-major.
    public static func gaussian(_ pixels: [UInt32], width: Int, height: Int, region: (Int, Int, Int, Int), sigma: Double,
                                readsOutside: Bool = true) -> [UInt32] {
        let (x0, y0, x1, y1) = region
        let rw = x1 - x0, rh = y1 - y0
        if sigma <= 0 {
            var copy = [UInt32](repeating: 0, count: rw * rh)
            for y in 0..<rh { for x in 0..<rw { copy[y * rw + x] = pixels[(y0 + y) * width + x0 + x] } }
            return copy
        }
        let margin = readsOutside ? Int((3 * sigma).rounded(.up)) : 0
        let ex0 = max(0, x0 - margin), ey0 = max(0, y0 - margin)
        let ex1 = min(width, x1 + margin), ey1 = min(height, y1 + margin)
        let ew = ex1 - ex0, eh = ey1 - ey0
        let d = boxSize(sigma: sigma)
        // The extended region, then three horizontal passes; transposed, three more (the vertical
        // ones, W3C order) on contiguous memory. All four channels move together in SIMD lanes.
        var work = [UInt32](repeating: 0, count: ew * eh)
        for y in 0..<eh { for x in 0..<ew { work[y * ew + x] = pixels[(ey0 + y) * width + ex0 + x] } }
        var transposed = [UInt32](repeating: 0, count: ew * eh)
        work.withUnsafeMutableBufferPointer { w in
            transposed.withUnsafeMutableBufferPointer { t in
                let a = UncheckedWords(w.baseAddress!), b = UncheckedWords(t.baseAddress!)
                let bands = 16
                Parallel.forEach(bands) { band in
                    var scratch = [SIMD4<UInt32>](repeating: .zero, count: max(ew, eh) + d + 2)
                    for row in (band * eh / bands)..<((band + 1) * eh / bands) {
                        for _ in 0..<3 { box(a.pointer + row * ew, count: ew, d: d, scratch: &scratch) }
                    }
                }
                transpose(a.pointer, width: ew, height: eh, into: b.pointer)
                Parallel.forEach(bands) { band in
                    var scratch = [SIMD4<UInt32>](repeating: .zero, count: max(ew, eh) + d + 2)
                    for col in (band * ew / bands)..<((band + 1) * ew / bands) {
                        for _ in 0..<3 { box(b.pointer + col * eh, count: eh, d: d, scratch: &scratch) }
                    }
                }
                transpose(b.pointer, width: eh, height: ew, into: a.pointer)
            }
        }
        var result = [UInt32](repeating: 0, count: rw * rh)
        for y in 0..<rh {
            for x in 0..<rw {
                let p = work[(y0 - ey0 + y) * ew + (x0 - ex0 + x)]
                let a = p >> 24
                // Keep the premultiplied invariant: no channel above alpha.
                let r = min(p & 0xFF, a), g = min((p >> 8) & 0xFF, a), b = min((p >> 16) & 0xFF, a)
                result[y * rw + x] = r | g << 8 | b << 16 | a << 24
            }
        }
        return result
    }

    /// Transposes a width x height plane of words into `out` (height x width), in 32 x 32 tiles.
    static func transpose(_ src: UnsafeMutablePointer<UInt32>, width: Int, height: Int, into out: UnsafeMutablePointer<UInt32>) {
        let tile = 32
        for y0 in stride(from: 0, to: height, by: tile) {
            for x0 in stride(from: 0, to: width, by: tile) {
                for y in y0..<min(height, y0 + tile) {
                    for x in x0..<min(width, x0 + tile) {
                        out[x * height + y] = src[y * width + x]
                    }
                }
            }
        }
    }

    /// One centred box blur of odd size `d` along a line of packed pixels, edges extended. The
    /// division by d is a multiplication by R = round(2^24 / d) with rounding, exact for constant
    /// input. In 32-bit lanes: sum * R + 2^23 <= 255 * (2^24 + d / 2) + 2^23 < 2^32 for any d up
    /// to about 130,000.
    static func box(_ line: UnsafeMutablePointer<UInt32>, count n: Int, d: Int, scratch: inout [SIMD4<UInt32>]) {
        let r = d / 2
        let reciprocal = SIMD4<UInt32>(repeating: UInt32((Double(1 << 24) / Double(d)).rounded()))
        let half = SIMD4<UInt32>(repeating: 1 << 23)
        @inline(__always) func unpack(_ p: UInt32) -> SIMD4<UInt32> {
            SIMD4(p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF, p >> 24)
        }
        scratch.withUnsafeMutableBufferPointer { ext in
            let first = unpack(line[0]), last = unpack(line[n - 1])
            for i in 0..<r { ext[i] = first }
            for i in 0..<n { ext[r + i] = unpack(line[i]) }
            for i in 0...r { ext[r + n + i] = last }
            var sum = SIMD4<UInt32>.zero
            for i in 0..<d { sum &+= ext[i] }
            for i in 0..<n {
                let v = (sum &* reciprocal &+ half) &>> 24
                line[i] = min(v[0], 255) | min(v[1], 255) << 8 | min(v[2], 255) << 16 | min(v[3], 255) << 24
                sum = sum &+ ext[i + d] &- ext[i]
            }
        }
    }
}

struct UncheckedWords: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt32>
    init(_ pointer: UnsafeMutablePointer<UInt32>) { self.pointer = pointer }
}

/// The luminance-preserving saturation matrix (W3C Filter Effects, feColorMatrix type
/// "saturate") with Rec. 709 luma weights (0.2126, 0.7152, 0.0722), in 12-bit fixed point
/// whose rows each sum to exactly 4096, so greys stay exactly grey.
public enum Saturation {
    public static func matrix(_ s: Double) -> [[Int]] {
        let w = [0.2126, 0.7152, 0.0722]
        var m: [[Int]] = []
        for row in 0..<3 {
            var r = (0..<3).map { col in Int(((col == row ? w[col] + (1 - w[col]) * s : w[col] - w[col] * s) * 4096).rounded()) }
            r[row] += 4096 - r.reduce(0, +)
            m.append(r)
        }
        return m
    }

    public static func apply(_ pixels: [UInt32], amount s: Double) -> [UInt32] {
        if s == 1 { return pixels }
        let m = matrix(s)
        let m00 = m[0][0], m01 = m[0][1], m02 = m[0][2]
        let m10 = m[1][0], m11 = m[1][1], m12 = m[1][2]
        let m20 = m[2][0], m21 = m[2][1], m22 = m[2][2]
        return pixels.map { p in
            let a = Int(p >> 24)
            let r = Int(p & 0xFF), g = Int((p >> 8) & 0xFF), b = Int((p >> 16) & 0xFF)
            let nr = min(max((m00 * r + m01 * g + m02 * b + 2048) >> 12, 0), a)
            let ng = min(max((m10 * r + m11 * g + m12 * b + 2048) >> 12, 0), a)
            let nb = min(max((m20 * r + m21 * g + m22 * b + 2048) >> 12, 0), a)
            return UInt32(nr) | UInt32(ng) << 8 | UInt32(nb) << 16 | UInt32(a) << 24
        }
    }
}
