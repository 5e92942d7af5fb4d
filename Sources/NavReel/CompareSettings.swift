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
        let folder = PathText.parent(expected)
        return (folder.isEmpty ? "." : folder) + "/" + ScenarioParser.compareSettingsFileName
    }

    /// Reads a settings file; a missing file at the default place is no settings, a bad one is an error.
    public static func load(_ path: String) throws -> CompareSettingsSpec? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        switch ScenarioParser.loadCompareSettings(path: path) {
        case .success(let spec): return spec
        // Each issue names the file, line and column (a `navreel compare` prints them as they are,
        // as `lint` does, so that editors and CI annotations read them).
        case .failure(let errors): throw errors
        }
    }

    static func rect(_ r: [Int]?) -> PixelRect? { r.map { PixelRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) } }

    /// Comparison settings and capture options from the profile, the file and the command line.
    public static func resolve(_ spec: CompareSettingsSpec?, flags: ToleranceOverrides, profile: Tolerance = .captured)
        -> (settings: ComparisonSettings, capture: CaptureOptions) {
        var tolerance = profile
        var capture = CaptureOptions()
        var regions: [Region] = []
        var metric = ComparisonSettings.Metric.navreel
        if let spec {
            if let m = spec.metric, let named = ComparisonSettings.Metric(rawValue: m.rawValue) { metric = named }
            let t = spec.tolerance
            t.overrides.apply(to: &tolerance)
            // Regions of captured frames are in pixels (scale 1).
            regions = t.regions.map { $0.region(scale: 1) }
            capture.cropActual = rect(spec.cropActual ?? spec.crop)
            capture.cropExpected = rect(spec.cropExpected ?? spec.crop)
            capture.ignore = spec.ignore.compactMap { rect($0) }
            capture.fps = spec.fps
            capture.align = spec.align
        }
        flags.apply(to: &tolerance)
        return (ComparisonSettings(tolerance: tolerance, regions: regions, metric: flags.metric ?? metric), capture)
    }
}

/// A `tolerance` block (scenario or navreel-compare.yaml) in the comparison's terms.
extension ToleranceSpec {
    /// The block's frame-wide knobs, to apply over a profile.
    var overrides: ToleranceOverrides {
        var o = ToleranceOverrides()
        o.channel = base.channel
        o.perceptual = base.perceptual
        o.antialiasing = base.antialiasing
        o.translucency = base.translucency
        o.temporal = base.temporal
        o.maxDiffPixels = maxDiffPixels
        o.maxDiffRatio = maxDiffRatio
        return o
    }
}

extension ToleranceSpec.Region {
    /// The region in pixels: its rectangle in points times `scale`, rounded.
    func region(scale: Double) -> Region {
        Region(rect: PixelRect(x: Int((rect.0 * scale).rounded()), y: Int((rect.1 * scale).rounded()),
                               width: Int((rect.2 * scale).rounded()), height: Int((rect.3 * scale).rounded())), rule: RuleOverride(rule))
    }
}

extension RuleOverride {
    init(_ r: ToleranceSpec.Rule) {
        self.init(channel: r.channel, perceptual: r.perceptual, antialiasing: r.antialiasing, translucency: r.translucency,
                  temporal: r.temporal, ignore: r.ignore)
    }
}
