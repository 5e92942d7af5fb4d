import Scenario

/// A CSS-style timing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2),
/// solved for y at a given x: Newton's method on x(t) with a bisection fallback, to within
/// 1e-9 (the approach of WebKit's UnitBezier).
public struct CubicBezier: Sendable, Equatable {
    let cx: Double, bx: Double, ax: Double
    let cy: Double, by: Double, ay: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        // Polynomial coefficients of x(t) = ((ax t + bx) t + cx) t, and likewise y.
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    public init(_ curve: Curve) {
        let p = curve.controlPoints
        self.init(p.0, p.1, p.2, p.3)
    }

    func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The parameter t where x(t) = x.
    func solve(_ x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = self.x(t) - x
            if abs(error) < 1e-9 { return t }
            let d = dx(t)
            if abs(d) < 1e-7 { break }
            t -= error / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        if t < lo { return lo }
        if t > hi { return hi }
        while lo < hi {
            let v = self.x(t)
            if abs(v - x) < 1e-9 { return t }
            if x > v { lo = t } else { hi = t }
            t = (hi - lo) / 2 + lo
            if hi - lo < 1e-12 { break }
        }
        return t
    }

    /// The curve's value at progress x (0...1; clamped).
    public func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return y(solve(x))
    }
}
