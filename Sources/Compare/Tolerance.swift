/// How much a frame may differ from its baseline. The defaults are the strict ones for frames
/// NavReel rendered itself (COMPARISON.md, "rendered" profile); `.captured` has pixelmatch's
/// defaults for images captured elsewhere.
public struct Tolerance: Sendable, Equatable, Codable {
    /// A pixel is equal when every channel differs by at most this many levels (0...255).
    public var channel: Int
    /// YIQ perceptual threshold (0...1), as pixelmatch's `threshold`; 0 turns the rule off.
    public var perceptual: Double
    /// Forgive anti-aliased edge pixels (Vyšniauskas 2009, as pixelmatch detects them).
    public var antialiasing: Bool
    /// Levels forgiven at translucency weight 1 (scaled by the pixel's weight, 0...255).
    public var translucency: Int
    /// Forgive pixels inside the range of baseline frames k-1...k+1 (for captured sequences).
    public var temporal: Bool
    /// A frame fails when its mismatched pixels exceed this count...
    public var maxDiffPixels: Int
    /// ...or this fraction of its pixels (0...1).
    public var maxDiffRatio: Double

    public init(channel: Int = 0, perceptual: Double = 0, antialiasing: Bool = false, translucency: Int = 64,
                temporal: Bool = false, maxDiffPixels: Int = 0, maxDiffRatio: Double = 0) {
        self.channel = channel
        self.perceptual = perceptual
        self.antialiasing = antialiasing
        self.translucency = translucency
        self.temporal = temporal
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
    }

    /// Frames NavReel rendered: deterministic, so any difference is real unless a rule says so.
    public static let rendered = Tolerance()
    /// Images captured elsewhere: pixelmatch's defaults (threshold 0.1, anti-aliasing detection on).
    public static let captured = Tolerance(perceptual: 0.1, antialiasing: true, translucency: 0)

    /// The per-pixel part of the tolerance.
    public var pixelRule: PixelRule {
        PixelRule(channel: channel, perceptual: perceptual, antialiasing: antialiasing,
                  translucency: translucency, temporal: temporal, ignore: false)
    }

    /// Checks ranges; returns a sentence per problem.
    public func problems() -> [String] {
        var out: [String] = []
        if !(0...255).contains(channel) { out.append("channel must be 0...255, not \(channel)") }
        if !(0...1).contains(perceptual) { out.append("perceptual must be 0...1, not \(perceptual)") }
        if !(0...255).contains(translucency) { out.append("translucency must be 0...255, not \(translucency)") }
        if maxDiffPixels < 0 { out.append("maxDiffPixels must not be negative") }
        if !(0...1).contains(maxDiffRatio) { out.append("maxDiffRatio must be 0...1, not \(maxDiffRatio)") }
        return out
    }
}

/// Tolerance values set on top of others (command-line flags over a scenario's `tolerance`
/// block over a profile): only the fields that are set change.
public struct ToleranceOverrides: Sendable, Equatable {
    public var channel: Int?
    public var perceptual: Double?
    public var antialiasing: Bool?
    public var translucency: Int?
    public var temporal: Bool?
    public var maxDiffPixels: Int?
    public var maxDiffRatio: Double?
    public var metric: ComparisonSettings.Metric?
    public init() {}

    public func apply(to t: inout Tolerance) {
        if let v = channel { t.channel = v }
        if let v = perceptual { t.perceptual = v }
        if let v = antialiasing { t.antialiasing = v }
        if let v = translucency { t.translucency = v }
        if let v = temporal { t.temporal = v }
        if let v = maxDiffPixels { t.maxDiffPixels = v }
        if let v = maxDiffRatio { t.maxDiffRatio = v }
    }
}

/// The rules that decide one pixel.
public struct PixelRule: Sendable, Equatable, Hashable {
    public var channel: Int
    public var perceptual: Double
    public var antialiasing: Bool
    public var translucency: Int
    public var temporal: Bool
    public var ignore: Bool

    /// The stricter of two rules, field by field. Used where the baseline's and the frame's
    /// element maps disagree, so that a regression can never loosen its own tolerance.
    public func stricter(_ other: PixelRule) -> PixelRule {
        PixelRule(channel: min(channel, other.channel), perceptual: min(perceptual, other.perceptual),
                  antialiasing: antialiasing && other.antialiasing, translucency: min(translucency, other.translucency),
                  temporal: temporal && other.temporal, ignore: ignore && other.ignore)
    }

    public func applying(_ o: RuleOverride) -> PixelRule {
        PixelRule(channel: o.channel ?? channel, perceptual: o.perceptual ?? perceptual,
                  antialiasing: o.antialiasing ?? antialiasing, translucency: o.translucency ?? translucency,
                  temporal: o.temporal ?? temporal, ignore: o.ignore ?? ignore)
    }
}

/// A partial tolerance for an element or a region: only the fields it sets change.
public struct RuleOverride: Sendable, Equatable, Hashable, Codable {
    public var channel: Int?
    public var perceptual: Double?
    public var antialiasing: Bool?
    public var translucency: Int?
    public var temporal: Bool?
    public var ignore: Bool?

    public init(channel: Int? = nil, perceptual: Double? = nil, antialiasing: Bool? = nil,
                translucency: Int? = nil, temporal: Bool? = nil, ignore: Bool? = nil) {
        self.channel = channel
        self.perceptual = perceptual
        self.antialiasing = antialiasing
        self.translucency = translucency
        self.temporal = temporal
        self.ignore = ignore
    }

    public static let ignored = RuleOverride(ignore: true)
}

/// A rectangle in pixels.
public struct PixelRect: Sendable, Equatable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    @inline(__always)
    public func contains(_ px: Int, _ py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

/// A tolerance that applies inside a rectangle, whatever element is there.
public struct Region: Sendable, Equatable, Codable {
    public var rect: PixelRect
    public var rule: RuleOverride

    public init(rect: PixelRect, rule: RuleOverride) {
        self.rect = rect
        self.rule = rule
    }
}

/// Everything that decides a comparison besides the images.
public struct ComparisonSettings: Sendable, Equatable {
    public enum Metric: String, Sendable, Equatable, CaseIterable {
        /// NavReel's rules, in the order of COMPARISON.md.
        case navreel
        /// Exactly what the reference pixelmatch counts (threshold = `perceptual`, includeAA =
        /// `!antialiasing`); translucency, timing, elements and regions do not apply.
        case pixelmatch
    }

    public var tolerance: Tolerance
    /// Overrides per element id (ids come from the element maps).
    public var elements: [UInt8: RuleOverride]
    /// Overrides per rectangle; later regions win over earlier ones and over elements.
    public var regions: [Region]
    public var metric: Metric

    public init(tolerance: Tolerance = .rendered, elements: [UInt8: RuleOverride] = [:], regions: [Region] = [],
                metric: Metric = .navreel) {
        self.tolerance = tolerance
        self.elements = elements
        self.regions = regions
        self.metric = metric
    }
}
