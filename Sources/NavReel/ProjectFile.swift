import Compare
import Foundation
import Navigation
import Raster
import Scenario
import Yams

/// `navreel.yaml` at the project root: the folders and defaults of a repository with its own
/// layout, so that its commands need no flags. Flags win over the file, the file over NavReel's
/// defaults. Paths are relative to the file's folder. Example:
///
///     scenarios: UITests/NavReel/scenarios
///     baselines: UITests/NavReel/baselines
///     report: {folder: build/navreel, junit: build/navreel/junit.xml, json: build/navreel/results.json}
///     devices: [iphone-14]
///     tolerance: {perceptual: 0.05, maxDiffPixels: 10, metric: navreel}
public struct ProjectFile: Sendable, Equatable {
    public static let name = "navreel.yaml"

    public var path: String
    public var scenarios: String?
    public var baselines: String?
    public var report: String?
    public var junit: String?
    public var json: String?
    public var devices: [String] = []
    public var tolerance = ToleranceOverrides()
    /// Where each top-level key's value is (`navreel.yaml:2:12`), so that a problem found later
    /// with a value the file gave (a folder that does not exist, a device no scenario has) names
    /// the file's line rather than a flag the user never typed.
    public var places: [String: String] = [:]

    /// The folders a run uses, the file's or the defaults, both relative to the file's folder: a
    /// command run from a subfolder of the project finds the same folders as one run beside the
    /// file (the defaults were taken from the working folder, so `check` from `nav/` looked for
    /// `nav/Fixtures/scenarios`).
    public var scenariosFolder: String { scenarios ?? relative("Fixtures/scenarios") }
    public var baselinesFolder: String { baselines ?? relative("Baselines") }
    public var reportFolder: String { report ?? relative(".navreel/report") }
    func relative(_ p: String) -> String {
        let base = PathText.parent(path)
        return base.isEmpty ? p : base + "/" + p
    }

    /// "`navreel.yaml:2:12`'s " for a key the file set, or nil.
    public func origin(_ key: String) -> String? { places[key].map { "\($0): " } }

    /// The nearest `navreel.yaml` in the working directory or a folder above it, read; nil when
    /// there is none. A damaged file is an error naming its line.
    public static func find(from directory: String = FileManager.default.currentDirectoryPath) throws -> ProjectFile? {
        var dir = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: candidate) {
                // Shown as a relative path when it is in the working directory.
                return try load(dir.path == URL(fileURLWithPath: directory).standardizedFileURL.path ? name : candidate)
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
    }

