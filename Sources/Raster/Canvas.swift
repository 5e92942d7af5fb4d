/// A deterministic 2D canvas over RGBA8 pixels, drawn in points and stored in pixels.
///
/// Compositing is source-over in premultiplied alpha with integer arithmetic. Beside the
/// pixels it keeps two side channels at the same resolution: the translucency weight (0...255,
/// the fraction of each pixel's colour that comes from blurred backdrop) and the element map
/// (the id of the topmost element drawn with at least a quarter opacity).
public final class Canvas {
    public let width: Int
    public let height: Int
    /// Pixels per point.
    public let scale: Double
    /// A drawing claims a pixel in the element map when it covers it at this opacity or more:
    /// enough for a hairline (0.3), not for dimming (0.1) or a faint shadow.
    public static let claimAlpha = 0.25

    /// A class so that its pixel and weight arrays can be borrowed at the same time.
    final class Layer {
        var pixels: [UInt32]      // premultiplied, r | g << 8 | b << 16 | a << 24
        var weights: [UInt8]
        var dirty: (Int, Int, Int, Int)?
        init(pixels: [UInt32], weights: [UInt8]) {
            self.pixels = pixels
            self.weights = weights
        }
    }

    var layers: [Layer]
    public private(set) var elements: [UInt8]
    var clips: [(Int, Int, Int, Int)]
    var offsets: [Point] = [Point(0, 0)]
    /// Product of the group alphas drawn into, for element decisions.
    var groupAlpha = 1.0

    public init(width: Int, height: Int, scale: Double, background: RGBA8 = RGBA8(0, 0, 0, 0)) {
        // No size or scale traps: a canvas is at least one pixel, and a scale that is not a positive
        // number draws at 1 (callers check sizes first; this keeps a bad one from crashing).
        let width = max(1, width), height = max(1, height)
        self.width = width
        self.height = height
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        layers = [Layer(pixels: [UInt32](repeating: premultiply(background), count: width * height),
                        weights: [UInt8](repeating: 0, count: width * height))]
        elements = [UInt8](repeating: 0, count: width * height)
        clips = [(0, 0, width, height)]
    }

    var clip: (Int, Int, Int, Int) { clips.last! }
    var offset: Point { offsets.last! }

    /// Canvas points to pixels, with the current translation.
    @inline(__always)
    func px(_ p: Point) -> Point { Point((p.x + offset.x) * scale, (p.y + offset.y) * scale) }

    // MARK: State

    /// Draws `body` moved by (dx, dy) points.
    public func translated(_ dx: Double, _ dy: Double, _ body: () -> Void) {
        offsets.append(Point(offset.x + dx, offset.y + dy))
        body()
        offsets.removeLast()
    }

    /// Draws `body` clipped to a rectangle (in points, rounded out to whole pixels).
    public func clipped(to rect: Rect, _ body: () -> Void) {
        let a = px(Point(rect.x, rect.y)), b = px(Point(rect.maxX, rect.maxY))
        let c = clip
        clips.append((max(c.0, Int(a.x.rounded())), max(c.1, Int(a.y.rounded())),
                      min(c.2, Int(b.x.rounded())), min(c.3, Int(b.y.rounded()))))
        body()
        clips.removeLast()
    }

    /// Draws `body` into a separate layer, then blends that layer at `alpha` (group opacity).
    public func group(alpha: Double, _ body: () -> Void) {
        let a = min(1, max(0, alpha))
        if a <= 0 { return }
        layers.append(Layer(pixels: [UInt32](repeating: 0, count: width * height),
                            weights: [UInt8](repeating: 0, count: width * height)))
        let saved = groupAlpha
        groupAlpha *= a
        body()
        groupAlpha = saved
        let layer = layers.removeLast()
        guard let d = layer.dirty else { return }
        let g = UInt32((a * 255).rounded())
        let target = layers[layers.count - 1]
        layer.pixels.withUnsafeBufferPointer { src in
            layer.weights.withUnsafeBufferPointer { sw in
                Self.borrow(target, &elements) { dst in
                    for y in d.1..<d.3 {
                        for x in d.0..<d.2 {
                            let i = y * width + x
                            let s = src[i]
                            if s == 0 { continue }
                            let scaled = div255((s & 0xFF) * g) | div255(((s >> 8) & 0xFF) * g) << 8
                                | div255(((s >> 16) & 0xFF) * g) << 16 | div255((s >> 24) * g) << 24
                            dst.blend(i, scaled, weight: UInt32(sw[i]), element: nil, groupAlpha: 1)
                        }
                    }
                }
            }
        }
    }

