import Foundation
import Testing
@testable import NavReel
import Raster

/// What a third audit (2026-11-27) found in scenario checking and `bench`: a step whose `to` was
/// out of range hid its other errors, a screen name had no length limit, `null` titles drew
/// "null", `!!str` numbers passed, and `bench` trapped on negative counts, said nothing for an
/// unknown scenario and exited 1 (its "over the memory limit") for an unreadable suite.
@Suite("scenario checks and bench flags found by the third audit", .serialized)
struct InputAuditCLITests {
    /// `Project.scenario` (screens a and b, fps 4), ready for more steps.
    static let head = Project.scenario("x") + "\n"

    func lint(_ files: [String: String]) throws -> CLIResult {
        let p = try Project(files)
        defer { p.remove() }
        return try p.run(["lint"])
    }

    @Test("lint reports every problem of a step, not only its out-of-range `to`")
    func everyProblemOfAStep() throws {
        let r = try lint(["swipe": Self.head + "  - swipeBack: {to: 1.5, release: maybe, duration: 99}\n",
                          "scroll": Self.head + "  - scroll: {to: -400, duration: 99, curve: bogus}\n"])
        #expect(r.status == 2, "\(r)")
        for message in ["swipeBack to must be at most 1, not 1.5", "release", "duration must be at most 60, not 99",
                        "scroll to must be at least -300, not -400", "bogus"] {
            #expect(r.stderr.contains(message), "\(message): \(r.stderr)")
        }
        #expect(r.stderr.components(separatedBy: "duration must be at most 60").count == 3, "both files' durations: \(r.stderr)")
    }

