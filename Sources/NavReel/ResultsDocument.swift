import Compare
import Foundation

/// `results.json` (schema `navreel-results`, version `ResultJSON.schemaVersion`) as `Codable`
/// types: written through `JSONTreeEncoder` (ordered keys, NavReel's layout) and read with
/// `JSONDecoder`, so a field that is missing or of the wrong type is an error naming it. Keys are in
/// declaration order; optionals that are nil are left out.
public struct ResultsDocument: Codable, Sendable {
    public var schema = "navreel-results"
    public var version = ResultJSON.schemaVersion
    public var navreel = NavReelVersion.string
    public var recordMode: String
    public var shard: Shard
    /// When the run started, UTC (`2026-11-23T10:39:41Z`), and how long it took in seconds.
    public var started: String?
    public var seconds: Double?
    /// The baselines folder a `check` compared against, as it was given (nil for `compare`, whose
    /// runs name their expected folders, and in files written before it was recorded): what
    /// `approve` and a merged report's approve commands write into.
    public var baselines: String?
    /// The absolute folder the run worked in: relative paths of the report (`baselines`, each
    /// run's `file`) are from there, wherever `approve` runs later (absent in files written
    /// before 2026-11-27, and when the folder could not be known).
    public var workingFolder: String?
    public var summary: Summary
    public var scenarioErrors: [String]
    /// What a run did to its inputs that their files do not show, from `compare` (a video turned
    /// by its display matrix, which of several video tracks was read, colour profiles not
    /// applied, folders with no names in common); absent when there is nothing to say and in
    /// files written before 2026-11-27.
    public var notes: [String]?
    public var runs: [Run]

    public struct Shard: Codable, Sendable {
        public var index: Int
        public var count: Int
    }

    /// Frame counts per status (every `FrameOutcome.Status`, in its order), then the verdict.
    public struct Summary: Codable, Sendable {
        public var frames: Int
        public var counts: [FrameOutcome.Status: Int]
        public var verdict: String

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(frames, forKey: AnyKey("frames"))
            for s in FrameOutcome.Status.allCases { try c.encode(counts[s] ?? 0, forKey: AnyKey(s.rawValue)) }
            try c.encode(verdict, forKey: AnyKey("verdict"))
        }

        public init(frames: Int, counts: [FrameOutcome.Status: Int], verdict: String) {
            self.frames = frames
            self.counts = counts
            self.verdict = verdict
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            frames = try c.decode(Int.self, forKey: AnyKey("frames"))
            var counts: [FrameOutcome.Status: Int] = [:]
            for s in FrameOutcome.Status.allCases { counts[s] = try c.decodeIfPresent(Int.self, forKey: AnyKey(s.rawValue)) ?? 0 }
            self.counts = counts
            verdict = try c.decodeIfPresent(String.self, forKey: AnyKey("verdict")) ?? "failed"
        }
    }

    public struct Run: Codable, Sendable {
        public var scenario: String
        public var device: String
        public var file: String
        /// Captured runs (`compare`): the folder of expected frames approve writes into.
        public var expectedFolder: String?
        public var ignored: [PixelRect]?
        public var seconds: Double?
        /// SHA-256 of the scenario file when the run read it (absent for compare, and in files
        /// written before 2026-11-27).
        public var fileDigest: String?
        /// A run a `check --last-failed` or `record --last-failed` did not rerun: when the run it
        /// is the result of started (the report keeps it so that it stays whole); absent for a
        /// run rendered by the run that wrote the file.
        public var carriedFrom: String?
        public var frames: [Frame]
    }

    public struct Frame: Codable, Sendable {
        public var index: Int
        public var time: Double
        public var status: FrameOutcome.Status
        /// Captured frames: the file name in both folders.
        public var path: String?
        public var expectedFile: String?
        public var expectedTime: Double?
        public var actualFile: String?
        public var actualTime: Double?
        /// The scenario step that produced the frame.
        public var line: Int?
        public var column: Int?
        public var fastPath: Bool?
        public var message: String?
        public var event: String?
        public var drift: [String]?
        public var comparison: ComparisonDocument?
        /// Report-relative paths.
        public var expected: String?
        public var actual: String?
        public var diff: String?
        public var thumbnail: String?
        /// The frame's rectangle in the `thumbnail` sheet, `[x, y, width, height]` in its pixels;
        /// absent: the whole file is the frame's thumbnail (reports of earlier versions).
        public var thumbnailRect: [Int]?
    }
}

/// A comparison's result: the object of `navreel diff --json` (CLI.md: `width`, `height`,
/// `mismatched`, `forgiven`, `maxChannelDelta`, `passed`) followed by NavReel's additions.
public struct ComparisonDocument: Codable, Sendable {
    public var width: Int
    public var height: Int
    public var mismatched: Int
    public var forgiven: Forgiven
    public var maxChannelDelta: Int
    public var passed: Bool
    public var metric: String
    public var allowedMismatches: Int
    public var maxMismatchDelta: Int
    public var sizeMismatch: SizeMismatch?
    public var mismatchBox: PixelRect?
    public var elements: [ElementMismatch]?

    public struct Forgiven: Codable, Sendable {
        public var equal, perceptual, antialiasing, translucency, timing, ignored: Int
    }
    public struct Size: Codable, Sendable {
        public var width, height: Int
    }
    public struct SizeMismatch: Codable, Sendable {
        public var expected, actual: Size
    }