    // MARK: Compositing

    /// Raw access to a layer's pixels and weights and the element map, for the blending loops.
    struct Target {
        let pixels: UnsafeMutablePointer<UInt32>
        let weights: UnsafeMutablePointer<UInt8>
        let elements: UnsafeMutablePointer<UInt8>

        /// Source-over of one premultiplied pixel carrying its own translucency weight.
        @inline(__always)
        func blend(_ i: Int, _ s: UInt32, weight ws: UInt32, element: UInt8?, groupAlpha: Double) {
            let sa = s >> 24
            if sa == 255 {
                pixels[i] = s
                weights[i] = UInt8(ws)
                if let element, groupAlpha >= Canvas.claimAlpha { elements[i] = element }
                return
            }
            let d = pixels[i]
            let inv = 255 - sa
            let r = (s & 0xFF) + div255((d & 0xFF) * inv)
            let g = ((s >> 8) & 0xFF) + div255(((d >> 8) & 0xFF) * inv)
            let b = ((s >> 16) & 0xFF) + div255(((d >> 16) & 0xFF) * inv)
            let da = d >> 24
            let oa = sa + div255(da * inv)
            pixels[i] = min(r, 255) | min(g, 255) << 8 | min(b, 255) << 16 | min(oa, 255) << 24
            // Fraction of the new colour that is blurred backdrop: the source's own share plus
            // what shows through of the destination's, weighted by their contributions to alpha.
            let wd = UInt32(weights[i])
            if ws != 0 || wd != 0 {
                let numerator = sa * ws * 255 + da * inv * wd
                let denominator = 255 * oa
                weights[i] = denominator == 0 ? 0 : UInt8(min(255, (numerator + denominator / 2) / denominator))
            }
            if let element, Double(sa) * groupAlpha >= Canvas.claimAlpha * 255 { elements[i] = element }
        }
    }

    static func borrow(_ layer: Layer, _ elements: inout [UInt8], _ body: (Target) -> Void) {
        layer.pixels.withUnsafeMutableBufferPointer { p in
            layer.weights.withUnsafeMutableBufferPointer { w in
                elements.withUnsafeMutableBufferPointer { e in
                    body(Target(pixels: p.baseAddress!, weights: w.baseAddress!, elements: e.baseAddress!))
                }
            }
        }
    }

    func markDirty(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        let top = layers[layers.count - 1]
        if let d = top.dirty {
            top.dirty = (min(d.0, x0), min(d.1, y0), max(d.2, x1), max(d.3, y1))
        } else {
            top.dirty = (x0, y0, x1, y1)
        }
    }

    /// Fills a coverage mask with a paint.
    public func fill(_ mask: CoverageMask, _ paint: Paint, element: UInt8) {
        guard mask.width > 0 else { return }
        fillSpans(x0: mask.x, y0: mask.y, width: mask.width, height: mask.height, paint: paint, element: element) { row, col in
            mask.coverage[row * mask.width + col]
        }
    }

    /// The shared blending loop: shades each row once, then blends it under a coverage.
    @inline(__always)
    func fillSpans(x0: Int, y0: Int, width w: Int, height h: Int, paint: Paint, element: UInt8,
                   coverage: (Int, Int) -> UInt8) {
        markDirty(x0, y0, x0 + w, y0 + h)
        var row = [UInt32](repeating: 0, count: w)
        let shader = Shader(paint: paint, canvas: self)
        let ga = groupAlpha
        let canvasWidth = width
        Self.borrow(layers[layers.count - 1], &elements) { target in
            row.withUnsafeMutableBufferPointer { shaded in
                var solidDone = false
                for r in 0..<h {
                    let y = y0 + r
                    if !(shader.isSolid && solidDone) {
                        shader.shade(y: y, x0: x0, into: shaded)
                        solidDone = true
                    }
                    let base = y * canvasWidth + x0
                    for c in 0..<w {
                        let cov = UInt32(coverage(r, c))
                        if cov == 0 { continue }
                        var s = shaded[c]
                        if cov < 255 {
                            s = div255((s & 0xFF) * cov) | div255(((s >> 8) & 0xFF) * cov) << 8
                                | div255(((s >> 16) & 0xFF) * cov) << 16 | div255((s >> 24) * cov) << 24
                        }
                        if s >> 24 == 0 { continue }
                        target.blend(base + c, s, weight: 0, element: element, groupAlpha: ga)
                    }
                }
            }
        }
    }
    /// Fills a path (in points) with a paint.
    public func fill(_ path: Path, _ paint: Paint, element: UInt8) {
        let o = offset
        let polys = path.transformed(scale: scale, dx: o.x * scale, dy: o.y * scale).flattened(tolerance: 0.1)
        fill(CoverageMask.rasterize(polys, clip: clip), paint, element: element)
    }

