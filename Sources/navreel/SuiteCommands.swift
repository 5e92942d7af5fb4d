import ArgumentParser
import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// Options every suite command shares (CLI.md).
struct SuiteOptions: ParsableArguments {
    @Option(name: .customLong("scenarios"), help: "Folder of scenario files (default: navreel.yaml's, else Fixtures/scenarios).")
    var scenarios: String?

    @Option(help: "Folder of approved frames (default: navreel.yaml's, else Baselines).")
    var baselines: String?

    @Option(name: .customLong("filter"), help: "Only scenarios whose name contains this text, or matches this glob when it has * ? or [ (repeatable).")
    var filters: [String] = []

    @Option(name: .customLong("device"), help: "Only this device (repeatable; default: navreel.yaml's devices, else every device).")
    var devices: [String] = []

    @Option(help: "Folder of the report: results.json, index.html, images (default: navreel.yaml's, else .navreel/report).")
    var report: String?

    @Flag(name: .customLong("last-failed"), help: "Only the scenarios that failed in the last run (read from the report folder's results.json).")
    var lastFailed = false

    @Option(help: "Also write the results as JSON here (- for standard output).")
    var json: String?

    @Option(help: "Also write JUnit XML here.")
    var junit: String?

    @Option(parsing: .unconditional, help: "Frames rendered and compared at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Run only shard K of N (1 <= K <= N <= 10000): a deterministic share of the scenarios.", valueName: "K/N"))
    var shard: ShardSpec?

    @Option(help: "Colour failure lines: auto (when the stream is a terminal; FORCE_COLOR and NO_COLOR apply), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Print nothing but errors and the summary.")
    var quiet = false

    @Flag(help: "Print every scenario and device, and passing frames too.")
    var verbose = false

    @OptionGroup var tolerance: ToleranceOptions

    @OptionGroup var limits: LimitOptions

    /// Fills what the command line left open from navreel.yaml (flags win), so that every later
    /// use sees one set of folders.
    /// `writesBaselines`: `record`, which makes the baselines folder; for `check` a folder the
    /// file names must exist (a typo made a new tree beside the real one, "54 added", an audit,
    /// 2026-11-27).
    mutating func applyProjectFile(writesBaselines: Bool = false) throws {
        let project: ProjectFile?
        do { project = try ProjectFile.find() } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        // A folder the file names that does not exist is the file's error, at its line.
        if scenarios == nil, let project, let folder = project.scenarios, !ScenarioCatalog.isFolder(folder) {
            Terminal.error("\(project.origin("scenarios") ?? "")scenarios: \(folder): no such folder")
            throw ExitCode(Exit.error)
        }
        if baselines == nil, !writesBaselines, let project, let folder = project.baselines, !ScenarioCatalog.isFolder(folder) {
            Terminal.error("\(project.origin("baselines") ?? "")baselines: \(folder): no such folder; check compares against it: "
                           + "make it, or write the first baselines there with `navreel record` (or `navreel check --record missing`)")
            throw ExitCode(Exit.error)
        }
        if devices.isEmpty, let project, !project.devices.isEmpty { devicesOrigin = project.places["devices"] }
        scenarios = scenarios ?? project?.scenariosFolder ?? "Fixtures/scenarios"
        baselines = baselines ?? project?.baselinesFolder ?? "Baselines"
        report = report ?? project?.reportFolder ?? ".navreel/report"
        json = json ?? project?.json
        junit = junit ?? project?.junit
        if devices.isEmpty { devices = project?.devices ?? [] }
        projectTolerance = project?.tolerance ?? ToleranceOverrides()
    }

    var projectTolerance = ToleranceOverrides()
    var devicesOrigin: String?

    enum CodingKeys: CodingKey {
        case scenarios, baselines, filters, devices, report, lastFailed, json, junit, jobs, shard, color, quiet, verbose, tolerance, limits
    }

    func runOptions(record: RecordMode) throws -> RunOptions {
        var o = RunOptions()
        o.scenarios = scenarios ?? "Fixtures/scenarios"
        o.baselines = baselines ?? "Baselines"
        o.report = report ?? ".navreel/report"
        o.filters = filters
        o.devices = devices
        o.devicesOrigin = devicesOrigin
        if lastFailed {
            // Playwright's --last-failed: the scenarios with a failing, missing or unreadable frame
            // in the last results, each matched by its exact name.
            let loaded: ResultJSON.Loaded
            let results = o.report + "/results.json", previous = o.report + "/" + ReportFiles.previousResultsName
            var source = results
            do {
                // The last run was interrupted (its results.json never written): the one before it.
                if !FileManager.default.fileExists(atPath: results) && FileManager.default.fileExists(atPath: previous) {
                    source = previous
                    loaded = try ResultJSON.load(previous)
                    Terminal.write("navreel: the last run into \(o.report) did not finish; --last-failed takes the failures of the run before it\n", to: 2)
                } else {
                    loaded = try ResultJSON.load(results)
                }
            } catch {
                throw ValidationError("--last-failed reads the last run's results: \(error)")
            }
            var failed = Set(loaded.runs.filter { run in
                run.frames.contains { [.failed, .missing, .error].contains($0.status) }
            }.map(\.scenario))
            // A scenario file that did not load failed too (its run exited 2): matched by its
            // file's name, as the catalog matches a file it cannot read (an audit, 2026-11-29:
            // `--last-failed` after a broken file said "no scenario failed" and exited 0).
            failed.formUnion(loaded.scenarioErrors.compactMap(SuiteResult.scenarioOfError))
            if failed.isEmpty { throw LastRunPassed(results: source) }
            // Within --filter, not beside it: the failed scenarios that match it (they were
            // added to it as more filters, which ran the filter's passing scenarios too).
            let chosen = filters.isEmpty ? failed : failed.filter { name in filters.contains { Glob.matches($0, name) } }
            if chosen.isEmpty {
                throw LastRunPassed(results: source, detail: "the scenarios that failed there (\(failed.sorted().joined(separator: ", "))) do not match --filter \(filters.joined(separator: ", "))")
            }
            o.selectionFilters = filters
            o.lastFailedShard = (loaded.document.shard.index, loaded.document.shard.count)
            // The report folder's own results: what this run does not rerun stays in its report.
            if source == results { o.lastRun = loaded.document }
            o.filters = chosen.sorted().map(Glob.exact)
            o.lastFailed = chosen.sorted()
        }
        o.jobs = try checkedJobs(jobs)
        o.record = record
        o.limits = try limits.limits()
        if let shard { o.shard = (shard.index, shard.count) }
        _ = try tolerance.settings(profile: .rendered)   // ranges and metric checked up front
        o.overrides = try tolerance.overrides().over(projectTolerance)
        return o
    }
}

