import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// navreel.yaml, --filter text, --last-failed, list --json, shards by frame count.
@Suite("project file and selection", .serialized)
struct ProjectFileTests {
    /// A repository with its own layout: scenarios and baselines elsewhere, described once.
    @Test("navreel.yaml sets folders, devices, tolerance and report outputs; flags win")
    func projectFile() throws {
        let p = try Project([:])
        defer { p.remove() }
        let dir = p.root.appendingPathComponent("ui/scenarios")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Project.scenario("one").write(to: dir.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        try """
        scenarios: ui/scenarios
        baselines: ui/approved
        report: {folder: out/report, junit: out/junit.xml}
        tolerance: {maxDiffPixels: 0}
        """.write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        #expect(try p.run(["record", "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("ui/approved/one/tiny/0000.png").path))
        let check = try p.run(["check", "--record", "never"])
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("report: out/report/index.html"))
        #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("out/junit.xml").path))
        // From a subfolder the file above is found and its paths stay relative to it.
        let sub = p.root.appendingPathComponent("ui")
        let fromSub = try CLI.run(["check", "--record", "never", "--quiet"], environment: ["CI": ""], in: sub)
        #expect(fromSub.status == 0, "\(fromSub)")
        let list = try CLI.run(["list"], environment: [:], in: sub)
        #expect(list.stdout.contains("one\ttiny\t5 frames"), "\(list)")
        // A flag wins over the file.
        #expect(try p.run(["check", "--record", "never", "--baselines", "elsewhere"]).status == 1)

        // The report's approve command leaves out the file's folders, so it works from any folder of the project.
        try Project.scenario("one", color: "#FF0000").write(to: dir.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let page = try String(contentsOf: p.root.appendingPathComponent("out/report/index.html"), encoding: .utf8)
        #expect(page.contains(#""approve":"navreel approve --filter one""#), "\(page.prefix(0))")
        // A folder below the working one named like the report's baselines must not catch the frames.
        let trap = dir.appendingPathComponent("ui/approved")
        try FileManager.default.createDirectory(at: trap, withIntermediateDirectories: true)
        let approve = try CLI.run(["approve", "--filter", "one"], environment: ["CI": ""], in: dir)
        #expect(approve.status == 0 && approve.stdout.contains("frames approved") && !approve.stderr.contains("warning"), "\(approve)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: trap.path).isEmpty)
        #expect(try CLI.run(["check", "--record", "never", "--quiet"], environment: ["CI": ""], in: sub).status == 0)

        // Without scenarios in the file, the default folders are the file's folder's, from anywhere below it.
        try "devices: [tiny]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("Fixtures/scenarios"), withIntermediateDirectories: true)
        try Project.scenario("two").write(to: p.root.appendingPathComponent("Fixtures/scenarios/two.yaml"), atomically: true, encoding: .utf8)
        let defaults = try CLI.run(["record", "--quiet"], environment: ["CI": ""], in: sub)
        #expect(defaults.status == 0, "\(defaults)")
        #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("Baselines/two/tiny/0000.png").path))
        // Values the file gave that are wrong are the file's errors, at its line.
        try "scenarios: ui/scenarioz\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let folder = try p.run(["check"])
        #expect(folder.status == 2 && folder.stderr.contains("navreel.yaml:1:12: scenarios: ui/scenarioz: no such folder"), "\(folder)")
        // A misspelt baselines folder is an error for check (it made a new tree beside the real one); record makes it.
        try "scenarios: ui/scenarios\nbaselines: ui/aproved\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let typo = try p.run(["check"])
        #expect(typo.status == 2 && typo.stderr.contains("navreel.yaml:2:12: baselines: ui/aproved: no such folder"), "\(typo)")
        #expect(!FileManager.default.fileExists(atPath: p.root.appendingPathComponent("ui/aproved").path))
        #expect(try p.run(["record", "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("ui/aproved/one/tiny/0000.png").path))
        // check asked to write baselines makes it too; by its default it does not.
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("ui/aproved"))
        #expect(try p.run(["check", "--quiet"], env: ["CI": "", "NAVREEL_RECORD": "missing"]).status == 1)
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("ui/aproved"))
        #expect(try p.run(["check", "--record", "all", "--quiet"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("ui/aproved/one/tiny/0000.png").path))
        try "scenarios: ui/scenarios\ndevices: [tinyy]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let device = try p.run(["check"])
        #expect(device.status == 2 && device.stderr.contains("navreel.yaml:2:10: devices: no scenario uses device `tinyy` (did you mean `tiny`?)"), "\(device)")
    }

    @Test("a damaged navreel.yaml is a usage error naming file, line and key")
    func damagedProjectFile() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        try "scenarios: Fixtures/scenarios\nbaseline: B\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let r = try p.run(["check"])
        #expect(r.status == 2 && r.stderr.contains("navreel.yaml:2:1: unknown key `baseline` (did you mean `baselines`?)"), "\(r)")
        try "tolerance: {channel: \"3\"}\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let quoted = try p.run(["check"])
        #expect(quoted.status == 2 && quoted.stderr.contains("navreel.yaml:1:22: `channel` takes a whole number, not the text `3`"), "\(quoted)")
        try "tolerance: {perceptual: 3}\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let t = try p.run(["check"])
        #expect(t.status == 2 && t.stderr.contains("navreel.yaml:1:"), "\(t)")
        try "report: [a\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let y = try p.run(["list"])
        #expect(y.status == 2 && y.stderr.contains("navreel.yaml: not valid YAML"), "\(y)")
    }

    @Test("--filter takes plain text as a substring and wildcards as a glob")
    func filters() throws {
        #expect(Glob.matches("wechat", "wechat-pop-zh") && Glob.matches("pop", "wechat-pop") && !Glob.matches("pip", "wechat-pop"))
        #expect(Glob.matches("wechat*", "wechat-pop") && !Glob.matches("*zh", "wechat-pop"))
        #expect(Glob.matches(Glob.exact("wechat-pop"), "wechat-pop") && !Glob.matches(Glob.exact("wechat-pop"), "wechat-pop-zh"))
        let p = try Project(["alpha-one": Project.scenario("alpha-one"), "beta": Project.scenario("beta")])
        defer { p.remove() }
        let r = try p.run(["list", "--filter", "one"])
        #expect(r.stdout.contains("alpha-one") && !r.stdout.contains("beta"), "\(r)")
    }

    @Test("--last-failed checks only the scenarios that failed last time")
    func lastFailed() throws {
        let p = try Project(["one": Project.scenario("one"), "one-b": Project.scenario("one-b"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["check", "--last-failed"]).status == 2, "no results yet: a usage error")
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let again = try p.run(["check", "--record", "never", "--last-failed", "--verbose"])
        #expect(again.status == 1 && again.stdout.contains("one/tiny:") && !again.stdout.contains("one-b/tiny:") && !again.stdout.contains("two/tiny:"), "\(again)")
        try p.write("one", Project.scenario("one"))
        #expect(try p.run(["check", "--record", "never", "--last-failed"]).status == 0)
        let none = try p.run(["check", "--record", "never", "--last-failed"])
        #expect(none.status == 0 && none.stdout.contains("no scenario failed"), "\(none)")

        // The failing scenario renamed since: the message names it, not the exact filter used inside.
        try p.write("two", Project.scenario("two", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("Fixtures/scenarios/two.yaml"))
        try p.write("twoo", Project.scenario("twoo"))
        let renamed = try p.run(["check", "--record", "never", "--last-failed"])
        #expect(renamed.status == 2 && renamed.stderr.contains("--last-failed: `two` failed in the last run, but no scenario in Fixtures/scenarios has that name now")
                && renamed.stderr.contains("twoo") && !renamed.stderr.contains("[t]wo"), "\(renamed)")
    }

    @Test("approve reads the report's relative paths from the folder its check worked in, not the project's")
    func approveFromWhereCheckRan() throws {
        let p = try Project([:])
        defer { p.remove() }
        try "".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("Baselines"), withIntermediateDirectories: true)
        let sub = p.root.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub.appendingPathComponent("scen"), withIntermediateDirectories: true)
        try Project.scenario("one").write(to: sub.appendingPathComponent("scen/one.yaml"), atomically: true, encoding: .utf8)
        let flags = ["--scenarios", "scen", "--baselines", "Baselines", "--report", "rep"]
        #expect(try CLI.run(["record", "--quiet"] + flags, environment: ["CI": ""], in: sub).status == 0)
        try Project.scenario("one", color: "#FF0000").write(to: sub.appendingPathComponent("scen/one.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["check", "--record", "never", "--quiet"] + flags, environment: ["CI": ""], in: sub).status == 1)
        let approve = try CLI.run(["approve", "--report", "rep"], environment: ["CI": ""], in: sub)
        #expect(approve.status == 0 && approve.stdout.contains("approved Baselines/one/tiny/0000.png"), "\(approve)")
        #expect(FileManager.default.fileExists(atPath: sub.appendingPathComponent("Baselines/one/tiny/0000.png").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: p.root.appendingPathComponent("Baselines").path).isEmpty)
    }

    @Test("list shows the runs check would make: --device, else navreel.yaml's devices, checked as check checks them")
    func listDevices() throws {
        let p = try Project(["one": DataSafetyCLITests.twoDevices])
        defer { p.remove() }
        let all = try p.run(["list"])
        #expect(all.status == 0 && all.stdout.contains("one\ttiny") && all.stdout.contains("one\twide"), "\(all)")
        let wide = try p.run(["list", "--device", "wide"])
        #expect(wide.status == 0 && !wide.stdout.contains("one\ttiny") && wide.stdout.contains("one\twide"), "\(wide)")
        try "devices: [tiny]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let project = try p.run(["list"])
        #expect(project.status == 0 && project.stdout.contains("one\ttiny") && !project.stdout.contains("one\twide"), "\(project)")
        try "devices: [tinyy]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let wrong = try p.run(["list"])
        #expect(wrong.status == 2 && wrong.stderr.contains("navreel.yaml:1:10: devices: no scenario uses device `tinyy` (did you mean `tiny`?)"), "\(wrong)")
    }

    @Test("list --json is one object with every run and the total")
    func listJSON() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two", frames: 9)])
        defer { p.remove() }
        let r = try p.run(["list", "--json"])
        #expect(r.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(object["frames"] as? Int == 14)
        #expect((object["runs"] as? [[String: Any]])?.map { $0["scenario"] as? String } == ["one", "two"])
    }

    @Test("--last-failed reruns a shard's failures from its own report, within --filter, and a scenario file that did not load counts as failed")
    func lastFailedShardsAndSelection() throws {
        let p = try Self.shardsFailing(["d"])
        defer { p.remove() }
        // CI's retry of the failed shard: d again (it was split anew among the failures alone,
        // which put it in shard 1, so shard 2 ran nothing and passed).
        let retry = try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r2", "--last-failed", "--verbose"])
        #expect(retry.status == 1 && retry.stdout.contains("d/tiny:") && !retry.stdout.contains("b/tiny:"), "\(retry)")
        // --filter narrows the failures; one that matches none of them leaves nothing to check.
        let narrowed = try p.run(["check", "--record", "never", "--report", "r2", "--last-failed", "--filter", "b"])
        #expect(narrowed.status == 0 && narrowed.stdout.contains("the scenarios that failed there (d) do not match --filter b; nothing to check")
                && !narrowed.stdout.contains("b/tiny"), "\(narrowed)")
        let kept = try p.run(["check", "--record", "never", "--report", "r2", "--last-failed", "--filter", "d", "--verbose"])
        #expect(kept.status == 1 && kept.stdout.contains("d/tiny:") && !kept.stdout.contains("a/tiny:"), "\(kept)")
        // A scenario file that does not load: its run exited 2, and --last-failed takes it again.
        try p.write("d", Project.scenario("d", frames: 20) + "  - bogus: 1\n")
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 2)
        let broken = try p.run(["check", "--record", "never", "--last-failed"])
        #expect(broken.status == 2 && broken.stderr.contains("d.yaml:") && !broken.stdout.contains("no scenario failed"), "\(broken)")
        #expect(SuiteResult.scenarioOfError("Fixtures/scenarios/d.yaml:27:5: error: unknown key `bogus`") == "d")
        #expect(SuiteResult.scenarioOfError("navreel: error: a shard is missing") == nil)
    }

    @Test("--last-failed into its own report keeps the runs it does not rerun: a retried shard merges whole, a failing run --filter left out keeps its images for approve")
    func lastFailedKeepsTheRest() throws {
        let p = try Self.shardsFailing(["c", "d"])
        defer { p.remove() }
        let started = try Self.results(p, "r2")["started"] as? String
        // d is mended and retried alone; c still fails, and is not rerun.
        try p.write("d", Project.scenario("d", frames: 20))
        let retry = try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r2", "--last-failed", "--filter", "d"])
        #expect(retry.status == 0 && retry.stdout.contains("20 frames in 1 run: 20 passed")
                && retry.stdout.contains("the report keeps the last run's other 2 runs, not rerun (1 of them with frames that did not pass)"), "\(retry)")
        let kept = try Self.results(p, "r2")
        let runs = kept["runs"] as! [[String: Any]]
        #expect(runs.map { $0["scenario"] as! String } == ["b", "c", "d"])
        #expect(runs.map { $0["carriedFrom"] as? String } == [started, started, nil] && started != nil)
        let cFrames = runs[1]["frames"] as! [[String: Any]]
        let bFrames = runs[0]["frames"] as! [[String: Any]]
        let cFailed = cFrames.filter { $0["status"] as? String == "failed" }
        #expect(!cFailed.isEmpty && (kept["summary"] as? [String: Any])?["failed"] as? Int == cFailed.count
                && (kept["summary"] as? [String: Any])?["verdict"] as? String == "failed")
        #expect((kept["notes"] as? [String])?.first?.contains("the report's other 2 runs are the last run's, not rerun") == true, "\(kept)")
        // c's images and b's thumbnails are still there, and the page marks both.
        for path in [cFailed.first?["actual"], cFailed.first?["expected"], cFailed.first?["diff"], bFrames[0]["thumbnail"]] {
            let file = try #require(path as? String)
            #expect(FileManager.default.fileExists(atPath: p.root.appendingPathComponent("r2/" + file).path), "\(file)")
        }
        let page = try String(contentsOf: p.root.appendingPathComponent("r2/index.html"), encoding: .utf8)
        #expect(page.contains("\"carriedFrom\"") && page.contains("not rerun"))
        // The merge holds every run of both shards (it held a and d alone), c still failing.
        let merged = try p.run(["merge-reports", "r1", "r2", "--report", "m"])
        #expect(merged.status == 1 && merged.stdout.contains("60 frames in 4 runs: \(60 - cFailed.count) passed, \(cFailed.count) failed"), "\(merged)")
        // The carried failure is approved from the images the retry kept.
        let approve = try p.run(["approve", "--report", "r2", "--filter", "c"])
        #expect(approve.status == 0 && approve.stdout.contains("approved"), "\(approve)")
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 0)
        // Only runs the suite still makes, from their files as they are: a retry after b's file
        // changed leaves b out and says so (its result described the file before), and c, whose
        // file no longer loads, is the rerun's error, not a failure carried beside it.
        try p.write("c", Project.scenario("c", color: "#FF00FF", frames: 5))
        #expect(try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r3", "--quiet"]).status == 1)
        try p.write("b", Project.scenario("b", frames: 6))
        try p.write("c", Project.scenario("c", frames: 5) + "  - bogus: 1\n")
        let changed = try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r3", "--last-failed"])
        #expect(changed.status == 2 && changed.stdout.contains("the report keeps the last run's other 1 run, not rerun; it leaves out the last run's b/tiny (its file changed since): check it again"),
                "\(changed)")
        let r3 = try Self.results(p, "r3")
        #expect((r3["runs"] as! [[String: Any]]).map { $0["scenario"] as! String } == ["d"], "\(r3)")
        #expect((r3["scenarioErrors"] as? [String])?.contains { $0.contains("c.yaml") } == true
                && (r3["notes"] as? [String])?.contains { $0.contains("Not in this report, though the last run's results had them: b/tiny (its file changed since)") } == true, "\(r3)")
        try p.write("b", Project.scenario("b", frames: 5))
        try p.write("c", Project.scenario("c", color: "#00FF00", frames: 5))   // as approved above

        // Results of another split are not carried into this run's report: a retry without
        // --shard from shard 2's report holds its own runs alone.
        try p.write("b", Project.scenario("b", color: "#0000FF", frames: 5))
        #expect(try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r2", "--quiet"]).status == 1)
        #expect(try p.run(["check", "--record", "never", "--report", "r2", "--last-failed", "--quiet"]).status == 1)
        let unsplit = try Self.results(p, "r2")["runs"] as! [[String: Any]]
        #expect(unsplit.map { $0["scenario"] as! String } == ["b"] && unsplit.allSatisfy { $0["carriedFrom"] == nil })
    }

    /// Scenarios a (30 frames: shard 1 of 2), b, c (5) and d (20: shard 2 with b and c,
    /// ShardPlan's `shardBalance`), recorded; then `failing` redrawn in another colour (c green,
    /// d red) and each shard checked into its own report, r1 and r2.
    static func shardsFailing(_ failing: [String]) throws -> Project {
        let frames = ["a": 30, "b": 5, "c": 5, "d": 20]
        let p = try Project(Dictionary(uniqueKeysWithValues: frames.map { ($0.key, Project.scenario($0.key, frames: $0.value)) }))
        #expect(try p.run(["record", "--quiet"]).status == 0)
        for name in failing { try p.write(name, Project.scenario(name, color: name == "c" ? "#00FF00" : "#FF0000", frames: frames[name]!)) }
        #expect(try p.run(["check", "--record", "never", "--shard", "1/2", "--report", "r1", "--quiet"]).status == 0)
        #expect(try p.run(["check", "--record", "never", "--shard", "2/2", "--report", "r2", "--quiet"]).status == 1)
        return p
    }

    static func results(_ p: Project, _ report: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: p.root.appendingPathComponent(report + "/results.json"))) as! [String: Any]
    }

    @Test("--last-failed with several devices (navreel.yaml's) reruns the failures on those their scenarios use; none of theirs leaves nothing to check; a shard's own report is rerun whole")
    func lastFailedDevicesAndOwnShard() throws {
        // `one` runs on tiny and wide (8 frames), `two` on tiny alone (20 frames: shard 1 of 2).
        let p = try Project(["one": DataSafetyCLITests.twoDevices, "two": Project.scenario("two", frames: 20)])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("two", Project.scenario("two", color: "#FF0000", frames: 20))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let both = try p.run(["check", "--record", "never", "--last-failed", "--device", "tiny", "--device", "wide", "--verbose"])
        #expect(both.status == 1 && both.stdout.contains("two/tiny:") && !both.stdout.contains("one/"), "\(both)")
        try "devices: [tiny, wide]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let project = try p.run(["check", "--record", "never", "--last-failed", "--verbose"])
        #expect(project.status == 1 && project.stdout.contains("two/tiny:"), "\(project)")
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("navreel.yaml"))
        let wide = try p.run(["check", "--record", "never", "--last-failed", "--device", "wide"])
        #expect(wide.status == 0 && wide.stdout.contains("the scenarios that failed (two) do not run on device `wide`; nothing to check"), "\(wide)")
        let typo = try p.run(["check", "--record", "never", "--last-failed", "--device", "tiny", "--device", "wdie"])
        #expect(typo.status == 2 && typo.stderr.contains("no scenario uses device `wdie`"), "\(typo)")

        // A shard's own report: its failures are rerun whatever today's plan (a scenario added
        // since, the largest, takes shard 1 of a new plan and moves `two` to shard 2).
        #expect(try p.run(["check", "--record", "never", "--shard", "1/2", "--report", "s1", "--verbose"]).stdout.contains("two/tiny"))
        try p.write("big", Project.scenario("big", frames: 40))
        let retry = try p.run(["check", "--record", "never", "--shard", "1/2", "--report", "s1", "--last-failed", "--verbose"])
        #expect(retry.status == 1 && retry.stdout.contains("two/tiny:") && !retry.stdout.contains("big/"), "\(retry)")
    }

    @Test("a shard count past the scenarios gives empty shards; one past 10000 is a usage error, not an allocation of that size")
    func largeShardCounts() throws {
        let p = try Project(["a": Project.scenario("a"), "b": Project.scenario("b")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        let empty = try p.run(["check", "--record", "never", "--shard", "9/10000", "--quiet"])
        #expect(empty.status == 0 && empty.stdout.contains("0 frames"), "\(empty)")
        let first = try p.run(["check", "--record", "never", "--shard", "1/10000", "--quiet"])
        #expect(first.status == 0 && first.stdout.contains("5 frames in 1 run"), "\(first)")
        for spec in ["1/99999999999", "9223372036854775807/9223372036854775807", "1/10001"] {
            let r = try p.run(["check", "--record", "never", "--shard", spec])
            #expect(r.status == 2 && r.stderr.contains("N <= 10000"), "\(spec): \(r)")
        }
        #expect(ShardPlan.assign([], shards: 1_000_000_000, index: 3).isEmpty)
    }

    @Test("approve with a selection that names no run of the report is a usage error; one that names passing runs only is a warning")
    func approveSelection() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let typo = try p.run(["approve", "--filter", "onee"])
        #expect(typo.status == 2 && typo.stderr.contains("no run of the report .navreel/report matches --filter onee; its runs: one/tiny, two/tiny")
                && !typo.stdout.contains("frames approved"), "\(typo)")
        let device = try p.run(["approve", "--device", "iphone-99"])
        #expect(device.status == 2, "\(device)")
        let passing = try p.run(["approve", "--filter", "two"])
        #expect(passing.status == 0 && passing.stderr.contains("warning: no failing or missing frame of the report matches --filter two"), "\(passing)")
        // A frame number edited in results.json is refused, and nothing is written.
        let results = p.report.appendingPathComponent("results.json")
        let text = try String(contentsOf: results, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""index": 1,"#, with: #""index": -5,"#)
        try #require(edited != text)
        try edited.write(to: results, atomically: true, encoding: .utf8)
        let tampered = try p.run(["approve"])
        #expect(tampered.status == 2 && tampered.stderr.contains("frame -5 of one/tiny is not a frame number NavReel writes"), "\(tampered)")
        #expect(!FileManager.default.fileExists(atPath: p.baselines.appendingPathComponent("one/tiny/00-5.png").path))
    }

    @Test("shards are balanced by frame count and together cover every scenario once")
    func shardBalance() throws {
        let p = try Project(["a": Project.scenario("a", frames: 30), "b": Project.scenario("b", frames: 5), "c": Project.scenario("c", frames: 5),
                             "d": Project.scenario("d", frames: 20)])
        defer { p.remove() }
        let catalog = try ScenarioCatalog(directory: p.root.appendingPathComponent("Fixtures/scenarios").path)
        let counts = ["a": 30, "b": 5, "c": 5, "d": 20]
        let plan = ShardPlan.assign(catalog.scenarios.map { ($0, counts[$0.name]!) }, shards: 2)
        #expect(plan.map { $0.map(\.name) } == [["a"], ["b", "c", "d"]])
        // By name alone (every other scenario) the shards would hold 35 and 25 frames.
        var seen: [String] = []
        for k in 1...2 {
            let run = try p.run(["record", "--shard", "\(k)/2", "--verbose", "--report", "r\(k)"])
            seen += run.stdout.split(separator: "\n").compactMap { line in line.split(separator: "/").first.map(String.init) }.filter { counts[$0] != nil }
        }
        #expect(seen.sorted() == ["a", "b", "c", "d"], "\(seen)")
    }
}
