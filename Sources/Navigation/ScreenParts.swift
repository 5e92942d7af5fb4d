import Scenario

/// One screen at rest, laid out: its bar, content geometry and bar items. Transitions combine two.
struct ScreenParts {
    var spec: ScreenSpec
    var bar: ResolvedBar
    var layout: DeviceLayout
    var offset: Double
    /// How far UIKit has taken the bar out of the layout (`setBar: {hidden: true, style: slide}`,
    /// `setNavigationBarHidden`): 0 laid out, 1 removed, between while it slides. The safe area's
    /// top then is the status bar's bottom, and the content's inset follows it.
    var removed: Double = 0
    /// Top of the bar's 44 pt item band (the status bar's bottom).
    var barTop: Double
    var barHeight: Double
    /// Large-title extension, 0...52 pt.
    var extensionHeight: Double
    var title: BarItem?
    var largeTitle: BarItem?
    var chevron: BarItem?
    var backLabel: BarItem?
    var backImage: BarItem?
    var buttons: [BarItem]
    /// Where a standard back label rests (its leading x) on a screen with a previous one and no
    /// custom back image, also under a hidden bar: the hidden bar stays laid out (HBD fades its
    /// content view, `hbd_setContentHidden:`), and the title of the screen below slides to and
    /// from this place, as HBD's real-device hidden.gif shows (the returning title's centre at
    /// 0.115 W with the finger at 0.16, 0.45 W at 0.89, of a swipe back from a hidden bar).
    var backLabelRestX: Double?
    /// Where the title rests (its leading x, centred), also under a hidden bar, for the same
    /// reason: the back label of a screen pushed over a hidden bar starts there.
    var titleRestX: Double?

    /// Bottom of the bar including a large title.
    var barBottom: Double { barTop + barHeight + extensionHeight }

    // Layout constants (NAVIGATION-MODEL.md, "Bar geometry").
    static let largeTitleExtension = 52.0
    /// The large title shows while more than 15 pt of its extension is left: below 37 pt of
    /// scroll. A real iPhone (iOS 14, 414 x 896 at 1 px a point; markvanwijnen/
    /// NavigationBarLargeTitleItems b8a53e6 `preview.gif`, offsets from the rows, ±1 pt) starts the
    /// small title's fade at offset 37, collapsing and expanding alike, as the large title's
    /// baseline passes under the 44 pt bar. Until renderer 7 this was Flutter's 10 pt
    /// (`_kNavBarShowLargeTitleThreshold`), 5 pt of scroll late.
    static let largeTitleVisibleBelowShrink = 37.0
    /// The leading margin of the large title: UIKit's layout margin, 16 pt, and 20 pt on phones
    /// 414 pt wide or more. The same GIF's "N" starts at 22 pt and its rows' text at 21 pt; a
    /// 414 pt iOS 13 simulator recording (thomas-sivilay/blog-large-title-ios13 c514b8d
    /// `issue.mov`) at 21.4 pt, a 375 pt one (997c276 `issue_ios13.mov`) at 18.8 pt; NavReel's
    /// glyph starts 2 pt inside its margin.
    static func largeTitleMargin(width: Double) -> Double { width >= 414 ? 20 : 16 }
    /// The back chevron's ink box and stroke, and where the back label starts, from the leading
    /// inset, as iOS 16 and 17 draw them on 393 pt phones: ten full-resolution simulator
    /// screenshots of five apps (UIKit, SwiftUI and React Native stacks, Xcode 14 and 15) agree to
    /// 0.05 pt, ink at 50 % coverage x 9.51-20.09 and y 12.38-30.83 below the bar's top, the first
    /// letter of "Back", "Lessons" or "Recipes" at 30.71 (1.5 pt of side bearing, in SF Pro as in
    /// Inter, so the label starts at 29.0); the stroke's horizontal chord, 11 px at 3x, makes it
    /// 2.5 pt wide (an audit, 2026-11-27, docs/geometry.md). iOS 18 moves the label to 30.4, iOS 13
    /// had it at about 23. Until renderer 8: Flutter's 13 x 21 box at 8 pt, a 3 pt stroke and the
    /// label at 27 pt.
    static let chevronX = 9.35
    static let chevronWidth = 10.9
    static let chevronHeight = 18.8
    /// The chevron's centre sits 0.4 pt above the bar's middle (21.6 of 44 pt).
    static let chevronRaise = 0.4
    static let chevronStroke = 2.5
    static let backLabelX = 29.0
    /// The bar's text (title, back label, buttons) sits 0.4 pt above the bar's middle: baselines
    /// at 27.5-27.95 pt below the bar's top in the same screenshots, NavReel's at 28.0-28.2 before.
    static let textRaise = 0.4
    static let leadingPadding = 8.0
    /// Bar buttons: 16 pt from the trailing edge, 8 pt apart (UIKit's compact bar margins).
    static let trailingPadding = 16.0
    static let buttonGap = 8.0
    /// A custom back button image: 30 pt tall, 12 pt of padding each side of its title.
    static let backImageHeight = 30.0
    static let backImagePadding = 12.0

