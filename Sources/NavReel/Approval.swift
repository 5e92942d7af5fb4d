import Foundation
import Raster
import Scenario

/// `navreel approve`: the failing (and missing) frames of the last check, as recorded in its
/// report, become baselines, byte for byte, without rendering again.
public enum Approval {
    public static func run(report: String, baselines: String, filters: [String]) throws -> [String] {
        let loaded = try ResultJSON.load(report + "/results.json")
        var approved: [String] = []
        for run in loaded.runs {
            let scenario = run["scenario"] as? String ?? "", device = run["device"] as? String ?? ""
            guard ScenarioParser.isSafeName(scenario), ScenarioParser.isSafeName(device) else {
                throw UsageError("\(report)/results.json: `\(scenario)/\(device)` is not a scenario and device name NavReel writes")
            }
            guard filters.isEmpty || filters.contains(where: { Glob.matches($0, scenario) }) else { continue }
            for frame in run["frames"] as? [[String: Any]] ?? [] {
                guard ["failed", "missing"].contains(frame["status"] as? String ?? ""), let actual = frame["actual"] as? String,
                      let index = frame["index"] as? Int else { continue }
                // Report paths are relative and produced by NavReel; refuse anything that leaves the report.
                guard !actual.hasPrefix("/"), !actual.split(separator: "/").contains("..") else {
                    throw UsageError("\(report)/results.json: frame path \(actual) leaves the report folder")
                }
                let source = report + "/" + actual
                // Decoded (never approve a damaged file) and re-encoded at baseline compression.
                let decoded = try PNG.read(path: source)
                let target = "\(baselines)/\(scenario)/\(device)/" + FrameRenderer.Job.frameName(index)
                try FileOutput.write(BaselineFile.encode(decoded.image, text: decoded.metadata.text, side: decoded.metadata.sideData), to: target)
                approved.append(target)
            }
        }
        return approved
    }

    /// Copies `frames/` of one report folder into another (for merge-reports).
    public static func copyFrames(from source: String, to target: String) throws {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: source + "/frames") else { return }
        while let item = walker.nextObject() as? String {
            guard item.hasSuffix(".png") else { continue }
            let bytes = try FileBytes.read(path: source + "/frames/" + item, limit: PNGLimits.default.maxFileBytes)
            try FileOutput.write(bytes, to: target + "/frames/" + item)
        }
    }
}
