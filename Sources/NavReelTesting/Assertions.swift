import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Where a NavReel assertion keeps its baselines and writes its report, and how it records.
///
/// Defaults follow swift-snapshot-testing's habit: baselines beside the test file, in
/// `__Baselines__/<TestFileName>/<scenario>/<device>/NNNN.png`, the same PNG format and metadata
/// as the CLI's `Baselines/`, so `navreel check --baselines`, `approve` and `prune` work on them.
public enum NavReelTestConfiguration {
    /// The record mode for assertions in this scope (`withNavReel(record:)`, the `.navReel` trait).
    @TaskLocal public static var record: RecordMode?

    /// `__Baselines__/<TestFileName>` beside the test file.
    public static func baselines(forTestFile filePath: String) -> URL {
        let file = URL(fileURLWithPath: filePath)
        return file.deletingLastPathComponent().appendingPathComponent("__Baselines__")
            .appendingPathComponent(file.deletingPathExtension().lastPathComponent)
    }

    /// The package folder holding the test file (the nearest folder above it with a
    /// `Package.swift`), or nil.
    public static func packageRoot(forTestFile filePath: String) -> URL? {
        var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while dir.path != "/" && !dir.path.isEmpty {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// `.navreel/tests/<TestFileName>/<name>` in the package, or in the temporary folder.
    public static func report(forTestFile filePath: String, name: String) -> URL {
        let base = packageRoot(forTestFile: filePath)?.appendingPathComponent(".navreel")
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("navreel")
        return base.appendingPathComponent("tests")
            .appendingPathComponent(URL(fileURLWithPath: filePath).deletingPathExtension().lastPathComponent)
            .appendingPathComponent(name)
    }

    /// Images of Swift scenarios are found under `<package>/Fixtures` when it exists, else beside
    /// the test file.
    public static func fixtures(forTestFile filePath: String) -> URL {
        if let root = packageRoot(forTestFile: filePath) {
            let f = root.appendingPathComponent("Fixtures")
            if FileManager.default.fileExists(atPath: f.path) { return f }
        }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent()
    }
}

/// Runs `body` with every NavReel assertion in it recording in `mode` (unless an assertion
/// passes its own `record:`).
public func withNavReel<R>(record mode: RecordMode, _ body: () throws -> R) rethrows -> R {
    try NavReelTestConfiguration.$record.withValue(mode, operation: body)
}

public func withNavReel<R>(record mode: RecordMode, _ body: () async throws -> R) async rethrows -> R {
    try await NavReelTestConfiguration.$record.withValue(mode, operation: body)
}

/// Renders `scenario` frame by frame on each of its devices (or only `device`) and compares every
/// frame with its baseline, as `navreel check` does. Fails the running test, under Swift Testing
/// or XCTest, with the scenario, device, failing frames, the rules and counts, and the report's
/// path; failing frames (expected, actual, diff) are attached where the testing library supports
/// attachments. A run that writes a baseline fails too, saying so: re-run to compare with it.
///
/// ```swift
/// @Test func wechatPop() throws {
///     try assertNavigation(Scenario(yaml: """
///         devices: [iphone-14]
///         screens: {me: {title: Me}, favorites: {title: Favorites}}
///         steps: [{show: me}, {push: favorites}]
///         """))
/// }
/// ```
///
/// - Parameters:
///   - record: `missing`, `failed`, `all` or `never`; default: the scope's (`withNavReel`), else
///     `NAVREEL_RECORD`, else `never` under CI and `missing` on a workstation.
///   - baselines: default `__Baselines__/<TestFileName>` beside the test file.
///   - fixtures: the folder image paths are relative to; default `<package>/Fixtures`.
/// - Returns: the run's result, for further checks.
@discardableResult
public func assertNavigation(
    _ scenario: Scenario,
    device: String? = nil,
    record: RecordMode? = nil,
    baselines: URL? = nil,
    fixtures: URL? = nil,
    report: URL? = nil,
    tolerance: ToleranceOverrides = ToleranceOverrides(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> SuiteResult? {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let filePath = location.path
    do {
        let mode = try RecordMode.resolve(flag: record ?? NavReelTestConfiguration.record,
                                          environment: ProcessInfo.processInfo.environment)
        var options = RunOptions()
        options.baselines = (baselines ?? NavReelTestConfiguration.baselines(forTestFile: filePath)).path
        options.report = (report ?? NavReelTestConfiguration.report(forTestFile: filePath, name: scenario.name)).path
        options.record = mode
        options.overrides = tolerance
        // The command line's hint (`navreel check --filter ...`) would name folders this test does not use.
        options.missingHint = "run the test with record: .missing (or NAVREEL_RECORD=missing) to write it"
        if let device { options.devices = [device] }
        let root = (fixtures ?? NavReelTestConfiguration.fixtures(forTestFile: filePath)).path
        let runner = try SuiteRunner(options: options, catalog: ScenarioCatalog(scenarios: [scenario], fixturesRoot: root))
        let result = runner.run()
        try ResultJSON.writeReport(result, to: options.report, baselines: options.baselines)
        if let message = TestFailure.message(result, report: options.report, baselines: options.baselines) {
            TestFailure.attach(result, report: options.report, at: location)
            TestFailure.record(message, at: location)
        }
        return result
    } catch {
        TestFailure.record("NavReel: \(scenario.name): \(error)", at: location)
        return nil
    }
}

/// Compares a captured sequence (a folder of PNGs, an animated GIF or PNG, or a video) with its
/// approved frames, as `navreel compare` does, and fails the running test on any difference.
/// `expected` defaults to `__Baselines__/<TestFileName>/<name>` beside the test file, where
/// `record` writes the frames when they are missing (or failing, or always).
@discardableResult
public func assertFrames(
    _ actual: URL,
    expected: URL? = nil,
    named name: String? = nil,
    record: RecordMode? = nil,
    capture: CaptureOptions = CaptureOptions(),
    tolerance: ToleranceOverrides = ToleranceOverrides(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> SequenceComparison? {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let filePath = location.path
    let name = name ?? actual.deletingPathExtension().lastPathComponent
    do {
        // The name becomes a folder under __Baselines__ and the report: one plain folder name,
        // so that frames are never written outside them.
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw UsageError("named: `\(name)` must be one folder name (no /, not . or ..)")
        }
        let mode = try RecordMode.resolve(flag: record ?? NavReelTestConfiguration.record,
                                          environment: ProcessInfo.processInfo.environment)
        let expected = expected ?? NavReelTestConfiguration.baselines(forTestFile: filePath).appendingPathComponent(name)
        let report = NavReelTestConfiguration.report(forTestFile: filePath, name: name).path
        // A navreel-compare.yaml beside the expected frames applies, as for `navreel compare`;
        // what the call passes wins.
        let spec = try CompareSettingsFile.load(CompareSettingsFile.defaultPath(forExpected: expected.path))
        let (settings, fromFile) = CompareSettingsFile.resolve(spec, flags: tolerance)
        var capture = capture
        if capture.cropActual == nil { capture.cropActual = fromFile.cropActual }
        if capture.cropExpected == nil { capture.cropExpected = fromFile.cropExpected }
        if capture.ignore.isEmpty { capture.ignore = fromFile.ignore }
        if capture.fps == nil { capture.fps = fromFile.fps }
        if capture.align == nil { capture.align = fromFile.align }
        capture.record = mode
        let result = try SequenceComparison.run(actual: actual.path, expected: expected.path, settings: settings, capture: capture,
                                                reportDirectory: report)
        let suite = result.suiteResult(report: report)
        try ResultJSON.writeReport(suite, to: report, baselines: result.expectedRoot)
        if let message = TestFailure.message(suite, report: report, baselines: expected.path, title: name) {
            TestFailure.attach(suite, report: report, at: location)
            // What was done to an input first (a video turned by its display matrix) explains
            // frames that differ from the stored picture.
            TestFailure.record(([message] + result.notes).joined(separator: "\n"), at: location)
        }
        return result
    } catch {
        TestFailure.record("NavReel: \(name): \(error)", at: location)
        return nil
    }
}

/// `Scenario(yaml:)`: the YAML scenario format, parsed with the CLI's checks; an error names the
/// line and column.
extension Scenario {
    public init(yaml: String, name: String = "scenario", fixtures: URL? = nil) throws {
        switch ScenarioParser.parse(yaml: yaml, file: "\(name).yaml", defaultName: name, fixturesRoot: fixtures?.path) {
        case .success(let s): self = s
        case .failure(let errors): throw errors
        }
    }
}

struct TestLocation {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
    var path: String { "\(filePath)" }
    #if canImport(Testing)
    var testing: Testing.SourceLocation {
        Testing.SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
    #endif
}

enum TestFailure {
    /// The failure text, or nil when every frame passed and nothing was written.
    static func message(_ r: SuiteResult, report: String, baselines: String, title: String? = nil) -> String? {
        var lines: [String] = []
        for e in r.scenarioErrors { lines.append(e) }
        for job in r.jobs {
            let bad = job.frames.filter { [.failed, .missing, .error].contains($0.status) }
            let written = job.frames.filter { [.added, .changed].contains($0.status) }
            if !bad.isEmpty {
                lines.append("\(title ?? "\(job.scenario) on \(job.device)"): \(bad.count) of \(job.frames.count) frames failed")
                for f in bad.prefix(8) {
                    // Frames of a folder have no time; rendered and decoded frames do.
                    let time = f.time > 0 || f.index == 0 ? " (\(String(format: "%.3f", f.time)) s)" : ""
                    var text = "  frame \(f.index)\(time): \(f.status.rawValue)"
                    if let c = f.comparison { text += ": " + c.summary }
                    if let m = f.message, f.comparison == nil { text += ": " + m }
                    if let e = f.event { text += " [\(e)]" }
                    lines.append(text)
                }
                if bad.count > 8 { lines.append("  … and \(bad.count - 8) more") }
            }
            if !written.isEmpty {
                lines.append("\(job.scenario) on \(job.device): recorded \(written.count) baseline frames in "
                             + "\(baselines)/\(job.scenario)/\(job.device); review and commit them, then run again to compare")
            }
        }
        guard !lines.isEmpty else { return nil }
        lines.insert("NavReel:", at: 0)
        lines.append("report: \(report)/index.html")
        if r.jobs.contains(where: { $0.frames.contains { $0.status == .failed } }) {
            lines.append("accept: navreel approve --report \(HTMLReport.shellQuoted(report)) --baselines \(HTMLReport.shellQuoted(baselines))")
        }
        return lines.joined(separator: "\n")
    }

    static func record(_ message: String, at l: TestLocation) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: l.testing)
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: l.filePath, line: l.line)
        #else
        FileHandle.standardError.write(Data((message + "\n").utf8))
        #endif
    }

    /// The first failing frames' expected, actual and diff images, as Swift Testing attachments.
    static func attach(_ r: SuiteResult, report: String, at l: TestLocation) {
        #if canImport(Testing)
        guard Test.current != nil else { return }
        var count = 0
        for job in r.jobs {
            for f in job.frames where f.status == .failed {
                guard count < 3 else { return }
                count += 1
                for (kind, path) in [("expected", f.expected), ("actual", f.actual), ("diff", f.diff)] {
                    guard let path, let data = FileManager.default.contents(atPath: report + "/" + path) else { continue }
                    Attachment.record([UInt8](data), named: "\(job.scenario)-\(job.device)-\(f.index).\(kind).png",
                                      sourceLocation: l.testing)
                }
            }
        }
        #endif
    }
}

#if canImport(Testing)
/// `@Test(.navReel(record: .all))` or `@Suite(.navReel(record: .all))`: the record mode of every
/// NavReel assertion in the test or suite, as `withNavReel(record:)` does for a block.
public struct NavReelTrait: TestTrait, SuiteTrait, TestScoping {
    public var record: RecordMode
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await NavReelTestConfiguration.$record.withValue(record) { try await function() }
    }
}

extension Trait where Self == NavReelTrait {
    public static func navReel(record: RecordMode) -> Self { NavReelTrait(record: record) }
}
#endif
