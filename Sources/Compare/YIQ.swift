/// Perceptual colour difference in YIQ space: Kotsarenko & Ramos, "Measuring perceived color
/// difference using YIQ NTSC transmission color space in mobile applications" (2010), with the
/// coefficients and white blending pixelmatch uses (mapbox/pixelmatch 5.x). The arithmetic is
/// kept in the same order as pixelmatch's so that `--metric pixelmatch` counts exactly what it
/// counts.
enum YIQ {
    /// The largest possible delta (black against white): pixelmatch's 35215.
    static let maxDelta: Double = 35215

    /// The squared-delta limit for a threshold (0...1).
    @inline(__always)
    static func limit(threshold: Double) -> Double { maxDelta * threshold * threshold }

    @inline(__always)
    static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

    @inline(__always)
    static func y(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
    @inline(__always)
    static func i(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.59597799 - g * 0.27417610 - b * 0.32180189 }
    @inline(__always)
    static func q(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.21147017 - g * 0.52261711 + b * 0.31114694 }

    /// The squared YIQ distance of two RGBA8 pixels blended over white.
    @inline(__always)
    static func delta(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>) -> Double {
        let (r1, g1, b1) = blended(p)
        let (r2, g2, b2) = blended(q)
        let dy = y(r1, g1, b1) - y(r2, g2, b2)
        let di = i(r1, g1, b1) - i(r2, g2, b2)
        let dq = Self.q(r1, g1, b1) - Self.q(r2, g2, b2)
        return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    }

    /// The YIQ delta as a quadratic form: for opaque pixels (no blending) it is dᵀMd with d the
    /// RGB difference and M = 0.5053 y yᵀ + 0.299 i iᵀ + 0.1957 q qᵀ (y, i, q the rows above),
    /// whose eigenvalues are 0.0448154, 0.165549 and 0.256078 (numpy.linalg.eigvalsh). So
    /// 0.0448154 |d|² ≤ delta ≤ 0.256078 |d|²; with 0.1 % margins for rounding, the bounds
    /// decide most pixels without the floating-point arithmetic.
    static let lowerEigenvalue = 0.0448154 * 0.999
    static let upperEigenvalue = 0.256078 * 1.001

    /// Whether `delta(p, q) <= limit`, exactly as computing it, but computing it only when
    /// the eigenvalue bounds of two opaque pixels cannot tell.
    @inline(__always)
    static func within(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, limit: Double) -> Bool {
        if p[3] == 255 && q[3] == 255 {
            let dr = Int(p[0]) - Int(q[0]), dg = Int(p[1]) - Int(q[1]), db = Int(p[2]) - Int(q[2])
            let squared = Double(dr * dr + dg * dg + db * db)
            if squared * lowerEigenvalue > limit { return false }
            if squared * upperEigenvalue < limit { return true }
        }
        // delta's own arithmetic, in its order, stopping after the brightness term when that term
        // alone is over the limit: the other two terms are not negative, and adding them can only
        // round up, so the sum would be over too.
        let (r1, g1, b1) = blended(p)
        let (r2, g2, b2) = blended(q)
        let dy = y(r1, g1, b1) - y(r2, g2, b2)
        let brightness = 0.5053 * dy * dy
        if brightness > limit { return false }
        let di = i(r1, g1, b1) - i(r2, g2, b2)
        let dq = Self.q(r1, g1, b1) - Self.q(r2, g2, b2)
        return brightness + 0.299 * di * di + 0.1957 * dq * dq <= limit
    }

    @inline(__always)
    static func blended(_ p: UnsafePointer<UInt8>) -> (Double, Double, Double) {
        var r = Double(p[0]), g = Double(p[1]), b = Double(p[2])
        if p[3] < 255 {
            let a = Double(p[3]) / 255
            r = blend(r, a)
            g = blend(g, a)
            b = blend(b, a)
        }
        return (r, g, b)
    }
}
