import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// When `check` writes baselines (swift-snapshot-testing's record modes, Playwright's
/// --update-snapshots).
public enum RecordMode: String, Sendable, CaseIterable {
    /// Write baselines that do not exist yet.
    case missing
    /// Write missing baselines and replace failing ones.
    case failed
    /// Write every frame whose pixels or maps changed.
    case all
    /// Never write; a missing baseline fails.
    case never

    /// `--record`, else `NAVREEL_RECORD`, else `never` under CI and `missing` on a workstation.
    public static func resolve(flag: RecordMode?, environment: [String: String]) throws -> RecordMode {
        try resolveWithSource(flag: flag, environment: environment).mode
    }

    /// Where a resolved mode came from, for messages that say how to change it.
    public enum Source: Sendable { case flag, environment, ci, workstation }

    /// `resolve`, and which rule gave the mode.
    public static func resolveWithSource(flag: RecordMode?, environment: [String: String]) throws -> (mode: RecordMode, source: Source) {
        if let flag { return (flag, .flag) }
        if let value = environment["NAVREEL_RECORD"], !value.isEmpty {
            guard let mode = RecordMode(rawValue: value) else {
                throw UsageError("NAVREEL_RECORD=\(value): use missing, failed, all or never")
            }
            return (mode, .environment)
        }
        let ci = environment["CI"].map { !$0.isEmpty && $0 != "0" && $0.lowercased() != "false" } == true
        return ci ? (.never, .ci) : (.missing, .workstation)
    }
}

/// Options of a suite run (`check`, `record`).
public struct RunOptions: Sendable {
    public var scenarios = "Fixtures/scenarios"
    public var baselines = "Baselines"
    public var report = ".navreel/report"
    /// Changed frames of one record whose old and new pixels its report keeps.
    public var changedArtifactLimit = SuiteRunner.changedArtifactLimit
    public var filters: [String] = []
    public var devices: [String] = []
    public var jobs = ImageComparator.defaultJobs
    public var record = RecordMode.missing
    /// Tolerance flags from the command line, applied over each scenario's own.
    public var overrides = ToleranceOverrides()
    public var shard: (index: Int, count: Int) = (1, 1)
    /// Rewrite frames whose pixels did not change (never done by default: git stays clean).
    public var rewriteUnchanged = false
    /// Bounds on frames and pixels, checked before rendering.
    public var limits = RunLimits.default
    /// What a missing baseline's message tells to run; nil: the command line that writes it
    /// (`SuiteRunner.recordMissingCommand`). Swift tests say how to record from a test instead.
    public var missingHint: String?
    /// Where `devices` came from when navreel.yaml gave them (`navreel.yaml:4:10`), for errors.
    public var devicesOrigin: String?
    /// The scenarios `--last-failed` selected (also in `filters`, as exact globs): named when
    /// none of them is in the catalog any more.
    public var lastFailed: [String] = []
    /// Under `--last-failed`, the --filter given (`filters` then holds the failed scenarios'
    /// names): the selection a shard is taken from, so that `--shard K/N --last-failed` reruns
    /// the failures of shard K's report, not shard K of the failures.
    public var selectionFilters: [String] = []
    /// Under `--last-failed`, the shard (K, N) the results read were written by: when it is this
    /// run's, every failure there is this shard's (whatever the catalog is now) and all are rerun.
    public var lastFailedShard: (index: Int, count: Int)?
    /// Under `--last-failed`, the results it read when they are the report folder's own (not
    /// those of the run before an interrupted one, whose images are gone): their runs this run
    /// does not rerun are kept in the new report (`SuiteRunner.carried`).
    public var lastRun: ResultsDocument?
    public init() {}
}


/// One frame's outcome.
public struct FrameOutcome: Sendable {
    public enum Status: String, Sendable, CaseIterable {
        case passed
        case failed
        /// No baseline, and the record mode did not allow writing one.
        case missing
        /// A baseline was written (added) or replaced (changed).
        case added, changed
        /// The baseline could not be read (corrupt, unreadable), or the frame could not be rendered.
        case error
        /// Reported but not compared: outside the overlap of two aligned captured sequences.
        case skipped
    }
    public var index: Int
    public var time: Double
    public var status: Status
    public var comparison: Comparison?
    public var message: String?
    /// The baseline was written by another font or renderer version than this run's.
    public var drift: [String] = []
    /// Report-relative paths of the artifacts (failures only).
    public var expected: String?
    public var actual: String?
    public var diff: String?
    /// Report-relative path of a small copy of a frame without full-size artifacts (passing,
    /// added, changed), so that the report shows every frame from inside its own folder: a sheet
    /// of the job's thumbnails (`ThumbnailSheet`), or a file of its own (reports of earlier versions).
    public var thumbnail: String?
    /// The frame's rectangle in the `thumbnail` sheet; nil: the whole file is the thumbnail.
    public var thumbnailRect: PixelRect?
    /// The baseline matched without decoding it.
    public var fastPath = false
    /// For images captured elsewhere: the file's path relative to both folders.
    public var source: String?
    /// A change the scenario makes to the frame itself here, such as a rotation's new size.
    public var event: String?
    /// For images captured elsewhere: the file each side came from, and its time in it (decoded
    /// animations and videos).
    public var expectedFile: String?
    public var actualFile: String?
    public var expectedTime: Double?
    public var actualTime: Double?
    /// Where the scenario step that produced this frame is written (line and column of its file).
    public var line: Int?
    public var column: Int?

    public init(index: Int, time: Double, status: Status, comparison: Comparison? = nil, message: String? = nil,
                drift: [String] = [], fastPath: Bool = false) {
        self.index = index
        self.time = time
        self.status = status
        self.comparison = comparison
        self.message = message
        self.drift = drift
        self.fastPath = fastPath
    }
}

public struct JobResult: Sendable {
    public var scenario: String
    public var device: String
    public var file: String
    public var frames: [FrameOutcome]
    /// For `compare`: the folder of expected frames that `approve` writes into.
    public var expectedFolder: String?
    /// How CI outputs group the run (a JUnit suite, a step summary row): a check's scenario, or a
    /// compare's folder of expected frames (its `file`), not ".".
    public var ciGroup: String { expectedFolder != nil ? file : scenario }
    /// How CI outputs name the run: a check's `scenario/device`, or a compare's folder, not "./captured".
    public var ciName: String { expectedFolder != nil ? file : scenario + "/" + device }
    /// For `compare`: ignored rectangles, in the pixels of the compared frames.
    public var ignored: [PixelRect] = []
    /// Seconds spent rendering and comparing this run's frames (summed over workers).
    public var seconds: Double = 0
    /// SHA-256 of the scenario file's bytes when the run read it (`fileDigest` in results.json):
    /// `approve` warns when the file has changed since, as the frames it promotes are then what
    /// the file drew before.
    public var fileDigest: String?
    /// A run a `--last-failed` rerun did not render: when the run it is the result of started
    /// (`carriedFrom` in results.json), kept in the report so that it stays whole (`SuiteRunner.carried`).
    public var carriedFrom: String?
    public init(scenario: String, device: String, file: String, frames: [FrameOutcome]) {
        self.scenario = scenario
        self.device = device
        self.file = file
        self.frames = frames
    }
}

