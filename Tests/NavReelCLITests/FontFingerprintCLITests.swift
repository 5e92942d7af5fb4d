import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Scenario
import Raster

/// `navreel.font` in a baseline names the font files its frames were drawn with: Inter's three
/// weights always, and the fallbacks the scenario's texts use.
@Suite("Font fingerprints in baselines")
struct FontFingerprintCLITests {
    static func scenario(_ a: String, _ b: String) -> String {
        Project.scenario("x").replacingOccurrences(of: "title: A", with: "title: \"\(a)\"")
            .replacingOccurrences(of: "title: B", with: "title: \"\(b)\"")
    }

    @Test("each scenario records the files it draws with, and only those",
          arguments: [
              ("latin", "Me", "Favorites", [String]()),
              ("cjk", "我", "收藏", ["NotoSansCJKsc-Regular.subset.otf", "NotoSansCJKsc-Bold.subset.otf"]),
              ("mixed", "مرحبا", "Hi 😀", ["NotoSansArabic-Regular.subset.ttf", "NotoColorEmoji.subset.ttf", "NotoSansArabic-Bold.subset.ttf"]),
          ])
    func recorded(_ name: String, _ a: String, _ b: String, _ fallbacks: [String]) throws {
        let p = try Project([name: Self.scenario(a, b)])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let fonts = try FontSet.bundled()
        for frame in ["0000", "0004"] {
            let recorded = try PNG.read(path: p.baselines.appendingPathComponent("\(name)/tiny/\(frame).png").path).metadata.text["navreel.font"]
            let expected = ([fonts.fingerprint] + fallbacks.map { file in
                "\(file) \(fonts.fallbacks.first { $0.name == file }!.sha256)"
            }).joined(separator: "; ")
            #expect(recorded == expected)
        }
    }

    @Test("a baseline drawn with another fallback file says so when its pixels differ")
    func fallbackDrift() throws {
        let p = try Project(["cjk": Self.scenario("我", "收藏")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let path = p.baselines.appendingPathComponent("cjk/tiny/0004.png").path
        var decoded = try PNG.read(path: path)
        let font = try #require(decoded.metadata.text["navreel.font"])
        decoded.metadata.text["navreel.font"] = font.replacingOccurrences(of: "NotoSansCJKsc-Bold.subset.otf ", with: "NotoSansCJKsc-Bold.subset.otf 00")
        decoded.image[60, 30] = RGBA8(255, 0, 255)
        try Data(PNG.encode(decoded.image, metadata: decoded.metadata)).write(to: URL(fileURLWithPath: path))
        let r = try p.run(["check", "--record", "never"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("environment drift: font changed"), "\(r.stdout)")
    }
}
