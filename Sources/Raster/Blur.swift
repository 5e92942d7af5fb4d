import CPNG
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
        let plane = blurredPlane(pixels, width: width, height: height, region: region, sigma: sigma, readsOutside: readsOutside)
        var result = [UInt32](repeating: 0, count: rw * rh)
        plane.pixels.withUnsafeBufferPointer { a in
            result.withUnsafeMutableBufferPointer { out in
                var y = 0
                while y < rh {
                    clampToAlpha(a.baseAddress! + plane.offset + y * plane.stride, into: out.baseAddress! + y * rw, count: rw)
                    y += 1
                }
            }
        }
        return result
    }

    /// Keeps the premultiplied invariant after blurring: no channel above alpha.
    @inline(__always)
    static func clampToAlpha(_ line: UnsafePointer<UInt32>, into o: UnsafeMutablePointer<UInt32>, count: Int) {
        // In C (CPNG raster.c: four pixels a step with SSE2, a bytewise minimum with alpha; issue 17).
        nr_clamp_to_alpha(line, o, count)
    }

    /// The blur of `gaussian` (σ > 0) before the final clamp to alpha: the whole extended plane,
    /// with where the region starts in it (`offset`) and its row length (`stride`).
    static func blurredPlane(_ pixels: [UInt32], width: Int, height: Int, region: (Int, Int, Int, Int), sigma: Double,
                             readsOutside: Bool) -> (pixels: [UInt32], offset: Int, stride: Int) {
        let (x0, y0, x1, y1) = region
        let margin = readsOutside ? Int((3 * sigma).rounded(.up)) : 0
        let ex0 = max(0, x0 - margin), ey0 = max(0, y0 - margin)
        let ex1 = min(width, x1 + margin), ey1 = min(height, y1 + margin)
        let ew = ex1 - ex0, eh = ey1 - ey0
        let d = boxSize(sigma: sigma)
        // Three horizontal passes over the extended region, read in place from `pixels` into
        // `work`; transposed, three more (the vertical ones, W3C order) on contiguous memory back
        // into `work`, and transposed again. Each line is read from one plane and written to the
        // other, so a line can be compared with the line before it as it was read. One thread:
        // frames are what runs in parallel, and a bar's blur is a few milliseconds, less than
        // waking other threads costs (issue 17). Both planes are written whole before they are
        // read, so they start uninitialised.
        var work = [UInt32](unsafeUninitializedCapacity: ew * eh) { _, n in n = ew * eh }
        var transposed = [UInt32](unsafeUninitializedCapacity: ew * eh) { _, n in n = ew * eh }
        // Two unpacked lines (two words of two channels a pixel), each with the box's edge
        // extension; twice that for two lines at once (`nr_box3_pair`).
        var scratch = [UInt64](repeating: 0, count: 2 * 2 * 2 * (max(ew, eh) + d))
        pixels.withUnsafeBufferPointer { source in
            work.withUnsafeMutableBufferPointer { w in
                transposed.withUnsafeMutableBufferPointer { t in
                    scratch.withUnsafeMutableBufferPointer { sc in
                        let a = w.baseAddress!, b = t.baseAddress!, s = sc.baseAddress!
                        boxLines(source.baseAddress! + ey0 * width + ex0, stride: width, into: a, lines: eh, length: ew, d: d, scratch: s)
                        transpose(a, width: ew, height: eh, into: b)
                        boxLines(b, stride: eh, into: a, lines: ew, length: eh, d: d, scratch: s)
                        transpose(a, width: eh, height: ew, into: b)
                    }
                }
            }
        }
        return (transposed, (y0 - ey0) * ew + (x0 - ex0), ew)
    }

    /// `box3` of `lines` lines of `length` pixels, line k read at `input + k * stride` and
    /// written contiguously to `out`, skipping work the result does not need: a line equal to
    /// the one before (as read) gets that line's result, and a line of one colour stays one
    /// colour, the value three passes give a constant (computed, not assumed). Interface content
    /// is mostly flat, so most lines of a bar's backdrop are one or the other.
    static func boxLines(_ input: UnsafePointer<UInt32>, stride: Int, into out: UnsafeMutablePointer<UInt32>, lines: Int,
                         length n: Int, d: Int, scratch: UnsafeMutablePointer<UInt64>) {
        // What each line needs, then the lines that need blurring (two at a time where the CPU
        // has AVX2: CPNG raster.c `nr_box3_pair`), then the rest in order, so that a line equal
        // to the one before copies a finished result.
        enum Kind { case box, same, constant(UInt32) }
        var kinds = [Kind](repeating: .box, count: lines)
        var line = 0
        while line < lines {
            let p = input + line * stride
            if line > 0 && equal(p, p - stride, n) {
                kinds[line] = .same
            } else {
                let c = p[0]
                var i = 1
                while i < n && p[i] == c { i += 1 }
                if i == n { kinds[line] = .constant(constant(c, d: d)) }
            }
            line += 1
        }
        let reciprocal = UInt32((Double(1 << 24) / Double(d)).rounded())
        let level = nr_simd_level()
        var pending: Int? = nil
        line = 0
        while line < lines {
            if case .box = kinds[line] {
                if let first = pending {
                    if nr_box3_pair(input + first * stride, out + first * n, input + line * stride, out + line * n, n, d, reciprocal,
                                    scratch, level) == 0 {
                        box3(input + first * stride, into: out + first * n, count: n, d: d, scratch: scratch)
                        box3(input + line * stride, into: out + line * n, count: n, d: d, scratch: scratch)
                    }
                    pending = nil
                } else {
                    pending = line
                }
            }
            line += 1
        }
        if let first = pending { box3(input + first * stride, into: out + first * n, count: n, d: d, scratch: scratch) }
        line = 0
        while line < lines {
            let o = out + line * n
            switch kinds[line] {
            case .box: break
            case .same: o.update(from: o - n, count: n)
            case .constant(let v): o.update(repeating: v, count: n)
            }
            line += 1
        }
    }

    static func equal(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, _ n: Int) -> Bool {
        nr_words_equal(a, b, n) != 0
    }

    /// What three box passes of size d make of a line of the packed colour `c`: each pass sums d
    /// copies of each channel and divides as `boxPass` does.
    static func constant(_ c: UInt32, d: Int) -> UInt32 {
        let reciprocal = UInt32((Double(1 << 24) / Double(d)).rounded())
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            var v = (c >> shift) & 0xFF
            for _ in 0..<3 { v = ((UInt32(d) &* v) &* reciprocal &+ (1 << 23)) &>> 24 }
            out |= v << shift
            shift += 8
        }
        return out
    }

    /// Transposes a width x height plane of words into `out` (height x width), in 32 x 32 tiles,
    /// writing each output line contiguously (strided reads are cheaper than strided writes).
    static func transpose(_ src: UnsafeMutablePointer<UInt32>, width: Int, height: Int, into out: UnsafeMutablePointer<UInt32>) {
        // In C (CPNG raster.c: 4 x 4 blocks by SSE2 unpacks inside the tiles; issue 17).
        nr_transpose(src, width, height, out)
    }

    /// Three centred box blurs of odd size `d` along a line of packed pixels, edges extended
    /// before each. The division by d is a multiplication by R = round(2^24 / d) with rounding,
    /// exact for constant input: sum * R + 2^23 <= 255 * 2^24 + 127.5 * d + 2^23 < 2^32 for
    /// every d below 65,793 (`boxSize` caps d at 65,535), so each result fits in 32 bits.
    ///
    /// Two channels share a 64-bit word, 32 bits apart (red with blue, green with alpha): sums
    /// add and subtract lane by lane since no lane leaves 0..<2^32, and one 64-bit multiply by R
    /// gives both lanes' products because the low lane's product plus 2^23 stays below 2^32 and
    /// never carries into the high lane. That halves the arithmetic against a word a channel and
    /// is plain integer code, fast in an unoptimised build too. The line is unpacked once and the
    /// passes run between the two halves of `scratch`, each pass's output written with the next
    /// pass's edge extension around it; only the last pass packs. The passes see the same 0...255
    /// integers as passes that pack and unpack in between, so the bytes are the same (the tests
    /// hold it against a plain reference). `scratch` holds 2 * 2 * (count + d) words of 64 bits.
    static func box3(_ line: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>, count n: Int, d: Int,
                     scratch: UnsafeMutablePointer<UInt64>) {
        // In C where the target has SSE2 (CPNG raster.c `nr_box3`, issue 17): the same passes on
        // a pixel's four channels at once, about a tenth of a 1x check's CPU here.
        let reciprocal = UInt32((Double(1 << 24) / Double(d)).rounded())
        if nr_box3(line, out, n, d, reciprocal, scratch) != 0 { return }
        if UnsafePointer(out) != line { out.update(from: line, count: n) }
        box3Swift(out, count: n, d: d, scratch: scratch)
    }

    /// `box3` in Swift, for targets without SSE2 (and the tests' second opinion).
    static func box3Swift(_ line: UnsafeMutablePointer<UInt32>, count n: Int, d: Int, scratch: UnsafeMutablePointer<UInt64>) {
        let r = d / 2
        let extended = n + d            // r + n + r + 1 entries: the window's last step reads n - 1 + d
        let a = scratch, b = scratch + 2 * extended
        let first = line[0], last = line[n - 1]
        var i = 0
        while i < extended {
            let p = UInt64(i < r ? first : (i < r + n ? line[i - r] : last))
            a[2 * i] = (p & 0xFF) | ((p >> 16) & 0xFF) << 32
            a[2 * i + 1] = ((p >> 8) & 0xFF) | (p >> 24) << 32
            i += 1
        }
        boxPass(a, into: b + 2 * r, count: n, d: d)
        extend(b, r: r, count: n, extended: extended)
        boxPass(b, into: a + 2 * r, count: n, d: d)
        extend(a, r: r, count: n, extended: extended)
        boxPass(a, into: b, count: n, d: d)
        i = 0
        while i < n {
            let rb = b[2 * i], ga = b[2 * i + 1]
            line[i] = UInt32(truncatingIfNeeded: rb | ga << 8 | (rb >> 16) | (ga >> 8))
            i += 1
        }
    }

    /// One box pass over an unpacked, edge-extended line `ext` (count + d pixels, two words
    /// each) into `out` (count pixels, unpacked).
    @inline(__always)
    static func boxPass(_ ext: UnsafeMutablePointer<UInt64>, into out: UnsafeMutablePointer<UInt64>, count n: Int, d: Int) {
        let reciprocal = UInt64((Double(1 << 24) / Double(d)).rounded())
        let half: UInt64 = 1 << 23 | 1 << 55
        let lanes: UInt64 = 0xFF | 0xFF << 32
        var s0: UInt64 = 0, s1: UInt64 = 0
        var i = 0
        while i < d {
            s0 = s0 &+ ext[2 * i]; s1 = s1 &+ ext[2 * i + 1]
            i += 1
        }
        i = 0
        while i < n {
            out[2 * i] = ((s0 &* reciprocal &+ half) &>> 24) & lanes
            out[2 * i + 1] = ((s1 &* reciprocal &+ half) &>> 24) & lanes
            s0 = s0 &+ ext[2 * (i + d)] &- ext[2 * i]
            s1 = s1 &+ ext[2 * (i + d) + 1] &- ext[2 * i + 1]
            i += 1
        }
    }

    /// Copies the first and last of `count` unpacked pixels at offset `r` over the `r` pixels
    /// before and the `extended - r - count` after them.
    @inline(__always)
    static func extend(_ e: UnsafeMutablePointer<UInt64>, r: Int, count n: Int, extended: Int) {
        let f0 = e[2 * r], f1 = e[2 * r + 1], l0 = e[2 * (r + n - 1)], l1 = e[2 * (r + n - 1) + 1]
        var i = 0
        while i < r { e[2 * i] = f0; e[2 * i + 1] = f1; i += 1 }
        i = r + n
        while i < extended { e[2 * i] = l0; e[2 * i + 1] = l1; i += 1 }
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
        var out = [UInt32](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { sb in
            out.withUnsafeMutableBufferPointer { ob in
                apply(sb.baseAddress!, into: ob.baseAddress!, count: sb.count, matrix: m)
            }
        }
        return out
    }

    /// The matrix row by row as `nr_saturate` reads it, or nil when an entry is beyond its
    /// 16-bit multiplies (a saturation above about 8.5: Swift's loop then).
    static func packed(_ m: [[Int]]) -> [Int32]? {
        let entries = m.joined()
        return entries.allSatisfy({ $0 >= -32767 && $0 <= 32767 }) ? entries.map { Int32($0) } : nil
    }

    /// `count` premultiplied pixels through `matrix` (from `matrix(_:)`) into `dst`. A grey pixel
    /// (r = g = b, at most alpha) is its own result, since every row sums to 4096:
    /// (4096 v + 2048) >> 12 = v.
    public static func apply(_ src: UnsafePointer<UInt32>, into dst: UnsafeMutablePointer<UInt32>, count n: Int, matrix m: [[Int]]) {
        let m00 = m[0][0], m01 = m[0][1], m02 = m[0][2]
        let m10 = m[1][0], m11 = m[1][1], m12 = m[1][2]
        let m20 = m[2][0], m21 = m[2][1], m22 = m[2][2]
        // Four at a time with SSE2 in C (CPNG raster.c: the same arithmetic, every pixel computed;
        // issue 17), when the entries fit its 16-bit multiplies (any saturation up to about 8.5);
        // the rest here.
        var i = 0
        if n >= 4, let entries = packed(m) {
            i = entries.withUnsafeBufferPointer { nr_saturate(src, dst, n, $0.baseAddress!) }
        }
        // The last colour converted and its result: blurred interface is mostly runs of one colour.
        var lastP: UInt32 = 0, lastOut: UInt32 = 0
        while i < n {
            let p = src[i]
            if p == lastP && i > 0 {
                dst[i] = lastOut
                i += 1
                continue
            }
            let rgb = p & 0xFF_FFFF
            if rgb == (p & 0xFF) &* 0x01_0101 && p & 0xFF <= p >> 24 {
                dst[i] = p
                lastP = p; lastOut = p
                i += 1
                continue
            }
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
            let out = UInt32(nr) | UInt32(ng) << 8 | UInt32(nb) << 16 | UInt32(a) << 24
            dst[i] = out
            lastP = p; lastOut = out
            i += 1
        }
    }
}
