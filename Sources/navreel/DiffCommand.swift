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
        try DiffRequest(expected: expected, actual: actual, out: out, heatmap: heatmap, json: json, jobs: jobs,
                        verbose: verbose, quiet: quiet, tolerance: tolerance.overrides()).run()
    }
}

/// What `navreel diff` was asked, in plain values: `Diff` (ArgumentParser's command) makes one,
/// and so does `quickParse` without instantiating ArgumentParser's property wrappers (their
/// generic metadata was 4 % of a small diff, issue 17).
struct DiffRequest {
    var expected: String
    var actual: String
    var out: String? = nil
    var heatmap = false
    var json: String? = nil
    var jobs: Int? = nil
    var verbose = false
    var quiet = false
    var tolerance = ToleranceOverrides()

    func run() throws {
        let settings = try ToleranceOptions.settings(tolerance, profile: .captured)
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
            // Written whole and renamed into place, but not flushed to disk: like a report, the
            // output of one comparison is made again by running it again (the flush was about a
            // tenth of the wall time of a 1x diff with a diff image on ext4, issue 17).
            if let out, let png = result.diffPNG { try FileOutput.write(png, to: out, durable: false) }
            if let json {
                let text = result.json.rendered() + "\n"
                if json == "-" { print(text, terminator: "") } else { try FileOutput.write(Array(text.utf8), to: json, durable: false) }
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

extension DiffRequest {
    /// The usual `navreel diff` command line read without ArgumentParser, whose reflection of the
    /// command's options cost about 1.5 ms of a 6.5 ms diff of two small files (and
    /// constructing `Diff`, whose property wrappers are generic, another 0.4 ms) (issue 17: start-up
    /// and small diffs at most 2x odiff's). Only plain forms are read: two paths, the options
    /// below each followed by its value as the next argument, each option at most once, the
    /// flags. Anything else (help, `--name=value`, `--`, a value that starts with `-` or does not
    /// convert, a repeated or unknown option) returns nil and ArgumentParser reads the line, so
    /// every message and every unusual form is its. CLIStartupTests runs command lines both ways
    /// and holds the results equal.
    static func quickParse(_ arguments: [String]) -> DiffRequest? {
        var positional: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
        let valued: Set<String> = ["-o", "--out", "--json", "--jobs", "--perceptual", "--channel", "--translucency",
                                   "--max-diff-pixels", "--max-diff-ratio", "--metric"]
        let known: Set<String> = ["--heatmap", "--verbose", "--quiet", "--antialiasing", "--no-antialiasing"]
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if valued.contains(a) {
                let key = a == "-o" ? "--out" : a
                // `--json -` writes to standard output; any other value starting with "-" is left to ArgumentParser.
                guard i + 1 < arguments.count, values[key] == nil else { return nil }
                let v = arguments[i + 1]
                guard !v.hasPrefix("-") || (key == "--json" && v == "-") else { return nil }
                values[key] = v
                i += 2
            } else if known.contains(a) {
                guard flags.insert(a).inserted else { return nil }
                i += 1
            } else if a.hasPrefix("-") || a.isEmpty {
                return nil
            } else {
                positional.append(a)
                i += 1
            }
        }
        guard positional.count == 2, !(flags.contains("--antialiasing") && flags.contains("--no-antialiasing")) else { return nil }
        var d = DiffRequest(expected: positional[0], actual: positional[1])
        d.out = values["--out"]
        d.json = values["--json"]
        d.heatmap = flags.contains("--heatmap")
        d.verbose = flags.contains("--verbose")
        d.quiet = flags.contains("--quiet")
        if let v = values["--jobs"] { guard let n = Int(v) else { return nil }; d.jobs = n }
        var t = ToleranceOverrides()
        if let v = values["--perceptual"] { guard let x = Double(v) else { return nil }; t.perceptual = x }
        if let v = values["--channel"] { guard let x = Int(v) else { return nil }; t.channel = x }
        if let v = values["--translucency"] { guard let x = Int(v) else { return nil }; t.translucency = x }
        if let v = values["--max-diff-pixels"] { guard let x = Int(v) else { return nil }; t.maxDiffPixels = x }
        if let v = values["--max-diff-ratio"] { guard let x = Double(v) else { return nil }; t.maxDiffRatio = x }
        if let v = values["--metric"] { guard let m = ComparisonSettings.Metric(rawValue: v) else { return nil }; t.metric = m }
        t.antialiasing = flags.contains("--antialiasing") ? true : flags.contains("--no-antialiasing") ? false : nil
        d.tolerance = t
        return d
    }
}