/// The first output path (folders, then files; nil and "-" skipped) that cannot be written,
/// as a message naming its flag, found before anything is rendered.
/// A folder marked not `writable` is only read: it must not be a file, and may be read-only.
func outputProblem(folders: [(flag: String, path: String?, writable: Bool)], files: [(flag: String, path: String?)]) -> String? {
    for (flag, path, writable) in folders {
        if let path, let problem = FileOutput.folderProblem(path, writable: writable) { return "\(flag) \(path): \(problem)" }
    }
    for (flag, path) in files {
        if let path, path != "-", let problem = FileOutput.fileProblem(path) { return "\(flag) \(path): \(problem)" }
    }
    // A file output at a folder output's path, or two file outputs at one path: each
    // would be found only after the run, when one write meets the other (an audit, 2026-11-27:
    // `--report out --junit out` rendered everything, then "cannot rename into place").
    func full(_ p: String) -> String { URL(fileURLWithPath: p).standardizedFileURL.path }
    let written = folders.filter(\.writable).compactMap { f in f.path.map { (f.flag, full($0)) } }
    var seen: [(flag: String, path: String)] = []
    for (flag, path) in files {
        guard let path, path != "-" else { continue }
        let p = full(path)
        if let folder = written.first(where: { p == $0.1 }) {
            return "\(flag) \(path): it is the \(folder.0) folder; write it elsewhere"
        }
        // Inside a report folder, the files the report writes itself: the page, its results (which
        // `--json` writes as they are, and `--junit` would replace, so that approve could not read
        // them), and its image folders (a review, 2026-11-27).
        if let report = written.first(where: { $0.0 == "--report" && p.hasPrefix($0.1 + "/") }) {
            let inside = String(p.dropFirst(report.1.count + 1))
            let own = inside == "index.html" || (inside == "results.json" && flag != "--json")
                || ["frames", "diff", "captured"].contains { inside.hasPrefix($0 + "/") }
            if own { return "\(flag) \(path): the report writes \(inside) there itself; write it elsewhere" }
        }
        if let other = seen.first(where: { $0.path == p }) { return "\(flag) \(path): \(other.flag) writes there too; give each its own file" }
        seen.append((flag, p))
    }
    return nil
}

/// What a run reads, which its outputs must not land on.
struct RunInput {
    enum Kind {
        /// A file (the same path, or another name of it: a link).
        case file
        /// A folder and everything under it (baselines, compared frames).
        case tree
        /// A folder and the scenario files directly in it (`*.yaml`, `*.yml`, `*.json` there are
        /// read as scenarios; other files and a folder below them are not).
        case files
    }
    var what: String
    var path: String?
    var kind: Kind
}

