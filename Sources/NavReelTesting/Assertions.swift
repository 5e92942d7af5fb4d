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
@discardableResult
public func withNavReel<R>(record mode: RecordMode, _ body: () throws -> R) rethrows -> R {
    try NavReelTestConfiguration.$record.withValue(mode, operation: body)
}

@discardableResult
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
/// Baseline folders (`<baselines>/<scenario>/<device>`) are shared only by assertions that draw
/// the same scenario (two tests of one scenario, a repeated test): a second assertion in the
/// process that would write other frames into one (another scenario of the same name, the
/// arguments of a parameterized test under one scenario name) fails naming both, instead of
/// overwriting them. Give each scenario its own `name:`. Each assertion's report is its own: a
/// further one of the same name gets `<name>~2`. The test target should
/// `exclude: ["__Baselines__"]` in Package.swift (SwiftPM warns about the PNGs otherwise).
///
/// - Parameters:
///   - record: `missing`, `failed`, `all` or `never`; default: the scope's (`withNavReel`), else
///     `NAVREEL_RECORD`, else `never` under CI and `missing` on a workstation.
///   - baselines: default `__Baselines__/<TestFileName>` beside the test file.
///   - fixtures: the folder image paths are relative to; default `<package>/Fixtures`.
///   - limits: frames of a run, pixels of a frame and of the run, as `navreel check`'s flags set
///     them (`RunLimits(maxFrames: 20_000)` for a longer scenario); default docs/limits.md's.
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
    limits: RunLimits = .default,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> SuiteResult? {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let filePath = location.path
    do {
        let (mode, origin) = try RecordOrigin.resolve(record)
        var options = RunOptions()
        options.baselines = (baselines ?? NavReelTestConfiguration.baselines(forTestFile: filePath)).path
        // One device's run has its own report, so that a second assertion of the scenario on
        // another device does not overwrite it; another assertion of the same name in this
        // process gets `name~2` (`FolderClaims.report`).
        let identity = AssertionIdentity(location)
        let reportName = device.map { "\(scenario.name)@\($0)" } ?? scenario.name
        options.report = report?.path
            ?? FolderClaims.shared.report(NavReelTestConfiguration.report(forTestFile: filePath, name: reportName).path, by: identity)
        options.record = mode
        options.overrides = tolerance
        options.limits = limits
        // The command line's hint (`navreel check --filter ...`) would name folders this test does not use.
        options.missingHint = origin.recordHint
        if let device { options.devices = [device] }
        let root = (fixtures ?? NavReelTestConfiguration.fixtures(forTestFile: filePath)).path
        let problems = ImagePaths.problems(scenario, fixtures: root)
        if !problems.isEmpty { throw UsageError(problems.joined(separator: "\n")) }
        // Limits (frames, pixels) are checked here, as by `navreel check`.
        let runner: SuiteRunner
        do {
            runner = try SuiteRunner(options: options, catalog: ScenarioCatalog(scenarios: [scenario], fixturesRoot: root))
        } catch let error as UsageError {
            // The limits' messages name the command line's flags; here it is the `limits:` argument.
            var text = error.description
            for (flag, field) in [("--max-frames", "maxFrames"), ("--max-frame-pixels", "maxFramePixels"), ("--max-run-pixels", "maxRunPixels")] {
                text = text.replacingOccurrences(of: "(\(flag))", with: "(pass limits: RunLimits(\(field): ...) to raise it)")
                text = text.replacingOccurrences(of: "(\(flag);", with: "(pass limits: RunLimits(\(field): ...) to raise it;")
            }
            throw UsageError(text)
        }
        let devices = scenario.devices.map(\.name).filter { device == nil || $0 == device }
        var folders = devices.map { (path: options.baselines + "/" + scenario.name + "/" + $0, what: "baseline folder") }
        if report != nil { folders.append((path: options.report, what: "report folder")) }
        if let conflict = FolderClaims.shared.claim(folders, by: identity, content: .drawn(scenario, fixtures: root)) {
            throw UsageError(conflict + "; give each scenario a name of its own (`name:` in its YAML, `Scenario(yaml:name:)` or "
                             + "`Scenario(name:)`); in a parameterized test, put the argument in the name")
        }
        let claim = try ReportClaim.take(options.report)
        defer { withExtendedLifetime(claim) {} }
        try claim.begin(command: "check (assertNavigation in a Swift test)")
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
/// `record` writes the frames when they are missing (or failing, or always). An `expected` video,
/// GIF or APNG is only compared with: `missing` from the default, `NAVREEL_RECORD` or
/// `withNavReel` does not apply to it, and another record mode is an error. The default
/// `expected` is written by one capture only (give assertions of one test file distinct names);
/// the report (`.navreel/tests/<TestFileName>/<name>`) is this assertion's, `<name>~2` for a
/// further one of the same name, as for `assertNavigation`.
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
        var (mode, origin) = try RecordOrigin.resolve(record)
        let defaultExpected = NavReelTestConfiguration.baselines(forTestFile: filePath).appendingPathComponent(name)
        let given = expected
        let expected = expected ?? defaultExpected
        let identity = AssertionIdentity(location)
        // Another assertion of this name in the process (an assertNavigation of a scenario named
        // so) gets `name~2` (`FolderClaims.report`).
        let report = FolderClaims.shared.report(NavReelTestConfiguration.report(forTestFile: filePath, name: name).path, by: identity)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: expected.path, isDirectory: &isFolder)
        // Only a folder can be recorded into. A video, GIF or APNG given as `expected` is compared
        // with: the default `missing` (or one set for the whole scope) does not apply to it.
        if exists && !isFolder.boolValue && mode != .never {
            if origin == .argument || mode != .missing {
                throw UsageError("record: .\(mode.rawValue)\(origin == .argument ? "" : " (\(origin.text))") writes PNG frames into a folder, "
                                 + "and expected: \(expected.path) is a file; pass record: .never to compare with it, "
                                 + "or an expected folder to record into")
            }
            mode = .never
        }
        if !exists && mode == .never {
            throw UsageError("\(expected.path): no such folder or file, so there are no approved frames to compare with; "
                             + origin.recordHint.replacingOccurrences(of: "write it", with: "record them"))
        }
        // The default expected folder (`named:`, else the actual input's name) is written by one
        // capture only; an `expected` the call gives may be compared with by several.
        if given == nil, let conflict = FolderClaims.shared.claim([(path: expected.path, what: "baseline folder")], by: identity,
                                                                  content: .capture(FolderClaims.standard(actual.path))) {
            throw UsageError(conflict + "; pass each assertFrames a distinct `named:`"
                             + " (in a parameterized test, put the argument in it)")
        }
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
        let claim = try ReportClaim.take(report)
        defer { withExtendedLifetime(claim) {} }
        let result = try SequenceComparison.run(actual: actual.path, expected: expected.path, settings: settings, capture: capture,
                                                reportDirectory: report,
                                                willWrite: { try claim.begin(command: "compare (assertFrames in a Swift test)") })
        let suite = result.suiteResult(report: report)
        try ResultJSON.writeReport(suite, to: report, baselines: result.expectedRoot)
        if let message = TestFailure.message(suite, report: report, baselines: expected.path, title: name) {
            TestFailure.attach(suite, report: report, at: location, title: name)
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
        case .failure(let errors):
            // The parser words a bad default name for a file (`rename the file`); here it is the argument.
            throw ScenarioErrors(errors.issues.map { issue in
                guard !ScenarioParser.isSafeName(name), issue.message.hasPrefix("the file name `") else { return issue }
                return ScenarioIssue(issue.location, "Scenario(yaml:name:): `\(name)` is not a valid scenario name: use lowercase "
                                     + "letters, digits, `.`, `-` and `_` (not starting with `.`), or give the YAML a `name:`")
            })
        }
    }
}

