import ArgumentParser
import NavReel
import Compare
import Navigation
import Raster
import Scenario

// Enumerated options are typed, so that help and shell completion list their values
// (ArgumentParser derives `allValueStrings` from `CaseIterable` string enums).
extension RecordMode: ExpressibleByArgument {}
extension ColorChoice: ExpressibleByArgument {}
extension ComparisonSettings.Metric: ExpressibleByArgument {}

/// `--shard K/N`: shard K of N, 1 <= K <= N.
struct ShardSpec: ExpressibleByArgument, Sendable {
    var index: Int
    var count: Int
    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }
    var defaultValueDescription: String { "\(index)/\(count)" }
}

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

    /// ArgumentParser exits 64 (EX_USAGE) on a usage error; NavReel's contract (CLI.md, README,
    /// help) is 2 for every usage error, so parse errors and validation errors are mapped here.
    static func main() {
        let arguments = Compare.withAlignDefault(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Terminal.write(fullMessage(for: error) + "\n", to: 2)
                Terminal.exit(Exit.error)
            }
            exit(withError: error)
        }
    }
}

/// Exit codes of CLI.md: 0 passed, 1 a difference, 2 usage or unreadable input.
enum Exit {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let error: Int32 = 2
}