/// An output that would land on what the run reads: `--json` or `--junit` written over a
/// scenario, a baseline, a recording or a settings file, or a report folder that is the scenarios
/// or baselines folder. Found by an audit (2026-11-29): `navreel check --junit
/// Baselines/wechat-pop/iphone-14/0000.png` replaced the baseline with XML and exited 0, `compare
/// --junit` replaced the recording it compared, `check --report Fixtures/scenarios` left a
/// results.json that the next run read as a broken scenario, and `check --report Baselines` put
/// the report's 200 files among the baselines. `-o` of `diff` and scaffold's `--out` were refused
/// already. Paths are compared with their links resolved.
func inputProblem(files: [(flag: String, path: String?)], folders: [(flag: String, path: String?)], inputs: [RunInput]) -> String? {
    let outputs = files.map { ($0.flag, $0.path, false) } + folders.map { ($0.flag, $0.path, true) }
    for (flag, given, isFolder) in outputs {
        guard let given, given != "-" else { continue }
        let out = FileOutput.resolvedPath(given)
        for input in inputs {
            guard let inputPath = input.path else { continue }
            let place = FileOutput.resolvedPath(inputPath)
            let same = out == place || DiffRequest.sameFile(given, inputPath)
            let under = out.hasPrefix(place == "/" ? place : place + "/")
            let parent = PathText.parent(out)
            let scenarioName = ScenarioCatalog.extensions.contains(String(out.split(separator: ".").last ?? "").lowercased())
            switch input.kind {
            case .file where same:
                return "\(flag) \(given) is \(input.what); write it elsewhere"
            case .tree where same || under:
                return "\(flag) \(given) is " + (same ? "" : "inside ") + "\(input.what) \(inputPath): " + (isFolder ? "its files would mix with what the run reads" : "it would be written over what the run reads") + "; write it elsewhere"
            case .files where same || (!isFolder && parent == place && scenarioName):
                return "\(flag) \(given) is " + (same ? "" : "in ") + "\(input.what) \(inputPath): " + (isFolder ? "its results.json would be read as a scenario" : "it would replace a scenario or be read as one") + "; write it elsewhere"
            default:
                continue
            }
        }
    }
    return nil
}

/// `--last-failed` after a run without failures: nothing to do, not an error.
struct LastRunPassed: Error {
    var results: String
    /// Why nothing is left when something failed (a --filter that matches none of it).
    var detail: String?
}

