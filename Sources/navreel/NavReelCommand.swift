import ArgumentParser
import NavReel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct NavReelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navreel",
        abstract: "Visual regression testing for iOS navigation bars.",
        version: NavReelVersion.string,
        subcommands: [Diff.self]
    )
}

/// Exit codes of CLI.md: 0 passed, 1 a difference, 2 usage or unreadable input.
enum Exit {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let error: Int32 = 2
}

func printError(_ message: String) {
    var stderr = StandardError()
    print("navreel: error: \(message)", to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc_write(2, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two PNG files pixel by pixel.",
        discussion: "Exit status: 0 when the images are equal, 1 when they differ, 2 when a file cannot be read."
    )

    @Argument(help: "The expected image (the baseline).")
    var expected: String

    @Argument(help: "The actual image.")
    var actual: String

    mutating func run() throws {
        do {
            let result = try PairDiff.run(expected: expected, actual: actual)
            print(result.summary)
            throw ExitCode(result.passed ? Exit.passed : Exit.failed)
        } catch let error as PNGError {
            printError(error.description)
            throw ExitCode(Exit.error)
        }
    }
}
