import Foundation
import Raster
import Testing

@Suite("Shipped fonts")
struct FontBundleTests {
    /// The fingerprint recorded in every bundled baseline (Debian fonts-inter 4.0~beta7).
    static let baselineFingerprint =
        "Inter-Regular.otf a7e791e8f5a0fb02b65663f7fca73e1d1ca9543f772ad480cbd76f4e3fe3f8cc; "
        + "Inter-SemiBold.otf 8c1990b6012254ea2b487161697d107357dd0ee55811cfd91c8c11227bbef457; "
        + "Inter-Bold.otf 1e9dfd6a6e33ac63a8fe3b4ed7ae0df9eac2d0b25e444e8e7daef4ac77943fc1"

    @Test("without NAVREEL_FONT_DIR the fonts come from NavReel's bundle, byte for byte the baselines' Inter")
    func bundled() throws {
        let fonts = try FontSet.discover(environment: [:])
        let directory = try #require(FontSet.bundledDirectory)
        for face in [fonts.regular, fonts.semibold, fonts.bold] {
            #expect(face.path.hasPrefix(directory), "\(face.path)")
            #expect(!face.path.hasPrefix("/usr/share/fonts"))
        }
        #expect(fonts.fingerprint == Self.baselineFingerprint)
        #expect(try FontSet.bundled().fingerprint == Self.baselineFingerprint)
        // The licence ships beside the fonts.
        #expect(FileManager.default.fileExists(atPath: directory + "/LICENSE-Inter.txt"))
    }

    @Test("NAVREEL_FONT_DIR overrides the bundle; a folder without the three files is an error naming it")
    func override() throws {
        let bundle = try #require(FontSet.bundledDirectory)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-fontdir-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in [FontSet.regularFile, FontSet.semiboldFile] {
            try FileManager.default.copyItem(atPath: bundle + "/" + name, toPath: dir + "/" + name)
        }
        do {
            _ = try FontSet.discover(environment: ["NAVREEL_FONT_DIR": dir])
            Issue.record("a folder without Inter-Bold.otf was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.contains(dir) && message.contains("NAVREEL_FONT_DIR") && message.contains("Inter-Bold.otf"), "\(message)")
            #expect(!message.contains("install"), "no advice to install a system package: \(message)")
        }
        try FileManager.default.copyItem(atPath: bundle + "/" + FontSet.boldFile, toPath: dir + "/" + FontSet.boldFile)
        let fonts = try FontSet.discover(environment: ["NAVREEL_FONT_DIR": dir])
        #expect(fonts.bold.path == dir + "/" + FontSet.boldFile)
        #expect(fonts.fingerprint == Self.baselineFingerprint)
    }
}
