import Foundation
import Testing
import NavReelTesting

/// A tiny scenario: 5 frames at 1x on a 120 x 160 pt device.
func tinyScenario(color: String = "#FFFFFF", name: String = "tiny") throws -> Scenario {
    try Scenario(yaml: """
    name: \(name)
    devices: [{name: tiny, width: 120, height: 160, scale: 1, statusBar: 20}]
    fps: 4
    capture: bar
    screens:
      a: {title: A, bar: {color: "\(color)", translucent: false}}
      b: {title: B}
    steps:
      - show: a
      - push: b
        duration: 1
        curve: linear
    """, name: name)
}

/// Issue texts collected from a `withKnownIssue` matcher (which may run on another thread).
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}

/// The texts of the issues `body` records, each expected (a known issue); with `isIntermittent`
/// there may be none.
func knownIssues(isIntermittent: Bool = false, _ body: () -> Void) -> [String] {
    let collected = Collected()
    withKnownIssue(isIntermittent: isIntermittent) {
        body()
    } matching: { [collected] issue in
        collected.add(issue.comments.map(\.rawValue).joined(separator: "\n"))
        return true
    }
    return collected.all
}

/// The tiny scenario's frames recorded into `dir/b`: its folder of frames.
func recordedTiny(in dir: URL) -> URL {
    let baselines = dir.appendingPathComponent("b")
    withKnownIssue {
        assertNavigation(try! tinyScenario(), record: .missing, baselines: baselines, report: dir.appendingPathComponent("r"))
    }
    return baselines.appendingPathComponent("tiny/tiny")
}

/// A scratch folder per test.
func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-testing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("assertNavigation under Swift Testing")
struct AssertNavigationTests {
    @Test("records missing baselines and fails saying so; then passes against them; a change fails naming frames, rules, report")
    func recordThenCheck() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baselines = dir.appendingPathComponent("__Baselines__/AssertNavigationTests")
        let report = dir.appendingPathComponent("report")
        // One call site: an assertion's baseline folder is its own (a second call site writing it fails).
        func check(_ color: String, _ mode: RecordMode) -> SuiteResult? {
            assertNavigation(try! tinyScenario(color: color), record: mode, baselines: baselines, report: report)
        }
        var issues = knownIssues { _ = check("#FFFFFF", .missing) }
        #expect(issues.count == 1 && issues[0].contains("recorded 5 baseline frames"), "\(issues)")
        let frame = baselines.appendingPathComponent("tiny/tiny/0004.png")
        #expect(FileManager.default.fileExists(atPath: frame.path))
        // The same PNG format as Baselines/: metadata names the scenario and renderer.
        let bytes = try Data(contentsOf: frame)
        #expect(String(decoding: bytes, as: UTF8.self).contains("navreel.renderer"))

        let passed = check("#FFFFFF", .never)
        #expect(passed?.exitCode == 0)

