import Foundation
import Raster
import Scenario

/// One rendered frame: the pixels with their translucency-weight and element maps.
public struct Frame: Sendable {
    public var image: Image
    /// Per pixel: the fraction (0...255) of its colour that is blurred backdrop.
    public var translucency: [UInt8]
    /// Per pixel: the `Element` raw value on top (0: nothing).
    public var elements: [UInt8]
    public var time: Double

    /// Names of element ids, for reports.
    public static var elementNames: [UInt8: String] {
        Dictionary(uniqueKeysWithValues: Element.allCases.map { ($0.rawValue, $0.displayName) })
    }
}

/// Images referenced by scenarios, read once (relative to the Fixtures folder) and shared.
public final class AssetStore: @unchecked Sendable {
    public let root: String
    private var cache: [String: Image] = [:]
    private var opaque: [String: Bool] = [:]
    private let lock = NSLock()

    public init(root: String) { self.root = root }

    public func image(_ path: String) throws -> Image {
        lock.lock()
        defer { lock.unlock() }
        if let i = cache[path] { return i }
        let image = try PNG.read(path: (root as NSString).appendingPathComponent(path)).image
        cache[path] = image
        return image
    }

    /// Whether every pixel of the image at `path` has alpha 255, scanned once per file (a
    /// cross-dissolve asks on every frame).
    public func isOpaque(_ path: String) throws -> Bool {
        lock.lock()
        if let known = opaque[path] { lock.unlock(); return known }
        lock.unlock()
        let answer = try image(path).isOpaque
        lock.lock()
        opaque[path] = answer
        lock.unlock()
        return answer
    }

    /// The image to draw on a canvas of `canvasScale` pixels per point, with its own scale
    /// (image pixels per point, from the file name as UIKit reads it). An image with more pixels
    /// per point than the canvas is first reduced by the whole factor between them, so that it
    /// is sampled at about one pixel per canvas pixel: a @3x asset drawn at 1x does not alias.
    /// `declaredScale`, the scenario's explicit `scale` for the file, wins over its name.
    public func image(_ path: String, canvasScale: Double, declaredScale: Double? = nil) throws -> (image: Image, scale: Double) {
        let scale = declaredScale ?? ImageScale.fromFileName(path)
        let factor = Int((scale / max(canvasScale, 1e-9)).rounded(.down))
        guard factor >= 2 else { return (try image(path), scale) }
        let key = "\(path)#\(factor)"
        lock.lock()
        if let i = cache[key] { lock.unlock(); return (i, scale / Double(factor)) }
        lock.unlock()
        let reduced = try image(path).reduced(by: factor)
        lock.lock()
        cache[key] = reduced
        lock.unlock()
        return (reduced, scale / Double(factor))
    }
}

/// Text widths from the real fonts, so that layout matches what is drawn.
public struct FontMetrics: TextMetrics {
    public let fonts: FontSet
    public init(fonts: FontSet) { self.fonts = fonts }
    public func width(of text: String, size: Double, weight: FontWeight) -> Double {
        fonts.typeface(weight).width(of: text, size: size)
    }
}

extension FontSet {
    func typeface(_ w: FontWeight) -> Typeface {
        switch w {
        case .regular: return regular
        case .semibold: return semibold
        case .bold: return bold
        }
    }
}

/// Turns a `NavigationState` into a `Frame`, drawing in the order of NAVIGATION-MODEL.md: each
/// screen's content, its own bar (split transitions, standalone bars), dimming and the edge
/// shadow; then the shared bar, the status bar and the bar items.
public struct Painter: Sendable {
    public let fonts: FontSet
    public let assets: AssetStore
    /// Whether what will be covered whole is left undrawn: the content of a screen under another
    /// where that screen's background will cover it (`Canvas.hiding`), and the canvas's white
    /// where the first screen's background does (`Canvas(deferBackground:)`). The frames are the
    /// same either way; tests draw both.
    public var culls = true

    public init(fonts: FontSet, assets: AssetStore) {
        self.fonts = fonts
        self.assets = assets
    }

