import Foundation
import Testing
import NavReel
import Compare
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
            if status == "failed" { #expect(f["thumbnail"] == nil && f["thumbnailRect"] == nil && f["actual"] != nil) }
            if status == "passed" {
                // One sheet per job; the frame's rectangle holds its thumbnail: the baseline's
                // pixels, as the tiny device (120 pixels wide) is under the thumbnail width.
                #expect(f["thumbnail"] as? String == "frames/\(run)/tiny/thumbs.png", "\(f)")
                let cell = try #require(try sheetCell(p, f))
                let index = try #require(f["index"] as? Int)
                let baseline = try PNG.read(path: p.baselines.appendingPathComponent("\(run)/tiny/" + String(format: "%04d.png", index)).path).image
                #expect(cell == ReportFiles.thumbnail(baseline), "\(run) frame \(index)")
            }
        }
        // No file per thumbnail any more; the rectangles of a sheet do not overlap.
        #expect(reportFiles(p).filter { $0.hasSuffix(".thumb.png") }.isEmpty)
        let rects = all.filter { $0.run == "one" }.compactMap { $0.frame["thumbnailRect"] as? [Int] }
        #expect(rects.count == 5)
        for (i, a) in rects.enumerated() {
            for b in rects[(i + 1)...] { #expect(a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0] || a[1] + a[3] <= b[1] || b[1] + b[3] <= a[1], "\(a) \(b)") }
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
        // Without scripts (a Content-Security-Policy that blocks inline ones), plain HTML says the
        // verdict and links the first failing frame's picture; a script right after it hides it.
        let firstBad = try #require(all.first { $0.frame["status"] as? String == "failed" }?.frame)
        let diff = try #require(firstBad["diff"] as? String)
        #expect(page.contains("<div id=\"fallback\" class=\"fallback\"><p>This page draws its pictures and controls with JavaScript")
                && page.contains("Verdict: <strong>failed</strong>; 10 frames: ") && page.contains("<a href=\"results.json\">"), "\(page.prefix(3000))")
        #expect(page.contains("<li>two / tiny: ") && page.contains("(<a href=\"\(diff)\">picture</a>)"))
        #expect(page.contains("</div><script>document.getElementById(\"fallback\").hidden = true;</script>"))
    }

    @Test("the inspector's pixel copies stop at 1,000 failing frames a report, but every range's first frame has one")
    func inspectorCopiesBounded() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try PNG.encode(Image(width: 2, height: 2, fill: RGBA8(1, 2, 3, 255)))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("frames"), withIntermediateDirectories: true)
        for name in ["e", "a", "d"] { try Data(png).write(to: dir.appendingPathComponent("frames/\(name).png")) }
        func frame(_ k: Int, _ status: FrameOutcome.Status) -> FrameOutcome {
            var f = FrameOutcome(index: k, time: Double(k) / 30, status: status)
            if status == .failed { f.expected = "frames/e.png"; f.actual = "frames/a.png"; f.diff = "frames/d.png" }
            return f
        }
        // 1,200 failing frames in a row, then a passing one, then a second range of 3.
        let frames = (0..<1200).map { frame($0, .failed) } + [frame(1200, .passed)] + (1201..<1204).map { frame($0, .failed) }
        let result = SuiteResult(jobs: [JobResult(scenario: "s", device: "d", file: "s.yaml", frames: frames)], scenarioErrors: [],
                                 shard: (1, 1), recordMode: .never)
        try ResultJSON.writeReport(result, to: dir.path)
        let scripts = (FileManager.default.enumerator(atPath: dir.appendingPathComponent("frames/_inspect").path)?
            .compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".pixels.js") }.sorted()
        #expect(scripts.count == 1001, "the first range's first 1,000 and the second range's first: \(scripts.count)")
        #expect(scripts.contains("0/1201.pixels.js") && scripts.contains("0/0999.pixels.js") && !scripts.contains("0/1000.pixels.js"))
    }

    /// Files below the report's `frames/`.
    func reportFiles(_ p: Project, _ folder: String = ".navreel/report") -> [String] {
        let root = p.root.appendingPathComponent(folder + "/frames").path
        return (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { !$0.hasSuffix("/") && FileManager.default.fileExists(atPath: root + "/" + $0) && !isFolder(root + "/" + $0) }.sorted()
    }

    func isFolder(_ path: String) -> Bool {
        var dir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && dir.boolValue
    }

    /// The pixels of a frame's rectangle in its thumbnail sheet.
    func sheetCell(_ p: Project, _ f: [String: Any], _ folder: String = ".navreel/report") throws -> Image? {
        guard let path = f["thumbnail"] as? String, let r = f["thumbnailRect"] as? [Int], r.count == 4 else { return nil }
        let sheet = try PNG.read(path: p.root.appendingPathComponent(folder + "/" + path).path).image
        guard r[0] + r[2] <= sheet.width, r[1] + r[3] <= sheet.height else { return nil }
        var pixels: [UInt8] = []
        for y in r[1]..<(r[1] + r[3]) { pixels += sheet.pixels[((y * sheet.width + r[0]) * 4)..<((y * sheet.width + r[0] + r[2]) * 4)] }
        return Image(width: r[2], height: r[3], pixels: pixels)
    }

    /// The inode of a file: a sheet written again is a new file renamed over the old one.
    func inode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    @Test("a job's thumbnails are one sheet, kept while its frames are unchanged, written again when one changes; stale thumbnails go")
    func sheetReuse() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        let one = p.report.appendingPathComponent("frames/one/tiny/thumbs.png")
        let two = p.report.appendingPathComponent("frames/two/tiny/thumbs.png")
        let (oneNode, twoNode) = (try inode(one), try inode(two))
        let twoBytes = try Data(contentsOf: two)
        #expect(reportFiles(p) == ["one/tiny/thumbs.png", "two/tiny/thumbs.png"])
        // Thumbnails of earlier runs: files of one frame (earlier versions), a sheet of a
        // scenario gone, a second sheet of a job that no longer has that many frames.
        let stale = ["one/tiny/0002.thumb.png", "gone/tiny/thumbs.png", "one/tiny/thumbs-0240.png"]
        for s in stale {
            let url = p.report.appendingPathComponent("frames/" + s)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: url)
        }
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        #expect(try inode(one) == oneNode && (try inode(two)) == twoNode, "unchanged frames: the sheets are not written again")
        #expect(reportFiles(p) == ["one/tiny/thumbs.png", "two/tiny/thumbs.png"], "\(reportFiles(p))")
        #expect(!FileManager.default.fileExists(atPath: p.report.appendingPathComponent("frames/gone").path))
        // A changed frame: its sheet is written again, with the new pixels; the other is kept.
        try p.write("two", Project.scenario("two", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "all"]).status == 0)
        #expect(try inode(one) == oneNode)
        #expect(try inode(two) != twoNode && (try Data(contentsOf: two)) != twoBytes)
        for (run, f) in frames(try results(p)) where run == "two" {
            let index = try #require(f["index"] as? Int)
            let baseline = try PNG.read(path: p.baselines.appendingPathComponent("two/tiny/" + String(format: "%04d.png", index)).path).image
            #expect(try sheetCell(p, f) == ReportFiles.thumbnail(baseline), "frame \(index)")
        }
        // A sheet holding frames that now fail is written again without them; their failure
        // images stay.
        try p.write("one", Project.scenario("one", color: "#00FF00"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let oneFrames = frames(try results(p)).filter { $0.run == "one" }.map(\.frame)
        let failed = oneFrames.filter { $0["status"] as? String == "failed" }, passed = oneFrames.filter { $0["status"] as? String == "passed" }
        #expect(!failed.isEmpty && !passed.isEmpty && passed.count + failed.count == 5)
        #expect(try inode(one) != oneNode)
        for f in failed {
            #expect(f["thumbnailRect"] == nil)
            #expect(FileManager.default.fileExists(atPath: p.report.appendingPathComponent(try #require(f["diff"] as? String)).path))
        }
        let record = try #require(try PNG.read(path: one.path).metadata.text["navreel.thumbnails"])
        #expect(record.split(separator: "\n").count == 1 + passed.count, "\(record)")
        for f in passed { #expect(try sheetCell(p, f) != nil) }
        // The page reads the rectangles.
        let page = try String(contentsOf: p.report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains(#""thumbnail":"frames/two/tiny/thumbs.png","thumbnailRect":["#))
    }

    @Test("a sheet whose record matches but whose image data is damaged is written again")
    func damagedSheet() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        let sheet = p.report.appendingPathComponent("frames/one/tiny/thumbs.png")
        let good = try Data(contentsOf: sheet)
        // One byte of the image data changed (the last IDAT byte before its CRC): the text
        // record still matches every frame.
        let bytes = [UInt8](good)
        let structure = try PNGStructure.scan(bytes, source: "sheet")
        let idat = try #require(structure.chunks.last { $0.type == "IDAT" })
        var damaged = bytes
        damaged[idat.dataOffset + idat.length - 1] ^= 0x55
        try Data(damaged).write(to: sheet)
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        #expect(try Data(contentsOf: sheet) == good, "the damaged sheet was kept")
    }

    @Test("a sheet's bytes do not depend on the number of jobs; frames that change size get rectangles of their size")
    func sheetDeterminism() throws {
        let rotating = Project.scenario("turn", frames: 30).replacingOccurrences(of: "fps: 29", with: "fps: 12")
            + "\n  - rotate: landscape\n    duration: 0.5\n  - wait: 0.5\n  - pop: {}\n"
        let p = try Project(["turn": rotating, "one": Project.scenario("one", frames: 40)])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        var sheets: [Data] = []
        for jobs in ["1", "2", "3"] {
            #expect(try p.run(["check", "--record", "never", "--jobs", jobs, "--report", "r" + jobs]).status == 0)
            sheets.append(try Data(contentsOf: p.root.appendingPathComponent("r\(jobs)/frames/turn/tiny/thumbs.png")))
        }
        #expect(sheets[0] == sheets[1] && sheets[1] == sheets[2])
        let turn = frames(try results(p, "r2")).filter { $0.run == "turn" }
        let sizes = Set(turn.compactMap { ($0.frame["thumbnailRect"] as? [Int]).map { "\($0[2])x\($0[3])" } })
        #expect(turn.count > 24 && sizes.count == 2, "\(sizes)")
        for (_, f) in turn {
            let index = try #require(f["index"] as? Int)
            let baseline = try PNG.read(path: p.baselines.appendingPathComponent("turn/tiny/" + String(format: "%04d.png", index)).path).image
            #expect(try sheetCell(p, f, "r2") == ReportFiles.thumbnail(baseline), "frame \(index)")
        }
        // The layout itself: every rectangle inside the sheet, apart from the others by the gutter.
        let layout = ThumbnailSheet.layout([(120, 30), (160, 20), (120, 30), (7, 90)])
        #expect(layout.rects.count == 4 && layout.rects.allSatisfy { $0.x >= ThumbnailSheet.gutter && $0.y >= ThumbnailSheet.gutter
            && $0.x + $0.width + ThumbnailSheet.gutter <= layout.width && $0.y + $0.height + ThumbnailSheet.gutter <= layout.height })
        #expect(layout.rects.map(\.width) == [120, 160, 120, 7])
    }

    @Test("merge-reports merges reports with a file per thumbnail (earlier versions) and with sheets")
    func mergeOldThumbnails() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        #expect(try p.run(["check", "--record", "never", "--filter", "one", "--report", "old"]).status == 0)
        #expect(try p.run(["check", "--record", "never", "--filter", "two", "--report", "new"]).status == 0)
        // "old" as an earlier version wrote it: NNNN.thumb.png per frame, no rectangles.
        let oldURL = p.root.appendingPathComponent("old/results.json")
        var doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: oldURL)) as? [String: Any])
        var runs = try #require(doc["runs"] as? [[String: Any]])
        var oldThumbs: [Int: Image] = [:]
        for (r, run) in runs.enumerated() {
            var fs = try #require(run["frames"] as? [[String: Any]])
            for (i, f) in fs.enumerated() {
                let image = try #require(try sheetCell(p, f, "old"))
                let path = "frames/one/tiny/" + String(format: "%04d", i) + ".thumb.png"
                try Data(PNG.encode(image)).write(to: p.root.appendingPathComponent("old/" + path))
                oldThumbs[i] = image
                fs[i]["thumbnail"] = path
                fs[i]["thumbnailRect"] = nil
            }
            runs[r]["frames"] = fs
        }
        doc["runs"] = runs
        try JSONSerialization.data(withJSONObject: doc).write(to: oldURL)
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("old/frames/one/tiny/thumbs.png"))
        let merged = try p.run(["merge-reports", "old", "new", "--report", "merged"])
        #expect(merged.status == 0, "\(merged)")
        for (run, f) in frames(try results(p, "merged")) {
            let t = try #require(f["thumbnail"] as? String)
            let index = try #require(f["index"] as? Int)
            if run == "one" {
                #expect(t.hasSuffix(".thumb.png") && f["thumbnailRect"] == nil)
                #expect(try PNG.read(path: p.root.appendingPathComponent("merged/" + t).path).image == oldThumbs[index])
            } else {
                #expect(t == "frames/two/tiny/thumbs.png" && (f["thumbnailRect"] as? [Int])?.count == 4)
                #expect(try sheetCell(p, f, "merged") != nil)
            }
        }
        let page = try String(contentsOf: p.root.appendingPathComponent("merged/index.html"), encoding: .utf8)
        #expect(page.contains(#""thumbnail":"frames/one/tiny/0000.thumb.png"}"#) && page.contains(#""thumbnail":"frames/two/tiny/thumbs.png","thumbnailRect":["#))
        // A rectangle that is not four whole numbers is a damaged file, named.
        let newURL = p.root.appendingPathComponent("new/results.json")
        let text = try String(contentsOf: newURL, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: #""thumbnailRect": ["#, with: #""thumbnailRect": [1, "#)
        #expect(damaged != text)
        try damaged.write(to: newURL, atomically: true, encoding: .utf8)
        let bad = try p.run(["merge-reports", "new", "--report", "merged2"])
        #expect(bad.status == 2 && bad.stderr.contains("runs[0].frames[0].thumbnailRect"), "\(bad)")
    }

    @Test("compare's passing frames linked from outside the report are shrunk into a sheet inside it")
    func compareSheet() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (expected, actual) = try CompareCLITests.folders(in: dir)
        let report = dir.appendingPathComponent("report")
        _ = try CLI.run(["compare", "--actual", actual.path, "--expected", expected.path, "--report", report.path])
        let page = try String(contentsOf: report.appendingPathComponent("index.html"), encoding: .utf8)
        let start = try #require(page.range(of: #"<script type="application/json" id="data">"#)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        let data = try #require(try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as? [String: Any])
        let run = try #require(((data["results"] as? [String: Any])?["runs"] as? [[String: Any]])?.first)
        let frames = try #require(run["frames"] as? [[String: Any]])
        let passed = frames.filter { $0["status"] as? String == "passed" }
        #expect(passed.count == 1)
        for f in passed {
            #expect(f["thumbnail"] as? String == "frames/_linked/0/thumbs.png")
            let r = try #require(f["thumbnailRect"] as? [Int])
            let sheet = try PNG.read(path: report.appendingPathComponent("frames/_linked/0/thumbs.png").path).image
            let shown = ThumbnailSheet.crop(sheet, PixelRect(x: r[0], y: r[1], width: r[2], height: r[3]))
            let source = try PNG.read(path: expected.appendingPathComponent("phone/0000.png").path).image
            #expect(shown == ReportFiles.thumbnail(source))
        }
        #expect(frames.filter { $0["status"] as? String != "passed" }.allSatisfy { $0["thumbnailRect"] == nil })
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
        // A user's files named like sheets, but not where NavReel writes sheets (two folders
        // below frames/), are not NavReel's.
        let userSheets = ["frames/notes/thumbs.png", "frames/a/b/c/thumbs.png", "frames/thumbs-0240.png"].map { p.report.appendingPathComponent($0) }
        for url in userSheets {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([7]).write(to: url)
        }
        try p.write("one", Project.scenario("one"))
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: failure.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        for url in userSheets { #expect(FileManager.default.fileExists(atPath: url.path), "\(url.path)") }
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
