import ArgumentParser
import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare frames captured elsewhere: folders of PNGs, animated GIF or PNG, or video.",
        discussion: """
        --actual and --expected each take a folder of PNGs, an animated GIF, an APNG or a video \
        (.mov, .mp4, .m4v: H.264 or HEVC). Two folders are matched by relative path; otherwise \
        frames are matched by index (decoded frames are named 0000.png, 0001.png...; a folder's \
        files in natural order, frame2.png before frame10.png). A frame without a counterpart \
        fails. Settings can also come from navreel-compare.yaml in the expected folder (or beside \
        the expected file): the keys of a scenario's tolerance block but elements and ignore, plus \
        crop, cropActual, cropExpected, ignore (rectangles), fps, align and metric; flags win. Exit status: 0 \
        every frame passed, 1 a frame failed or is missing, 2 an input could not be read.
        """
    )

    @Option(help: "The frames to check: a folder of PNGs, a GIF, an APNG or a .mov/.mp4/.m4v video.")
    var actual: String

    @Option(help: "The approved frames: a folder of PNGs (or, to compare two recordings, a GIF, APNG or video).")
    var expected: String

    @Option(help: "Crop both inputs to X,Y,W,H (pixels of the input).")
    var crop: String?

    @Option(name: .customLong("crop-actual"), help: "Crop the actual input to X,Y,W,H (instead of --crop).")
    var cropActual: String?

    @Option(name: .customLong("crop-expected"), help: "Crop the expected input to X,Y,W,H (instead of --crop).")
    var cropExpected: String?

    @Option(name: .customLong("ignore"), help: "Ignore the rectangle X,Y,W,H (pixels of the expected input; repeatable); shown dimmed in diffs.")
    var ignore: [String] = []

    @Option(parsing: .unconditional, help: "Sample animations and videos at N frames per second, from their timestamps (default: every frame).")
    var fps: Double?

    @Option(name: .customLong("align"),
            help: ArgumentHelp("Find the frame offset within ±N (default 5: `--align` alone) that matches best, and compare with it.", valueName: "N"))
    var align: Int?

    /// `--align` takes an optional number, which the argument parser has no form for: a bare
    /// `--align` of `compare` becomes `--align 5` before parsing.
    static func withAlignDefault(_ arguments: [String]) -> [String] {
        guard arguments.first == "compare" else { return arguments }
        var out: [String] = []
        for (i, a) in arguments.enumerated() {
            out.append(a)
            if a == "--align" && (i + 1 == arguments.count || Int(arguments[i + 1]) == nil) { out.append("5") }
        }
        return out
    }

    @Flag(name: .customLong("no-align"), help: "Do not align, even if the settings file asks to.")
    var noAlign = false

    @Option(help: "Write expected frames as PNGs: missing (only where none exists; the run then fails so that they are reviewed), failed (also over failing ones), all, never.")
    var record: RecordMode = .never

    @Option(help: "Colour status words: auto (when the stream is a terminal; FORCE_COLOR and NO_COLOR apply), always or never.")
    var color: ColorChoice = .auto

    @Option(help: "Settings file (default: navreel-compare.yaml in the expected folder or beside the expected file).")
    var settings: String?

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

    @Option(parsing: .unconditional, help: "Frames compared at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print every frame, not only failures.")
    var verbose = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var tolerance: ToleranceOptions

    /// A usage error: the message on standard error, exit status 2 (CLI.md).
    static func usage(_ message: String) -> ExitCode {
        Terminal.error(message)
        return ExitCode(Exit.error)
    }

    /// Folders that hold one another: a report inside the frames compared would be read as frames
    /// by the next compare (its copies and diff images), and expected frames inside the actual
    /// folder (or the reverse) would be compared with themselves, and recorded into themselves
    /// one level deeper each run. The same folder on both sides is a plain self-comparison.
    static func nestingProblem(actual: String, expected: String, report: String) -> String? {
        func real(_ p: String) -> String { FileOutput.resolvedPath(p) }
        func inside(_ a: String, _ b: String) -> Bool { a == b || a.hasPrefix(b == "/" ? b : b + "/") }
        let (a, e, r) = (real(actual), real(expected), real(report))
        for (path, flag, given) in [(e, "--expected", expected), (a, "--actual", actual)] where inside(r, path) {
            return "--report \(report) is inside \(flag) \(given): the next compare would read the report's images as frames; write the report elsewhere"
        }
        if a != e && (inside(e, a) || inside(a, e)) {
            return inside(e, a) ? "--expected \(expected) is inside --actual \(actual): its frames would be read as actual frames too; keep the two folders apart"
                                : "--actual \(actual) is inside --expected \(expected): its frames would be read as expected frames too; keep the two folders apart"
        }
        return nil
    }

    static func rect(_ text: String, _ flag: String) throws -> PixelRect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], x >= 0, y >= 0, w > 0, h > 0 else {
            throw usage("\(flag) takes X,Y,W,H in whole pixels (width and height positive), not `\(text)`")
        }
        // The settings file's bound on any number (YAMLReader.maxMagnitude): x + width must not overflow.
        let most = Int(ScenarioLimits.maxMagnitude)
        guard [x, y, w, h].allSatisfy({ $0 <= most }) else {
            throw usage("\(flag) takes numbers of at most \(most), not `\(text)`")
        }
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    mutating func run() throws {
        let recordMode = record
        // --json and --junit over the frames, the recording or the settings compared (the report's
        // folder is `nestingProblem`'s).
        func input(_ side: String, _ path: String) -> RunInput {
            ScenarioCatalog.isFolder(path) ? RunInput(what: "the \(side) frames", path: path, kind: .tree)
                : RunInput(what: "the \(side) recording", path: path, kind: .file)
        }
        let inputs = [input("actual", actual), input("expected", expected),
                      RunInput(what: "the settings file", path: settings ?? CompareSettingsFile.defaultPath(forExpected: expected), kind: .file)]
        if let problem = outputProblem(folders: [("--report", report, true)], files: [("--json", json), ("--junit", junit)])
            ?? inputProblem(files: [("--json", json), ("--junit", junit)], folders: [], inputs: inputs) {
            Terminal.error(problem)
            throw ExitCode(Exit.error)
        }
        if let problem = Self.nestingProblem(actual: actual, expected: expected, report: report) {
            Terminal.error(problem)
            throw ExitCode(Exit.error)
        }
        if let align, !(0...1000).contains(align) { throw Self.usage("--align takes a number of frames, 0...1000, not \(align)") }
        if let fps, !(fps > 0 && fps <= 1000) { throw Self.usage("--fps must be above 0 and at most 1000, not \(fps)") }
        let spec: CompareSettingsSpec?
        do {
            spec = try CompareSettingsFile.load(settings ?? CompareSettingsFile.defaultPath(forExpected: expected))
            if let settings, spec == nil { throw UsageError("\(settings): no such settings file") }
        } catch let errors as ScenarioErrors {
            // FILE:LINE:COLUMN: error: ..., one a line, as lint prints a scenario's (an audit,
            // 2026-11-29: behind "navreel: error: " editors and problem matchers missed them).
            for issue in errors.issues { Terminal.write("\(issue)\n", to: 2) }
            throw ExitCode(Exit.error)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        let flags = try tolerance.overrides()
        let wrong = ToleranceOptions.flagProblems(flags)
        guard wrong.isEmpty else { throw Self.usage(wrong.joined(separator: "; ")) }
        var (settings, capture) = CompareSettingsFile.resolve(spec, flags: flags)
        if temporal { settings.tolerance.temporal = true }
        let problems = settings.tolerance.problems()
        guard problems.isEmpty else { throw Self.usage(problems.joined(separator: "; ")) }
        if let c = crop { capture.cropActual = try Self.rect(c, "--crop"); capture.cropExpected = capture.cropActual }
        if let c = cropActual { capture.cropActual = try Self.rect(c, "--crop-actual") }
        if let c = cropExpected { capture.cropExpected = try Self.rect(c, "--crop-expected") }
        if !ignore.isEmpty { capture.ignore = try ignore.map { try Self.rect($0, "--ignore") } }
        if let fps { capture.fps = fps }
        if let align { capture.align = align }
        if noAlign { capture.align = nil }
        capture.record = recordMode
        let workers = try checkedJobs(jobs)
        let verbose = self.verbose, quiet = self.quiet
        let tty = Terminal.isTTY && !quiet
        let result: SequenceComparison
        // The report folder is this run's until it ends (ReportFiles.claim).
        let claim: ReportFiles.Claim
        do { claim = try ReportFiles.claim(report) } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        defer { withExtendedLifetime(claim) {} }
        do {
            result = try SequenceComparison.run(
                actual: actual, expected: expected, settings: settings, capture: capture, reportDirectory: report, filters: filters,
                diffStyle: heatmap ? .heatmap : .classic, jobs: workers,
                willWrite: { try claim.begin(command: "compare") }
            ) { frame, done, total in
                if tty { Terminal.write("\r\u{1B}[K[\(done)/\(total)] \(TerminalText.visible(frame.path))", to: 2) }
                if tty && done == total { Terminal.write("\r\u{1B}[K", to: 2) }
            }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        let say = Terminal.humanOutput(json: json)
        let color = Terminal.color(self.color, fd: Terminal.humanStream(json: json))
        if !quiet {
            if let a = result.alignment { say(a.sentence) }
            // Frames that all fail on their size say it once, as a range: a 3x recording against
            // 1x frames printed 34 lines of the same sentence (an audit, 2026-11-27).
            let sized = result.frames.map { f -> String? in
                guard f.status == .failed, let c = f.comparison, c.sizeMismatch != nil else { return nil }
                return c.summary
            }
            var skipUntil = -1
            for (index, frame) in result.frames.enumerated() where verbose || frame.status != .passed {
                if index <= skipUntil { continue }
                if !verbose, let same = sized[index] {
                    var last = index
                    while last + 1 < sized.count && sized[last + 1] == same { last += 1 }
                    if last > index {
                        let word = color ? "\u{1B}[31mFAILED\u{1B}[0m" : "FAILED"
                        say(word + TerminalText.visible(" \(frame.path) ... \(result.frames[last].path) (\(last - index + 1) frames): \(same)"))
                        skipUntil = last
                        continue
                    }
                }
                let word = frame.status.label.uppercased()
                let head = color && [.failed, .missingExpected, .missingActual].contains(frame.status) || color && frame.status.label == "error" ? "\u{1B}[31m\(word)\u{1B}[0m" : word
                var line = " \(frame.path)"
                let source = [frame.actualFile.map { "actual \($0)" + (frame.actualTime.map { String(format: " @ %.3f s", $0) } ?? "") },
                              frame.expectedFile.map { "expected \($0)" + (frame.expectedTime.map { String(format: " @ %.3f s", $0) } ?? "") }]
                    .compactMap { $0 }.joined(separator: ", ")
                switch frame.status {
                case .error(let message): line += ": \(message)"
                case .missingExpected: line += ": no expected frame for \(source)"
                case .missingActual: line += ": no actual frame for \(source)" + (frame.detail.map { "; " + $0 } ?? "")
                case .outside: line += ": outside the aligned overlap (\(source))" + (frame.detail.map { "; " + $0 } ?? "")
                default:
                    if let c = frame.comparison { line += ": " + c.summary }
                    if !source.isEmpty && (frame.actualTime != nil || frame.expectedTime != nil) { line += " [\(source)]" }
                }
                if let d = frame.diffPath { line += " (diff: \(d))" }
                say(head + TerminalText.visible(line))
            }
            if let w = result.alignment?.warning { say("align: \(w)") }
            // Beside the summary, where a long list of frames does not scroll them away.
            for note in result.notes { say(TerminalText.visible(note)) }
            // Counted as the page and results.json count them (SequenceComparison.suiteResult): a
            // frame with no expected one is "missing" (approve can write it), one the actual input
            // lacks has failed (an audit saw "10 failed" here against 9 and 1 missing there).
            let missing = result.frames.filter { $0.status == .missingExpected }.count
            let failedOnly = result.failed - missing - result.errors
            say("\(result.frames.count) frames: \(result.passed) passed, \(failedOnly) failed" + (missing > 0 ? ", \(missing) missing" : "") +
                  (result.errors > 0 ? ", \(result.errors) \(result.errors == 1 ? "error" : "errors") (unreadable)" : "") + (result.recorded > 0 ? ", \(result.recorded) recorded" : "")
                  + (result.notCompared > 0 ? ", \(result.notCompared) not compared (outside the aligned overlap)" : ""))
            if let note = Self.newExpectedFrames(result) { say(note) }
        }
        // The same reports as `check`: results.json, index.html, and --json / --junit.
        let suite = result.suiteResult(report: report)
        if !quiet, let hint = ConsoleReport.approveHint(suite, report: report, baselines: result.expectedRoot) { say(hint) }
        for frame in result.frames {
            if case .error(let message) = frame.status { Terminal.error(message) }
        }
        do {
            let text = try ResultJSON.writeReport(suite, to: report, baselines: result.expectedRoot)
            if let junit { try FileOutput.write(JUnitReport.xml(suite, reportPath: report), to: junit) }
            if let json {
                if json == "-" { print(text, terminator: "") } else { try FileOutput.write(text, to: json) }
            }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        if !quiet && json != "-" { print("report: \(report)/index.html") }
        // Under GitHub Actions, as `check`: ::error annotations and a Markdown step summary.
        writeGitHubOutputs(suite, report: report, say: say)
        throw ExitCode(result.exitCode)
    }

    /// After `--record missing` wrote expected frames because none existed (the run fails, as
    /// `check` does: `SequenceComparison.exitCode`): which files to review and commit. Nil when
    /// it wrote none.
    static func newExpectedFrames(_ result: SequenceComparison) -> String? {
        guard result.recordMode == .missing, result.added > 0 else { return nil }
        let added = result.frames.filter { $0.status == .recorded(changed: false) }.map(\.path)
        let root = result.expectedRoot
        var lines = ["\(added.count) expected \(added.count == 1 ? "frame was" : "frames were") written because none existed "
                     + "in \(root); this run fails so that they are noticed.",
                     "Review them (the report shows each frame), then commit them:"]
        // One line per folder of frames, in the order compared (frames of subfolders are matched by path).
        var folders: [(folder: String, names: [String])] = []
        for path in added {
            let folder = PathText.parent(path)
            if folders.last?.folder == folder { folders[folders.count - 1].names.append(path) } else { folders.append((folder, [path])) }
        }
        for (_, names) in folders {
            let last = (names[names.count - 1] as NSString).lastPathComponent
            let range = names.count == 1 ? names[0] : "\(names[0]) ... \(last)"
            lines.append("  \(root)/\(range) (\(names.count) \(names.count == 1 ? "file" : "files"))")
        }
        lines.append("  git add \(HTMLReport.shellQuoted(root))")
        lines.append("The next compare checks against them (to write expected frames without failing: --record failed or all).")
        return lines.joined(separator: "\n")
    }
}