    /// Materials: blur σ (points), saturation, tint layers (NAVIGATION-MODEL.md, from Apple's
    /// WWDC 2013 UIImage+ImageEffects.m and the iOS 10 _UIVisualEffectFilterView values).
    static func material(_ m: BarMaterial) -> (sigma: Double, saturation: Double, tints: [RGBA8]) {
        switch m {
        case .light: return (30, 1.8, [RGBA8(255, 255, 255, 77)])              // white @ 0.3
        case .extraLight: return (20, 1.8, [RGBA8(247, 247, 247, 209)])        // white 0.97 @ 0.82
        case .dark: return (20, 1.8, [RGBA8(28, 28, 28, 186)])                 // white 0.11 @ 0.73
        case .legacy: return (20, 1.8, [RGBA8(247, 247, 247, 204)])            // grey 0.97 @ 0.8
        }
    }

    /// On a translucent bar the system draws an opaque tint colour at 0.85 over the material,
    /// so the backdrop still shows through (seed 001, iOS 10 `_UIBarBackground`: grey 0.97 @ 0.8,
    /// then the tint @ 0.85); the legacy material draws any tint at 0.85. Only `translucent:
    /// false` gives the exact tint colour.
    static let systemTintAlpha: UInt8 = 217

    static let hairline = RGBA8(0, 0, 0, 77)                                  // HBDNavigationBar.m
    static let separator = RGBA8(198, 198, 200)                               // iOS table separators
    static let tilePalette: [RGBA8] = [RGBA8(255, 59, 48), RGBA8(255, 149, 0), RGBA8(255, 204, 0), RGBA8(52, 199, 89),
                                       RGBA8(90, 200, 250), RGBA8(0, 122, 255), RGBA8(88, 86, 214), RGBA8(255, 45, 85)]

    /// The height in points a frame keeps for `capture: bar`: status bar, bar, the large title
    /// extension when any screen has one (stretched by the deepest pull-down, `pullDown`, so the
    /// title never leaves the frame), and 16 pt of content.
    public static func barCaptureHeight(_ scenario: Scenario, layout: DeviceLayout, pullDown: Double = 0) -> Double {
        let large = layout.showsLargeTitles && scenario.screens.contains { $0.largeTitle } ? 52.0 + max(0, pullDown) : 0
        return min(layout.height, layout.statusBar + layout.barHeight + large + 16)
    }

    public func render(_ state: NavigationState, scale: Double, capture: Scenario.Capture, captureHeight: Double? = nil) throws -> Frame {
        let w = state.layout.width
        let fullHeight = state.layout.height
        let keep = capture == .bar ? (captureHeight ?? fullHeight) : fullHeight
        // A bar's blur reads only what lies behind the bar, so nothing below the kept part matters.
        let drawn = keep
        let pw = Int((w * scale).rounded()), ph = Int((drawn * scale).rounded())
        let canvas = Canvas(width: pw, height: ph, scale: scale, background: RGBA8(255, 255, 255), deferBackground: culls)

        for (index, screen) in state.screens.enumerated() {
            let next = index + 1 < state.screens.count ? state.screens[index + 1] : nil
            try drawScreen(screen, canvas: canvas, layout: state.layout, scales: state.imageScales, coveredBy: next)
            if index == state.screens.count - 1, screen.edgeShadow > 0 {
                // A 9 pt shadow outside the incoming screen's leading edge, 0.21 at the edge at full
                // strength: HBD's recordings measure 0.19 a fraction of a point out from it
                // (shadow.gif 0.17 at 92 % coverage, hidden.gif 0.16 at 84 %), where 0.12 gave 0.11.
                let a = UInt8((0.21 * screen.edgeShadow * 255).rounded())
                canvas.fill(Rect(x: screen.x - 9, y: 0, width: 9, height: drawn),
                            .linearGradient(LinearGradient(start: Point(screen.x - 9, 0), end: Point(screen.x, 0),
                                                           colors: [RGBA8(0, 0, 0, 0), RGBA8(0, 0, 0, a)])),
                            element: Element.edgeShadow.rawValue)
            }
        }
        if var below = state.barBelow {
            // A cross-dissolve (`barTransition: crossFade`): the timeline fades the lower bar by
            // 1 - p. Under a bar that hides whatever it is drawn over (an opaque colour, image or
            // gradient, no blur), the lower one stays whole as the upper comes in at alpha u:
            // 1 - p of it over the content and p of the upper, with no dip where both half show.
            if let bar = state.bar, try covers(bar) {
                below.alpha = bar.alpha < 1 - 1e-9 ? min(1, below.alpha / (1 - bar.alpha)) : 0
            }
            try drawBar(below, canvas: canvas, scales: state.imageScales)
        }
        if let bar = state.bar { try drawBar(bar, canvas: canvas, scales: state.imageScales) }
        try drawItems(state.items, canvas: canvas, scales: state.imageScales)
        // The status bar is its own window above the app: a bar sliding up under it (setBar
        // style: slide) never covers the clock.
        if state.statusBar.visible { drawStatusBar(state.statusBar, width: w, canvas: canvas) }

        var image = canvas.makeImage()
        var translucency = canvas.translucencyMap
        var elements = canvas.elements
        let kept = Int((keep * scale).rounded())
        if kept < ph {
            image = Image(width: pw, height: kept, pixels: Array(image.pixels[0..<(pw * kept * 4)]))
            translucency = Array(translucency[0..<(pw * kept)])
            elements = Array(elements[0..<(pw * kept)])
        }
        return Frame(image: image, translucency: translucency, elements: elements, time: state.time)
    }