/// Runs a suite with progress on a terminal and plain lines elsewhere, writes the reports and
/// returns the exit code.
func runSuite(_ options: RunOptions, _ shared: SuiteOptions, verb: String) throws -> (SuiteResult, SuiteRunner) {
    // Baselines are only read under --record never (the CI default): a read-only checkout is fine then.
    let inputs = [RunInput(what: "the scenarios folder", path: options.scenarios, kind: .files),
                  RunInput(what: "the baselines folder", path: options.baselines, kind: .tree),
                  RunInput(what: "the project file", path: try? ProjectFile.find()?.path, kind: .file)]
    if let problem = outputProblem(folders: [("--report", options.report, true), ("--baselines", options.baselines, options.record != .never)],
                                   files: [("--json", shared.json), ("--junit", shared.junit)])
        ?? inputProblem(files: [("--json", shared.json), ("--junit", shared.junit)], folders: [("--report", options.report)], inputs: inputs) {
        Terminal.error(problem)
        throw ExitCode(Exit.error)
    }
    let runner: SuiteRunner
    do { runner = try SuiteRunner(options: options) } catch let nothing as SuiteRunner.NothingFailedThere {
        Terminal.humanOutput(json: shared.json)("--last-failed: \(nothing.message); nothing to \(verb)")
        throw ExitCode(Exit.passed)
    } catch {
        Terminal.error("\(error)")
        throw ExitCode(Exit.error)
    }
    for errors in runner.catalog.errors { for issue in errors.issues { Terminal.write("\(issue)\n", to: 2) } }
    // The report folder is this run's until it ends (ReportFiles.claim).
    let claim: ReportFiles.Claim
    do {
        claim = try ReportFiles.claim(options.report)
        try claim.begin(command: verb)   // every refusal of the run came before this
    } catch {
        Terminal.error("\(error)")
        throw ExitCode(Exit.error)
    }
    defer { withExtendedLifetime(claim) {} }
    let tty = Terminal.isTTY && !shared.quiet
    let clock = ContinuousClock()
    let start = clock.now
    // Colour is decided for the stream the failure lines go to, not for standard error.
    let color = Terminal.color(shared.color, fd: Terminal.humanStream(json: shared.json))
    // Without a terminal (CI logs), a plain line at each tenth of the frames.
    let plain = !tty && !shared.quiet
    let printed = Counter()
    var result = runner.run { done, total, _, _ in
        if plain {
            let tenth = total > 0 ? done * 10 / total : 10
            if printed.raise(to: tenth) {
                let elapsed = clock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let left = done > 0 ? Int((seconds / Double(done) * Double(total - done)).rounded()) : 0
                Terminal.write("progress: \(done)/\(total) frames, \(left) s left\n", to: 2)
            }
            return
        }
        guard tty, done % 4 == 0 || done == total else { return }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let left = done > 0 ? seconds / Double(done) * Double(total - done) : 0
        let width = 30, filled = total > 0 ? width * done / total : width
        Terminal.write("\r\u{1B}[K[\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(done)/\(total) frames, \(Int(left.rounded()))s left", to: 2)
        if done == total { Terminal.write("\r\u{1B}[K", to: 2) }
    }
    // With JSON on standard output, everything for people goes to standard error.
    let say = Terminal.humanOutput(json: shared.json)
    // What the page and results.json must say beside the frames (an audit, 2026-11-27): that the
    // run was a selection of the suite (a filtered run's page read like the whole suite's), and
    // the orphaned baselines the console names (they were on the console only).
    if let note = selectionNote(options, carried: result.carried.runs.count) { result.notes.append(note) }
    if !result.carried.dropped.isEmpty {
        result.notes.append("Not in this report, though the last run's results had them: " + result.carried.dropped.joined(separator: ", ")
                            + "; check them again for a report of the whole suite.")
    }
    let orphanNote = verb == "check" ? ConsoleReport.orphanNote(runner.orphans().removable, baselines: options.baselines,
                                                                brokenFiles: runner.catalog.brokenFiles,
                                                                options: SuiteRunner.folderOptions(scenarios: options.scenarios, baselines: options.baselines,
                                                                                                   project: try? ProjectFile.find())) : nil
    if let orphanNote { result.notes.append(orphanNote) }
    do { try writeReports(result.withCarried, options: options, shared: shared, say: say) } catch {
        // Every frame was judged, but the verdict could not be saved: an error (2), not a failed frame (1).
        Terminal.error("\(error)")
        throw ExitCode(Exit.error)
    }
    if !shared.quiet {
        for job in result.jobs {
            if shared.verbose || !tty { say(ConsoleReport.jobLine(job)) }
            for line in ConsoleReport.frameLines(job, color: color, verbose: shared.verbose) { say(line) }
        }
    } else {
        // `--quiet` prints errors still: a frame that could not be judged (an unreadable
        // baseline) decides exit 2, and its line names the file (an audit, 2026-11-29: the
        // summary said "1 error" and nothing named it).
        for job in result.jobs where job.frames.contains(where: { $0.status == .error }) {
            var errors = job
            errors.frames = job.frames.filter { $0.status == .error }
            for line in ConsoleReport.frameLines(errors, color: color, verbose: false) { say(line) }
        }
    }
    say(ConsoleReport.summary(result))
    if let line = ConsoleReport.carriedLine(result) { say(line) }
    if verb == "check" {
        if let note = ConsoleReport.newBaselines(result, baselines: options.baselines) { say(note) }
        if !shared.quiet, let hint = ConsoleReport.approveHint(result, report: options.report, baselines: options.baselines) { say(hint) }
        // Orphans of the scenarios and devices this run selected (the whole folder without a selection).
        if !shared.quiet, let orphanNote { say(orphanNote) }
    }
    if !shared.quiet {
        // A record that replaced baselines kept their old pixels in the report: say where to look.
        let changed = result.jobs.reduce(0) { $0 + $1.frames.filter { $0.status == .changed && $0.expected != nil }.count }
        let first = changed >= SuiteRunner.changedArtifactLimit ? "first " : ""
        say("report: \(options.report)/index.html" + (changed > 0 ? " (old and new pixels of the \(first)\(changed) \(changed == 1 ? "frame" : "frames") whose pixels changed)" : ""))
    }
    writeGitHubOutputs(result, report: options.report, say: say)
    return (result, runner)
}

/// A sentence for a run that checked part of the suite: by `--filter`, `--last-failed` or
/// `--device` given on the command line (navreel.yaml's devices are the suite's own); nil for all.
func selectionNote(_ o: RunOptions, carried: Int = 0) -> String? {
    var parts: [String] = []
    // --last-failed's scenarios are in `filters` too, as exact names: the rest were given.
    let given = o.filters.filter { !o.lastFailed.map(Glob.exact).contains($0) }
    if !o.lastFailed.isEmpty {
        parts.append("--last-failed (the \(o.lastFailed.count) \(o.lastFailed.count == 1 ? "scenario" : "scenarios") that failed last time)")
    }
    if !given.isEmpty { parts.append("--filter " + given.joined(separator: ", ")) }
    if !o.devices.isEmpty && o.devicesOrigin == nil { parts.append("--device " + o.devices.joined(separator: ", ")) }
    guard !parts.isEmpty else { return nil }
    // The runs a --last-failed rerun kept make the report whole again (`SuiteRunner.carried`).
    if carried > 0 {
        return "This run reran a selection of the suite: " + parts.joined(separator: "; ")
            + "; the report's other \(carried) \(carried == 1 ? "run is" : "runs are") the last run's, not rerun."
    }
    return "This run checked a selection of the suite, not all of it: " + parts.joined(separator: "; ") + "."
}