/// How the record mode of an assertion was chosen, for messages that say how to change it.
enum RecordOrigin: Equatable {
    case argument, scope, environment, ci, workstation

    /// The argument, else the scope's mode, else `RecordMode.resolve`'s rules (the variable, CI).
    static func resolve(_ argument: RecordMode?) throws -> (RecordMode, RecordOrigin) {
        if let argument { return (argument, .argument) }
        if let scoped = NavReelTestConfiguration.record { return (scoped, .scope) }
        let (mode, source) = try RecordMode.resolveWithSource(flag: nil, environment: ProcessInfo.processInfo.environment)
        switch source {
        case .flag, .environment: return (mode, .environment)
        case .ci: return (mode, .ci)
        case .workstation: return (mode, .workstation)
        }
    }

    /// Where the mode came from, as a phrase.
    var text: String {
        switch self {
        case .argument: return "the record: argument"
        case .scope: return "set by withNavReel(record:) or a .navReel(record:) trait"
        case .environment: return "from NAVREEL_RECORD"
        case .ci: return "the default under CI"
        case .workstation: return "the default"
        }
    }

    /// What to change so that a missing frame is written (the mode was `never`).
    var recordHint: String {
        switch self {
        case .argument:
            return "this assertion passes record: .never; pass record: .missing to write it"
        case .scope:
            return "withNavReel(record:) or a .navReel(record:) trait sets record mode never here; set .missing there, "
                + "or pass record: .missing to this assertion, to write it"
        case .environment:
            return "NAVREEL_RECORD=never; run the test with NAVREEL_RECORD=missing, or pass record: .missing, to write it"
        case .ci, .workstation:
            return "nothing is recorded under CI (CI is set); run the test without CI, or with NAVREEL_RECORD=missing, to write it"
        }
    }
}