    /// Fills a rectangle (in points), with exact coverage at fractional edges: each pixel's
    /// coverage is its horizontal overlap times its vertical overlap.
    public func fill(_ rect: Rect, _ paint: Paint, element: UInt8) {
        let a = px(Point(rect.x, rect.y)), b = px(Point(rect.maxX, rect.maxY))
        let c = clip
        let x0 = max(c.0, Int(a.x.rounded(.down))), y0 = max(c.1, Int(a.y.rounded(.down)))
        let x1 = min(c.2, Int(b.x.rounded(.up))), y1 = min(c.3, Int(b.y.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        func overlap(_ lo: Double, _ hi: Double, _ i: Int) -> UInt32 {
            let v = min(hi, Double(i + 1)) - max(lo, Double(i))
            return UInt32((max(0, min(1, v)) * 255).rounded())
        }
        let cols = (x0..<x1).map { overlap(a.x, b.x, $0) }
        let rows = (y0..<y1).map { overlap(a.y, b.y, $0) }
        // Opaque solid colour: fully covered pixels are simply stored; only the edges blend.
        if case .solid(let color) = paint, color.a == 255 {
            let p = premultiply(color)
            let claim = groupAlpha >= Canvas.claimAlpha
            markDirty(x0, y0, x1, y1)
            let w = width
            Self.borrow(layers[layers.count - 1], &elements) { t in
                for (r, ry) in rows.enumerated() where ry > 0 {
                    let y = y0 + r
                    for (c, cx) in cols.enumerated() where cx > 0 {
                        let i = y * w + x0 + c
                        let cov = cx == 255 ? ry : (ry == 255 ? cx : div255(cx * ry))
                        if cov == 255 {
                            t.pixels[i] = p
                            t.weights[i] = 0
                            if claim { t.elements[i] = element }
                        } else {
                            let s = div255((p & 0xFF) * cov) | div255(((p >> 8) & 0xFF) * cov) << 8
                                | div255(((p >> 16) & 0xFF) * cov) << 16 | div255((p >> 24) * cov) << 24
                            t.blend(i, s, weight: 0, element: element, groupAlpha: groupAlpha)
                        }
                    }
                }
            }
            return
        }
        fillSpans(x0: x0, y0: y0, width: x1 - x0, height: y1 - y0, paint: paint, element: element) { r, col in
            let cx = cols[col], ry = rows[r]
            return UInt8(cx == 255 ? ry : (ry == 255 ? cx : div255(cx * ry)))
        }
    }

    /// Strokes a polyline (in points) with round joins and caps.
    public func stroke(_ points: [Point], width: Double, _ paint: Paint, element: UInt8) {
        fill(Path.stroke(points, width: width), paint, element: element)
    }

    /// A line one physical pixel tall whose bottom edge is at `bottom` (points), from x0 to x1.
    public func hairline(bottom: Double, from x0: Double, to x1: Double, color: RGBA8, element: UInt8) {
        let yPx = Int(((bottom + offset.y) * scale).rounded()) - 1
        let a = Int(((x0 + offset.x) * scale).rounded()), b = Int(((x1 + offset.x) * scale).rounded())
        let c = clip
        guard yPx >= c.1, yPx < c.3 else { return }
        let lo = max(a, c.0), hi = min(b, c.2)
        guard hi > lo else { return }
        fill(CoverageMask(x: lo, y: yPx, width: hi - lo, height: 1, coverage: [UInt8](repeating: 255, count: hi - lo)),
             .solid(color), element: element)
    }

    // MARK: Backdrop material

    /// Blurs and saturates what lies beneath `rect` (points) into it: the first layer of a bar's
    /// translucent material. Reads up to 3σ outside the rectangle. Inside a group the backdrop is
    /// the layer under the group; the result is fully backdrop (weight 255) until tints cover it.
    public func backdrop(_ rect: Rect, sigma: Double, saturation: Double, element: UInt8) {
        let a = px(Point(rect.x, rect.y)), b = px(Point(rect.maxX, rect.maxY))
        let c = clip
        let x0 = max(c.0, Int(a.x.rounded())), y0 = max(c.1, Int(a.y.rounded()))
        let x1 = min(c.2, Int(b.x.rounded())), y1 = min(c.3, Int(b.y.rounded()))
        guard x1 > x0, y1 > y0 else { return }
        let source = layers.count >= 2 ? layers[layers.count - 2].pixels : layers[layers.count - 1].pixels
        let sigmaPx = sigma * scale
        // A backdrop reads only what lies behind it, edges extended: content below a bar's bottom
        // edge never tints the bar (NAVIGATION-MODEL.md, "Blur").
        let blurred = Blur.gaussian(source, width: width, height: height, region: (x0, y0, x1, y1), sigma: sigmaPx, readsOutside: false)
        let saturated = Saturation.apply(blurred, amount: saturation)
        markDirty(x0, y0, x1, y1)
        let rw = x1 - x0
        let ga = groupAlpha
        let canvasWidth = width
        Self.borrow(layers[layers.count - 1], &elements) { t in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = y * canvasWidth + x
                    t.pixels[i] = saturated[(y - y0) * rw + (x - x0)]
                    t.weights[i] = 255
                    if ga >= Canvas.claimAlpha { t.elements[i] = element }
                }
            }
        }
    }