/// What a `--last-failed` rerun keeps of the results it read (`SuiteRunner.carried`).
public struct CarriedRuns: Sendable {
    /// The runs it did not rerun, each with `carriedFrom`.
    public var runs: [JobResult] = []
    /// Their images in the report (paths below it), which the rerun must not remove.
    public var files: Set<String> = []
    /// Runs of those results not kept, each as `scenario/device (why)`: the scenario file
    /// changed since (its result would describe what the file was), or images the run names
    /// are gone from the report.
    public var dropped: [String] = []
    /// Today's errors of the suite's scenario files the rerun did not select.
    public var errors: [String] = []
    /// Each scenario's devices in its order: the report lists one scenario's runs so.
    public var deviceOrder: [String: [String]] = [:]
    public init() {}
}

public struct SuiteResult: Sendable {
    public var jobs: [JobResult]
    /// Scenario files that could not be read, with their messages.
    public var scenarioErrors: [String]
    public var shard: (index: Int, count: Int)
    public var recordMode: RecordMode
    /// When the run started and how long it took (wall clock), for JUnit and the reports.
    public var started: Date?
    public var seconds: Double = 0
    /// The baselines folder of a `check` (`ResultsDocument.baselines`).
    public var baselines: String?
    /// The folder the run worked in (`ResultsDocument.workingFolder`).
    public var workingFolder: String?
    /// What the run did to its inputs that their files do not show (`ResultsDocument.notes`).
    public var notes: [String] = []
    /// Under `--last-failed`: what the report keeps of the last run's results besides this run's
    /// (`SuiteRunner.carried`). Not in `jobs` or `scenarioErrors`: the console's summary and the
    /// exit status are this run's; the report's files hold both (`withCarried`).
    public var carried = CarriedRuns()

    /// The result as the report folder keeps it: this run's runs and the carried ones, by name.
    public var withCarried: SuiteResult {
        guard !carried.runs.isEmpty || !carried.errors.isEmpty else { return self }
        var r = self
        // By scenario, then in the scenario's order of devices (as a run lists them).
        let order = carried.deviceOrder
        func rank(_ j: JobResult) -> Int { order[j.scenario]?.firstIndex(of: j.device) ?? Int.max }
        r.jobs = (jobs + carried.runs).sorted { ($0.scenario, rank($0), $0.device) < ($1.scenario, rank($1), $1.device) }
        r.scenarioErrors += carried.errors.filter { !scenarioErrors.contains($0) }
        r.carried = CarriedRuns()
        return r
    }

    public init(jobs: [JobResult], scenarioErrors: [String], shard: (index: Int, count: Int), recordMode: RecordMode) {
        self.jobs = jobs
        self.scenarioErrors = scenarioErrors
        self.shard = shard
        self.recordMode = recordMode
    }

    public func count(_ s: FrameOutcome.Status) -> Int { jobs.reduce(0) { $0 + $1.frames.filter { $0.status == s }.count } }
    public var frameCount: Int { jobs.reduce(0) { $0 + $1.frames.count } }

    /// 0 every frame passed (or was recorded on purpose); 1 a frame failed, a baseline is
    /// missing, or `check` wrote a new baseline in `missing` mode; 2 a scenario or baseline could
    /// not be read. A baseline written because none existed fails the run that wrote it, so that
    /// the new files get reviewed and committed: swift-snapshot-testing fails the test that
    /// records ("No reference was found on disk. Automatically recorded snapshot"), Playwright
    /// fails a test whose snapshot it writes under `--update-snapshots=missing` (its default).
    /// The file a scenario error names (`FILE:LINE:COL: error: ...`); nil for an error of the run
    /// itself (a merge's missing shard).
    public static func fileOfError(_ error: String) -> String? {
        guard error.contains(": error: "), let colon = error.firstIndex(of: ":") else { return nil }
        return String(error[..<colon])
    }

    /// The scenario a scenario error stands for, by its file's name without the extension
    /// (`Fixtures/scenarios/wechat-pop.yaml:27:5: error: ...` is wechat-pop), as the catalog
    /// names a file it cannot read; nil when it names no scenario file (`--last-failed`).
    public static func scenarioOfError(_ error: String) -> String? {
        guard let file = fileOfError(error) else { return nil }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = name.lastIndex(of: "."), ScenarioCatalog.extensions.contains(String(name[name.index(after: dot)...]).lowercased()),
              dot > name.startIndex else { return nil }
        return String(name[..<dot])
    }

    public var exitCode: Int32 {
        if !scenarioErrors.isEmpty || count(.error) > 0 { return 2 }
        if count(.failed) > 0 || count(.missing) > 0 { return 1 }
        if recordMode == .missing && count(.added) > 0 { return 1 }
        return 0
    }
}

/// Renders every scenario and device, compares each frame with its baseline, records where the
/// mode says so, and writes failure artifacts. Results do not depend on the number of jobs.
public final class SuiteRunner: @unchecked Sendable {
    public let options: RunOptions
    let renderer: FrameRenderer
    public let catalog: ScenarioCatalog
    /// The navreel.yaml of the working folder, for the commands messages suggest (found once).
    let projectFile: ProjectFile?
    /// The baselines this runner's runs wrote, by job and content (`WrittenFiles`).
    let writtenFiles = WrittenFiles()

    public init(options: RunOptions) throws {
        self.options = options
        projectFile = try? ProjectFile.find()
        catalog = try ScenarioCatalog(directory: options.scenarios, filters: options.filters)
        if let problem = catalog.emptyProblem(filters: options.filters) { throw UsageError(problem) }
        try Self.validate(filters: options.filters, devices: options.devices, catalog: catalog, lastFailed: options.lastFailed,
                          devicesOrigin: options.devicesOrigin)
        renderer = try FrameRenderer(fixturesRoot: catalog.fixturesRoot)
        if !options.lastFailed.isEmpty && options.shard.count > 1 {
            if let read = options.lastFailedShard, read == options.shard {
                // The results are this shard's own: every failure there ran in it, whatever the
                // plan of today's catalog (a scenario added or mended since moves the others).
                shardNames = Set(catalog.scenarios.map(\.name))
            } else {
                // The shard as the run that failed saw it: of the whole selection, then the
                // failures in it (an audit, 2026-11-29: the failures were split again, so shard
                // 2's retry ran nothing and exited 0).
                let all = try ScenarioCatalog(directory: options.scenarios, filters: options.selectionFilters)
                shardNames = Set(Self.shard(all.scenarios, renderer: renderer, options: options).map(\.name))
            }
        }
        let over = options.limits.problems(scenarios, devices: options.devices)
        if !over.isEmpty { throw UsageError(over.map(\.description).joined(separator: "\n")) }
    }

