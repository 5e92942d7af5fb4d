import Scenario

/// Steps a device would not rest in, which `lint` warns about (exit status unchanged): a
/// scenario may mean them (an offset set by code), but a test of what a user sees usually does
/// not.
public enum MotionWarnings {
    /// The height of a large title's extension, beyond which it is collapsed
    /// (`ScreenParts.largeTitleExtension`).
    static let extensionHeight = 52.0

    /// A `scroll` that leaves a large-title screen resting part collapsed: when a drag ends
    /// there, UIKit moves the content so that the large title is either fully open or fully
    /// collapsed (Flutter's maintainers document the 50 % snap for iOS 16, flutter/flutter#126028
    /// and #23321; NavReel's `scroll` can rest anywhere).
    ///
    /// And steps and keys a newcomer writes expecting something that does not happen (an author
    /// audit, 2026-11-27): a `show` that replaces a stack, a `rotate` to the orientation it is in,
    /// and a bar colour an image hides. (A `pop` or `swipeBack` the top screen refuses is not
    /// warned about: the scenario that writes both means to test HBD's gate, as swipe-back does.)
    public static func warnings(_ scenario: Scenario) -> [LintWarning] {
        var out: [LintWarning] = []
        for screen in scenario.screens {
            let bar = screen.bar
            if bar.color != nil, bar.image != nil || bar.gradient != nil, (bar.translucent ?? scenario.appearance.translucent) != false {
                out.append(LintWarning(location: screen.location, message:
                    "`\(screen.name)`'s bar colour is not drawn: its \(bar.image != nil ? "image" : "gradient") covers the bar, and only an opaque bar "
                    + "(`translucent: false`) shows the colour, behind a translucent image (UIKit's isTranslucent)"))
            }
        }
        var stack: [String] = []
        var orientation = Orientation.portrait
        // Bars a setBar hid or showed, by screen (the scenario file's `hidden` otherwise).
        var hidden: [String: Bool] = [:]
        for step in scenario.steps {
            switch step.action {
            case .show(let s) where !stack.isEmpty:
                out.append(LintWarning(location: step.location, message:
                    "show `\(s)` replaces the whole stack (\(stack.joined(separator: " > "))) without a transition; "
                    + "push or popTo moves there as a user would"))
            case .rotate(let o) where o == orientation:
                out.append(LintWarning(location: step.location, message: "already \(o.rawValue): this rotate changes nothing"))
            default: break
            }
            if step.tapped == true, let top = stack.last, let screen = scenario.screen(top) {
                // The popped screen's back button is what a tap highlights.
                let why: String?
                if step.animated == false || step.duration == 0 { why = "the pop is not animated" }
                else if hidden[top] ?? (screen.bar.hidden == true) { why = "`\(top)`'s bar is hidden, so it has no back button" }
                else if screen.backButton?.image != nil { why = "`\(top)`'s custom back button image is not drawn highlighted (no recording shows one)" }
                else { why = nil }
                if let why {
                    out.append(LintWarning(location: step.location, message: "tapped draws nothing here: \(why)"))
                }
            }
            if case .rotate(let o) = step.action { orientation = o }
            if case .setBar(let spec, _) = step.action, let h = spec.hidden, let top = stack.last { hidden[top] = h }
            if case .scroll(let to) = step.action, let top = stack.last, scenario.screen(top)?.largeTitle == true,
               to > 0, to < extensionHeight {
                out.append(LintWarning(location: step.location, message:
                    "`\(top)`'s large title rests part collapsed here (\(to == to.rounded() ? String(Int(to)) : String(to)) of its \(Int(extensionHeight)) pt); "
                    + "a device snaps it fully open or collapsed when a drag ends, so scroll to 0 or to at least \(Int(extensionHeight)) "
                    + "unless the offset is meant to be set by code"))
            }
            if case .stack(let next) = StackRules.apply(step.action, to: stack, screen: { scenario.screen($0) }) { stack = next }
        }
        return out
    }
}