        issues = knownIssues { _ = check("#FF0000", .never) }
        #expect(issues.count == 1)
        let text = issues.first ?? ""
        #expect(text.contains("tiny on tiny:") && text.contains("frames failed") && text.contains("frame 0 (0.000 s): failed"), "\(text)")
        #expect(text.contains("mismatched"), "the rules and counts: \(text)")
        #expect(text.contains(report.path + "/index.html") && text.contains("navreel approve --report"), "\(text)")
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("results.json").path))
    }

    @Test("record mode: the argument wins over withNavReel, which wins over NAVREEL_RECORD", arguments: [
        (RecordMode?.some(.never), RecordMode?.some(.all), false),
        (nil, RecordMode?.some(.missing), true),
        (nil, RecordMode?.some(.never), false),
    ])
    func recordModes(_ argument: RecordMode?, _ scoped: RecordMode?, _ writes: Bool) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baselines = dir.appendingPathComponent("b")
        withKnownIssue {
            withNavReel(record: scoped!) {
                _ = assertNavigation(try! tinyScenario(), record: argument, baselines: baselines, report: dir.appendingPathComponent("r"))
            }
        }
        #expect(FileManager.default.fileExists(atPath: baselines.appendingPathComponent("tiny/tiny/0000.png").path) == writes)
    }

    @Test("the .navReel(record:) trait sets the mode of the test's assertions", .navReel(record: .never))
    func trait() throws {
        #expect(NavReelTestConfiguration.record == .never)
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let collected = Collected()
        withKnownIssue {
            _ = assertNavigation(try! tinyScenario(), baselines: dir.appendingPathComponent("b"), report: dir.appendingPathComponent("r"))
        } matching: { [collected] issue in
            collected.add(issue.comments.map(\.rawValue).joined(separator: "\n"))
            return true
        }
        #expect(collected.all.first?.contains("missing") == true, "never writes, so the frames are missing: \(collected.all)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b").path))
    }

    @Test("the default baselines folder is __Baselines__/<TestFileName> beside the test file")
    func defaultFolder() {
        let url = NavReelTestConfiguration.baselines(forTestFile: "/p/Tests/AppTests/NavTests.swift")
        #expect(url.path == "/p/Tests/AppTests/__Baselines__/NavTests")
        #expect(NavReelTestConfiguration.report(forTestFile: #filePath, name: "x").path.hasSuffix(".navreel/tests/AssertNavigationTests/x"))
    }

    @Test("a bad scenario is an error at its line; Scenario(yaml:) throws it")
    func badYAML() {
        #expect { try Scenario(yaml: "devices: [iphone-14]\nscreens:\n  a: {titel: A}\nsteps:\n  - show: a\n", name: "bad") } throws: { error in
            "\(error)".contains("bad.yaml:3:7") && "\(error)".contains("did you mean `title`")
        }
    }

    @Test("assertFrames: a captured folder passes against itself and fails against a changed copy")
    func frames() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let captured = recordedTiny(in: dir)
        let copy = dir.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: captured, to: copy)
        // One call site for both comparisons: the report folder (named `tiny`) is this assertion's.
        func compare() -> SequenceComparison? { assertFrames(captured, expected: copy) }
        #expect(compare()?.exitCode == 0)
        // A changed frame: another scenario's frame in its place.
        let other = dir.appendingPathComponent("other")
        withKnownIssue {
            assertNavigation(try! tinyScenario(color: "#000000"), record: .missing, baselines: other, report: dir.appendingPathComponent("r2"))
        }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("0002.png"))
        try FileManager.default.copyItem(at: other.appendingPathComponent("tiny/tiny/0002.png"), to: copy.appendingPathComponent("0002.png"))
        let issues = knownIssues { _ = compare() }
        #expect(issues.count == 1 && issues[0].contains("tiny: 1 of 5 frames failed") && issues[0].contains("frame 2: failed"), "\(issues)")
    }

    @Test("assertFrames: a failure says when a video was turned by its display matrix before comparing")
    func turnedVideo() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let plain = root.appendingPathComponent("Fixtures/captured/recording.mp4")
        let expected = dir.appendingPathComponent("expected")
        // One call site: each input's report folder (named after it) is this assertion's.
        func compare(_ input: URL, _ mode: RecordMode? = nil) -> SequenceComparison? { assertFrames(input, expected: expected, record: mode) }
        _ = knownIssues { _ = compare(plain, .missing) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: expected.path).contains("0000.png"))
        #expect(compare(plain)?.exitCode == 0)
        // The same recording with a quarter turn clockwise in its track header's matrix (a = 0,
        // b = 1, c = -1, d = 0 in 16.16; version 0 puts it 40 bytes after the box type `tkhd`).
        var bytes = [UInt8](try Data(contentsOf: plain))
        let at = try #require((0...(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual("tkhd".utf8) }) + 4 + 40
        let matrix: [Int32] = [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30]
        for (i, word) in matrix.enumerated() {
            for k in 0..<4 { bytes[at + i * 4 + k] = UInt8(truncatingIfNeeded: UInt32(bitPattern: word) >> (24 - 8 * k)) }
        }
        let turned = dir.appendingPathComponent("turned.mov")
        try Data(bytes).write(to: turned)
        var result: SequenceComparison?
        let issues = knownIssues { result = compare(turned) }
        #expect(result?.exitCode == 1 && result?.notes.count == 1)
        #expect(issues.count == 1 && issues[0].contains("actual \(turned.path): turned 90 degrees clockwise, as its display matrix asks"), "\(issues)")
    }

    @Test("assertFrames refuses a name that would leave __Baselines__; a missing baseline says how to record from a test")
    func unsafeNameAndHint() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let captured = recordedTiny(in: dir)
        for name in ["../escape", "..", "a/b", ""] {
            let issues = knownIssues { assertFrames(captured, named: name) }
            #expect(issues.count == 1 && issues[0].contains("must be one folder name"), "\(name): \(issues)")
        }
        // Where "../escape" would have gone: beside this test file's __Baselines__ folder.
        let escaped = NavReelTestConfiguration.baselines(forTestFile: #filePath).appendingPathComponent("../escape").standardizedFileURL
        #expect(!FileManager.default.fileExists(atPath: escaped.path), "\(escaped.path)")
        let issues = knownIssues {
            assertNavigation(try! tinyScenario(), record: .never, baselines: dir.appendingPathComponent("none"), report: dir.appendingPathComponent("r3"))
        }
        #expect(issues.contains { $0.contains("this assertion passes record: .never; pass record: .missing to write it") && !$0.contains("navreel check") },
                "\(issues)")
    }
}
