/// What a step does to the navigation stack: one set of rules shared by `navreel lint` (which
/// reports the impossible steps where they are written) and the timeline (which animates the
/// possible ones), so the two can never disagree.
public enum StackChange: Equatable, Sendable {
    /// The stack after the step (which may equal the one before, e.g. a cancelled swipe).
    case stack([String])
    /// The top screen refuses the step (backInteractive: false, swipeBack: false): nothing moves.
    case refused
    /// The step cannot happen here; the sentence says why.
    case invalid(String)
}

public enum StackRules {
    /// `fingerDown`: where a `swipeBack` with `release: hold` left the finger down, if one did
    /// (nil: no finger is down). While it is, a swipe is in progress: only `swipeBack` (dragging
    /// on) and `wait` (holding still) can happen.
    public static func apply(_ action: Action, to stack: [String], fingerDown: ScenarioLocation? = nil,
                             screen: (String) -> ScreenSpec?) -> StackChange {
        let top = stack.last.flatMap(screen)
        if let held = fingerDown {
            switch action {
            case .swipeBack, .wait: break
            default:
                let at = held.line > 0 ? " at line \(held.line)" : ""
                return .invalid("`\(action.keyword)` while the finger is still down (the swipeBack\(at) has `release: hold`): "
                    + "only `swipeBack` (dragging on) or `wait` can follow until a swipeBack lifts it with `release: finish` or `cancel`")
            }
        }
        switch action {
        case .show(let s):
            return .stack([s])
        case .push(let s):
            if stack.isEmpty { return .invalid("push before any screen is shown: start with `show`") }
            if stack.contains(s) {
                return .invalid("`\(s)` is already on the stack; a screen can be pushed once. To push another like it (a NavigationStack "
                                + "pushing the same view again), give the copy its own name with a YAML anchor: `\(s): &\(s) {…}`, then "
                                + "`\(s)-2: *\(s)` under screens")
            }
            return .stack(stack + [s])
        case .pop:
            if stack.count < 2 { return .invalid("nothing to pop: the stack holds \(stack.isEmpty ? "no screen" : "only `\(stack[0])`")") }
            // The back button: refused by a screen with backInteractive: false (HBD).
            if top?.backInteractive == false { return .refused }
            return .stack(Array(stack.dropLast()))
        case .popTo(let s):
            guard let k = stack.firstIndex(of: s) else { return .invalid("`\(s)` is not on the stack (\(stack.joined(separator: " > ")))") }
            if k == stack.count - 1 { return .invalid("`\(s)` is already the top screen") }
            return .stack(Array(stack.prefix(k + 1)))   // programmatic: not refused
        case let .swipeBack(to, release):
            if stack.count < 2 { return .invalid("nothing to swipe back to") }
            if top?.swipeBack == false || top?.backInteractive == false { return .refused }
            return .stack(finishes(to: to, release: release) ? Array(stack.dropLast()) : stack)
        case .scroll, .setBar, .wait, .rotate:
            if stack.isEmpty { return .invalid("`\(action.keyword)` before any screen is shown: start with `show`") }
            return .stack(stack)
        }
    }

    /// A released swipe finishes when told to, or past halfway (UIKit's rule). A held one has
    /// not finished (the stack stays until a later swipeBack releases it).
    public static func finishes(to: Double, release: Release?) -> Bool {
        release.map { $0 == .finish } ?? (to > 0.5)
    }

    /// Whether a step leaves the finger down: a swipeBack with `release: hold` (when the top screen
    /// allows it, which `apply` decides).
    public static func holds(_ action: Action) -> Bool {
        if case .swipeBack(_, .hold?) = action { return true }
        return false
    }
}
