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

    @Option(name: .customLong("scenarios"), help: "Folder of scenario files.")
    var directory: String = "Fixtures/scenarios"

    @Option(name: .customLong("device"), help: "Only this device (repeatable).")
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
        do { catalog = try ScenarioCatalog(directory: directory, selection: scenarios) } catch {
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
        let out = self.out, maps = self.maps
        var failures: [String] = []
        let lock = NSLock()
        var written = 0
        for scenario in catalog.scenarios {
            for job in renderer.jobs(for: scenario, devices: devices) {
                Parallel.forEach(job.frameCount, workers: jobs ?? ImageComparator.defaultJobs) { k in
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
                if !quiet { print("\(job.folder): \(job.frameCount) frames") }
            }
        }
        for f in failures.sorted() { Terminal.error(f) }
        if !quiet { print("wrote \(written) frames to \(out)") }
        throw ExitCode(failures.isEmpty ? Exit.passed : Exit.error)
    }
}
