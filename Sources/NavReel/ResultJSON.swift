import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// The JSON results of a run: what `merge-reports`, `approve` and the HTML report read.
/// Schema: Sources/NavReel/results.schema.json (version 1). Order is stable: scenarios by name,
/// devices in the scenario's order, frames by index.
public enum ResultJSON {
    /// 2: the verdict is `summary.verdict` ("passed" | "failed"); version 1 also wrote it as a
    /// second `passed` key after the count, which JSON readers resolve differently. Runs carry
    /// `seconds`, frames `line` and `column` of their step.
    public static let schemaVersion = 2

    public static func encode(_ r: SuiteResult) -> JSON {
        // When the run started (UTC) and how long it took, so that merged shards keep both.
        let timing: [(String, JSON)] = (r.started.map { [("started", JSON.string(JUnitReport.timestamp($0) + "Z"))] } ?? [])
            + [("seconds", .double((r.seconds * 1000).rounded() / 1000))]
        return .object([
            ("schema", .string("navreel-results")),
            ("version", .int(schemaVersion)),
            ("navreel", .string(NavReelVersion.string)),
            ("recordMode", .string(r.recordMode.rawValue)),
            ("shard", .object([("index", .int(r.shard.index)), ("count", .int(r.shard.count))])),
        ] + timing + [
            ("summary", summary(r)),
            ("scenarioErrors", .array(r.scenarioErrors.map { .string($0) })),
            ("runs", .array(r.jobs.sorted { ($0.scenario, 0) < ($1.scenario, 0) }.map(job))),
        ])
    }

    static func summary(_ r: SuiteResult) -> JSON {
        .object([("frames", .int(r.frameCount))] + FrameOutcome.Status.allCases.map { ($0.rawValue, .int(r.count($0))) }
                + [("verdict", .string(r.exitCode == 0 ? "passed" : "failed"))])
    }

    static func job(_ j: JobResult) -> JSON {
        .object([
            ("scenario", .string(j.scenario)), ("device", .string(j.device)), ("file", .string(j.file)),
        ] + (j.expectedFolder.map { [("expectedFolder", JSON.string($0))] } ?? [])
          + (j.ignored.isEmpty ? [] : [("ignored", JSON.array(j.ignored.map { r in
              .object([("x", .int(r.x)), ("y", .int(r.y)), ("width", .int(r.width)), ("height", .int(r.height))]) }))]) + [
            ("seconds", .double((j.seconds * 1000).rounded() / 1000)),
            ("frames", .array(j.frames.map(frame))),
        ])
    }

    static func frame(_ f: FrameOutcome) -> JSON {
        var pairs: [(String, JSON)] = [("index", .int(f.index)), ("time", .double((f.time * 10000).rounded() / 10000)),
                                       ("status", .string(f.status.rawValue))]
        if let p = f.source { pairs.append(("path", .string(p))) }
        for (k, file, time) in [("expected", f.expectedFile, f.expectedTime), ("actual", f.actualFile, f.actualTime)] {
            if let file { pairs.append((k + "File", .string(file))) }
            if let time { pairs.append((k + "Time", .double((time * 10000).rounded() / 10000))) }
        }
        if let line = f.line { pairs.append(("line", .int(line))) }
        if let column = f.column { pairs.append(("column", .int(column))) }
        if f.fastPath { pairs.append(("fastPath", .bool(true))) }
        if let m = f.message { pairs.append(("message", .string(m))) }
        if let e = f.event { pairs.append(("event", .string(e))) }
        if !f.drift.isEmpty { pairs.append(("drift", .array(f.drift.map { .string($0) }))) }
        if let c = f.comparison, f.status != .passed || !c.identical { pairs.append(("comparison", .object(c.json))) }
        for (k, v) in [("expected", f.expected), ("actual", f.actual), ("diff", f.diff), ("thumbnail", f.thumbnail)] { if let v { pairs.append((k, .string(v))) } }
        return .object(pairs)
    }

    // MARK: Reading (merge-reports, approve)

    public struct Loaded: Sendable {
        public var runs: [[String: Any]] { raw["runs"] as? [[String: Any]] ?? [] }
        public var scenarioErrors: [String] { raw["scenarioErrors"] as? [String] ?? [] }
        /// The run's start (nil in files written before it was recorded) and duration.
        public var started: Date? { (raw["started"] as? String).flatMap(ResultJSON.parseTimestamp) }
        public var seconds: Double { raw["seconds"] as? Double ?? 0 }
        let rawData: Data
        var raw: [String: Any] { (try? JSONSerialization.jsonObject(with: rawData)) as? [String: Any] ?? [:] }
    }

    public static func load(_ path: String) throws -> Loaded {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("\(path): cannot read (run `navreel check` first)") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["schema"] as? String == "navreel-results" else {
            throw UsageError("\(path): not a NavReel results file (no \"schema\": \"navreel-results\"; damaged, or written by another tool)")
        }
        guard let v = object["version"] as? Int, v <= schemaVersion else {
            throw UsageError("\(path): results version \(object["version"] ?? "?") is newer than this NavReel reads (\(schemaVersion))")
        }
        // Every field merge-reports and approve rely on is checked by type, so that a damaged file
        // is an error naming the field, never a merge of zeros.
        do { _ = try JSONDecoder().decode(Checked.self, from: data) } catch let e as DecodingError {
            throw UsageError("\(path): damaged results file: \(describe(e))")
        }
        return Loaded(rawData: data)
    }

