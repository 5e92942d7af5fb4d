import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// Command-line conventions of CLI.md: exit 2 on every usage error, enumerated options listing
/// their values, colour decided for the stream it is written to.
@Suite("command-line conventions", .serialized)
struct ConventionsTests {
    @Test("usage errors exit 2, never ArgumentParser's 64", arguments: [
        ["frob"], ["check", "--bogus"], ["check", "--record", "sometimes"], ["check", "--shard", "3/2"],
        ["check", "--shard", "x"], ["check", "--color", "sometimes"], ["check", "--metric", "odiff"],
        ["compare", "--actual", "a"], ["compare", "--actual", "a", "--expected", "b", "--record", "maybe"],
        ["diff"], ["check", "--perceptual", "2"], ["render"],
    ])
    func usageExitsTwo(_ arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2, "\(arguments): \(r)")
        #expect(r.stderr.contains("Error") || r.stderr.contains("error"), "\(r.stderr)")
    }

    @Test("help lists the values of enumerated options")
    func helpListsValues() throws {
        let check = try CLI.run(["check", "--help"])
        #expect(check.status == 0)
        let text = check.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("values: missing, failed, all, never"), "\(check.stdout)")
        #expect(text.contains("values: auto, always, never"))
        #expect(text.contains("values: navreel, pixelmatch"))
        #expect(text.contains("--shard <K/N>"))
        let compare = try CLI.run(["compare", "--help"])
        #expect(compare.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
                    .contains("values: missing, failed, all, never"))
    }

    @Test("colour rules: --color wins, then FORCE_COLOR, then NO_COLOR, then the stream")
    func colorRules() {
        #expect(ColorChoice.auto.enabled(isTerminal: true, environment: [:]))
        #expect(!ColorChoice.auto.enabled(isTerminal: false, environment: [:]))
        #expect(!ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorChoice.auto.enabled(isTerminal: true, environment: ["NO_COLOR": ""]), "an empty NO_COLOR is absent")
        #expect(ColorChoice.auto.enabled(isTerminal: false, environment: ["FORCE_COLOR": "1"]))
        #expect(ColorChoice.auto.enabled(isTerminal: false, environment: ["FORCE_COLOR": "1", "NO_COLOR": "1"]))
        #expect(!ColorChoice.auto.enabled(isTerminal: true, environment: ["FORCE_COLOR": "0"]))
        #expect(ColorChoice.always.enabled(isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.enabled(isTerminal: true, environment: ["FORCE_COLOR": "1"]))
    }

    @Test("failure lines written to a file carry no escape codes unless colour is asked for")
    func colorPerStream() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        let quiet = ["CI": "", "FORCE_COLOR": "", "NO_COLOR": "", "GITHUB_ACTIONS": ""]
        #expect(try p.run(["record"], env: quiet).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        let plain = try p.run(["check", "--record", "never"], env: quiet)
        #expect(plain.status == 1 && plain.stdout.contains("FAIL one/tiny") && !plain.stdout.contains("\u{1B}["), "\(plain)")
        var forced = quiet; forced["FORCE_COLOR"] = "1"
        let colored = try p.run(["check", "--record", "never"], env: forced)
        #expect(colored.stdout.contains("\u{1B}[31mFAIL"), "\(colored)")
        #expect(!(try p.run(["check", "--record", "never", "--color", "never"], env: forced).stdout.contains("\u{1B}[")))
        var no = quiet; no["NO_COLOR"] = "1"
        #expect(try p.run(["check", "--record", "never", "--color", "always"], env: no).stdout.contains("\u{1B}[31mFAIL"))
        #expect(!(try p.run(["check", "--record", "never"], env: no).stdout.contains("\u{1B}[")))
    }
}
