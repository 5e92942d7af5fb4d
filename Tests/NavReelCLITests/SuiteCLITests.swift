import Foundation
import Testing
@testable import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// A throwaway project: Fixtures/scenarios with tiny scenarios, Baselines, a report folder.
struct Project {
    let root: URL
    var baselines: URL { root.appendingPathComponent("Baselines") }
    var report: URL { root.appendingPathComponent(".navreel/report") }

    static let device = "{name: tiny, width: 120, height: 160, scale: 1, statusBar: 20}"

    static func scenario(_ name: String, color: String = "#FFFFFF", frames: Int = 5) -> String {
        """
        devices: [\(device)]
        fps: \(frames - 1)
        capture: bar
        screens:
          a: {title: A, bar: {color: "\(color)", translucent: false}}
          b: {title: B, content: {rows: 3}}
        steps:
          - show: a
          - push: b
            duration: 1
            curve: linear
        """
    }

    init(_ scenarios: [String: String]) throws {
        root = try temporaryDirectory()
        let dir = root.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in scenarios { try write(name, text) }
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: root.appendingPathComponent("Fixtures/scenarios/\(name).yaml"), atomically: true, encoding: .utf8)
    }

    func run(_ args: [String], env: [String: String] = ["CI": ""]) throws -> CLIResult {
        try CLI.run(args, environment: env, in: root)
    }

    func pngs() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: baselines.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") }.sorted()
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: baselines.appendingPathComponent(path)) }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite("navreel check and record", .serialized)
struct SuiteCLITests {
    @Test("record modes: never fails on missing, missing adds, failed replaces, all rewrites only changes")
    func recordModes() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        let never = try p.run(["check", "--record", "never"])
        #expect(never.status == 1, "\(never)")
        #expect(never.stdout.contains("MISSING one/tiny frame 0") && never.stdout.contains("run `navreel check --record missing --filter one` or `navreel approve`"), "\(never)")
        #expect(p.pngs().isEmpty, "never writes nothing")
        // A baseline written because none existed fails the run, naming the files to commit.
        let missing = try p.run(["check", "--record", "missing"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stdout.contains("5 new baselines were written") && missing.stdout.contains("Baselines/one/tiny/0000.png ... 0004.png (5 files)")
                && missing.stdout.contains("git add Baselines/one"), "\(missing)")
        #expect(try p.run(["check", "--record", "missing"]).status == 0, "the next check compares against them")
        #expect(p.pngs() == (0..<5).map { "one/tiny/000\($0).png" })
        // The bar colour changes: a plain check fails and leaves the baselines alone.
        let before = try p.bytes("one/tiny/0000.png")
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        let failing = try p.run(["check", "--record", "missing"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("FAIL one/tiny frame 0"))
        #expect(failing.stdout.hasSuffix("report: .navreel/report/index.html\n"), "the report's path comes last")
        // Each failing line names the step's file and line (frame 0 is the screen before the push).
        #expect(failing.stdout.contains("FAIL one/tiny frame 0 (t=0.000s, Fixtures/scenarios/one.yaml:8:5)"), "\(failing.stdout)")
        #expect(failing.stdout.contains("FAIL one/tiny frame 1 (t=0.250s, Fixtures/scenarios/one.yaml:9:5)"), "\(failing.stdout)")
        // Without a terminal, plain progress lines; the last one at 5 of 5 frames.
        #expect(failing.stderr.contains("progress: 5/5 frames, 0 s left"), "\(failing.stderr)")
        #expect(try p.bytes("one/tiny/0000.png") == before)
        let failed = try p.run(["check", "--record", "failed"])
        #expect(failed.status == 0, "\(failed)")
        #expect(try p.bytes("one/tiny/0000.png") != before)
        #expect(try p.run(["check", "--record", "never"]).status == 0)
    }

    @Test("after a failure the console gives the approve command, which works as printed; --verbose lists passing frames")
    func approveHintAndVerbose() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["check", "--record", "missing"]).status == 1)
        let verbose = try p.run(["check", "--record", "never", "--verbose"])
        #expect(verbose.status == 0 && !verbose.stdout.contains("to accept"), "\(verbose)")
        let passLines = verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("pass ") }
        #expect(passLines.count == 10 && passLines.first == "pass one/tiny frame 0 (t=0.000s): identical", "\(verbose.stdout)")
        #expect(!(try p.run(["check", "--record", "never"])).stdout.contains("pass one/tiny"), "only under --verbose")
        // One run fails: its exact command. Run as printed, it approves, and the next check passes.
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        let failing = try p.run(["check", "--record", "never"])
        let prefix = "to accept the failing frames after looking at the report: "
        let hint = failing.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        #expect(failing.status == 1 && hint?.hasPrefix("navreel approve --filter one") == true, "\(failing.stdout)")
        // Two runs fail: one command for the whole report.
        try p.write("two", Project.scenario("two", color: "#00FF00"))
        let both = try p.run(["check", "--record", "never"])
        #expect(both.stdout.contains(prefix + "navreel approve") && !both.stdout.contains(prefix + "navreel approve --filter"), "\(both.stdout)")
        let words = Array((hint ?? "").split(separator: " ").dropFirst().map(String.init))
        #expect(try p.run(["check", "--record", "never", "--filter", "one"]).status == 1)
        let approve = try p.run(words)
        #expect(approve.status == 0, "\(approve)")
        #expect(try p.run(["check", "--record", "never", "--filter", "one"]).status == 0, "approved as printed")
    }

    @Test("a run whose end falls between frames has the end state as its last frame; missing alone, it says why")
    func endStateFrame() throws {
        // A 0.9 s push at 4 fps: frames at 0, 0.25, 0.5 and 0.75 s move; the one at 1 s shows the end.
        let p = try Project(["end": Project.scenario("end", frames: 5).replacingOccurrences(of: "duration: 1", with: "duration: 0.9")])
        defer { p.remove() }
        #expect(try p.run(["check", "--record", "missing"]).status == 1)
        #expect(p.pngs() == (0..<5).map { "end/tiny/000\($0).png" })
        let end = try PNG.read(path: p.baselines.appendingPathComponent("end/tiny/0004.png").path).image
        let before = try PNG.read(path: p.baselines.appendingPathComponent("end/tiny/0003.png").path).image
        #expect(end != before, "the frame at 0.75 s is still moving")
        // As a run recorded before the end state had a frame: only the last is missing.
        try FileManager.default.removeItem(at: p.baselines.appendingPathComponent("end/tiny/0004.png"))
        let missing = try p.run(["check", "--record", "never"])
        #expect(missing.status == 1 && missing.stdout.contains("no baseline at Baselines/end/tiny/0004.png (the end state: the run ends between two frames"),
                "\(missing.stdout)")
        // Any other missing frame does not say so.
        try FileManager.default.removeItem(at: p.baselines.appendingPathComponent("end/tiny/0003.png"))
        #expect(!(try p.run(["check", "--record", "never"])).stdout.contains("(the end state"))
    }

    @Test("the default record mode: missing on a workstation, never when CI is set; NAVREEL_RECORD wins")
    func defaults() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        let ci = try p.run(["check"], env: ["CI": "true"])
        #expect(ci.status == 1 && p.pngs().isEmpty)
        let env = try p.run(["check"], env: ["CI": "true", "NAVREEL_RECORD": "missing"])
        #expect(env.status == 1 && p.pngs().count == 5)
        let bad = try p.run(["check"], env: ["NAVREEL_RECORD": "sometimes"])
        #expect(bad.status == 2 && bad.stderr.contains("NAVREEL_RECORD=sometimes"))
        try FileManager.default.removeItem(at: p.baselines)
        let local = try p.run(["check"], env: ["CI": ""])
        #expect(local.status == 1 && p.pngs().count == 5 && local.stdout.contains("new baselines were written"))
        #expect(try p.run(["check"], env: ["CI": ""]).status == 0)
    }

    @Test("record rewrites only frames whose pixels changed, so an unchanged suite leaves files untouched")
    func onlyChanged() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two", color: "#00FF00")])
        defer { p.remove() }
        let first = try p.run(["record"])
        #expect(first.stdout.contains("record: 10 added, 0 changed, 0 kept, 0 removed"), "\(first)")
        let stamps = try p.pngs().map { try FileManager.default.attributesOfItem(atPath: p.baselines.appendingPathComponent($0).path)[.modificationDate] as! Date }
        let bytes = try p.pngs().map(p.bytes)
        try p.write("two", Project.scenario("two", color: "#0000FF"))
        let second = try p.run(["record"])
        // The last frame shows only screen b, whose bar did not change: 4 frames change.
        #expect(second.stdout.contains("record: 0 added, 4 changed, 6 kept, 0 removed"), "\(second)")
        let after = try p.pngs().map { try FileManager.default.attributesOfItem(atPath: p.baselines.appendingPathComponent($0).path)[.modificationDate] as! Date }
        #expect(Array(after.prefix(5)) == Array(stamps.prefix(5)), "scenario one untouched")
        #expect(try p.pngs().prefix(5).map(p.bytes) == Array(bytes.prefix(5)))
        #expect(try p.pngs().suffix(5).prefix(4).map(p.bytes).enumerated().allSatisfy { $0.element != bytes[5 + $0.offset] })
        #expect(try p.bytes(p.pngs()[9]) == bytes[9])
    }

    @Test("a record's report keeps the old baseline, the new frame and their diff of each frame whose pixels changed")
    func recordReportShowsChanges() throws {
        let p = try Project(["two": Project.scenario("two", color: "#00FF00")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        let before = try p.pngs().map(p.bytes)
        try p.write("two", Project.scenario("two", color: "#0000FF"))
        let second = try p.run(["record"])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("index.html (old and new pixels of the 4 frames whose pixels changed)"), "\(second)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: p.report.appendingPathComponent("results.json"))) as! [String: Any]
        let frames = try #require(((json["runs"] as? [[String: Any]])?.first)?["frames"] as? [[String: Any]])
        #expect(frames.map { $0["status"] as? String } == ["changed", "changed", "changed", "changed", "passed"])
        for (k, f) in frames.enumerated() {
            if f["status"] as? String == "changed" {
                // The old baseline's bytes, not the new file's: what the frame was before the record.
                let expected = try Data(contentsOf: p.report.appendingPathComponent(try #require(f["expected"] as? String)))
                #expect(expected == before[k])
                #expect(expected != (try p.bytes(p.pngs()[k])))
                let actual = try PNG.read(path: p.report.appendingPathComponent(try #require(f["actual"] as? String)).path)
                #expect(actual.image == (try PNG.read(path: p.baselines.appendingPathComponent(p.pngs()[k]).path)).image)
                #expect(f["diff"] is String)
            } else {
                #expect(f["expected"] == nil && f["diff"] == nil)
            }
        }
        // The page opens the run and gives the changes cards of their own.
        let page = try String(contentsOf: p.report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("const isReview = f => isBad(f) || (f.status === \"changed\" && !!f.expected);"))
        // Nothing for approve to do: the frames are written already.
        let written = try p.pngs().map(p.bytes)
        let approve = try p.run(["approve"])
        #expect(try p.pngs().map(p.bytes) == written, "\(approve)")
    }

    @Test("a record keeps the old pixels of changes within the tolerance too, and of its first N changed frames whatever the threads")
    func recordReportLimits() throws {
        let loose = { (color: String) in Project.scenario("two", color: color) + "\ntolerance: {maxDiffPixels: 100000}\n" }
        let p = try Project(["two": loose("#00FF00"), "one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        // A change the tolerance forgives is still a change the record made.
        try p.write("two", loose("#00FE00"))
        #expect(try p.run(["record", "--quiet"]).status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: p.report.appendingPathComponent("results.json"))) as! [String: Any]
        let two = try #require((json["runs"] as? [[String: Any]])?.first { $0["scenario"] as? String == "two" })
        let changed = try #require(two["frames"] as? [[String: Any]]).filter { $0["status"] as? String == "changed" }
        #expect(changed.count == 4 && changed.allSatisfy { $0["expected"] is String && $0["diff"] is String }, "\(changed)")
        // Past the limit, in run and frame order, the images go and a message says why.
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        try p.write("two", loose("#0000FF"))
        var kept: [[String]] = []
        for jobs in [1, 2] {
            try FileManager.default.removeItem(at: p.root.appendingPathComponent("Baselines"))
            try p.write("one", Project.scenario("one"))
            try p.write("two", loose("#00FF00"))
            #expect(try p.run(["record", "--quiet"]).status == 0)
            try p.write("one", Project.scenario("one", color: "#FF0000"))
            try p.write("two", loose("#0000FF"))
            var o = RunOptions()
            o.scenarios = p.root.appendingPathComponent("Fixtures/scenarios").path
            o.baselines = p.baselines.path
            o.report = p.root.appendingPathComponent("limited").path
            o.record = .all
            o.jobs = jobs
            o.changedArtifactLimit = 5
            let result = try SuiteRunner(options: o).run()
            let frames = result.jobs.flatMap { j in j.frames.map { (j.scenario, $0) } }
            let withImages = frames.filter { $0.1.status == .changed && $0.1.expected != nil }
            #expect(withImages.count == 5 && frames.filter { $0.1.status == .changed }.count == 8)
            for (_, f) in frames where f.status == .changed && f.expected == nil {
                #expect(f.message?.contains("first 5 changed frames") == true && f.thumbnail != nil)
            }
            let files = try FileManager.default.subpathsOfDirectory(atPath: o.report).filter { $0.hasSuffix(".expected.png") }
            #expect(files.count == 5, "\(files)")
            kept.append(withImages.map { $0.0 + "/\($0.1.index)" })
        }
        #expect(kept[0] == kept[1], "the same frames with 1 and 2 threads")
    }

    @Test("merge-reports refuses --json and --junit in a shard's report folder or on its results, leaving them as they were")
    func mergeOverInputs() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        for k in 1...2 { #expect(try p.run(["check", "--record", "never", "--shard", "\(k)/2", "--report", "s\(k)", "--quiet"]).status == 0) }
        let results = p.root.appendingPathComponent("s2/results.json"), page = p.root.appendingPathComponent("s1/index.html")
        let before = (try Data(contentsOf: results), try Data(contentsOf: page))
        for (flag, target) in [("--json", "s2/results.json"), ("--junit", "s1/index.html"), ("--json", "s1/frames/x.json")] {
            let r = try p.run(["merge-reports", "s1", "s2", "--report", "merged", flag, target])
            #expect(r.status == 2 && r.stderr.contains("\(flag) \(target) is inside a shard's report folder"), "\(r)")
        }
        let file = try p.run(["merge-reports", "s1/results.json", "s2", "--report", "merged", "--json", "s1/results.json"])
        #expect(file.status == 2 && file.stderr.contains("--json s1/results.json is a shard's results"), "\(file)")
        let page2 = try p.run(["merge-reports", "s1/results.json", "s2", "--report", "merged", "--junit", "s1/index.html"])
        #expect(page2.status == 2 && page2.stderr.contains("--junit s1/index.html is inside a shard's report folder s1"), "\(page2)")
        #expect(try Data(contentsOf: results) == before.0 && (try Data(contentsOf: page)) == before.1)
        let fine = try p.run(["merge-reports", "s1", "s2", "--report", "merged", "--json", "merged.json"])
        #expect(fine.status == 0, "\(fine)")
    }

    @Test("--quiet still prints the line of a frame that could not be judged, naming its file; suggested commands carry the run's folders, quoted")
    func quietErrorsAndSuggestions() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet", "--baselines", "My Base"]).status == 0)
        let damaged = p.root.appendingPathComponent("My Base/one/tiny/0002.png")
        let bytes = try Data(contentsOf: damaged)
        try bytes.prefix(100).write(to: damaged)
        let quiet = try p.run(["check", "--record", "never", "--quiet", "--baselines", "My Base"])
        #expect(quiet.status == 2 && quiet.stdout.contains("My Base/one/tiny/0002.png: truncated") && !quiet.stdout.contains("frame 1 "), "\(quiet)")
        try bytes.write(to: damaged)
        // A missing baseline: the approve it suggests reads this run's report.
        try FileManager.default.removeItem(at: damaged)
        let missing = try p.run(["check", "--record", "never", "--baselines", "My Base", "--report", "rep x"])
        #expect(missing.status == 1 && missing.stdout.contains("or `navreel approve --report 'rep x'`"), "\(missing)")
        let noReport = try p.run(["approve", "--report", "nowhere"])
        #expect(noReport.status == 2 && noReport.stderr.contains("(run `navreel check --report nowhere` first)"), "\(noReport)")
        // New baselines: `git add` of a folder with a space, quoted. An orphan: prune with the folders.
        let added = try p.run(["check", "--baselines", "My Base"])
        #expect(added.stdout.contains("git add 'My Base/one'"), "\(added)")
        try FileManager.default.copyItem(at: p.root.appendingPathComponent("My Base/one/tiny/0001.png"), to: p.root.appendingPathComponent("My Base/one/tiny/0400.png"))
        let orphan = try p.run(["check", "--record", "never", "--baselines", "My Base"])
        #expect(orphan.stdout.contains("list them with `navreel prune --dry-run --baselines 'My Base'`, remove them with `navreel prune --baselines 'My Base'`"), "\(orphan)")
        let listed = try p.run(["prune", "--dry-run", "--baselines", "My Base"])
        #expect(listed.status == 0 && listed.stdout.contains("one/tiny/0400.png"), "\(listed)")
    }

    @Test("--json, --junit and --report are refused over scenarios, baselines and the project file; nothing is written over them")
    func outputsOverInputs() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try "scenarios: Fixtures/scenarios\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let baseline = p.baselines.appendingPathComponent("one/tiny/0000.png")
        let scenario = p.root.appendingPathComponent("Fixtures/scenarios/one.yaml")
        let kept = try [Data(contentsOf: baseline), Data(contentsOf: scenario), Data(contentsOf: p.root.appendingPathComponent("navreel.yaml"))]
        for (args, says) in [(["check", "--junit", "Baselines/one/tiny/0000.png"], "--junit Baselines/one/tiny/0000.png is inside the baselines folder Baselines"),
                             (["record", "--json", "Baselines/results.json"], "--json Baselines/results.json is inside the baselines folder Baselines"),
                             (["check", "--json", "Fixtures/scenarios/one.yaml"], "--json Fixtures/scenarios/one.yaml is in the scenarios folder"),
                             (["check", "--junit", "Fixtures/scenarios/results.json"], "--junit Fixtures/scenarios/results.json is in the scenarios folder"),
                             (["check", "--json", "./navreel.yaml"], "--json ./navreel.yaml is the project file"),
                             (["check", "--report", "Fixtures/scenarios"], "--report Fixtures/scenarios is the scenarios folder"),
                             (["check", "--report", "Baselines"], "--report Baselines is the baselines folder"),
                             (["check", "--report", "Baselines/one/report"], "--report Baselines/one/report is inside the baselines folder")] {
            let r = try p.run(args[0] == "check" ? args + ["--record", "never"] : args)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r)")
        }
        let now = try [Data(contentsOf: baseline), Data(contentsOf: scenario), Data(contentsOf: p.root.appendingPathComponent("navreel.yaml"))]
        #expect(now == kept)
        #expect(!FileManager.default.fileExists(atPath: p.baselines.appendingPathComponent("index.html").path))
        #expect(!FileManager.default.fileExists(atPath: p.root.appendingPathComponent("Fixtures/scenarios/results.json").path))
        // A folder of someone else's page is not a report folder: its index.html stays.
        let site = p.root.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try "<html><title>My app</title></html>".write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let web = try p.run(["check", "--record", "never", "--report", "site"])
        #expect(web.status == 2 && web.stderr.contains("holds an index.html that NavReel did not write"), "\(web)")
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "<html><title>My app</title></html>")
        // A report's own folder is written again, run after run.
        for _ in 0..<2 { #expect(try p.run(["check", "--record", "never", "--report", "again"]).status == 0) }
        // A folder below the scenarios is not read as scenarios: a report there is fine, as is --json elsewhere.
        let fine = try p.run(["check", "--record", "never", "--report", "Fixtures/scenarios/out", "--json", "out/results.json", "--junit", "out/junit.xml"])
        #expect(fine.status == 0 && FileManager.default.fileExists(atPath: p.root.appendingPathComponent("out/junit.xml").path), "\(fine)")
        // A file the catalog does not read may go there (scenarios: . with --junit junit.xml).
        #expect(try p.run(["check", "--record", "never", "--junit", "Fixtures/scenarios/junit.xml"]).status == 0)
        // `..` after a link is the folder above the link's target, not the link's own folder.
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("Fixtures/scenarios/sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: p.root.appendingPathComponent("lnk").path,
                                                   withDestinationPath: p.root.appendingPathComponent("Fixtures/scenarios/sub").path)
        let linked = try p.run(["check", "--record", "never", "--json", "lnk/../one.yaml"])
        #expect(linked.status == 2 && linked.stderr.contains("--json lnk/../one.yaml is in the scenarios folder"), "\(linked)")
        #expect(try Data(contentsOf: scenario) == kept[1])
    }

    @Test("approve promotes the failing frames of the last check without rendering again")
    func approve() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        try p.write("two", Project.scenario("two", color: "#00FF00"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let some = try p.run(["approve", "--filter", "one"])
        #expect(some.status == 0 && some.stdout.contains("approved"), "\(some)")
        let check = try p.run(["check", "--record", "never"])
        #expect(check.status == 1)
        #expect(!check.stdout.contains("FAIL one/") && check.stdout.contains("FAIL two/"))
        // A report written before baseline format 4 holds its maps in layout NRM1: approve writes
        // them as this NavReel does (NRM2), the same maps.
        let actualURL = p.report.appendingPathComponent("frames/two/tiny/0001.actual.png")
        let written = try PNG.read(path: actualURL.path)
        let writtenMaps = try #require(try PairDiff.maps(of: written, source: actualURL.path))
        try Data(try PNG.encode(written.image, metadata: PNGMetadata(text: written.metadata.text, sideData: writtenMaps.serializedV1()),
                                options: .fast)).write(to: actualURL)
        #expect(try p.run(["approve"]).status == 0)
        // Read before the next check, which removes the last run's failure images.
        let reportFrame = try PNG.read(path: actualURL.path)
        #expect(Array(try #require(reportFrame.metadata.sideData).prefix(4)) == Array("NRM1".utf8))
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: p.report.appendingPathComponent("frames/two/tiny/0001.actual.png").path))
        // The approved file holds the report's actual frame (re-encoded at baseline compression),
        // and it matches without decoding: a record now changes nothing.
        let approved = try PNG.read(path: p.baselines.appendingPathComponent("two/tiny/0001.png").path)
        #expect(approved.image == reportFrame.image)
        #expect(Array(try #require(approved.metadata.sideData).prefix(4)) == Array("NRM2".utf8))
        #expect(try PairDiff.maps(of: approved, source: "approved") == writtenMaps)
        #expect(try p.run(["record"]).stdout.contains("0 added, 0 changed, 10 kept"))
        let json = try p.run(["check", "--record", "never", "--json", "-", "--quiet"]).stdout
        // Every one of the 10 frames matched without decoding.
        #expect(json.components(separatedBy: "\"fastPath\": true").count - 1 == 10)
    }

    @Test("a rotation is an event in results.json and the report, on the frame whose size changes, not a failure")
    func rotationEvent() throws {
        let yaml = "devices: [\(Project.device)]\nfps: 10\ncapture: bar\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n  - rotate: landscape\n  - wait: 0.2\n"
        let p = try Project(["turn": yaml])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let r = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let frames = ((json["runs"] as! [[String: Any]])[0]["frames"] as! [[String: Any]])
        let events = frames.filter { $0["event"] != nil }
        #expect(events.count == 1 && events.first?["status"] as? String == "passed", "\(events)")
        // The rotation's midpoint, 0.2 s after it starts at 0: frame 2 at 10 fps.
        #expect(events.first?["index"] as? Int == 2)
        #expect((events.first?["event"] as? String)?.contains("from 120 × 160 pt to 160 × 120 pt") == true, "\(events)")
        let html = try String(contentsOf: p.report.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("f.event"), "the report shows events")
    }

    @Test("approve refuses results that would write outside Baselines/")
    func approveRefusesTraversal() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let results = p.report.appendingPathComponent("results.json")
        let tampered = try String(contentsOf: results, encoding: .utf8).replacingOccurrences(of: "\"scenario\": \"one\"", with: "\"scenario\": \"..\"")
        try tampered.write(to: results, atomically: true, encoding: .utf8)
        let r = try p.run(["approve"])
        #expect(r.status == 2 && r.stderr.contains("is not a scenario and device name"))
        #expect(!FileManager.default.fileExists(atPath: p.root.appendingPathComponent("tiny").path))
    }

    @Test("prune lists and removes baselines no scenario produces")
    func prune() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let orphan1 = p.baselines.appendingPathComponent("one/tiny/0099.png")
        let orphan2 = p.baselines.appendingPathComponent("gone/tiny/0000.png")
        try FileManager.default.createDirectory(at: orphan2.deletingLastPathComponent(), withIntermediateDirectories: true)
        try p.bytes("one/tiny/0000.png").write(to: orphan1)
        try p.bytes("one/tiny/0000.png").write(to: orphan2)
        // check passes but points at the orphans and at prune.
        let check = try p.run(["check", "--record", "never"])
        #expect(check.status == 0 && check.stdout.contains("2 orphaned baselines (no scenario produces them): Baselines/gone/tiny/0000.png and 1 more")
                && check.stdout.contains("navreel prune --dry-run"), "\(check)")
        let dry = try p.run(["prune", "--dry-run"])
        #expect(dry.stdout.contains("would remove Baselines/gone/tiny/0000.png") && dry.stdout.contains("one/tiny/0099.png"))
        #expect(p.pngs().count == 7)
        #expect(try p.run(["prune"]).status == 0)
        #expect(p.pngs().count == 5)
        #expect(!(try p.run(["check", "--record", "never"]).stdout.contains("orphaned")))
    }

    @Test("two shards merge to the totals of one run")
    func shards() throws {
        let p = try Project(["a1": Project.scenario("a1"), "b2": Project.scenario("b2"), "c3": Project.scenario("c3", frames: 3)])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("b2", Project.scenario("b2", color: "#FF0000"))
        let whole = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
        let s1 = try p.run(["check", "--record", "never", "--shard", "1/2", "--report", "r1"])
        let s2 = try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r2"])
        #expect(s1.stdout.contains(" in 2 runs: ") && s2.stdout.contains(" in 1 run: "), "\(s1.stdout) \(s2.stdout)")
        let merged = try p.run(["merge-reports", "r1", "r2", "--report", "merged"])
        #expect(merged.status == 1, "\(merged)")
        let wholeSummary = try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as! [String: Any]
        let mergedJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: p.root.appendingPathComponent("merged/results.json"))) as! [String: Any]
        #expect((wholeSummary["summary"] as! NSDictionary) == (mergedJSON["summary"] as! NSDictionary))
        // The merged run keeps the shards' start and time: the earliest start, the times added.
        let shardJSON = try ["r1", "r2"].map {
            try JSONSerialization.jsonObject(with: Data(contentsOf: p.root.appendingPathComponent("\($0)/results.json"))) as! [String: Any]
        }
        let starts = shardJSON.compactMap { $0["started"] as? String }
        #expect(starts.count == 2 && mergedJSON["started"] as? String == starts.min(), "\(starts) \(mergedJSON["started"] ?? "none")")
        let total = shardJSON.reduce(0.0) { $0 + ($1["seconds"] as? Double ?? 0) }
        #expect(total > 0 && abs((mergedJSON["seconds"] as? Double ?? -1) - total) < 0.002)
        #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("merged/frames/b2/tiny/0000.diff.png").path))
        let bad = try p.run(["check", "--shard", "3/2"])
        #expect(bad.status == 2, "usage errors exit 2 (CLI.md)")
    }

    @Test("a corrupt baseline is an error for its frame; the rest of the run goes on")
    func corruptBaseline() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let path = p.baselines.appendingPathComponent("one/tiny/0002.png")
        try Data(try Data(contentsOf: path).prefix(100)).write(to: path)
        let r = try p.run(["check", "--record", "never", "--json", "-"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("ERROR one/tiny frame 2") && r.stderr.contains("truncated"), "people's lines go to stderr with --json -")
        #expect(r.stderr.contains("4 passed"))
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect((json["summary"] as! [String: Any])["error"] as? Int == 1)
        #expect(try Data(contentsOf: path).count == 100, "a check never writes baselines")
        // --record missing leaves it an error; record (and --record failed) write the frame over it, saying why.
        #expect(try p.run(["check", "--record", "missing"]).status == 2)
        #expect(try Data(contentsOf: path).count == 100)
        let record = try p.run(["record", "--verbose"])
        #expect(record.status == 0 && record.stdout.contains("replaced Baselines/one/tiny/0002.png, which could not be read:")
                && record.stdout.contains("truncated") && record.stdout.contains("record: 0 added, 1 changed, 4 kept"), "\(record)")
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        try Data(try Data(contentsOf: path).prefix(100)).write(to: path)
        #expect(try p.run(["check", "--record", "failed"]).status == 0)
        #expect(try p.run(["check", "--record", "never"]).status == 0)        // An empty file is damage too: record writes over it.
        try Data().write(to: path)
        #expect(try p.run(["record"]).status == 0)
        #expect(try p.run(["check", "--record", "never"]).status == 0)
        // A Git LFS pointer (a checkout without `git lfs pull`) is never written over: an error in every mode.
        let pointer = p.baselines.appendingPathComponent("one/tiny/0003.png")
        let real = try Data(contentsOf: pointer)
        let lfs = Data("version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 1234\n".utf8)
        try lfs.write(to: pointer)
        for mode in [["record"], ["check", "--record", "failed"], ["check", "--record", "all"], ["check", "--record", "missing"]] {
            let kept = try p.run(mode)
            #expect(kept.status == 2 && kept.stdout.contains("git lfs pull"), "\(mode): \(kept)")
            #expect(try Data(contentsOf: pointer) == lfs, "\(mode)")
        }
        try real.write(to: pointer)
    }

    @Test("a baseline edited by another tool is still compared; a pixel change is caught, a re-encoding passes")
    func editedBaseline() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let path = p.baselines.appendingPathComponent("one/tiny/0003.png").path
        var decoded = try PNG.read(path: path)
        // Re-encoded by "another tool": same pixels and metadata, other compression.
        try Data(PNG.encode(decoded.image, metadata: decoded.metadata, options: PNGEncodeOptions(compressionLevel: 1, filter: .none, reduceColors: false)))
            .write(to: URL(fileURLWithPath: path))
        let same = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
        #expect(same.status == 0, "\(same)")
        #expect(!same.stdout.contains("\"index\": 3,\n          \"time\": 0.75,\n          \"status\": \"passed\",\n          \"fastPath\": true"))
        // One pixel changed, and written by an older renderer: a failure that says so.
        decoded.image[60, 30] = RGBA8(255, 0, 255)
        decoded.metadata.text["navreel.renderer"] = "0"
        try Data(PNG.encode(decoded.image, metadata: decoded.metadata)).write(to: URL(fileURLWithPath: path))
        let changed = try p.run(["check", "--record", "never"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("FAIL one/tiny frame 3") && changed.stdout.contains("1 of"))
        #expect(changed.stdout.contains("environment drift: renderer changed (baseline: 0"))
    }

    /// A scenario of 61 full-screen 390x844 frames: long enough to interrupt, or to overlap with
    /// a second run.
    static func bigProject() throws -> Project {
        try Project(["big": Project.scenario("big", frames: 61).replacingOccurrences(of: "width: 120, height: 160", with: "width: 390, height: 844")
            .replacingOccurrences(of: "capture: bar", with: "capture: full")])
    }

    /// `navreel` started in the project without waiting for it, its output discarded.
    static func start(_ arguments: [String], in p: Project) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = p.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("a record killed with SIGKILL leaves only decodable PNGs")
    func killedRecord() throws {
        let p = try Self.bigProject()
        defer { p.remove() }
        for delay in [0.4, 0.9, 1.6] {
            try? FileManager.default.removeItem(at: p.baselines)
            let process = try Self.start(["record", "--quiet"], in: p)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            for png in p.pngs() {
                #expect(throws: Never.self, "\(png) after a kill at \(delay) s") { _ = try PNG.read(path: p.baselines.appendingPathComponent(png).path) }
            }
        }
    }

    @Test("Ctrl-C leaves no temporary files; a closed pipe on standard output does not stop a record")
    func interruptedAndPiped() throws {
        let p = try Self.bigProject()
        defer { p.remove() }
        func temporaryFiles() -> [String] {
            (FileManager.default.enumerator(atPath: p.root.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".tmp") }
        }
        for delay in [0.3, 0.6, 0.9, 1.3] {
            try? FileManager.default.removeItem(at: p.baselines)
            let process = try Self.start(["record", "--quiet"], in: p)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { #expect(process.terminationStatus == SIGINT) }
            #expect(temporaryFiles().isEmpty, "after Ctrl-C at \(delay) s: \(temporaryFiles())")
            for png in p.pngs() {
                #expect(throws: Never.self, "\(png) after Ctrl-C at \(delay) s") { _ = try PNG.read(path: p.baselines.appendingPathComponent(png).path) }
            }
        }
        // `navreel record | head -1`: the reader goes away; the record finishes with its own status.
        try? FileManager.default.removeItem(at: p.baselines)
        let pipe = Pipe()
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["record", "--verbose"]
        process.currentDirectoryURL = p.root
        process.standardOutput = pipe
        process.standardError = pipe
        try pipe.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
        #expect(p.pngs().count == 61)
    }

    @Test("a report folder is one run's: a second run into it is refused; an interrupted run leaves no stale results")
    func reportFolderClaim() throws {
        let p = try Self.bigProject()
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        let lock = p.report.appendingPathComponent(".navreel-lock")
        func startCheck() throws -> Process {
            try? FileManager.default.removeItem(at: lock)
            let process = try Self.start(["check", "--record", "never", "--quiet", "--jobs", "1"], in: p)
            // Until the run holds the folder (its process id in the lock file).
            for _ in 0..<400 where (try? String(contentsOf: lock, encoding: .utf8))?.hasPrefix("\(process.processIdentifier)") != true {
                Thread.sleep(forTimeInterval: 0.005)
            }
            return process
        }
        // A second check while the first writes: refused, naming the first; the first's report is whole.
        let first = try startCheck()
        let second = try p.run(["check", "--record", "never", "--quiet"])
        first.waitUntilExit()
        if first.terminationStatus == 0 {   // (a very fast machine may finish the first before the second starts)
            #expect(second.status == 2 && second.stderr.contains("is being written by another navreel (process \(first.processIdentifier))"), "\(second)")
        }
        let results = try String(contentsOf: p.report.appendingPathComponent("results.json"), encoding: .utf8)
        for match in results.matches(of: /"thumbnail": "([^"]+)"/) {
            #expect(FileManager.default.fileExists(atPath: p.report.appendingPathComponent(String(match.1)).path), "\(match.1)")
        }
        // Interrupted: no results.json of the run before, a page that says so, and --last-failed says there is nothing to read.
        let interrupted = try startCheck()
        Thread.sleep(forTimeInterval: 0.2)
        kill(interrupted.processIdentifier, SIGINT)
        interrupted.waitUntilExit()
        if interrupted.terminationReason == .uncaughtSignal {
            #expect(!FileManager.default.fileExists(atPath: p.report.appendingPathComponent("results.json").path))
            let page = try String(contentsOf: p.report.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(page.contains("This report is not finished") && page.contains("navreel check"))
            // --last-failed takes the failures of the run before the interrupted one (none here).
            let again = try p.run(["check", "--record", "never", "--last-failed"])
            #expect(again.status == 0 && again.stderr.contains("did not finish; --last-failed takes the failures of the run before it")
                    && again.stdout.contains("no scenario failed"), "\(again)")
        }
        // approve after a run that did not finish says so (its start moved the last results aside;
        // done here by hand when the interruption above came too late to catch the run).
        let resultsURL = p.report.appendingPathComponent("results.json"), aside = p.report.appendingPathComponent(ReportFiles.previousResultsName)
        if FileManager.default.fileExists(atPath: resultsURL.path) {
            try? FileManager.default.removeItem(at: aside)
            try FileManager.default.moveItem(at: resultsURL, to: aside)
        }
        let approve = try p.run(["approve"])
        #expect(approve.status == 2 && approve.stderr.contains("no results: the last run into .navreel/report did not finish"), "\(approve)")
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: p.report.appendingPathComponent("results.json").path))
        // A finished run no longer needs the results it kept aside (they went out with every upload).
        #expect(!FileManager.default.fileExists(atPath: aside.path))

        // A run refused before it writes (a compare of a folder that does not exist) leaves the report whole.
        let cmp = p.root.appendingPathComponent("cmp")
        #expect(try p.run(["compare", "--actual", "Baselines/big/tiny", "--expected", "Baselines/big/tiny", "--report", "cmp", "--quiet"]).status == 0)
        let typo = try p.run(["compare", "--actual", "Baselines/big/tinyy", "--expected", "Baselines/big/tiny", "--report", "cmp"])
        #expect(typo.status == 2, "\(typo)")
        #expect(FileManager.default.fileExists(atPath: cmp.appendingPathComponent("results.json").path))
        #expect(!(try String(contentsOf: cmp.appendingPathComponent("index.html"), encoding: .utf8)).contains("not finished"))

        // merge-reports into one of its inputs that fails on the way keeps that input's results.
        try p.write("small", Project.scenario("small"))
        #expect(try p.run(["record", "--quiet", "--filter", "small"]).status == 0)
        #expect(try p.run(["check", "--record", "never", "--quiet", "--shard", "1/2", "--report", "s1"]).status == 0)
        #expect(try p.run(["check", "--record", "never", "--quiet", "--shard", "2/2", "--report", "s2"]).status == 0)
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("s2/frames/junk.png"), withIntermediateDirectories: true)
        let merge = try p.run(["merge-reports", "s1", "s2", "--report", "s1"])
        #expect(merge.status == 2 && FileManager.default.fileExists(atPath: p.root.appendingPathComponent("s1/results.json").path), "\(merge)")
        // The target named another way ($PWD/s1) is still that input: its images are kept and linked.
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("s2/frames/junk.png"))
        try p.write("small", Project.scenario("small", color: "#FF0000"))
        // (One shard holds the changed scenario: it fails, the other passes.)
        let shards = try ["1/2", "2/2"].map { try p.run(["check", "--record", "never", "--quiet", "--shard", $0, "--report", $0 == "1/2" ? "s1" : "s2"]).status }
        #expect(shards.sorted() == [0, 1], "\(shards)")
        let spelled = try p.run(["merge-reports", p.root.appendingPathComponent("s1").path, "s2", "--report", "s1"])
        #expect(spelled.status == 1, "\(spelled)")
        let merged = try String(contentsOf: p.root.appendingPathComponent("s1/results.json"), encoding: .utf8)
        let images = merged.matches(of: /"(actual|expected|diff|thumbnail)": "([^"]+)"/).map { String($0.2) }
        #expect(!images.isEmpty)
        for image in images { #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("s1/" + image).path), "\(image)") }
    }

    @Test("results and reports are identical for any number of jobs")
    func jobsDoNotMatter() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two", frames: 9)])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("two", Project.scenario("two", color: "#FF00FF", frames: 9))
        var outputs: [String] = []
        for jobs in ["1", "2", "7"] {
            let r = try p.run(["check", "--record", "never", "--jobs", jobs, "--json", "-", "--quiet", "--report", "r\(jobs)"])
            #expect(r.status == 1)
            outputs.append(r.stdout)
            let junit = try p.run(["check", "--record", "never", "--jobs", jobs, "--quiet", "--junit", "j\(jobs).xml", "--report", "s"])
            _ = junit
        }
        // Timings are measurements, the only fields that may differ between runs.
        func untimed(_ s: String) -> String {
            s.replacingOccurrences(of: #""(seconds|started)": [^,\n]*"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #" (time|timestamp)="[^"]*""#, with: "", options: .regularExpression)
        }
        #expect(Set(outputs.map(untimed)).count == 1)
        let junits = try ["1", "2", "7"].map { try String(contentsOf: p.root.appendingPathComponent("j\($0).xml"), encoding: .utf8) }
        #expect(Set(junits.map(untimed)).count == 1)
    }

    @Test("under GitHub Actions failures become ::error annotations and a step summary")
    func githubActions() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        let summary = p.root.appendingPathComponent("summary.md")
        _ = FileManager.default.createFile(atPath: summary.path, contents: Data("# earlier step\n".utf8))
        let r = try p.run(["check", "--record", "never"], env: ["CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("::error file=Fixtures/scenarios/one.yaml,line=8,col=5,title=NavReel one/tiny::4 of 5 frames failed"), "\(r.stdout)")
        let md = try String(contentsOf: summary, encoding: .utf8)
        #expect(md.hasPrefix("# earlier step\n"), "appended, not overwritten")
        #expect(md.contains("## NavReel: failed") && md.contains("| one | tiny | 5 | 1 | 4 | 0 | 0 |"))
    }

    @Test("a filter or device that selects nothing is a usage error with a suggestion")
    func selectsNothing() throws {
        let p = try Project(["wechat-pop": Project.scenario("wechat-pop")])
        defer { p.remove() }
        let filter = try p.run(["check", "--filter", "wechat-pip"])
        #expect(filter.status == 2 && filter.stderr.contains("no scenario matches --filter wechat-pip (did you mean `wechat-pop`?)"), "\(filter)")
        let device = try p.run(["check", "--device", "tinny"])
        #expect(device.status == 2 && device.stderr.contains("no scenario uses device `tinny` (did you mean `tiny`?)"), "\(device)")
        let render = try p.run(["render", "--out", "o", "--device", "iphone-15"])
        #expect(render.status == 2)
        // More shards than scenarios: an empty shard passes.
        #expect(try p.run(["check", "--shard", "2/2"]).status == 0)
    }

    @Test("frames without a baseline print one line with the command that records them, then one line for the rest")
    func foldedMissing() throws {
        let p = try Project(["one": Project.scenario("one", frames: 9)])
        defer { p.remove() }
        let r = try p.run(["check", "--record", "never"])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("MISSING one/tiny") }.count == 1 && r.stdout.contains("MISSING one/tiny frame 0 ("), "\(r.stdout)")
        #expect(r.stdout.contains("  (8 more frames without a baseline: 1...8; the same command records them)"), "\(r.stdout)")
        let every = try p.run(["check", "--record", "never", "--verbose"])
        #expect(every.stdout.split(separator: "\n").filter { $0.contains("MISSING one/tiny") }.count == 9, "\(every.stdout)")
        #expect(r.stdout.contains("run `navreel check --record missing --filter one` or"), "\(r.stdout)")
        // Folders a navreel.yaml names are left out of the command, which finds the same file.
        try FileManager.default.moveItem(at: p.root.appendingPathComponent("Fixtures/scenarios"), to: p.root.appendingPathComponent("s"))
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("b"), withIntermediateDirectories: true)
        try Data("scenarios: s\nbaselines: b\n".utf8).write(to: p.root.appendingPathComponent("navreel.yaml"))
        let project = try p.run(["check", "--record", "never"])
        #expect(project.stdout.contains("run `navreel check --record missing --filter one` or"), "\(project.stdout)")
        try FileManager.default.createDirectory(at: p.baselines, withIntermediateDirectories: true)
        let flags = try p.run(["check", "--record", "never", "--baselines", "Baselines"])
        #expect(flags.stdout.contains("--filter one --baselines Baselines` or"), "a folder the file does not name stays: \(flags.stdout)")
    }

    @Test("past three failing frames of one step, the console folds the rest into one line; --verbose prints each")
    func foldedFailures() throws {
        let p = try Project(["one": Project.scenario("one", frames: 9)])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000", frames: 9))
        let r = try p.run(["check", "--record", "never"])
        #expect(r.status == 1)
        // The push's frames 1-7 fail (8 is the next screen at rest): 1, 2 and 3, then one line for 4-7.
        for k in 1...3 { #expect(r.stdout.contains("FAIL one/tiny frame \(k) ("), "\(r.stdout)") }
        #expect(!r.stdout.contains("FAIL one/tiny frame 4 ("), "\(r.stdout)")
        let folded = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  ... and ") }
        #expect(folded.count == 1 && folded[0].hasPrefix("  ... and 4 more failing frames of the same step (frames 4-7), most at frame 4: ")
                && folded[0].hasSuffix("pixels mismatched; --verbose prints each"), "\(folded)")
        let every = try p.run(["check", "--record", "never", "--verbose"])
        for k in 1...7 { #expect(every.stdout.contains("FAIL one/tiny frame \(k) ("), "\(every.stdout)") }
        #expect(!every.stdout.contains("more failing frame"), "\(every.stdout)")
        // Steps written on one line are told apart by their column: a push and a pop there are two.
        let oneLine = """
        devices: [\(Project.device)]
        fps: 10
        capture: bar
        screens: {a: {title: A}, b: {title: B, bar: {color: "#00FF00", translucent: false}}}
        steps: [{show: a}, {push: b, duration: 0.6, curve: linear}, {pop: {}, duration: 0.6, curve: linear}]
        """
        try p.write("one", oneLine)
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", oneLine.replacingOccurrences(of: "#00FF00", with: "#0000FF"))
        let two = try p.run(["check", "--record", "never"])
        let folds = two.stdout.split(separator: "\n").filter { $0.hasPrefix("  ... and ") }
        #expect(folds.count == 2, "one fold for the push, one for the pop: \(two.stdout)")
        #expect(two.stdout.contains("one.yaml:5:21)") && two.stdout.contains("one.yaml:5:62)"), "\(two.stdout)")
    }

    @Test("list shows scenarios, devices and frames")
    func list() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two", frames: 3)])
        defer { p.remove() }
        let r = try p.run(["list"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("one\ttiny\t5 frames") && r.stdout.contains("two\ttiny\t3 frames") && r.stdout.contains("8 frames"))
    }
}
