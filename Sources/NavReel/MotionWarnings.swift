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
    public static func warnings(_ scenario: Scenario) -> [LintWarning] {
        var out: [LintWarning] = []
        var stack: [String] = []
        for step in scenario.steps {
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
