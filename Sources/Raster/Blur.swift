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
        // ones, W3C order) on contiguous memory. One thread: frames are what runs in parallel, and
        // a bar's blur is a few milliseconds, less than waking other threads costs (issue 17).
        var work = [UInt32](repeating: 0, count: ew * eh)
        var transposed = [UInt32](repeating: 0, count: ew * eh)
        var result = [UInt32](repeating: 0, count: rw * rh)
        // Two unpacked lines (one word a channel), each with the box's edge extension.
        var scratch = [UInt32](repeating: 0, count: 2 * 4 * (max(ew, eh) + d))
        pixels.withUnsafeBufferPointer { source in
            work.withUnsafeMutableBufferPointer { w in
                transposed.withUnsafeMutableBufferPointer { t in
                    result.withUnsafeMutableBufferPointer { out in
                        scratch.withUnsafeMutableBufferPointer { sc in
                            let a = w.baseAddress!, b = t.baseAddress!, s = sc.baseAddress!
                            var y = 0
                            while y < eh {
                                (a + y * ew).update(from: source.baseAddress! + (ey0 + y) * width + ex0, count: ew)
                                y += 1
                            }
                            var line = 0
                            while line < eh { box3(a + line * ew, count: ew, d: d, scratch: s); line += 1 }
                            transpose(a, width: ew, height: eh, into: b)
                            line = 0
                            while line < ew { box3(b + line * eh, count: eh, d: d, scratch: s); line += 1 }
                            transpose(b, width: eh, height: ew, into: a)
                            let o = out.baseAddress!
                            y = 0
                            while y < rh {
                                let line = a + (y0 - ey0 + y) * ew + (x0 - ex0)
                                var x = 0
                                while x < rw {
                                    let p = line[x]
                                    let al = p >> 24
                                    // Keep the premultiplied invariant: no channel above alpha.
                                    var r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
                                    if al < r { r = al }
                                    if al < g { g = al }
                                    if al < b { b = al }
                                    o[y * rw + x] = r | g << 8 | b << 16 | al << 24
                                    x += 1
                                }
                                y += 1
                            }
                        }
                    }
                }
            }
        }
        return result
    }

    /// Transposes a width x height plane of words into `out` (height x width), in 32 x 32 tiles.
    static func transpose(_ src: UnsafeMutablePointer<UInt32>, width: Int, height: Int, into out: UnsafeMutablePointer<UInt32>) {
        let tile = 32
        var y0 = 0
        while y0 < height {
            let yEnd = height < y0 + tile ? height : y0 + tile
            var x0 = 0
            while x0 < width {
                let xEnd = width < x0 + tile ? width : x0 + tile
                var y = y0
                while y < yEnd {
                    var x = x0
                    while x < xEnd {
                        out[x * height + y] = src[y * width + x]
                        x += 1
                    }
                    y += 1
                }
                x0 += tile
            }
            y0 += tile
        }
    }

    /// Three centred box blurs of odd size `d` along a line of packed pixels, edges extended
    /// before each. The division by d is a multiplication by R = round(2^24 / d) with rounding,
    /// exact for constant input. In 32-bit arithmetic: sum * R + 2^23 <= 255 * (2^24 + d / 2) +
    /// 2^23 < 2^32 for any d up to about 130,000. The line is unpacked once (one word a channel)
    /// and the passes run between the two halves of `scratch`, each pass's output written with the
    /// next pass's edge extension around it; only the last pass packs. This gives the same values
    /// as packing and unpacking between passes, as the passes see the same 0...255 integers.
    /// `scratch` holds 2 * 4 * (count + d) words. Plain loops over scalars, so that an
    /// unoptimised build runs it at a usable speed too.
    static func box3(_ line: UnsafeMutablePointer<UInt32>, count n: Int, d: Int, scratch: UnsafeMutablePointer<UInt32>) {
        let r = d / 2
        let extended = n + d            // r + n + r + 1 entries: the window's last step reads n - 1 + d
        let a = scratch, b = scratch + 4 * extended
        let first = line[0], last = line[n - 1]
        var i = 0
        while i < extended {
            let p = i < r ? first : (i < r + n ? line[i - r] : last)
            let e = a + 4 * i
            e[0] = p & 0xFF; e[1] = (p >> 8) & 0xFF; e[2] = (p >> 16) & 0xFF; e[3] = p >> 24
            i += 1
        }
        boxPass(a, into: b + 4 * r, count: n, d: d)
        extend(b, r: r, count: n, extended: extended)
        boxPass(b, into: a + 4 * r, count: n, d: d)
        extend(a, r: r, count: n, extended: extended)
        boxPass(a, into: b, count: n, d: d)
        i = 0
        while i < n {
            let e = b + 4 * i
            line[i] = e[0] | e[1] << 8 | e[2] << 16 | e[3] << 24
            i += 1
        }
    }

    /// One box pass over an unpacked, edge-extended line `ext` (count + d pixels) into `out`
    /// (count pixels, unpacked).
    @inline(__always)
    static func boxPass(_ ext: UnsafeMutablePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>, count n: Int, d: Int) {
        let reciprocal = UInt32((Double(1 << 24) / Double(d)).rounded())
        let half: UInt32 = 1 << 23
        var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0
        var i = 0
        while i < d {
            let e = ext + 4 * i
            s0 = s0 &+ e[0]; s1 = s1 &+ e[1]; s2 = s2 &+ e[2]; s3 = s3 &+ e[3]
            i += 1
        }
        i = 0
        while i < n {
            var v0 = (s0 &* reciprocal &+ half) &>> 24, v1 = (s1 &* reciprocal &+ half) &>> 24
            var v2 = (s2 &* reciprocal &+ half) &>> 24, v3 = (s3 &* reciprocal &+ half) &>> 24
            if v0 > 255 { v0 = 255 }
            if v1 > 255 { v1 = 255 }
            if v2 > 255 { v2 = 255 }
            if v3 > 255 { v3 = 255 }
            let o = out + 4 * i
            o[0] = v0; o[1] = v1; o[2] = v2; o[3] = v3
            let add = ext + 4 * (i + d), sub = ext + 4 * i
            s0 = s0 &+ add[0] &- sub[0]; s1 = s1 &+ add[1] &- sub[1]
            s2 = s2 &+ add[2] &- sub[2]; s3 = s3 &+ add[3] &- sub[3]
            i += 1
        }
    }

    /// Copies the first and last of `count` unpacked pixels at offset `r` over the `r` pixels
    /// before and the `extended - r - count` after them.
    @inline(__always)
    static func extend(_ e: UnsafeMutablePointer<UInt32>, r: Int, count n: Int, extended: Int) {
        var i = 0
        let f = e + 4 * r, l = e + 4 * (r + n - 1)
        while i < r {
            let o = e + 4 * i
            o[0] = f[0]; o[1] = f[1]; o[2] = f[2]; o[3] = f[3]
            i += 1
        }
        i = r + n
        while i < extended {
            let o = e + 4 * i
            o[0] = l[0]; o[1] = l[1]; o[2] = l[2]; o[3] = l[3]
            i += 1
        }
    }
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
        var out = [UInt32](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { sb in
            out.withUnsafeMutableBufferPointer { ob in
                let src = sb.baseAddress!, dst = ob.baseAddress!
                let n = sb.count
                var i = 0
                while i < n {
                    let p = src[i]
                    let a = Int(p >> 24)
                    let r = Int(p & 0xFF), g = Int((p >> 8) & 0xFF), b = Int((p >> 16) & 0xFF)
                    // min(max(v, 0), a) per channel, as Swift.min and Swift.max evaluate it.
                    var nr = (m00 * r + m01 * g + m02 * b + 2048) >> 12
                    var ng = (m10 * r + m11 * g + m12 * b + 2048) >> 12
                    var nb = (m20 * r + m21 * g + m22 * b + 2048) >> 12
                    if nr < 0 { nr = 0 }
                    if ng < 0 { ng = 0 }
                    if nb < 0 { nb = 0 }
                    if a < nr { nr = a }
                    if a < ng { ng = a }
                    if a < nb { nb = a }
                    dst[i] = UInt32(nr) | UInt32(ng) << 8 | UInt32(nb) << 16 | UInt32(a) << 24
                    i += 1
                }
            }
        }
        return out
    }
}
