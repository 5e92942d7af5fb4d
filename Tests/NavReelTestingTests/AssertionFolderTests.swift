import Foundation
@testable import NavReelTesting
import NavReel
import Testing

/// A scenario without `name:` in its YAML, as the doc comment's example writes it.
func unnamedScenario(title: String) throws -> Scenario {
    try Scenario(yaml: """
    devices: [{name: tiny, width: 120, height: 160, scale: 1, statusBar: 20}]
    fps: 4
    capture: bar
    screens: {a: {title: \(title)}, b: {title: B}}
    steps: [{show: a}, {push: b, duration: 0.5}]
    """)
}

@Suite("assertion folders: one assertion each; limits and image checks; messages")
struct AssertionFolderTests {
    @Test("two assertions resolving to one baseline folder: the second fails naming both call sites, and the first's frames stay")
    func collision() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let b = dir.appendingPathComponent("b")
        let firstLine = #line + 1
        _ = knownIssues { _ = assertNavigation(try! unnamedScenario(title: "Inbox"), record: .missing, baselines: b, report: dir.appendingPathComponent("r1")) }
        let frame = b.appendingPathComponent("scenario/tiny/0000.png")
        let before = try Data(contentsOf: frame)
        let secondLine = #line + 1
        let issues = knownIssues { _ = assertNavigation(try! unnamedScenario(title: "Settings"), record: .all, baselines: b, report: dir.appendingPathComponent("r2")) }
        #expect(issues.count == 1, "\(issues)")
        let text = issues.first ?? ""
        #expect(text.contains("the baseline folder \(b.path)/scenario/tiny is the baseline folder"), "\(text)")
        #expect(text.contains("AssertionFolderTests.swift:\(firstLine):") && text.contains("AssertionFolderTests.swift:\(secondLine):"), "\(text)")
        #expect(text.contains("give each scenario a name of its own") && text.contains("parameterized"), "\(text)")
        #expect(try Data(contentsOf: frame) == before, "the first assertion's frame was overwritten")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("r2").path), "the second wrote a report")
    }

    @Test("the same assertion run again (a loop, a repeated test) keeps its folders")
    func sameAssertionAgain() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var texts: [[String]] = []
        for mode in [RecordMode.missing, .never, .never] {
            texts.append(knownIssues(isIntermittent: true) {
                _ = assertNavigation(try! tinyScenario(), record: mode, baselines: dir.appendingPathComponent("b"), report: dir.appendingPathComponent("r"))
            })
        }
        #expect(texts.count == 3 && texts[0].count == 1 && texts[0][0].contains("recorded 5 baseline frames")
                && texts[1].isEmpty && texts[2].isEmpty, "\(texts)")
    }

    @Test("assertNavigation of `push` and assertFrames of push.mp4 in one file: the second gets a report folder of its own")
    func framesBesideScenario() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let captured = recordedTiny(in: dir)
        // The default report: .navreel/tests/AssertionFolderTests/collide-push in this package.
        let s = try tinyScenario(name: "collide-push")
        let first = knownIssues { _ = assertNavigation(s, record: .missing, baselines: dir.appendingPathComponent("b2")) }
        let second = knownIssues { _ = assertFrames(captured, expected: dir.appendingPathComponent("e"), named: "collide-push", record: .missing) }
        #expect(first.count == 1 && first[0].contains(".navreel/tests/AssertionFolderTests/collide-push/index.html"), "\(first)")
        #expect(second.count == 1 && second[0].contains("recorded") && second[0].contains(".navreel/tests/AssertionFolderTests/collide-push~2/index.html"),
                "\(second)")
    }

    @Test("one scenario asserted by two tests (or on one device and on all) shares its baselines; each has its report")
    func sameScenarioTwoSites() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let b = dir.appendingPathComponent("b")
        // The same drawing written at two places (the lines of its steps differ): not a conflict.
        let s1 = try unnamedScenario(title: "Inbox")
        let s2 = try Scenario(yaml: "\n\n" + """
            devices: [{name: tiny, width: 120, height: 160, scale: 1, statusBar: 20}]
            fps: 4
            capture: bar
            screens: {a: {title: Inbox}, b: {title: B}}
            steps: [{show: a}, {push: b, duration: 0.5}]
            """)
        #expect(s1 != s2, "the two differ only in where they were written")
        _ = knownIssues { _ = assertNavigation(s1, record: .missing, baselines: b) }
        let again = knownIssues(isIntermittent: true) { _ = assertNavigation(s2, record: .never, baselines: b) }
        #expect(again.isEmpty, "\(again)")
        let oneDevice = knownIssues(isIntermittent: true) { _ = assertNavigation(s1, device: "tiny", record: .never, baselines: b) }
        #expect(oneDevice.isEmpty, "\(oneDevice)")
    }

    @Test("the registry: a folder inside another's conflicts when the content differs; another test or argument case is another assertion")
    func registry() {
        let claims = FolderClaims()
        let a = AssertionIdentity(site: "T.swift:3:5", test: "M.t(_:) Alpha"), b = AssertionIdentity(site: "T.swift:3:5", test: "M.t(_:) Beta")
        let one = ClaimContent.capture("/a.mp4"), two = ClaimContent.capture("/b.mp4")
        #expect(claims.claim([("/x/b/push/iphone-se", "baseline folder")], by: a, content: one) == nil)
        #expect(claims.claim([("/x/b/push/iphone-se", "baseline folder")], by: a, content: one) == nil)
        #expect(claims.claim([("/x/b/push/iphone-se", "baseline folder")], by: b, content: one) == nil, "the same content is shared")
        #expect(claims.claim([("/x/b/push/iphone-14", "baseline folder")], by: b, content: two) == nil)
        #expect(claims.claim([("/x/b/push", "baseline folder")], by: b, content: two)?.contains("holds the baseline folder /x/b/push/iphone-se") == true)
        #expect(claims.claim([("/x/b/push/iphone-se/../iphone-se", "baseline folder")], by: b, content: two)?
            .contains("T.swift:3:5 (test M.t(_:) Alpha)") == true)
        #expect(claims.claim([("/x/b/push-2", "baseline folder")], by: b, content: two) == nil)
        // One scenario drawn with images from two folders is other content.
        let s = try? Scenario(yaml: "devices: [iphone-se]\nscreens: {a: {title: A}}\nsteps: [{show: a}]\n")
        if let s {
            #expect(claims.claim([("/x/b/one/iphone-se", "baseline folder")], by: a, content: .drawn(s, fixtures: "/f1")) == nil)
            #expect(claims.claim([("/x/b/one/iphone-se", "baseline folder")], by: b, content: .drawn(s, fixtures: "/f1/.")) == nil)
            #expect(claims.claim([("/x/b/one/iphone-se", "baseline folder")], by: b, content: .drawn(s, fixtures: "/f2")) != nil)
        }
        // Reports: the first assertion keeps the name, the next ones get their own.
        #expect(claims.report("/r/push", by: a) == "/r/push" && claims.report("/r/push", by: b) == "/r/push~2")
        #expect(claims.report("/r/push", by: a) == "/r/push" && claims.report("/r/./push", by: b) == "/r/./push~2")
    }

    @Test("a parameterized test's cases are distinct assertions", arguments: ["Alpha", "Beta"])
    func caseIdentity(_ argument: String) {
        let test = AssertionIdentity.currentTest() ?? ""
        #expect(test.contains("caseIdentity") && test.contains("\"\(argument)\""), "\(test)")
        #expect(AssertionIdentity.readable(test) == "NavReelTestingTests.AssertionFolderTests/caseIdentity(_:) with \"\(argument)\"", "\(test)")
    }

    @Test("assertFrames with a video as expected: a default or scoped `missing` compares; an explicit record mode is refused in API words")
    func videoExpected() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let video = root.appendingPathComponent("Fixtures/captured/recording.mp4")
        func compare(_ mode: RecordMode?) -> SequenceComparison? { assertFrames(video, expected: video, named: "video-expected", record: mode) }
        let passed = withNavReel(record: .missing) { compare(nil) }
        #expect(passed?.exitCode == 0 && passed?.frames.isEmpty == false)
        var issues = knownIssues { _ = compare(.missing) }
        #expect(issues.count == 1 && issues[0].contains("record: .missing writes PNG frames into a folder, and expected: \(video.path) is a file")
                && !issues[0].contains("--record"), "\(issues)")
        issues = knownIssues { withNavReel(record: .all) { _ = compare(nil) } }
        #expect(issues.count == 1 && issues[0].contains("record: .all (set by withNavReel(record:) or a .navReel(record:) trait)"), "\(issues)")
    }

    @Test("limits apply as for navreel check: frames per run, a frame of no pixels", arguments: [
        ("devices: [{name: small, width: 10, height: 10, scale: 1, statusBar: 0}]\nfps: 240\nscreens: {a: {title: A}}\nsteps: [{show: a}, {wait: 60}]",
         "the steps make 14401 frames at 240 fps, over the limit of 10000 (pass limits: RunLimits(maxFrames: ...) to raise it)"),
        ("devices: [{name: dot, width: 1, height: 1, scale: 1, statusBar: 0}]\nscale: 0.1\nfps: 10\nscreens: {a: {title: A}}\nsteps: [{show: a}]",
         "a frame needs at least one pixel a side"),
    ])
    func limits(_ yaml: String, _ expected: String) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try Scenario(yaml: yaml, name: "limits")
        var result: SuiteResult?
        let issues = knownIssues { result = assertNavigation(s, record: .all, baselines: dir.appendingPathComponent("b"), report: dir.appendingPathComponent("r")) }
        #expect(result == nil && issues.count == 1 && issues[0].contains(expected), "\(issues)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b").path), "frames were written")
    }

    @Test("limits: the argument raises or lowers them, as check's flags do")
    func limitsArgument() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try tinyScenario(name: "limits-argument")
        let issues = knownIssues {
            _ = assertNavigation(s, record: .all, baselines: dir.appendingPathComponent("b"), report: dir.appendingPathComponent("r"),
                                 limits: RunLimits(maxFrames: 3))
        }
        #expect(issues.count == 1 && issues[0].contains("over the limit of 3 (pass limits: RunLimits(maxFrames: ...) to raise it)")
                && !issues[0].contains("--max"), "\(issues)")
        var result: SuiteResult?
        let recorded = knownIssues {
            result = assertNavigation(s, record: .all, baselines: dir.appendingPathComponent("b2"), report: dir.appendingPathComponent("r2"),
                                      limits: RunLimits(maxFrames: 5))
        }
        #expect(result?.jobs.first?.frames.count == 5 && recorded.count == 1 && recorded[0].contains("recorded 5 baseline frames"), "\(recorded)")
    }

    @Test("an image path is checked against the fixtures folder the assertion draws from: a link leading outside it fails")
    func imageOutsideFixtures() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let outside = dir.appendingPathComponent("outside.png")
        try FileManager.default.copyItem(at: root.appendingPathComponent("Fixtures/images/glass@3x.png"), to: outside)
        let fixtures = dir.appendingPathComponent("Fixtures")
        try FileManager.default.createDirectory(at: fixtures.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: fixtures.appendingPathComponent("images/link.png"), withDestinationURL: outside)
        // Parsed without a fixtures folder (none is known yet): the image is not checked here.
        let s = try Scenario(yaml: """
        name: linked
        devices: [{name: tiny, width: 120, height: 160, scale: 1, statusBar: 20}]
        fps: 4
        capture: bar
        screens: {a: {title: A, bar: {image: images/link.png}}}
        steps: [{show: a}]
        """)
        #expect(ImagePaths.all(s) == ["images/link.png"])
        let issues = knownIssues {
            _ = assertNavigation(s, record: .all, baselines: dir.appendingPathComponent("b"), fixtures: fixtures, report: dir.appendingPathComponent("r"))
        }
        #expect(issues.count == 1 && issues[0].contains("image `images/link.png` resolves outside the Fixtures folder"), "\(issues)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b").path))
    }

    @Test("assertFrames' first recording names the folder it wrote, and its attachments are named after the assertion")
    func framesMessages() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let captured = recordedTiny(in: dir)
        let expected = dir.appendingPathComponent("approved")
        let issues = knownIssues { _ = assertFrames(captured, expected: expected, named: "folder-run", record: .missing) }
        #expect(issues.count == 1 && issues[0].contains("folder-run: recorded 5 baseline frames in \(expected.path); review"), "\(issues)")
        #expect(!issues.joined().contains("captured") && !issues.joined().contains("/./"), "\(issues)")
        let job = JobResult(scenario: ".", device: "captured", file: expected.path, frames: [])
        #expect(TestFailure.attachmentName(job, 2, "expected", title: "folder-run") == "folder-run-2.expected.png")
        let sub = JobResult(scenario: "ipad", device: "captured", file: expected.path + "/ipad", frames: [])
        #expect(TestFailure.attachmentName(sub, 0, "diff", title: "folder-run") == "folder-run-ipad-0.diff.png")
        let rendered = JobResult(scenario: "push", device: "iphone-se", file: "", frames: [])
        #expect(TestFailure.attachmentName(rendered, 3, "actual", title: nil) == "push-iphone-se-3.actual.png")
    }

    @Test("missing approved frames or baselines: the message says how to record them, from where the mode came")
    func recordHints() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let captured = recordedTiny(in: dir)
        var issues = knownIssues { _ = assertFrames(captured, expected: dir.appendingPathComponent("never-recorded"), record: .never) }
        #expect(issues.count == 1 && issues[0].contains("never-recorded: no such folder or file, so there are no approved frames to compare with; "
                                                        + "this assertion passes record: .never; pass record: .missing to record them"), "\(issues)")
        issues = knownIssues {
            withNavReel(record: .never) {
                _ = assertNavigation(try! tinyScenario(), baselines: dir.appendingPathComponent("none"), report: dir.appendingPathComponent("r2"))
            }
        }
        #expect(issues.count == 1 && issues[0].contains("withNavReel(record:) or a .navReel(record:) trait sets record mode never here"), "\(issues)")
        // withNavReel's result may be ignored without a warning.
        withNavReel(record: .never) { 1 }
    }

    @Test("Scenario(yaml:name:) with a name that is not a scenario name says so in the API's words")
    func badName() {
        #expect { try Scenario(yaml: "devices: [iphone-14]\nscreens: {a: {title: A}}\nsteps: [{show: a}]\n", name: "Inbox Flow") } throws: { error in
            "\(error)".contains("Scenario(yaml:name:): `Inbox Flow` is not a valid scenario name") && !"\(error)".contains("rename the file")
        }
        // A name in the YAML wins: the argument is not used then.
        #expect(throws: Never.self) { try Scenario(yaml: "name: inbox\ndevices: [iphone-14]\nscreens: {a: {title: A}}\nsteps: [{show: a}]\n", name: "Inbox Flow") }
    }

    @Test("one scenario on two devices, one assertion each: their default reports are apart")
    func perDeviceReports() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try Scenario(yaml: """
        name: two-devices
        devices: [{name: small, width: 120, height: 160, scale: 1, statusBar: 20}, {name: large, width: 160, height: 200, scale: 1, statusBar: 20}]
        fps: 4
        capture: bar
        screens: {a: {title: A}}
        steps: [{show: a}]
        """)
        let b = dir.appendingPathComponent("b")
        var issues = knownIssues { _ = assertNavigation(s, device: "small", record: .missing, baselines: b) }
        issues += knownIssues { _ = assertNavigation(s, device: "large", record: .missing, baselines: b) }
        #expect(issues.count == 2 && issues.allSatisfy { $0.contains("recorded") && !$0.contains("folder") }, "\(issues)")
        #expect(issues.first?.contains(".navreel/tests/AssertionFolderTests/two-devices@small/index.html") == true, "\(issues)")
    }
}

