import ArgumentParser
import CSignals
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
        // (At most 10,000 shards: shards past the scenarios' count are empty anyway, and a count
        // of 2^63 - 1 crashed the run, an audit 2026-11-29.)
        guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, n <= Self.maxCount, (1...n).contains(k) else { return nil }
        index = k
        count = n
    }
    var defaultValueDescription: String { "\(index)/\(count)" }
    static let maxCount = 10_000
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
        subcommands: [Check.self, Record.self, Approve.self, Render.self, Diff.self, Compare.self, List.self, Lint.self, Prune.self, MergeReports.self, ScaffoldCommand.self, Bench.self]
    )

    /// ArgumentParser exits 64 (EX_USAGE) on a usage error; NavReel's contract (CLI.md, README,
    /// help) is 2 for every usage error, so parse errors and validation errors are mapped here.
    static func main() {
        // SIGPIPE ignored, temporary files removed on Ctrl-C (Sources/CSignals).
        nr_signals_install()
        let arguments = Compare.withAlignDefault(Array(CommandLine.arguments.dropFirst()))
        do {
            try parse(arguments)()
        } catch let code as ExitCode {
            // A command's own verdict (0 passed, 1 failed, 2 error), already reported. ArgumentParser's
            // exitCode(for:) and exit(withError:) would build the command's help text to find out
            // that there is nothing to print (reflection: 4 % of a small diff, issue 17).
            Terminal.exit(code.rawValue)
        } catch let invalid as ValidationError {
            // Thrown by a command's run (a value out of its range), after parsing: the message
            // alone, as every other error of a run is printed (ArgumentParser would add the root
            // command's usage line, which names no subcommand). Parse-time validation arrives
            // wrapped in ArgumentParser's own error and keeps its usage text below.
            Terminal.error(invalid.message)
            Terminal.exit(Exit.error)
        } catch {
            if exitCode(for: error) == .validationFailure {
                Terminal.write(fullMessage(for: error) + "\n", to: 2)
                Terminal.exit(Exit.error)
            }
            exit(withError: error)
        }
    }
}

extension NavReelCommand {
    /// The command the arguments name, parsed as `parseAsRoot` would. ArgumentParser's parse of
    /// the root command reflects every subcommand's options (Mirror, protocol conformance
    /// lookups): about 3 ms of a `navreel diff` of two small files that takes 6.6 ms (issue 17,
    /// start-up at most 2x odiff's). So the subcommand named by the first argument is parsed on
    /// its own; whatever that does not accept (help, a usage error, an unknown name) is parsed
    /// again from the root, so messages, help and exit codes are exactly ArgumentParser's.
    /// `--version` alone is answered without parsing. NAVREEL_PARSE_FROM_ROOT=1 turns both
    /// shortcuts off; CLIStartupTests runs commands with and without it and holds the output,
    /// errors and exit status equal.
    /// What to run for the arguments.
    static func parse(_ arguments: [String]) throws -> () throws -> Void {
        func running(_ command: ParsableCommand) -> () throws -> Void {
            var command = command
            return { try command.run() }
        }
        if getenv("NAVREEL_PARSE_FROM_ROOT").map({ String(cString: $0) }) == "1" { return running(try parseAsRoot(arguments)) }
        if arguments == ["--version"] { return { print(NavReelVersion.string) } }
        if arguments.first == "diff", let diff = DiffRequest.quickParse(Array(arguments.dropFirst())) { return diff.run }
        if let name = arguments.first, let type = directSubcommand(name),
           let command = try? type.parseAsRoot(Array(arguments.dropFirst())) {
            // A help request comes back as ArgumentParser's own help command, whose text would
            // name the subcommand alone: only the command itself (or one of its subcommands) is
            // taken.
            let parsed = ObjectIdentifier(Swift.type(of: command))
            if parsed == ObjectIdentifier(type) || type.configuration.subcommands.contains(where: { ObjectIdentifier($0) == parsed }) {
                return running(command)
            }
        }
        return running(try parseAsRoot(arguments))
    }

    /// The subcommand of that name. Only the matching type's configuration is read: reading
    /// every subcommand's instantiates all their metadata, a measurable part of a start.
    static func directSubcommand(_ name: String) -> ParsableCommand.Type? {
        let type: ParsableCommand.Type?
        switch name {
        case "check": type = Check.self
        case "record": type = Record.self
        case "approve": type = Approve.self
        case "render": type = Render.self
        case "diff": type = Diff.self
        case "compare": type = Compare.self
        case "list": type = List.self
        case "lint": type = Lint.self
        case "prune": type = Prune.self
        case "merge-reports": type = MergeReports.self
        case "bench": type = Bench.self
        default: type = nil
        }
        // A name that is not the command's own (renamed in its configuration) falls back to the root parse.
        guard let type, type.configuration.commandName == name else { return nil }
        return type
    }
}

/// Exit codes of CLI.md: 0 passed, 1 a difference, 2 usage or unreadable input.
enum Exit {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let error: Int32 = 2
}
