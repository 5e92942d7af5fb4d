import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

@Suite("navreel compare")
struct CompareCLITests {
    /// expected/ and actual/ folders: a passing frame, a failing one, a corrupt one, one missing on
    /// each side, in a nested folder.
    static func folders(in dir: URL) throws -> (URL, URL) {
        let expected = dir.appendingPathComponent("expected"), actual = dir.appendingPathComponent("actual")
        let base = Image(width: 30, height: 20, fill: RGBA8(240, 240, 240))
        var changed = base
        for x in 0..<10 { changed[x, 5] = RGBA8(0, 0, 0) }
        func put(_ image: Image, _ root: URL, _ path: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(PNG.encode(image)).write(to: url)
        }
        try put(base, expected, "phone/0000.png"); try put(base, actual, "phone/0000.png")
        try put(base, expected, "phone/0001.png"); try put(changed, actual, "phone/0001.png")
        try put(base, expected, "phone/0002.png")
        try Data("not a png".utf8).write(to: actual.appendingPathComponent("phone/0002.png"))
        try put(base, expected, "phone/0003.png")
        try put(base, actual, "phone/0004.png")
        return (expected, actual)
    }

    @Test("reports each frame, writes diffs of failures, and goes on past a corrupt file")
    func mixed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (expected, actual) = try Self.folders(in: dir)
        let report = dir.appendingPathComponent("report")
        let json = dir.appendingPathComponent("result.json")
        let result = try CLI.run(["compare", "--actual", actual.path, "--expected", expected.path, "--report", report.path,
                                  "--json", json.path])
        #expect(result.status == 2, "a corrupt input makes the run exit 2: \(result)")
        #expect(result.stdout.contains("FAILED phone/0001.png: 10 of 600 pixels mismatched"))
        #expect(result.stdout.contains("ERROR phone/0002.png"))
        #expect(result.stdout.contains("MISSING FRAME phone/0003.png"))
        #expect(result.stdout.contains("MISSING BASELINE phone/0004.png"))
        #expect(result.stdout.contains("5 frames: 1 passed, 2 failed, 1 missing, 1 error (unreadable)"))
        // The same counts as results.json's summary, which the page shows.
        let summary = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("results.json"))) as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary["passed"] as? Int == 1 && summary["failed"] as? Int == 2 && summary["missing"] as? Int == 1 && summary["error"] as? Int == 1, "\(summary)")
        #expect(result.stderr.contains("0002.png: not a PNG"))
        #expect(!result.stdout.contains("0000.png"), "passing frames are quiet without --verbose")
        let diff = try PNG.read(path: report.appendingPathComponent("diff/phone/0001.png").path)
        #expect(diff.image[0, 5] == RGBA8(255, 0, 0))
        #expect(!FileManager.default.fileExists(atPath: report.appendingPathComponent("diff/phone/0000.png").path))
        // The same versioned results as `check`, and the same HTML report.
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as! [String: Any]
        #expect(object["schema"] as? String == "navreel-results")
        #expect((object["summary"] as! [String: Any])["frames"] as? Int == 5)
        let frames = (object["runs"] as! [[String: Any]])[0]["frames"] as! [[String: Any]]
        #expect(frames.map { $0["status"] as! String } == ["passed", "failed", "error", "failed", "missing"])
        #expect(frames.map { $0["path"] as! String } == (0..<5).map { "phone/000\($0).png" })
        #expect((frames[1]["diff"] as? String) == "diff/phone/0001.png")
        #expect((frames[1]["expected"] as? String)?.hasSuffix("expected/phone/0001.png") == true)
        let html = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("navreel-results"))
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("results.json").path))
    }

    @Test("the same result for any number of jobs, and a clean pass exits 0")
    func jobsAndPass() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (expected, actual) = try Self.folders(in: dir)
        var outputs: [String] = []
        for jobs in ["1", "2", "5"] {
            let r = try CLI.run(["compare", "--actual", actual.path, "--expected", expected.path, "--json", "-", "--quiet",
                                 "--report", dir.appendingPathComponent("r\(jobs)").path, "--jobs", jobs])
            outputs.append(r.stdout.replacingOccurrences(of: "/r\(jobs)/", with: "/r/"))
        }
        #expect(Set(outputs).count == 1)
        let pass = try CLI.run(["compare", "--actual", actual.path, "--expected", expected.path, "--filter", "phone/0000.png",
                                "--report", dir.appendingPathComponent("r-pass").path])
        #expect(pass.status == 0, "\(pass)")
        #expect(pass.stdout.contains("1 frames: 1 passed, 0 failed"))
    }

    @Test("--temporal forgives a frame that is a little early in a fade")
    func temporal() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = dir.appendingPathComponent("e"), actual = dir.appendingPathComponent("a")
        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: actual, withIntermediateDirectories: true)
        // A fade 100 -> 160 over three frames; the captured frame 1 is late (at 140 instead of 130).
        let levels: [UInt8] = [100, 130, 160], captured: [UInt8] = [100, 140, 160]
        for k in 0..<3 {
            try Data(PNG.encode(Image(width: 8, height: 8, fill: RGBA8(levels[k], levels[k], levels[k])))).write(to: expected.appendingPathComponent("000\(k).png"))
            try Data(PNG.encode(Image(width: 8, height: 8, fill: RGBA8(captured[k], captured[k], captured[k])))).write(to: actual.appendingPathComponent("000\(k).png"))
        }
        let strict = try CLI.run(["compare", "--perceptual", "0", "--actual", actual.path, "--expected", expected.path, "--report", dir.appendingPathComponent("r").path])
        #expect(strict.status == 1)
        let loose = try CLI.run(["compare", "--perceptual", "0", "--actual", actual.path, "--expected", expected.path, "--temporal", "--json", "-", "--quiet",
                                 "--report", dir.appendingPathComponent("r-loose").path])
        #expect(loose.status == 0, "\(loose)")
        #expect(loose.stdout.contains("\"timing\": 64"))
    }

    @Test("a missing folder is a usage error")
    func missingFolder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["compare", "--actual", "/nonexistent/a", "--expected", "/nonexistent/b", "--report", dir.appendingPathComponent("r").path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("/nonexistent/a: no such folder"))
    }
}