    // MARK: Screens

    /// `coveredBy`: the screen drawn next, whose opaque background replaces every pixel it
    /// covers whole before anything reads it; the dimming skips those pixels (issue 17: a
    /// full-screen translucent fill, mostly hidden under the incoming screen), and its content
    /// is not drawn there but under its own bar, whose blur reads it (`Canvas.hiding`).
    func drawScreen(_ s: ScreenLayer, canvas: Canvas, layout: DeviceLayout, scales: [String: Double],
                    coveredBy next: ScreenLayer? = nil) throws {
        let w = layout.width, h = layout.height
        // Drawing runs in non-throwing closures; an asset that cannot be read is kept and thrown
        // after, as for bar images: a blank header must never pass for a rendered one.
        var failure: Error?
        // The pixels the next screen's opaque background will replace whole are dead while this
        // screen's content is drawn, but for what its own bar's material blurs (the backdrop reads
        // the content under the bar): the rows below the bar. Nothing else reads them before that
        // fill: the bar, its items and its tint blend pixel by pixel, and the dimming skips them
        // (below). Identical frames for less work (issue 17).
        // What the next screen's background fill covers (opaque): its own frame.
        let covered: Rect? = next.flatMap { $0.content.color.a == 255 ? Rect(x: $0.x, y: 0, width: w, height: h) : nil }
        let dead: Rect? = {
            guard let covered, culls else { return nil }
            let top = s.bar.flatMap { $0.background.material == nil ? nil : $0.y + $0.height } ?? 0
            return top < h ? Rect(x: covered.x, y: top, width: w, height: h - top) : nil
        }()
        canvas.hiding(dead) {
        canvas.translated(s.x, 0) {
            canvas.clipped(to: Rect(x: 0, y: 0, width: w, height: h)) {
                let content = Element.content.rawValue
                // The screen's view is opaque in its background colour over its whole frame, so a
                // strip its bar leaves uncovered (a standalone bar that is not top-attached) shows
                // the screen's own background, never the screen beneath.
                canvas.fill(Rect(x: 0, y: 0, width: w, height: h), .solid(rgba(s.content.color)), element: content)
                let origin = s.contentTop - s.contentOffset
                canvas.clipped(to: Rect(x: 0, y: s.contentTop, width: w, height: h - s.contentTop)) {
                    if let header = s.content.header {
                        // Under an opaque large-title bar the header is glued to the bar's bottom as
                        // the rows are (`ScreenParts.contentInset`); elsewhere it starts at the origin.
                        let natural = origin + s.contentInset - header.height
                        // A parallax header scrolled up moves by `parallax` of the scroll: it lags
                        // the content by the rest, and the content below it slides over it (filled
                        // in the content's colour below). Never down off the content's top: under
                        // an opaque large-title bar whose extension collapses, the header stays
                        // glued to the bar's bottom (a review, 2026-11-29: it dropped below it,
                        // leaving a band of the content's colour, and `stretch` zoomed it).
                        var top = natural
                        if header.parallax < 1 && s.contentOffset > 0 {
                            top = min(natural + s.contentOffset * (1 - header.parallax), max(natural, s.contentTop))
                        }
                        let lag = top - natural
                        var rect = Rect(x: 0, y: top, width: w, height: header.height)
                        // A stretchy header pulled down keeps its top at the content's and grows by
                        // the pull, its picture scaled up about its centre to fill (HBD's
                        // YPGradientDemoViewController `headerImageFrame`: the height grows by the
                        // pull, an aspect-fill image view that clips). (Pulled down: its place
                        // without any lag below the content's top.)
                        var picture = rect
                        if header.stretch && natural > s.contentTop {
                            let origin = natural
                            rect = Rect(x: 0, y: s.contentTop, width: w, height: header.height + origin - s.contentTop)
                            let k = rect.height / header.height
                            picture = Rect(x: (w - w * k) / 2, y: rect.y, width: w * k, height: rect.height)
                        }
                        if let g = header.gradient {
                            canvas.fill(rect, .linearGradient(gradient(g, in: picture)), element: content)
                        } else if let path = header.image {
                            do {
                                let a = try assets.image(path, canvasScale: canvas.scale, declaredScale: scales[path])
                                canvas.fill(rect, .image(ImagePaint(image: a.image, rect: picture, mode: .stretch, scale: a.scale)), element: content)
                            } catch { failure = error }
                        }
                        if lag > 0 {
                            // The part of the header below the content's top, under the content.
                            canvas.fill(Rect(x: 0, y: natural + header.height, width: w, height: lag), .solid(rgba(s.content.color)), element: content)
                        }
                    }
                    var y = origin + s.contentInset
                    if s.content.tiles > 0 {
                        // A grid of coloured tiles, four a row: makes the blur under a bar visible.
                        let gap = 8.0, size = (w - 5 * gap) / 4
                        for i in 0..<s.content.tiles {
                            let rect = Rect(x: gap + Double(i % 4) * (size + gap), y: y + gap + Double(i / 4) * (size + gap), width: size, height: size)
                            if rect.y > h { break }
                            canvas.fill(Path.roundedRect(rect, radius: 10), .solid(Self.tilePalette[i % Self.tilePalette.count]), element: content)
                        }
                        y += gap + Double((s.content.tiles + 3) / 4) * (size + gap)
                    }
                    for row in 0..<s.content.rows {
                        let top = y + Double(row) * 44
                        if top > h { break }
                        if top + 44 < 0 { continue }
                        canvas.fill(Rect(x: 0, y: top, width: w, height: 44), .solid(RGBA8(255, 255, 255)), element: content)
                        // Cells inset their content by the safe area (landscape on notched phones).
                        let margin = 16 + layout.horizontalInset
                        canvas.text("Row \(row + 1)", font: fonts.regular, size: 17, color: RGBA8(0, 0, 0), x: margin, centerY: top + 22, element: content)
                        canvas.hairline(bottom: top + 44, from: margin, to: w, color: Self.separator, element: content)
                    }
                }
            }
        }
        }
        if let failure { throw failure }
        if let bar = s.bar {
            try canvas.translatedThrowing(s.x, 0) { try drawBar(bar, canvas: canvas, scales: scales) }
        }
        if !s.ownItems.isEmpty {
            try canvas.translatedThrowing(s.x, 0) { try drawItems(s.ownItems, canvas: canvas, scales: scales) }
        }
        if s.dimming > 0 {
            let rect = Rect(x: s.x, y: 0, width: w, height: h)
            let dim = Paint.solid(RGBA8(0, 0, 0, UInt8((s.dimming * 255).rounded())))
            if let covered {
                // The pixels the next screen's background fill covers whole: its columns ceil(x)
                // to floor(x + w) and rows 0 to floor(h), in pixels. A fill's coverage of a pixel
                // does not depend on the clip, so the rest is drawn exactly as one fill draws it.
                let k = canvas.scale
                let c0 = (covered.x * k).rounded(.up) / k, c1 = ((covered.x + w) * k).rounded(.down) / k
                let r1 = (h * k).rounded(.down) / k
                let far = 1e6
                if c1 > c0 && r1 > 0 {
                    canvas.clipped(to: Rect(x: -far, y: -far, width: far + c0, height: 2 * far)) {
                        canvas.fill(rect, dim, element: Element.dimming.rawValue)
                    }
                    canvas.clipped(to: Rect(x: c1, y: -far, width: 2 * far, height: 2 * far)) {
                        canvas.fill(rect, dim, element: Element.dimming.rawValue)
                    }
                    canvas.clipped(to: Rect(x: c0, y: r1, width: c1 - c0, height: 2 * far)) {
                        canvas.fill(rect, dim, element: Element.dimming.rawValue)
                    }
                } else {
                    canvas.fill(rect, dim, element: Element.dimming.rawValue)
                }
            } else {
                canvas.fill(rect, dim, element: Element.dimming.rawValue)
            }
        }
    }