    /// A run over scenarios already loaded (`NavReelTesting`): `options.scenarios` is not read.
    public init(options: RunOptions, catalog: ScenarioCatalog) throws {
        self.options = options
        self.catalog = catalog
        projectFile = nil   // Swift tests give their own `missingHint`
        try Self.validate(filters: [], devices: options.devices, catalog: catalog)
        renderer = try FrameRenderer(fixturesRoot: catalog.fixturesRoot)
        // The same limits as a run over a folder of scenarios (init(options:)).
        let over = options.limits.problems(scenarios, devices: options.devices)
        if !over.isEmpty { throw UsageError(over.map(\.description).joined(separator: "\n")) }
    }

    /// `--last-failed` with a selection none of the failed scenarios is in: nothing to rerun.
    public struct NothingFailedThere: Error { public var message: String }

    /// A filter or device that selects nothing is a mistake, not an empty pass.
    public static func validate(filters: [String], devices: [String], catalog: ScenarioCatalog, lastFailed: [String] = [],
                                devicesOrigin: String? = nil) throws {
        if !filters.isEmpty && catalog.entries.isEmpty {
            let all = try ScenarioCatalog(directory: catalog.directory)
            let names = all.scenarios.map(\.name)
            if !lastFailed.isEmpty {
                let them = lastFailed.map { "`\($0)`" }.joined(separator: ", ")
                let exact = Set(lastFailed.map(Glob.exact))
                let own = filters.filter { !exact.contains($0) }
                throw UsageError("--last-failed: \(them) failed in the last run, but no scenario in \(catalog.directory) has "
                                 + "\(lastFailed.count == 1 ? "that name" : "those names") now (renamed or removed?)\(Suggestion.hint(lastFailed[0], names))"
                                 + (own.isEmpty ? "" : ", and none matches --filter \(own.joined(separator: ", "))")
                                 + "; run without --last-failed")
            }
            let hint = filters.first.map { Suggestion.hint($0, names) } ?? ""
            throw UsageError("no scenario matches --filter \(filters.joined(separator: ", "))\(hint); scenarios: \(names.joined(separator: ", "))")
        }
        let known = Set(catalog.scenarios.flatMap { $0.devices.map(\.name) })
        // Under --last-failed the catalog holds the failed scenarios alone: a device the suite
        // uses but none of them does leaves nothing to rerun, which is not a typo (an audit,
        // 2026-11-29: it was told "no scenario uses device `iphone-se`").
        // With several devices (navreel.yaml's), those the failed scenarios use are rerun and the
        // others left out; only when none is theirs is nothing left (a review, 2026-11-29: one
        // unused device of two skipped the other's failures with exit 0).
        var suiteDevices = Set<String>()
        if !lastFailed.isEmpty, devices.contains(where: { !known.contains($0) }), let all = try? ScenarioCatalog(directory: catalog.directory) {
            suiteDevices = Set(all.scenarios.flatMap { $0.devices.map(\.name) })
            if !devices.contains(where: { known.contains($0) }), let d = devices.first(where: { suiteDevices.contains($0) }) {
                throw NothingFailedThere(message: "the scenarios that failed (\(lastFailed.joined(separator: ", "))) do not run on "
                                         + (devices.count == 1 ? "device `\(d)`" : "devices \(devices.map { "`\($0)`" }.joined(separator: ", "))"))
            }
        }
        for d in devices where !known.contains(d) && !suiteDevices.contains(d) {
            throw UsageError((devicesOrigin.map { "\($0): devices: " } ?? "") + "no scenario uses device `\(d)`\(Suggestion.hint(d, known.sorted())); devices: \(known.sorted().joined(separator: ", "))")
        }
    }

    /// The scenarios of this shard: a deterministic partition balanced by frame count (each
    /// scenario, largest first, goes to the shard with the fewest frames so far; ties by name and
    /// by lowest shard), so that shards take about the same time.
    public var scenarios: [Scenario] {
        if let shardNames { return catalog.scenarios.filter { shardNames.contains($0.name) } }
        return Self.shard(catalog.scenarios, renderer: renderer, options: options)
    }

    /// Shard `options.shard` of `scenarios`.
    static func shard(_ scenarios: [Scenario], renderer: FrameRenderer, options: RunOptions) -> [Scenario] {
        ShardPlan.assign(scenarios.map { s in (s, renderer.jobs(for: s, devices: options.devices).reduce(0) { $0 + $1.frameCount }) },
                         shards: options.shard.count, index: options.shard.index)
    }

    /// Under `--last-failed` with shards: the names in the shard of the whole selection.
    private var shardNames: Set<String>?

    public var jobs: [FrameRenderer.Job] { scenarios.flatMap { renderer.jobs(for: $0, devices: options.devices) } }

