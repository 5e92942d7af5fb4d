import Foundation
import Testing
import NavReel
import Raster

/// The report folder is self-contained and holds this run's frames only (issue 15).
@Suite("report folder", .serialized)
struct ReportFolderTests {
    func results(_ p: Project, _ folder: String = ".navreel/report") throws -> [String: Any] {
        let data = try Data(contentsOf: p.root.appendingPathComponent(folder + "/results.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func frames(_ r: [String: Any]) -> [(run: String, frame: [String: Any])] {
        (r["runs"] as? [[String: Any]] ?? []).flatMap { run in
            (run["frames"] as? [[String: Any]] ?? []).map { (run["scenario"] as? String ?? "", $0) }
        }
    }

    @Test("every frame has a picture inside the report: failing ones full size, the others thumbnails")
    func thumbnails() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("two", Project.scenario("two", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let all = frames(try results(p))
        #expect(all.count == 10)
        for (run, f) in all {
            let status = f["status"] as? String
            let pictures = ["expected", "actual", "diff", "thumbnail"].compactMap { f[$0] as? String }
            #expect(!pictures.isEmpty, "\(run) \(f)")
            for path in pictures {
                #expect(!path.hasPrefix("/") && !path.contains(".."), "\(path)")
                #expect(FileManager.default.fileExists(atPath: p.report.appendingPathComponent(path).path), "\(path)")
            }
            if status == "failed" { #expect(f["thumbnail"] == nil && f["actual"] != nil) }
            if status == "passed", let t = f["thumbnail"] as? String {
                // Small: at most the thumbnail width, from the 120-pixel-wide tiny device (kept as is).
                let image = try PNG.read(path: p.report.appendingPathComponent(t).path).image
                #expect(image.width <= max(ReportFiles.thumbnailWidth, 120))
            } else if status == "passed" { Issue.record("passing frame without thumbnail: \(f)") }
        }
        // A 1170-pixel frame shrinks to the thumbnail width.
        let big = ReportFiles.thumbnail(Image(width: 1170, height: 400, fill: RGBA8(10, 20, 30, 255)))
        #expect(big.width <= ReportFiles.thumbnailWidth && big.width >= ReportFiles.thumbnailWidth * 3 / 4)
        #expect(Array(big.pixels.prefix(4)) == [10, 20, 30, 255])
        // The failing frames' pixels for the inspector, as scripts inside the report.
        let page = try String(contentsOf: p.report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("frames/_inspect/"))
        let scripts = FileManager.default.enumerator(atPath: p.report.appendingPathComponent("frames/_inspect").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".pixels.js") } ?? []
        #expect(scripts.count == all.filter { $0.frame["status"] as? String == "failed" }.count && !scripts.isEmpty)
    }

    @Test("a check removes the frames an earlier run left, and nothing else")
    func stale() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let failure = p.report.appendingPathComponent("frames/one/tiny/0001.diff.png")
        #expect(FileManager.default.fileExists(atPath: failure.path))
        let foreign = p.report.appendingPathComponent("frames/notes.txt")
        try "kept".write(to: foreign, atomically: true, encoding: .utf8)
        try p.write("one", Project.scenario("one"))
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: failure.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        // Merging shards: what an earlier merge left goes too.
        #expect(try p.run(["check", "--record", "never", "--report", "r1"]).status == 0)
        let old = p.root.appendingPathComponent("merged/frames/gone/tiny/0003.actual.png")
        try FileManager.default.createDirectory(at: old.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: old)
        #expect(try p.run(["merge-reports", "r1", "--report", "merged"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        for (_, f) in frames(try results(p, "merged")) {
            let t = try #require(f["thumbnail"] as? String)
            #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("merged/" + t).path))
        }
    }

    @Test("the page gives the exact approve command per failing run, an exact glob when a plain name would catch another")
    func approveCommand() throws {
        let p = try Project(["one": Project.scenario("one"), "one-b": Project.scenario("one-b"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record", "--baselines", "B"]).status == 0)
        for name in ["one", "one-b"] { try p.write(name, Project.scenario(name, color: "#FF0000")) }
        #expect(try p.run(["check", "--record", "never", "--baselines", "B", "--report", "out/r"]).status == 1)
        let page = try String(contentsOf: p.root.appendingPathComponent("out/r/index.html"), encoding: .utf8)
        #expect(page.contains(#""approve":"navreel approve --filter '[o]ne' --report out/r --baselines B""#))
        #expect(page.contains(#""approve":"navreel approve --filter one-b --report out/r --baselines B""#))
        #expect(page.components(separatedBy: "\"approve\":").count - 1 == 2)
        // Run as written, it approves "one" alone.
        #expect(try p.run(["approve", "--filter", "[o]ne", "--report", "out/r", "--baselines", "B"]).status == 0)
        let after = try p.run(["check", "--record", "never", "--baselines", "B", "--report", "out/r"])
        #expect(!after.stdout.contains("FAIL one/") && after.stdout.contains("FAIL one-b/"), "\(after.stdout)")
    }
}