    // MARK: Output

    /// The pixels as a straight-alpha image.
    public func makeImage() -> Image {
        precondition(layers.count == 1, "a group is still open")
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        layers[0].pixels.withUnsafeBufferPointer { src in
            bytes.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count {
                    let p = src[i]
                    let a = p >> 24
                    var r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF
                    if a != 255 && a != 0 {
                        r = min(255, (r * 255 + a / 2) / a)
                        g = min(255, (g * 255 + a / 2) / a)
                        b = min(255, (b * 255 + a / 2) / a)
                    } else if a == 0 {
                        r = 0; g = 0; b = 0
                    }
                    dst[i * 4] = UInt8(r); dst[i * 4 + 1] = UInt8(g); dst[i * 4 + 2] = UInt8(b); dst[i * 4 + 3] = UInt8(a)
                }
            }
        }
        return Image(width: width, height: height, pixels: bytes)
    }

    /// Translucency weights of the finished canvas, one per pixel.
    public var translucencyMap: [UInt8] {
        precondition(layers.count == 1, "a group is still open")
        return layers[0].weights
    }

}

/// Produces premultiplied colours for a row of pixels.
struct Shader {
    let paint: Paint
    let scale: Double
    let offset: Point
    let premultipliedImage: [UInt32]?
    /// ScenarioGradient colours at 4096 steps of t: under one level of error for any two stops, and
    /// no per-pixel search through the stops.
    let gradientTable: [UInt32]?
    static let gradientSteps = 4096

