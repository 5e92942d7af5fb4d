import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// The JSON results of a run: what `merge-reports`, `approve` and the HTML report read. Written
/// and read through the `Codable` types of `ResultsDocument`. Schema: docs/results.schema.json.
/// Order is stable: scenarios by name, devices in the scenario's order, frames by index.
public enum ResultJSON {
    /// 2: the verdict is `summary.verdict` ("passed" | "failed"); version 1 also wrote it as a
    /// second `passed` key after the count, which JSON readers resolve differently. Runs carry
    /// `seconds`, frames `line` and `column` of their step.
    public static let schemaVersion = 2

    /// The file's content: `ResultsDocument` through `JSONTreeEncoder` (ordered keys).
    public static func encode(_ r: SuiteResult) -> JSON {
        (try? JSONTreeEncoder.encode(ResultsDocument(r))) ?? .object([])
    }

    /// A report folder: `results.json` and `index.html` (check, compare, merge-reports and the
    /// test assertions all write these two together). Returns the JSON text, for `--json`.
    @discardableResult
    public static func writeReport(_ r: SuiteResult, to folder: String, baselines: String = "Baselines") throws -> String {
        // A check's result carries its baselines folder (SuiteRunner.run); a compare's runs name
        // their expected folders, and a merge keeps what its shards recorded.
        let encoded = encode(r)
        let text = encoded.rendered() + "\n"
        try FileOutput.write(text, to: folder + "/results.json")
        try HTMLReport.write(r, to: folder, baselines: baselines, encoded: encoded)
        // The last run's results, kept aside while this one ran (`ReportFiles.Claim.begin`) for a
        // `--last-failed` after an interruption, are not needed once this run's are written; left,
        // they went out with every artifact upload (50 MB beside a 169-frame rerun, an audit).
        unlink(folder + "/" + ReportFiles.previousResultsName)
        return text
    }

    // MARK: Reading (merge-reports, approve)

    public struct Loaded: Sendable {
        public let document: ResultsDocument
        public var runs: [ResultsDocument.Run] { document.runs }
        public var scenarioErrors: [String] { document.scenarioErrors }
        /// The run's start (nil in files written before it was recorded) and duration.
        public var started: Date? { document.started.flatMap(ResultJSON.parseTimestamp) }
        public var seconds: Double { document.seconds ?? 0 }
        public var baselines: String? { document.baselines }
        public var workingFolder: String? { document.workingFolder }
    }

    public static func load(_ path: String) throws -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else {
            // A run that began in this folder and did not finish moved the last results aside
            // (`ReportFiles.Claim.begin`): say so, rather than "run check first" after a check
            // (an audit, 2026-11-27, after an interrupted or still running check).
            let folder = PathText.parent(path)
            // (The check that writes this folder: `--report` when check would not find it itself.)
            let command = HTMLReport.commandLine(["navreel", "check"]
                + (path.hasSuffix("/results.json") ? SuiteRunner.folderOptions(report: folder, project: try? ProjectFile.find()) : []))
            if path.hasSuffix("/results.json"),
               FileManager.default.fileExists(atPath: folder + "/" + ReportFiles.previousResultsName) {
                throw UsageError("\(path): no results: the last run into \(folder) did not finish (interrupted, or still running); "
                                 + "run `\(command)` again and approve from its report")
            }
            throw UsageError("\(path): cannot read (run `\(command)` first)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["schema"] as? String == "navreel-results" else {
            throw UsageError("\(path): not a NavReel results file (no \"schema\": \"navreel-results\"; damaged, or written by another tool)")
        }
        guard let v = object["version"] as? Int, v <= schemaVersion else {
            throw UsageError("\(path): results version \(object["version"] ?? "?") is newer than this NavReel reads (\(schemaVersion))")
        }
        // Read through the same Codable types that wrote it: a damaged file is an error naming the
        // field, never a merge of zeros.
        let document: ResultsDocument
        do { document = try JSONDecoder().decode(ResultsDocument.self, from: data) } catch let e as DecodingError {
            throw UsageError("\(path): damaged results file: \(describe(e))")
        }
        for (i, run) in document.runs.enumerated() {
            for (j, f) in run.frames.enumerated() {
                if let r = f.thumbnailRect, r.count != 4 || r.contains(where: { $0 < 0 }) || r[2] == 0 || r[3] == 0 {
                    throw UsageError("\(path): damaged results file: `runs[\(i)].frames[\(j)].thumbnailRect` is not [x, y, width, height]")
                }
            }
        }
        return Loaded(document: document)
    }

