import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// The tolerance flags of CLI.md, shared by every comparing command.
struct ToleranceOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "YIQ perceptual threshold, 0...1 (0 turns the rule off).")
    var perceptual: Double?

    @Option(parsing: .unconditional, help: "Levels (0...255) by which each channel may differ and still count as equal.")
    var channel: Int?

    @Option(parsing: .unconditional, help: "Levels (0...255) forgiven at full translucency weight (needs NavReel's maps in both files).")
    var translucency: Int?

    @Option(name: .customLong("max-diff-pixels"), parsing: .unconditional, help: "Mismatched pixels allowed per frame.")
    var maxDiffPixels: Int?

    @Option(name: .customLong("max-diff-ratio"), parsing: .unconditional, help: "Fraction (0...1) of a frame's pixels allowed to mismatch.")
    var maxDiffRatio: Double?

    @Flag(inversion: .prefixedNo, help: "Forgive anti-aliased edge pixels.")
    var antialiasing: Bool?

    @Option(help: "navreel (NavReel's rules, the default) or pixelmatch (exactly pixelmatch's count for --perceptual and anti-aliasing).")
    var metric: ComparisonSettings.Metric?

    /// The flags that were given, as overrides (the metric checked).
    func overrides() throws -> ToleranceOverrides {
        var o = ToleranceOverrides()
        o.channel = channel
        o.perceptual = perceptual
        o.antialiasing = antialiasing
        o.translucency = translucency
        o.maxDiffPixels = maxDiffPixels
        o.maxDiffRatio = maxDiffRatio
        o.metric = metric
        return o
    }

    /// Applies the flags over a profile's defaults; out-of-range values are usage errors.
    func settings(profile: Tolerance) throws -> ComparisonSettings {
        try Self.settings(overrides(), profile: profile)
    }

    /// Out-of-range flag values, each named by its flag: `Tolerance.problems` names the
    /// settings' keys (`maxDiffRatio must be 0...1`), which a command line does not show (an
    /// audit, 2026-11-29).
    static func flagProblems(_ o: ToleranceOverrides) -> [String] {
        var t = Tolerance.captured   // in range: any problem is a flag's
        o.apply(to: &t)
        let flags = [("maxDiffPixels", "--max-diff-pixels"), ("maxDiffRatio", "--max-diff-ratio"), ("perceptual", "--perceptual"),
                     ("channel", "--channel"), ("translucency", "--translucency")]
        return t.problems().map { p in
            flags.first { p.hasPrefix($0.0 + " ") }.map { $0.1 + p.dropFirst($0.0.count) } ?? p
        }
    }

    /// The same for overrides read elsewhere (`DiffRequest.quickParse`).
    static func settings(_ o: ToleranceOverrides, profile: Tolerance) throws -> ComparisonSettings {
        let wrong = flagProblems(o)
        guard wrong.isEmpty else { throw ValidationError(wrong.joined(separator: "; ")) }
        var t = profile
        o.apply(to: &t)
        let problems = t.problems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
        return ComparisonSettings(tolerance: t, metric: o.metric ?? .navreel)
    }
}
