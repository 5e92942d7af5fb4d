import Foundation
import Testing
@testable import NavReel
import Raster
import Scenario

/// `compare`, `approve` and `merge-reports` on what a second audit (2026-11-27) found: crashes on
/// a long --align and huge crop flags, crops recorded into the expected folder, approve commands
/// that reached other devices or folders, merged reports that forgot their baselines folder,
/// approve from another working folder, and the step summary of `compare`.
@Suite("compare, approve and merge: crashes, crops and what an approve command reaches", .serialized)
struct CompareSafetyCLITests {
    func frames(_ count: Int, bar: RGBA8 = RGBA8(0, 0, 255), to folder: URL) throws {
        try Recording.write((0..<count).map { Recording.frame($0, bar: bar) }, to: folder)
    }

    @Test("--align as long as a sequence, and crop flags past any image, are answers, not traps")
    func alignAndCropBounds() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try frames(1, to: dir.appendingPathComponent("e"))
        try frames(3, to: dir.appendingPathComponent("a"))
        for align in ["1", "5", "1000"] {
            let r = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--align", align, "--report", "r"], in: dir)
            #expect(r.status == 0 || r.status == 1, "--align \(align): \(r)")
        }
        let huge = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--align", "4611686018427387904", "--report", "r"], in: dir)
        #expect(huge.status == 2 && huge.stderr.contains("--align takes a number of frames, 0...1000"), "\(huge)")
        // The library bounds the search by the sequences whatever it is asked.
        #expect(SequenceComparison.bestOffset(expected: [Image(width: 1, height: 1)], actual: [Image(width: 1, height: 1)], within: Int.max) == 0)
        for flag in ["--crop-actual", "--crop-expected", "--crop", "--ignore"] {
            let r = try CLI.run(["compare", "--actual", "a", "--expected", "e", flag, "9223372036854775807,0,1,1", "--report", "r"], in: dir)
            #expect(r.status == 2 && r.stderr.contains("\(flag) takes numbers of at most 1000000"), "\(flag): \(r)")
        }
    }

    @Test("a report inside the frames compared, or one side's folder inside the other's, is refused before anything is read")
    func nestedFolders() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try frames(2, to: dir.appendingPathComponent("act"))
        try frames(2, to: dir.appendingPathComponent("exp"))
        let inReport = try CLI.run(["compare", "--actual", "act", "--expected", "exp", "--report", "exp/r"], in: dir)
        #expect(inReport.status == 2 && inReport.stderr.contains("--report exp/r is inside --expected exp"), "\(inReport)")
        let nested = try CLI.run(["compare", "--actual", "act", "--expected", "act/approved", "--record", "missing", "--report", "r"], in: dir)
        #expect(nested.status == 2 && nested.stderr.contains("--expected act/approved is inside --actual act"), "\(nested)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("act/approved").path), "nothing recorded")
        #expect(try CLI.run(["compare", "--actual", "act", "--expected", "act", "--report", "r"], in: dir).status == 0, "a folder against itself")
    }

    @Test("--json and --junit are refused over the frames, the recording or the settings compared, and over a diff's inputs; the files stay as they were")
    func outputsOverInputs() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try frames(2, to: dir.appendingPathComponent("act"))
        try frames(2, to: dir.appendingPathComponent("exp"))
        try "perceptual: 0.1\n".write(to: dir.appendingPathComponent("exp/navreel-compare.yaml"), atomically: true, encoding: .utf8)
        let frame = dir.appendingPathComponent("exp/0000.png"), settings = dir.appendingPathComponent("exp/navreel-compare.yaml")
        let before = try Data(contentsOf: frame), settingsBefore = try Data(contentsOf: settings)
        for (flag, path, says) in [("--json", "exp/0000.png", "--json exp/0000.png is inside the expected frames exp"),
                                   ("--junit", "act/0001.png", "--junit act/0001.png is inside the actual frames act"),
                                   ("--junit", "./act/../exp/navreel-compare.yaml", "is inside the expected frames exp")] {
            let r = try CLI.run(["compare", "--actual", "act", "--expected", "exp", flag, path, "--report", "r"], in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(flag) \(path): \(r)")
        }
        // A recording compared, and a settings file elsewhere, given by other names.
        let movie = dir.appendingPathComponent("rec.gif")
        try Data("GIF89a".utf8).write(to: movie)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.gif").path, withDestinationPath: movie.path)
        let rec = try CLI.run(["compare", "--actual", "rec.gif", "--expected", "exp", "--junit", "link.gif", "--report", "r"], in: dir)
        #expect(rec.status == 2 && rec.stderr.contains("--junit link.gif is the actual recording"), "\(rec)")
        try "perceptual: 0.1\n".write(to: dir.appendingPathComponent("strict.yaml"), atomically: true, encoding: .utf8)
        let own = try CLI.run(["compare", "--actual", "act", "--expected", "exp", "--settings", "strict.yaml", "--json", "strict.yaml", "--report", "r"], in: dir)
        #expect(own.status == 2 && own.stderr.contains("--json strict.yaml is the settings file"), "\(own)")
        #expect(try Data(contentsOf: frame) == before && Data(contentsOf: settings) == settingsBefore)
        // A number far past a field bounded by `above` names that bound, not the other side's.
        try "fps: -1e7\n".write(to: dir.appendingPathComponent("fps.yaml"), atomically: true, encoding: .utf8)
        if case .failure(let errors) = ScenarioParser.loadCompareSettings(path: dir.appendingPathComponent("fps.yaml").path) {
            #expect(errors.description.contains("fps must be more than 0, not -10000000"), "\(errors)")
        } else { Issue.record("fps: -1e7 was taken") }
        #expect(try Data(contentsOf: movie) == Data("GIF89a".utf8))
        // A folder holding captured/ that no report made (the user's own recordings' frames) is
        // not a report folder: compare would copy its frames there as NNNN.png.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("mine/captured/actual"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: dir.appendingPathComponent("mine/captured/actual/0000.png"))
        let mine = try CLI.run(["compare", "--actual", "act", "--expected", "exp", "--report", "mine"], in: dir)
        #expect(mine.status == 2 && mine.stderr.contains("holds a captured/ folder that no NavReel report made"), "\(mine)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("mine/captured/actual/0000.png")) == Data("mine".utf8))
        // Elsewhere they are written.
        let fine = try CLI.run(["compare", "--actual", "act", "--expected", "exp", "--json", "out/results.json", "--junit", "out/junit.xml", "--report", "r"], in: dir)
        #expect(fine.status == 0 && FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/junit.xml").path), "\(fine)")

        // diff: --json over either image, or where --out writes.
        let e = "exp/0000.png", a = "act/0001.png"
        for (args, says) in [(["diff", e, a, "--json", e], "--json exp/0000.png is the expected image"),
                             (["diff", e, a, "--json", "./act/0001.png"], "--json ./act/0001.png is the actual image"),
                             (["diff", e, a, "-o", "d.png", "--json", "d.png"], "--json d.png: --out writes the diff image there")] {
            let r = try CLI.run(args, in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args): \(r)")
        }
        #expect(try Data(contentsOf: frame) == before)
        #expect(try CLI.run(["diff", e, a, "--json", "d.json"], in: dir).status <= 1)
    }

    @Test("a PNG file compared is checked by NavReel's reader first: a huge declared size, a cut-off file and a non-PNG are named as for a folder's frames; a good one compares")
    func onePNGChecked() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try frames(1, to: dir.appendingPathComponent("exp"))
        let good = try Data(contentsOf: dir.appendingPathComponent("exp/0000.png"))
        // A 100000x100000 IHDR (CRC right) before a little image data.
        var huge = [UInt8](good.prefix(33))
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        let crc = Self.crc32(Array(huge[12..<29]))
        huge.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        huge += good.dropFirst(33)
        try Data(huge).write(to: dir.appendingPathComponent("huge.png"))
        try good.prefix(good.count / 2).write(to: dir.appendingPathComponent("cut.png"))
        try Data("GIF89a not really".utf8).write(to: dir.appendingPathComponent("gif.png"))
        try good.write(to: dir.appendingPathComponent("one.png"))
        for (file, says) in [("huge.png", "huge.png: too large: the image declares 100000x100000 pixels, over the limit of 16384 pixels a side"),
                             ("cut.png", "cut.png: truncated"), ("gif.png", "gif.png: not a PNG")] {
            let r = try CLI.run(["compare", "--actual", file, "--expected", "exp", "--report", "r"], in: dir)
            #expect(r.status == 2 && r.stderr.contains(says), "\(file): \(r)")
        }
        #expect(try CLI.run(["compare", "--actual", "one.png", "--expected", "exp", "--report", "r"], in: dir).status == 0)
    }

    /// CRC-32 of PNG chunks (ISO 3309, as PNG specification 5.5 defines it).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    @Test("recording and approving with a crop on both sides writes crops that the next compare uses as they are")
    func croppedRecording() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try frames(4, to: dir.appendingPathComponent("a"))
        let crop = ["--crop", "0,20,120,16"]
        let first = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--record", "missing", "--report", "r"] + crop, in: dir)
        #expect(first.status == 1, "new expected frames fail the run that writes them: \(first)")
        #expect(try PNG.read(path: dir.appendingPathComponent("e/0000.png").path).image.width == 120)
        #expect(try PNG.read(path: dir.appendingPathComponent("e/0000.png").path).image.height == 16)
        let again = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--perceptual", "0", "--report", "r"] + crop, in: dir)
        #expect(again.status == 0, "the recorded crops compare with the same flags: \(again)")
        let recorded = try PNG.read(path: dir.appendingPathComponent("e/0000.png").path)
        #expect(recorded.metadata.text["navreel.crop"] == "0,20,120,16")
        // A moved crop of the same size is an error naming the crop the frames were recorded as.
        let moved = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--crop", "0,22,120,16", "--report", "r"], in: dir)
        #expect(moved.status == 2 && moved.stderr.contains("it was recorded as the crop 0,20,120,16"), "\(moved)")
        // An actual frame of the crop's size is not taken as cropped: only the expected side's stamped files are.
        try Recording.write((0..<4).map { _ in Image(width: 120, height: 16, fill: RGBA8(0, 0, 255)) }, to: dir.appendingPathComponent("small"))
        let small = try CLI.run(["compare", "--actual", "small", "--expected", "e", "--crop", "0,20,120,16", "--report", "r"], in: dir)
        #expect(small.status == 2 && small.stderr.contains("small/0000.png: crop 0,20,120,16 does not fit its 120x16 pixels"), "\(small)")

        // Full-size expected frames, one replaced by approve: the folder still compares.
        try frames(4, to: dir.appendingPathComponent("full"))
        try frames(4, bar: RGBA8(255, 0, 0), to: dir.appendingPathComponent("changed"))
        let barCrop = ["--crop", "0,20,120,16"]
        // The bar is rows 0-15, so move the black block's rows (22-33) into the crop: frames differ there.
        let failing = try CLI.run(["compare", "--actual", "a", "--expected", "full", "--crop", "0,4,120,30", "--report", "r2"], in: dir)
        #expect(failing.status == 0, "the same frames pass: \(failing)")
        try Recording.write((0..<4).map { Recording.frame($0 + 1) }, to: dir.appendingPathComponent("shifted"))
        let changed = try CLI.run(["compare", "--actual", "shifted", "--expected", "full", "--perceptual", "0", "--report", "r3"] + barCrop, in: dir)
        #expect(changed.status == 1, "\(changed)")
        #expect(try CLI.run(["approve", "--report", "r3"], in: dir).status == 0)
        let approvedFrame = try PNG.read(path: dir.appendingPathComponent("full/0000.png").path)
        #expect(approvedFrame.image.width == 120 && approvedFrame.image.height == 16 && approvedFrame.metadata.text["navreel.crop"] == "0,20,120,16")
        let after = try CLI.run(["compare", "--actual", "shifted", "--expected", "full", "--perceptual", "0", "--report", "r4"] + barCrop, in: dir)
        #expect(after.status == 0, "\(after)")
    }

    @Test("each run's approve command in a compare report approves that folder alone; from another folder approve refuses")
    func compareApproveCommands() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for folder in ["", "v[1]/", "v1/", "*/"] {
            try frames(1, to: dir.appendingPathComponent("exp/" + folder))
            try frames(1, bar: RGBA8(255, 0, 0), to: dir.appendingPathComponent("act/" + folder))
        }
        let r = try CLI.run(["compare", "--actual", "act", "--expected", "exp", "--report", "rep"], in: dir)
        #expect(r.status == 1, "\(r)")
        let page = try String(contentsOf: dir.appendingPathComponent("rep/index.html"), encoding: .utf8)
        for (run, words) in [(".", "--run ."), ("v[1]", "--run 'v[1]'"), ("*", "--run '*'")] {
            #expect(page.contains("\"approve\":\"navreel approve \(words) --report rep\""), "\(run)")
        }
        let before = try Data(contentsOf: dir.appendingPathComponent("exp/v1/0000.png"))
        let one = try CLI.run(["approve", "--run", "v[1]", "--report", "rep"], in: dir)
        #expect(one.status == 0 && one.stdout.contains("approved exp/v[1]/0000.png") && one.stdout.contains("1 frames approved"), "\(one)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("exp/v1/0000.png")) == before, "v1 is another run")
        let top = try CLI.run(["approve", "--run", ".", "--report", "rep"], in: dir)
        #expect(top.status == 0 && top.stdout.contains("approved exp/0000.png") && top.stdout.contains("1 frames approved"), "\(top)")
        let device = try CLI.run(["approve", "--device", "iphone-14", "--report", "rep"], in: dir)
        #expect(device.status == 2 && device.stderr.contains("--device selects devices of a check's report"), "\(device)")
        // From another working folder the expected folder's name would make a new folder.
        let elsewhere = dir.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let away = try CLI.run(["approve", "--report", "../rep"], in: elsewhere)
        #expect(away.status == 2 && away.stderr.contains("exp: no such expected folder here"), "\(away)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("a check report's approve command names the device when the scenario has another; merged reports keep their baselines")
    func deviceAndMergedBaselines() throws {
        let p = try Project(["one": DataSafetyCLITests.twoDevices])
        defer { p.remove() }
        #expect(try p.run(["record", "--baselines", "alt/B"]).status == 0)
        let wide = try Data(contentsOf: p.root.appendingPathComponent("alt/B/one/wide/0001.png"))
        try p.write("one", DataSafetyCLITests.twoDevices.replacingOccurrences(of: "#FFFFFF", with: "#00FF00"))
        #expect(try p.run(["check", "--record", "never", "--baselines", "alt/B", "--report", "rep"]).status == 1)
        let page = try String(contentsOf: p.root.appendingPathComponent("rep/index.html"), encoding: .utf8)
        let command = "navreel approve --filter one --device tiny --report rep --baselines alt/B"
        #expect(page.contains("\"approve\":\"\(command)\""))
        let approved = try p.run(Array(command.split(separator: " ").dropFirst().map(String.init)))
        #expect(approved.status == 0 && approved.stdout.contains("approved alt/B/one/tiny/0000.png") && !approved.stdout.contains("/wide/"), "\(approved)")
        #expect(try Data(contentsOf: p.root.appendingPathComponent("alt/B/one/wide/0001.png")) == wide, "the other device is untouched")
        // Approve without --baselines writes where the report's check compared.
        #expect(try p.run(["approve", "--report", "rep"]).stdout.contains("approved alt/B/one/wide/"))
        #expect(!FileManager.default.fileExists(atPath: p.baselines.path))
        // From a subfolder the recorded alt/B names nothing: navreel.yaml's folder is used, not a new tree there.
        try "baselines: alt/B\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        try p.write("one", DataSafetyCLITests.twoDevices.replacingOccurrences(of: "#FFFFFF", with: "#0000FF"))
        #expect(try p.run(["check", "--record", "never", "--report", "rep2"]).status == 1)
        let sub = p.root.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let fromSub = try CLI.run(["approve", "--report", "../rep2"], in: sub)
        #expect(fromSub.status == 0 && fromSub.stdout.contains(p.root.path + "/alt/B/one/"), "\(fromSub)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sub.path).isEmpty)
        // A report written before the folder was recorded: navreel.yaml's again.
        let resultsURL = p.root.appendingPathComponent("rep2/results.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: resultsURL)) as! [String: Any]
        #expect(json["baselines"] as? String == "alt/B")
        json["baselines"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: resultsURL)
        let old = try p.run(["approve", "--report", "rep2"])
        #expect(old.status == 0 && old.stdout.contains("alt/B/one/"), "\(old)")

        // Shards of one check merge, and the merged approve commands keep alt/B; shards of
        // different baselines folders do not merge.
        let q = try Project(["a1": Project.scenario("a1"), "b2": Project.scenario("b2")])
        defer { q.remove() }
        #expect(try q.run(["record", "--baselines", "alt/B"]).status == 0)
        #expect(try q.run(["record", "--baselines", "other"]).status == 0)
        try q.write("a1", Project.scenario("a1", color: "#FF0000"))
        try q.write("b2", Project.scenario("b2", color: "#FF0000"))
        _ = try q.run(["check", "--record", "never", "--baselines", "alt/B", "--shard", "1/2", "--report", "s1"])
        _ = try q.run(["check", "--record", "never", "--baselines", "alt/B", "--shard", "2/2", "--report", "s2"])
        _ = try q.run(["check", "--record", "never", "--baselines", "other", "--shard", "2/2", "--report", "s3"])
        let merged = try q.run(["merge-reports", "s1", "s2", "--report", "m"])
        #expect(merged.status == 1, "\(merged)")
        let mergedPage = try String(contentsOf: q.root.appendingPathComponent("m/index.html"), encoding: .utf8)
        #expect(mergedPage.contains("--report m --baselines alt/B"), "merged approve commands write where the shards compared")
        let mixed = try q.run(["merge-reports", "s1", "s3", "--report", "m2"])
        #expect(mixed.status == 2 && mixed.stderr.contains("different baselines folders (alt/B, other)"), "\(mixed)")
    }

    @Test("compare creates the GitHub step summary file as check does; the missing-baseline hint names non-default folders")
    func summaryAndHint() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try frames(2, to: dir.appendingPathComponent("e"))
        try frames(2, bar: RGBA8(255, 0, 0), to: dir.appendingPathComponent("a"))
        let summary = dir.appendingPathComponent("step-summary.md")
        let r = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--report", "r"],
                            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path], in: dir)
        #expect(r.status == 1)
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("failed"), "the file is made")

        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        let missing = try p.run(["check", "--record", "never", "--baselines", "B0"])
        #expect(missing.stdout.contains("run `navreel check --record missing --filter one --baselines B0`"), "\(missing)")
    }

    @Test("frames NavReel rendered are never replaced by captured ones: approve and --record refuse, and write nothing")
    func renderedFramesKept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        for (name, color) in [("blue", "#0000FF"), ("red", "#FF0000")] {
            try Data("""
            name: \(name)
            devices: [iphone-14]
            scale: 1
            capture: bar
            screens:
              a: {title: A, bar: {color: "\(color)", translucent: false}}
            steps:
              - show: a
              - wait: 0.1
            """.utf8).write(to: scenarios.appendingPathComponent(name + ".yaml"))
        }
        #expect(try CLI.run(["render", "--scenarios", "scenarios", "--out", "out", "--quiet"], in: dir).status == 0)
        let expected = "out/blue/iphone-14", actual = "out/red/iphone-14"
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(expected).path).sorted()
            .map { try Data(contentsOf: dir.appendingPathComponent(expected + "/" + $0)) }
        #expect(before.count == 4)

        let failing = try CLI.run(["compare", "--actual", actual, "--expected", expected, "--report", "r"], in: dir)
        #expect(failing.status == 1, "\(failing)")
        // No approve command is offered for frames approve would refuse, on the console or the page.
        #expect(!(failing.stdout + failing.stderr).contains("navreel approve"), "\(failing)")
        let page = try String(contentsOf: dir.appendingPathComponent("r/index.html"), encoding: .utf8)
        #expect(!page.contains("navreel approve"), "the report offers no approve command")
        let approve = try CLI.run(["approve", "--report", "r"], in: dir)
        #expect(approve.status == 2 && approve.stderr.contains("out/blue/iphone-14/0000.png: a frame NavReel rendered (renderer ")
                && approve.stderr.contains("Nothing was written"), "\(approve)")
        for mode in ["all", "failed"] {
            let record = try CLI.run(["compare", "--actual", actual, "--expected", expected, "--record", mode, "--report", "r2"], in: dir)
            #expect(record.status == 2 && record.stderr.contains("a frame NavReel rendered") && record.stderr.contains("--record \(mode) would replace it"),
                    "--record \(mode): \(record)")
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(expected).path).sorted()
            .map { try Data(contentsOf: dir.appendingPathComponent(expected + "/" + $0)) }
        #expect(after == before, "the rendered frames are untouched")
        // A folder whose first frame was captured and the rest rendered: refused before the first is written.
        let mixed = dir.appendingPathComponent("mixed")
        try FileManager.default.copyItem(at: dir.appendingPathComponent(expected), to: mixed)
        try Data(PNG.encode(Image(width: 390, height: 107, fill: RGBA8(9, 9, 9)))).write(to: mixed.appendingPathComponent("0000.png"))
        let mixedBefore = try Data(contentsOf: mixed.appendingPathComponent("0000.png"))
        let mixedRecord = try CLI.run(["compare", "--actual", actual, "--expected", "mixed", "--record", "all", "--report", "r4"], in: dir)
        #expect(mixedRecord.status == 2 && mixedRecord.stderr.contains("mixed/0001.png: a frame NavReel rendered"), "\(mixedRecord)")
        #expect(try Data(contentsOf: mixed.appendingPathComponent("0000.png")) == mixedBefore, "the captured first frame is not rewritten")
        // Captured frames of one's own are still approved as before.
        try frames(2, to: dir.appendingPathComponent("mine"))
        try frames(2, bar: RGBA8(255, 0, 0), to: dir.appendingPathComponent("now"))
        let mine = try CLI.run(["compare", "--actual", "now", "--expected", "mine", "--report", "r3"], in: dir)
        #expect(mine.status == 1 && (mine.stdout + mine.stderr).contains("navreel approve"), "\(mine)")
        #expect(try CLI.run(["approve", "--report", "r3"], in: dir).status == 0)
    }

    @Test("a video one pixel narrower than odd-sized frames gets a note that says why and which crop compares them")
    func oddSizedVideo() throws {
        guard Recording.ffmpeg != nil else {
            Issue.record("the ffmpeg command is needed to make test recordings (scripts/setup.sh installs it)")
            return
        }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Recording.write((0..<3).map { Recording.frame($0, width: 121, height: 41) }, to: dir.appendingPathComponent("odd"))
        try Recording.encode(dir.appendingPathComponent("odd"), ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0"],
                             to: dir.appendingPathComponent("rec.mp4"))
        // A GIF keeps odd sizes: a size one pixel off is not put down to chroma.
        try Recording.write((0..<3).map { Recording.frame($0, width: 120, height: 40) }, to: dir.appendingPathComponent("even"))
        try Recording.encode(dir.appendingPathComponent("even"), Recording.gif, to: dir.appendingPathComponent("rec.gif"))
        let gif = try CLI.run(["compare", "--actual", "rec.gif", "--expected", "odd", "--report", "rg"], in: dir)
        #expect(gif.status == 1 && !(gif.stdout + gif.stderr).contains("4:2:0"), "\(gif)")
        let r = try CLI.run(["compare", "--actual", "rec.mp4", "--expected", "odd", "--report", "r"], in: dir)
        #expect(r.status == 1 && r.stdout.contains("size changed: expected 121x41, actual 120x40"), "\(r)")
        let all = r.stdout + r.stderr
        #expect(all.contains("rec.mp4 is 120x40 where the other side is 121x41") && all.contains("--crop 0,0,120,40"), "\(r)")
        let cropped = try CLI.run(["compare", "--actual", "rec.mp4", "--expected", "odd", "--crop", "0,0,120,40", "--perceptual", "0.2",
                                   "--max-diff-ratio", "0.02", "--report", "r2"], in: dir)
        #expect(cropped.status == 0, "the crop the note gives compares them: \(cropped)")
    }
}