    init(paint: Paint, canvas: Canvas) {
        self.paint = paint
        scale = canvas.scale
        offset = canvas.offset
        if case .linearGradient(let g) = paint {
            gradientTable = (0..<Self.gradientSteps).map { g.color(at: Double($0) / Double(Self.gradientSteps - 1)) }
        } else {
            gradientTable = nil
        }
        if case .image(let p) = paint {
            premultipliedImage = p.image.pixels.withUnsafeBufferPointer { b in
                (0..<p.image.pixelCount).map { i in premultiply(RGBA8(b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3])) }
            }
        } else {
            premultipliedImage = nil
        }
    }

    /// The point (in the paint's coordinates) at the centre of pixel (x, y).
    @inline(__always)
    func point(_ x: Int, _ y: Int) -> Point {
        Point((Double(x) + 0.5) / scale - offset.x, (Double(y) + 0.5) / scale - offset.y)
    }

    var isSolid: Bool { if case .solid = paint { return true } else { return false } }

    func shade(y: Int, x0: Int, into row: UnsafeMutableBufferPointer<UInt32>) {
        switch paint {
        case .solid(let c):
            let p = premultiply(c)
            for i in 0..<row.count { row[i] = p }
        case .linearGradient(let g):
            let d = g.end - g.start
            let len2 = d.x * d.x + d.y * d.y
            let table = gradientTable!
            let last = Double(Self.gradientSteps - 1)
            for i in 0..<row.count {
                let p = point(x0 + i, y)
                let t = len2 > 0 ? ((p.x - g.start.x) * d.x + (p.y - g.start.y) * d.y) / len2 : 0
                row[i] = table[Int((min(1, max(0, t)) * last).rounded())]
            }
        case .image(let ip):
            let pixels = premultipliedImage!
            for i in 0..<row.count {
                let p = point(x0 + i, y)
                let (sx, sy) = ImageMapping.source(p, ip)
                row[i] = ImageMapping.bilinear(pixels, ip.image.width, ip.image.height, sx, sy, wrap: ip.mode == .tile)
            }
        }
    }
}

/// Where a destination point samples its image, per fill mode.
enum ImageMapping {
    static func source(_ p: Point, _ ip: ImagePaint) -> (Double, Double) {
        let iw = Double(ip.image.width), ih = Double(ip.image.height)
        let u = p.x - ip.rect.x, v = p.y - ip.rect.y
        switch ip.mode {
        case .stretch:
            return (u / ip.rect.width * iw, v / ip.rect.height * ih)
        case .tile:
            return (u * ip.scale, v * ip.scale)
        case let .capInsets(top, left, bottom, right):
            let k = ip.scale
            return (slice(u, ip.rect.width, left, right, iw / k) * k, slice(v, ip.rect.height, top, bottom, ih / k) * k)
        }
    }

    /// Nine-slice along one axis: caps keep their size, the middle stretches.
    static func slice(_ d: Double, _ length: Double, _ a: Double, _ b: Double, _ size: Double) -> Double {
        if d < a { return d }
        if d > length - b { return size - (length - d) }
        let middle = length - a - b, source = size - a - b
        return middle > 0 ? a + (d - a) / middle * source : a
    }

    /// Bilinear sample at image coordinates (pixel centres at +0.5), with 8-bit fixed-point weights.
    @inline(__always)
    static func bilinear(_ px: [UInt32], _ w: Int, _ h: Int, _ sx: Double, _ sy: Double, wrap: Bool) -> UInt32 {
        // Weights to the nearest 1/256 (not rounded down), so that a sample meant to fall on a pixel
        // centre, a hair off after floating-point mapping, reads that pixel exactly.
        let fx = Int(((sx - 0.5) * 256).rounded()), fy = Int(((sy - 0.5) * 256).rounded())
        var x0 = fx >> 8, y0 = fy >> 8
        let ax = UInt32(fx & 255), ay = UInt32(fy & 255)
        var x1 = x0 + 1, y1 = y0 + 1
        if wrap {
            x0 = ((x0 % w) + w) % w; x1 = ((x1 % w) + w) % w
            y0 = ((y0 % h) + h) % h; y1 = ((y1 % h) + h) % h
        } else {
            x0 = min(max(x0, 0), w - 1); x1 = min(max(x1, 0), w - 1)
            y0 = min(max(y0, 0), h - 1); y1 = min(max(y1, 0), h - 1)
        }
        let p00 = px[y0 * w + x0], p10 = px[y0 * w + x1], p01 = px[y1 * w + x0], p11 = px[y1 * w + x1]
        var out: UInt32 = 0
        for c in stride(from: 0, to: 32, by: 8) {
            let top = ((p00 >> c) & 0xFF) * (256 - ax) + ((p10 >> c) & 0xFF) * ax
            let bottom = ((p01 >> c) & 0xFF) * (256 - ax) + ((p11 >> c) & 0xFF) * ax
            let v = (top * (256 - ay) + bottom * ay + 32768) >> 16
            out |= min(v, 255) << c
        }
        return out
    }
}
