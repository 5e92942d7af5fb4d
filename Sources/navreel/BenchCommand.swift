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

        @Option(help: "Repetitions; the best time counts.")
        var repeats = 5

        mutating func run() throws {
            for f in try CanvasBenchmark.run(repeats: repeats) {
                let mps = (f.megapixelsPerSecond * 10).rounded() / 10
                let ms = (f.seconds * 10_000).rounded() / 10
                print("\(f.name): \(mps) MP/s (\(ms) ms for \((f.megapixels * 100).rounded() / 100) MP)")
            }
        }
    }

    /// Issue 16: a check holds a few frames per job, never the suite; this prints the peak RSS
    /// of a whole check so that the claim is measured, and fails over `--max-rss-mb`.
    struct CheckBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Time and peak memory (RSS) of checking the bundled suite against Baselines/ (nothing is written).")

        @Option(help: "Parallel jobs.")
        var jobs = 2

        @Option(help: "Scenario folder.")
        var scenarios = "Fixtures/scenarios"

        @Option(help: "Baseline folder.")
        var baselines = "Baselines"

        @Option(name: .customLong("max-rss-mb"), help: "Exit 1 when the peak RSS is over this many MiB.")
        var maxRSS = 500

        mutating func run() throws {
            var o = RunOptions()
            o.scenarios = scenarios
            o.baselines = baselines
            o.jobs = jobs
            o.record = .never
            // Frames that fail would write report images; they go to a scratch folder.
            o.report = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-bench-\(getpid())").path
            defer { try? FileManager.default.removeItem(atPath: o.report) }
            let before = Self.peakRSS()
            let runner = try SuiteRunner(options: o)
            let clock = ContinuousClock()
            let start = clock.now
            let result = runner.run()
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let peak = Self.peakRSS()
            let frames = result.jobs.flatMap(\.frames)
            let fast = frames.filter(\.fastPath).count
            let passed = frames.filter { $0.status == .passed }.count
            let mib = { (b: Int) in String(format: "%.1f", Double(b) / 1_048_576) }
            print("check, \(frames.count) frames (\(passed) passed, \(fast) matched without decoding), \(jobs) jobs: "
                  + String(format: "%.2f", seconds) + " s, peak RSS \(mib(peak)) MiB (\(mib(before)) MiB before the run)")
            if peak > maxRSS << 20 {
                print("peak RSS over the limit of \(maxRSS) MiB")
                throw ExitCode(1)
            }
        }

        /// Peak resident set size of this process in bytes (getrusage; Linux counts KiB, macOS bytes).
        static func peakRSS() -> Int {
            var usage = rusage()
            #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss) * 1024
            #else
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
            #endif
        }
    }

    struct PaintBench: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "paint", abstract: "Frames per second of the painter: iPhone 14 at 3x, full screen, one core and all cores.")

        mutating func run() throws {
            let cores = ImageComparator.defaultJobs
            for jobs in Array(Set([1, cores])).sorted() {
                let (frames, seconds) = try PaintBenchmark.run(jobs: jobs)
                let fps = (Double(frames) / seconds * 10).rounded() / 10
                print("paint, iphone-14 at 3x (1170x2532), \(jobs) \(jobs == 1 ? "core" : "cores"): \(fps) frames/s (\(frames) frames in \((seconds * 100).rounded() / 100) s)")
            }
        }
    }
}
