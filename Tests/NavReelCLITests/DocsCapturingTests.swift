import Foundation
import Testing

/// docs/capturing.md promises that its `sh` blocks run as written: they run here, in order, in one
/// shell, from a folder holding a copy of Fixtures/captured/, with the built navreel first on PATH.
@Suite("docs/capturing.md")
struct DocsCapturingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bodies of the fenced blocks of a Markdown text whose info string is exactly `language`.
    static func blocks(_ markdown: String, language: String) -> [String] {
        var out: [String] = [], current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if let body = current {
                if line == "```" { out.append(body.joined(separator: "\n")); current = nil } else { current = body + [line] }
            } else if line == "```" + language {
                current = []
            }
        }
        return out
    }

    /// Runs `script` with bash in `dir`, the built navreel first on PATH, without CI or
    /// NAVREEL_RECORD (the defaults a user's shell has); its exit status and interleaved output.
    static func runBash(_ script: String, in dir: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = CLI.binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["CI"] = nil
        env["NAVREEL_RECORD"] = nil
        process.environment = env
        let log = dir.appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    @Test("every sh block runs and succeeds")
    func shellBlocks() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/capturing.md"), encoding: .utf8)
        let blocks = Self.blocks(text, language: "sh")
        #expect(blocks.count >= 5)
        #expect(!blocks.joined().contains("xcrun"), "macOS-only commands belong in console blocks")
        #expect(!text.contains("MEASUREMENTS"), "the measured table is filled in")
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Fixtures"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Fixtures/captured"), to: dir.appendingPathComponent("Fixtures/captured"))
        let (status, output) = try Self.runBash("set -euo pipefail\n" + blocks.joined(separator: "\n"), in: dir)
        #expect(status == 0, "\(output)")
        #expect(output.contains("passed, 0 failed"))
        // --record wrote an approved frame for each of the example's.
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("approved-new").path).filter { $0.hasSuffix(".png") })
        let bundled = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Fixtures/captured/approved").path).filter { $0.hasSuffix(".png") })
        #expect(!bundled.isEmpty && written.isSuperset(of: bundled))
    }
}

/// The README's "Starting your own project" block runs as written, in an empty folder of a fresh
/// git repository: the first check writes baselines and fails, the last one passes against them.
@Suite("README: starting your own project")
struct ReadmeNewProjectTests {
    @Test("the block runs as written; the first check fails writing baselines, the last compares against them")
    func newProject() throws {
        let text = try String(contentsOf: DocsCapturingTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = text.range(of: "## Starting your own project") else { Issue.record("no such section"); return }
        let section = String(text[start.upperBound...]).components(separatedBy: "\n## ").first ?? ""
        let blocks = DocsCapturingTests.blocks(section, language: "sh")
        #expect(blocks.count == 1)
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (status, output) = try DocsCapturingTests.runBash("set -euo pipefail\ngit init -q\n" + (blocks.first ?? "false"), in: dir)
        #expect(status == 0, "\(output)")
        #expect(output.contains("new baselines were written because none existed"), "\(output)")
        #expect(output.range(of: #"in 1 run: \d+ passed\n"#, options: .regularExpression) != nil, "the last check passes: \(output)")
        let baselines = dir.appendingPathComponent("navbar-tests/Baselines/inbox/iphone-14")
        #expect(try FileManager.default.contentsOfDirectory(atPath: baselines.path).filter { $0.hasSuffix(".png") }.count > 20)
    }
}
