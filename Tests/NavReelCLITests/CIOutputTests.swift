import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// What CI systems read: JUnit XML against the common schema, GitHub annotations on the line of
/// the step, the step summary.
@Suite("CI outputs", .serialized)
struct CIOutputTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var xmllint: String? { ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"].first { FileManager.default.isExecutableFile(atPath: $0) } }

    /// xmllint's exit status and messages for one file against scripts/junit.xsd.
    static func validate(_ xml: String) throws -> (Int32, String) {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: root.appendingPathComponent("scripts/junit-check").path)
        p.arguments = [file.path]
        let err = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardError = try FileHandle(forWritingTo: err)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    static func sample() -> SuiteResult {
        var failing = FrameOutcome(index: 3, time: 0.1, status: .failed)
        failing.comparison = Comparison(width: 10, height: 10)
        failing.comparison?.counts.mismatched = 7
        failing.line = 12
        failing.column = 5
        var job = JobResult(scenario: "a", device: "iphone-14", file: "Fixtures/scenarios/a<&\"\n>.yaml",
                            frames: [FrameOutcome(index: 0, time: 0, status: .passed), failing])
        job.seconds = 1.23456
        var r = SuiteResult(jobs: [job, JobResult(scenario: "b", device: "d", file: "b.yaml", frames: [FrameOutcome(index: 0, time: 0, status: .error)])],
                            scenarioErrors: [], shard: (1, 1), recordMode: .never)
        r.started = Date(timeIntervalSince1970: 1_700_000_000)
        r.seconds = 2.5
        return r
    }

