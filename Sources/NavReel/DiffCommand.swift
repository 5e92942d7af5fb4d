import Raster
import Compare

/// `navreel diff A B`, as a library call the command line and tests share.
public struct PairDiff: Sendable {
    public enum Outcome: Sendable, Equatable {
        case identical
        case different(PixelDifference)
        case sizeMismatch(expected: (Int, Int), actual: (Int, Int))

        public static func == (l: Outcome, r: Outcome) -> Bool {
            switch (l, r) {
            case (.identical, .identical): return true
            case let (.different(a), .different(b)): return a == b
            case let (.sizeMismatch(a, b), .sizeMismatch(c, d)): return a == c && b == d
            default: return false
            }
        }
    }

    public let expectedPath: String
    public let actualPath: String
    public let outcome: Outcome

    /// Reads both files (each error names its file) and compares them. Identical files are
    /// recognised from their bytes without decoding.
    public static func run(expected: String, actual: String, limits: PNGLimits = .default) throws(PNGError) -> PairDiff {
        let a = try FileBytes.read(path: expected, limit: limits.maxFileBytes)
        let b = try FileBytes.read(path: actual, limit: limits.maxFileBytes)
        if a == b {
            // Still validate: identical garbage is not a pass.
            _ = try PNG.decode(a, source: expected, limits: limits)
            return PairDiff(expectedPath: expected, actualPath: actual, outcome: .identical)
        }
        let ia = try PNG.decode(a, source: expected, limits: limits).image
        let ib = try PNG.decode(b, source: actual, limits: limits).image
        guard ia.width == ib.width && ia.height == ib.height else {
            return PairDiff(expectedPath: expected, actualPath: actual,
                            outcome: .sizeMismatch(expected: (ia.width, ia.height), actual: (ib.width, ib.height)))
        }
        let d = PixelDifference(ia, ib)
        return PairDiff(expectedPath: expected, actualPath: actual, outcome: d.identical ? .identical : .different(d))
    }

    /// One line for people.
    public var summary: String {
        switch outcome {
        case .identical:
            return "identical: 0 pixels differ"
        case .different(let d):
            let percent = Double(d.differing) * 100 / Double(max(1, d.width * d.height))
            return "different: \(d.differing) of \(d.width * d.height) pixels differ (\(formatPercent(percent))), largest channel difference \(d.maxChannelDelta)"
        case let .sizeMismatch(e, a):
            return "different: sizes differ, expected \(e.0)x\(e.1), actual \(a.0)x\(a.1)"
        }
    }

    public var passed: Bool { outcome == .identical }
}

func formatPercent(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return "\(scaled)%"
}
