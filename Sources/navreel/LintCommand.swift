import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check scenario files without rendering.",
        discussion: """
            Prints every problem as FILE:LINE:COLUMN: error: MESSAGE. Exit status 2 when any file has a problem. \
            Every image a scenario names is read whole, as drawing it would read it. \
            Also warns (FILE:LINE:COLUMN: warning: MESSAGE, exit status unchanged) about characters of titles and \
            bar items that no shipped font has, about a scroll that leaves a large title part collapsed, which \
            a device snaps open or closed when a drag ends, and about steps and keys that do nothing a newcomer \
            expects: a show that replaces a stack, a rotate to the orientation it is in, a bar colour an image hides.
            """
    )

    @Argument(help: "Scenario names or files (default: every file in --scenarios).")
    var scenarios: [String] = []

    @Option(name: .customLong("scenarios"), help: "Folder of scenario files; image paths are relative to its parent (default: navreel.yaml's, else Fixtures/scenarios).")
    var directory: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var limits: LimitOptions

    mutating func run() throws {
        let catalog: ScenarioCatalog
        do {
            catalog = try ScenarioCatalog(directory: directory ?? ProjectFile.find()?.scenariosFolder ?? "Fixtures/scenarios", selection: scenarios,
                                          imageCheck: ScenarioCatalog.readableImage)
            if scenarios.isEmpty, let problem = catalog.emptyProblem() { throw UsageError(problem) }
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
        // Under GitHub Actions each problem is also an annotation on its line of the pull request.
        let github = Terminal.environment("GITHUB_ACTIONS") == "true"
        for errors in catalog.errors {
            for issue in errors.issues {
                Terminal.write("\(issue)\n", to: 2)
                if github {
                    print(GitHubActions.annotation(.error, file: issue.location.file, line: issue.location.line, column: issue.location.column,
                                                   title: "NavReel lint", message: issue.message))
                }
            }
        }
        func say(_ warning: LintWarning) {
            Terminal.write("\(warning)\n", to: 2)
            if github {
                print(GitHubActions.annotation(.warning, file: warning.location.file, line: warning.location.line,
                                               column: warning.location.column, title: "NavReel lint", message: warning.message))
            }
        }
        // Resting states no device shows (a large title left part collapsed): warnings too.
        var warnings = catalog.scenarios.flatMap(MotionWarnings.warnings)
        // Characters no shipped font has draw as boxes: a warning, not an error.
        do {
            let fonts = try FontSet.discover()
            for entry in catalog.entries { warnings += FontCoverage.warnings(file: entry.path, fonts: fonts) }
        } catch {
            Terminal.write("navreel lint: warning: fonts not checked: \(error)\n", to: 2)
        }
        // In file order, as a reader goes through the file (the font warnings came after the
        // others, whatever their lines; an audit, 2026-11-27).
        warnings.sorted { ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column) }
            .forEach(say)
        // navreel.yaml's devices select the runs of check and record: a name no scenario uses is
        // their error at the file's line, so it is lint's too.
        var projectProblem = false
        var project: ProjectFile?
        do { project = try ProjectFile.find() } catch {
            // A damaged navreel.yaml stops check and record; lint says so too, whatever --scenarios names.
            Terminal.write("\(error)\n", to: 2)
            projectProblem = true
        }
        // (Only over valid files: a broken file's devices are unknown until it parses.)
        if scenarios.isEmpty, catalog.errors.isEmpty, let project, !project.devices.isEmpty {
            do {
                try SuiteRunner.validate(filters: [], devices: project.devices, catalog: catalog, devicesOrigin: project.places["devices"])
            } catch {
                Terminal.write("\(error)\n", to: 2)
                projectProblem = true
            }
        }
        // Valid files may still ask for more frames or pixels than a run allows.
        var overLimit = Set<String>()
        for issue in try limits.limits().problems(catalog.scenarios) {
            Terminal.write("\(issue)\n", to: 2)
            overLimit.insert(issue.location.file)
        }
        let bad = catalog.errors.count + overLimit.count
        if !quiet {
            print("\(catalog.entries.count) scenario files: \(catalog.entries.count - bad) valid, \(bad) with errors"
                  + (projectProblem ? "; navreel.yaml has an error" : ""))
        }
        throw ExitCode(bad > 0 || projectProblem ? Exit.error : Exit.passed)
    }
}
