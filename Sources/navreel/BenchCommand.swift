import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print throughput figures of NavReel's own parts (see scripts/bench-diff for peers).",
        subcommands: [CanvasBench.self, PaintBench.self]
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