    // MARK: Bars

    /// Whether a bar's background hides what is under it wherever it is drawn.
    func covers(_ bar: BarLayer) throws -> Bool {
        let bg = bar.background
        guard bg.material == nil else { return false }   // its blur reads what is under it
        if let path = bg.image { return try assets.isOpaque(path) }
        if let g = bg.gradient { return g.colors.allSatisfy { $0.a == 255 } }
        return (bg.color?.a ?? 0) == 255
    }

    func drawBar(_ bar: BarLayer, canvas: Canvas, scales: [String: Double]) throws {
        let rect = Rect(x: bar.x, y: bar.y, width: bar.width, height: bar.height)
        let element = Element.barBackground.rawValue
        var failure: Error?
        canvas.group(alpha: bar.alpha) {
            let bg = bar.background
            if let m = bg.material {
                let spec = Self.material(m)
                canvas.backdrop(rect, sigma: spec.sigma, saturation: spec.saturation, element: element)
                var tints = spec.tints
                if var c = bg.color.map(rgba) {
                    if m == .legacy || c.a == 255 { c.a = Self.systemTintAlpha }
                    tints.append(c)
                }
                // The material's tint, then the bar's colour over it (one pass, same pixels).
                canvas.fill(rect, solids: tints, element: element)
            } else if let c = bg.color {
                canvas.fill(rect, .solid(rgba(c)), element: element)
            }
            if let path = bg.image {
                do {
                    let a = try assets.image(path, canvasScale: canvas.scale, declaredScale: scales[path])
                    let mode: ImageFillMode
                    switch bg.imageMode {
                    case .stretch: mode = .stretch
                    case .tile: mode = .tile
                    case let .capInsets(t, l, b, r): mode = .capInsets(t, l, b, r)
                    }
                    canvas.fill(rect, .image(ImagePaint(image: a.image, rect: rect, mode: mode, scale: a.scale)), element: element)
                } catch { failure = error }
            }
            if let g = bg.gradient {
                canvas.fill(rect, .linearGradient(gradient(g, in: rect)), element: element)
            }
        }
        if let failure { throw failure }
        if bar.shadowAlpha > 0 {
            var c = Self.hairline
            c.a = UInt8((Double(c.a) * bar.shadowAlpha).rounded())
            canvas.hairline(bottom: rect.maxY, from: rect.x, to: rect.maxX, color: c, element: Element.hairline.rawValue)
        }
    }

