import Dispatch
import CPNG

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
        /// Everything written, which is the dirty rectangle plus what inner groups blended into
        /// this layer (which does not count as drawn, as it never has): what `LayerPool` clears.
        var touched: (Int, Int, Int, Int)?
        init(pixels: [UInt32], weights: [UInt8]) {
            self.pixels = pixels
            self.weights = weights
        }

        func touch(_ r: (Int, Int, Int, Int)) {
            if let t = touched {
                touched = (min(t.0, r.0), min(t.1, r.1), max(t.2, r.2), max(t.3, r.3))
            } else {
                touched = r
            }
        }
    }

    var layers: [Layer]
    /// The element map (`elements`), for the drawing code; a deferred background is not in it yet.
    var elementMap: [UInt8]
    /// The element id of each pixel: the topmost element drawn with at least a quarter opacity.
    public var elements: [UInt8] {
        settle()
        return elementMap
    }
    var clips: [(Int, Int, Int, Int)]
    var offsets: [Point] = [Point(0, 0)]
    /// Product of the group alphas drawn into, for element decisions.
    var groupAlpha = 1.0
    /// Pixels (x0, y0, x1, y1) that an opaque fill will replace whole before anything reads them
    /// (`hiding`): fills may leave them undrawn.
    var hidden: (Int, Int, Int, Int)?
    /// The premultiplied background not yet written (`deferBackground`): until `settle`, the
    /// bottom layer's pixels and weights and the element map hold nothing meaningful.
    var pendingBackground: UInt32?

    /// A canvas of `background`, weight 0 and element 0 everywhere. With `deferBackground` that is
    /// written on first use, and not where the first drawing is an opaque rectangle fill at full
    /// opacity that replaces pixels whole (a screen's background, which covers most of a frame:
    /// a fifth of the memory a 3x frame writes, issue 17), nor in the hidden pixels (`hiding`).
    /// The canvas is the same either way.
    public init(width: Int, height: Int, scale: Double, background: RGBA8 = RGBA8(0, 0, 0, 0), deferBackground: Bool = false) {
        // No size or scale traps: a canvas is at least one pixel, and a scale that is not a positive
        // number draws at 1 (callers check sizes first; this keeps a bad one from crashing).
        let width = max(1, width), height = max(1, height)
        _ = LargeBuffers.tuned
        self.width = width
        self.height = height
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        let count = width * height
        if deferBackground {
            #if DEBUG
            // Debug builds (the tests) fill what must never be read with a pattern no drawing
            // makes by chance, so that a read before `settle` shows in the output.
            layers = [Layer(pixels: [UInt32](repeating: 0x5AA5_C33C, count: count), weights: [UInt8](repeating: 0xA5, count: count))]
            elementMap = [UInt8](repeating: 0xA5, count: count)
            #else
            layers = [Layer(pixels: [UInt32](unsafeUninitializedCapacity: count) { _, n in n = count },
                            weights: [UInt8](unsafeUninitializedCapacity: count) { _, n in n = count })]
            elementMap = [UInt8](unsafeUninitializedCapacity: count) { _, n in n = count }
            #endif
            pendingBackground = premultiply(background)
        } else {
            layers = [Layer(pixels: [UInt32](repeating: premultiply(background), count: count),
                            weights: [UInt8](repeating: 0, count: count))]
            elementMap = [UInt8](repeating: 0, count: count)
        }
        clips = [(0, 0, width, height)]
    }

    /// Writes a deferred background, in every pixel but those of `leaving` (x0, y0, x1, y1), which
    /// the caller replaces whole next, and the hidden ones. Every entry point that reads or writes
    /// the bottom layer or the element map calls it first.
    func settle(leaving: (Int, Int, Int, Int)? = nil) {
        guard let background = pendingBackground else { return }
        pendingBackground = nil
        // At most two rectangles left per row: the columns to write are what lies outside both.
        let none = (0, 0, 0, 0)
        let first = leaving ?? none, second = hidden ?? none
        let w = width
        Self.borrow(layers[0], &elementMap) { t in
            func write(_ y: Int, _ from: Int, _ to: Int) {
                guard to > from else { return }
                let at = y * w + from
                (t.pixels + at).update(repeating: background, count: to - from)
                (t.weights + at).update(repeating: 0, count: to - from)
                (t.elements + at).update(repeating: 0, count: to - from)
            }
            var y = 0
            while y < height {
                // The rectangles' columns in this row, clamped, the one further left first.
                var a = y >= first.1 && y < first.3 ? (max(0, first.0), min(w, first.2)) : (w, w)
                var b = y >= second.1 && y < second.3 ? (max(0, second.0), min(w, second.2)) : (w, w)
                if a.1 <= a.0 { a = (w, w) }
                if b.1 <= b.0 { b = (w, w) }
                if b.0 < a.0 { swap(&a, &b) }
                write(y, 0, a.0)
                write(y, max(a.1, 0), b.0)
                write(y, max(a.1, b.1), w)
                y += 1
            }
        }
    }

    var clip: (Int, Int, Int, Int) { clips.last! }

    /// A pixel coordinate as an Int without trapping: NaN is 0, and values beyond +-2^50 (far
    /// outside any canvas) are held there. Within that range it is `Int(v)`, so no drawing of a
    /// sane size changes.
    @inline(__always)
    static func pixelInt(_ v: Double) -> Int {
        v >= -0x1p50 ? (v <= 0x1p50 ? Int(v) : 1 << 50) : (v.isNaN ? 0 : -(1 << 50))
    }
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
        clips.append((max(c.0, Self.pixelInt(a.x.rounded())), max(c.1, Self.pixelInt(a.y.rounded())),
                      min(c.2, Self.pixelInt(b.x.rounded())), min(c.3, Self.pixelInt(b.y.rounded()))))
        body()
        clips.removeLast()
    }

    /// Draws `body` with the pixels that `rect` (points) covers whole declared dead: the caller
    /// promises that an opaque fill of one colour at full group opacity will cover every one of
    /// them before anything reads them (a screen under the screen pushed over it, issue 17: the
    /// painter's `coveredBy`). Fills then leave them undrawn, or draw them as they would have:
    /// what a fill draws elsewhere does not change (a rectangle's coverage of a pixel does not
    /// depend on which pixels are drawn; paths and text are skipped only when they lie wholly
    /// inside), so the finished canvas is byte for byte the same. Only the top layer outside
    /// groups honours it: a group's layer is read when it is composited.
    /// A nil `rect` hides nothing.
    public func hiding(_ rect: Rect?, _ body: () -> Void) {
        let saved = hidden
        if let rect, saved == nil, layers.count == 1, groupAlpha == 1 {
            let a = px(Point(rect.x, rect.y)), b = px(Point(rect.maxX, rect.maxY))
            // Whole pixels only, and within the canvas (an opaque fill's pixels of full coverage).
            // (Clamped as Doubles first: a non-finite or huge edge never traps.)
            func pixel(_ v: Double, _ limit: Int) -> Int { v >= 0 ? (v <= Double(limit) ? Int(v) : limit) : 0 }
            let x0 = pixel(a.x.rounded(.up), width), y0 = pixel(a.y.rounded(.up), height)
            let x1 = pixel(b.x.rounded(.down), width), y1 = pixel(b.y.rounded(.down), height)
            if x1 > x0 && y1 > y0 { hidden = (x0, y0, x1, y1) }
        }
        body()
        hidden = saved
    }

    /// Whether the pixel rectangle x0..<x1, y0..<y1 lies wholly in the hidden pixels.
    func isHidden(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Bool {
        guard let d = hidden, layers.count == 1 else { return false }
        return x0 >= d.0 && y0 >= d.1 && x1 <= d.2 && y1 <= d.3
    }

    /// For a fill of the pixel rectangle at (x0, y0), w x h: the rows (relative, lo..<hi) in which
    /// the columns (relative, lo..<hi) are hidden, or nil when nothing is.
    func hiddenSpan(x0: Int, y0: Int, width w: Int, height h: Int) -> (rows: Range<Int>, columns: Range<Int>)? {
        guard let d = hidden, layers.count == 1 else { return nil }
        let r0 = max(0, d.1 - y0), r1 = min(h, d.3 - y0), c0 = max(0, d.0 - x0), c1 = min(w, d.2 - x0)
        guard r1 > r0, c1 > c0 else { return nil }
        return (r0..<r1, c0..<c1)
    }

    /// Draws `body` into a separate layer, then blends that layer at `alpha` (group opacity).
    public func group(alpha: Double, _ body: () -> Void) {
        let a = min(1, max(0, alpha))
        if a <= 0 { return }
        settle()
        layers.append(LayerPool.take(count: width * height))
        let saved = groupAlpha
        groupAlpha *= a
        body()
        groupAlpha = saved
        let layer = layers.removeLast()
        // Back to the pool clean: only what was drawn needs clearing.
        defer { LayerPool.give(layer, width: width) }
        guard let d = layer.dirty else { return }
        let g = UInt8((a * 255).rounded())
        let target = layers[layers.count - 1]
        target.touch(d)
        Self.composite(layer, region: d, into: target, elements: &elementMap, width: width, opacity: g)
    }

    /// Blends `region` of a group's layer into `target` at `opacity` (255ths): `blendSpan` with the
    /// opacity as a uniform coverage. At full opacity (`runCopies`), runs of opaque layer pixels
    /// are copied whole instead, which is what `blendSpan` does to them one by one.
    static func composite(_ layer: Layer, region d: (Int, Int, Int, Int), into target: Layer, elements: inout [UInt8], width canvasWidth: Int,
                          opacity g: UInt8, runCopies: Bool = true) {
        let x0 = d.0, y0 = d.1, count = d.2 - d.0, y1 = d.3
        // The group's opacity is a coverage that is the same everywhere.
        var uniform = [UInt8](repeating: g, count: count)
        layer.pixels.withUnsafeBufferPointer { src in
            layer.weights.withUnsafeBufferPointer { sw in
                uniform.withUnsafeMutableBufferPointer { cov in
                    Self.borrow(target, &elements) { dst in
                        var y = y0
                        while y < y1 {
                            let base = y * canvasWidth + x0
                            if g == 255 && runCopies {
                                let row = src.baseAddress! + base
                                var c = 0
                                while c < count {
                                    // The runs found four pixels at a time (CPNG raster.c, issue 17).
                                    if row[c] >= 0xFF00_0000 {
                                        let j = c + nr_alpha_run(row + c, count - c, 1)
                                        (dst.pixels + base + c).update(from: row + c, count: j - c)
                                        (dst.weights + base + c).update(from: sw.baseAddress! + base + c, count: j - c)
                                        c = j
                                    } else {
                                        let j = c + nr_alpha_run(row + c, count - c, 0)
                                        Self.blendSpan(dst, at: base + c, row + c, coverage: cov.baseAddress!,
                                                       weights: sw.baseAddress! + base + c, count: j - c, fromGroup: true,
                                                       element: 0, claimOpaque: false, claimMinAlpha: 256)
                                        c = j
                                    }
                                }
                            } else {
                                Self.blendSpan(dst, at: base, src.baseAddress! + base, coverage: cov.baseAddress!,
                                               weights: sw.baseAddress! + base, count: count, fromGroup: true,
                                               element: 0, claimOpaque: false, claimMinAlpha: 256)
                            }
                            y += 1
                        }
                    }
                }
            }
        }
    }

    /// Group layers, kept between groups and frames: a layer is the size of the canvas, but a
    /// group draws into a small part of it (a bar), so clearing what it drew is cheaper than a
    /// new layer (15 MB to zero at 3x, issue 17). A layer in the pool is all zeros, no dirty
    /// rectangle. At most `capacity` are kept (60 MB at 3x: two jobs' bar and item groups).
    enum LayerPool {
        nonisolated(unsafe) static var free: [Layer] = []
        static let lock = PoolLock()
        static let capacity = 4

        static func take(count: Int) -> Layer {
            lock.locked { () -> Layer? in
                if let i = free.lastIndex(where: { $0.pixels.count == count }) { return free.remove(at: i) }
                return nil
            } ?? Layer(pixels: [UInt32](repeating: 0, count: count), weights: [UInt8](repeating: 0, count: count))
        }

        static func give(_ layer: Layer, width: Int) {
            if let d = layer.touched {
                let n = d.2 - d.0
                layer.pixels.withUnsafeMutableBufferPointer { p in
                    layer.weights.withUnsafeMutableBufferPointer { w in
                        var y = d.1
                        while y < d.3 {
                            (p.baseAddress! + y * width + d.0).update(repeating: 0, count: n)
                            (w.baseAddress! + y * width + d.0).update(repeating: 0, count: n)
                            y += 1
                        }
                    }
                }
            }
            layer.dirty = nil
            layer.touched = nil
            lock.locked { () -> Void in
                if free.count >= capacity { free.removeFirst() }
                free.append(layer)
            }
        }
    }

    final class PoolLock: @unchecked Sendable {
        private let semaphore = DispatchSemaphore(value: 1)
        func locked<T>(_ body: () -> T) -> T {
            semaphore.wait()
            defer { semaphore.signal() }
            return body()
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

    /// The smallest source alpha below 255 at which a drawing at `groupAlpha` claims a pixel in
    /// the element map (`Target.blend`'s test, `Double(sa) * groupAlpha >= claimAlpha * 255`,
    /// evaluated once per alpha instead of once per pixel); 256 when none does.
    static func claimMinAlpha(groupAlpha: Double) -> UInt32 {
        var sa: UInt32 = 0
        while sa < 255 {
            if Double(sa) * groupAlpha >= Canvas.claimAlpha * 255 { return sa }
            sa += 1
        }
        return 256
    }

    /// `Target.blend` over a run of `count` pixels starting at index `base`, with each source
    /// pixel first scaled by its coverage (255: unchanged) — the one per-pixel loop of fills and
    /// groups. It is written out (plain `while`, raw pointers, no calls, no generic `min`) because
    /// in an unoptimised build every call and every generic operation per pixel costs more than
    /// the arithmetic. A fill (`fromGroup: false`) skips pixels of zero coverage or whose scaled
    /// alpha is zero; a group skips only pixels that are zero before scaling, as it always did.
    ///
    /// It runs in C (CPNG raster.c `nr_blend_span`, issue 17): the same steps, with a fill's runs
    /// of zero coverage (a glyph's or a rounded shape's bounding box) skipped whole.
    /// The tests hold it to the Swift loop it replaced (`blendSpanSwift`, in RasterTests).
    @inline(__always)
    static func blendSpan(_ t: Target, at base: Int, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>,
                          weights sourceWeights: UnsafePointer<UInt8>, count: Int, fromGroup: Bool,
                          element: UInt8, claimOpaque: Bool, claimMinAlpha: UInt32) {
        nr_blend_span(t.pixels + base, t.weights + base, t.elements + base, src, coverage, sourceWeights, count,
                      fromGroup ? 1 : 0, element, claimOpaque ? 1 : 0, claimMinAlpha)
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
        top.touch((x0, y0, x1, y1))
        if let d = top.dirty {
            top.dirty = (min(d.0, x0), min(d.1, y0), max(d.2, x1), max(d.3, y1))
        } else {
            top.dirty = (x0, y0, x1, y1)
        }
    }

    /// Fills a coverage mask with a paint.
    public func fill(_ mask: CoverageMask, _ paint: Paint, element: UInt8) {
        guard mask.width > 0, !isHidden(mask.x, mask.y, mask.x + mask.width, mask.y + mask.height) else { return }
        settle()
        let w = mask.width
        mask.coverage.withUnsafeBufferPointer { m in
            let rows = m.baseAddress!
            fillSpans(x0: mask.x, y0: mask.y, width: w, height: mask.height, paint: paint, element: element) { r, _ in
                rows + r * w
            }
        }
    }

    /// The shared blending loop: shades each row once, then blends it under a coverage.
    /// `coverage(row, scratch)` returns the row's coverage, `width` values, written into the
    /// scratch row it is given or kept elsewhere.
    func fillSpans(x0: Int, y0: Int, width w: Int, height h: Int, paint: Paint, element: UInt8, tables composite: SolidBlend? = nil,
                   coverage: (Int, UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8>) {
        settle()
        markDirty(x0, y0, x0 + w, y0 + h)
        let skip = hiddenSpan(x0: x0, y0: y0, width: w, height: h)
        var row = [UInt32](repeating: 0, count: w)
        var scratch = [UInt8](repeating: 0, count: 2 * w)
        let shader = Shader(paint: paint, canvas: self)
        let ga = groupAlpha
        let claimOpaque = ga >= Canvas.claimAlpha
        let claimMin = Self.claimMinAlpha(groupAlpha: ga)
        let canvasWidth = width
        let solid = shader.isRowInvariant
        // A large fill of one translucent colour (a tint, a dimming layer) blends through tables
        // made by `blendSpan` itself (`SolidBlend`): the same bytes for a fraction of the work.
        var tables: SolidBlend? = composite
        var opaqueSolid = false
        if case .solid(let color) = paint, color.a == 255 { opaqueSolid = true }
        if composite == nil, case .solid(let color) = paint, color.a > 0, color.a < 255, w * h >= SolidBlend.minimumPixels {
            tables = SolidBlend(premultiply(color), element: element, claimMinAlpha: claimMin)
        }
        Self.borrow(layers[layers.count - 1], &elementMap) { target in
            row.withUnsafeMutableBufferPointer { shaded in
                scratch.withUnsafeMutableBufferPointer { sc in
                    // The source weights of a fill are all zero: the second half of the scratch.
                    let zeros = sc.baseAddress! + w
                    var solidDone = false
                    /// Blends columns from..<to of a row: every pixel is its own, so a row drawn in
                    /// parts is the row drawn whole.
                    func blend(_ y: Int, _ cov: UnsafePointer<UInt8>, _ from: Int, _ to: Int) {
                        guard to > from else { return }
                        let at = y * canvasWidth + x0 + from, src = shaded.baseAddress! + from, n = to - from
                        if opaqueSolid {
                            Self.storeOpaque(target, at: at, src, coverage: cov + from, zeros: zeros,
                                             count: n, element: element, claimOpaque: claimOpaque, claimMinAlpha: claimMin)
                        } else if let tables {
                            tables.blend(target, at: at, src, coverage: cov + from, zeros: zeros, count: n)
                        } else {
                            Self.blendSpan(target, at: at, src, coverage: cov + from, weights: zeros,
                                           count: n, fromGroup: false, element: element, claimOpaque: claimOpaque,
                                           claimMinAlpha: claimMin)
                        }
                    }
                    var r = 0
                    while r < h {
                        let y = y0 + r
                        let hiddenRow = skip.map { $0.rows.contains(r) } ?? false
                        if hiddenRow, let skip, skip.columns == 0..<w { r += 1; continue }
                        if !(solid && solidDone) {
                            shader.shade(y: y, x0: x0, into: shaded)
                            solidDone = true
                        }
                        let cov = coverage(r, sc.baseAddress!)
                        if hiddenRow, let skip {
                            blend(y, cov, 0, skip.columns.lowerBound)
                            blend(y, cov, skip.columns.upperBound, w)
                        } else {
                            blend(y, cov, 0, w)
                        }
                        r += 1
                    }
                }
            }
        }
    }

    /// `blendSpan` of a fill of one opaque colour (`src` is that colour throughout): runs of
    /// full coverage are stored as `blendSpan` stores an opaque pixel (the colour, weight 0, the
    /// element when the drawing claims), whole runs at a time; the rest goes through `blendSpan`.
    static func storeOpaque(_ t: Target, at base: Int, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>,
                            zeros: UnsafePointer<UInt8>, count: Int, element: UInt8, claimOpaque: Bool, claimMinAlpha: UInt32) {
        let colour = src[0]
        var c = 0
        while c < count {
            var j = c
            if coverage[c] == 255 {
                j = c + nr_leading_equal(coverage + c, count - c, 255)
                (t.pixels + base + c).update(repeating: colour, count: j - c)
                (t.weights + base + c).update(repeating: 0, count: j - c)
                if claimOpaque { (t.elements + base + c).update(repeating: element, count: j - c) }
            } else {
                while j < count && coverage[j] != 255 { j += 1 }
                blendSpan(t, at: base + c, src + c, coverage: coverage + c, weights: zeros, count: j - c, fromGroup: false,
                          element: element, claimOpaque: claimOpaque, claimMinAlpha: claimMinAlpha)
            }
            c = j
        }
    }

    /// `blendSpan` of a fill of one translucent premultiplied colour, by tables. Source-over of a
    /// fixed colour gives each destination channel from that channel alone, and with a zero
    /// source weight the new weight over an opaque pixel from the old weight alone; the tables
    /// hold `blendSpan`'s own results for every value (computed by running it over 256 made-up
    /// pixels), so they cannot drift from it. With SSE2, `nr_solid_blend` computes runs of those
    /// pixels from the colours with the same integer arithmetic instead (four at a time; the
    /// tables still give the weights), which ReferenceTests holds to `blendSpan`'s bytes. Pixels
    /// the tables do not cover (partial coverage, a weighted pixel that is not opaque) go through
    /// `blendSpan` one by one.
    struct SolidBlend {
        /// Tables cost about 1,500 pixels of blending to make; smaller fills blend directly.
        static let minimumPixels = 4096
        /// The colours, in order: one, or several composed.
        var sources: [UInt32]
        let element: UInt8
        let claimMinAlpha: UInt32
        var claims: Bool
        /// 4 x 256: channel c of the result for destination channel value v, at index c * 256 + v,
        /// already shifted into place.
        var channels = [UInt32](repeating: 0, count: 1024)
        /// The new weight of an opaque destination pixel for each old weight.
        var opaqueWeights = [UInt8](repeating: 0, count: 256)

        init(_ source: UInt32, element: UInt8, claimMinAlpha: UInt32) {
            sources = [source]
            self.element = element
            self.claimMinAlpha = claimMinAlpha
            claims = source >> 24 >= claimMinAlpha
            var pixels = [UInt32](repeating: 0, count: 256)
            var weights = [UInt8](repeating: 0, count: 256)
            var marks = [UInt8](repeating: 0, count: 256)
            let sources = [UInt32](repeating: source, count: 256)
            let full = [UInt8](repeating: 255, count: 256)
            let zero = [UInt8](repeating: 0, count: 256)
            // Every channel at v (a valid premultiplied pixel: no channel above alpha), weight 0.
            for v in 0..<256 { let u = UInt32(v); pixels[v] = u | u << 8 | u << 16 | u << 24 }
            Self.run(&pixels, &weights, &marks, sources, full, zero, claimMinAlpha: claimMinAlpha)
            for v in 0..<256 {
                for c in 0..<4 { channels[c * 256 + v] = pixels[v] & (0xFF << (8 * UInt32(c))) }
            }
            // Opaque grey destinations with each weight.
            for v in 0..<256 { pixels[v] = 0xFF80_8080; weights[v] = UInt8(v) }
            Self.run(&pixels, &weights, &marks, sources, full, zero, claimMinAlpha: claimMinAlpha)
            opaqueWeights = weights
        }

        /// These tables followed by `next`'s: each channel through both, each weight through
        /// both. Valid where these are (a weighted pixel that is opaque stays opaque through a
        /// fill, a pixel without weight keeps none), so one test per pixel still decides.
        mutating func compose(_ next: SolidBlend) {
            for c in 0..<4 {
                let shift = UInt32(8 * c)
                for v in 0..<256 {
                    let once = (channels[c * 256 + v] >> shift) & 0xFF
                    channels[c * 256 + v] = next.channels[c * 256 + Int(once)]
                }
            }
            for v in 0..<256 { opaqueWeights[v] = next.opaqueWeights[Int(opaqueWeights[v])] }
            sources += next.sources
            claims = claims || next.claims
        }

        static func run(_ pixels: inout [UInt32], _ weights: inout [UInt8], _ marks: inout [UInt8], _ sources: [UInt32],
                        _ full: [UInt8], _ zero: [UInt8], claimMinAlpha: UInt32) {
            pixels.withUnsafeMutableBufferPointer { p in
                weights.withUnsafeMutableBufferPointer { w in
                    marks.withUnsafeMutableBufferPointer { e in
                        Canvas.blendSpan(Target(pixels: p.baseAddress!, weights: w.baseAddress!, elements: e.baseAddress!), at: 0,
                                         sources, coverage: full, weights: zero, count: 256, fromGroup: false, element: 1,
                                         claimOpaque: true, claimMinAlpha: claimMinAlpha)
                    }
                }
            }
        }

        func blend(_ t: Target, at base: Int, _ src: UnsafePointer<UInt32>, coverage: UnsafePointer<UInt8>,
                   zeros: UnsafePointer<UInt8>, count: Int) {
            let pixels = t.pixels + base, weights = t.weights + base, elements = t.elements + base
            channels.withUnsafeBufferPointer { cb in
                opaqueWeights.withUnsafeBufferPointer { wb in
                    let table = cb.baseAddress!, opaque = wb.baseAddress!
                    // The last pixel blended by table and its result: runs of one colour reuse it.
                    var lastD: UInt32 = 0, lastOut = table[0] | table[256] | table[512] | table[768]
                    var c = 0
                    while c < count {
                        // In C (CPNG raster.c: eight pixels a step over flat colour, four different
                        // ones at a time with SSE2; issue 17), up to the first pixel the tables do
                        // not cover.
                        c += sources.withUnsafeBufferPointer { sb in
                            nr_solid_blend(pixels + c, weights + c, elements + c, coverage + c, count - c, table, opaque,
                                           sb.baseAddress!, sb.count, claims ? 1 : 0, element, &lastD, &lastOut)
                        }
                        if c >= count { break }
                        for var source in sources {
                            Canvas.blendSpan(t, at: base + c, &source, coverage: coverage + c, weights: zeros, count: 1, fromGroup: false,
                                             element: element, claimOpaque: true, claimMinAlpha: claimMinAlpha)
                        }
                        c += 1
                    }
                }
            }
        }
    }
    /// Fills a path (in points) with a paint.
    public func fill(_ path: Path, _ paint: Paint, element: UInt8) {
        let o = offset
        // A path wholly outside the clip (a pixel to spare for rounding) draws nothing: it is not
        // moved, flattened and rasterized into an empty mask.
        // (A path whose first drawing has no move before it starts at the pixel origin instead,
        // which its points do not bound: it is not culled.)
        if path.startsWithMove {
            guard let b = path.controlBounds else { return }
            let c = clip
            guard (b.maxX + o.x) * scale > Double(c.0) - 1, (b.minX + o.x) * scale < Double(c.2) + 1,
                  (b.maxY + o.y) * scale > Double(c.1) - 1, (b.minY + o.y) * scale < Double(c.3) + 1 else { return }
        }
        let polys = path.transformed(scale: scale, dx: o.x * scale, dy: o.y * scale).flattened(tolerance: 0.1)
        // The mask's bounds once: for the hidden pixels' test and for the rasterizer.
        guard let b = CoverageMask.bounds(polys, clip: clip), !isHidden(b.0, b.1, b.2, b.3) else { return }
        fill(CoverageMask.rasterize(polys, within: b), paint, element: element)
    }

    /// The coverage (0...255) of pixel `i` by the interval lo..<hi along one axis:
    /// `min(hi, i + 1) - max(lo, i)`, clamped to 0...1, in 255ths (`Swift.min`/`max` written out).
    static func overlap(_ lo: Double, _ hi: Double, _ i: Int) -> UInt32 {
        let a = Double(i + 1), b = Double(i)
        let v = (a < hi ? a : hi) - (b >= lo ? b : lo)
        let atMost1 = 1 < v ? 1 : v
        return UInt32(roundedHalfAway((atMost1 >= 0 ? atMost1 : 0) * 255))
    }

    /// `overlap` of pixels `start`, `start + 1`, ... for every entry of `q`. A pixel wholly
    /// inside (i >= lo and i + 1 <= hi) overlaps by exactly 1, 255, and those pixels are one run
    /// between the edges: only the edges are worked out (the per-pixel arithmetic was a
    /// twentieth of a 1x check; issue 17).
    static func overlaps(_ lo: Double, _ hi: Double, from start: Int, into q: UnsafeMutableBufferPointer<UInt32>) {
        let n = q.count
        @inline(__always) func inside(_ i: Int) -> Bool { Double(start + i) >= lo && Double(start + i + 1) <= hi }
        var i = 0
        while i < n && !inside(i) { q[i] = overlap(lo, hi, start + i); i += 1 }
        var j = n
        while j > i && !inside(j - 1) { j -= 1; q[j] = overlap(lo, hi, start + j) }
        if j > i { UnsafeMutableBufferPointer(rebasing: q[i..<j]).update(repeating: 255) }
    }

    /// Fills a rectangle (in points), with exact coverage at fractional edges: each pixel's
    /// coverage is its horizontal overlap times its vertical overlap.
    public func fill(_ rect: Rect, _ paint: Paint, element: UInt8) {
        fill(rect, paint, element: element, tables: nil)
    }

    /// Fills a rectangle with translucent colours one after the other, as that many `fill`s
    /// would, in one pass where the colours' tables compose (a bar's material tint and its
    /// colour: issue 17).
    public func fill(_ rect: Rect, solids: [RGBA8], element: UInt8) {
        let a = px(Point(rect.x, rect.y)), b = px(Point(rect.maxX, rect.maxY))
        let pixels = (b.x - a.x) * (b.y - a.y)
        guard solids.count >= 2, solids.allSatisfy({ $0.a > 0 && $0.a < 255 }), pixels >= Double(SolidBlend.minimumPixels) else {
            for c in solids { fill(rect, .solid(c), element: element) }
            return
        }
        let claimMin = Self.claimMinAlpha(groupAlpha: groupAlpha)
        var tables = SolidBlend(premultiply(solids[0]), element: element, claimMinAlpha: claimMin)
        for c in solids.dropFirst() { tables.compose(SolidBlend(premultiply(c), element: element, claimMinAlpha: claimMin)) }
        fill(rect, .solid(solids[0]), element: element, tables: tables)
    }

    func fill(_ rect: Rect, _ paint: Paint, element: UInt8, tables composite: SolidBlend?) {
        let a = px(Point(rect.x, rect.y)), b = px(Point(rect.maxX, rect.maxY))
        let c = clip
        let x0 = max(c.0, Self.pixelInt(a.x.rounded(.down))), y0 = max(c.1, Self.pixelInt(a.y.rounded(.down)))
        let x1 = min(c.2, Self.pixelInt(b.x.rounded(.up))), y1 = min(c.3, Self.pixelInt(b.y.rounded(.up)))
        guard x1 > x0, y1 > y0, !isHidden(x0, y0, x1, y1) else { return }
        let w = x1 - x0, h = y1 - y0
        var cols = [UInt32](repeating: 0, count: w)
        var rows = [UInt32](repeating: 0, count: h)
        cols.withUnsafeMutableBufferPointer { Self.overlaps(a.x, b.x, from: x0, into: $0) }
        rows.withUnsafeMutableBufferPointer { Self.overlaps(a.y, b.y, from: y0, into: $0) }
        // Opaque solid colour: fully covered pixels are simply stored; only the edges blend.
        if case .solid(let color) = paint, color.a == 255 {
            let p = premultiply(color)
            let ga = groupAlpha
            let claim = ga >= Canvas.claimAlpha
            markDirty(x0, y0, x1, y1)
            let canvasWidth = width
            // Columns ic0..<ic1 are fully covered (the interior of the rectangle). In a fully
            // covered row they are simply the colour, weight 0 and, when it claims, the element:
            // stored whole.
            var ic0 = 0
            while ic0 < w && cols[ic0] != 255 { ic0 += 1 }
            var ic1 = ic0
            while ic1 < w && cols[ic1] == 255 { ic1 += 1 }
            if pendingBackground != nil {
                // The pixels this fill replaces whole (pixel, weight and, at full opacity, element)
                // need no background first: its fully covered rows and columns.
                var r0 = 0
                while r0 < h && rows[r0] != 255 { r0 += 1 }
                var r1 = r0
                while r1 < h && rows[r1] == 255 { r1 += 1 }
                settle(leaving: layers.count == 1 && claim ? (x0 + ic0, y0 + r0, x0 + ic1, y0 + r1) : nil)
            }
            Self.borrow(layers[layers.count - 1], &elementMap) { t in
                cols.withUnsafeBufferPointer { cb in
                    rows.withUnsafeBufferPointer { rb in
                        let cp = cb.baseAddress!, rp = rb.baseAddress!
                        let skip = hiddenSpan(x0: x0, y0: y0, width: w, height: h)
                        /// Columns from..<end of row r: each pixel depends on its own column and
                        /// row alone, so a row drawn in parts is the row drawn whole.
                        func span(_ r: Int, _ from: Int, _ end: Int) {
                            let ry = rp[r]
                            guard ry != 0, end > from else { return }
                            let rowStart = (y0 + r) * canvasWidth + x0
                            let lo = max(ic0, from), hi = min(ic1, end)
                            let copies = ry == 255 && hi > lo
                            if copies {
                                let to = rowStart + lo
                                (t.pixels + to).update(repeating: p, count: hi - lo)
                                (t.weights + to).update(repeating: 0, count: hi - lo)
                                if claim { (t.elements + to).update(repeating: element, count: hi - lo) }
                            }
                            var col = from
                            while col < end {
                                if copies && col == lo { col = hi; continue }
                                let cx = cp[col]
                                if cx == 0 { col += 1; continue }
                                let i = rowStart + col
                                let cov = cx == 255 ? ry : (ry == 255 ? cx : div255(cx * ry))
                                if cov == 255 {
                                    t.pixels[i] = p
                                    t.weights[i] = 0
                                    if claim { t.elements[i] = element }
                                } else {
                                    let s = div255((p & 0xFF) * cov) | div255(((p >> 8) & 0xFF) * cov) << 8
                                        | div255(((p >> 16) & 0xFF) * cov) << 16 | div255((p >> 24) * cov) << 24
                                    t.blend(i, s, weight: 0, element: element, groupAlpha: ga)
                                }
                                col += 1
                            }
                        }
                        var r = 0
                        while r < h {
                            if let skip, skip.rows.contains(r) {
                                span(r, 0, skip.columns.lowerBound)
                                span(r, skip.columns.upperBound, w)
                            } else {
                                span(r, 0, w)
                            }
                            r += 1
                        }
                    }
                }
            }
            return
        }
        // The coverage of a fully covered row is the columns' own: made once, not per row.
        let fullRow = cols.map { UInt8($0) }
        cols.withUnsafeBufferPointer { cb in
            rows.withUnsafeBufferPointer { rb in
              fullRow.withUnsafeBufferPointer { fb in
                let cp = cb.baseAddress!, rp = rb.baseAddress!
                fillSpans(x0: x0, y0: y0, width: w, height: h, paint: paint, element: element, tables: composite) { r, scratch in
                    let ry = rp[r]
                    if ry == 255 { return fb.baseAddress! }
                    var col = 0
                    while col < w {
                        let cx = cp[col]
                        scratch[col] = UInt8(cx == 255 ? ry : (ry == 255 ? cx : div255(cx * ry)))
                        col += 1
                    }
                    return UnsafePointer(scratch)
                }
              }
            }
        }
    }

    /// Strokes a polyline (in points) with round joins and caps.
    public func stroke(_ points: [Point], width: Double, _ paint: Paint, element: UInt8) {
        fill(Path.stroke(points, width: width), paint, element: element)
    }

    /// A line one physical pixel tall whose bottom edge is at `bottom` (points), from x0 to x1.
    public func hairline(bottom: Double, from x0: Double, to x1: Double, color: RGBA8, element: UInt8) {
        let yPx = Self.pixelInt(((bottom + offset.y) * scale).rounded()) - 1
        let a = Self.pixelInt(((x0 + offset.x) * scale).rounded()), b = Self.pixelInt(((x1 + offset.x) * scale).rounded())
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
        let x0 = max(c.0, Self.pixelInt(a.x.rounded())), y0 = max(c.1, Self.pixelInt(a.y.rounded()))
        let x1 = min(c.2, Self.pixelInt(b.x.rounded())), y1 = min(c.3, Self.pixelInt(b.y.rounded()))
        guard x1 > x0, y1 > y0 else { return }
        settle()
        let source = layers.count >= 2 ? layers[layers.count - 2].pixels : layers[layers.count - 1].pixels
        let sigmaPx = sigma * scale
        // A backdrop reads only what lies behind it, edges extended: content below a bar's bottom
        // edge never tints the bar (NAVIGATION-MODEL.md, "Blur").
        let rw = x1 - x0
        let matrix = Saturation.matrix(saturation)
        let packed = Saturation.packed(matrix)
        let level = nr_simd_level()
        let plane: (pixels: [UInt32], offset: Int, stride: Int)
        if sigmaPx > 0 {
            plane = Blur.blurredPlane(source, width: width, height: height, region: (x0, y0, x1, y1), sigma: sigmaPx, readsOutside: false)
        } else {
            plane = (Blur.gaussian(source, width: width, height: height, region: (x0, y0, x1, y1), sigma: 0), 0, rw)
        }
        markDirty(x0, y0, x1, y1)
        let claim = groupAlpha >= Canvas.claimAlpha
        let canvasWidth = width
        var line = [UInt32](repeating: 0, count: rw)
        Self.borrow(layers[layers.count - 1], &elementMap) { t in
            plane.pixels.withUnsafeBufferPointer { sb in
                line.withUnsafeMutableBufferPointer { lb in
                    var y = y0
                    while y < y1 {
                        let i = y * canvasWidth + x0
                        // As `Blur.gaussian` then `Saturation.apply` (which leaves pixels as they
                        // are at 1): clamped to alpha, then saturated.
                        let row = UnsafePointer(sb.baseAddress! + plane.offset + (y - y0) * plane.stride)
                        // Clamped and saturated in one pass where C can (CPNG raster.c, issue 17);
                        // the rest clamped into `line`, then saturated.
                        var done = 0
                        if sigmaPx > 0, saturation != 1, let packed {
                            done = packed.withUnsafeBufferPointer { nr_saturate_level(row, t.pixels + i, rw, $0.baseAddress!, 1, level) }
                        }
                        var rest = row + done
                        if sigmaPx > 0 {
                            Blur.clampToAlpha(rest, into: lb.baseAddress!, count: rw - done)
                            rest = UnsafePointer(lb.baseAddress!)
                        }
                        if saturation == 1 {
                            (t.pixels + i).update(from: rest, count: rw)
                        } else {
                            Saturation.apply(rest, into: t.pixels + i + done, count: rw - done, matrix: matrix)
                        }
                        (t.weights + i).update(repeating: 255, count: rw)
                        if claim { (t.elements + i).update(repeating: element, count: rw) }
                        y += 1
                    }
                }
            }
        }
    }

    // MARK: Output

    /// The pixels as a straight-alpha image.
    public func makeImage() -> Image {
        precondition(layers.count == 1, "a group is still open")
        settle()
        let count = width * height
        // Every byte is written below, so the array starts uninitialised (12 MB not zeroed at 3x).
        var bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { _, n in n = count * 4 }
        layers[0].pixels.withUnsafeBufferPointer { sb in
            bytes.withUnsafeMutableBufferPointer { out in
                // In C (CPNG raster.c): one pass, 16 pixels a step, where a scan for opaque runs
                // and a copy of each took 15 % of a 3x frame (issue 17).
                nr_unpremultiply(sb.baseAddress!, out.baseAddress!, count)
            }
        }
        return Image(width: width, height: height, pixels: bytes)
    }

    /// Translucency weights of the finished canvas, one per pixel.
    public var translucencyMap: [UInt8] {
        precondition(layers.count == 1, "a group is still open")
        settle()
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
    /// An image fill's per-column sample positions, made by the first row shaded.
    final class Columns {
        var x0 = 0
        /// Per column the two source columns and the second's weight in 256ths, three entries a
        /// column (`ImageMapping.axis`), as `nr_bilinear_row` reads them.
        var axes: [Int] = []
    }
    let columns = Columns()
    static let gradientSteps = 4096

    init(paint: Paint, canvas: Canvas) {
        self.paint = paint
        scale = canvas.scale
        offset = canvas.offset
        if case .linearGradient(let g) = paint {
            gradientTable = GradientTables.table(g)
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

    /// Whether every row is shaded the same: a solid colour, or a gradient along x only (its t
    /// does not involve y: `(py - sy) * 0` adds a zero, which changes no sum).
    var isRowInvariant: Bool {
        switch paint {
        case .solid: return true
        case .linearGradient(let g): return g.end.y - g.start.y == 0
        case .image: return false
        }
    }

    func shade(y: Int, x0: Int, into row: UnsafeMutableBufferPointer<UInt32>) {
        let out = row.baseAddress!, n = row.count
        switch paint {
        case .solid(let c):
            let p = premultiply(c)
            var i = 0
            while i < n { out[i] = p; i += 1 }
        case .linearGradient(let g):
            let d = g.end - g.start
            let len2 = d.x * d.x + d.y * d.y
            let last = Double(Self.gradientSteps - 1)
            let sx = g.start.x, sy = g.start.y, dx = d.x, dy = d.y
            let py = (Double(y) + 0.5) / scale - offset.y
            gradientTable!.withUnsafeBufferPointer { tb in
                let table = tb.baseAddress!
                var i = 0
                if dx == 0 {
                    // Along y only: t does not involve x (`(px - sx) * 0` is a zero), one value a row.
                    let px = (Double(x0) + 0.5) / scale - offset.x
                    let t = len2 > 0 ? ((px - sx) * dx + (py - sy) * dy) / len2 : 0
                    let atLeast0 = t >= 0 ? t : 0
                    let clamped = atLeast0 < 1 ? atLeast0 : 1
                    let v = table[Int(roundedHalfAway(clamped * last))]
                    while i < n { out[i] = v; i += 1 }
                    return
                }
                while i < n {
                    let px = (Double(x0 + i) + 0.5) / scale - offset.x
                    let t = len2 > 0 ? ((px - sx) * dx + (py - sy) * dy) / len2 : 0
                    // min(1, max(0, t)), as Swift.min and Swift.max evaluate them.
                    let atLeast0 = t >= 0 ? t : 0
                    let clamped = atLeast0 < 1 ? atLeast0 : 1
                    out[i] = table[Int(roundedHalfAway(clamped * last))]
                    i += 1
                }
            }
        case .image(let ip):
            let w = ip.image.width, h = ip.image.height, wrap = ip.mode == .tile
            if n == 0 { return }
            // Every mode maps x and y separately (`ImageMapping.source` reads only p.x for the
            // first coordinate and p.y for the second), so the columns' samples are worked out
            // once per fill and each row's once per row.
            if columns.x0 != x0 || columns.axes.count != 3 * n {
                columns.x0 = x0
                var axes = [Int](repeating: 0, count: 3 * n)
                for i in 0..<n {
                    let (i0, i1, weight) = ImageMapping.axis(ImageMapping.source(point(x0 + i, y), ip).0, w, wrap: wrap)
                    axes[3 * i] = i0; axes[3 * i + 1] = i1; axes[3 * i + 2] = Int(weight)
                }
                columns.axes = axes
            }
            let ys = ImageMapping.axis(ImageMapping.source(point(x0, y), ip).1, h, wrap: wrap)
            // In C (CPNG raster.c `nr_bilinear_row`, issue 17): `ImageMapping.sample`'s integers,
            // a pixel's four channels at once with SSE2.
            premultipliedImage!.withUnsafeBufferPointer { pb in
                columns.axes.withUnsafeBufferPointer { cb in
                    let pixels = pb.baseAddress!
                    nr_bilinear_row(pixels + ys.0 * w, pixels + ys.1 * w, cb.baseAddress!, ys.2, out, n)
                }
            }
        }
    }
}

/// Gradient colour tables by stops, shared across fills and frames: a table is 4,096 colours,
/// more work than a bar-sized fill at 1x (issue 17). At most `capacity` are kept.
enum GradientTables {
    struct Key: Hashable {
        let offsets: [UInt64]
        let colors: [UInt32]
    }
    nonisolated(unsafe) static var tables: [Key: [UInt32]] = [:]
    static let lock = Canvas.PoolLock()
    static let capacity = 256

    static func table(_ g: LinearGradient) -> [UInt32] {
        let key = Key(offsets: g.stops.map { $0.offset.bitPattern },
                      colors: g.stops.map { UInt32($0.color.r) | UInt32($0.color.g) << 8 | UInt32($0.color.b) << 16 | UInt32($0.color.a) << 24 })
        if let t = lock.locked({ tables[key] }) { return t }
        let t = (0..<Shader.gradientSteps).map { g.color(at: Double($0) / Double(Shader.gradientSteps - 1)) }
        lock.locked { () -> Void in
            if tables.count >= capacity { tables.removeAll() }
            tables[key] = t
        }
        return t
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

    /// One axis of a bilinear sample at image coordinate `s` (pixel centres at +0.5): the two
    /// pixel indices (wrapped or clamped to `size`) and the weight of the second, in 256ths.
    @inline(__always)
    static func axis(_ s: Double, _ size: Int, wrap: Bool) -> (Int, Int, UInt32) {
        // Weights to the nearest 1/256 (not rounded down), so that a sample meant to fall on a pixel
        // centre, a hair off after floating-point mapping, reads that pixel exactly.
        let f = Int(roundedHalfAway((s - 0.5) * 256))
        var i0 = f >> 8
        var i1 = i0 + 1
        if wrap {
            i0 = ((i0 % size) + size) % size; i1 = ((i1 % size) + size) % size
        } else {
            i0 = i0 < 0 ? 0 : (i0 > size - 1 ? size - 1 : i0); i1 = i1 < 0 ? 0 : (i1 > size - 1 ? size - 1 : i1)
        }
        return (i0, i1, UInt32(f & 255))
    }

    /// Bilinear sample with 8-bit fixed-point weights, from the two axes' indices and weights.
    @inline(__always)
    static func sample(_ px: UnsafePointer<UInt32>, _ w: Int, _ xs: (Int, Int, UInt32), _ ys: (Int, Int, UInt32)) -> UInt32 {
        let (x0, x1, ax) = xs, (y0, y1, ay) = ys
        let p00 = px[y0 * w + x0], p10 = px[y0 * w + x1], p01 = px[y1 * w + x0], p11 = px[y1 * w + x1]
        var out: UInt32 = 0
        var c: UInt32 = 0
        while c < 32 {
            let top = ((p00 >> c) & 0xFF) * (256 - ax) + ((p10 >> c) & 0xFF) * ax
            let bottom = ((p01 >> c) & 0xFF) * (256 - ax) + ((p11 >> c) & 0xFF) * ax
            let v = (top * (256 - ay) + bottom * ay + 32768) >> 16
            out |= (v < 255 ? v : 255) << c
            c += 8
        }
        return out
    }
}
