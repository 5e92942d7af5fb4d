import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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

    @Option(parsing: .unconditional, help: "Threads for one comparison (default: the number of cores).")
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
        let workers = try checkedJobs(jobs)
        // The diff image must not replace what is being compared (a baseline named by mistake).
        if let out, let input = [expected, actual].first(where: { Self.sameFile(out, $0) }) {
            Terminal.error("--out \(out) is \(input == expected ? "the expected" : "the actual") image; write the diff image elsewhere")
            throw ExitCode(Exit.error)
        }
        // Nor the JSON (an audit, 2026-11-29: `--json e.png` replaced the expected image).
        if let json, json != "-" {
            if let input = [expected, actual].first(where: { Self.sameFile(json, $0) }) {
                Terminal.error("--json \(json) is \(input == expected ? "the expected" : "the actual") image; write the JSON elsewhere")
                throw ExitCode(Exit.error)
            }
            if let out, FileOutput.resolvedPath(out) == FileOutput.resolvedPath(json) || Self.sameFile(out, json) {
                Terminal.error("--json \(json): --out writes the diff image there; give each its own file")
                throw ExitCode(Exit.error)
            }
        }
        // Where they go, before anything is compared (docs/cli.md's "outputs checked first"; a
        // folder given as `-o` was found only after the comparison, in a message without the flag).
        for (flag, path) in [("--out", out), ("--json", json)] {
            if let path, path != "-" || flag == "--out", let problem = FileOutput.fileProblem(path) {
                Terminal.error("\(flag) \(path): \(problem)")
                throw ExitCode(Exit.error)
            }
        }
        let result: PairDiff
        do {
            result = try PairDiff.run(expected: expected, actual: actual, settings: settings,
                                      diffStyle: out == nil ? nil : (heatmap ? .heatmap : .classic),
                                      jobs: workers, hugePages: true)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(Exit.error)
        }
        // The comparison and encoding were the last parallel work: helper threads stop spinning.
        Parallel.rest()
        do {
            // Written whole and renamed into place, but not flushed to disk: like a report, the
            // output of one comparison is made again by running it again (the flush was about a
            // tenth of the wall time of a 1x diff with a diff image on ext4, issue 17).
            if let out {
                if let png = result.diffPNG { try FileOutput.write(png, to: out, durable: false) }
                else {
                    // No diff image of images whose sizes differ: an older one left at that path
                    // would be taken for this comparison's.
                    var info = stat()
                    let removed = lstat(out, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && unlink(out) == 0
                    if !quiet && json != "-" {
                        print("no diff image: the sizes differ" + (removed ? " (removed the older \(out))" : ""))
                    }
                }
            }
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
    /// Whether two paths name the same file: the same text, or the same device and inode.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var x = stat(), y = stat()
        return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }


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
        // Options and flags are told apart by a switch into a plain struct: Sets and a
        // Dictionary of strings here had their generic metadata built from mangled names at run
        // time, with conformance lookups, 5-7 % of a diff of two small files (perf, issue 17).
        var positional: [String] = []
        var given = QuickArguments()
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if let slot = QuickArguments.Slot(a) {
                var value = ""
                if slot.takesValue {
                    // `--json -` writes to standard output; any other value starting with "-" is left to ArgumentParser.
                    guard i + 1 < arguments.count else { return nil }
                    value = arguments[i + 1]
                    guard !value.hasPrefix("-") || (slot == .json && value == "-") else { return nil }
                    i += 1
                }
                // Each option and flag at most once.
                guard given.set(slot, value) else { return nil }
                i += 1
            } else if a.hasPrefix("-") || a.isEmpty {
                return nil
            } else {
                positional.append(a)
                i += 1
            }
        }
        guard positional.count == 2, given.antialiasing == nil || given.noAntialiasing == nil else { return nil }
        var d = DiffRequest(expected: positional[0], actual: positional[1])
        d.out = given.out
        d.json = given.json
        d.heatmap = given.heatmap != nil
        d.verbose = given.verbose != nil
        d.quiet = given.quiet != nil
        if let v = given.jobs { guard let n = Int(v) else { return nil }; d.jobs = n }
        var t = ToleranceOverrides()
        if let v = given.perceptual { guard let x = Double(v) else { return nil }; t.perceptual = x }
        if let v = given.channel { guard let x = Int(v) else { return nil }; t.channel = x }
        if let v = given.translucency { guard let x = Int(v) else { return nil }; t.translucency = x }
        if let v = given.maxDiffPixels { guard let x = Int(v) else { return nil }; t.maxDiffPixels = x }
        if let v = given.maxDiffRatio { guard let x = Double(v) else { return nil }; t.maxDiffRatio = x }
        if let v = given.metric { guard let m = ComparisonSettings.Metric(rawValue: v) else { return nil }; t.metric = m }
        t.antialiasing = given.antialiasing != nil ? true : given.noAntialiasing != nil ? false : nil
        d.tolerance = t
        return d
    }

    /// What quickParse read: each option's value, or "" for a flag given; nil when absent.
    struct QuickArguments {
        enum Slot {
            case out, json, jobs, perceptual, channel, translucency, maxDiffPixels, maxDiffRatio, metric
            case heatmap, verbose, quiet, antialiasing, noAntialiasing

            /// The slot of an option or flag as written (`-o` is `--out`), nil for anything else.
            init?(_ argument: String) {
                switch argument {
                case "-o", "--out": self = .out
                case "--json": self = .json
                case "--jobs": self = .jobs
                case "--perceptual": self = .perceptual
                case "--channel": self = .channel
                case "--translucency": self = .translucency
                case "--max-diff-pixels": self = .maxDiffPixels
                case "--max-diff-ratio": self = .maxDiffRatio
                case "--metric": self = .metric
                case "--heatmap": self = .heatmap
                case "--verbose": self = .verbose
                case "--quiet": self = .quiet
                case "--antialiasing": self = .antialiasing
                case "--no-antialiasing": self = .noAntialiasing
                default: return nil
                }
            }

            var takesValue: Bool {
                switch self {
                case .heatmap, .verbose, .quiet, .antialiasing, .noAntialiasing: return false
                default: return true
                }
            }
        }

        var out, json, jobs, perceptual, channel, translucency, maxDiffPixels, maxDiffRatio, metric: String?
        var heatmap, verbose, quiet, antialiasing, noAntialiasing: String?

        /// Records a slot's value; false when it was given before.
        mutating func set(_ slot: Slot, _ value: String) -> Bool {
            func put(_ field: inout String?) -> Bool {
                guard field == nil else { return false }
                field = value
                return true
            }
            switch slot {
            case .out: return put(&out)
            case .json: return put(&json)
            case .jobs: return put(&jobs)
            case .perceptual: return put(&perceptual)
            case .channel: return put(&channel)
            case .translucency: return put(&translucency)
            case .maxDiffPixels: return put(&maxDiffPixels)
            case .maxDiffRatio: return put(&maxDiffRatio)
            case .metric: return put(&metric)
            case .heatmap: return put(&heatmap)
            case .verbose: return put(&verbose)
            case .quiet: return put(&quiet)
            case .antialiasing: return put(&antialiasing)
            case .noAntialiasing: return put(&noAntialiasing)
            }
        }
    }
}
