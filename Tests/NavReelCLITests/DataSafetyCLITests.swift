import Foundation
import Testing
@testable import NavReel
import Raster

/// What the commands may delete or overwrite, and how they refuse outputs they cannot write:
/// the problems a user's audit of 2026-11-27 found (prune removing any PNG under the folder it
/// was given, `record --prune` removing the devices left out, a half-applied approve, the
/// missing-baseline hint re-recording other scenarios, raw errors after a whole run).
@Suite("what commands delete, overwrite and refuse", .serialized)
struct DataSafetyCLITests {
    /// `Project.scenario` (4 frames) on two devices.
    static let twoDevices = Project.scenario("two-devices", frames: 4)
        .replacingOccurrences(of: "devices: [\(Project.device)]",
                              with: "devices: [\(Project.device), {name: wide, width: 160, height: 160, scale: 1, statusBar: 20}]")

    static func plainPNG() throws -> Data { Data(try PNG.encode(Image(width: 4, height: 4, fill: RGBA8(1, 2, 3)))) }

    func write(_ data: Data, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    @Test("prune removes only NavReel's files in the baselines' layout, never other PNGs or what links point at")
    func pruneTouchesOnlyBaselines() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let baseline = try p.bytes("one/tiny/0000.png")
        let logo = p.baselines.appendingPathComponent("logo.png")                     // not in the layout
        let note = p.baselines.appendingPathComponent("one/tiny/screenshot.png")      // not a frame name
        let foreign = p.baselines.appendingPathComponent("gone/tiny/0000.png")        // a PNG NavReel did not write
        let orphan = p.baselines.appendingPathComponent("gone/tiny/0001.png")         // NavReel's, no scenario makes it
        let deep = p.baselines.appendingPathComponent("a/b/c/0000.png")               // one folder too deep
        try write(baseline, logo)
        try write(baseline, note)
        try write(try Self.plainPNG(), foreign)
        try write(baseline, orphan)
        try write(baseline, deep)
        // A link inside the baselines to a folder elsewhere holding a NavReel file in the layout.
        let outside = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: outside) }
        let victim = outside.appendingPathComponent("tiny/0000.png")
        try write(baseline, victim)
        try FileManager.default.createSymbolicLink(at: p.baselines.appendingPathComponent("linked"), withDestinationURL: outside)

        // A linked device folder, a linked frame file, and a hard link to a live frame (as a folder
        // named in another case is, on a case-insensitive file system: the same file).
        let linkedDevice = outside.appendingPathComponent("dev")
        try write(baseline, linkedDevice.appendingPathComponent("0000.png"))
        try FileManager.default.createSymbolicLink(at: p.baselines.appendingPathComponent("one/gone-device"), withDestinationURL: linkedDevice)
        let linkedFile = outside.appendingPathComponent("frame.png")
        try write(baseline, linkedFile)
        try FileManager.default.createSymbolicLink(at: p.baselines.appendingPathComponent("one/tiny/0050.png"), withDestinationURL: linkedFile)
        let hard = p.baselines.appendingPathComponent("One/tiny/0000.png")
        try FileManager.default.createDirectory(at: hard.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.linkItem(at: p.baselines.appendingPathComponent("one/tiny/0000.png"), to: hard)

        let dry = try p.run(["prune", "--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout.contains("would remove Baselines/gone/tiny/0001.png") && dry.stdout.contains("1 orphaned baselines (dry run)"), "\(dry)")
        #expect(dry.stdout.contains("kept Baselines/gone/tiny/0000.png: not a baseline NavReel wrote, or damaged"), "\(dry)")
        let pruned = try p.run(["prune"])
        #expect(pruned.status == 0, "\(pruned)")
        #expect(!exists(orphan))
        for kept in [logo, note, foreign, deep, victim, linkedDevice.appendingPathComponent("0000.png"), linkedFile, hard] {
            #expect(exists(kept), "\(kept.path) must stay")
        }
        #expect(p.pngs().filter { $0.hasPrefix("one/tiny/0") }.count == 6, "five frames and the link, not followed and kept")

        // The project root given as the baselines folder: nothing there is in the layout.
        let before = try FileManager.default.subpathsOfDirectory(atPath: p.root.path).sorted()
        let wrong = try p.run(["prune", "--baselines", "."])
        #expect(wrong.status == 0 && wrong.stdout.contains("0 orphaned baselines removed"), "\(wrong)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: p.root.path).sorted() == before)

        // Folders emptied by pruning go too; a folder still holding a file stays.
        try FileManager.default.removeItem(at: foreign)
        let gone = p.baselines.appendingPathComponent("gone2/tiny/0003.png")
        try write(baseline, gone)
        #expect(try p.run(["prune"]).status == 0)
        #expect(!exists(gone.deletingLastPathComponent().deletingLastPathComponent()), "an emptied scenario folder is removed")
        #expect(exists(p.baselines.appendingPathComponent("one/tiny")))
    }

    @Test("record --prune under --device, --shard or navreel.yaml's devices removes only frames no scenario makes")
    func recordPruneKeepsUnselected() throws {
        let p = try Project(["one": Self.twoDevices, "two": Self.twoDevices.replacingOccurrences(of: "title: A", with: "title: Z")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let all = p.pngs()
        #expect(all.count == 16, "\(all)")   // 2 scenarios x 2 devices x 4 frames
        let frame = try p.bytes("one/tiny/0000.png")
        let stale = p.baselines.appendingPathComponent("one/tiny/0007.png")
        let dropped = p.baselines.appendingPathComponent("two/old-device/0000.png")   // a device no scenario declares

        // Each selection renders less, but what the others make stays and what nobody makes goes.
        try "devices: [wide]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        for args in [["record", "--prune", "--device", "wide"], ["record", "--prune", "--shard", "1/2"], ["record", "--prune"]] {
            try write(frame, stale)
            try write(frame, dropped)
            let r = try p.run(args)
            #expect(r.status == 0 && r.stdout.contains("2 removed"), "\(args): \(r)")
            #expect(p.pngs() == all, "\(args)")
        }
        try FileManager.default.removeItem(at: p.root.appendingPathComponent("navreel.yaml"))
        // check names the orphans of the whole folder under a device selection too.
        try write(frame, stale)
        let note = try p.run(["check", "--record", "never", "--device", "wide"])
        #expect(note.status == 0 && note.stdout.contains("1 orphaned baseline (no scenario produces it): Baselines/one/tiny/0007.png"), "\(note)")
        // The page's results say both: the orphan, and that --device made this run a selection.
        let results = try String(contentsOf: p.report.appendingPathComponent("results.json"), encoding: .utf8)
        #expect(results.contains("1 orphaned baseline (no scenario produces it): Baselines/one/tiny/0007.png"), "\(results)")
        #expect(results.contains("This run checked a selection of the suite, not all of it: --device wide."), "\(results)")
        // With a filter, only that scenario's folders are looked at.
        try write(frame, dropped)
        let filtered = try p.run(["record", "--prune", "--filter", "one"])
        #expect(filtered.status == 0 && filtered.stdout.contains("1 removed") && exists(dropped), "\(filtered)")

        // A scenario file that no longer parses: record --prune refuses to prune (its frames would look orphaned).
        try FileManager.default.removeItem(at: dropped)
        try p.write("two", "devices: [oops")
        let broken = try p.run(["record", "--prune", "--filter", "one"])
        #expect(broken.status == 0, "a filter that leaves the broken file out prunes as usual: \(broken)")
        let refused = try p.run(["record", "--prune"])
        #expect(refused.status == 2 && refused.stderr.contains("not pruning"), "\(refused)")
        #expect(p.pngs() == all)
        // check does not advise removing the broken scenario's baselines: it names the file to mend.
        let mend = try p.run(["check", "--record", "never"])
        #expect(mend.stdout.contains("8 baselines no valid scenario produces") && mend.stdout.contains("probably those of Fixtures/scenarios/two.yaml, which has errors")
                && !mend.stdout.contains("remove them with"), "\(mend)")
    }

    @Test("prune refuses when the scenarios and baselines folders do not belong together")
    func pruneRefusesMismatchedFolders() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let all = p.pngs()
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try p.run(["prune", "--scenarios", "empty"])
        #expect(empty.status == 2 && empty.stderr.contains("no scenario files in empty"), "\(empty)")
        let other = p.root.appendingPathComponent("other/scenarios")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Project.scenario("elsewhere").write(to: other.appendingPathComponent("elsewhere.yaml"), atomically: true, encoding: .utf8)
        let mismatched = try p.run(["prune", "--scenarios", "other/scenarios"])
        #expect(mismatched.status == 2 && mismatched.stderr.contains("none of the 5 baselines in Baselines is a frame of the scenarios in other/scenarios"),
                "\(mismatched)")
        #expect(p.pngs() == all)
    }

    @Test("prune --filter looks only at the folders it names, those of deleted scenarios too; no match is exit 2")
    func pruneFilter() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let frame = try p.bytes("one/tiny/0000.png")
        let staleOne = p.baselines.appendingPathComponent("one/tiny/0009.png")
        let staleTwo = p.baselines.appendingPathComponent("two/tiny/0009.png")
        let deleted = p.baselines.appendingPathComponent("old-three/tiny/0000.png")   // a scenario since deleted
        for url in [staleOne, staleTwo, deleted] { try write(frame, url) }

        let dry = try p.run(["prune", "--dry-run", "--filter", "old-*"])
        #expect(dry.status == 0 && dry.stdout.contains("would remove Baselines/old-three/tiny/0000.png")
                && dry.stdout.contains("1 orphaned baselines (dry run)"), "\(dry)")
        let one = try p.run(["prune", "--filter", "one", "--filter", "old-*"])
        #expect(one.status == 0 && one.stdout.contains("2 orphaned baselines removed"), "\(one)")
        #expect(!exists(staleOne) && !exists(deleted) && exists(staleTwo))
        #expect(!exists(deleted.deletingLastPathComponent().deletingLastPathComponent()), "the deleted scenario's emptied folder goes")
        #expect(exists(p.baselines.appendingPathComponent("one/tiny/0000.png")), "frames scenarios make stay")

        // Nothing matches: a usage error with a suggestion, nothing removed.
        let none = try p.run(["prune", "--filter", "tow"])
        #expect(none.status == 2 && none.stderr.contains("no scenario folder in Baselines matches --filter tow")
                && none.stderr.contains("two"), "\(none)")
        #expect(exists(staleTwo))
        // The refusal still holds with a filter: other scenarios' folders do not make a mismatch look right.
        let other = p.root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Project.scenario("elsewhere").write(to: other.appendingPathComponent("elsewhere.yaml"), atomically: true, encoding: .utf8)
        let mismatched = try p.run(["prune", "--scenarios", "other", "--filter", "two"])
        #expect(mismatched.status == 2 && mismatched.stderr.contains("not pruning"), "\(mismatched)")
        #expect(exists(staleTwo))
    }

    @Test("a scenarios folder without scenario files is a usage error for every command, naming files one folder down")
    func emptyScenarioFolder() throws {
        let p = try Project([:])
        defer { p.remove() }
        for command in [["check"], ["record"], ["list"], ["lint"], ["render", "--out", "r"], ["prune"]] {
            let r = try p.run(command)
            #expect(r.status == 2 && r.stderr.contains("no scenario files in Fixtures/scenarios") && r.stderr.contains("check --scenarios"),
                    "\(command): \(r)")
        }
        let sub = p.root.appendingPathComponent("Fixtures/scenarios/onboarding")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Project.scenario("feed").write(to: sub.appendingPathComponent("feed.yaml"), atomically: true, encoding: .utf8)
        let r = try p.run(["check"])
        #expect(r.status == 2 && r.stderr.contains("files in subfolders are not read (found Fixtures/scenarios/onboarding/feed.yaml)"), "\(r)")
    }

    @Test("the missing-baseline hint writes that scenario's missing frames and accepts no other change")
    func missingHintIsSafe() throws {
        let p = try Project(["one": Project.scenario("one"), "one-zh": Project.scenario("one-zh")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try FileManager.default.removeItem(at: p.baselines.appendingPathComponent("one/tiny/0002.png"))
        try p.write("one-zh", Project.scenario("one-zh", color: "#EEEEEE"))
        let zh = try p.bytes("one-zh/tiny/0000.png")
        let check = try p.run(["check", "--record", "never"])
        #expect(check.status == 1)
        let hint = "navreel check --record missing --filter '[o]ne'"
        #expect(check.stdout.contains(hint), "\(check)")
        // Run as printed: the missing frame is written, the regression of one-zh stays a failure.
        let words = ["check", "--record", "missing", "--filter", "[o]ne"]
        let run = try p.run(words)
        #expect(run.status == 1, "\(run)")
        #expect(exists(p.baselines.appendingPathComponent("one/tiny/0002.png")))
        #expect(try p.bytes("one-zh/tiny/0000.png") == zh)
        #expect(try p.run(["check", "--record", "never", "--filter", "[o]ne"]).status == 0)
        #expect(SuiteRunner.recordMissingCommand("wechat-pop", among: ["wechat-pop", "push"]) == "navreel check --record missing --filter wechat-pop")
    }

    @Test("approve warns when a scenario file changed since the report was made")
    func approveAfterScenarioChanged() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        try p.write("two", Project.scenario("two", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let results = try String(contentsOf: p.report.appendingPathComponent("results.json"), encoding: .utf8)
        #expect(results.contains("\"fileDigest\" : \"") || results.contains("\"fileDigest\": \""), "the digest is recorded")
        let same = try p.run(["approve", "--filter", "two"])
        #expect(same.status == 0 && !same.stderr.contains("warning"), "\(same)")
        try p.write("one", Project.scenario("one", color: "#00AA00"))
        let changed = try p.run(["approve", "--filter", "one"])
        #expect(changed.status == 0 && changed.stderr.contains("navreel: warning: Fixtures/scenarios/one.yaml changed since .navreel/report was made"),
                "\(changed)")
    }

    @Test("approve warns when a scenario file is gone since the report was made; record names orphans; a killed writer's temporary is an orphan")
    func renamedScenario() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        // Renamed after the check: approve still writes what the report holds, and says it goes nowhere read.
        try FileManager.default.moveItem(at: p.root.appendingPathComponent("Fixtures/scenarios/one.yaml"),
                                         to: p.root.appendingPathComponent("Fixtures/scenarios/uno.yaml"))
        let approve = try p.run(["approve"])
        #expect(approve.status == 0 && approve.stderr.contains("warning: Fixtures/scenarios/one.yaml: no such scenario file here any more"), "\(approve)")
        // record (no --prune) names the old folder's baselines as orphans.
        let record = try p.run(["record"])
        #expect(record.status == 0 && record.stdout.contains("orphaned baselines (no scenario produces them): Baselines/one/tiny/0000.png"), "\(record)")
        #expect(record.stdout.contains("`navreel record --prune`"), "\(record)")
        // A temporary file a killed record left beside a baseline (its process gone) is an orphan; a live one's is not.
        let done = Process()
        done.executableURL = URL(fileURLWithPath: "/bin/true")
        try done.run()
        done.waitUntilExit()
        let stale = p.baselines.appendingPathComponent("two/tiny/.0001.png.\(done.processIdentifier).12345.tmp")
        let live = p.baselines.appendingPathComponent("two/tiny/.0002.png.\(getpid()).12345.tmp")
        try write(Data([1, 2, 3]), stale)
        try write(Data([1, 2, 3]), live)
        let told = try p.run(["check", "--record", "never"])
        #expect(told.stdout.contains("1 temporary file a killed run left (Baselines/two/tiny/.0001.png."), "\(told)")
        let prune = try p.run(["prune"])
        #expect(prune.status == 0 && !exists(stale) && exists(live), "\(prune)")
    }

    @Test("approve from another checkout with baselines of its own says where the frames go")
    func approveFromAnotherCheckout() throws {
        let a = try Project(["one": Project.scenario("one")]), b = try Project(["one": Project.scenario("one")])
        defer { a.remove(); b.remove() }
        #expect(try a.run(["record", "--quiet"]).status == 0)
        #expect(try b.run(["record", "--quiet"]).status == 0)
        try a.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try a.run(["check", "--record", "never", "--quiet"]).status == 1)
        let before = try b.bytes("one/tiny/0000.png")
        let r = try b.run(["approve", "--report", a.report.path])
        #expect(r.status == 0 && r.stderr.contains("warning: approving into \(a.root.path)/Baselines, the baselines of the check that made"),
                "\(r)")
        #expect(r.stderr.contains("pass --baselines Baselines to approve into this folder's"), "\(r)")
        #expect(try b.bytes("one/tiny/0000.png") == before, "this checkout's baselines are untouched")
        // From a subfolder of that checkout (navreel.yaml at its root), the same.
        try "devices: [tiny]\n".write(to: b.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let sub = b.root.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let fromSub = try CLI.run(["approve", "--report", a.report.path], environment: ["CI": ""], in: sub)
        #expect(fromSub.status == 0 && fromSub.stderr.contains("warning: approving into \(a.root.path)/Baselines"), "\(fromSub)")
        // From the checkout the check ran in, nothing to say.
        try a.write("one", Project.scenario("one", color: "#00FF00"))
        #expect(try a.run(["check", "--record", "never", "--quiet"]).status == 1)
        let same = try a.run(["approve"])
        #expect(same.status == 0 && !same.stderr.contains("approving into"), "\(same)")
    }

    @Test("a damaged baseline: the report keeps the rendered frame and approve writes it over the file")
    func approveOverDamagedBaseline() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        let file = p.baselines.appendingPathComponent("one/tiny/0002.png")
        try Data(try Data(contentsOf: file).prefix(100)).write(to: file)
        let check = try p.run(["check", "--record", "never"])
        #expect(check.status == 2 && check.stdout.contains("`navreel approve` (or `navreel record`) writes the rendered frame over it"), "\(check)")
        #expect(check.stdout.contains("navreel approve --filter one"), "the console's approve hint: \(check)")
        let approve = try p.run(["approve"])
        #expect(approve.status == 0 && approve.stdout.contains("1 frames approved"), "\(approve)")
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 0)
    }

    @Test("approve writes nothing when one of the report's frames is damaged or missing")
    func approveIsAllOrNothing() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let before = try p.pngs().map { try p.bytes($0) }
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let frames = p.report.appendingPathComponent("frames/one/tiny")
        let last = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasSuffix(".actual.png") }.sorted().last!
        let bytes = try Data(contentsOf: frames.appendingPathComponent(last))
        try bytes.prefix(bytes.count / 2).write(to: frames.appendingPathComponent(last))
        let damaged = try p.run(["approve"])
        #expect(damaged.status == 2 && damaged.stderr.contains(last), "\(damaged)")
        #expect(try p.pngs().map { try p.bytes($0) } == before, "no baseline changed")
        try FileManager.default.removeItem(at: frames.appendingPathComponent(last))
        let missing = try p.run(["approve"])
        #expect(missing.status == 2 && missing.stderr.contains(last) && !missing.stdout.contains("approved"), "\(missing)")
        #expect(try p.pngs().map { try p.bytes($0) } == before)
        // A filter that matches no run of the report is a usage error, as in check (2026-11-29).
        let none = try p.run(["approve", "--filter", "nothing-like-it"])
        #expect(none.status == 2 && none.stderr.contains("no run of the report .navreel/report matches --filter nothing-like-it"), "\(none)")
        #expect(try p.pngs().map { try p.bytes($0) } == before)
    }

    @Test("approve names each frame as it is written: one stopped part-way has said what it approved")
    func approveSaysAsItGoes() throws {
        let p = try Project(["aa": Project.scenario("aa"), "zz": Project.scenario("zz")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("aa", Project.scenario("aa", color: "#FF0000"))
        try p.write("zz", Project.scenario("zz", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        // A folder where zz's first baseline is stops approve there (the file cannot replace it).
        let blocked = p.baselines.appendingPathComponent("zz/tiny/0000.png")
        try FileManager.default.removeItem(at: blocked)
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("in-the-way"), withIntermediateDirectories: true)
        let r = try p.run(["approve"])
        #expect(r.status == 2 && r.stderr.contains("zz/tiny/0000.png: cannot write"), "\(r)")
        let said = r.stdout.split(separator: "\n").filter { $0.hasPrefix("approved ") }
        #expect(!said.isEmpty && said.allSatisfy { $0.contains("/aa/tiny/") }, "the frames written before the failure are named: \(r.stdout)")
        #expect(r.stderr.contains("(\(said.count) frames were approved before it"), "\(r)")
        #expect(!r.stdout.contains("frames approved"), "no total for a run that stopped: \(r.stdout)")
    }

    @Test("render skips a scenario file with errors, renders the rest and exits 2, as check does")
    func renderPastABrokenFile() throws {
        let p = try Project(["one": Project.scenario("one"), "two": "devices: [\(Project.device)]\nscreens: {a: {titel: A}}\nsteps:\n  - show: a\n"])
        defer { p.remove() }
        let r = try p.run(["render", "--out", "frames"])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("two.yaml:2:") && r.stderr.contains("1 scenario file has errors (above) and was not rendered"), "\(r)")
        #expect(exists(p.root.appendingPathComponent("frames/one/tiny/0004.png")), "the valid file is rendered")
        let check = try p.run(["check", "--record", "missing"])
        #expect(check.stdout.contains("1 scenario error") && !check.stdout.contains("1 scenario errors"), "\(check)")
    }

    @Test("lint, render, prune and approve take their folders from navreel.yaml")
    func projectFileEverywhere() throws {
        let p = try Project([:])
        defer { p.remove() }
        let scenarios = p.root.appendingPathComponent("UITests/nav/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try Project.scenario("one").write(to: scenarios.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        try "scenarios: UITests/nav/scenarios\nbaselines: UITests/nav/base\nreport: build/nav\n"
            .write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let lint = try p.run(["lint"])
        #expect(lint.status == 0 && lint.stdout.contains("1 scenario files: 1 valid"), "\(lint)")
        #expect(try p.run(["render", "one", "--out", "frames"]).status == 0)
        #expect(exists(p.root.appendingPathComponent("frames/one/tiny/0004.png")))
        #expect(try p.run(["record"]).status == 0)
        let base = p.root.appendingPathComponent("UITests/nav/base")
        try write(try Data(contentsOf: base.appendingPathComponent("one/tiny/0000.png")), base.appendingPathComponent("one/tiny/0042.png"))
        let prune = try p.run(["prune", "--dry-run"])
        #expect(prune.status == 0 && prune.stdout.contains("would remove UITests/nav/base/one/tiny/0042.png"), "\(prune)")
        try Project.scenario("one", color: "#00FF00").write(to: scenarios.appendingPathComponent("one.yaml"), atomically: true, encoding: .utf8)
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        let approve = try p.run(["approve"])
        #expect(approve.status == 0 && approve.stdout.contains("approved UITests/nav/base/one/tiny/"), "\(approve)")
        #expect(!exists(p.baselines), "nothing written to the default Baselines/")
        #expect(try p.run(["check", "--record", "never"]).status == 0)
    }

    @Test("an output path that cannot be written is one error, exit 2, before anything is rendered")
    func unwritableOutputs() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        let before = try p.pngs().map { try p.bytes($0) }
        try "x".write(to: p.root.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
        for (args, flag) in [(["check", "--report", "afile"], "--report afile: afile is a file, not a folder"),
                             (["check", "--junit", "afile/j.xml"], "--junit afile/j.xml: afile is a file, not a folder"),
                             (["check", "--json", "Baselines"], "--json Baselines: Baselines is a folder, not a file"),
                             (["record", "--baselines", "afile"], "--baselines afile: afile is a file, not a folder"),
                             (["render", "one", "--out", "afile/x"], "--out afile/x: afile is a file, not a folder"),
                             (["check", "--report", "out", "--junit", "out"], "--junit out: it is the --report folder; write it elsewhere"),
                             (["check", "--junit", "same.xml", "--json", "./same.xml"], "--junit same.xml: --json writes there too"),
                             (["check", "--report", "out", "--junit", "out/results.json"], "--junit out/results.json: the report writes results.json there itself"),
                             (["check", "--report", "out", "--json", "out/index.html"], "--json out/index.html: the report writes index.html there itself"),
                             (["check", "--report", "out", "--junit", "out/frames/j.xml"], "--junit out/frames/j.xml: the report writes frames/j.xml there itself"),
                             (["compare", "--actual", "Baselines/one/tiny", "--expected", "Baselines/one/tiny", "--report", "c", "--json", "c"],
                              "--json c: it is the --report folder")] {
            let r = try p.run(args)
            #expect(r.status == 2, "\(args): \(r)")
            #expect(r.stderr.contains("navreel: error: " + flag), "\(args): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "one line, not one per frame: \(r.stderr)")
            #expect(!r.stderr.contains("NSCocoaErrorDomain"))
        }
        #expect(try p.pngs().map { try p.bytes($0) } == before)
        try FileManager.default.createSymbolicLink(at: p.root.appendingPathComponent("dangling"), withDestinationURL: p.root.appendingPathComponent("nowhere"))
        let dangling = try p.run(["check", "--report", "dangling/r"])
        #expect(dangling.status == 2 && dangling.stderr.contains("--report dangling/r: dangling is a symbolic link to nothing"), "\(dangling)")
        // Paths that are fine: a new nested folder, standard output for JSON, an absolute folder.
        let fine = try p.run(["check", "--record", "never", "--report", "new/deeper/r", "--json", "-", "--junit", p.root.path + "/j/junit.xml"])
        #expect(fine.status == 0, "\(fine)")
        let frames = p.baselines.appendingPathComponent("one/tiny").path
        let compare = try p.run(["compare", "--actual", frames, "--expected", frames, "--report", "afile"])
        #expect(compare.status == 2 && compare.stderr.contains("--report afile: afile is a file, not a folder"), "\(compare)")
    }

    @Test("prune takes the run limits, so a long scenario can be pruned")
    func pruneLimits() throws {
        // 120 frames a second for 91 s: 10,921 frames, over the default of 10,000.
        let long = Project.scenario("long").replacingOccurrences(of: "fps: 4", with: "fps: 120") + "\n  - wait: 90\n"
        let p = try Project(["long": long])
        defer { p.remove() }
        let refused = try p.run(["prune", "--dry-run"])
        #expect(refused.status == 2 && refused.stderr.contains("--max-frames"), "\(refused)")
        let allowed = try p.run(["prune", "--dry-run", "--max-frames", "20000"])
        #expect(allowed.status == 0 && allowed.stdout.contains("0 orphaned baselines (dry run)"), "\(allowed)")
    }

    @Test("--jobs out of range and range errors of a run are one plain message")
    func jobsAndRangeMessages() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        let a = p.baselines.appendingPathComponent("one/tiny/0000.png").path
        for args in [["check", "--jobs", "0"], ["render", "one", "--out", "f", "--jobs", "100000"], ["diff", a, a, "--jobs", "0"]] {
            let r = try p.run(args)
            #expect(r.status == 2 && r.stderr.contains("navreel: error: --jobs takes 1 to 1024, not"), "\(args): \(r)")
            #expect(!r.stderr.contains("Usage:"), "\(r.stderr)")
        }
        let perceptual = try p.run(["check", "--perceptual", "2"])
        #expect(perceptual.status == 2 && perceptual.stderr.hasPrefix("navreel: error: --perceptual must be 0...1") && !perceptual.stderr.contains("Usage:"),
                "\(perceptual)")
        // A negative value is the flag's value, not a missing one (ArgumentParser took "-1" for
        // an option and said "Missing value" before: an audit, 2026-11-29).
        for (args, says) in [(["diff", a, a, "--jobs", "-1"], "--jobs takes 1 to 1024, not -1"),
                             (["scaffold", a, "--status-bar", "-5"], "--status-bar -5.0: a status bar is 20 to 80 pt"),
                             (["check", "--perceptual", "-0.5"], "--perceptual must be 0...1, not -0.5")] {
            let r = try p.run(args)
            #expect(r.status == 2 && r.stderr.contains(says) && !r.stderr.contains("Missing value"), "\(args): \(r)")
        }
        // A rectangle flag keeps ArgumentParser's parsing (it is never negative): a flag after it
        // with no value between is a missing value, not the rectangle.
        let crop = try p.run(["compare", "--actual", "Baselines/one/tiny", "--expected", "Baselines/one/tiny", "--crop", "--report", "r"])
        #expect(crop.status == 2 && crop.stderr.contains("Missing value for '--crop"), "\(crop)")
        // Each command names the flag, not the settings key the value would go to.
        for args in [["diff", a, a, "--max-diff-ratio", "1.5"], ["check", "--channel", "300"],
                     ["compare", "--actual", "Baselines/one/tiny", "--expected", "Baselines/one/tiny", "--max-diff-ratio", "1.5"]] {
            let r = try p.run(args)
            let flag = args[args.count - 2]
            #expect(r.status == 2 && r.stderr.hasPrefix("navreel: error: \(flag) must be 0...") && !r.stderr.contains("Usage:"), "\(args): \(r)")
        }
    }

    @Test("diff never writes its image over an input, and leaves no older image when the sizes differ")
    func diffOutput() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = dir.appendingPathComponent("small.png"), big = dir.appendingPathComponent("big.png")
        try Data(try PNG.encode(Image(width: 4, height: 4, fill: RGBA8(255, 0, 0)))).write(to: small)
        try Data(try PNG.encode(Image(width: 6, height: 4, fill: RGBA8(255, 0, 0)))).write(to: big)
        let original = try Data(contentsOf: big)
        for out in ["big.png", "./big.png"] {
            let r = try CLI.run(["diff", "small.png", "big.png", "--out", out], in: dir)
            #expect(r.status == 2 && r.stderr.contains("is the actual image"), "\(r)")
            #expect(try Data(contentsOf: big) == original)
        }
        let stale = dir.appendingPathComponent("d.png")
        try Data("an older diff".utf8).write(to: stale)
        let r = try CLI.run(["diff", "small.png", "big.png", "--out", "d.png"], in: dir)
        #expect(r.status == 1 && r.stdout.contains("no diff image: the sizes differ (removed the older d.png)"), "\(r)")
        #expect(!exists(stale))
    }

    @Test("one-character paths, which Foundation's deletingLastPathComponent traps on, are ordinary paths")
    func oneCharacterPaths() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(try PNG.encode(Image(width: 4, height: 4, fill: RGBA8(9, 9, 9)))).write(to: dir.appendingPathComponent("e"))
        // A file named e was a trap (exit 132) while the settings file beside it was looked for.
        let compare = try CLI.run(["compare", "--actual", "e", "--expected", "e", "--report", "r"], in: dir)
        #expect(compare.status == 2 && compare.stderr.contains("e: not a folder of PNGs"), "\(compare)")
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data(contentsOf: dir.appendingPathComponent("e")).write(to: dir.appendingPathComponent(folder + "/0000.png"))
        }
        let folders = try CLI.run(["compare", "--actual", "a", "--expected", "b", "--report", "r"], in: dir)
        #expect(folders.status == 0, "\(folders)")
        let diff = try CLI.run(["diff", "e", "e", "--out", "d"], in: dir)
        #expect(diff.status == 0 && FileManager.default.fileExists(atPath: dir.appendingPathComponent("d").path), "\(diff)")
        for (path, parent) in [("a", ""), (".", ""), ("a/", ""), ("a/b", "a"), ("a//b/", "a"), ("/a", "/"), ("/", "/"), ("x/y/z.png", "x/y")] {
            #expect(PathText.parent(path) == parent, "\(path)")
        }
    }

    @Test("lint of a file outside a project, and render leaving no frames of a longer earlier render")
    func lintFileAndStaleRender() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Project.scenario("solo").write(to: dir.appendingPathComponent("solo.yaml"), atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint", "solo.yaml"], in: dir)
        #expect(lint.status == 0 && lint.stdout.contains("1 valid"), "\(lint)")

        let p = try Project(["one": Project.scenario("one", frames: 5)])
        defer { p.remove() }
        #expect(try p.run(["render", "one", "--out", "f", "--maps"]).status == 0)
        let folder = p.root.appendingPathComponent("f/one/tiny")
        try "keep".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try p.write("one", Project.scenario("one", frames: 3))
        let again = try p.run(["render", "one", "--out", "f", "--maps"])
        #expect(again.status == 0 && again.stdout.contains("(6 stale files of frames past the last removed)"), "\(again)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["0000.elements.png", "0000.png", "0000.translucency.png", "0001.elements.png", "0001.png", "0001.translucency.png",
                         "0002.elements.png", "0002.png", "0002.translucency.png", "notes.txt"], "\(left)")
        // A numbered PNG render did not write stays; so does a frame of another scenario copied in.
        try Data(try PNG.encode(Image(width: 2, height: 2))).write(to: folder.appendingPathComponent("0009.png"))
        try p.write("other", Project.scenario("other", frames: 5))
        #expect(try p.run(["render", "other", "--out", "f"]).status == 0)
        try FileManager.default.copyItem(at: p.root.appendingPathComponent("f/other/tiny/0004.png"), to: folder.appendingPathComponent("0004.png"))
        #expect(try p.run(["render", "one", "--out", "f"]).status == 0)
        #expect(exists(folder.appendingPathComponent("0009.png")) && exists(folder.appendingPathComponent("0004.png")))
        // Through a linked job folder, nothing is removed.
        let elsewhere = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.copyItem(at: folder, to: elsewhere.appendingPathComponent("tiny"))
        try FileManager.default.copyItem(at: p.root.appendingPathComponent("f/other/tiny/0004.png"), to: elsewhere.appendingPathComponent("tiny/0005.png"))
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("g/other"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: p.root.appendingPathComponent("g/other/tiny"), withDestinationURL: elsewhere.appendingPathComponent("tiny"))
        try p.write("other", Project.scenario("other", frames: 3))
        #expect(try p.run(["render", "other", "--out", "g"]).status == 0)
        #expect(exists(elsewhere.appendingPathComponent("tiny/0005.png")), "not removed through the link")
    }
}
