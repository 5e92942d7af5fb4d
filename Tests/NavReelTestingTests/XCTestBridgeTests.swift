import Foundation
import NavReelTesting
import XCTest

/// Under XCTest (no Swift Testing test running) a failure goes through XCTFail, located at the
/// assertion's line.
final class XCTestBridgeTests: XCTestCase {
    var recorded: [(String, Int)] = []

    #if os(Linux)
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        recorded.append((description, lineNumber))
    }
    #else
    override func record(_ issue: XCTIssue) {
        recorded.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
    #endif

    func testFailuresGoThroughXCTest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-xctest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let b = dir.appendingPathComponent("b"), r = dir.appendingPathComponent("r")
        // One call site: the baseline and report folders are this assertion's.
        let line = #line + 1
        func check(_ mode: RecordMode) throws -> SuiteResult? { assertNavigation(try tinyScenario(), record: mode, baselines: b, report: r) }
        let result = try check(.missing)
        XCTAssertEqual(result?.count(.added), 5)
        XCTAssertEqual(recorded.count, 1, "recording fails the test, saying so")
        XCTAssertTrue(recorded.first?.0.contains("recorded 5 baseline frames") == true, "\(recorded)")
        XCTAssertEqual(recorded.first?.1, line)
        recorded = []
        _ = try check(.never)
        XCTAssertTrue(recorded.isEmpty, "\(recorded)")
    }
}
