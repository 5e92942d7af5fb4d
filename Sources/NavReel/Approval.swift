import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// `navreel approve`: the failing (and missing) frames of the last check, as recorded in its
/// report, become baselines, byte for byte, without rendering again.
public enum Approval {
    /// `baselines`: the folder to write into; nil for the one the report's check compared
    /// against (`ResultsDocument.baselines`), else `fallback`. `runs`: only these runs, by exact
    /// name (a check's scenario; a compare's folder of frames, "." for the top one); `devices`:
    /// only these devices of a check.
    /// `warn` hears about scenario files changed since the report was made (their digest in
    /// results.json differs): the frames approved are what the file drew then, and the next check
    /// will compare against them.
    /// `projectFolder`: the folder of the navreel.yaml approve found ("" when it is the working
    /// folder). A report's relative paths (its baselines folder, its scenario files) are as the
    /// check saw them, from the project's folder when run there: approve run from a subfolder
    /// looks there first, so the report's approve command works from any folder of the project.
    /// `wrote` hears each file as soon as it is in place, so that an approve stopped part-way
    /// (Ctrl-C, a full disk) has said which frames it approved.
    public static func run(report: String, baselines: String?, fallback: String = "Baselines", filters: [String],
                           devices: [String] = [], runs: [String] = [], projectFolder: String? = nil,
                           warn: (String) -> Void = { _ in }, wrote: (String) -> Void = { _ in }) throws -> [String] {
        let loaded = try ResultJSON.load(report + "/results.json")
        if loaded.runs.contains(where: { $0.expectedFolder != nil }) {
            guard devices.isEmpty else {
                throw UsageError("--device selects devices of a check's report; \(report) is a compare report (select with --run or --filter)")
            }
            return try approveCaptured(loaded, report: report, filters: filters, runs: runs, wrote: wrote)
        }
        // The report's folder, as its check was given it, only where it exists from here: a report
        // made in another working folder or on another machine names a path that would make a
        // new tree of baselines.
        let recorded = loaded.baselines.flatMap { located($0, workingFolder: loaded.workingFolder, projectFolder: projectFolder, folder: true) }
        if baselines == nil, let recorded, recorded.hasPrefix("/") {
            // The check ran in another folder of this machine (another checkout, say) and its
            // baselines are written there, as the report's approve commands mean; but when this
            // folder has a baselines folder of its own, say where they go (an audit, 2026-11-27:
            // approve in one clone wrote into the clone a shard had run in, and git status here
            // stayed clean).
            // (`fallback` is the project's folder already, from a subfolder too.)
            let own = fallback
            var isDir: ObjCBool = false
            let here = URL(fileURLWithPath: own).standardizedFileURL.path
            if FileManager.default.fileExists(atPath: own, isDirectory: &isDir), isDir.boolValue,
               URL(fileURLWithPath: recorded).standardizedFileURL.path != here {
                warn("approving into \(recorded), the baselines of the check that made \(report) (it ran in "
                     + "\(loaded.workingFolder ?? "another folder")), not \(own) here; pass --baselines \(own) to approve into this folder's")
            }
        }
        let baselines = baselines ?? recorded ?? fallback
        // Every frame is read, checked and encoded before any baseline is written: a damaged or
        // missing report frame changes nothing (and nothing is overwritten unlisted).
        var pending: [(target: String, bytes: [UInt8])] = []
        var approvedFrom: [(file: String, digest: String?)] = []
        for run in loaded.runs {
            let scenario = run.scenario, device = run.device
            guard ScenarioParser.isSafeName(scenario), ScenarioParser.isSafeName(device) else {
                throw UsageError("\(report)/results.json: `\(scenario)/\(device)` is not a scenario and device name NavReel writes")
            }
            guard filters.isEmpty || filters.contains(where: { Glob.matches($0, scenario) }),
                  runs.isEmpty || runs.contains(scenario), devices.isEmpty || devices.contains(device) else { continue }
            for frame in run.frames {
                // An error frame has an actual only when its baseline was damaged (SuiteRunner).
                guard [.failed, .missing, .error].contains(frame.status), let actual = frame.actual else { continue }
                let index = frame.index
                // A frame number NavReel writes (an audit, 2026-11-29: an index of -5 in an edited
                // results.json wrote `00-5.png`, one of 10^11 a file no run reads).
                guard (0..<1_000_000).contains(index) else {
                    throw UsageError("\(report)/results.json: frame \(index) of \(scenario)/\(device) is not a frame number NavReel writes (0 to 999999)")
                }
                // Report paths are relative and produced by NavReel; refuse anything that leaves the report.
                guard !actual.hasPrefix("/"), !actual.split(separator: "/").contains("..") else {
                    throw UsageError("\(report)/results.json: frame path \(actual) leaves the report folder")
                }
                let source = report + "/" + actual
                // Decoded (never approve a damaged file) and re-encoded at baseline compression.
                let decoded = try PNG.read(path: source)
                let target = "\(baselines)/\(scenario)/\(device)/" + FrameRenderer.Job.frameName(index)
                // The maps are read and written again, so a report made before baseline format 4
                // (maps in NRM1) is approved in the layout this NavReel writes.
                let maps = try PairDiff.maps(of: decoded, source: source)
                pending.append((target, try BaselineFile.encode(decoded.image, text: decoded.metadata.text, side: maps?.serialized())))
                if !approvedFrom.contains(where: { $0.file == run.file }) { approvedFrom.append((run.file, run.fileDigest)) }
            }
        }
        for (file, digest) in approvedFrom {
            guard let path = located(file, workingFolder: loaded.workingFolder, projectFolder: projectFolder, folder: false) else {
                // Renamed or deleted since the check (or approve runs outside the project): the
                // baselines are written for a scenario no check may read (an audit, 2026-11-27:
                // 84 frames approved into a renamed scenario's folder without a word).
                if !file.isEmpty {
                    warn("\(file): no such scenario file here any more (renamed or deleted since \(report) was made?): the frames "
                         + "approved for it are baselines no check reads until it is back; `navreel prune` removes baselines of scenarios that are gone")
                }
                continue
            }
            guard let digest, let now = SuiteRunner.fileDigest(path) else { continue }
            if now != digest {
                warn("\(file) changed since \(report) was made: the frames approved are what it drew then; run `navreel check` to see what it draws now")
            }
        }
        var approved: [String] = []
        for (target, bytes) in pending {
            do { try FileOutput.write(bytes, to: target) } catch {
                throw cannotWrite(target, error, after: approved)
            }
            approved.append(target)
            wrote(target)
        }
        return approved
    }