    init(spec: ScreenSpec, previous: ScreenSpec?, bar: ResolvedBar, layout: DeviceLayout, offset: Double,
         smallTitleAlpha: Double, metrics: any TextMetrics) {
        self.spec = spec
        self.bar = bar
        self.layout = layout
        self.offset = offset
        let w = layout.width
        barTop = layout.statusBar
        barHeight = layout.barHeight
        // The extension shrinks as content scrolls up and stretches when it is pulled down
        // (negative offsets), as UIKit's large-title bar does.
        extensionHeight = spec.largeTitle && layout.showsLargeTitles ? max(0, Self.largeTitleExtension - offset) : 0
        buttons = []
        if previous != nil && spec.backButton?.image == nil {
            backLabelRestX = layout.horizontalInset + Self.backLabelX
        }
        guard !bar.hidden else {
            if !spec.title.isEmpty { titleRestX = (w - min(w, metrics.width(of: spec.title, size: 17, weight: .semibold))) / 2 }
            return
        }

        let band = (y: barTop, h: barHeight)
        // Items lay out inside the horizontal safe area; the background spans the full width.
        let inset = layout.horizontalInset
        // Bar buttons, from the trailing edge.
        var right = w - inset - Self.trailingPadding
        for text in spec.rightItems.reversed() {
            let tw = metrics.width(of: text, size: 17, weight: .regular)
            right -= tw
            buttons.insert(BarItem(kind: .text(text), element: .barButton, x: right, y: band.y - Self.textRaise, width: tw, height: band.h,
                                   alpha: 1, color: bar.tintColor, fontSize: 17, weight: .regular, maxWidth: nil), at: 0)
            right -= Self.buttonGap
        }
        // Back button: chevron then label, or a stretchable image behind the label.
        let titleWidth = spec.title.isEmpty ? 0 : metrics.width(of: spec.title, size: 17, weight: .semibold)
        // The title's room: from 8 pt after the back button (else the leading layout margin) to
        // 8 pt before the bar buttons (else the trailing layout margin, 16 pt in the safe area).
        let end = buttons.first.map { $0.x - Self.buttonGap } ?? (w - inset - Self.trailingPadding)
        var start = inset + Self.trailingPadding
        if let previous {
            // The back button's own title, else the previous screen's ("Back" past 12 characters,
            // as Flutter's CupertinoNavigationBar does).
            // UIKit reads `backButtonTitle` and `backButtonDisplayMode` from the previous screen's
            // navigation item; the pushed screen's own `backButton` wins.
            let first = spec.backButton?.title ?? previous.backButtonTitle ?? (previous.title.count > 12 ? "Back" : previous.title)
            if let image = spec.backButton?.image {
                // A custom back button (a back bar button item of its own) keeps its title:
                // UIKit's display mode applies only without one (`backButtonDisplayMode`: "When
                // the backBarButtonItem property is nil").
                let labelText = first
                let lw = metrics.width(of: labelText, size: 17, weight: .regular)
                let insets = spec.backButton?.capInsets
                // With cap insets the title sits in the stretchable middle, 4 pt from each cap;
                // without, 12 pt of padding on each side.
                let padLeft = insets.map { $0.1 + 4 } ?? Self.backImagePadding
                let padRight = insets.map { $0.3 + 4 } ?? Self.backImagePadding
                let iw = lw + padLeft + padRight
                // The image and its title are one button (a custom view, seed 004): the title is
                // attached to the image so that they move and fade together.
                let label = BarItem(kind: .text(labelText), element: .backButton, x: inset + Self.leadingPadding + padLeft,
                                    y: band.y, width: lw, height: band.h, alpha: 1, color: bar.tintColor, fontSize: 17,
                                    weight: .regular, maxWidth: nil)
                backImage = BarItem(kind: .image(image, capInsets: insets), element: .backButton, x: inset + Self.leadingPadding,
                                    y: band.y + (band.h - Self.backImageHeight) / 2, width: iw, height: Self.backImageHeight,
                                    alpha: 1, color: bar.tintColor, fontSize: 17, weight: .regular, maxWidth: nil,
                                    attached: [label])
                start = inset + Self.leadingPadding + iw + Self.leadingPadding
            } else {
                let chevronHeight = min(Self.chevronHeight, band.h - 8)
                chevron = BarItem(kind: .chevron, element: .backButton, x: inset + Self.chevronX,
                                  y: band.y + (band.h - chevronHeight) / 2 - Self.chevronRaise, width: Self.chevronWidth, height: chevronHeight,
                                  alpha: 1, color: bar.tintColor, fontSize: 17, weight: .regular, maxWidth: nil)
                let lx = inset + Self.backLabelX
                start = inset + Self.chevronX + Self.chevronWidth + Self.leadingPadding
                // UIKit's default display mode tries that title, then the generic "Back", then none,
                // "according to the available space" (Apple, UINavigationItem.BackButtonDisplayMode
                // .default): the first with which the title still fits whole between the back
                // button and the bar buttons (without a title, the first that clears the buttons).
                let candidates: [String]
                switch spec.backButton?.displayMode ?? previous.backButtonDisplayMode ?? .default {
                case .default: candidates = first == "Back" ? [first] : [first, "Back"]
                case .generic: candidates = ["Back"]
                case .minimal: candidates = []
                }
                for text in candidates {
                    let lw = metrics.width(of: text, size: 17, weight: .regular)
                    if titleWidth <= end - (lx + lw + Self.leadingPadding) {
                        backLabel = BarItem(kind: .text(text), element: .backButton, x: lx, y: band.y - Self.textRaise, width: lw, height: band.h,
                                            alpha: 1, color: bar.tintColor, fontSize: 17, weight: .regular, maxWidth: nil)
                        start = lx + lw + Self.leadingPadding
                        break
                    }
                }
            }
        }
        // Title: centred on the bar when it fits there, else moved towards the roomier side (UIKit
        // and Flutter's NavigationToolbar keep a centred middle clear of the leading and trailing
        // items by shifting it), and truncated only to the whole room between them. A room too
        // narrow for an ellipsis shows no title rather than one drawn over the back button.
        if titleWidth > 0 {
            let room = max(0, end - start)
            let shown = min(titleWidth, room)
            // (A whole title is drawn however narrow: "A" is narrower than "…".)
            if shown == titleWidth || shown >= metrics.width(of: "…", size: 17, weight: .semibold) {
                let x = min(max((w - shown) / 2, start), end - shown)
                title = BarItem(kind: .text(spec.title), element: .title, x: x, y: band.y - Self.textRaise, width: shown, height: band.h,
                                alpha: spec.largeTitle && layout.showsLargeTitles ? smallTitleAlpha : 1, color: bar.titleColor, fontSize: 17,
                                weight: .semibold, maxWidth: room)
            }
        }
        if spec.largeTitle && layout.showsLargeTitles && !spec.title.isEmpty {
            let lw = metrics.width(of: spec.title, size: 34, weight: .bold)
            // Pulled down, the title grows about its bottom-leading corner: 3 % per 44 pt of stretch,
            // at most 1.1 and never wider than the bar (Flutter nav_bar.dart
            // `_RenderLargeTitle._computeTitleScale`; 1.1 is iOS 16's bound, flutter/flutter#110127).
            let stretch = max(0, extensionHeight - Self.largeTitleExtension)
            let maxScale = lw > 0 ? min(1.1, max(1, (w - 16) / lw)) : 1.1
            let scale = min(maxScale, 1 + 0.03 * stretch / 44)
            let height = 41.0 * scale
            // At the layout margin, 8 pt above the bar's bottom; it moves up with the
            // shrinking extension and is clipped to it, and cross-fades with the small title
            // (Flutter's 0.15 s title transfer, `_kNavBarTitleFadeDuration`).
            let band = VerticalClip(top: barTop + barHeight, bottom: barBottom)
            let margin = Self.largeTitleMargin(width: w)
            largeTitle = BarItem(kind: .text(spec.title), element: .largeTitle, x: inset + margin, y: barBottom - 8 - height, width: lw * scale,
                                 height: height, alpha: 1 - smallTitleAlpha, color: bar.titleColor, fontSize: 34 * scale,
                                 weight: .bold, maxWidth: w - 2 * margin, clip: band)
        }
    }

