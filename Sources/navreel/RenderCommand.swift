import ArgumentParser
import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render scenarios to PNG frames without comparing.",
        discussion: "Frames go to OUT/<scenario>/<device>/NNNN.png, the layout of Baselines/."
    )

    @Argument(help: "Scenario names or files (default: all).")
    var scenarios: [String] = []

    @Option(help: "Folder for the frames.")
    var out: String

    @Option(name: .customLong("scenarios"), help: "Folder of scenario files; image paths are relative to its parent (default: navreel.yaml's, else Fixtures/scenarios).")
    var directory: String?

    @Option(name: .customLong("device"), help: "Only this device (repeatable; default: navreel.yaml's devices, else every device).")
    var devices: [String] = []

    @Flag(help: "Also write NNNN.translucency.png (greyscale) and NNNN.elements.png (false colour).")
    var maps = false

    @Option(parsing: .unconditional, help: "Frames rendered at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var limits: LimitOptions

    mutating func run() throws {
        let catalog: ScenarioCatalog
        // Where the devices came from when navreel.yaml gave them, for its errors (`list` and
        // `check` name the file's line; render did not, an audit 2026-11-29).
        var devicesOrigin: String?
        do {
            let project = try ProjectFile.find()
            if devices.isEmpty, let project, !project.devices.isEmpty {
                devices = project.devices
                devicesOrigin = project.places["devices"]
            }
            catalog = try ScenarioCatalog(directory: directory ?? project?.scenariosFolder ?? "Fixtures/scenarios", selection: scenarios)
            if scenarios.isEmpty, let problem = catalog.emptyProblem() { throw UsageError(problem) }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        // A file with errors is named and skipped, and the rest are rendered, as check does; the
        // exit status is still 2 (an audit: render wrote nothing for one broken file of twelve
        // where check checked the other eleven).
        for errors in catalog.errors { for issue in errors.issues { Terminal.write("\(issue)\n", to: 2) } }
        let broken = catalog.errors.count
        if broken > 0 && catalog.scenarios.isEmpty { throw ExitCode(Exit.error) }
        do { try SuiteRunner.validate(filters: [], devices: devices, catalog: catalog, devicesOrigin: devicesOrigin) } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        let over = try limits.limits().problems(catalog.scenarios, devices: devices)
        guard over.isEmpty else {
            for issue in over { Terminal.write("\(issue)\n", to: 2) }
            throw ExitCode(Exit.error)
        }
        // The fonts (or the libraries that read them) cannot be loaded: an unreadable input, exit 2
        // with the message (not ArgumentParser's exit 1, which means a frame failed).
        let renderer: FrameRenderer
        do { renderer = try FrameRenderer(fixturesRoot: catalog.fixturesRoot) } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        let workers = try checkedJobs(jobs)
        if let problem = FileOutput.folderProblem(out) {
            Terminal.error("--out \(out): \(problem)")
            throw ExitCode(Exit.error)
        }
        let out = self.out, maps = self.maps
        var failures: [String] = []
        let lock = NSLock()
        var written = 0
        for scenario in catalog.scenarios {
            for job in renderer.jobs(for: scenario, devices: devices) {
                Parallel.forEach(job.frameCount, workers: workers) { k in
                    do {
                        let frame = try renderer.render(job, frame: k)
                        let base = out + "/" + job.path(ofFrame: k)
                        try FileOutput.write(renderer.encode(job, frame: k, frame, options: .fast), to: base)
                        if maps {
                            let stem = String(base.dropLast(4))
                            try FileOutput.write(PNG.encode(MapPictures.translucency(frame), options: .fast), to: stem + ".translucency.png")
                            try FileOutput.write(PNG.encode(MapPictures.elements(frame), options: .fast), to: stem + ".elements.png")
                        }
                        lock.lock(); written += 1; lock.unlock()
                    } catch {
                        lock.lock(); failures.append("\(job.path(ofFrame: k)): \(error)"); lock.unlock()
                    }
                }
                // Frames a longer version of the scenario left in this folder would read as part of it.
                let stale = RenderOutput.removeStaleFrames(in: out, job: job, maps: maps)
                if !quiet { print("\(job.folder): \(job.frameCount) frames" + (stale > 0 ? " (\(stale) stale files " + (maps ? "of frames past the last removed)" : "removed: frames past the last, or maps an earlier --maps render left)") : "")) }
            }
        }
        for f in failures.sorted() { Terminal.error(f) }
        if !quiet { print("wrote \(written) frames to \(out)") }
        if broken > 0 {
            Terminal.error("\(broken) scenario \(broken == 1 ? "file has" : "files have") errors (above) and \(broken == 1 ? "was" : "were") not rendered")
        }
        throw ExitCode(failures.isEmpty && broken == 0 ? Exit.passed : Exit.error)
    }
}

/// What `render` leaves in its output folder.
enum RenderOutput {
    /// Removes what an earlier, longer render of the same scenario and device wrote into a job's
    /// folder: frames numbered `frameCount` and later (`NNNN.png` whose text names this scenario
    /// and device, so only render's own files) and, beside each one removed, its `--maps`
    /// pictures. Nothing is removed through a symbolic link (the job's folders and the files must
    /// be plain), and nothing else in the folder is touched. Returns how many files went.
    /// `maps`: this render writes the map pictures; without it, those an earlier `--maps` render
    /// left beside this job's frames are removed too (they showed frames that are no longer
    /// there, an audit 2026-11-29).
    static func removeStaleFrames(in out: String, job: FrameRenderer.Job, maps: Bool = true) -> Int {
        let scenarioFolder = out + "/" + job.scenario.name, folder = scenarioFolder + "/" + job.device.name
        func plain(_ path: String, _ kind: mode_t) -> Bool {
            var st = stat()
            return lstat(path, &st) == 0 && st.st_mode & S_IFMT == kind
        }
        guard plain(scenarioFolder, S_IFDIR), plain(folder, S_IFDIR),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names where name.hasSuffix(".png") {
            let stem = name.dropLast(4)
            guard stem.count >= 4, stem.allSatisfy({ $0.isASCII && $0.isNumber }), let k = Int(stem) else { continue }
            let path = folder + "/" + name
            // A frame past the last goes with its maps; a frame of this render keeps itself, and
            // its old maps go when this render writes none (its text read only when there are some).
            let past = k >= job.frameCount
            guard past || !maps else { continue }
            let pictures = [".translucency.png", ".elements.png"].map { folder + "/" + stem + $0 }.filter { plain($0, S_IFREG) }
            guard past || !pictures.isEmpty else { continue }
            guard plain(path, S_IFREG), let text = BaselineFile.text(path: path),
                  text["navreel.scenario"] == job.scenario.name, text["navreel.device"] == job.device.name else { continue }
            if past {
                guard unlink(path) == 0 else { continue }
                removed += 1
            }
            for picture in pictures where unlink(picture) == 0 { removed += 1 }
        }
        return removed
    }
}
