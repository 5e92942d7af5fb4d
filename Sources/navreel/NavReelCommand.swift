import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

@main
struct NavReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navreel",
        abstract: "Visual regression testing for iOS navigation bars.",
        discussion: """
        Exit status: 0 when every frame passed, 1 when a frame failed, 2 on a usage error or an \
        unreadable input (the message names the file).
        """,
        version: NavReelVersion.string,
        subcommands: [Check.self, Record.self, Approve.self, Render.self, Diff.self, Compare.self, List.self, Lint.self, Prune.self, MergeReports.self, Bench.self]
    )

    static func main() {
        main(Compare.withAlignDefault(Array(CommandLine.arguments.dropFirst())))
    }
}

/// Exit codes of CLI.md: 0 passed, 1 a difference, 2 usage or unreadable input.
enum Exit {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let error: Int32 = 2
}