    @Test("a screen name is text of at most 500 characters; null is no title; !!str is not a number")
    func textNullAndTags() throws {
        let long = String(repeating: "f", count: 600)
        let named = Self.head.replacingOccurrences(of: "  b: {", with: "  \(long): {").replacingOccurrences(of: "push: b", with: "push: \(long)")
        let r = try lint(["long": named,
                          "nulltitle": Self.head.replacingOccurrences(of: "title: B", with: "title: null"),
                          "tagged": Self.head.replacingOccurrences(of: "fps: 4", with: "fps: !!str 4")])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("long.yaml:6:3: error: screen name has 600 characters; at most 500 are allowed"), "\(r.stderr)")
        #expect(r.stderr.contains("nulltitle.yaml:6:14: error: title must be text, not `null` (YAML's null)"), "\(r.stderr)")
        #expect(r.stderr.contains("tagged.yaml:2:6: error: fps must be a whole number, not the text `4` (tagged !!str)"), "\(r.stderr)")
        // Quoted, "null" is a title like any other.
        let quoted = try lint(["quoted": Self.head.replacingOccurrences(of: "title: B", with: "title: \"null\"")])
        #expect(quoted.status == 0, "\(quoted)")
    }

    @Test("bench: counts of at least 1, known scenarios, and exit 2 for an unreadable suite")
    func benchFlags() throws {
        for (args, message) in [(["bench", "canvas", "--repeats=-1"], "--repeats takes 1 to 1000000, not -1"),
                                (["bench", "canvas", "--repeats", "0"], "--repeats takes 1 to 1000000, not 0"),
                                // With a space, as every numeric option takes it (not "Missing value").
                                (["bench", "canvas", "--repeats", "-1"], "--repeats takes 1 to 1000000, not -1"),
                                (["bench", "check", "--max-rss-mb", "-1"], "--max-rss-mb takes 1 to"),
                                (["bench", "paint", "--passes=-1", "--frames", "1", "--jobs", "1"], "--passes takes 1 to 1000000"),
                                (["bench", "paint", "--frames", "0", "--jobs", "1"], "--frames takes 1 to 1000000, not 0"),
                                (["bench", "paint", "--only", "nope", "--frames", "1", "--jobs", "1"], "--only: no benchmark scenario `nope`"),
                                (["bench", "check", "--jobs", "0"], "--jobs takes 1 to 1024, not 0"),
                                (["bench", "check", "--scenarios", "/nonexistent"], "/nonexistent: no such folder")] {
            let r = try CLI.run(args)
            #expect(r.status == 2 && r.stderr.contains("navreel: error: " + message), "\(args): \(r)")
        }
    }

    @Test("render: an empty --out is refused, a scenario named twice is rendered once, navreel.yaml's devices are named at their line")
    func renderOutsAndSelections() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        let empty = try p.run(["render", "one", "--out", ""])
        #expect(empty.status == 2 && empty.stderr.contains("--out : an empty path names no folder"), "\(empty)")
        let twice = try p.run(["render", "one", "one", "Fixtures/scenarios/one.yaml", "--out", "frames", "--quiet"])
        #expect(twice.status == 0 && !twice.stderr.contains("already used"), "\(twice)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: p.root.appendingPathComponent("frames/one/tiny").path).count == 5)
        // Maps from a --maps render do not outlive a render without them.
        #expect(try p.run(["render", "one", "--out", "frames", "--maps", "--quiet"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: p.root.appendingPathComponent("frames/one/tiny").path).count == 15)
        let plain = try p.run(["render", "one", "--out", "frames"])
        #expect(plain.status == 0 && plain.stdout.contains("10 stale files removed"), "\(plain)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: p.root.appendingPathComponent("frames/one/tiny").path).sorted()
                == (0..<5).map { String(format: "%04d.png", $0) })
        try "devices: [tinny]\n".write(to: p.root.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let device = try p.run(["render", "one", "--out", "frames"])
        #expect(device.status == 2 && device.stderr.contains("navreel.yaml:1:10: devices: no scenario uses device `tinny`"), "\(device)")
    }

    @Test("lint says why a file or image cannot be read: a folder, a link to nothing, an empty path; a whole number past Int is out of range")
    func lintReasons() throws {
        let p = try Project(["x": Self.head.replacingOccurrences(of: "a: {title: A, bar: {", with: "a: {title: A, content: {rows: 99999999999999999999999}, bar: {image: images/dir.png, ")
                                 .replacingOccurrences(of: "b: {title: B,", with: "b: {title: B, bar: {image: \"\"},")])
        defer { p.remove() }
        let scenarios = p.root.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios.appendingPathComponent("d.yaml"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scenarios.appendingPathComponent("l.yaml").path, withDestinationPath: "nowhere")
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("Fixtures/images/dir.png"), withIntermediateDirectories: true)
        let r = try p.run(["lint"])
        #expect(r.status == 2, "\(r)")
        for message in ["d.yaml:1:1: error: cannot read the file: it is a folder, not a file",
                        "l.yaml:1:1: error: cannot read the file: it is a symbolic link to nothing",
                        "image `images/dir.png` is a folder, not a PNG file",
                        "rows must be at most 1000, not 99999999999999999999999",
                        "image is an empty path"] {
            #expect(r.stderr.contains(message), "\(message): \(r.stderr)")
        }
    }

    @Test("text that is not UTF-8 and control characters are reported at their line; a taken scenario name on the file that takes it")
    func lintPlaces() throws {
        let p = try Project(["ok": Self.head, "a-taker": "name: ok\n" + Self.head])
        defer { p.remove() }
        let scenarios = p.root.appendingPathComponent("Fixtures/scenarios")
        // A Latin-1 "é" in the third line's title, and a NUL in the second line of another file.
        var latin = Array(Self.head.utf8)
        let third = latin.indices.filter { latin[$0] == 0x0A }[1] + 1
        latin.insert(0xE9, at: third + 2)
        try Data(latin).write(to: scenarios.appendingPathComponent("latin.yaml"))
        var nul = Array(Self.head.utf8)
        nul.insert(0x00, at: nul.firstIndex(of: 0x0A)! + 3)
        try Data(nul).write(to: scenarios.appendingPathComponent("nul.yaml"))
        let r = try p.run(["lint"])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains("latin.yaml:3:3: error: the file is not UTF-8 text: byte 0xE9 here"), "\(r.stderr)")
        #expect(r.stderr.contains("nul.yaml:2:3: error: unreadable text"), "\(r.stderr)")
        #expect(r.stderr.contains("a-taker.yaml:1:7: error: scenario name `ok` is already used by") && !r.stderr.contains("ok.yaml:1:1: error: scenario name"), "\(r.stderr)")
    }

    @Test("diff checks where its outputs go before comparing, naming the flag")
    func diffOutputsFirst() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        let a = "Baselines/one/tiny/0000.png", b = "Baselines/one/tiny/0004.png"
        try FileManager.default.createDirectory(at: p.root.appendingPathComponent("out"), withIntermediateDirectories: true)
        for (flag, message) in [("-o", "--out out: out is a folder, not a file"), ("--json", "--json out: out is a folder, not a file")] {
            // (A missing input too: the output's problem is found first.)
            let r = try p.run(["diff", a, b, flag, "out"])
            #expect(r.status == 2 && r.stderr.contains(message), "\(flag): \(r)")
            let first = try p.run(["diff", "missing.png", b, flag, "out"])
            #expect(first.status == 2 && first.stderr.contains(message), "\(flag): \(first)")
        }
    }

    @Test("list with a filter that matches nothing is check's usage error, not an empty list")
    func listFilter() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        for filter in ["zzz", "["] {
            let r = try p.run(["list", "--filter", filter])
            #expect(r.status == 2 && r.stderr.contains("navreel: error: no scenario matches --filter \(filter)"), "\(filter): \(r)")
        }
        let one = try p.run(["list", "--filter", "one"])
        #expect(one.status == 0 && one.stdout.contains("one\ttiny\t5 frames"), "\(one)")
    }

    @Test("control characters in file names reach the terminal escaped, in errors and in compare's lines")
    func controlCharacters() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let evil = "x\u{1B}]0;owned\u{07}\u{1B}[2J\ry"
        let missing = try CLI.run(["diff", dir.path + "/" + evil + ".png", dir.path + "/b.png"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(missing.status == 2, "\(missing)")
        #expect(!missing.stderr.contains("\u{1B}") && !missing.stderr.contains("\u{07}") && !missing.stderr.contains("\r"), "\(missing.stderr.debugDescription)")
        #expect(missing.stderr.contains("x\\u{1B}]0;owned\\u{7}\\u{1B}[2J\\u{D}y.png"), "\(missing.stderr.debugDescription)")
        #expect(!missing.stdout.contains("\r") && missing.stdout.contains("::error::"), "\(missing.stdout.debugDescription)")
        // compare's per-frame lines name the file.
        for side in ["a", "e"] {
            let folder = dir.appendingPathComponent(side)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let fill = side == "a" ? RGBA8(0, 0, 0) : RGBA8(255, 255, 255)
            try Data(PNG.encode(Image(width: 4, height: 4, fill: fill))).write(to: folder.appendingPathComponent(evil + ".png"))
        }
        let r = try CLI.run(["compare", "--actual", dir.appendingPathComponent("a").path, "--expected", dir.appendingPathComponent("e").path,
                             "--report", dir.appendingPathComponent("report").path])
        #expect(r.status == 1, "\(r)")
        #expect(!r.stdout.contains("\u{1B}") && r.stdout.contains("FAILED x\\u{1B}"), "\(r.stdout.debugDescription)")
    }

    @Test("an image that cannot be drawn is one error line per run, then counted, not one line per frame")
    func repeatedErrorOnce() throws {
        let p = try Project(["img": Project.scenario("img").replacingOccurrences(of: "a: {title: A, bar: {color: \"#FFFFFF\", translucent: false}}",
                                                                               with: "a: {title: A, bar: {image: images/bar.png}}")])
        defer { p.remove() }
        let images = p.root.appendingPathComponent("Fixtures/images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        // A PNG whose header is right and whose image data is damaged (under a valid CRC): lint
        // tells, since it reads images whole; a check that goes ahead anyway reports it once.
        var bytes = [UInt8](try PNG.encode(Image(width: 40, height: 10, fill: RGBA8(200, 10, 10))))
        let idat = try #require(TamperCLITests.chunk("IDAT", in: bytes))
        bytes[idat.data + 2] ^= 0xFF
        refreshCRC(ofChunkAt: idat.data, length: idat.length, in: &bytes)
        try Data(bytes).write(to: images.appendingPathComponent("bar.png"))
        let lint = try p.run(["lint"])
        #expect(lint.status == 2 && lint.stderr.contains("image `images/bar.png` is not a readable PNG image: corrupt"), "\(lint)")
        let r = try p.run(["check", "--record", "never"])
        #expect(r.status == 2, "\(r)")
        #expect(r.stdout.components(separatedBy: "ERROR img/tiny").count == 2, "one ERROR line: \(r.stdout)")
        #expect(r.stdout.contains("(the same error for 3 more frames: 1...3)"), "\(r.stdout)")   // (frame 4 shows screen b alone)
    }
}