    /// Under `--last-failed`, the runs of the results it read that this run does not rerun (the
    /// passing ones, and failures a --filter or --device left out), each with when the run it
    /// is the result of started. The report keeps them with their images, so a shard retried
    /// with `--last-failed` into its own folder still holds the whole shard (an audit,
    /// 2026-11-29: `merge-reports` of such a retry and the other shard held 582 of 1,025 frames,
    /// and said nothing). Kept only when the results are this shard's, and only runs the suite
    /// still makes: the scenario, from the same file of the scenarios folder, loads today, runs on
    /// that device, and its file has the digest it had (a review, 2026-11-29: runs on a device
    /// the scenario had dropped, of a file that no longer loaded or of another --scenarios folder
    /// were carried as "not rerun", and a stale failure kept a passing rerun's report failed).
    public func carried() -> CarriedRuns {
        guard let last = options.lastRun, last.shard.index == options.shard.index, last.shard.count == options.shard.count,
              let all = try? ScenarioCatalog(directory: options.scenarios) else { return CarriedRuns() }
        var out = CarriedRuns()
        var plan: [String: (file: String, devices: [String], digest: String?)] = [:]
        for scenario in all.scenarios {
            let devices = renderer.jobs(for: scenario, devices: []).map(\.device.name)
            plan[scenario.name] = (FileOutput.resolvedPath(scenario.file), devices, Self.fileDigest(scenario.file))
            out.deviceOrder[scenario.name] = devices
        }
        let jobs = self.jobs   // (planned once: the property plans every scenario's jobs again)
        let rerun = Set(jobs.map { $0.scenario.name + "\u{0}" + $0.device.name })
        let rerunScenarios = Set(jobs.map(\.scenario.name))
        // The scenarios this run selected: rerun, or chosen and not loaded (then not carried).
        let selected = rerunScenarios.union(options.lastFailed)
        let fm = FileManager.default
        for run in last.runs where run.expectedFolder == nil && !rerun.contains(run.scenario + "\u{0}" + run.device) {
            // A run's file is relative to the folder its run worked in.
            let file = run.file.hasPrefix("/") || last.workingFolder == nil ? run.file : last.workingFolder! + "/" + run.file
            guard let now = plan[run.scenario], now.devices.contains(run.device), FileOutput.resolvedPath(file) == now.file,
                  !options.lastFailed.contains(run.scenario) || rerunScenarios.contains(run.scenario) else { continue }
            if let before = run.fileDigest, let digest = now.digest, before != digest {
                out.dropped.append("\(run.scenario)/\(run.device) (its file changed since)")
                continue
            }
            let files = run.frames.flatMap { [$0.expected, $0.actual, $0.diff, $0.thumbnail].compactMap { $0 } }
            if files.contains(where: { !fm.fileExists(atPath: options.report + "/" + $0) }) {
                out.dropped.append("\(run.scenario)/\(run.device) (images of its frames are gone from the report)")
                continue
            }
            var kept = run.jobResult
            kept.carriedFrom = run.carriedFrom.flatMap { $0.isEmpty ? nil : $0 } ?? last.started ?? "an earlier run"
            out.runs.append(kept)
            out.files.formUnion(files)
        }
        // Errors of the files the rerun did not read, as they are today (a removed or mended
        // file has none): a check of the whole suite would report them.
        out.errors = all.errors.flatMap { $0.issues.map(\.description) }.filter { e in
            SuiteResult.scenarioOfError(e).map { !selected.contains($0) } ?? false
        }
        return out
    }

    func settings(for scenario: Scenario, scale: Double) -> ComparisonSettings {
        let t = scenario.tolerance
        // The rendered profile, then the scenario's own tolerances, then the command line's.
        var tolerance = Tolerance.rendered
        t.overrides.apply(to: &tolerance)
        let o = options.overrides
        o.apply(to: &tolerance)
        var elements: [UInt8: RuleOverride] = [:]
        for (key, r) in t.elements { if let e = Element.withKey(key) { elements[e.rawValue] = RuleOverride(r) } }
        let regions = t.regions.map { $0.region(scale: scale) }
        return ComparisonSettings(tolerance: tolerance, elements: elements, regions: regions, metric: o.metric ?? .navreel)
    }

    public typealias Progress = @Sendable (_ done: Int, _ total: Int, _ job: FrameRenderer.Job, _ outcome: FrameOutcome) -> Void

