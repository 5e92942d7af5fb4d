import Foundation
import Testing
import Raster

/// `navreel` parses the subcommand its first argument names on its own, and answers `--version`
/// without parsing (issue 17: ArgumentParser's reflection of the whole command tree was half of a
/// small `diff`). NAVREEL_PARSE_FROM_ROOT=1 turns that off; every command line here must give the
/// same output, errors and exit status both ways.
@Suite("start-up shortcuts parse as the root command does")
struct CLIStartupTests {
    static let commandLines: [[String]] = [
        ["--version"],
        ["diff", "@a", "@b"],
        ["diff", "@a", "@c", "--json", "-"],
        ["diff", "@a", "@c", "--perceptual", "0", "--channel", "3", "--quiet"],
        ["diff", "@a", "@c", "--no-antialiasing", "--metric", "pixelmatch"],
        ["diff", "--help"],
        ["diff", "-h"],
        ["diff"],
        ["diff", "@a"],
        ["diff", "@a", "@b", "--bogus"],
        ["diff", "@a", "@b", "--perceptual", "2"],
        ["diff", "@a", "@b", "--metric", "nonsense"],
        ["diff", "@a", "@b", "--jobs", "x"],
        ["diff", "@a", "@missing"],
        // Each option of the quick reader, with an effect on what is printed or written.
        ["diff", "@a", "@c", "--perceptual", "0.5", "--channel", "10", "--json", "-"],
        ["diff", "@a", "@c", "--max-diff-pixels", "1"],
        ["diff", "@a", "@c", "--max-diff-ratio", "0.5", "--json", "-"],
        ["diff", "@a", "@c", "-o", "@out"],
        ["diff", "@a", "@c", "--heatmap", "--out", "@out"],
        ["diff", "@a", "@c", "--metric", "pixelmatch", "--no-antialiasing", "--json", "-"],
        ["diff", "@a", "@c", "--antialiasing", "--perceptual", "0"],
        ["diff", "@a", "@c", "--translucency", "4", "--json", "@json"],
        ["diff", "@a", "@c", "--jobs", "1", "--quiet"],
        ["diff", "--json", "-", "@a", "@c"],
        ["diff", "@a", "@c", "--verbose"],
        // Forms the quick reader leaves to ArgumentParser.
        ["diff", "@a", "@c", "--out"],
        ["diff", "@a", "@c", "--out", "-x"],
        ["diff", "@a", "@c", "--channel=3"],
        ["diff", "@a", "@c", "--channel", "3", "--channel", "4"],
        ["diff", "@a", "@c", "--quiet", "--quiet"],
        ["diff", "@a", "@c", "--antialiasing", "--no-antialiasing"],
        ["diff", "@a", "@c", "--perceptual", "-1"],
        ["diff", "@a", "@c", "--jobs", "1.5"],
        ["diff", "@a", "@c", "--", "-x"],
        ["diff", "@a", "@c", "@b"],
        ["diff", "@a", "@c", "--json", ""],
        ["diff", "--version"],
        ["--version", "diff"],
        ["difff", "@a", "@b"],
        ["help", "diff"],
        ["--help"],
        [],
        ["list", "--scenarios", "@nowhere"],
        ["lint", "--help"],
        ["bench", "--help"],
        ["bench", "paint", "--frames", "zero"],
        ["check", "--jobs", "0"],
        ["render"],
    ]

    @Test("same output, errors and exit status", arguments: commandLines)
    func same(_ line: [String]) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var a = Image(width: 8, height: 4, fill: RGBA8(255, 255, 255))
        try Data(PNG.encode(a)).write(to: dir.appendingPathComponent("a.png"))
        try Data(PNG.encode(a)).write(to: dir.appendingPathComponent("b.png"))
        a[2, 2] = RGBA8(0, 0, 0)
        // Two pixels differ: one black (a mismatch), one barely (forgiven as perceptually equal).
        a[3, 1] = RGBA8(250, 252, 255)
        try Data(PNG.encode(a)).write(to: dir.appendingPathComponent("c.png"))
        let arguments = line.map { $0.hasPrefix("@") ? dir.appendingPathComponent(String($0.dropFirst()) + ".png").path : $0 }
        let written = ["out.png", "json.png"].map { dir.appendingPathComponent($0) }
        /// A run's status, output (timings, which vary, left out) and the files it wrote.
        func run(_ environment: [String: String]) throws -> (Int32, String, String, [Data?]) {
            for file in written { try? FileManager.default.removeItem(at: file) }
            let r = try CLI.run(arguments, environment: environment, in: dir)
            let stderr = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("timings:") }.joined(separator: "\n")
            return (r.status, r.stdout, stderr, written.map { try? Data(contentsOf: $0) })
        }
        let fast = try run([:])
        let root = try run(["NAVREEL_PARSE_FROM_ROOT": "1"])
        #expect(fast.0 == root.0, "\(line)")
        #expect(fast.1 == root.1, "\(line)")
        #expect(fast.2 == root.2, "\(line)")
        #expect(fast.3 == root.3, "\(line)")
    }
}