    @Test("JUnit has time, timestamp and hostname; property values are escaped")
    func junitAttributes() throws {
        let xml = JUnitReport.xml(Self.sample(), reportPath: "r", hostname: "ci-<1>")
        #expect(xml.contains("<testsuites name=\"navreel\" tests=\"2\" failures=\"1\" errors=\"1\" time=\"2.500\">"), "\(xml)")
        #expect(xml.contains("time=\"1.235\" timestamp=\"2023-11-14T22:13:20\" hostname=\"ci-&lt;1&gt;\""))
        #expect(xml.contains("<testcase classname=\"a\" name=\"iphone-14\" time=\"1.235\">"))
        #expect(xml.contains("<property name=\"file\" value=\"Fixtures/scenarios/a&lt;&amp;&quot;&#10;&gt;.yaml\"/>"))
        #expect(xml.contains("frame 3 (t=0.100s, Fixtures/scenarios/a&lt;&amp;&quot;\n&gt;.yaml:12): 7 of 100 pixels mismatched") ||
                xml.contains("frame 3 (t=0.100s, Fixtures/scenarios/a&lt;&amp;&quot;&#10;&gt;.yaml:12): 7 of 100 pixels mismatched"))
    }

    @Test("JUnit validates against the common schema, and the check can fail", .enabled(if: xmllint != nil, "needs xmllint (libxml2-utils)"))
    func junitSchema() throws {
        let xml = JUnitReport.xml(Self.sample(), reportPath: "r")
        let (status, message) = try Self.validate(xml)
        #expect(status == 0, "\(message)\n\(xml)")
        // Negative control: the attribute the old output had on test cases is not in the schema.
        let old = xml.replacingOccurrences(of: "<testcase classname=\"a\"", with: "<testcase file=\"a.yaml\" classname=\"a\"")
        #expect(try Self.validate(old).0 != 0)
        let noTime = xml.replacingOccurrences(of: "time=\"2.500\"", with: "time=\"2.5 s\"")
        #expect(try Self.validate(noTime).0 != 0)
    }

    @Test("scenario files that did not load are test cases in error in the JUnit, one per file, and it validates")
    func junitScenarioErrors() throws {
        var r = Self.sample()
        r.scenarioErrors = ["Fixtures/scenarios/devices.yaml:3:1: error: unknown key `colour`",
                            "Fixtures/scenarios/devices.yaml:9:5: error: nothing to pop",
                            "Fixtures/scenarios/other.yaml:1:1: error: malformed YAML"]
        let xml = JUnitReport.xml(r, reportPath: "r")
        #expect(xml.contains("<testsuites name=\"navreel\" tests=\"4\" failures=\"1\" errors=\"3\""), "\(xml)")
        #expect(xml.contains("<testcase classname=\"Fixtures/scenarios/devices.yaml\" name=\"scenario file\""), "\(xml)")
        #expect(xml.contains("<error message=\"2 errors: its runs were not checked\" type=\"ScenarioError\">Fixtures/scenarios/devices.yaml:3:1: error: unknown key `colour`&#10;"), "\(xml)")
        if Self.xmllint != nil {
            let (status, message) = try Self.validate(xml)
            #expect(status == 0, "\(message)\n\(xml)")
        }
    }

    @Test("merge-reports of a split check with a shard missing fails, naming the shard; each scenario error is merged once")
    func mergeMissingShard() throws {
        let p = try Project(["a1": Project.scenario("a1"), "b2": Project.scenario("b2"), "bad": "devices: [\(Project.device)]\nscreens: {}\n"])
        defer { p.remove() }
        _ = try p.run(["record", "--quiet"])
        for k in 1...2 { _ = try p.run(["check", "--record", "never", "--shard", "\(k)/2", "--report", "s\(k)", "--quiet"]) }
        let one = try p.run(["merge-reports", "s2", "--report", "m1", "--junit", "m1.xml", "--json", "-"])
        #expect(one.status == 2 && one.stderr.contains("navreel: error: shard 1/2 is missing from this merge"), "\(one)")
        // --json - leaves standard output to the JSON alone, as check's does.
        let parsed = try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any]
        #expect((parsed?["scenarioErrors"] as? [String])?.contains { $0.hasPrefix("shard 1/2 is missing") } == true, "\(one.stdout.prefix(300))")
        let junit = try String(contentsOf: p.root.appendingPathComponent("m1.xml"), encoding: .utf8)
        #expect(junit.contains("<testcase classname=\"navreel\" name=\"run\"") && junit.contains("type=\"RunError\">shard 1/2 is missing"), "\(junit)")
        let results = try String(contentsOf: p.root.appendingPathComponent("m1/results.json"), encoding: .utf8)
        #expect(results.contains("shard 1/2 is missing from this merge: its runs were never checked (merged: 2/2)"), "\(results)")
        let summary = p.root.appendingPathComponent("summary.md")
        let both = try p.run(["merge-reports", "s1", "s2", "--report", "m2"],
                             env: ["CI": "", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("## NavReel: failed"), "the merge writes the step summary")
        #expect(both.status == 2, "the scenario error still fails the merged run: \(both)")
        let merged = try String(contentsOf: p.root.appendingPathComponent("m2/results.json"), encoding: .utf8)
        #expect(!merged.contains("missing from this merge"), "\(merged)")
        #expect(merged.components(separatedBy: "`steps`").count == 2, "one scenario error, reported by both shards, merged once: \(merged)")
    }

    @Test("a real run's JUnit file validates", .enabled(if: xmllint != nil, "needs xmllint (libxml2-utils)"))
    func junitFromRun() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--junit", "junit.xml", "--quiet"]).status == 1)
        let xml = try String(contentsOf: p.root.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(try Self.validate(xml).0 == 0, "\(xml)")
        #expect(xml.contains("hostname=\"") && xml.contains("timestamp=\"20"))
    }

    @Test("GitHub annotations carry file, line and column of the step that produced the frame; the step summary is created")
    func githubAnnotations() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        // The bar colour changes on screen a, shown by the first step (line 8 of the file, `- show: a`,
        // column 5): frame 0 fails and is annotated there.
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        let summary = p.root.appendingPathComponent("no-such-yet/summary.md")
        try FileManager.default.createDirectory(at: summary.deletingLastPathComponent(), withIntermediateDirectories: true)
        let env = ["CI": "", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path, "FORCE_COLOR": "", "NO_COLOR": ""]
        let r = try p.run(["check", "--record", "never"], env: env)
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(lines.contains { $0.hasPrefix("::error file=Fixtures/scenarios/one.yaml,line=8,col=5,title=NavReel one/tiny::") }, "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: summary.path), "the step summary file is created when absent")
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("## NavReel: failed"))
        // A second run appends.
        _ = try p.run(["check", "--record", "never"], env: env)
        #expect(try String(contentsOf: summary, encoding: .utf8).components(separatedBy: "## NavReel: failed").count == 3)
    }

    @Test("scenario errors and lint problems are annotations at their file, line and column")
    func lintAnnotations() throws {
        let p = try Project(["bad": "devices: [\(Project.device)]\nscreens:\n  a: {title: A, tilte: B}\nsteps:\n  - show: a\n"])
        defer { p.remove() }
        let env = ["CI": "", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": ""]
        let lint = try p.run(["lint"], env: env)
        #expect(lint.status == 2)
        #expect(lint.stdout.contains("::error file=Fixtures/scenarios/bad.yaml,line=3,col="), "\(lint)")
        let check = try p.run(["check"], env: env)
        #expect(check.stdout.contains("::error file=Fixtures/scenarios/bad.yaml,line=3,col="), "\(check)")
        #expect(!check.stdout.contains("::error::Fixtures/scenarios/bad.yaml:3"), "no file:line inside the message")
        // The step summary names them (it only counted them).
        let summary = p.root.appendingPathComponent("summary.md")
        _ = try p.run(["check"], env: ["CI": "", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        let md = try String(contentsOf: summary, encoding: .utf8)
        #expect(md.contains("Not checked:\n\n- `Fixtures/scenarios/bad.yaml:3:"), "\(md)")
    }

    @Test("annotation properties and messages are escaped as @actions/core escapes them")
    func escaping() {
        let a = GitHubActions.annotation(.error, file: "a,b:c.yaml", line: 3, column: 1, title: "t", message: "50%\nnext")
        #expect(a == "::error file=a%2Cb%3Ac.yaml,line=3,col=1,title=t::50%25%0Anext")
        #expect(GitHubActions.annotation(diagnostic: "x.yaml:4:7: warning: no font") == "::warning file=x.yaml,line=4,col=7,title=NavReel lint::no font")
    }
}
