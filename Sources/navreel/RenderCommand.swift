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

    @Option(help: "Frames rendered at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var limits: LimitOptions

    mutating func run() throws {
        let catalog: ScenarioCatalog
        do {
            let project = try ProjectFile.find()
            if devices.isEmpty { devices = project?.devices ?? [] }
            catalog = try ScenarioCatalog(directory: directory ?? project?.scenarios ?? "Fixtures/scenarios", selection: scenarios)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        for errors in catalog.errors { for issue in errors.issues { Terminal.write("\(issue)\n", to: 2) } }
        guard catalog.errors.isEmpty else { throw ExitCode(Exit.error) }
        do { try SuiteRunner.validate(filters: [], devices: devices, catalog: catalog) } catch {
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
                let stale = RenderOutput.removeStaleFrames(in: out + "/" + job.folder, frameCount: job.frameCount)
                if !quiet { print("\(job.folder): \(job.frameCount) frames" + (stale > 0 ? " (\(stale) stale files of frames past the last removed)" : "")) }
            }
        }
        for f in failures.sorted() { Terminal.error(f) }
        if !quiet { print("wrote \(written) frames to \(out)") }
        throw ExitCode(failures.isEmpty ? Exit.passed : Exit.error)
    }
}

/// What `render` leaves in its output folder.
enum RenderOutput {
    /// Removes the files of frames numbered `frameCount` and later from a job's folder (`NNNN.png`
    /// and, from `--maps`, `NNNN.translucency.png` and `NNNN.elements.png`): what an earlier, longer
    /// render of the scenario wrote. Nothing else in the folder is touched. Returns how many.
    static func removeStaleFrames(in folder: String, frameCount: Int) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var removed = 0
        for name in names {
            var stem = Substring(name)
            for suffix in [".translucency.png", ".elements.png", ".png"] where stem.hasSuffix(suffix) {
                stem = stem.dropLast(suffix.count)
                break
            }
            guard stem.count < name.count, stem.count >= 4, stem.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let k = Int(stem), k >= frameCount else { continue }
            if unlink(folder + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}
