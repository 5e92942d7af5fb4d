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
        try Data(PNG.encode(a)).write(to: dir.appendingPathComponent("c.png"))
        let arguments = line.map { $0.hasPrefix("@") ? dir.appendingPathComponent(String($0.dropFirst()) + ".png").path : $0 }
        let fast = try CLI.run(arguments, in: dir)
        let root = try CLI.run(arguments, environment: ["NAVREEL_PARSE_FROM_ROOT": "1"], in: dir)
        #expect(fast.status == root.status, "\(line)")
        #expect(fast.stdout == root.stdout, "\(line)")
        #expect(fast.stderr == root.stderr, "\(line)")
    }
}