/// Tests that fail on purpose, run only by `outsideTheTest` in a process of their own (the test
/// binary again, with NAVREEL_PROBE set).
@Suite("probes run by outsideTheTest")
struct Probes {
    static let folder = ProcessInfo.processInfo.environment["NAVREEL_PROBE"]

    @Test func detachedProbe() async throws {
        guard let folder = Self.folder else { return }
        let s = try tinyScenario()
        let dir = URL(fileURLWithPath: folder)
        await Task.detached {
            _ = assertNavigation(s, record: .never, baselines: dir.appendingPathComponent("none"), report: dir.appendingPathComponent("r1"))
        }.value
    }

    @Test func inTaskProbe() throws {
        guard let folder = Self.folder else { return }
        let dir = URL(fileURLWithPath: folder)
        assertNavigation(try tinyScenario(), record: .never, baselines: dir.appendingPathComponent("none"), report: dir.appendingPathComponent("r2"))
    }
}

@Suite("a failure outside the test's task")
struct OutsideTheTest {
    /// Runs one probe in a Swift Testing process of its own: its exit status and output.
    func probe(_ name: String, in dir: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "Probes/\(name)"]
        process.environment = ProcessInfo.processInfo.environment.merging(["NAVREEL_PROBE": dir.path]) { $1 }
        let out = dir.appendingPathComponent("\(name).out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8))
    }

    @Test("an assertion in a detached task fails the run and prints the failure; one in the test's task is reported once")
    func outsideTheTest() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (status, output) = try probe("detachedProbe", in: dir)
        #expect(status != 0, "the run passed: \(output)")
        #expect(output.contains("outside a running test") && output.contains("no baseline at"), "\(output)")
        #expect(output.contains("recorded an issue") && output.contains("1 test"), "\(output)")
        let (normal, text) = try probe("inTaskProbe", in: dir)
        #expect(normal != 0 && text.contains("no baseline at") && !text.contains("outside a running test"), "\(text)")
    }
}
