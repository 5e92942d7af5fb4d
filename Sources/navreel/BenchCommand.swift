import ArgumentParser
import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Print throughput figures of NavReel's own parts (see scripts/bench-diff for peers).",
        subcommands: [CanvasBench.self, PaintBench.self, CheckBench.self]
    )

    struct CanvasBench: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "canvas", abstract: "Megapixels per second of the canvas primitives.")

        @Option(parsing: .unconditional, help: "Repetitions; the best time counts.")
        var repeats = 5

        mutating func run() throws {
            try benchCount(repeats, "--repeats")
            for f in try CanvasBenchmark.run(repeats: repeats) {
                let mps = (f.megapixelsPerSecond * 10).rounded() / 10
                let ms = (f.seconds * 10_000).rounded() / 10
                print("\(f.name): \(mps) MP/s (\(ms) ms for \((f.megapixels * 100).rounded() / 100) MP)")
            }
            print("peak RSS \(CheckBench.mebibytes(CheckBench.peakRSS())) MiB")
        }
    }

    /// Issue 16: a check holds a few frames per job, never the suite; this prints the peak RSS
    /// of a whole check so that the claim is measured, and fails over `--max-rss-mb`.
    struct CheckBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Time, CPU and peak memory (RSS) of checking the bundled suite against Baselines/, twice (nothing is written but a scratch report).")

        @Option(parsing: .unconditional, help: "Parallel jobs.")
        var jobs = 2

        @Option(help: "Scenario folder.")
        var scenarios = "Fixtures/scenarios"

        @Option(help: "Baseline folder.")
        var baselines = "Baselines"

        @Option(name: .customLong("max-rss-mb"), parsing: .unconditional, help: "Exit 1 when the peak RSS is over this many MiB.")
        var maxRSS = 500

        mutating func run() throws {
            var o = RunOptions()
            o.scenarios = scenarios
            o.baselines = baselines
            o.jobs = try checkedJobs(jobs)
            try benchCount(maxRSS, "--max-rss-mb")
            o.record = .never
            // Frames that fail would write report images; they go to a scratch folder.
            o.report = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-bench-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: o.report) }
            let before = Self.peakRSS()
            // An unreadable suite is an error (2); 1 means the memory limit was passed.
            let runner: SuiteRunner
            do { runner = try SuiteRunner(options: o) } catch {
                Terminal.error("\(error)")
                throw ExitCode(Exit.error)
            }
            // Twice: into a new report folder (every thumbnail sheet a new file), then again into
            // it (a check run as it is rerun: unchanged sheets are left alone). Frames per second
            // and CPU per frame count the frames' work, not the process's start.
            for pass in ["new report folder", "report folder in place"] {
                let clock = ContinuousClock()
                let cpu0 = PaintBenchmark.processCPUSeconds()
                let start = clock.now
                let result = runner.run()
                let elapsed = clock.now - start
                let cpu = PaintBenchmark.processCPUSeconds() - cpu0
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let peak = Self.peakRSS()
                let frames = result.jobs.flatMap(\.frames)
                let fast = frames.filter(\.fastPath).count
                let passed = frames.filter { $0.status == .passed }.count
                print("check (\(pass)), \(frames.count) frames (\(passed) passed, \(fast) matched without decoding), \(jobs) jobs: "
                      + String(format: "%.2f s, %.0f frames/s, %.2f ms CPU a frame", seconds, Double(frames.count) / seconds,
                               cpu / Double(max(1, frames.count)) * 1000)
                      + ", peak RSS \(Self.mebibytes(peak)) MiB (\(Self.mebibytes(before)) MiB before the run)")
            }
            let peak = Self.peakRSS()
            if peak > maxRSS << 20 {
                print("peak RSS over the limit of \(maxRSS) MiB")
                throw ExitCode(1)
            }
        }

        static func peakRSS() -> Int { ProcessUsage.now().peakRSSBytes }
        static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
    }

    struct PaintBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "paint",
            abstract: "CPU per frame and frames per second of the painter: bundled scenarios full screen on iPhone 14 at 3x (1170x2532), one core and all cores.")

        @Option(help: "Times each scenario's frames are painted.")
        var passes = 2

        @Option(help: "Fixtures folder holding scenarios/bar-techniques.yaml and its images.")
        var fixtures = "Fixtures"

        @Option(help: "Only the scenario of this name (bar-techniques, busy-swipe-back).")
        var only: String?

        @Option(parsing: .unconditional, help: "Only this many frames of each scenario (default: all).")
        var frames: Int?

        @Option(parsing: .unconditional, help: "Only this many workers (default: one, then all cores).")
        var jobs: Int?

        mutating func run() throws {
            let cores = ImageComparator.defaultJobs
            try benchCount(passes, "--passes")
            if let frames { try benchCount(frames, "--frames") }
            if let jobs { _ = try checkedJobs(jobs) }
            let scenarios = PaintBenchmark.scenarios(fixtures: fixtures)
            if let only, !scenarios.contains(where: { $0.0 == only }) {
                throw ValidationError("--only: no benchmark scenario `\(only)`; there are \(scenarios.map(\.0).joined(separator: ", "))"
                                      + (scenarios.contains { $0.0 == "bar-techniques" } ? "" : " (no \(fixtures)/scenarios/bar-techniques.yaml: a built-in stand-in is painted)"))
            }
            if !scenarios.contains(where: { $0.0 == "bar-techniques" }) {
                Terminal.write("navreel bench paint: no \(fixtures)/scenarios/bar-techniques.yaml here: painting bar-techniques-lite, a built-in stand-in\n", to: 2)
            }
            for (name, yaml, root) in scenarios where only == nil || only == name {
                for jobs in jobs.map({ [$0] }) ?? Array(Set([1, cores])).sorted() {
                    let r = try PaintBenchmark.run(name: name, yaml: yaml, fixtures: root, jobs: jobs, passes: passes, frames: frames)
                    let fps = (r.framesPerSecond * 10).rounded() / 10
                    let ms = (r.cpuMillisecondsPerFrame * 10).rounded() / 10
                    // The process's peak so far (ru_maxrss only rises): the largest run's memory.
                    print("paint \(name), iphone-14 at 3x (1170x2532), \(jobs) \(jobs == 1 ? "core" : "cores"): \(ms) ms CPU a frame, \(fps) frames/s (\(r.frames) frames in \((r.wallSeconds * 100).rounded() / 100) s), peak RSS so far \(CheckBench.mebibytes(CheckBench.peakRSS())) MiB")
                }
            }
        }
    }
}

/// A benchmark's count (repetitions, passes, frames, a memory limit): at least 1. A negative one
/// trapped in a range, and 0 printed infinite times.
func benchCount(_ value: Int, _ flag: String) throws {
    guard (1...1_000_000).contains(value) else { throw ValidationError("\(flag) takes 1 to 1000000, not \(value)") }
}
