/// A point in the canvas's coordinate space.
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    static func * (a: Point, k: Double) -> Point { Point(a.x * k, a.y * k) }
    var length: Double { (x * x + y * y).squareRoot() }
}

/// A rectangle: origin at the top left, y down.
public struct Rect: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public func insetBy(_ d: Double) -> Rect { Rect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
    public func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }
}

/// Lines and Bézier curves, flattened to polygons for rasterizing. Closed subpaths are filled
/// with the nonzero rule.
public struct Path: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)
        case cubic(Point, Point, Point)
        case close
    }

    var segments: [Segment] = []
    public init() {}

    public mutating func move(to p: Point) { segments.append(.move(p)) }
    public mutating func line(to p: Point) { segments.append(.line(p)) }
    public mutating func quad(to p: Point, control c: Point) { segments.append(.quad(c, p)) }
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) { segments.append(.cubic(c1, c2, p)) }
    public mutating func close() { segments.append(.close) }
    /// Adds another path's contours.
    public mutating func append(_ other: Path) { segments += other.segments }

    public static func rect(_ r: Rect) -> Path {
        var p = Path()
        p.move(to: Point(r.x, r.y))
        p.line(to: Point(r.maxX, r.y))
        p.line(to: Point(r.maxX, r.maxY))
        p.line(to: Point(r.x, r.maxY))
        p.close()
        return p
    }

    /// Circular-arc corners approximated by cubics with the usual constant
    /// k = 4/3 (√2 − 1) ≈ 0.5523 (Riškus, "Approximation of a cubic Bézier curve by circular arcs").
    public static func roundedRect(_ r: Rect, radius: Double) -> Path {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        if rad == 0 { return rect(r) }
        let k = 0.5522847498 * rad
        var p = Path()
        p.move(to: Point(r.x + rad, r.y))
        p.line(to: Point(r.maxX - rad, r.y))
        p.cubic(to: Point(r.maxX, r.y + rad), control1: Point(r.maxX - rad + k, r.y), control2: Point(r.maxX, r.y + rad - k))
        p.line(to: Point(r.maxX, r.maxY - rad))
        p.cubic(to: Point(r.maxX - rad, r.maxY), control1: Point(r.maxX, r.maxY - rad + k), control2: Point(r.maxX - rad + k, r.maxY))
        p.line(to: Point(r.x + rad, r.maxY))
        p.cubic(to: Point(r.x, r.maxY - rad), control1: Point(r.x + rad - k, r.maxY), control2: Point(r.x, r.maxY - rad + k))
        p.line(to: Point(r.x, r.y + rad))
        p.cubic(to: Point(r.x + rad, r.y), control1: Point(r.x, r.y + rad - k), control2: Point(r.x + rad - k, r.y))
        p.close()
        return p
    }

    public static func ellipse(_ r: Rect) -> Path {
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2, rx = r.width / 2, ry = r.height / 2
        let kx = 0.5522847498 * rx, ky = 0.5522847498 * ry
        var p = Path()
        p.move(to: Point(cx + rx, cy))
        p.cubic(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ky), control2: Point(cx + kx, cy + ry))
        p.cubic(to: Point(cx - rx, cy), control1: Point(cx - kx, cy + ry), control2: Point(cx - rx, cy + ky))
        p.cubic(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ky), control2: Point(cx - kx, cy - ry))
        p.cubic(to: Point(cx + rx, cy), control1: Point(cx + kx, cy - ry), control2: Point(cx + rx, cy - ky))
        p.close()
        return p
    }

    /// The outline of a polyline stroked `width` wide with round joins and caps: one quad per
    /// segment and one disc per vertex, all wound the same way so the nonzero rule unites them.
    public static func stroke(_ points: [Point], width: Double) -> Path {
        var p = Path()
        let r = width / 2
        for i in 0..<max(0, points.count - 1) {
            let a = points[i], b = points[i + 1]
            let d = b - a
            let len = d.length
            guard len > 0 else { continue }
            let n = Point(-d.y / len * r, d.x / len * r)
            var q = [a + n, b + n, b - n, a - n]
            if signedArea(q) < 0 { q.reverse() }
            p.move(to: q[0]); p.line(to: q[1]); p.line(to: q[2]); p.line(to: q[3]); p.close()
        }
        for v in points {
            var disc = ellipse(Rect(x: v.x - r, y: v.y - r, width: 2 * r, height: 2 * r))
            if signedArea(disc.flattened(tolerance: 0.05).first ?? []) < 0 { disc = disc.reversed() }
            p.segments += disc.segments
        }
        return p
    }

    static func signedArea(_ poly: [Point]) -> Double {
        var a = 0.0
        for i in 0..<poly.count {
            let p = poly[i], q = poly[(i + 1) % poly.count]
            a += p.x * q.y - q.x * p.y
        }
        return a / 2
    }

    /// The path with every contour reversed: appended to another, it cuts a hole (nonzero rule).
    public func reversed() -> Path {
        var out = Path()
        for poly in flattened(tolerance: 0.02) {
            guard let first = poly.last else { continue }
            out.move(to: first)
            for q in poly.reversed().dropFirst() { out.line(to: q) }
            out.close()
        }
        return out
    }

    /// The smallest and largest x and y of every point, control points included (a curve lies
    /// within its control points), or nil for a path without points.
    public var controlBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            if p.x < minX { minX = p.x }
            if p.x > maxX { maxX = p.x }
            if p.y < minY { minY = p.y }
            if p.y > maxY { maxY = p.y }
        }
        for s in segments {
            switch s {
            case .move(let p), .line(let p): add(p)
            case let .quad(c, p): add(c); add(p)
            case let .cubic(a, b, p): add(a); add(b); add(p)
            case .close: break
            }
        }
        return minX <= maxX && minY <= maxY ? (minX, minY, maxX, maxY) : nil
    }

    /// Whether no line or curve comes before the first move. `flattened` starts such a drawing at
    /// (0, 0) of the flattened space, a point `controlBounds` does not hold.
    public var startsWithMove: Bool {
        for s in segments {
            switch s {
            case .move: return true
            case .close: continue
            default: return false
            }
        }
        return true
    }

    /// The path moved and scaled: x' = x * scale + dx.
    public func transformed(scale: Double, dx: Double, dy: Double) -> Path {
        transformed(sx: scale, sy: scale, dx: dx, dy: dy)
    }

    /// x' = x * sx + dx, y' = y * sy + dy (a negative sy flips, e.g. font units to the canvas).
    public func transformed(sx: Double, sy: Double, dx: Double, dy: Double) -> Path {
        func t(_ p: Point) -> Point { Point(p.x * sx + dx, p.y * sy + dy) }
        var out = Path()
        out.segments = segments.map {
            switch $0 {
            case .move(let p): return .move(t(p))
            case .line(let p): return .line(t(p))
            case let .quad(c, p): return .quad(t(c), t(p))
            case let .cubic(a, b, p): return .cubic(t(a), t(b), t(p))
            case .close: return .close
            }
        }
        return out
    }

    /// `max(1, min(most, Int(steps)))` without trapping: an infinite or NaN count (a curve through
    /// a point at infinity, or so large its length overflows) takes `most` or 1 pieces.
    static func pieces(_ steps: Double, most: Int) -> Int {
        steps >= 1 ? (steps <= Double(most) ? Int(steps) : most) : 1
    }

    /// Closed polygons approximating the path to within about `tolerance` (in its units). Curves
    /// are cut into a number of pieces that depends only on their control points.
    public func flattened(tolerance: Double) -> [[Point]] {
        var polys: [[Point]] = []
        var current: [Point] = []
        var last = Point(0, 0)
        func finish() {
            if current.count >= 3 { polys.append(current) }
            current = []
        }
        for s in segments {
            switch s {
            case .move(let p):
                finish()
                current = [p]
                last = p
            case .line(let p):
                if current.isEmpty { current = [last] }
                current.append(p)
                last = p
            case let .quad(c, p):
                if current.isEmpty { current = [last] }
                let dd = (last - c * 2 + p).length
                let n = Self.pieces((dd / (4 * tolerance)).squareRoot().rounded(.up), most: 64)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(Point(u * u * last.x + 2 * u * t * c.x + t * t * p.x, u * u * last.y + 2 * u * t * c.y + t * t * p.y))
                }
                last = p
            case let .cubic(c1, c2, p):
                if current.isEmpty { current = [last] }
                let dd = max((last - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
                let n = Self.pieces((0.75 * dd / tolerance).squareRoot().rounded(.up), most: 100)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    current.append(Point(a * last.x + b * c1.x + c * c2.x + d * p.x, a * last.y + b * c1.y + c * c2.y + d * p.y))
                }
                last = p
            case .close:
                if let first = current.first { last = first }
                finish()
            }
        }
        finish()
        return polys
    }
}
