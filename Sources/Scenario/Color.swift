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
            "white": .white, "black": .black, "red": ScenarioColor(255, 0, 0), "green": ScenarioColor(0, 255, 0),
            "blue": ScenarioColor(0, 0, 255), "clear": ScenarioColor(0, 0, 0, 0), "transparent": ScenarioColor(0, 0, 0, 0),
            "systemblue": .systemBlue,
        ]
        if let c = names[lower] { return c.description }
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
