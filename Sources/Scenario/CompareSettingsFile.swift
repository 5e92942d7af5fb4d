import Foundation
import Yams

/// The settings file of `navreel compare` (`navreel-compare.yaml` beside the expected frames):
/// the keys of a scenario's `tolerance` block but `elements` and `ignore` (captured frames have no
/// element maps), read by the same code, plus `crop`, `cropActual`, `cropExpected`, `ignore` (of
/// rectangles), `fps`, `align` and `metric` (as `--metric`). Rectangles are [x, y, width, height]
/// in pixels of the input.
public struct CompareSettingsSpec: Sendable, Equatable {
    public var tolerance = ToleranceSpec()
    public var crop: [Int]?
    public var cropActual: [Int]?
    public var cropExpected: [Int]?
    public var ignore: [[Int]] = []
    public var fps: Double?
    public var align: Int?
    /// `navreel` or `pixelmatch` (`ComparisonSettings.Metric`'s names), as `--metric` takes them.
    public var metric: CompareMetricName?
    public init() {}
}

/// The comparison metrics by name (`ComparisonSettings.Metric` in the Compare module, which this
/// one does not depend on; a test holds the two lists equal).
public enum CompareMetricName: String, Sendable, Equatable, CaseIterable {
    case navreel, pixelmatch
}

extension ScenarioParser {
    public static let compareSettingsFileName = "navreel-compare.yaml"
    static let compareOnlyKeys = ["crop", "cropActual", "cropExpected", "ignore", "fps", "align", "metric"]
    static let toleranceKeys = ruleKeys.filter { $0 != "ignore" } + ["maxDiffPixels", "maxDiffRatio", "regions"]

    public static func loadCompareSettings(path: String) -> Result<CompareSettingsSpec, ScenarioErrors> {
        let where_ = ScenarioLocation(file: path, line: 1, column: 1)
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ScenarioErrors([ScenarioIssue(where_, "cannot read the file")]))
        }
        guard data.count <= 1 << 20, let text = String(data: data, encoding: .utf8) else {
            return .failure(ScenarioErrors([ScenarioIssue(where_, "not a settings file (UTF-8 text up to 1 MiB)")]))
        }
        return parseCompareSettings(yaml: text, file: path)
    }

    public static func parseCompareSettings(yaml: String, file: String) -> Result<CompareSettingsSpec, ScenarioErrors> {
        let reader = YAMLReader(file: file)
        let root: Node?
        do { root = try Yams.compose(yaml: yaml) } catch { return .failure(ScenarioErrors([yamlIssue(error, file: file, yaml: yaml)])) }
        var spec = CompareSettingsSpec()
        guard let root else { return .success(spec) }
        if let entries = reader.mapping(root, "the compare settings") {
            let keys = reader.checkKeys(entries, allowed: toleranceKeys + compareOnlyKeys, "the compare settings")
            // The tolerance keys go through the scenario parser's `tolerance` code as one block.
            let block = entries.filter { toleranceKeys.contains($0.key) }.map { ($0.keyNode, $0.value) }
            spec.tolerance = Parser(reader: reader, fixturesRoot: nil).toleranceSpec(.mapping(Node.Mapping(block, .implicit, .block, root.mark)))
            func rect(_ node: Node, _ what: String) -> [Int]? {
                guard let n = reader.numbers(node, what, count: 4) else { return nil }
                guard n.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }), n[0] >= 0, n[1] >= 0, n[2] > 0, n[3] > 0 else {
                    reader.error(node, "\(what) must be [x, y, width, height] in whole pixels, width and height positive")
                    return nil
                }
                return n.map { Int($0) }
            }
            if let v = keys["crop"] { spec.crop = rect(v, "crop") }
            if let v = keys["cropActual"] { spec.cropActual = rect(v, "cropActual") }
            if let v = keys["cropExpected"] { spec.cropExpected = rect(v, "cropExpected") }
            if let v = keys["ignore"], let items = reader.list(v, "ignore") { spec.ignore = items.compactMap { rect($0, "an ignored rectangle") } }
            if let v = keys["fps"] { spec.fps = reader.double(v, "fps", max: 1000, above: 0) }   // as --fps
            if let v = keys["align"] { spec.align = reader.int(v, "align", min: 0, max: 1000) }
            if let v = keys["metric"] { spec.metric = reader.choice(v, "metric", CompareMetricName.self) }
        }
        if reader.issues.isEmpty { return .success(spec) }
        let sorted = reader.issues.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        return .failure(ScenarioErrors(sorted))
    }
}
