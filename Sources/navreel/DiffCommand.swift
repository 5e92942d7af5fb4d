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
        // Options and flags are told apart by switches into a plain struct: Sets and a
        // Dictionary of strings here had their generic metadata built from mangled names at run
        // time, with conformance lookups, 5-7 % of a diff of two small files (perf, issue 17).
        var positional: [String] = []
        var values = QuickValues(), flags = QuickFlags()
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if let slot = QuickValues.slot(a) {
                // `--json -` writes to standard output; any other value starting with "-" is left to ArgumentParser.
                guard i + 1 < arguments.count, values[slot] == nil else { return nil }
                let v = arguments[i + 1]
                guard !v.hasPrefix("-") || (slot == .json && v == "-") else { return nil }
                values[slot] = v
                i += 2
            } else if let slot = QuickFlags.slot(a) {
                guard !flags[slot] else { return nil }
                flags[slot] = true
                i += 1
            } else if a.hasPrefix("-") || a.isEmpty {
                return nil
            } else {
                positional.append(a)
                i += 1
            }
        }
        guard positional.count == 2, !(flags.antialiasing && flags.noAntialiasing) else { return nil }
        var d = DiffRequest(expected: positional[0], actual: positional[1])
        d.out = values.out
        d.json = values.json
        d.heatmap = flags.heatmap
        d.verbose = flags.verbose
        d.quiet = flags.quiet
        if let v = values.jobs { guard let n = Int(v) else { return nil }; d.jobs = n }
        var t = ToleranceOverrides()
        if let v = values.perceptual { guard let x = Double(v) else { return nil }; t.perceptual = x }
        if let v = values.channel { guard let x = Int(v) else { return nil }; t.channel = x }
        if let v = values.translucency { guard let x = Int(v) else { return nil }; t.translucency = x }
        if let v = values.maxDiffPixels { guard let x = Int(v) else { return nil }; t.maxDiffPixels = x }
        if let v = values.maxDiffRatio { guard let x = Double(v) else { return nil }; t.maxDiffRatio = x }
        if let v = values.metric { guard let m = ComparisonSettings.Metric(rawValue: v) else { return nil }; t.metric = m }
        t.antialiasing = flags.antialiasing ? true : flags.noAntialiasing ? false : nil
        d.tolerance = t
        return d
    }

    /// The options quickParse reads with a value (`-o` is `--out`).
    struct QuickValues {
        enum Slot { case out, json, jobs, perceptual, channel, translucency, maxDiffPixels, maxDiffRatio, metric }
        var out, json, jobs, perceptual, channel, translucency, maxDiffPixels, maxDiffRatio, metric: String?

        static func slot(_ argument: String) -> Slot? {
            switch argument {
            case "-o", "--out": return .out
            case "--json": return .json
            case "--jobs": return .jobs
            case "--perceptual": return .perceptual
            case "--channel": return .channel
            case "--translucency": return .translucency
            case "--max-diff-pixels": return .maxDiffPixels
            case "--max-diff-ratio": return .maxDiffRatio
            case "--metric": return .metric
            default: return nil
            }
        }

        subscript(slot: Slot) -> String? {
            get {
                switch slot {
                case .out: return out
                case .json: return json
                case .jobs: return jobs
                case .perceptual: return perceptual
                case .channel: return channel
                case .translucency: return translucency
                case .maxDiffPixels: return maxDiffPixels
                case .maxDiffRatio: return maxDiffRatio
                case .metric: return metric
                }
            }
            set {
                switch slot {
                case .out: out = newValue
                case .json: json = newValue
                case .jobs: jobs = newValue
                case .perceptual: perceptual = newValue
                case .channel: channel = newValue
                case .translucency: translucency = newValue
                case .maxDiffPixels: maxDiffPixels = newValue
                case .maxDiffRatio: maxDiffRatio = newValue
                case .metric: metric = newValue
                }
            }
        }
    }

    /// The flags quickParse reads.
    struct QuickFlags {
        enum Slot { case heatmap, verbose, quiet, antialiasing, noAntialiasing }
        var heatmap = false, verbose = false, quiet = false, antialiasing = false, noAntialiasing = false

        static func slot(_ argument: String) -> Slot? {
            switch argument {
            case "--heatmap": return .heatmap
            case "--verbose": return .verbose
            case "--quiet": return .quiet
            case "--antialiasing": return .antialiasing
            case "--no-antialiasing": return .noAntialiasing
            default: return nil
            }
        }

        subscript(slot: Slot) -> Bool {
            get {
                switch slot {
                case .heatmap: return heatmap
                case .verbose: return verbose
                case .quiet: return quiet
                case .antialiasing: return antialiasing
                case .noAntialiasing: return noAntialiasing
                }
            }
            set {
                switch slot {
                case .heatmap: heatmap = newValue
                case .verbose: verbose = newValue
                case .quiet: quiet = newValue
                case .antialiasing: antialiasing = newValue
                case .noAntialiasing: noAntialiasing = newValue
                }
            }
        }
    }
}