    func gradient(_ g: ScenarioGradient, in rect: Rect) -> LinearGradient {
        LinearGradient(start: Point(rect.x + g.start.0 * rect.width, rect.y + g.start.1 * rect.height),
                       end: Point(rect.x + g.end.0 * rect.width, rect.y + g.end.1 * rect.height),
                       colors: g.colors.map(rgba))
    }

    // MARK: Status bar

    func drawStatusBar(_ s: StatusBarState, width w: Double, canvas: Canvas) {
        // Dark or light content; mid-change a grey between them (UIKit animates a style change made
        // inside an animation block, `setNeedsStatusBarAppearanceUpdate`, as one colour moving).
        let v = UInt8((255 * s.light).rounded())
        let color = RGBA8(v, v, v)
        let e = Element.statusBar.rawValue
        let notched = s.height > 20
        let cy = notched ? s.height / 2 + 3 : s.height / 2
        let size = notched ? 17.0 : 12.0
        let time = "9:41"
        let tw = fonts.semibold.width(of: time, size: size)
        let tx = notched ? max(16, w * 0.16 - tw / 2) : (w - tw) / 2
        canvas.text(time, font: fonts.semibold, size: size, color: color, x: tx, centerY: cy, element: e)
        // Battery (outline with a hole, level, cap), Wi-Fi and signal bars, from the right edge.
        let k = notched ? 1.0 : 0.8
        let bw = 25 * k, bh = 12 * k
        let bx = w - (notched ? 26 : 6) - bw, by = cy - bh / 2
        var battery = Path.roundedRect(Rect(x: bx, y: by, width: bw, height: bh), radius: 3.5 * k)
        battery.append(Path.roundedRect(Rect(x: bx + 1 * k, y: by + 1 * k, width: bw - 2 * k, height: bh - 2 * k), radius: 2.5 * k).reversed())
        canvas.fill(battery, .solid(color.withAlpha(0.4)), element: e)
        canvas.fill(Path.roundedRect(Rect(x: bx + 2 * k, y: by + 2 * k, width: bw - 4 * k, height: bh - 4 * k), radius: 1.5 * k), .solid(color), element: e)
        canvas.fill(Path.roundedRect(Rect(x: bx + bw + 1 * k, y: cy - 2 * k, width: 1.5 * k, height: 4 * k), radius: 0.7 * k), .solid(color.withAlpha(0.4)), element: e)
        let wx = bx - 8 * k - 15 * k
        for r in [13.0, 9.0] {
            var arc = Path()
            let cx = wx + 7.5 * k, base = cy + 5 * k
            let outer = r * k, inner = (r - 2.6) * k
            arc.move(to: Point(cx - outer * 0.72, base - outer * 0.69))
            arc.quad(to: Point(cx + outer * 0.72, base - outer * 0.69), control: Point(cx, base - outer * 1.36))
            arc.line(to: Point(cx + inner * 0.72, base - inner * 0.69))
            arc.quad(to: Point(cx - inner * 0.72, base - inner * 0.69), control: Point(cx, base - inner * 1.36))
            arc.close()
            canvas.fill(arc, .solid(color), element: e)
        }
        canvas.fill(Path.ellipse(Rect(x: wx + 5.5 * k, y: cy + 1.5 * k, width: 4 * k, height: 4 * k)), .solid(color), element: e)
        let sx = wx - 6 * k - 17 * k
        for i in 0..<4 {
            let hgt = (4 + Double(i) * 2.7) * k
            canvas.fill(Path.roundedRect(Rect(x: sx + Double(i) * 4.6 * k, y: cy + 5.5 * k - hgt, width: 3 * k, height: hgt), radius: 1 * k),
                        .solid(color), element: e)
        }
    }