/// Under GitHub Actions: an `::error` annotation per failing run and scenario error, and the
/// Markdown step summary (the file is made when it does not exist yet, cli.md). check, compare
/// and merge-reports write the same.
func writeGitHubOutputs(_ result: SuiteResult, report: String, say: (String) -> Void) {
    guard Terminal.environment("GITHUB_ACTIONS") == "true" else { return }
    for line in ConsoleReport.annotations(result) { say(line) }
    if let path = Terminal.environment("GITHUB_STEP_SUMMARY"), !path.isEmpty {
        do { try GitHubActions.appendSummary(ConsoleReport.markdown(result, reportPath: report), to: path) } catch {
            Terminal.write("navreel: warning: \(error)\n", to: 2)
        }
    }
}

func writeReports(_ result: SuiteResult, options: RunOptions, shared: SuiteOptions, say: (String) -> Void) throws {
    let json = try ResultJSON.writeReport(result, to: options.report, baselines: options.baselines)
    if let path = shared.json {
        if path == "-" { print(json, terminator: "") } else { try FileOutput.write(json, to: path) }
    }
    if let path = shared.junit { try FileOutput.write(JUnitReport.xml(result, reportPath: options.report), to: path) }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Render every scenario, compare each frame with its baseline, write reports.",
        discussion: """
        Record modes (--record or NAVREEL_RECORD): missing (default on a workstation) writes absent \
        baselines; failed also replaces failing ones; all rewrites every changed frame; never (default \
        when CI is set) writes nothing, so a missing baseline fails. Exit status: 0 every frame passed, \
        1 a frame failed or a baseline is missing, 2 a scenario or baseline could not be read.
        """
    )

    @Option(help: "When to write baselines (default: NAVREEL_RECORD, else never under CI, else missing).")
    var record: RecordMode?

    @OptionGroup var options: SuiteOptions

    mutating func run() throws {
        let mode: RecordMode, source: RecordMode.Source
        do { (mode, source) = try RecordMode.resolveWithSource(flag: record, environment: ProcessInfo.processInfo.environment) } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        // Asked to write baselines (a --record or NAVREEL_RECORD other than never), check may make the
        // folder navreel.yaml names; by its default it compares, and a missing folder is a typo.
        try options.applyProjectFile(writesBaselines: mode != .never && (source == .flag || source == .environment))
        let run: RunOptions
        do { run = try options.runOptions(record: mode) } catch let passed as LastRunPassed {
            Terminal.humanOutput(json: options.json)("--last-failed: " + (passed.detail ?? "no scenario failed in \(passed.results)") + "; nothing to check")
            throw ExitCode(Exit.passed)
        }
        let (result, _) = try runSuite(run, options, verb: "check")
        throw ExitCode(result.exitCode)
    }
}

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Render and write baselines; only frames whose pixels or maps changed are rewritten.",
        discussion: """
        With --prune, also remove baselines no scenario produces any more, as `navreel prune` does: \
        within the scenarios --filter selects; --device, --shard and navreel.yaml's devices choose what is \
        rendered, not what may go (a frame any scenario makes on any device it declares stays).
        """
    )

    @Flag(help: "Remove baselines no scenario produces, in the folders of the scenarios --filter selects (see navreel prune).")
    var prune = false

    @OptionGroup var options: SuiteOptions

    mutating func run() throws {
        try options.applyProjectFile(writesBaselines: true)
        let run: RunOptions
        do { run = try options.runOptions(record: .all) } catch let passed as LastRunPassed {
            Terminal.humanOutput(json: options.json)("--last-failed: " + (passed.detail ?? "no scenario failed in \(passed.results)") + "; nothing to record")
            throw ExitCode(Exit.passed)
        }
        let (result, runner) = try runSuite(run, options, verb: "record")
        var removed = 0
        // With --json -, standard output is the JSON's alone.
        let say = Terminal.humanOutput(json: options.json)
        if prune {
            let found = try prunable(runner, baselines: run.baselines)
            if !options.quiet {
                for item in found.notBaselines { say("kept \(run.baselines)/\(item): \(Prune.notBaseline)") }
            }
            do {
                for path in try SuiteRunner.remove(found.removable, in: run.baselines) {
                    if options.verbose { say("removed \(path)") }
                    removed += 1
                }
            } catch {
                Terminal.error("\(error)")
                throw ExitCode(Exit.error)
            }
        }
        let kept = result.count(.passed)
        say("record: \(result.count(.added)) added, \(result.count(.changed)) changed, \(kept) kept, \(removed) removed")
        // Without --prune, the orphans check names (a renamed scenario's old folder): record is the
        // one-command update, and said "0 removed" over 74 of them (an audit, 2026-11-27).
        if !prune, !options.quiet, let note = ConsoleReport.orphanNote(runner.orphans().removable, baselines: run.baselines,
                                                                       brokenFiles: runner.catalog.brokenFiles,
                                                                       remover: "`navreel prune` or `navreel record --prune`",
                                                                       options: SuiteRunner.folderOptions(scenarios: run.scenarios, baselines: run.baselines,
                                                                                                          project: try? ProjectFile.find())) {
            say(note)
        }
        throw ExitCode(result.exitCode)
    }
}