    static func describe(_ e: DecodingError) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
        }
        switch e {
        case .keyNotFound(let key, let ctx): return "missing `\(at(ctx.codingPath + [key]))`"
        case .typeMismatch(let type, let ctx): return "`\(at(ctx.codingPath))` is not \(type == String.self ? "a string" : type == Int.self ? "a whole number" : type == Double.self ? "a number" : "\(type)")"
        case .valueNotFound(_, let ctx): return "`\(at(ctx.codingPath))` is null"
        case .dataCorrupted(let ctx): return ctx.codingPath.isEmpty ? "not valid JSON" : "`\(at(ctx.codingPath))`: \(ctx.debugDescription)"
        @unknown default: return "\(e)"
        }
    }

    /// Rebuilds a result from JSON files (shards), failing on overlapping runs.
    public static func merge(_ files: [Loaded]) throws -> SuiteResult {
        var jobs: [JobResult] = []
        var seen = Set<String>()
        var errors: [String] = []
        for f in files {
            // Every shard parses every scenario file, so each reports the same errors: once each.
            for e in f.scenarioErrors where !errors.contains(e) { errors.append(e) }
            for run in f.runs {
                guard seen.insert(run.scenario + "/" + run.device).inserted else {
                    throw UsageError("\(run.scenario)/\(run.device) appears in more than one results file")
                }
                jobs.append(run.jobResult)
            }
        }
        jobs.sort { ($0.scenario, $0.device) < ($1.scenario, $1.device) }
        // Shards of one check name their split (`--shard i/n`): a merge without all n of them left
        // runs unchecked and passed (an audit, 2026-11-27: one lost artifact of two merged green).
        // That is an error of the merge, as an unreadable input is.
        let shards = files.map(\.document.shard).filter { $0.count > 1 }
        let counts = Set(shards.map(\.count))
        if counts.count > 1 {
            throw UsageError("the results come from different splits (\(counts.sorted().map { "--shard i/\($0)" }.joined(separator: ", "))); merge the shards of one check")
        }
        if let n = counts.first {
            let present = Set(shards.map(\.index))
            let missing = (1...n).filter { !present.contains($0) }
            if !missing.isEmpty {
                errors.append("shard \(missing.map { "\($0)/\(n)" }.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing from this merge: "
                              + "\(missing.count == 1 ? "its" : "their") runs were never checked (merged: \(present.sorted().map { "\($0)/\(n)" }.joined(separator: ", ")))")
            }
        }
        // The shards' record mode when they agree (the shards of one CI job do), else never.
        let modes = Set(files.map(\.document.recordMode))
        let mode = modes.count == 1 ? modes.first.flatMap(RecordMode.init(rawValue:)) ?? .never : .never
        var merged = SuiteResult(jobs: jobs, scenarioErrors: errors, shard: (1, 1), recordMode: mode)
        // The earliest shard's start; the shards' times added, as JUnit adds its suites'.
        // Shards of one check compare against one baselines folder; the merged report's approve
        // commands write into it.
        let folders = Set(files.compactMap(\.baselines).map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        guard folders.count <= 1 else {
            throw UsageError("the results were checked against different baselines folders (\(Set(files.compactMap(\.baselines)).sorted().joined(separator: ", "))); merge the shards of one check")
        }
        merged.baselines = files.compactMap(\.baselines).first
        // Kept only when every shard worked in the same folder (their relative paths then agree).
        let workedIn = Set(files.map(\.workingFolder))
        merged.workingFolder = workedIn.count == 1 ? workedIn.first! : nil
        // Each shard's notes once, in the files' order.
        var notes: [String] = []
        for note in files.flatMap({ $0.document.notes ?? [] }) where !notes.contains(note) { notes.append(note) }
        merged.notes = notes
        merged.started = files.compactMap(\.started).min()
        merged.seconds = files.reduce(0) { $0 + $1.seconds }
        return merged
    }

    /// `2026-11-23T10:39:41Z` (what `encode` writes) as a date.
    static func parseTimestamp(_ s: String) -> Date? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return f.date(from: s)
    }
}
