import Foundation
import Scenario

/// A screen's bar with every property decided (HBDNavigationBar's resolution order), at a content
/// offset and with the overrides of earlier `setBar` steps applied.
public struct ResolvedBar: Sendable, Equatable {
    public var style: BarStyle
    public var tintColor: ScenarioColor
    public var titleColor: ScenarioColor
    public var background: BarBackground
    /// Background alpha (HBD barAlpha), after scroll-driven changes; 0 when hidden.
    public var alpha: Double
    /// Hairline alpha.
    public var shadowAlpha: Double
    public var hidden: Bool
    public var translucent: Bool
    public var standalone: Standalone?
    public var forceSplit: Bool

    /// Default bar tint colours when none is set (HBD `UIViewController+HBD.m`).
    static let defaultLight = ScenarioColor(247, 247, 247, 204)   // (247, 247, 247) @ 0.8
    static let defaultBlack = ScenarioColor(28, 28, 28, 186)      // (28, 28, 28) @ 0.729

    /// Resolves `screen`'s bar: the screen's own keys, then the scenario's appearance, then the
    /// style's defaults. `override` holds keys set by `setBar` steps.
    public static func resolve(_ screen: ScreenSpec, appearance: BarSpec, override: BarSpec?, offset: Double) -> ResolvedBar {
        let own = override.map { screen.bar.overlaid(by: $0) } ?? screen.bar
        var style = own.style ?? appearance.style ?? .default
        var tint = own.tintColor ?? appearance.tintColor ?? ScenarioColor.systemBlue
        var title = own.titleColor ?? appearance.titleColor ?? (style == .black ? .white : .black)
        let translucent = own.translucent ?? appearance.translucent ?? true
        let material = own.material ?? appearance.material ?? .light

        // Background resolution order: the screen's image, the screen's tint colour, the
        // appearance image, the appearance tint colour, the style's default.
        var background = BarBackground()
        if let image = own.image {
            background.image = image
            background.imageMode = own.imageMode ?? .stretch
        } else if let gradient = own.gradient {
            background.gradient = gradient
        } else if let color = own.color {
            background.color = color
        } else if let image = appearance.image {
            background.image = image
            background.imageMode = appearance.imageMode ?? .stretch
        } else if let gradient = appearance.gradient {
            background.gradient = gradient
        } else if let color = appearance.color {
            background.color = color
        } else {
            background.color = style == .black ? defaultBlack : defaultLight
        }
        if background.image == nil && background.gradient == nil {
            if translucent {
                background.material = material
            } else {
                background.color = background.color?.withAlpha(1)   // opaque bars: tint at full alpha, no blur
            }
        } else if !translucent {
            // An opaque bar backs a translucent image "using black if the navigation bar has
            // UIBarStyleBlack, white if the navigation bar has UIBarStyleDefault, or the navigation
            // bar's barTintColor if a custom value is defined" (Apple, UINavigationBar.isTranslucent,
            // quoted in seed 001). Under an opaque image the backing never shows.
            let tint = own.color ?? appearance.color
            background.color = (tint ?? (style == .black ? .black : .white)).withAlpha(1)
        }

        let hidden = own.hidden ?? appearance.hidden ?? false
        var alpha = own.alpha ?? appearance.alpha ?? 1
        var shadowHidden = own.shadowHidden ?? appearance.shadowHidden ?? false

        // Scroll-driven alpha (HBD demo YPGradientDemoViewController.m): p = clamp((y - start) /
        // (end - start)), alpha = p^exponent; below a threshold the style and tint may switch.
        if let scroll = screen.scroll {
            if let rule = scroll.alpha {
                let p = min(1, max(0, (offset - rule.start) / (rule.end - rule.start)))
                alpha = pow(p, rule.exponent)
            }
            if let below = scroll.styleBelowAlpha, alpha < below.alpha {
                if let s = below.style {
                    style = s
                    if own.titleColor == nil && appearance.titleColor == nil { title = s == .black ? .white : .black }
                }
                if let t = below.tintColor { tint = t }
                if let t = below.titleColor { title = t }
            }
            if let from = scroll.shadowFrom { shadowHidden = offset < from }
            // HBD's gradient demo fades the title with the bar: black at the bar's alpha.
            if scroll.titleFollowsAlpha { title = title.withAlpha(Double(title.a) / 255 * alpha) }
        }
        if hidden { alpha = 0 }
        return ResolvedBar(style: style, tintColor: tint, titleColor: title, background: background, alpha: alpha,
                           shadowAlpha: (hidden || shadowHidden) ? 0 : alpha, hidden: hidden, translucent: translucent,
                           standalone: own.standalone, forceSplit: own.split ?? false)
    }

    /// HBD `shouldShowFake`: two screens share one bar when their backgrounds look alike and
    /// their alphas are equal, unless either asks for a split or owns its bar.
    public static func shared(_ a: ResolvedBar, _ b: ResolvedBar) -> Bool {
        if a.forceSplit || b.forceSplit || a.standalone != nil || b.standalone != nil { return false }
        return a.background.looksLike(b.background) && a.alpha == b.alpha
    }
}
