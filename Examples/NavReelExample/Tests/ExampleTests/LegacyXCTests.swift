import NavReelTesting
import XCTest

/// The same assertion from XCTest: a failure is reported through XCTFail at this line.
final class LegacyXCTests: XCTestCase {
    func testHiddenBarFadesIn() throws {
        let scenario = try Scenario(name: "hidden-bar", devices: ["iphone-se"], scale: 1, fps: 10, capture: .bar) {
            Screen("feed", title: "Feed", bar: ["hidden": true])
            Screen("post", title: "Post")
        } steps: {
            Show("feed")
            Push("post", duration: 0.4)
        }
        assertNavigation(scenario)
    }
}
