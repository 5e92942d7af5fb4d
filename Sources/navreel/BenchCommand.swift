import ArgumentParser
import NavReel

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print throughput figures of NavReel's own parts (see scripts/bench-diff for peers).",
        subcommands: [CanvasBench.self]
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
}