struct Approve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Promote the failing frames of the last check (or compare) report to baselines (or expected frames), without rendering again."
    )

    @Option(help: "Folder of the last check's report (default: navreel.yaml's, else .navreel/report).")
    var report: String?

    @Option(help: "Folder of approved frames (default: the one the report's check used, else navreel.yaml's, else Baselines).")
    var baselines: String?

    @Option(name: .customLong("filter"), help: "Only scenarios whose name contains this text, or matches this glob when it has * ? or [ (repeatable; for a compare report, the frame's path).")
    var filters: [String] = []

    @Option(name: .customLong("device"), help: "Only this device of a check report (repeatable).")
    var devices: [String] = []

    @Option(name: .customLong("run"), help: "Only this run, by its exact name: a check's scenario, or a compare's folder of frames (. for the top one) (repeatable).")
    var runs: [String] = []

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    mutating func run() throws {
        do {
            let project = try ProjectFile.find()
            let folder = report ?? project?.reportFolder ?? ".navreel/report"
            let approved = try Approval.run(report: folder, baselines: baselines,
                                            fallback: project?.baselinesFolder ?? "Baselines", filters: filters, devices: devices, runs: runs,
                                            projectFolder: project.map { PathText.parent($0.path) },
                                            warn: { Terminal.write("navreel: warning: \($0)\n", to: 2) },
                                            wrote: { path in if !quiet { Terminal.write("approved \(path)\n", to: 1) } })
            if approved.isEmpty && !(filters.isEmpty && devices.isEmpty && runs.isEmpty) {
                let asked = [("--filter", filters), ("--device", devices), ("--run", runs)].filter { !$0.1.isEmpty }
                    .map { "\($0.0) \($0.1.joined(separator: ", "))" }.joined(separator: " ")
                // A selection that names no run of a check's report at all is a mistake, as in
                // `check` and `prune` (exit 2), not an empty approval (an audit, 2026-11-29: a
                // mistyped approve step in a script passed). (A compare report's --filter is on
                // frame paths: only the warning.)
                if let loaded = try? ResultJSON.load(folder + "/results.json"), loaded.runs.allSatisfy({ $0.expectedFolder == nil }) {
                    let selected = loaded.runs.filter { r in
                        (filters.isEmpty || filters.contains { Glob.matches($0, r.scenario) }) && (devices.isEmpty || devices.contains(r.device))
                            && (runs.isEmpty || runs.contains(r.scenario))
                    }
                    if selected.isEmpty {
                        let names = Array(Set(loaded.runs.map { "\($0.scenario)/\($0.device)" })).sorted()
                        throw UsageError("no run of the report \(folder) matches \(asked); its runs: \(names.joined(separator: ", "))")
                    }
                }
                Terminal.write("navreel: warning: no failing or missing frame of the report matches \(asked)\n", to: 2)
            }
            if !quiet { Terminal.write("\(approved.count) frames approved\n", to: 1) }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
    }
}

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List scenarios, devices and frames.")

    @Option(name: .customLong("scenarios"), help: "Folder of scenario files (default: navreel.yaml's, else Fixtures/scenarios).")
    var directory: String?

    @Option(name: .customLong("filter"), help: "Only scenarios whose name contains this text, or matches this glob when it has * ? or [ (repeatable).")
    var filters: [String] = []

    @Option(name: .customLong("device"), help: "Only this device (repeatable; default: navreel.yaml's devices, else every device), as check selects them.")
    var devices: [String] = []

    @Flag(help: "Print JSON: one object per scenario and device, and the total.")
    var json = false

    @OptionGroup var limits: LimitOptions

    /// `list --json`: what CI scripts read to plan shards or matrices.
    struct Listing: Codable {
        struct Run: Codable { var scenario, device, file: String; var frames: Int; var seconds: Double; var fps: Int; var capture: String }
        var schema = "navreel-list"
        var version = 1
        var runs: [Run]
        var frames: Int
        var errors: [String]
    }

    mutating func run() throws {
        let catalog: ScenarioCatalog
        // The runs check would make: navreel.yaml's devices unless --device says otherwise.
        var selected = devices
        do {
            let project = try ProjectFile.find()
            let folder = directory ?? project?.scenariosFolder ?? "Fixtures/scenarios"
            catalog = try ScenarioCatalog(directory: folder, filters: filters)
            if let problem = catalog.emptyProblem(filters: filters) { throw UsageError(problem) }
            var origin: String?
            if selected.isEmpty, let project, !project.devices.isEmpty { (selected, origin) = (project.devices, project.places["devices"]) }
            // A filter or device that selects nothing is the same usage error as check's (with a
            // suggestion), not an empty list that reads as a suite without scenarios.
            try SuiteRunner.validate(filters: filters, devices: selected, catalog: catalog, devicesOrigin: origin)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        var runs: [Listing.Run] = []
        for s in catalog.scenarios.sorted(by: { $0.name < $1.name }) {
            for d in s.devices where selected.isEmpty || selected.contains(d.name) {
                let t = Timeline(scenario: s, device: d)
                runs.append(.init(scenario: s.name, device: d.name, file: s.file, frames: t.frameCount, seconds: t.duration, fps: s.fps, capture: s.capture.rawValue))
            }
        }
        let total = runs.reduce(0) { $0 + $1.frames }
        for e in catalog.errors { for i in e.issues { Terminal.write("\(i)\n", to: 2) } }
        // What check would refuse before rendering, by the same limits and flags: listed, and said.
        // The whole run's pixels only when --max-run-pixels is given: check counts them per
        // shard, and a suite listed to plan its shards may be over the total that no shard is.
        var runLimits = try limits.limits()
        if limits.maxRunPixels == nil { runLimits.maxRunPixels = .max }
        let overLimit = runLimits.problems(catalog.scenarios, devices: selected)
        for i in overLimit { Terminal.write("\(i)\n", to: 2) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let listing = Listing(runs: runs, frames: total, errors: catalog.errors.flatMap { $0.issues.map(\.description) } + overLimit.map(\.description))
            print(String(decoding: try encoder.encode(listing), as: UTF8.self))
        } else {
            for r in runs {
                print("\(r.scenario)\t\(r.device)\t\(r.frames) frames\t\(String(format: "%.2f", r.seconds)) s\t\(r.fps) fps\t\(r.capture)")
            }
            print("\(total) frames")
        }
        throw ExitCode(catalog.errors.isEmpty && overLimit.isEmpty ? Exit.passed : Exit.error)
    }
}

