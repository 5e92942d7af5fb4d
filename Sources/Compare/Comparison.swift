import Raster

/// How many pixels each rule decided. Every pixel is counted exactly once, under the first rule
/// (in COMPARISON.md's order) that forgave it, or as mismatched.
public struct RuleCounts: Sendable, Equatable, Codable {
    public var equal = 0
    public var perceptual = 0
    public var antialiasing = 0
    public var translucency = 0
    public var timing = 0
    public var ignored = 0
    public var mismatched = 0

    public init() {}

    public var total: Int { equal + perceptual + antialiasing + translucency + timing + ignored + mismatched }
    public var forgiven: Int { perceptual + antialiasing + translucency + timing + ignored }

    mutating func add(_ o: RuleCounts) {
        equal += o.equal
        perceptual += o.perceptual
        antialiasing += o.antialiasing
        translucency += o.translucency
        timing += o.timing
        ignored += o.ignored
        mismatched += o.mismatched
    }
}

/// Mismatched pixels of one element and where they are.
public struct ElementMismatch: Sendable, Equatable, Codable {
    public var id: UInt8
    public var name: String
    public var pixels: Int
    public var box: PixelRect
    public init(id: UInt8, name: String, pixels: Int, box: PixelRect) {
        self.id = id
        self.name = name
        self.pixels = pixels
        self.box = box
    }
}

/// The result of comparing one image with its baseline, with the evidence for its verdict.
public struct Comparison: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Set when the sizes differ; then nothing else was compared and the frame fails.
    public var sizeMismatch: (expected: Size, actual: Size)?
    public var counts = RuleCounts()
    /// Largest difference of any channel of any pixel.
    public var maxChannelDelta = 0
    /// Largest difference of any channel among mismatched pixels.
    public var maxMismatchDelta = 0
    /// Bounding box of all mismatched pixels.
    public var mismatchBox: PixelRect?
    /// Mismatches by element, most pixels first (needs element maps). A pixel where the two maps
    /// name different elements counts for both.
    public var elements: [ElementMismatch] = []
    /// The budget the verdict was judged against.
    public var allowedMismatches = 0
    public var metric: ComparisonSettings.Metric = .navreel

    public struct Size: Sendable, Equatable, Codable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public var passed: Bool { sizeMismatch == nil && counts.mismatched <= allowedMismatches }
    public var identical: Bool { sizeMismatch == nil && counts.equal == width * height && maxChannelDelta == 0 }

    public static func == (l: Comparison, r: Comparison) -> Bool {
        l.width == r.width && l.height == r.height && l.sizeMismatch?.expected == r.sizeMismatch?.expected
            && l.sizeMismatch?.actual == r.sizeMismatch?.actual && l.counts == r.counts
            && l.maxChannelDelta == r.maxChannelDelta && l.maxMismatchDelta == r.maxMismatchDelta
            && l.mismatchBox == r.mismatchBox && l.elements == r.elements && l.allowedMismatches == r.allowedMismatches
            && l.metric == r.metric
    }

    /// One sentence for people.
    public var summary: String {
        if let s = sizeMismatch {
            return "size changed: expected \(s.expected.width)x\(s.expected.height), actual \(s.actual.width)x\(s.actual.height)"
        }
        let total = width * height
        var parts: [String] = []
        if counts.mismatched == 0 && counts.forgiven == 0 && maxChannelDelta == 0 {
            return "identical (\(total) pixels)"
        }
        parts.append("\(counts.mismatched) of \(total) pixels mismatched" +
                     (allowedMismatches > 0 ? " (budget \(allowedMismatches))" : ""))
        let forgiven = [("perceptual", counts.perceptual), ("anti-aliasing", counts.antialiasing),
                        ("translucency", counts.translucency), ("timing", counts.timing), ("ignored", counts.ignored)]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        if !forgiven.isEmpty { parts.append("forgiven: " + Self.list(forgiven, ", ")) }
        if counts.equal < total, channelForgiven > 0 { parts.append("\(channelForgiven) within the channel tolerance") }
        parts.append("largest channel difference \(maxChannelDelta)")
        if let box = mismatchBox { parts.append("mismatches in x \(box.x)...\(box.x + box.width - 1), y \(box.y)...\(box.y + box.height - 1)") }
        if !elements.isEmpty {
            // A pixel whose element changed counts for both (a title moved over the bar background),
            // so these can add up to more than the mismatched total: the words say so.
            parts.append("in either frame's elements: " + Self.list(elements.prefix(4).map { "\($0.name) \($0.pixels)" }, ", "))
        }
        return Self.list(parts, "; ")
    }

    /// `strings.joined(separator:)` without it: the standard library's generic `joined` looked
    /// up an associated type witness at run time, a sixth of a diff of two 1x1 files (callgrind,
    /// issue 17), for a summary printed once.
    static func list(_ strings: [String], _ separator: String) -> String {
        var text = ""
        for (k, s) in strings.enumerated() {
            if k > 0 { text += separator }
            text += s
        }
        return text
    }

    /// Equal pixels that were not byte-identical (forgiven by `channel`); kept apart for the summary.
    public var channelForgiven = 0
}
