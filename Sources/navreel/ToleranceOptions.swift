import ArgumentParser
import NavReel

/// The tolerance flags of CLI.md, shared by every comparing command.
struct ToleranceOptions: ParsableArguments {
    @Option(help: "YIQ perceptual threshold, 0...1 (0 turns the rule off).")
    var perceptual: Double?

    @Option(help: "Levels (0...255) by which each channel may differ and still count as equal.")
    var channel: Int?

    @Option(help: "Levels (0...255) forgiven at full translucency weight (needs NavReel's maps in both files).")
    var translucency: Int?

    @Option(name: .customLong("max-diff-pixels"), help: "Mismatched pixels allowed per frame.")
    var maxDiffPixels: Int?

    @Option(name: .customLong("max-diff-ratio"), help: "Fraction (0...1) of a frame's pixels allowed to mismatch.")
    var maxDiffRatio: Double?

    @Flag(inversion: .prefixedNo, help: "Forgive anti-aliased edge pixels.")
    var antialiasing: Bool?

    @Option(help: "navreel (NavReel's rules) or pixelmatch (exactly pixelmatch's count for --perceptual and anti-aliasing).")
    var metric: String = "navreel"

    /// Applies the flags over a profile's defaults.
    func settings(profile: Tolerance) throws -> ComparisonSettings {
        var t = profile
        if let perceptual { t.perceptual = perceptual }
        if let channel { t.channel = channel }
        if let translucency { t.translucency = translucency }
        if let maxDiffPixels { t.maxDiffPixels = maxDiffPixels }
        if let maxDiffRatio { t.maxDiffRatio = maxDiffRatio }
        if let antialiasing { t.antialiasing = antialiasing }
        let problems = t.problems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
        guard let m = ComparisonSettings.Metric(rawValue: metric) else {
            throw ValidationError("--metric takes navreel or pixelmatch, not \(metric)")
        }
        return ComparisonSettings(tolerance: t, metric: m)
    }
}