    /// The shape a results file must have to be read (Codable, every required field typed).
    struct Checked: Decodable {
        struct Summary: Decodable { var frames: Int }
        struct Run: Decodable {
            var scenario, device, file: String
            var frames: [Frame]
        }
        struct Frame: Decodable {
            var index: Int
            var time: Double
            var status: String
            var line, column: Int?
            var expected, actual, diff, message, path: String?
            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: Keys.self)
                index = try c.decode(Int.self, forKey: .index)
                time = try c.decode(Double.self, forKey: .time)
                status = try c.decode(String.self, forKey: .status)
                guard FrameOutcome.Status(rawValue: status) != nil else {
                    throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "unknown status `\(status)`")
                }
                line = try c.decodeIfPresent(Int.self, forKey: .line)
                column = try c.decodeIfPresent(Int.self, forKey: .column)
                for (key, _) in [(Keys.expected, 0), (.actual, 0), (.diff, 0), (.message, 0), (.path, 0)] { _ = try c.decodeIfPresent(String.self, forKey: key) }
            }
            enum Keys: String, CodingKey { case index, time, status, line, column, expected, actual, diff, message, path }
        }
        var summary: Summary
        var scenarioErrors: [String]
        var runs: [Run]
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
            errors += f.scenarioErrors
            for run in f.runs {
                let scenario = run["scenario"] as? String ?? "", device = run["device"] as? String ?? ""
                guard seen.insert(scenario + "/" + device).inserted else {
                    throw UsageError("\(scenario)/\(device) appears in more than one results file")
                }
                let frames = (run["frames"] as? [[String: Any]] ?? []).map { f -> FrameOutcome in
                    var o = FrameOutcome(index: f["index"] as? Int ?? 0, time: f["time"] as? Double ?? 0,
                                         status: FrameOutcome.Status(rawValue: f["status"] as? String ?? "") ?? .error)
                    o.message = f["message"] as? String
                    o.drift = f["drift"] as? [String] ?? []
                    o.expected = f["expected"] as? String
                    o.actual = f["actual"] as? String
                    o.diff = f["diff"] as? String
                    o.thumbnail = f["thumbnail"] as? String
                    o.fastPath = f["fastPath"] as? Bool ?? false
                    o.source = f["path"] as? String
                    o.event = f["event"] as? String
                    o.expectedFile = f["expectedFile"] as? String
                    o.actualFile = f["actualFile"] as? String
                    o.expectedTime = f["expectedTime"] as? Double
                    o.actualTime = f["actualTime"] as? Double
                    o.line = f["line"] as? Int
                    o.column = f["column"] as? Int
                    if let c = f["comparison"] as? [String: Any] { o.comparison = comparison(c) }
                    return o
                }
                var job = JobResult(scenario: scenario, device: device, file: run["file"] as? String ?? "", frames: frames)
                job.expectedFolder = run["expectedFolder"] as? String
                job.seconds = run["seconds"] as? Double ?? 0
                job.ignored = (run["ignored"] as? [[String: Int]] ?? []).map {
                    PixelRect(x: $0["x"] ?? 0, y: $0["y"] ?? 0, width: $0["width"] ?? 0, height: $0["height"] ?? 0)
                }
                jobs.append(job)
            }
        }
        jobs.sort { ($0.scenario, $0.device) < ($1.scenario, $1.device) }
        var merged = SuiteResult(jobs: jobs, scenarioErrors: errors, shard: (1, 1), recordMode: .never)
        // The earliest shard's start; the shards' times added, as JUnit adds its suites'.
        merged.started = files.compactMap(\.started).min()
        merged.seconds = files.reduce(0) { $0 + $1.seconds }
        return merged
    }

    static func comparison(_ c: [String: Any]) -> Comparison {
        var out = Comparison(width: c["width"] as? Int ?? 0, height: c["height"] as? Int ?? 0)
        let f = c["forgiven"] as? [String: Int] ?? [:]
        out.counts.equal = f["equal"] ?? 0
        out.counts.perceptual = f["perceptual"] ?? 0
        out.counts.antialiasing = f["antialiasing"] ?? 0
        out.counts.translucency = f["translucency"] ?? 0
        out.counts.timing = f["timing"] ?? 0
        out.counts.ignored = f["ignored"] ?? 0
        out.counts.mismatched = c["mismatched"] as? Int ?? 0
        out.maxChannelDelta = c["maxChannelDelta"] as? Int ?? 0
        out.maxMismatchDelta = c["maxMismatchDelta"] as? Int ?? 0
        out.allowedMismatches = c["allowedMismatches"] as? Int ?? 0
        if let s = c["sizeMismatch"] as? [String: [String: Int]], let e = s["expected"], let a = s["actual"] {
            out.sizeMismatch = (Comparison.Size(width: e["width"] ?? 0, height: e["height"] ?? 0),
                                Comparison.Size(width: a["width"] ?? 0, height: a["height"] ?? 0))
        }
        func rect(_ d: [String: Int]?) -> PixelRect? {
            d.map { PixelRect(x: $0["x"] ?? 0, y: $0["y"] ?? 0, width: $0["width"] ?? 0, height: $0["height"] ?? 0) }
        }
        out.mismatchBox = rect(c["mismatchBox"] as? [String: Int])
        out.elements = (c["elements"] as? [[String: Any]] ?? []).map { e in
            ElementMismatch(id: UInt8(e["id"] as? Int ?? 0), name: e["name"] as? String ?? "", pixels: e["pixels"] as? Int ?? 0,
                            box: rect(e["box"] as? [String: Int]) ?? PixelRect(x: 0, y: 0, width: 0, height: 0))
        }
        return out
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