/// The orphans `prune` and `record --prune` may remove, or exit 2 naming why none may go: a
/// scenario file with errors produces nothing, so its baselines would look orphaned; and
/// `Orphans.refusal` (scenarios and baselines that do not belong together).
func prunable(_ runner: SuiteRunner, baselines: String, folders: [String] = []) throws -> SuiteRunner.Orphans {
    guard runner.catalog.errors.isEmpty else {
        Terminal.error("not pruning: scenario files have errors (navreel lint); their baselines would look orphaned")
        throw ExitCode(Exit.error)
    }
    let found = runner.orphans(folders: folders)
    if !folders.isEmpty && found.foldersLookedAt == 0 {
        let names = SuiteRunner.entries(baselines, directories: true)
        let hint = Suggestion.hint(folders[0], names)
        Terminal.error("no scenario folder in \(baselines) matches --filter \(folders.joined(separator: ", "))\(hint)"
                       + (names.isEmpty ? "" : "; folders: \(names.joined(separator: ", "))"))
        throw ExitCode(Exit.error)
    }
    if let refusal = found.refusal(catalog: runner.catalog, baselines: baselines) {
        Terminal.error("not pruning: " + refusal)
        throw ExitCode(Exit.error)
    }
    return found
}

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "List or remove baselines that no scenario produces.",
        discussion: """
        A frame is produced when any scenario makes it on any device it declares. Only files in the \
        baselines' layout (<scenario>/<device>/NNNN.png, no symbolic links) that NavReel wrote are \
        removed; any other PNG found there is listed and kept, and files elsewhere are never looked \
        at. Device and scenario folders left empty are removed too. Refuses to run while a scenario \
        file has an error, since its baselines would look orphaned. --filter narrows the scenario \
        folders looked at by name, including folders of scenarios that no longer exist.
        """
    )

    /// Why a PNG in the baselines' layout stays.
    static let notBaseline = "not a baseline NavReel wrote, or damaged"

    @Flag(help: "Only list them.")
    var dryRun = false

    @Option(name: .customLong("scenarios"), help: "Folder of scenario files (default: navreel.yaml's, else Fixtures/scenarios).")
    var directory: String?

    @Option(help: "Folder of approved frames (default: navreel.yaml's, else Baselines).")
    var baselines: String?

    @Option(name: .customLong("filter"), help: ArgumentHelp("Look only at scenario folders whose names match (repeatable; as check's --filter, on folder names).", valueName: "glob"))
    var filters: [String] = []

    @OptionGroup var limits: LimitOptions

    mutating func run() throws {
        var o = RunOptions()
        let runner: SuiteRunner
        do {
            let project = try ProjectFile.find()
            o.scenarios = directory ?? project?.scenariosFolder ?? "Fixtures/scenarios"
            o.baselines = baselines ?? project?.baselinesFolder ?? "Baselines"
            o.limits = try limits.limits()
            runner = try SuiteRunner(options: o)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        for errors in runner.catalog.errors { for issue in errors.issues { Terminal.write("\(issue)\n", to: 2) } }
        let found = try prunable(runner, baselines: o.baselines, folders: filters)
        for item in found.notBaselines { print("kept \(o.baselines)/\(item): \(Self.notBaseline)") }
        if dryRun {
            for item in found.removable { print("would remove \(o.baselines)/\(item)") }
        } else {
            do {
                for path in try SuiteRunner.remove(found.removable, in: o.baselines) { print("removed \(path)") }
            } catch {
                Terminal.error("\(error)")
                throw ExitCode(Exit.error)
            }
        }
        print("\(found.removable.count) orphaned baselines\(dryRun ? " (dry run)" : " removed")")
    }
}

