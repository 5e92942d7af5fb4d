import Scenario

/// Everything a painter needs to draw one frame: a value, computed by `Timeline.state(at:)`.
/// Coordinates are in points, origin at the top left of the screen.
public struct NavigationState: Sendable, Equatable {
    public var time: Double
    public var layout: DeviceLayout
    public var statusBar: StatusBarState
    /// Screens on stage, bottom to top.
    public var screens: [ScreenLayer]
    /// The navigation controller's bar when one bar is shared; nil when each screen carries its
    /// own copy (split transition) or no bar shows.
    public var bar: BarLayer?
    /// Items of the controller's bar, drawn above every bar background.
    public var items: [BarItem]
    /// The navigation stack, root first, after the steps up to this time.
    public var stack: [String]
    /// Whether a transition is running, and how: for tests and reports.
    public var transition: TransitionInfo?
    /// Image files whose scale the scenario gives explicitly (pixels per point), by path.
    public var imageScales: [String: Double] = [:]
    /// The shared bar's previous look under `bar`, for a cross-dissolve (`barTransition: crossFade` between
    /// backgrounds of different kinds), at 1 - p of its alpha (the painter keeps it whole under a
    /// `bar` that covers it); nil otherwise.
    public var barBelow: BarLayer? = nil
}

public struct TransitionInfo: Sendable, Equatable {
    public enum Kind: String, Sendable { case push, pop, swipeBack }
    public var kind: Kind
    public var from: String
    public var to: String
    /// Progress of the screens, 0...1 (after the transition's curve).
    public var progress: Double
    /// Whether the bar background is split between the two screens (the HBD rule).
    public var split: Bool
}

public struct StatusBarState: Sendable, Equatable {
    /// `default`: dark content; `black`: light content. During an animated change, the style it
    /// is changing to.
    public var style: BarStyle
    public var height: Double
    /// 0 when the status bar is hidden (notched phones in landscape).
    public var visible: Bool
    /// During an animated change of style (a tapped push or pop, an animated `setBar`), the style
    /// it is leaving; `style` itself otherwise.
    public var previous: BarStyle
    /// How far an animated change has gone, 0...1 (1 when nothing is changing): the content's
    /// colour is `previous`'s mixed with `style`'s by this much.
    public var change: Double

    public init(style: BarStyle, height: Double, visible: Bool, previous: BarStyle? = nil, change: Double = 1) {
        self.style = style
        self.height = height
        self.visible = visible
        let changing = previous != nil && previous != style && change < 1
        self.previous = changing ? previous! : style
        self.change = changing ? max(0, change) : 1
    }

    /// How light the content is, 0 (dark, `default`) to 1 (light, `black`).
    public var light: Double {
        (previous == .black ? 1 - change : 0) + (style == .black ? change : 0)
    }
}

public struct ScreenLayer: Sendable, Equatable {
    public var name: String
    /// Horizontal offset of the whole screen (it slides during transitions).
    public var x: Double
    /// Content offset from rest, in points (positive: content moved up).
    public var contentOffset: Double
    /// Top of the content view: 0 when content extends under the bar, the bar's bottom otherwise.
    public var contentTop: Double
    /// Where content starts at rest below `contentTop` (the bar's bottom when content is under it).
    public var contentInset: Double
    /// The black dimming over the screen, alpha 0...0.1.
    public var dimming: Double
    /// The shadow outside the screen's leading edge, alpha 0...1.
    public var edgeShadow: Double
    /// The screen's own copy of its bar background: during a split transition, or a standalone bar.
    public var bar: BarLayer?
    /// Items of a standalone bar, in the screen's coordinates (they move with it).
    public var ownItems: [BarItem]
    public var content: ContentSpec
}

/// A bar background, with its hairline.
public struct BarLayer: Sendable, Equatable {
    public var owner: String
    /// Frame relative to the layer that holds it (the screen, or the screen for the shared bar).
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var background: BarBackground
    /// Group alpha of the background (HBD barAlpha).
    public var alpha: Double
    /// Hairline alpha at the bottom edge.
    public var shadowAlpha: Double
    public var style: BarStyle
}

/// What a bar background draws, bottom to top (NAVIGATION-MODEL.md, "Bar background").
public struct BarBackground: Sendable, Equatable {
    /// Blurred, saturated backdrop with the material's tint layers; nil for no blur.
    public var material: BarMaterial?
    /// The bar tint colour, with its own alpha.
    public var color: ScenarioColor?
    public var image: String?
    public var imageMode: ImageMode
    public var gradient: ScenarioGradient?

    public init(material: BarMaterial? = nil, color: ScenarioColor? = nil, image: String? = nil, imageMode: ImageMode = .stretch,
                gradient: ScenarioGradient? = nil) {
        self.material = material
        self.color = color
        self.image = image
        self.imageMode = imageMode
        self.gradient = gradient
    }

    /// The HBD comparison: same image (or gradient), or both without one and the same colour.
    public func looksLike(_ other: BarBackground) -> Bool {
        if image != nil || other.image != nil { return image == other.image && imageMode == other.imageMode }
        if gradient != nil || other.gradient != nil { return gradient == other.gradient }
        return color == other.color && material == other.material
    }
}

public enum FontWeight: String, Sendable, Equatable, CaseIterable {
    case regular, semibold, bold
}

/// One thing drawn on a bar: text, the back chevron, or a custom back button image.
public struct BarItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case text(String)
        /// The back chevron, stroked in `color`, filling `frame`.
        case chevron
        /// A stretchable back button image behind its title.
        case image(String, capInsets: (Double, Double, Double, Double)?)

        public static func == (l: Kind, r: Kind) -> Bool {
            switch (l, r) {
            case let (.text(a), .text(b)): return a == b
            case (.chevron, .chevron): return true
            case let (.image(a, ia), .image(b, ib)):
                return a == b && ia.map { [$0.0, $0.1, $0.2, $0.3] } == ib.map { [$0.0, $0.1, $0.2, $0.3] }
            default: return false
            }
        }
    }

    public var kind: Kind
    /// Which element it is for element maps and tolerances.
    public var element: Element
    /// Left edge, top, width and height in points. Text is vertically centred in the frame.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public var alpha: Double
    public var color: ScenarioColor
    public var fontSize: Double
    public var weight: FontWeight
    /// Text wider than this is truncated with an ellipsis.
    public var maxWidth: Double?
    /// The vertical band the item is clipped to (a large title inside its shrinking extension).
    public var clip: VerticalClip? = nil
    /// Items drawn inside this one's group and moved with it: a custom back button's title on its
    /// image, so that the two move and fade as one view.
    public var attached: [BarItem] = []
}

/// A band `top..<bottom` in points; items outside it are not drawn.
public struct VerticalClip: Sendable, Equatable {
    public var top: Double
    public var bottom: Double
    public init(top: Double, bottom: Double) {
        self.top = top
        self.bottom = bottom
    }
}

/// Measures text; the painter supplies one backed by the real font so that layout matches what
/// is drawn. `ApproximateMetrics` serves tests of the timeline.
public protocol TextMetrics: Sendable {
    func width(of text: String, size: Double, weight: FontWeight) -> Double
}

/// Widths from average advances (about 0.55 em), for tests and for sizing without a font.
public struct ApproximateMetrics: TextMetrics {
    public init() {}
    public func width(of text: String, size: Double, weight: FontWeight) -> Double {
        let em: Double = weight == .regular ? 0.55 : (weight == .semibold ? 0.58 : 0.6)
        return Double(text.count) * size * em
    }
}