    public static func load(_ path: String) throws -> ProjectFile {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw UsageError("\(path): cannot read") }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch let e as YamlError {
            throw UsageError("\(path): not valid YAML: \(e)")
        }
        var project = ProjectFile(path: path)
        guard let root else { return project }
        guard case .mapping(let map) = root else { throw UsageError("\(path):\(root.mark?.line ?? 1): expected keys such as scenarios, baselines, report") }
        let base = PathText.parent(path)
        func place(_ node: Node) -> String { "\(path):\(node.mark?.line ?? 1):\(node.mark?.column ?? 1)" }
        func string(_ node: Node, _ key: String) throws -> String {
            guard case .scalar(let s) = node, !s.string.isEmpty else { throw UsageError("\(place(node)): `\(key)` takes a path") }
            return s.string
        }
        func resolve(_ p: String) -> String { p.hasPrefix("/") || base.isEmpty ? p : base + "/" + p }
        // A quoted value is text, as in a scenario file (`channel: "3"` was taken as 3 here and
        // refused there, an audit, 2026-11-27); so are nan and inf.
        func quoted(_ s: Node.Scalar) -> Bool { s.style != .plain && s.style != .any }
        func number(_ node: Node, _ key: String) throws -> Double {
            guard case .scalar(let s) = node, let v = Double(s.string), v.isFinite else { throw UsageError("\(place(node)): `\(key)` takes a number") }
            if quoted(s) { throw UsageError("\(place(node)): `\(key)` takes a number, not the text `\(s.string)` (leave out the quotes)") }
            return v
        }
        func integer(_ node: Node, _ key: String) throws -> Int {
            guard case .scalar(let s) = node, let v = Int(s.string) else { throw UsageError("\(place(node)): `\(key)` takes a whole number") }
            if quoted(s) { throw UsageError("\(place(node)): `\(key)` takes a whole number, not the text `\(s.string)` (leave out the quotes)") }
            return v
        }
        func unknown(_ keyNode: Node, _ key: String, _ known: [String]) -> UsageError {
            UsageError("\(place(keyNode)): unknown key `\(key)`\(Suggestion.hint(key, known)); \(Self.name) takes \(known.joined(separator: ", "))")
        }
        let topKeys = ["scenarios", "baselines", "report", "devices", "tolerance"]
        for (k, v) in map {
            let key = k.string ?? ""
            project.places[key] = place(v)
            switch key {
            case "scenarios": project.scenarios = resolve(try string(v, key))
            case "baselines": project.baselines = resolve(try string(v, key))
            case "report":
                if case .scalar = v { project.report = resolve(try string(v, key)); continue }
                guard case .mapping(let r) = v else { throw UsageError("\(place(v)): `report` takes a folder or {folder, junit, json}") }
                for (rk, rv) in r {
                    switch rk.string ?? "" {
                    case "folder": project.report = resolve(try string(rv, "folder"))
                    case "junit": project.junit = resolve(try string(rv, "junit"))
                    case "json": project.json = resolve(try string(rv, "json"))
                    default: throw unknown(rk, rk.string ?? "", ["folder", "junit", "json"])
                    }
                }
            case "devices":
                switch v {
                case .scalar(let s): project.devices = [s.string]
                case .sequence(let seq):
                    project.devices = try seq.map { try string($0, "devices") }
                default: throw UsageError("\(place(v)): `devices` takes a list of device names")
                }
            case "tolerance":
                guard case .mapping(let t) = v else { throw UsageError("\(place(v)): `tolerance` takes keys such as perceptual, channel") }
                let known = ["channel", "perceptual", "antialiasing", "translucency", "maxDiffPixels", "maxDiffRatio", "metric"]
                for (tk, tv) in t {
                    let name = tk.string ?? ""
                    switch name {
                    case "channel": project.tolerance.channel = try integer(tv, name)
                    case "perceptual": project.tolerance.perceptual = try number(tv, name)
                    case "translucency": project.tolerance.translucency = try integer(tv, name)
                    case "maxDiffPixels": project.tolerance.maxDiffPixels = try integer(tv, name)
                    case "maxDiffRatio": project.tolerance.maxDiffRatio = try number(tv, name)
                    case "antialiasing":
                        guard case .scalar(let s) = tv, let b = Bool(s.string.lowercased()) else { throw UsageError("\(place(tv)): `antialiasing` takes true or false") }
                        project.tolerance.antialiasing = b
                    case "metric":
                        guard case .scalar(let s) = tv, let m = ComparisonSettings.Metric(rawValue: s.string) else {
                            throw UsageError("\(place(tv)): `metric` takes \(ComparisonSettings.Metric.allCases.map(\.rawValue).joined(separator: " or "))")
                        }
                        project.tolerance.metric = m
                    default: throw unknown(tk, name, known)
                    }
                }
                var check = Tolerance.rendered
                project.tolerance.apply(to: &check)
                if let problem = check.problems().first { throw UsageError("\(place(v)): tolerance: \(problem)") }
            default: throw unknown(k, key, topKeys)
            }
        }
        return project
    }
}

extension ToleranceOverrides {
    /// These overrides, with `other`'s wherever these have none (flags over the project file).
    public func over(_ other: ToleranceOverrides) -> ToleranceOverrides {
        var o = self
        o.channel = channel ?? other.channel
        o.perceptual = perceptual ?? other.perceptual
        o.antialiasing = antialiasing ?? other.antialiasing
        o.translucency = translucency ?? other.translucency
        o.temporal = temporal ?? other.temporal
        o.maxDiffPixels = maxDiffPixels ?? other.maxDiffPixels
        o.maxDiffRatio = maxDiffRatio ?? other.maxDiffRatio
        o.metric = metric ?? other.metric
        return o
    }
}