    /// The bar items in drawing order.
    var items: [BarItem] {
        [backImage, chevron, backLabel, title].compactMap { $0 } + buttons + [largeTitle].compactMap { $0 }
    }

    /// Content geometry: content lies under translucent and hidden bars; below opaque ones unless
    /// the screen extends under them.
    var contentTop: Double {
        // Below an opaque bar that UIKit is taking out of the layout, the content's top moves up
        // to the status bar with it (`removed`).
        (bar.translucent || bar.hidden || spec.content.extendsUnderOpaqueBar) ? 0 : barTop + (barBottom - barTop) * (1 - removed)
    }

    /// Content scrolled under a large-title bar stays glued to the bar's bottom while the
    /// extension collapses or stretches, so the inset is the bar's bottom at rest (offset 0).
    /// Below an opaque bar the content starts at the bar's bottom, which moves with the extension:
    /// the inset takes back what the extension gave up, so that the rows stay glued there too
    /// (they moved twice as fast as the title collapsed before; an audit, 2026-11-27). A header
    /// sits that far down as well (`Painter` draws it at the inset less its height).
    var contentInset: Double {
        let large = spec.largeTitle && layout.showsLargeTitles
        let glue = contentTop != 0 && large ? Self.largeTitleExtension - extensionHeight : 0
        if let header = spec.content.header { return header.height + glue }
        // A bar UIKit removed gives its height back to the content (an HBD hidden bar stays laid
        // out; a slide-hidden one left a 44 pt empty band before, an audit, 2026-11-27).
        return contentTop == 0 ? barTop + (barHeight + (large ? Self.largeTitleExtension : 0)) * (1 - removed) : glue
    }