    // MARK: Items

    func drawItems(_ items: [BarItem], canvas: Canvas, scales: [String: Double]) throws {
        for item in items where item.alpha > 0 {
            if let clip = item.clip {
                guard clip.bottom > clip.top else { continue }
                var failure: Error?
                canvas.clipped(to: Rect(x: -1e5, y: clip.top, width: 2e5, height: clip.bottom - clip.top)) {
                    var unclipped = item
                    unclipped.clip = nil
                    do { try drawItems([unclipped], canvas: canvas, scales: scales) } catch { failure = error }
                }
                if let failure { throw failure }
                continue
            }
            let color = rgba(item.color).withAlpha(Double(item.color.a) / 255 * item.alpha)
            switch item.kind {
            case .text(let text):
                canvas.text(text, font: fonts.typeface(item.weight), size: item.fontSize, color: color, x: item.x,
                            centerY: item.y + item.height / 2, maxWidth: item.maxWidth, element: item.element.rawValue)
            case .chevron:
                // The back chevron: two strokes meeting at the left with round ends, whose ink
                // fills the item's box (`ScreenParts.chevronStroke`).
                let inset = ScreenParts.chevronStroke / 2
                let pts = [Point(item.x + item.width - inset, item.y + inset), Point(item.x + inset, item.y + item.height / 2),
                           Point(item.x + item.width - inset, item.y + item.height - inset)]
                canvas.stroke(pts, width: ScreenParts.chevronStroke, .solid(color), element: item.element.rawValue)
            case let .image(path, insets):
                let a = try assets.image(path, canvasScale: canvas.scale, declaredScale: scales[path])
                let rect = Rect(x: item.x, y: item.y, width: item.width, height: item.height)
                let mode: ImageFillMode = insets.map { .capInsets($0.0, $0.1, $0.2, $0.3) } ?? .stretch
                // The image and its attached title are one view: one group at the item's alpha.
                var failure: Error?
                canvas.group(alpha: item.alpha) {
                    canvas.fill(rect, .image(ImagePaint(image: a.image, rect: rect, mode: mode, scale: a.scale)), element: item.element.rawValue)
                    do { try drawItems(item.attached.map { $0.with(alpha: 1) }, canvas: canvas, scales: scales) } catch { failure = error }
                }
                if let failure { throw failure }
            }
        }
    }
}

func rgba(_ c: ScenarioColor) -> RGBA8 { RGBA8(c.r, c.g, c.b, c.a) }

extension RGBA8 {
    func withAlpha(_ alpha: Double) -> RGBA8 { RGBA8(r, g, b, UInt8((min(1, max(0, alpha)) * 255).rounded())) }
}

extension Canvas {
    func translatedThrowing(_ dx: Double, _ dy: Double, _ body: () throws -> Void) throws {
        var failure: Error?
        translated(dx, dy) {
            do { try body() } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

