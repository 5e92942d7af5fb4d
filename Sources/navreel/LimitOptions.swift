import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// `--jobs`: at least one, and no more threads than any machine NavReel runs on could use (a
/// mistyped 100000 would start that many threads). Nil keeps the default, one per core.
func checkedJobs(_ jobs: Int?) throws -> Int {
    guard let jobs else { return ImageComparator.defaultJobs }
    guard (1...maxJobs).contains(jobs) else { throw ValidationError("--jobs takes 1 to \(maxJobs), not \(jobs)") }
    return jobs
}

let maxJobs = 1024

/// The run limits of docs/limits.md, raisable per run.
struct LimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Most frames of one scenario on one device (default \(RunLimits.default.maxFrames)).")
    var maxFrames: Int?

    @Option(parsing: .unconditional, help: "Most pixels of one frame (default \(RunLimits.default.maxFramePixels)).")
    var maxFramePixels: Int?

    @Option(parsing: .unconditional, help: "Most pixels rendered by the whole run, frames × pixels (default \(RunLimits.default.maxRunPixels)).")
    var maxRunPixels: Int?

    func limits() throws -> RunLimits {
        var l = RunLimits.default
        for (name, value) in [("--max-frames", maxFrames), ("--max-frame-pixels", maxFramePixels), ("--max-run-pixels", maxRunPixels)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1, not \(value)") }
        }
        if let v = maxFrames { l.maxFrames = v }
        if let v = maxFramePixels { l.maxFramePixels = v }
        if let v = maxRunPixels { l.maxRunPixels = v }
        return l
    }
}