/// The report folder held by this process while an assertion writes it (`ReportFiles.claim`, as
/// the command line does), so that two test processes do not write one report at once.
enum ReportClaim {
    static func take(_ report: String) throws -> ReportFiles.Claim {
        do { return try ReportFiles.claim(report) } catch {
            let text = "\(error)"
            guard let cut = text.range(of: "; wait for it to finish, or give this run another --report") else { throw error }
            throw UsageError(text[..<cut.lowerBound] + " (another test process of this package?); wait for it to finish")
        }
    }
}

/// The image checks `navreel check` makes when it reads a scenario file (the path stays inside the
/// fixtures folder, also through symbolic links; the file is a PNG), for a scenario built in Swift
/// and drawn with images from `fixtures`.
enum ImagePaths {
    /// Every image path of the scenario (bar, back button and header images: the model's `image`
    /// fields).
    static func all(_ scenario: Scenario) -> [String] {
        var found: Set<String> = []
        func walk(_ value: Any, _ depth: Int) {
            guard depth < 12 else { return }
            for child in Mirror(reflecting: value).children {
                if child.label == "image", let path = child.value as? String { found.insert(path); continue }
                walk(child.value, depth + 1)
            }
        }
        walk(scenario, 0)
        return found.sorted()
    }

    /// The parser's message for each image that fails its checks under `fixtures`.
    static func problems(_ scenario: Scenario, fixtures: String) -> [String] {
        all(scenario).compactMap { ScenarioParser.assetProblem($0, what: "image", fixturesRoot: fixtures) }
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
                lines.append("\(heading(job, title)): \(bad.count) of \(job.frames.count) frames failed")
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
                // A compare's job names the expected folder itself (`file`).
                let folder = title == nil ? "\(baselines)/\(job.scenario)/\(job.device)" : job.file
                lines.append("\(heading(job, title)): recorded \(written.count) baseline frames in "
                             + "\(folder); review and commit them, then run again to compare")
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

    /// A suite's job as a failure line names it: `scenario on device`, or for a compare (`title`
    /// given) the assertion's name, with the subfolder of the expected frames when there is one.
    static func heading(_ job: JobResult, _ title: String?) -> String {
        guard let title else { return "\(job.scenario) on \(job.device)" }
        return job.scenario == "." ? title : "\(title)/\(job.scenario)"
    }

    /// Fails the running test, through exactly one of the two libraries, so that no failure is
    /// reported twice (with XCTest and Swift Testing interoperating, each forwards to the other):
    /// Swift Testing's issue inside one of its tests; XCTest's failure while an XCTest case runs
    /// (`XCTestState.probablyRunning`); otherwise (an assertion in a detached task, where
    /// `Test.current` is not inherited) an issue of the Swift Testing run, which fails it with no
    /// test named, and the text on standard error, so that it is never lost.
    static func record(_ message: String, at l: TestLocation) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), sourceLocation: l.testing)
            return
        }
        #endif
        #if canImport(XCTest)
        if XCTestState.shared.probablyRunning {
            XCTFail(message, file: l.filePath, line: l.line)
            return
        }
        #endif
        #if canImport(Testing)
        Issue.record(Comment(rawValue: message), sourceLocation: l.testing)
        #endif
        FileHandle.standardError.write(Data("\(l.path):\(l.line): error: outside a running test: \(message)\n".utf8))
    }

    /// `scenario-device-3.diff.png`, or for a compare `name-3.diff.png` (`name-sub-3.diff.png` for
    /// a subfolder of the frames).
    static func attachmentName(_ job: JobResult, _ index: Int, _ kind: String, title: String?) -> String {
        let stem = title.map { heading(job, $0).replacingOccurrences(of: "/", with: "-") } ?? "\(job.scenario)-\(job.device)"
        return "\(stem)-\(index).\(kind).png"
    }

    /// The first failing frames' expected, actual and diff images, as Swift Testing attachments.
    static func attach(_ r: SuiteResult, report: String, at l: TestLocation, title: String? = nil) {
        #if canImport(Testing)
        guard Test.current != nil else { return }
        var count = 0
        for job in r.jobs {
            for f in job.frames where f.status == .failed {
                guard count < 3 else { return }
                count += 1
                for (kind, path) in [("expected", f.expected), ("actual", f.actual), ("diff", f.diff)] {
                    guard let path, let data = FileManager.default.contents(atPath: report + "/" + path) else { continue }
                    Attachment.record([UInt8](data), named: attachmentName(job, f.index, kind, title: title),
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
