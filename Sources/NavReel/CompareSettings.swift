import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// `compare`'s settings file, resolved: the captured profile, then the file's keys, then the
/// command line (each only where it sets something).
public enum CompareSettingsFile {
    /// Where the settings file of an expected input is looked for: inside a folder, or beside a file.
    public static func defaultPath(forExpected expected: String) -> String {
        var isDir: ObjCBool = false
        // A folder (or one --record is about to create) holds its settings; a file has them beside it.
        if !FileManager.default.fileExists(atPath: expected, isDirectory: &isDir) || isDir.boolValue {
            return expected + "/" + ScenarioParser.compareSettingsFileName
        }
        let folder = (expected as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/" + ScenarioParser.compareSettingsFileName
    }

    /// Reads a settings file; a missing file at the default place is no settings, a bad one is an error.
    public static func load(_ path: String) throws -> CompareSettingsSpec? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        switch ScenarioParser.loadCompareSettings(path: path) {
        case .success(let spec): return spec
        case .failure(let errors): throw UsageError(errors.description)
        }
    }

    static func rect(_ r: [Int]?) -> PixelRect? { r.map { PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) } }

    /// Comparison settings and capture options from the profile, the file and the command line.
    public static func resolve(_ spec: CompareSettingsSpec?, flags: ToleranceOverrides, profile: Tolerance = .captured)
        -> (settings: ComparisonSettings, capture: CaptureOptions) {
        var tolerance = profile
        var capture = CaptureOptions()
        var regions: [Region] = []
        if let spec {
            let t = spec.tolerance
            var fromFile = ToleranceOverrides()
            fromFile.channel = t.base.channel
            fromFile.perceptual = t.base.perceptual
            fromFile.antialiasing = t.base.antialiasing
            fromFile.translucency = t.base.translucency
            fromFile.temporal = t.base.temporal
            fromFile.maxDiffPixels = t.maxDiffPixels
            fromFile.maxDiffRatio = t.maxDiffRatio
            fromFile.apply(to: &tolerance)
            // Regions of captured frames are in pixels (scale 1).
            regions = t.regions.map { r in
                Region(rect: PixelRect(x: Int(r.rect.0.rounded()), y: Int(r.rect.1.rounded()), width: Int(r.rect.2.rounded()),
                                       height: Int(r.rect.3.rounded())),
                       rule: RuleOverride(channel: r.rule.channel, perceptual: r.rule.perceptual, antialiasing: r.rule.antialiasing,
                                          translucency: r.rule.translucency, temporal: r.rule.temporal, ignore: r.rule.ignore))
            }
            capture.cropActual = rect(spec.cropActual ?? spec.crop)
            capture.cropExpected = rect(spec.cropExpected ?? spec.crop)
            capture.ignore = spec.ignore.compactMap { rect($0) }
            capture.fps = spec.fps
            capture.align = spec.align
        }
        flags.apply(to: &tolerance)
        return (ComparisonSettings(tolerance: tolerance, regions: regions, metric: flags.metric ?? .navreel), capture)
    }
}
