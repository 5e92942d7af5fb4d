import Foundation
import NavReel
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Which assertion is running: its call site, and the test (and argument case) it runs in. The
/// same assertion run again (a repeated test iteration) has the same identity.
struct AssertionIdentity: Equatable, Sendable {
    var site: String
    var test: String?

    init(_ l: TestLocation) {
        site = "\(l.fileID):\(l.line):\(l.column)"
        test = Self.currentTest()
    }

    init(site: String, test: String?) { self.site = site; self.test = test }

    var description: String { site + (test.map { " (test \(Self.readable($0)))" } ?? "") }

    /// A test's key with its argument case shown by the arguments' values only:
    /// `M.t(_:) with "Alpha"`.
    static func readable(_ key: String) -> String {
        guard let space = key.firstIndex(of: " ") else { return key }
        var values: [String] = []
        var rest = key[space...]
        while let start = rest.range(of: "Argument(value: "),
              let end = rest[start.upperBound...].range(of: ", id: Testing.Test.Case.Argument.ID") {
            values.append(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return values.isEmpty ? key : key[..<space] + " with " + values.joined(separator: ", ")
    }

    static func currentTest() -> String? {
        #if canImport(Testing)
        if let t = Test.current {
            var name = t.id.nameComponents.joined(separator: "/")
            // Test.Case has no public identifier; its reflection names its arguments
            // (`parameterized(arguments: [... value: "Alpha" ...])`).
            if let c = Test.Case.current, c.isParameterized {
                name += " " + (Mirror(reflecting: c).children.first { $0.label == "_kind" }.map { String(reflecting: $0.value) }
                               ?? String(reflecting: c))
            }
            return "\(t.id.moduleName).\(name)"
        }
        #endif
        #if canImport(XCTest)
        return XCTestState.shared.running
        #else
        return nil
        #endif
    }
}

/// What an assertion writes into its baseline folders: two assertions that write the same thing
/// (one scenario asserted by two tests, or again by a repeated test) may share them.
enum ClaimContent: Equatable, Sendable {
    /// The scenario drawn, without where it was written (its file, and the lines of its screens
    /// and steps), which does not change a frame, and the folder its image paths are read from,
    /// which does.
    case scenario(Scenario, fixtures: String)
    /// A captured input, by its path.
    case capture(String)

    static func drawn(_ s: Scenario, fixtures: String) -> ClaimContent {
        var plain = s
        let nowhere = ScenarioLocation(file: "", line: 0, column: 0)
        plain.file = ""
        for k in plain.screens.indices { plain.screens[k].location = nowhere }
        for k in plain.steps.indices { plain.steps[k].location = nowhere }
        return .scenario(plain, fixtures: FolderClaims.standard(fixtures))
    }
}

/// The folders assertions of this process write, each held by the first assertion that used it.
/// Baseline folders: a second assertion that would write other frames into one of them fails
/// instead of overwriting them. Report folders: a second assertion gets one of its own
/// (`name~2`, ...), as each run's report is its own.
final class FolderClaims: @unchecked Sendable {
    static let shared = FolderClaims()

    struct Held { var path: String; var what: String; var by: AssertionIdentity; var content: ClaimContent }
    private var held: [Held] = []
    private var reports: [String: AssertionIdentity] = [:]
    private let lock = NSLock()

    /// Claims every folder for `who`, or none: the message naming the first conflict. A folder
    /// conflicts with an equal one, or one inside the other, held by another assertion that
    /// writes other content into it.
    func claim(_ folders: [(path: String, what: String)], by who: AssertionIdentity, content: ClaimContent) -> String? {
        let wanted = folders.map { (path: Self.standard($0.path), what: $0.what) }
        lock.lock()
        defer { lock.unlock() }
        for w in wanted {
            for h in held where h.by != who && Self.overlaps(w.path, h.path) && h.content != content {
                let relation = w.path == h.path ? "is" : (w.path.hasPrefix(h.path + "/") ? "is inside" : "holds")
                return "the \(w.what) \(w.path) \(relation) the \(h.what) \(h.path == w.path ? "" : h.path + " ")"
                    + "of the assertion at \(h.by.description), and this assertion at \(who.description) would write other frames "
                    + "into it: the two would overwrite each other's baselines"
            }
        }
        for w in wanted where !held.contains(where: { $0.path == w.path && $0.by == who }) {
            held.append(Held(path: w.path, what: w.what, by: who, content: content))
        }
        return nil
    }

    /// The report folder for `who`: `base` when it is free or already `who`'s, else the first
    /// free of `base~2`, `base~3`, ...
    func report(_ base: String, by who: AssertionIdentity) -> String {
        lock.lock()
        defer { lock.unlock() }
        var k = 1
        while true {
            let candidate = k == 1 ? base : "\(base)~\(k)"
            let key = Self.standard(candidate)
            if let holder = reports[key] {
                if holder == who { return candidate }
            } else {
                reports[key] = who
                return candidate
            }
            k += 1
        }
    }

    static func standard(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    static func overlaps(_ a: String, _ b: String) -> Bool {
        a == b || a.hasPrefix(b == "/" ? "/" : b + "/") || b.hasPrefix(a == "/" ? "/" : a + "/")
    }
}

#if canImport(XCTest)
/// The XCTest case running in this process, as an observer sees it. Registered at the first
/// assertion, so the test running then is not known by name (`running` is nil during it).
final class XCTestState: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared: XCTestState = {
        let s = XCTestState()
        XCTestObservationCenter.shared.addTestObserver(s)
        return s
    }()

    private let lock = NSLock()
    private var name: String?
    private var seen = false

    /// The running case's name, or nil.
    var running: String? { lock.lock(); defer { lock.unlock() }; return name }
    /// Whether an XCTest case is running, as far as can be told: one observed, or (before the
    /// observer saw a case start) a process that is not a Swift Testing run, whose arguments
    /// `swift test` gives as `--testing-library swift-testing`.
    var probablyRunning: Bool {
        lock.lock(); defer { lock.unlock() }
        return name != nil || (!seen && !CommandLine.arguments.contains("swift-testing"))
    }

    func testCaseWillStart(_ testCase: XCTestCase) { lock.lock(); name = testCase.name; seen = true; lock.unlock() }
    func testCaseDidFinish(_ testCase: XCTestCase) { lock.lock(); name = nil; lock.unlock() }
}
#endif