struct MergeReports: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge-reports", abstract: "Merge the JSON results of shards into one report.")

    @Argument(help: "Report folders (or results.json files) of the shards.")
    var inputs: [String]

    @Option(help: "Folder of the merged report.")
    var report: String

    @Option(help: "Also write JUnit XML here.")
    var junit: String?

    @Option(help: "Also write the merged results as JSON here (- for standard output, which then holds the JSON alone).")
    var json: String?

    mutating func run() throws {
        // The shards' report folders are inputs: `--json` or `--junit` must not land in one (an
        // audit, 2026-11-29: `--json x2/results.json` replaced a shard's results, and `--junit
        // x1/index.html` its page). The report folder may be one of them: it is merged into.
        let shardInputs = inputs.flatMap { input -> [RunInput] in
            guard input.hasSuffix(".json") else { return [RunInput(what: "a shard's report folder", path: input, kind: .tree)] }
            // A results file given alone: the file, and its folder when that is a report's (not
            // the working folder, which would refuse every output).
            let folder = PathText.parent(input)
            return [RunInput(what: "a shard's results", path: input, kind: .file)]
                + (folder.isEmpty || folder == "." ? [] : [RunInput(what: "a shard's report folder", path: folder, kind: .tree)])
        }
        if let problem = outputProblem(folders: [("--report", report, true)], files: [("--json", json), ("--junit", junit)])
            ?? inputProblem(files: [("--json", json), ("--junit", junit)], folders: [], inputs: shardInputs) {
            Terminal.error(problem)
            throw ExitCode(Exit.error)
        }
        let say = Terminal.humanOutput(json: json)
        do {
            let files = try inputs.map { input -> ResultJSON.Loaded in
                var isDir: ObjCBool = false
                let path = FileManager.default.fileExists(atPath: input, isDirectory: &isDir) && isDir.boolValue ? input + "/results.json" : input
                return try ResultJSON.load(path)
            }
            let merged = try ResultJSON.merge(files)
            // Taken once the shards' results are read. When the target is one of the inputs its
            // results stay until the merge writes them again: a failure on the way must not lose
            // a shard.
            let claim = try ReportFiles.claim(report)
            defer { withExtendedLifetime(claim) {} }
            // Failure images are copied beside the merged results, keeping their relative paths;
            // frames an earlier merge left there go first (unless the target is also an input).
            // The same folder however it is spelled (`s1`, `$PWD/s1`, a link, `results.json` alone).
            func real(_ p: String) -> String { FileOutput.resolvedPath(p) }
            let dirs = inputs.map { real($0.hasSuffix(".json") ? PathText.parent($0) : $0) }
            if !dirs.contains(real(report)) {
                try claim.begin(command: "merge-reports")
                ReportFiles.clearFrames(in: report)
            }
            for input in inputs {
                let dir = input.hasSuffix(".json") ? PathText.parent(input) : input
                try Approval.copyFrames(from: dir, to: report)
            }
            let text = try ResultJSON.writeReport(merged, to: report, baselines: merged.baselines ?? "Baselines")
            if let junit { try FileOutput.write(JUnitReport.xml(merged, reportPath: report), to: junit) }
            if let json {
                if json == "-" { print(text, terminator: "") } else { try FileOutput.write(text, to: json) }
            }
            // The merge's own errors (a shard missing) and the shards' scenario errors, as check prints them.
            for e in merged.scenarioErrors {
                // Scenario errors carry their own `FILE:LINE:COL: error:`; the merge's own do not.
                if SuiteResult.fileOfError(e) != nil { Terminal.write(e + "\n", to: 2) } else { Terminal.error(e) }
            }
            say(ConsoleReport.summary(merged))
            say("report: \(report)/index.html")
            // Under GitHub Actions the merged run is what a workflow's last job shows.
            writeGitHubOutputs(merged, report: report, say: say)
            throw ExitCode(merged.exitCode)
        } catch let e as ExitCode {
            throw e
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
    }
}