    public func run(progress: Progress? = nil) -> SuiteResult {
        let jobs = self.jobs
        // Work units: runs of consecutive frames of one job, so that a frame identical to its
        // predecessor reuses the decoded baseline; units are spread over the workers.
        let chunk = 12
        var units: [(job: Int, frames: Range<Int>)] = []
        for (j, job) in jobs.enumerated() {
            for start in stride(from: 0, to: job.frameCount, by: chunk) {
                units.append((j, start..<min(job.frameCount, start + chunk)))
            }
        }
        let total = jobs.reduce(0) { $0 + $1.frameCount }
        var outcomes = jobs.map { [FrameOutcome?](repeating: nil, count: $0.frameCount) }
        let lock = NSLock()
        var done = 0
        let started = Date()
        var seconds = [Double](repeating: 0, count: jobs.count)
        // Each job's thumbnail sheets, filled as its frames are done and written with their last.
        let sheets = jobs.map { job in
            stride(from: 0, to: job.frameCount, by: ThumbnailSheet.framesPerSheet).map { first in
                SheetFill(path: "frames/" + job.folder + "/" + ThumbnailSheet.name(ofFrame: first),
                          frames: min(job.frameCount, first + ThumbnailSheet.framesPerSheet) - first)
            }
        }
        // Each scenario file's bytes as this run saw them (just after they were parsed).
        let digests = Dictionary(Set(jobs.map(\.scenario.file)).map { ($0, Self.fileDigest($0)) }, uniquingKeysWith: { a, _ in a })
        // The report's frames are this run's alone: what an earlier run left is removed first,
        // but for thumbnail sheets, which are removed after the run unless it kept or wrote them,
        // and the images of the runs carried from the last one (`carried()`).
        let carried = self.carried()
        let carriedFiles = carried.files
        ReportFiles.clearFrames(in: options.report, sparing: { ThumbnailSheet.isThumbnail($0) || carriedFiles.contains($0) })
        defer {
            let kept = Set(outcomes.joined().compactMap { $0?.thumbnail }).union(carriedFiles)
            // Everything else in frames/ was written by this run (it was cleared before).
            ReportFiles.clearFrames(in: options.report, sparing: { !ThumbnailSheet.isThumbnail($0) || kept.contains($0) })
        }
        // Units are handed out in order from a shared counter: a sheet is open (its thumbnails
        // held) only while one of its units runs or is next, so at most `jobs + 1` are, whatever
        // the scheduler does (with fixed striding one worker could run far ahead of another).
        Parallel.forEachInOrder(units.count, workers: options.jobs) { u in
            let unitStart = Date()
            defer { let t = Date().timeIntervalSince(unitStart); lock.lock(); seconds[units[u].job] += t; lock.unlock() }
            let unit = units[u]
            let job = jobs[unit.job]
            let settings = self.settings(for: job.scenario, scale: job.scenario.scale ?? job.device.scale)
            var previous: (key: UInt64, decoded: DecodedPNG)?
            var memo = FrameRenderer.Memo()
            let written = WrittenBaseline(files: writtenFiles)
            for k in unit.frames {
                var rendered: Image?
                var outcome = self.frame(job, k, settings: settings, previous: &previous, memo: &memo, rendered: &rendered,
                                         written: written)
                let sheet = sheets[unit.job][k / ThumbnailSheet.framesPerSheet]
                // Frames that did not pass show their full-size images; a changed frame written by
                // a record keeps its thumbnail too, for the filmstrip (its images are for review).
                let cell = outcome.actual == nil || outcome.status == .changed ? rendered.map { sheet.cell(k, $0, source: memo.contentHash, report: options.report) } : nil
                outcome.event = job.timeline.event(atFrame: k)
                if let step = job.timeline.step(atFrame: k) { (outcome.line, outcome.column) = (step.line, step.column) }
                lock.lock()
                outcomes[unit.job][k] = outcome
                done += 1
                let d = done
                lock.unlock()
                // The sheet's last frame writes it (or finds it unchanged), then its frames get their rectangles.
                if let cells = sheet.add(cell) {
                    let rects = ThumbnailSheet.write(cells, to: options.report, path: sheet.path, existing: sheet.existing)
                    sheet.existing = nil
                    lock.lock()
                    for (i, r) in rects ?? [:] {
                        outcomes[unit.job][i]?.thumbnail = sheet.path
                        outcomes[unit.job][i]?.thumbnailRect = r
                    }
                    lock.unlock()
                }
                progress?(d, total, job, outcome)
            }
        }
        // A record that changed more frames than a report should hold keeps the old and new pixels
        // of the first `changedArtifactLimit` (in run and frame order, so the same ones whatever the
        // threads did); the rest keep their thumbnails. A renderer change that touches every frame
        // of a full-scale suite would otherwise write three full-size images of each.
        var kept = 0
        for j in outcomes.indices {
            for k in outcomes[j].indices {
                guard var o = outcomes[j][k], o.status == .changed, o.expected != nil else { continue }
                kept += 1
                guard kept > options.changedArtifactLimit else { continue }
                for path in [o.expected, o.actual, o.diff].compactMap({ $0 }) {
                    try? FileManager.default.removeItem(atPath: options.report + "/" + path)
                }
                (o.expected, o.actual, o.diff) = (nil, nil, nil)
                o.message = (o.message.map { $0 + "; " } ?? "")
                    + "its old pixels are not in the report, which keeps those of a record's first \(options.changedArtifactLimit) changed frames"
                outcomes[j][k] = o
            }
        }
        let results = jobs.enumerated().map { j, job in
            var r = JobResult(scenario: job.scenario.name, device: job.device.name, file: job.scenario.file, frames: outcomes[j].map { $0! })
            r.fileDigest = digests[job.scenario.file] ?? nil
            r.seconds = seconds[j]
            return r
        }
        let errors = catalog.errors.flatMap { $0.issues.map(\.description) }
        var result = SuiteResult(jobs: results, scenarioErrors: errors, shard: options.shard, recordMode: options.record)
        result.carried = carried
        result.baselines = options.baselines
        result.workingFolder = FileManager.default.currentDirectoryPath
        result.started = started
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// One thumbnail sheet while a run fills it: what the sheet on disk was made from (read when
    /// its first frame is done), and the cells of the frames done so far.
    final class SheetFill: @unchecked Sendable {
        let path: String
        private let lock = NSLock()
        private var remaining: Int
        private var loaded = false
        private var cells: [ThumbnailSheet.Cell] = []
        /// The sheet on disk; only the worker that completes the sheet reads it after `add`.
        var existing: ThumbnailSheet.Existing?

        init(path: String, frames: Int) {
            self.path = path
            remaining = frames
        }

        /// Frame `k`'s cell: without pixels when the sheet on disk has them from the same frame.
        func cell(_ k: Int, _ image: Image, source: String?, report: String) -> ThumbnailSheet.Cell {
            lock.lock()
            if !loaded {
                existing = ThumbnailSheet.existing(at: report + "/" + path)
                loaded = true
            }
            let size = ReportFiles.thumbnailSize(width: image.width, height: image.height)
            let reused = source.flatMap { existing?.cell(k, source: $0, width: size.width, height: size.height) }
            lock.unlock()
            return reused ?? ThumbnailSheet.Cell(index: k, source: source, image: ReportFiles.thumbnail(image))
        }

        /// Counts a frame done, with its cell if it has one; the sheet's cells once every frame is.
        func add(_ cell: ThumbnailSheet.Cell?) -> [ThumbnailSheet.Cell]? {
            lock.lock()
            defer { lock.unlock() }
            if let cell { cells.append(cell) }
            remaining -= 1
            guard remaining == 0 else { return nil }
            if !loaded {
                // No frame had a cell: a sheet the last run left is not this run's.
                existing = nil
                loaded = true
            }
            defer { cells = [] }
            return cells
        }
    }

    /// What a job's frames depend on besides the scenario: its font files and the renderer.
    func currentEnvironment(_ job: FrameRenderer.Job) -> [String: String] {
        ["navreel.font": job.fontFingerprint, "navreel.renderer": NavReelVersion.renderer]
    }

    /// Changed frames of one record whose old and new pixels its report keeps.
    public static let changedArtifactLimit = 1_000

    /// The last baseline a worker wrote for a job: a frame with the same pixels and maps has the
    /// same bytes (nothing in a baseline names its frame), so it is not encoded again.
    final class WrittenBaseline {
        var content = ""
        var bytes: [UInt8] = []
        /// The maps chunk last written: a frame with the same maps reuses it.
        let maps = BaselineFile.MapsCache()
        /// The run's files by content, for a frame identical to an earlier one that is not its
        /// predecessor.
        let files: WrittenFiles?
        init(files: WrittenFiles? = nil) { self.files = files }
    }

    /// Where a run wrote each distinct frame of each job: a frame identical to an earlier, not
    /// adjacent one of its job (a pop back to the screen a push left, a bar hidden and shown
    /// again: 32 of the bundled suite's 1,025 frames) takes that file's bytes instead of being
    /// encoded again (issue 17: encoding is what a record adds to a check). The bytes are read
    /// back from the file, not held: a run's baselines can be hundreds of megabytes. Each path is
    /// held with the length and hash of the bytes written there, and what is read back is used
    /// only when both still match: the bytes an encode gives (same pixels, maps and job
    /// metadata, nothing naming the frame), so what is written does not depend on which worker
    /// wrote first. (A review, 2026-11-29: proving the image chunks alone let a file rewritten
    /// with other text in between pass.)
    final class WrittenFiles: @unchecked Sendable {
        private let lock = NSLock()
        private var files: [String: (path: String, count: Int, hash: UInt64)] = [:]
        /// Frames that took an earlier file's bytes (for tests).
        private(set) var reused = 0

        private static func key(_ job: FrameRenderer.Job, _ content: String) -> String { job.folder + "\u{0}" + content }

        func wrote(_ job: FrameRenderer.Job, content: String, path: String, bytes: [UInt8]) {
            let key = Self.key(job, content)
            // (Hashed only for the first file of a content: a run of identical frames writes the
            // same bytes again and again.)
            guard lock.withLock({ files[key] == nil }) else { return }
            let hash = FastHash.hash2(bytes, seed: 0)
            lock.withLock { if files[key] == nil { files[key] = (path, bytes.count, hash) } }
        }

        /// The bytes of the file this run wrote for the same job and content, when it still holds them.
        func bytes(_ job: FrameRenderer.Job, content: String) -> [UInt8]? {
            lock.lock()
            let file = files[Self.key(job, content)]
            lock.unlock()
            guard let file, let bytes = try? FileBytes.read(path: file.path, limit: file.count),
                  bytes.count == file.count, FastHash.hash2(bytes, seed: 0) == file.hash else { return nil }
            lock.lock(); reused += 1; lock.unlock()
            return bytes
        }
    }

    func frame(_ job: FrameRenderer.Job, _ k: Int, settings: ComparisonSettings,
               previous: inout (key: UInt64, decoded: DecodedPNG)?, memo: inout FrameRenderer.Memo,
               rendered: inout Image?, written: WrittenBaseline = WrittenBaseline()) -> FrameOutcome {
        let path = options.baselines + "/" + job.path(ofFrame: k)
        let time = job.timeline.time(ofFrame: k)
        let frame: Frame
        var reused = false
        do { frame = try renderer.render(job, frame: k, memo: &memo, reused: &reused) } catch {
            return FrameOutcome(index: k, time: time, status: .error, message: "cannot render: \(error)")
        }
        rendered = frame.image
        let content = (reused ? memo.contentHash : nil) ?? BaselineFile.contentHash(frame)
        memo.contentHash = content
        guard FileManager.default.fileExists(atPath: path) else {
            if options.record != .never { return write(job, k, frame, content, to: path, written: written, status: .added) }
            // Only the last frame missing, after the one before it: most likely a run recorded
            // before the end state had a frame of its own (2026-11-27), which says why.
            let endState = k > 0 && k == job.frameCount - 1 && job.timeline.time(ofFrame: k) > job.timeline.duration
                && FileManager.default.fileExists(atPath: options.baselines + "/" + job.path(ofFrame: k - 1))
            let why = endState ? " (the end state: the run ends between two frames, and since 2026-11-27 the frame after its end is its last)" : ""
            var outcome = FrameOutcome(index: k, time: time, status: .missing,
                                       message: "no baseline at \(path)\(why); " + (options.missingHint ?? "run `\(Self.recordMissingCommand(job.scenario.name, among: catalog.scenarios.map(\.name), scenarios: options.scenarios, baselines: options.baselines, project: projectFile))` or `\(HTMLReport.commandLine(["navreel", "approve"] + Self.folderOptions(report: options.report, project: projectFile)))`"))
            // The frame goes to the report so that `approve` can promote it without rendering again.
            outcome.actual = keepActual(job, k, frame, content: content)
            return outcome
        }
        do {
            let bytes = try FileBytes.read(path: path, limit: PNGLimits.default.maxFileBytes)
            let scanned = try BaselineFile.scan(bytes, source: path)
            let (dataHash, structure, header) = (scanned.dataHash, scanned.structure, scanned.header)
            // The frame's hash as the file's format computes it (older files: the first hash).
            let fileContent = scanned.hashVersion == 2 ? content : BaselineFile.contentHash(frame, version: scanned.hashVersion)
            // Fast path: the file still holds the image chunks NavReel wrote for exactly these pixels.
            if scanned.matches(content: fileContent) {
                // Same pixels; `record` still refreshes a baseline whose font or renderer
                // metadata is out of date, so that drift warnings stay true, or whose file layout
                // is older than this NavReel writes (the pixels and maps stay as they are).
                let stale = currentEnvironment(job).contains { header.text[$0.key] != $0.value }
                    || header.format < BaselineFile.format
                if options.record == .all && (options.rewriteUnchanged || stale) { return write(job, k, frame, content, to: path, written: written, status: .changed) }
                return FrameOutcome(index: k, time: time, status: .passed, fastPath: true)
            }
            // The key of the image chunks (version 2), computed by the scan for current files.
            let key = scanned.hashVersion == 2 ? scanned.dataKey : BaselineFile.imageKey(bytes, structure, version: 2)
            var decoded: DecodedPNG
            if let p = previous, p.key == key {
                // The same pixels and maps as its predecessor: no second decode; only the text
                // (frame, time, environment) is this file's own.
                decoded = p.decoded
                decoded.metadata.text = header.text
            } else {
                // Scanned and CRC-checked above: the decoder does neither again.
                decoded = try PNG.decode(bytes, checked: structure, source: path)
                previous = (key, decoded)
            }
            let maps = try PairDiff.maps(of: decoded, source: path)
            let input = ComparisonInput(expected: decoded.image, actual: frame.image, expectedMaps: maps,
                                        actualMaps: renderer.maps(frame))
            let comparator = ImageComparator(settings: settings, jobs: 1)
            let (comparison, _) = comparator.compare(input)
            let drift = currentEnvironment(job).compactMap { key, value -> String? in
                guard let old = decoded.metadata.text[key], old != value else { return nil }
                return key == "navreel.font" ? "font changed (baseline: \(old))" : "renderer changed (baseline: \(old), now: \(value))"
            }.sorted()
            if comparison.passed {
                // Equal within tolerance. `record all` rewrites only when the pixels or maps changed,
                // or when the file's own hash is stale (written before it covered every image chunk).
                if options.record == .all && (header.contentHash != fileContent || header.dataHash != dataHash
                                              || header.format < BaselineFile.format || options.rewriteUnchanged) {
                    var o = write(job, k, frame, content, to: path, written: written, status: .changed)
                    // Pixels that changed within the tolerance are a change to review too.
                    if o.status == .changed && !comparison.identical {
                        o.comparison = comparison
                        writeArtifacts(job, k, frame, content: content, baseline: bytes, input: input, comparator: comparator, into: &o,
                                       actual: written.bytes)
                    }
                    return o
                }
                return FrameOutcome(index: k, time: time, status: .passed, comparison: comparison, drift: drift)
            }
            if options.record == .failed || options.record == .all {
                var o = write(job, k, frame, content, to: path, written: written, status: .changed)
                o.comparison = comparison
                // The report shows what the rewrite changed: the old baseline, the new frame and
                // their diff, so an intended change can be reviewed on the page before it is
                // committed (a recorded run showed only thumbnails of the new frames; the old
                // pixels were gone from the working tree the moment they were replaced).
                if o.status == .changed {
                    writeArtifacts(job, k, frame, content: content, baseline: bytes, input: input, comparator: comparator, into: &o,
                                   actual: written.bytes)
                }
                return o
            }
            var outcome = FrameOutcome(index: k, time: time, status: .failed, comparison: comparison, drift: drift)
            writeArtifacts(job, k, frame, content: content, baseline: bytes, input: input, comparator: comparator, into: &outcome)
            return outcome
        } catch {
            // A damaged baseline (truncated, corrupt, a damaged signature, empty, a declared size
            // over the limits): `record` and `--record failed` write the frame over it, as they
            // would over a failing one, and say what was wrong with it. Before, record reported it
            // as an error on every run and deleting the file by hand was the only way out. Not a
            // Git LFS pointer (a checkout without `git lfs pull`: replacing those would commit
            // renders nothing was compared with) and not a file that could not be read (EACCES,
            // EIO, too many open files): those stay errors. Other modes: an error, never a pass.
            let damaged = (error as? PNGError).map { e in
                [.truncated, .corrupt, .tooLarge, .notPNG].contains(e.kind)
                    && !(e.kind == .notPNG && PNGStructure.isGitLFSPointer(Self.head(of: path)))
            } ?? false
            if damaged && (options.record == .failed || options.record == .all) {
                var o = write(job, k, frame, content, to: path, written: written, status: .changed)
                if o.status == .changed { o.message = "replaced \(path), which could not be read: \(error)" }
                return o
            }
            var outcome = FrameOutcome(index: k, time: time, status: .error, message: "\(error)")
            if damaged {
                // The rendered frame goes to the report, as for a missing baseline, so that the page
                // shows what the file should hold and `approve` writes it over the damaged one
                // (the report showed nothing and approve did nothing, an audit, 2026-11-27).
                if let actual = keepActual(job, k, frame, content: content) {
                    outcome.actual = actual
                    outcome.message = "\(error); `\(HTMLReport.commandLine(["navreel", "approve"] + Self.folderOptions(report: options.report, project: projectFile)))` "
                        + "(or `\(HTMLReport.commandLine(["navreel", "record"] + Self.folderOptions(scenarios: options.scenarios, baselines: options.baselines, project: projectFile)))`) writes the rendered frame over it"
                }
            }
            return outcome
        }
    }

    /// Where frame k's images go in the report, without `.actual.png`, `.expected.png`, `.diff.png`.
    static func artifactStem(_ job: FrameRenderer.Job, _ k: Int) -> String {
        "frames/" + job.folder + "/" + String(FrameRenderer.Job.frameName(k).dropLast(4))
    }

    /// The rendered frame in the report, for a frame with no baseline to compare against (missing
    /// or damaged), so that the page shows it and `approve` promotes it: its path in the report,
    /// nil when it could not be written.
    func keepActual(_ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, content: String) -> String? {
        let path = Self.artifactStem(job, k) + ".actual.png"
        guard let bytes = try? BaselineFile.encodeArtifact(renderer, job, k, frame, contentHash: content),
              (try? FileOutput.write(bytes, to: options.report + "/" + path, durable: false)) != nil else { return nil }
        return path
    }

    func write(_ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, _ content: String, to path: String,
               written: WrittenBaseline, status: FrameOutcome.Status) -> FrameOutcome {
        do {
            if written.content != content || written.bytes.isEmpty {
                written.bytes = try written.files?.bytes(job, content: content)
                    ?? BaselineFile.encode(renderer, job, k, frame, contentHash: content, maps: written.maps)
                written.content = content
            }
            try FileOutput.write(written.bytes, to: path)
            written.files?.wrote(job, content: content, path: path, bytes: written.bytes)
            return FrameOutcome(index: k, time: frame.time, status: status, message: "\(status == .added ? "added" : "updated") \(path)")
        } catch {
            return FrameOutcome(index: k, time: frame.time, status: .error, message: "cannot write \(path): \(error)")
        }
    }

    /// Expected, actual (with metadata and maps, so `approve` can promote it) and diff images.
    /// `actual`: the frame already encoded (a baseline just written holds the same image, maps and
    /// metadata), so that a record's changed frame is not encoded a second time.
    func writeArtifacts(_ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, content: String, baseline: [UInt8], input: ComparisonInput,
                        comparator: ImageComparator, into outcome: inout FrameOutcome, actual encoded: [UInt8]? = nil) {
        let stem = Self.artifactStem(job, k)
        do {
            let actual = try encoded ?? BaselineFile.encodeArtifact(renderer, job, k, frame, contentHash: content)
            // Report images are not flushed to disk one by one: the next run writes them again, and
            // approve checks what it reads (an audit counted 3,382 fsync calls for 845 failing
            // frames, most of a 5,000-frame report's 18 s of system time).
            try FileOutput.write(actual, to: options.report + "/" + stem + ".actual.png", durable: false)
            try FileOutput.write(baseline, to: options.report + "/" + stem + ".expected.png", durable: false)
            outcome.actual = stem + ".actual.png"
            outcome.expected = stem + ".expected.png"
            if input.expected.width == input.actual.width && input.expected.height == input.actual.height,
               let diff = comparator.compare(input, diff: .classic).1 {
                try FileOutput.write(diff.encoded(), to: options.report + "/" + stem + ".diff.png", durable: false)
                outcome.diff = stem + ".diff.png"
            }
        } catch {
            outcome.message = "could not write report images: \(error)"
        }
    }

    /// A file's first `count` bytes (fewer when it is shorter or cannot be read).
    static func head(of path: String, count: Int = 64) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// SHA-256 of a file's bytes as hex, or nil when it cannot be read (scenarios made in code).
    public static func fileDigest(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { SHA256.hex([UInt8]($0)) }
    }

    /// The command that writes a scenario's missing baselines and nothing else: `--record missing`
    /// never replaces a baseline, so a regression elsewhere cannot be accepted by running it (a
    /// plain `record` rewrites every changed frame of every scenario its filter matches). The
    /// filter is an exact glob when the plain name would also select another scenario.
    /// The folders are named when they are not the defaults (navreel.yaml's are then named too:
    /// harmless, and right from any working folder).
    /// `project`: the navreel.yaml found; folders it names (or its defaults) are left out, as the
    /// command finds the same file (they were repeated beside it; an audit, 2026-11-27).
    static func recordMissingCommand(_ scenario: String, among names: [String], scenarios: String = "Fixtures/scenarios",
                                     baselines: String = "Baselines", project: ProjectFile? = nil) -> String {
        let words = ["navreel", "check", "--record", "missing"] + HTMLReport.option("--filter", Glob.selecting(scenario, among: names))
            + folderOptions(scenarios: scenarios, baselines: baselines, project: project)
        return HTMLReport.commandLine(words)
    }

    /// The folder options a suggested command needs to reach the folders this run used: those
    /// that differ from what the command finds by itself (navreel.yaml's, else the defaults).
    /// (An audit, 2026-11-29: `navreel approve` and `navreel prune` were suggested bare after a
    /// run with `--report`, `--scenarios` and `--baselines`, and failed when copied.)
    public static func folderOptions(scenarios: String? = nil, baselines: String? = nil, report: String? = nil,
                                     project: ProjectFile? = nil) -> [String] {
        var words: [String] = []
        if let scenarios, scenarios != (project?.scenariosFolder ?? "Fixtures/scenarios") { words += ["--scenarios", scenarios] }
        if let baselines, baselines != (project?.baselinesFolder ?? "Baselines") { words += ["--baselines", baselines] }
        if let report, report != (project?.reportFolder ?? ".navreel/report") { words += ["--report", report] }
        return words
    }

    /// Baseline files no scenario produces, for `prune`, `record --prune` and `check`'s note.
    ///
    /// A file counts only where NavReel writes baselines, `<scenario>/<device>/<digits>.png` under
    /// the baselines folder (plain folders and files: symbolic links inside it are never
    /// followed), and only when it is NavReel's own (its text holds `navreel.content`); other PNGs
    /// found there are listed in `notBaselines` and never removed. A frame is expected when any
    /// scenario of the catalog produces it on any device it declares, whatever this run selected
    /// (`--device`, navreel.yaml's devices and `--shard` choose what is rendered, not what may be
    /// deleted), and a file that is the same file as an expected frame's (a folder whose name
    /// differs only in case on a case-insensitive file system, a hard link) is expected too.
    /// `--filter` narrows the catalog, so with a filter only the selected scenarios' folders are
    /// looked at (`record --prune`). `folders`, `prune --filter`'s globs, instead narrows the
    /// scenario folders looked at by their names, whether or not a scenario of that name still
    /// exists (the baselines of deleted scenarios are what `prune` is for), against every
    /// scenario's frames; expected frames in the other folders still count for `refusal`.
    public func orphans(folders: [String] = []) -> Orphans {
        var expected = Set<String>()
        for s in catalog.scenarios {
            for job in renderer.jobs(for: s) { for k in 0..<job.frameCount { expected.insert(job.path(ofFrame: k)) } }
        }
        let whole = options.filters.isEmpty
        let known = Set(catalog.scenarios.map(\.name))
        var out = Orphans()
        var candidates: [(item: String, path: String)] = []
        for scenario in Self.entries(options.baselines, directories: true) where whole || known.contains(scenario) {
            let inScope = folders.isEmpty || folders.contains { Glob.matches($0, scenario) }
            if inScope { out.foldersLookedAt += 1 }
            for device in Self.entries(options.baselines + "/" + scenario, directories: true) {
                let folder = options.baselines + "/" + scenario + "/" + device
                for name in Self.entries(folder, directories: false) {
                    let item = scenario + "/" + device + "/" + name
                    // A half-written baseline a killed process left (SIGKILL skips the handler that
                    // removes it): no check reads it, and `git add` would commit it (an audit,
                    // 2026-11-27). Only when the process that wrote it is gone.
                    if inScope, Self.isStaleTemporary(name) { out.removable.append(item); continue }
                    guard Self.isFrameName(name) else { continue }
                    if expected.contains(item) { out.expectedFound += 1 } else if inScope { candidates.append((item, folder + "/" + name)) }
                }
            }
        }
        guard !candidates.isEmpty else { return out }
        // The files expected frames resolve to, by device and inode.
        var files = Set<FileID>()
        for item in expected {
            var st = stat()
            if stat(options.baselines + "/" + item, &st) == 0 { files.insert(FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))) }
        }
        for (item, path) in candidates {
            var st = stat()
            if lstat(path, &st) == 0, files.contains(FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))) {
                out.expectedFound += 1
                continue
            }
            if BaselineFile.isNavReelFile(path: path) { out.removable.append(item) } else { out.notBaselines.append(item) }
        }
        return out
    }

    struct FileID: Hashable { var device: UInt64; var inode: UInt64 }

    /// `prune`'s findings: NavReel baselines no scenario produces, and PNGs in the baselines'
    /// layout that NavReel did not write (left alone).
    public struct Orphans: Sendable, Equatable {
        public var removable: [String] = []
        public var notBaselines: [String] = []
        /// Files in the layout that are expected frames.
        public var expectedFound = 0
        /// Scenario folders whose files were candidates (all of them without `folders`).
        public var foldersLookedAt = 0

        /// Why removing these would be a mistake rather than a clean-up, or nil: the catalog has
        /// no scenario (a wrong or empty --scenarios folder), or not one file of the baselines
        /// folder is a frame some scenario makes (scenarios and baselines that do not belong
        /// together), so every baseline there would go.
        public func refusal(catalog: ScenarioCatalog, baselines: String) -> String? {
            guard !removable.isEmpty else { return nil }
            if catalog.scenarios.isEmpty {
                return "no scenario in \(catalog.directory), so all \(removable.count) baselines in \(baselines) would be removed; check --scenarios (remove the folder yourself if that is what you want)"
            }
            if expectedFound == 0 {
                return "none of the \(removable.count) baselines in \(baselines) is a frame of the scenarios in \(catalog.directory), so all would be removed; check --scenarios and --baselines (remove the files yourself if that is what you want)"
            }
            return nil
        }
    }

    /// Removes orphans (paths relative to `baselines`), then their device and scenario folders
    /// where that left them empty (`rmdir`: a folder holding anything stays). Returns the paths
    /// removed; stops at the first file that cannot be removed, naming it.
    public static func remove(_ orphans: [String], in baselines: String) throws -> [String] {
        var removed: [String] = []
        var folders = Set<String>()
        for item in orphans {
            let path = baselines + "/" + item
            if unlink(path) != 0 {
                if errno == ENOENT { continue }   // gone already: not counted as removed
                throw UsageError("\(path): cannot remove: \(String(cString: strerror(errno)))")
            }
            removed.append(path)
            let device = PathText.parent(item)
            folders.insert(device)
            folders.insert(PathText.parent(device))
        }
        // Deepest first: a device folder before its scenario's.
        for folder in folders.sorted(by: { $0.split(separator: "/").count > $1.split(separator: "/").count }) where !folder.isEmpty {
            _ = rmdir(baselines + "/" + folder)
        }
        return removed
    }

    /// The names in a folder that are plain folders (or plain files), sorted; none when the
    /// folder cannot be read. Symbolic links are neither.
    public static func entries(_ folder: String, directories: Bool) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { name in
            var st = stat()
            guard lstat(folder + "/" + name, &st) == 0 else { return false }
            return (st.st_mode & S_IFMT) == (directories ? S_IFDIR : S_IFREG)
        }.sorted()
    }

    /// A temporary file `FileOutput.write` makes beside a frame whose process no longer runs.
    static func isStaleTemporary(_ name: String) -> Bool {
        guard let owner = FileOutput.temporaryOwner(name), isFrameName(owner.name) else { return false }
        return kill(owner.pid, 0) != 0 && errno == ESRCH
    }

    /// A frame's file name as `FrameRenderer.Job.frameName` writes it: four digits or more, `.png`.
    static func isFrameName(_ name: String) -> Bool {
        guard name.hasSuffix(".png") else { return false }
        let digits = name.dropLast(4)
        return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
