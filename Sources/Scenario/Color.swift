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