    /// The bar background as a layer at horizontal offset `x` (relative to its holder).
    func barLayer(x: Double, y: Double = 0) -> BarLayer {
        // The background covers the status bar too (rect 0, 0, W, statusBar + bar); a standalone
        // bar that is not top-attached starts below the status bar instead.
        let notAttached = bar.standalone.map { !$0.topAttached } ?? false
        let top = notAttached ? barTop : 0
        return BarLayer(owner: spec.name, x: x, y: top + y, width: layout.width, height: barBottom - top, background: bar.background,
                        alpha: bar.alpha, shadowAlpha: bar.shadowAlpha, style: bar.style)
    }

    func screenLayer(x: Double, dimming: Double, edgeShadow: Double, ownBar: BarLayer?, ownItems: [BarItem]) -> ScreenLayer {
        ScreenLayer(name: spec.name, x: x, contentOffset: offset, contentTop: contentTop, contentInset: contentInset,
                    dimming: dimming, edgeShadow: edgeShadow, bar: ownBar, ownItems: ownItems, content: spec.content)
    }
}

extension BarItem {
    func with(alpha factor: Double, dx: Double = 0, dy: Double = 0) -> BarItem {
        var out = self
        out.alpha = min(1, max(0, alpha * factor))
        out.x += dx
        out.y += dy
        if dy != 0, let c = clip { out.clip = VerticalClip(top: c.top + dy, bottom: c.bottom + dy) }
        out.attached = attached.map { $0.with(alpha: 1, dx: dx, dy: dy) }
        return out
    }
}
