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
    /// `awayFromEdge`: how far the bar has left its scroll-edge look (0 at the edge, 1 away;
    /// `Timeline.awayFromEdge`); matters only with a `scrollEdge` appearance.
    public static func resolve(_ screen: ScreenSpec, appearance: BarSpec, override: BarSpec?, offset: Double,
                               awayFromEdge: Double = 1) -> ResolvedBar {
        let own = override.map { screen.bar.overlaid(by: $0) } ?? screen.bar
        let standard = resolve(screen, own: own, appearance: appearance, offset: offset)
        guard awayFromEdge < 1, let edge = own.scrollEdge ?? appearance.scrollEdge else { return standard }
        // UIKit's scrollEdgeAppearance at the top, the standard appearance once content scrolls
        // under the bar, cross-faded over the same 0.15 s as a large title's transfer.
        var atEdge = standard
        switch edge {
        case .transparent:
            atEdge.alpha = 0
            atEdge.shadowAlpha = 0
        case .bar(let keys):
            var overlay = keys
            overlay.scrollEdge = nil
            // A background the edge look gives replaces the bar's own of any kind: the screen's
            // image came before the edge's colour in the resolution order (a review: the edge's
            // colour never showed over a screen's image).
            var base = own
            if keys.image != nil || keys.gradient != nil || keys.color != nil { base.image = nil; base.gradient = nil; base.color = nil }
            atEdge = resolve(screen, own: base.overlaid(by: overlay), appearance: appearance, offset: offset)
        }
        return mix(standard, atEdge, atEdge: 1 - awayFromEdge)
    }

    /// `standard` and `atEdge` mixed by `w` (1: all the scroll-edge look): alphas and colours
    /// linearly; a background of another kind (an image, a gradient, another material) and the
    /// style are the one with the larger share. A transparent edge fades the standard background.
    static func mix(_ standard: ResolvedBar, _ atEdge: ResolvedBar, atEdge w: Double) -> ResolvedBar {
        guard w > 0 else { return standard }
        var out = w >= 0.5 ? atEdge : standard
        out.alpha = standard.alpha + (atEdge.alpha - standard.alpha) * w
        out.shadowAlpha = standard.shadowAlpha + (atEdge.shadowAlpha - standard.shadowAlpha) * w
        out.tintColor = standard.tintColor.mixed(with: atEdge.tintColor, w)
        out.titleColor = standard.titleColor.mixed(with: atEdge.titleColor, w)
        let a = standard.background, b = atEdge.background
        if a.image == nil, b.image == nil, a.gradient == nil, b.gradient == nil, a.material == b.material,
           let ca = a.color, let cb = b.color {
            out.background = a
            out.background.color = ca.mixed(with: cb, w)
        } else if atEdge.alpha == 0 {
            out.background = a   // transparent at the edge: the standard background, fading in
        }
        // What the bar is, not how it looks, is the standard bar's (the layout follows translucent).
        out.hidden = standard.hidden
        out.translucent = standard.translucent
        out.standalone = standard.standalone
        out.forceSplit = standard.forceSplit
        return out
    }

    static func resolve(_ screen: ScreenSpec, own: BarSpec, appearance: BarSpec, offset: Double) -> ResolvedBar {
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
        // (end - start)), alpha = p^exponent (times `max`, where the app stops the fade part
        // way); below a threshold the style and tint may switch.
        if let scroll = screen.scroll {
            if let rule = scroll.alpha {
                let p = min(1, max(0, (offset - rule.start) / (rule.end - rule.start)))
                alpha = rule.max * pow(p, rule.exponent)
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