    static func cannotWrite(_ target: String, _ error: Error, after approved: [String]) -> UsageError {
        UsageError("\(target): cannot write: \(error)" + (approved.isEmpty ? "" : " (\(approved.count) frames were approved before it: \(approved.joined(separator: ", ")))"))
    }

    /// Where a path a report names is from here: as it is when absolute; else from the folder
    /// the run worked in, when the report records it and it exists here (the same machine); else
    /// (a report from elsewhere or from before it was recorded) below the project's folder
    /// (when that is not the working folder), then from the working folder; nil when none
    /// exists (as a folder, or as a file).
    static func located(_ path: String, workingFolder: String?, projectFolder: String?, folder: Bool) -> String? {
        func exists(_ p: String) -> Bool {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: p, isDirectory: &isDir) && isDir.boolValue == folder
        }
        if path.hasPrefix("/") { return exists(path) ? path : nil }
        if let run = workingFolder, run.hasPrefix("/") {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: run, isDirectory: &isDir), isDir.boolValue {
                // From the folder the run worked in: named as the run named it when that is here.
                let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
                let full = here == URL(fileURLWithPath: run).standardizedFileURL.path ? path : run + "/" + path
                return exists(full) ? full : nil
            }
        }
        if let base = projectFolder, !base.isEmpty, exists(base + "/" + path) { return base + "/" + path }
        return exists(path) ? path : nil
    }

    /// A `compare` report: the failing and missing frames' actual images (copies inside the report)
    /// become the expected frames, under the frame's name in the expected folder the report names.
    /// Every image is decoded before anything is written (a damaged report changes nothing), and
    /// each file is replaced atomically, as baselines are.
    static func approveCaptured(_ loaded: ResultJSON.Loaded, report: String, filters: [String], runs: [String],
                                wrote: (String) -> Void) throws -> [String] {
        // With the crop stamp of a frame compared with a cropped expected side.
        var pending: [(target: String, image: Image, stamp: String?)] = []
        for run in loaded.runs where runs.isEmpty || runs.contains(run.scenario) {
            guard let folder = run.expectedFolder, !folder.isEmpty else {
                throw UsageError("\(report)/results.json: a run without its expected folder")
            }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), !isDir.boolValue {
                throw UsageError("\(folder): approve writes PNG frames into a folder, and this is a file (compare with a folder of expected frames)")
            }
            // The report names the folder as compare was given it: from another working folder the
            // name would make a new folder beside the wrong frames.
            guard isDir.boolValue else {
                throw UsageError("\(folder): no such expected folder here; run approve from the folder `navreel compare` ran in")
            }
            for frame in run.frames {
                guard [.failed, .missing].contains(frame.status), let name = frame.path else { continue }
                guard filters.isEmpty || filters.contains(where: { Glob.matches($0, name) }) else { continue }
                guard let actual = frame.actual else {
                    throw UsageError("\(report)/results.json: \(name) has no actual frame to approve (a frame missing from the actual input cannot be approved; delete \(folder)/\(name) instead)")
                }
                // Names and report paths are relative and produced by NavReel; refuse anything that leaves its folder.
                for p in [name, actual] where p.hasPrefix("/") || p.split(separator: "/").contains("..") || p.isEmpty {
                    throw UsageError("\(report)/results.json: path \(p) leaves its folder")
                }
                guard name.lowercased().hasSuffix(".png") else { throw UsageError("\(report)/results.json: \(name) is not a PNG name") }
                try SequenceComparison.refuseRendered(folder + "/" + name, by: "approving this compare report")
                let decoded = try PNG.read(path: report + "/" + actual)
                pending.append((folder + "/" + name, decoded.image, decoded.metadata.text[FrameSequence.cropStampKey]))
            }
        }
        var approved: [String] = []
        for (target, image, stamp) in pending {
            do {
                try FileOutput.write(BaselineFile.encode(image, text: stamp.map { [FrameSequence.cropStampKey: $0] } ?? [:], side: nil), to: target)
            } catch {
                throw cannotWrite(target, error, after: approved)
            }
            approved.append(target)
            wrote(target)
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
