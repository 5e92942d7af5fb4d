/// One problem in a scenario file, at a position, in a plain sentence.
public struct ScenarioIssue: Sendable, Equatable, CustomStringConvertible {
    public var location: ScenarioLocation
    public var message: String

    public init(_ location: ScenarioLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): error: \(message)" }
}

/// Every problem found in a scenario file: all are reported at once.
public struct ScenarioErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [ScenarioIssue]

    public init(_ issues: [ScenarioIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// "Did you mean" suggestions by edit distance.
public enum Suggestion {
    /// The closest candidate, if it is close enough to be a plausible typo.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let lower = word.lowercased()
        if let exact = candidates.first(where: { $0.lowercased() == lower }) { return exact }
        var best: (String, Int)?
        for c in candidates {
            let d = distance(lower, c.lowercased())
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (candidate, d) = best else { return nil }
        let allowed = max(2, min(word.count, candidate.count) / 3)
        if d <= allowed { return candidate }
        if candidate.lowercased().hasPrefix(lower) || lower.hasPrefix(candidate.lowercased()) { return candidate }
        return nil
    }

    /// UIKit's names for what the format calls otherwise, as an iOS engineer types them first:
    /// where NavReel has it. (The closest spelling misled: `barTintColor` suggested `tintColor`,
    /// the buttons' colour; an audit, 2026-11-27.)
    static let uikitNames: [String: String] = {
        let leading = "leading bar buttons are not modelled; a custom back button is `backButton: {image: …}`"
        let noBackButton = "a hidden back button is not modelled; `backButton: {displayMode: minimal}` keeps the chevron alone"
        let tint = "NavReel's `tintColor` (in `bar:` or `appearance:`)"
        let darkScheme = "a dark bar with light status bar content is the bar's `style: black`"
        let navigationTitle = "SwiftUI's navigationTitle is a screen's `title`"
        return [
        "bartintcolor": "UIKit's barTintColor is the bar's background colour: NavReel's `color` (in `bar:`, `appearance:` or `setBar:`)",
        "backgroundcolor": "the bar's background colour is NavReel's `color` (in `bar:`, `appearance:` or `setBar:`); the content's is `content: {color: …}`",
        "istranslucent": "NavReel's `translucent`",
        "preferslargetitles": "a screen's `largeTitle: true`",
        "largetitledisplaymode": "a screen's `largeTitle: true` or `false`",
        "standardappearance": "a screen's `bar:` mapping is its navigation item's standardAppearance (`appearance:` at the top is the bar's own)",
        "scrolledgeappearance": "NavReel's `scrollEdge` (in `bar:`, `appearance:` or `setBar:`: `transparent` or a mapping of bar keys)",
        "backbuttondisplaymode": "a screen key, on the screen the button goes back to, as in UIKit; or `backButton: {displayMode: …}` on the screen that shows it",
        "backbuttontitle": "a screen key, on the screen the button goes back to, as in UIKit; or `backButton: {title: …}` on the screen that shows it",
        "titletextattributes": "NavReel's `titleColor`",
        "shadowimage": "NavReel's `shadowHidden: true`",
        "shadowcolor": "NavReel's `shadowHidden: true` (the hairline's colour is UIKit's default)",
        "backgroundimage": "NavReel's `image`",
        "backgroundeffect": "NavReel's `material` (light, extraLight, dark, legacy)",
        "barstyle": "NavReel's `style` (default or black)",
        "isnavigationbarhidden": "a screen's `bar: {hidden: true}`, or a `setBar: {hidden: true, style: slide}` step",
        "navigationbarhidden": "a screen's `bar: {hidden: true}`, or a `setBar: {hidden: true, style: slide}` step",
        "setnavigationbarhidden": "a `setBar: {hidden: true, style: slide}` step, or `hidden: true` in a bar",
        "backbarbuttonitem": "a screen's `backButton: {title: …, image: …}`",
        "rightbarbuttonitems": "a screen's `rightItems: [Edit]`",
        "rightbarbuttonitem": "a screen's `rightItems: [Edit]`",
        "leftbarbuttonitems": leading,
        "leftbarbuttonitem": leading,
        "leftitems": leading,
        "leadingitems": leading,
        "trailingitems": "a screen's `rightItems: [Edit]`",
        "hidesbackbutton": noBackButton,
        "tint": tint,
        "accentcolor": tint,
        "background": "the bar's background colour is NavReel's `color` (in `bar:`); the content's is `content: {color: …}`",
        // SwiftUI's modifiers (docs/scenario-format.md, "From SwiftUI").
        "navigationtitle": navigationTitle,
        "navigationbartitle": navigationTitle,
        "navigationbartitledisplaymode": "a screen's `largeTitle: true` for .large, `false` for .inline",
        "toolbarbackground": "SwiftUI's toolbarBackground colour is the bar's `color` with `translucent: false` (drawn exactly, as SwiftUI does); "
            + "`.hidden` is `alpha: 0`; see docs/scenario-format.md, \"From SwiftUI\"",
        "toolbarbackgroundvisibility": "SwiftUI's toolbarBackground colour is the bar's `color` with `translucent: false`; `.hidden` is `alpha: 0`",
        "toolbarcolorscheme": "SwiftUI's toolbarColorScheme(.dark) is the bar's `style: black` (light status bar), with `titleColor` for the title",
        "colorscheme": darkScheme,
        "preferredcolorscheme": darkScheme,
        "toolbar": "SwiftUI's trailing toolbar items are a screen's `rightItems: [Edit]`; `.toolbar(.hidden, for: .navigationBar)` is "
            + "`bar: {hidden: true}` with `barTransition: crossFade` (see docs/scenario-format.md, \"From SwiftUI\")",
        "toolbarvisibility": "`.toolbar(.hidden, for: .navigationBar)` is `bar: {hidden: true}` with `barTransition: crossFade`",
        "navigationbarbackbuttonhidden": noBackButton,
        "toolbarrole": "SwiftUI's toolbarRole(.editor) is `backButton: {displayMode: minimal}` on the screen that shows it",
        "searchable": "a search field in the bar is not modelled (docs/scenario-format.md, \"From SwiftUI\")",
        ]
    }()

    /// Values of `style` as UIKit and SwiftUI name what NavReel calls `default` and `black`.
    public static let barStyleNames: [String: String] = [
        "dark": "a dark bar with light status bar content is `black`",
        "lightcontent": "UIKit's .lightContent status bar is `black`",
        "darkcontent": "UIKit's .darkContent status bar is `default`",
        "light": "a light bar with dark status bar content is `default`",
    ]

    /// " (UIKit's ... is ...)" for a UIKit name, else nil.
    public static func uikitHint(_ word: String) -> String? {
        uikitNames[word.lowercased()].map { " (\($0))" }
    }

    /// " (did you mean `x`?)" or "".
    public static func hint(_ word: String, _ candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean `\($0)`?)" } ?? ""
    }

    /// Levenshtein distance with transpositions counted as one edit (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
