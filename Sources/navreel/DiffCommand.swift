import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two PNG files with NavReel's rules.",
        discussion: """
        Defaults are those for images captured elsewhere (pixelmatch's: --perceptual 0.1, \
        anti-aliasing forgiven). Files written by NavReel carry translucency and element maps, which \
        are used when both files have them. Exit status: 0 when the images match, 1 when they \
        differ (a size change always differs), 2 when a file cannot be read.
        """
    )

    @Argument(help: "The expected image (the baseline).")
    var expected: String

    @Argument(help: "The actual image.")
    var actual: String

    @Option(name: .shortAndLong, help: "Write the diff image here (PNG).")
    var out: String?

    @Flag(help: "Shade mismatches in the diff image by how much they differ.")
    var heatmap = false

    @Option(help: "Write the result as JSON to this file (- for standard output).")
    var json: String?

    @Option(help: "Threads for one comparison (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print the time spent reading, decoding, comparing and encoding.")
    var verbose = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var tolerance: ToleranceOptions

    mutating func run() throws {
        let settings = try tolerance.settings(profile: .captured)
        let result: PairDiff
        do {
            result = try PairDiff.run(expected: expected, actual: actual, settings: settings,
                                      diffStyle: out == nil ? nil : (heatmap ? .heatmap : .classic),
                                      jobs: jobs ?? ImageComparator.defaultJobs)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(Exit.error)
        }
        do {
            if let out, let png = result.diffPNG { try FileOutput.write(png, to: out) }
            if let json {
                let text = result.json.rendered() + "\n"
                if json == "-" { print(text, terminator: "") } else { try FileOutput.write(text, to: json) }
            }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        let c = result.comparison
        if !quiet && json != "-" {
            print((c.passed ? "passed: " : "failed: ") + c.summary)
        }
        if verbose {
            let t = result.timings
            var err = StandardError()
            print("timings: read \(t.read), decode \(t.decode), compare \(t.compare), encode \(t.encode)", to: &err)
        }
        throw ExitCode(c.passed ? Exit.passed : Exit.failed)
    }
}
