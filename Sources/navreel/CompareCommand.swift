import ArgumentParser
import Foundation
import NavReel

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare PNG sequences captured elsewhere, matched by relative path.",
        discussion: """
        Every PNG below --expected is compared with the PNG at the same relative path below \
        --actual. A frame without a baseline, or a baseline without a frame, fails. Diff images of \
        failing frames are written below --report. Exit status: 0 every frame passed, 1 a frame \
        failed or is missing, 2 an input could not be read.
        """
    )

    @Option(help: "Folder of the frames to check.")
    var actual: String

    @Option(help: "Folder of the approved frames.")
    var expected: String

    @Option(help: "Folder for diff images of failing frames.")
    var report: String = ".navreel/report"

    @Option(help: "Write the results as JSON to this file (- for standard output).")
    var json: String?

    @Option(help: "Also write JUnit XML here.")
    var junit: String?

    @Option(name: .customLong("filter"), help: "Only paths matching this glob (repeatable).")
    var filters: [String] = []

    @Flag(help: "Forgive pixels within the range of the baseline's neighbouring frames k-1...k+1.")
    var temporal = false

    @Flag(help: "Shade mismatches in diff images by how much they differ.")
    var heatmap = false

    @Option(help: "Frames compared at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print every frame, not only failures.")
    var verbose = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var tolerance: ToleranceOptions

    mutating func run() throws {
        var settings = try tolerance.settings(profile: .captured)
        settings.tolerance.temporal = temporal
        let verbose = self.verbose, quiet = self.quiet
        let tty = Terminal.isTTY && !quiet
        let result: SequenceComparison
        do {
            result = try SequenceComparison.run(
                actual: actual, expected: expected, settings: settings, reportDirectory: report, filters: filters,
                diffStyle: heatmap ? .heatmap : .classic, jobs: jobs ?? ImageComparator.defaultJobs
            ) { frame, done, total in
                if tty { Terminal.write("\r\u{1B}[K[\(done)/\(total)] \(frame.path)", to: 2) }
                if tty && done == total { Terminal.write("\r\u{1B}[K", to: 2) }
            }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        let say = Terminal.humanOutput(json: json)
        if !quiet {
            for frame in result.frames where verbose || frame.status != .passed {
                var line = "\(frame.status.label.uppercased()) \(frame.path)"
                switch frame.status {
                case .error(let message): line += ": \(message)"
                case .missingExpected: line += ": no baseline at \(expected)/\(frame.path)"
                case .missingActual: line += ": no frame at \(actual)/\(frame.path)"
                default: if let c = frame.comparison { line += ": " + c.summary }
                }
                if let d = frame.diffPath { line += " (diff: \(d))" }
                say(line)
            }
            say("\(result.frames.count) frames: \(result.passed) passed, \(result.failed) failed" +
                  (result.errors > 0 ? " (\(result.errors) unreadable)" : ""))
        }
        for frame in result.frames {
            if case .error(let message) = frame.status { Terminal.error(message) }
        }
        // The same reports as `check`: results.json, index.html, and --json / --junit.
        let suite = result.suiteResult(actual: actual, expected: expected, report: report)
        let text = ResultJSON.encode(suite).rendered() + "\n"
        try FileOutput.write(text, to: report + "/results.json")
        try HTMLReport.write(suite, to: report, baselines: expected)
        if let junit { try FileOutput.write(JUnitReport.xml(suite, reportPath: report), to: junit) }
        if let json {
            if json == "-" { print(text, terminator: "") } else { try FileOutput.write(text, to: json) }
        }
        if !quiet && json != "-" { print("report: \(report)/index.html") }
        throw ExitCode(result.exitCode)
    }
}
