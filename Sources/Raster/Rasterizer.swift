import CPNG

/// Exact-area coverage of polygons on a pixel grid, by accumulating signed areas per row (the
/// accumulation technique of Raph Levien's font-rs). Coverage is |winding area| clamped to 1,
/// so shapes wound the same way unite (nonzero) and counter-wound contours cut holes, as glyph
/// outlines need. Arithmetic happens in a fixed order, so the same input gives the same bytes.
public struct CoverageMask: Sendable, Equatable {
    /// Pixel bounds of the mask.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// `width * height` coverage values 0...255.
    public var coverage: [UInt8]

    public static let empty = CoverageMask(x: 0, y: 0, width: 0, height: 0, coverage: [])

    /// Rasterizes polygons given in pixel coordinates, clipped to `clip` (x0, y0, x1, y1).
    public static func rasterize(_ polygons: [[Point]], clip: (Int, Int, Int, Int)) -> CoverageMask {
        guard let b = bounds(polygons, clip: clip) else { return .empty }
        return rasterize(polygons, within: b)
    }

    /// `rasterize` with the polygons' `bounds` already known (a caller that looked at them first).
    static func rasterize(_ polygons: [[Point]], within b: (Int, Int, Int, Int)) -> CoverageMask {
        let (x0, y0, x1, y1) = b
        let w = x1 - x0, h = y1 - y0
        let stride = w + 2
        var acc = [Float](repeating: 0, count: stride * h)
        acc.withUnsafeMutableBufferPointer { a in
            for poly in polygons {
                for i in 0..<poly.count {
                    let p = poly[i], q = poly[(i + 1) % poly.count]
                    addLine(Point(p.x - Double(x0), p.y - Double(y0)), Point(q.x - Double(x0), q.y - Double(y0)),
                            width: Double(w), height: h, stride: stride, acc: a)
                }
            }
        }
        // Every byte is written by `nr_coverage_rows` (CPNG raster.c: rows equal to the row above
        // copied, runs of zero areas filled without arithmetic; issue 17).
        let coverage = [UInt8](unsafeUninitializedCapacity: w * h) { c, n in
            acc.withUnsafeBufferPointer { a in
                nr_coverage_rows(a.baseAddress!, stride, w, h, c.baseAddress!)
            }
            n = w * h
        }
        return CoverageMask(x: x0, y: y0, width: w, height: h, coverage: coverage)
    }

    /// The pixel bounds (x0, y0, x1, y1) of the mask `rasterize` makes of `polygons`: whole pixels
    /// around every point, within `clip`; nil when that is empty.
    static func bounds(_ polygons: [[Point]], clip: (Int, Int, Int, Int)) -> (Int, Int, Int, Int)? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for poly in polygons {
            // A point that is not finite bounds nothing (its edges add nothing: `accumulate`).
            for p in poly where p.x.isFinite && p.y.isFinite {
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX.isFinite, minY.isFinite else { return nil }
        let x0 = max(clip.0, Canvas.pixelInt(minX.rounded(.down))), y0 = max(clip.1, Canvas.pixelInt(minY.rounded(.down)))
        let x1 = min(clip.2, Canvas.pixelInt(maxX.rounded(.up))), y1 = min(clip.3, Canvas.pixelInt(maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1, y1)
    }

    /// Adds one edge. Parts left or right of the mask are moved onto its left or right border,
    /// which keeps the winding they contribute to the pixels inside.
    static func addLine(_ a: Point, _ b: Point, width: Double, height: Int, stride: Int, acc: UnsafeMutableBufferPointer<Float>) {
        if a.y == b.y { return }
        // Split at the left border, then each piece at the right one, so that each piece lies
        // inside, or on a border; the pieces are added in that order. (Written without arrays:
        // building lists of pieces allocated four times an edge, most of text's time; issue 17.)
        @inline(__always) func add(_ p: Point, _ q: Point) {
            let pc = Point(min(max(p.x, 0), width), p.y), qc = Point(min(max(q.x, 0), width), q.y)
            accumulate(pc, qc, height: height, stride: stride, acc: acc)
        }
        // The edge p-q in one or two pieces, cut where it crosses x = border.
        @inline(__always) func split(_ p: Point, _ q: Point, at border: Double, _ next: (Point, Point) -> Void) {
            if (p.x - border) * (q.x - border) < 0 {
                let t = (border - p.x) / (q.x - p.x)
                let m = Point(border, p.y + (q.y - p.y) * t)
                next(p, m)
                next(m, q)
            } else {
                next(p, q)
            }
        }
        split(a, b, at: 0) { p, q in split(p, q, at: width, add) }
    }

    static func accumulate(_ p0: Point, _ p1: Point, height: Int, stride: Int, acc: UnsafeMutableBufferPointer<Float>) {
        if p0.y == p1.y { return }
        let (a, b, dir): (Point, Point, Double) = p0.y < p1.y ? (p0, p1, 1) : (p1, p0, -1)
        let dxdy = (b.x - a.x) / (b.y - a.y)
        // An edge of subnormal height has an infinite slope, and its area is below a Float's
        // smallest (so it adds nothing); a non-finite point has none. Either would reach Int()
        // as NaN and trap.
        guard dxdy.isFinite, a.x.isFinite, b.x.isFinite, a.y.isFinite, b.y.isFinite else { return }
        let yStart = max(0, Canvas.pixelInt(a.y.rounded(.down)))
        let yEnd = min(height, Canvas.pixelInt(b.y.rounded(.up)))
        guard yStart < yEnd else { return }
        var x = a.x + (max(Double(yStart), a.y) - a.y) * dxdy
        // The edge's own x range. Stepping row by row can drift past its ends by a rounding error
        // (-2.8e-17 for an edge ending at x = 0), which put area in column -1: the row before's
        // padding, or before the buffer on the first row. Within the range this changes nothing.
        let lo = min(a.x, b.x), hi = max(a.x, b.x)
        for y in yStart..<yEnd {
            let line = y * stride
            let dy = min(Double(y + 1), b.y) - max(Double(y), a.y)
            let step = x + dxdy * dy
            let xnext = min(max(step, lo), hi)
            x = min(max(x, lo), hi)
            let d = dy * dir
            let (x0, x1) = x < xnext ? (x, xnext) : (xnext, x)
            let x0floor = x0.rounded(.down)
            let x0i = Int(x0floor)
            let x1ceil = x1.rounded(.up)
            let x1i = Int(x1ceil)
            if x1i <= x0i + 1 {
                let xmf = 0.5 * (x + xnext) - x0floor
                acc[line + x0i] += Float(d - d * xmf)
                acc[line + x0i + 1] += Float(d * xmf)
            } else {
                let s = 1 / (x1 - x0)
                let x0f = x0 - x0floor
                let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
                let x1f = x1 - x1ceil + 1
                let am = 0.5 * s * x1f * x1f
                acc[line + x0i] += Float(d * a0)
                if x1i == x0i + 2 {
                    acc[line + x0i + 1] += Float(d * (1 - a0 - am))
                } else {
                    let a1 = s * (1.5 - x0f)
                    acc[line + x0i + 1] += Float(d * (a1 - a0))
                    if x0i + 2 < x1i - 1 {
                        for xi in (x0i + 2)..<(x1i - 1) { acc[line + xi] += Float(d * s) }
                    }
                    let a2 = a1 + Double(x1i - x0i - 3) * s
                    acc[line + x1i - 1] += Float(d * (1 - a2 - am))
                }
                acc[line + x1i] += Float(d * am)
            }
            x = xnext
        }
    }
}