    public init(_ c: Comparison) {
        let size = c.sizeMismatch
        width = size?.actual.width ?? c.width
        height = size?.actual.height ?? c.height
        mismatched = size.map { $0.actual.width * $0.actual.height } ?? c.counts.mismatched
        forgiven = Forgiven(equal: c.counts.equal, perceptual: c.counts.perceptual, antialiasing: c.counts.antialiasing,
                            translucency: c.counts.translucency, timing: c.counts.timing, ignored: c.counts.ignored)
        maxChannelDelta = c.maxChannelDelta
        passed = c.passed
        metric = c.metric.rawValue
        allowedMismatches = c.allowedMismatches
        maxMismatchDelta = c.maxMismatchDelta
        sizeMismatch = size.map { SizeMismatch(expected: Size(width: $0.expected.width, height: $0.expected.height),
                                               actual: Size(width: $0.actual.width, height: $0.actual.height)) }
        mismatchBox = c.mismatchBox
        elements = c.elements.isEmpty ? nil : c.elements
    }

    /// The comparison as read back (the counts and boxes a report shows and a merge adds up).
    public var comparison: Comparison {
        var out = Comparison(width: width, height: height)
        out.counts.equal = forgiven.equal
        out.counts.perceptual = forgiven.perceptual
        out.counts.antialiasing = forgiven.antialiasing
        out.counts.translucency = forgiven.translucency
        out.counts.timing = forgiven.timing
        out.counts.ignored = forgiven.ignored
        out.counts.mismatched = mismatched
        out.maxChannelDelta = maxChannelDelta
        out.maxMismatchDelta = maxMismatchDelta
        out.allowedMismatches = allowedMismatches
        if let s = sizeMismatch {
            out.sizeMismatch = (Comparison.Size(width: s.expected.width, height: s.expected.height),
                                Comparison.Size(width: s.actual.width, height: s.actual.height))
        }
        out.mismatchBox = mismatchBox
        out.elements = elements ?? []
        return out
    }
}

extension FrameOutcome.Status: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let status = Self(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown status `\(text)`")
        }
        self = status
    }
}

extension ResultsDocument {
    public init(_ r: SuiteResult) {
        recordMode = r.recordMode.rawValue
        shard = Shard(index: r.shard.index, count: r.shard.count)
        started = r.started.map { JUnitReport.timestamp($0) + "Z" }
        seconds = (r.seconds * 1000).rounded() / 1000
        baselines = r.baselines
        workingFolder = r.workingFolder
        summary = Summary(frames: r.frameCount,
                          counts: Dictionary(uniqueKeysWithValues: FrameOutcome.Status.allCases.map { ($0, r.count($0)) }),
                          verdict: r.exitCode == 0 ? "passed" : "failed")
        scenarioErrors = r.scenarioErrors
        notes = r.notes.isEmpty ? nil : r.notes
        // By name as people number things (`compare`'s folders 2, 9, 10; the console's order too);
        // a stable sort, so one scenario's devices keep the run's order.
        runs = r.jobs.sorted { PathText.naturallyBefore($0.scenario, $1.scenario) }.map { j in
            Run(scenario: j.scenario, device: j.device, file: j.file, expectedFolder: j.expectedFolder,
                ignored: j.ignored.isEmpty ? nil : j.ignored, seconds: (j.seconds * 1000).rounded() / 1000,
                fileDigest: j.fileDigest, carriedFrom: j.carriedFrom, frames: j.frames.map(Frame.init))
        }
    }

    /// The run as read back, for merge-reports and approve.
    public var suiteResult: SuiteResult {
        var result = SuiteResult(jobs: runs.map(\.jobResult), scenarioErrors: scenarioErrors, shard: (shard.index, shard.count),
                                 recordMode: RecordMode(rawValue: recordMode) ?? .never)
        result.started = started.flatMap(ResultJSON.parseTimestamp)
        result.seconds = seconds ?? 0
        result.baselines = baselines
        result.workingFolder = workingFolder
        result.notes = notes ?? []
        return result
    }
}

extension ResultsDocument.Run {
    public var jobResult: JobResult {
        var job = JobResult(scenario: scenario, device: device, file: file, frames: frames.map(\.outcome))
        job.expectedFolder = expectedFolder
        job.ignored = ignored ?? []
        job.seconds = seconds ?? 0
        job.fileDigest = fileDigest
        job.carriedFrom = carriedFrom
        return job
    }
}

extension ResultsDocument.Frame {
    init(_ f: FrameOutcome) {
        index = f.index
        time = (f.time * 10000).rounded() / 10000
        status = f.status
        path = f.source
        expectedFile = f.expectedFile
        expectedTime = f.expectedTime.map { ($0 * 10000).rounded() / 10000 }
        actualFile = f.actualFile
        actualTime = f.actualTime.map { ($0 * 10000).rounded() / 10000 }
        line = f.line
        column = f.column
        fastPath = f.fastPath ? true : nil
        message = f.message
        event = f.event
        drift = f.drift.isEmpty ? nil : f.drift
        comparison = f.comparison.flatMap { c in f.status != .passed || !c.identical ? ComparisonDocument(c) : nil }
        expected = f.expected
        actual = f.actual
        diff = f.diff
        thumbnail = f.thumbnail
        thumbnailRect = f.thumbnailRect.map { [$0.x, $0.y, $0.width, $0.height] }
    }

    var outcome: FrameOutcome {
        var o = FrameOutcome(index: index, time: time, status: status, comparison: comparison?.comparison, message: message,
                             drift: drift ?? [], fastPath: fastPath ?? false)
        o.source = path
        o.expectedFile = expectedFile
        o.expectedTime = expectedTime
        o.actualFile = actualFile
        o.actualTime = actualTime
        o.line = line
        o.column = column
        o.event = event
        o.expected = expected
        o.actual = actual
        o.diff = diff
        o.thumbnail = thumbnail
        if let r = thumbnailRect, r.count == 4 { o.thumbnailRect = PixelRect(x: r[0], y: r[1], width: r[2], height: r[3]) }
        return o
    }
}
