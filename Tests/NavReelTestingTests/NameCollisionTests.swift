import CollisionStandIns
import Foundation
import NavReelTesting
import Testing

/// This file compiles only if nothing NavReelTesting exports at top level is named like SwiftUI's
/// and CryptoKit's types (or Swift Testing's `SourceLocation`): each name below is unqualified.
@Suite("names beside SwiftUI, CryptoKit and Swift Testing")
struct NameCollisionTests {
    @Test("Image, Color, Path, Canvas, Gradient, Material, SHA256 and SourceLocation resolve to the other modules")
    func unqualified() throws {
        let names: [Any] = [Image(), Color(), Path(), Canvas(), Gradient(), Material(), SHA256()]
        #expect(names.count == 7)
        #expect(type(of: Image()) == CollisionStandIns.Image.self)
        let here: SourceLocation = #_sourceLocation
        #expect(here.line > 0)
        // NavReel's own model keeps its prefixed names.
        let color: ScenarioColor = try #require(ScenarioColor(hex: "#FF0000"))
        #expect(color.r == 255)
        _ = BarMaterial.light
    }
}
