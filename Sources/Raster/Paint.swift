/// What fills a shape.
public enum Paint: Sendable {
    case solid(RGBA8)
    case linearGradient(LinearGradient)
    case image(ImagePaint)
}

/// A linear gradient between two points (canvas points), with any number of stops. Colours are
/// interpolated premultiplied, as CSS and Core Graphics do.
public struct LinearGradient: Sendable, Equatable {
    public var start: Point
    public var end: Point
    /// Offsets 0...1 in increasing order, with straight-alpha colours.
    public var stops: [(offset: Double, color: RGBA8)]

    public init(start: Point, end: Point, stops: [(offset: Double, color: RGBA8)]) {
        self.start = start
        self.end = end
        self.stops = stops
    }

    /// Evenly spaced stops.
    public init(start: Point, end: Point, colors: [RGBA8]) {
        let n = max(1, colors.count - 1)
        self.init(start: start, end: end, stops: colors.enumerated().map { (Double($0.offset) / Double(n), $0.element) })
    }

    public static func == (l: LinearGradient, r: LinearGradient) -> Bool {
        l.start == r.start && l.end == r.end && l.stops.map(\.offset) == r.stops.map(\.offset) && l.stops.map(\.color) == r.stops.map(\.color)
    }

    /// Premultiplied colour at parameter t (clamped to 0...1).
    func color(at t: Double) -> UInt32 {
        guard let first = stops.first, let last = stops.last else { return 0 }
        if t <= first.offset { return premultiply(first.color) }
        if t >= last.offset { return premultiply(last.color) }
        var i = 0
        while i + 1 < stops.count && stops[i + 1].offset < t { i += 1 }
        let a = stops[i], b = stops[min(i + 1, stops.count - 1)]
        let span = b.offset - a.offset
        let f = span > 0 ? (t - a.offset) / span : 0
        let k = Int((f * 65536).rounded())   // 16-bit fraction: integer interpolation below
        let pa = premultiply(a.color), pb = premultiply(b.color)
        var out: UInt32 = 0
        for c in 0..<4 {
            let va = Int((pa >> (8 * c)) & 0xFF), vb = Int((pb >> (8 * c)) & 0xFF)
            let v = (va * (65536 - k) + vb * k + 32768) >> 16
            out |= UInt32(v) << (8 * c)
        }
        return out
    }
}

/// How an image fills a rectangle.
public enum ImageFillMode: Sendable, Equatable {
    /// Scaled to the rectangle.
    case stretch
    /// Repeated at its natural size (`scale` image pixels per point).
    case tile
    /// Nine-slice: corners keep their size, edges stretch one way, the centre both (insets in
    /// points, as UIKit's capInsets: top, left, bottom, right).
    case capInsets(Double, Double, Double, Double)
}

public struct ImagePaint: Sendable {
    public var image: Image
    public var rect: Rect
    public var mode: ImageFillMode
    /// Image pixels per point: 2 for a @2x file, 3 for @3x.
    public var scale: Double
    public init(image: Image, rect: Rect, mode: ImageFillMode, scale: Double = 1) {
        self.image = image
        self.rect = rect
        self.mode = mode
        self.scale = scale > 0 ? scale : 1
    }
}

/// Premultiplied RGBA8 packed as r | g << 8 | b << 16 | a << 24.
@inline(__always)
func premultiply(_ c: RGBA8) -> UInt32 {
    let a = UInt32(c.a)
    return div255(UInt32(c.r) * a) | div255(UInt32(c.g) * a) << 8 | div255(UInt32(c.b) * a) << 16 | a << 24
}

/// x / 255, rounded, for x in 0...65025 (exact: Blinn, "Three wrongs make a right").
@inline(__always)
func div255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

@inline(__always)
func div255(_ x: Int) -> Int {
    let t = x + 128
    return (t + (t >> 8)) >> 8
}

/// `x.rounded()` (to nearest, halves away from zero) without a call into libm, for per-pixel
/// loops: x86-64's baseline has no instruction for it, and the call cost more than the pixel
/// (issue 17). Exact: below 2^52 in magnitude the truncation `t` is exact and so is `x - t`
/// (|x - t| < 1 shares x's exponent range, Sterbenz), so comparing the remainder with ±0.5 is
/// the rounding itself. Larger magnitudes are already integers; NaN and infinities go to libm.
@inline(__always)
func roundedHalfAway(_ x: Double) -> Double {
    guard x.magnitude < 4_503_599_627_370_496 else { return x.rounded() }
    let t = Double(Int(x))
    let f = x - t
    if f >= 0.5 { return t + 1 }
    if f <= -0.5 { return t - 1 }
    return t
}
