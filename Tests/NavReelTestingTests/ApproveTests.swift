import Foundation
import NavReelTesting
import Testing

/// The `navreel` binary SwiftPM builds beside the test bundle.
func navreelBinary() -> URL {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("navreel")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("navreel")
}

@Suite("the navreel command on an assertion's baselines")
struct ApproveTests {
    @Test("navreel approve, as the failure message writes it, accepts a failing assertion's frames")
    func approve() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baselines = dir.appendingPathComponent("__Baselines__/ApproveTests"), report = dir.appendingPathComponent("report")
        // One call site: the baseline and report folders are this assertion's.
        func check(_ color: String, _ mode: RecordMode) -> SuiteResult? {
            assertNavigation(try! tinyScenario(color: color), record: mode, baselines: baselines, report: report)
        }
        _ = knownIssues { _ = check("#FFFFFF", .missing) }
        // The command exactly as the message gives it.
        let message = try #require(knownIssues { _ = check("#FF0000", .never) }.first)
        let line = try #require(message.split(separator: "\n").first { $0.hasPrefix("accept: navreel approve") })
        let arguments = line.dropFirst("accept: navreel ".count).split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = navreelBinary()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && output.contains("approved"), "\(arguments): \(output)")
        // Approved: the changed scenario now passes against the same folder.
        #expect(check("#FF0000", .never)?.exitCode == 0)
    }
}
