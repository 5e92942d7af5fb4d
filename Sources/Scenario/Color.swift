/// A colour from a scenario file: `"#RRGGBB"` or `"#RRGGBBAA"`, straight alpha.
public struct ScenarioColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive).
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = Array(hex.utf8.dropFirst())
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var values: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let hi = Self.nibble(digits[i]), let lo = Self.nibble(digits[i + 1]) else { return nil }
            values.append(hi << 4 | lo)
        }
        self.init(values[0], values[1], values[2], values.count == 4 ? values[3] : 255)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }

    /// The "#RRGGBB" (or "#RRGGBBAA") a user most likely meant by a colour NavReel does not read:
    /// CSS's short hex ("#FFF", "#F008"), hex without its "#", a few colour names, and rgb() /
    /// rgba() with 0...255 channels and an alpha of 0...1; nil when there is no single reading.
    public static func suggestion(for text: String) -> String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let lower = t.lowercased()
        let names: [String: ScenarioColor] = [
            "white": .white, "black": .black, "clear": ScenarioColor(0, 0, 0, 0), "transparent": ScenarioColor(0, 0, 0, 0),
        ]
        if let c = names[lower] { return c.description }
        if lower.hasPrefix("0x"), t.count == 8 || t.count == 10, let c = ScenarioColor(hex: "#" + t.dropFirst(2)) { return c.description }
        let hex = t.hasPrefix("#") ? String(t.dropFirst()) : t
        // Without its "#", a hex string reads as a colour only with a digit in it or in capitals
        // ("FFF", "ff0000"): "bad" and "beef" are words, not #BBAADD and #BBEEEE.
        if !t.hasPrefix("#") && !(hex.contains(where: \.isNumber) || hex == hex.uppercased()) { return nil }
        if hex.count == 3 || hex.count == 4, hex.allSatisfy(\.isHexDigit) {
            return ScenarioColor(hex: "#" + hex.map { "\($0)\($0)" }.joined())?.description
        }
        if !t.hasPrefix("#"), hex.count == 6 || hex.count == 8, let c = ScenarioColor(hex: "#" + hex) { return c.description }
        if let m = lower.wholeMatch(of: /rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([0-9]*\.?[0-9]+)\s*)?\)/),
           let r = UInt8(m.1), let g = UInt8(m.2), let b = UInt8(m.3) {
            var alpha: Double = 1
            if let a = m.4 { guard let v = Double(a), (0...1).contains(v) else { return nil }; alpha = v }
            return ScenarioColor(r, g, b).withAlpha(alpha).description
        }
        return nil
    }

    /// iOS's system colours in the light appearance, which SwiftUI's `Color.red`... and UIKit's
    /// `UIColor.systemRed`... are (Apple's Human Interface Guidelines, "Color", the system colours'
    /// default light values; systemGray2...6 from UIKit's system colours).
    static let systemColors: [String: ScenarioColor] = [
        "red": ScenarioColor(255, 59, 48), "orange": ScenarioColor(255, 149, 0), "yellow": ScenarioColor(255, 204, 0),
        "green": ScenarioColor(52, 199, 89), "mint": ScenarioColor(0, 199, 190), "teal": ScenarioColor(48, 176, 199),
        "cyan": ScenarioColor(50, 173, 230), "blue": .systemBlue, "indigo": ScenarioColor(88, 86, 214),
        "purple": ScenarioColor(175, 82, 222), "pink": ScenarioColor(255, 45, 85), "brown": ScenarioColor(162, 132, 94),
        "gray": ScenarioColor(142, 142, 147), "gray2": ScenarioColor(174, 174, 178), "gray3": ScenarioColor(199, 199, 204),
        "gray4": ScenarioColor(209, 209, 214), "gray5": ScenarioColor(229, 229, 234), "gray6": ScenarioColor(242, 242, 247),
    ]
    /// The names SwiftUI's `Color` has for them (no gray2...6).
    static let swiftUINames: Set<String> = ["red", "orange", "yellow", "green", "mint", "teal", "cyan", "blue", "indigo",
                                            "purple", "pink", "brown", "gray"]
    /// UIKit's UI element colours that a bar or content is most often given, light appearance.
    static let elementColors: [String: (name: String, color: ScenarioColor)] = [
        "systembackground": ("systemBackground", .white), "secondarysystembackground": ("secondarySystemBackground", ScenarioColor(242, 242, 247)),
        "tertiarysystembackground": ("tertiarySystemBackground", .white),
        "systemgroupedbackground": ("systemGroupedBackground", ScenarioColor(242, 242, 247)),
        "secondarysystemgroupedbackground": ("secondarySystemGroupedBackground", .white), "label": ("label", .black),
    ]
    /// UIKit's fixed colours (`UIColor.red` is 1, 0, 0: UIColor's documentation gives each one's
    /// components), which are not the system colours of the same name.
    static let uikitFixedColors: [String: (name: String, color: ScenarioColor)] = [
        "red": ("red", ScenarioColor(255, 0, 0)), "green": ("green", ScenarioColor(0, 255, 0)), "blue": ("blue", ScenarioColor(0, 0, 255)),
        "orange": ("orange", ScenarioColor(255, 128, 0)), "yellow": ("yellow", ScenarioColor(255, 255, 0)),
        "purple": ("purple", ScenarioColor(128, 0, 128)), "brown": ("brown", ScenarioColor(153, 102, 51)),
        "gray": ("gray", ScenarioColor(128, 128, 128)), "cyan": ("cyan", ScenarioColor(0, 255, 255)),
        "magenta": ("magenta", ScenarioColor(255, 0, 255)), "darkgray": ("darkGray", ScenarioColor(85, 85, 85)),
        "lightgray": ("lightGray", ScenarioColor(170, 170, 170)),
    ]

    /// " (did you mean "#RRGGBB"?)" for a colour NavReel does not read, naming which of iOS's
    /// colours a SwiftUI or UIKit name is (`Color.red`, `.systemRed`, `UIColor.red`, `.clear`: the
    /// bare name `red` gets both readings); "" when there is no reading.
    public static func hint(for text: String) -> String {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("()") { t.removeLast(2) }
        var platform = ""
        for prefix in ["Color.", "UIColor.", "."] where t.hasPrefix(prefix) {
            platform = prefix
            t.removeFirst(prefix.count)
            break
        }
        let lower = t.lowercased()
        let quoted = { (c: ScenarioColor) in "\"\(c.description)\"" }
        if let e = elementColors[lower] { return " (did you mean \(quoted(e.color))? UIKit's .\(e.name) in the light appearance)" }
        let system = lower.hasPrefix("system") && lower.count > 6
        let name = system ? String(lower.dropFirst(6)) : lower
        let uikitName = "system" + name.prefix(1).uppercased() + name.dropFirst()   // systemRed, systemGray6
        let swiftUI = swiftUINames.contains(name) ? ", SwiftUI's Color.\(name)" : ""
        let systemColor = systemColors[name], fixed = system ? nil : uikitFixedColors[name]
        switch (systemColor, fixed, platform) {
        case let (s?, _, "Color.") where !system && swiftUI != "":
            return " (did you mean \(quoted(s))? SwiftUI's Color.\(name) is iOS's \(uikitName) in the light appearance)"
        case let (s, f?, "UIColor."):
            return " (did you mean \(quoted(f.color))? UIKit's UIColor.\(f.name) is fixed\(s.map { "; its .\(uikitName) is \(quoted($0))" } ?? ""))"
        case let (s?, f?, _) where !system:
            return " (did you mean \(quoted(s)), iOS's \(uikitName) (UIKit's .\(uikitName)\(swiftUI)), or \(quoted(f.color)), UIKit's fixed UIColor.\(f.name)?)"
        case let (s?, _, _):
            return " (did you mean \(quoted(s))? iOS's \(uikitName) (UIKit's .\(uikitName)\(swiftUI)) in the light appearance)"
        case let (nil, f?, _):
            return " (did you mean \(quoted(f.color))? UIKit's UIColor.\(f.name))"
        default:
            // `.clear`, `Color.white`: the name without its prefix.
            return (suggestion(for: t) ?? suggestion(for: text)).map { " (did you mean \"\($0)\"?)" } ?? ""
        }
    }

    /// Alpha as a fraction.
    public var alpha: Double { Double(a) / 255 }

    /// The colour with another alpha (0...1).
    public func withAlpha(_ alpha: Double) -> ScenarioColor {
        ScenarioColor(r, g, b, UInt8((min(1, max(0, alpha)) * 255).rounded()))
    }

    /// Linear interpolation per channel (t = 0 gives self, 1 gives other), rounded to the nearest level.
    public func mixed(with other: ScenarioColor, _ t: Double) -> ScenarioColor {
        // Clamped: an overshooting curve (y outside 0...1) or NaN must not trap the conversion.
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let v = (Double(a) + (Double(b) - Double(a)) * t).rounded()
            return v.isNaN ? a : UInt8(min(255, max(0, v)))
        }
        return ScenarioColor(mix(r, other.r), mix(g, other.g), mix(b, other.b), mix(a, other.a))
    }

    public var description: String {
        let parts = a == 255 ? [r, g, b] : [r, g, b, a]
        return "#" + parts.map { v in
            let s = String(v, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }

    public static let white = ScenarioColor(255, 255, 255)
    public static let black = ScenarioColor(0, 0, 0)
    public static let systemBlue = ScenarioColor(0, 122, 255)   // iOS default tint (#007AFF)
}
