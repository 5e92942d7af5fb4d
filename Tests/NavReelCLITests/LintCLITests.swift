import Foundation
import Raster
import Testing

@Suite("navreel lint")
struct LintCLITests {
    @Test("prints every error with file:line:column and exits 2; valid files exit 0")
    func lint() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try "devices: [iphone-14]\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n".write(to: scenarios.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        try "devices: [iphone14]\nscreens:\n  a: {titel: A}\nsteps:\n  - show: b\n".write(to: scenarios.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let all = try CLI.run(["lint"], in: dir)
        #expect(all.status == 2)
        #expect(all.stderr.contains("Fixtures/scenarios/bad.yaml:1:11: error: unknown device `iphone14` (did you mean `iphone-14`?)"))
        #expect(all.stderr.contains("bad.yaml:3:7: error: unknown key `titel`"))
        #expect(all.stderr.contains("bad.yaml:5:11: error: unknown screen `b`"))
        #expect(all.stdout.contains("2 scenario files: 1 valid, 1 with errors"))
        let good = try CLI.run(["lint", "good"], in: dir)
        #expect(good.status == 0, "\(good)")
        let missing = try CLI.run(["lint", "goood"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("did you mean `good`?"))
    }

    @Test("navreel.yaml's devices are checked as check checks them; list says what check would refuse over its limits")
    func projectDevicesAndListLimits() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try "devices: [iphone-14]\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n".write(to: scenarios.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        try "report: r\ndevices: [iphone-16]\n".write(to: dir.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let lint = try CLI.run(["lint"], in: dir)
        #expect(lint.status == 2 && lint.stderr.contains("navreel.yaml:2:10: devices: no scenario uses device `iphone-16`")
                && lint.stdout.contains("1 scenario files: 1 valid, 0 with errors; navreel.yaml has an error"), "\(lint)")
        #expect(try CLI.run(["check", "--record", "never"], in: dir).stderr.contains("no scenario uses device `iphone-16`"), "as check says")
        // A damaged navreel.yaml, with the scenario folder given: check stops on it, and lint says so.
        try "devices: [iphone-14\n".write(to: dir.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        let damaged = try CLI.run(["lint", "--scenarios", "Fixtures/scenarios"], in: dir)
        #expect(damaged.status == 2 && damaged.stderr.contains("navreel.yaml") && damaged.stdout.contains("navreel.yaml has an error"), "\(damaged)")
        try "devices: [iphone-14]\n".write(to: dir.appendingPathComponent("navreel.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["lint"], in: dir).status == 0)
        // An hour at 240 fps: list shows it, says it is over the limit, and exits 2 as lint does.
        try "devices: [iphone-14]\nfps: 240\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n  - wait: 3600\n"
            .write(to: scenarios.appendingPathComponent("long.yaml"), atomically: true, encoding: .utf8)
        let list = try CLI.run(["list"], in: dir)
        #expect(list.status == 2 && list.stdout.contains("long\tiphone-14\t864001 frames")
                && list.stderr.contains("long.yaml:6:5: error: on iphone-14 the steps make 864001 frames at 240 fps, over the limit of 10000 (--max-frames)"), "\(list)")
        #expect(try CLI.run(["list", "--filter", "good"], in: dir).status == 0, "only the listed scenarios count")
        #expect(try CLI.run(["list", "--max-frames", "900000"], in: dir).status == 0, "check's limit flags raise them")
        // The whole run's pixels count per shard in check: list leaves them out unless asked.
        try "devices: [iphone-14]\nfps: 60\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n  - wait: 150\n"
            .write(to: scenarios.appendingPathComponent("long.yaml"), atomically: true, encoding: .utf8)
        #expect(try CLI.run(["list"], in: dir).status == 0, "9001 frames at 3x: 26.7e9 pixels, over the run total that check applies per shard")
        #expect(try CLI.run(["check", "--record", "never", "--report", "r"], in: dir).stderr.contains("--max-run-pixels"), "check refuses the whole run")
        let total = try CLI.run(["list", "--max-run-pixels", "1000000"], in: dir)
        #expect(total.status == 2 && total.stderr.contains("(--max-run-pixels"), "\(total)")
    }

    @Test("an image that is not a PNG is an error at the line that uses it, naming what it is")
    func imagesThatAreNotPNG() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios"), images = dir.appendingPathComponent("Fixtures/images")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8)).write(to: images.appendingPathComponent("photo.png"))
        try Data("<html>404</html>".utf8).write(to: images.appendingPathComponent("page.png"))
        try Data().write(to: images.appendingPathComponent("empty.png"))
        try Data(PNG.encode(Image(width: 2, height: 2, fill: RGBA8(1, 2, 3)))).write(to: images.appendingPathComponent("good.png"))
        // PNGs with a valid signature and header that no render could draw: cut short, a changed
        // byte in the image data (its CRC no longer matches), and a header declaring 70,000 pixels a side.
        var noise = Image(width: 24, height: 24, fill: RGBA8(0, 0, 0))
        for y in 0..<24 { for x in 0..<24 { noise[x, y] = RGBA8(UInt8(x * 10), UInt8(y * 10), UInt8((x * y) & 255)) } }
        let whole = try PNG.encode(noise)
        try Data(whole.prefix(whole.count / 2)).write(to: images.appendingPathComponent("cut.png"))
        var damaged = whole
        damaged[whole.count - 20] ^= 0x55
        try Data(damaged).write(to: images.appendingPathComponent("damaged.png"))
        var huge = whole
        huge[16..<20] = [0, 1, 0x11, 0x70]   // IHDR width 70,000
        let crc = pngCRC32(huge[12..<29])
        huge[29..<33] = [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        try Data(huge).write(to: images.appendingPathComponent("huge.png"))
        try """
        devices: [iphone-14]
        screens:
          a: {title: A, bar: {image: images/photo.png}}
          b: {title: B, bar: {image: images/page.png}}
          c: {title: C, bar: {image: images/empty.png}}
          d: {title: D, bar: {image: images/good.png}}
          e: {title: E, bar: {image: images/cut.png}}
          f: {title: F, bar: {image: images/damaged.png}}
          g: {title: G, bar: {image: images/huge.png}}
          h: {title: H, bar: {image: images/cut.png}}
        steps:
          - show: a
        """.write(to: scenarios.appendingPathComponent("images.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("images.yaml:3:30: error: image `images/photo.png` is a JPEG file"), "\(r.stderr)")
        #expect(r.stderr.contains("images.yaml:4:30: error: image `images/page.png` is not a PNG image"), "\(r.stderr)")
        #expect(r.stderr.contains("images.yaml:5:30: error: image `images/empty.png` is empty"), "\(r.stderr)")
        #expect(!r.stderr.contains("good.png"), "\(r.stderr)")
        // Read whole, as a render reads them: each is an error at its line, naming what is wrong.
        #expect(r.stderr.contains("images.yaml:7:30: error: image `images/cut.png` is not a readable PNG image: truncated"), "\(r.stderr)")
        #expect(r.stderr.contains("images.yaml:8:30: error: image `images/damaged.png` is not a readable PNG image: corrupt"), "\(r.stderr)")
        #expect(r.stderr.contains("images.yaml:9:30: error: image `images/huge.png` is not a readable PNG image: too large"), "\(r.stderr)")
        // An image named twice is read once and reported at both lines.
        #expect(r.stderr.contains("images.yaml:10:30: error: image `images/cut.png` is not a readable PNG image: truncated"), "\(r.stderr)")
        // check does not read images at parse time: the run reports the image when it draws it.
        let c = try CLI.run(["check", "--report", dir.appendingPathComponent("r").path, "--baselines", dir.appendingPathComponent("b").path], in: dir)
        #expect(c.status == 2 && c.stderr.contains("image `images/photo.png` is a JPEG file"), "\(c.stderr)")
        #expect(!c.stderr.contains("is not a readable PNG image"), "\(c.stderr)")
    }
}

@Suite("navreel lint: font coverage")
struct LintFontCoverageTests {
    @Test("characters no shipped font has are a warning at the string's position; the exit status stays 0",
          arguments: [
              ("  a: {title: \"한국어\"}\n", "3:14", "U+D55C 한, U+AD6D 국, U+C5B4 어"),
              ("  a:\n    title: 我的\n    rightItems: [\"Edit\", \"\u{10FFFD}\"]\n", "5:26", "U+10FFFD"),
              ("  a:\n    title: Me\n    backButton: {title: \"\u{1F9FF}x\"}\n", "5:25", "U+1F9FF"),
          ])
    func warning(_ screen: String, _ position: String, _ characters: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try "devices: [iphone-14]\nscreens:\n\(screen)steps:\n  - show: a\n"
            .write(to: scenarios.appendingPathComponent("text.yaml"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["lint"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("Fixtures/scenarios/text.yaml:\(position): warning: no shipped font has \(characters)"), "\(run.stderr)")
        #expect(!run.stderr.contains("error:"))
        #expect(run.stdout.contains("1 scenario files: 1 valid, 0 with errors"))
    }

    @Test("a scroll that leaves a large title part collapsed is a warning at its step; fully open or collapsed is not")
    func largeTitleRest() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        let yaml = "devices: [iphone-14]\nscreens:\n  inbox: {title: Inbox, largeTitle: true, content: {rows: 30}}\n"
            + "  thread: {title: Thread, content: {rows: 30}}\nsteps:\n  - show: inbox\n  - scroll: {to: 20}\n"
            + "  - scroll: {to: 80}\n  - scroll: {to: 0}\n  - push: thread\n  - scroll: {to: 20}\n"
        try yaml.write(to: scenarios.appendingPathComponent("large.yaml"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["lint"], in: dir)
        #expect(run.status == 0, "a warning keeps the exit status: \(run)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning: ") }
        // Only line 7: 80 and 0 are rests a device shows, and `thread` has no large title.
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Fixtures/scenarios/large.yaml:7:5: warning: `inbox`'s large title rests part collapsed here (20 of its 52 pt)"),
                "\(run.stderr)")
    }

    /// `lint` over one scenario file in a new project, with bundled images copied in under the
    /// names given (bundled name: name in the project): its result and its warning lines.
    func lintWarnings(_ yaml: String, file: String, images: [String: String]) throws -> (CLIResult, [String]) {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios.appendingPathComponent("../images"), withIntermediateDirectories: true)
        for (bundled, name) in images {
            try Data(contentsOf: CIOutputTests.root.appendingPathComponent("Fixtures/images/" + bundled))
                .write(to: scenarios.appendingPathComponent("../images/" + name))
        }
        try yaml.write(to: scenarios.appendingPathComponent(file), atomically: true, encoding: .utf8)
        let run = try CLI.run(["lint"], in: dir)
        return (run, run.stderr.split(separator: "\n").filter { $0.contains("warning: ") }.map(String.init))
    }

    @Test("a show over a stack, a rotate to the orientation it is in and a colour an image hides are warnings")
    func silentNonsense() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A, bar: {image: images/wood.png, color: "#FF0000"}}
          b: {title: B, bar: {image: images/wood.png, color: "#FF0000", translucent: false}}
          c: {title: C}
        steps:
          - show: a
          - push: b
          - show: c
          - rotate: landscape
          - rotate: landscape
          - rotate: portrait
        """
        let (run, warnings) = try lintWarnings(yaml, file: "odd.yaml", images: ["wood@3x.png": "wood.png"])
        #expect(run.status == 0, "warnings keep the exit status: \(run)")
        #expect(warnings.count == 3, "\(run.stderr)")
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/odd.yaml:3:3: warning: `a`'s bar colour is not drawn") }, "b backs its image with it: \(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/odd.yaml:9:5: warning: show `c` replaces the whole stack (a > b)") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/odd.yaml:11:5: warning: already landscape") }, "\(warnings)")
    }

    @Test("warnings come in the file's order, whichever check found them")
    func warningOrder() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: "한국어"}
          b: {title: B}
        steps:
          - show: a
          - push: b
          - show: a
        """
        let (run, warnings) = try lintWarnings(yaml, file: "order.yaml", images: [:])
        #expect(run.status == 0 && warnings.count == 2, "\(run)")
        #expect(warnings.first?.hasPrefix("Fixtures/scenarios/order.yaml:3:") == true
                && warnings.last?.hasPrefix("Fixtures/scenarios/order.yaml:8:5: warning: show `a` replaces") == true, "\(warnings)")
    }

    @Test("a tapped pop that draws no highlight is warned about: no back button, a custom image, not animated")
    func tappedNothing() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A}
          b: {title: B}
          h: {title: H, bar: {hidden: true}}
          c: {title: C, backButton: {image: images/back-pill@3x.png}}
        steps:
          - show: a
          - push: h
          - pop: {tapped: true}
          - push: c
          - pop: {tapped: true}
          - push: b
          - pop: {tapped: true, animated: false}
          - push: b
          - pop: {tapped: true}
          - push: b
          - setBar: {hidden: true}
          - pop: {tapped: true}
          - push: h
          - setBar: {hidden: false}
          - pop: {tapped: true}
        """
        let (run, warnings) = try lintWarnings(yaml, file: "tap.yaml", images: ["back-pill@3x.png": "back-pill@3x.png"])
        #expect(run.status == 0, "\(run)")
        // A bar a setBar hid has no back button; one it showed again has.
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/tap.yaml:19:5: warning: tapped draws nothing here: `b`'s bar is hidden") }, "\(warnings)")
        #expect(warnings.count == 4, "the last pop highlights: \(run.stderr)")
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/tap.yaml:10:5: warning: tapped draws nothing here: `h`'s bar is hidden") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/tap.yaml:12:5: warning: tapped draws nothing here: `c`'s custom back button image") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("Fixtures/scenarios/tap.yaml:14:5: warning: tapped draws nothing here: the pop is not animated") }, "\(warnings)")
    }

    @Test("CJK, Arabic, Hebrew and emoji titles draw with shipped fonts: no warning")
    func covered() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try "devices: [iphone-14]\nscreens:\n  a: {title: 我的收藏, rightItems: [مرحبا, שלום, \"🎉\"]}\nsteps:\n  - show: a\n"
            .write(to: scenarios.appendingPathComponent("text.yaml"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["lint"], in: dir)
        #expect(run.status == 0)
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
    }

    @Test("fonts that cannot be loaded are a warning saying the texts were not checked, not an error")
    func unreadableFonts() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try "devices: [iphone-14]\nscreens:\n  a: {title: 한국어}\nsteps:\n  - show: a\n"
            .write(to: scenarios.appendingPathComponent("text.yaml"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["lint"], environment: ["NAVREEL_FONT_DIR": dir.appendingPathComponent("none").path], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr.contains("navreel lint: warning: fonts not checked: ") && run.stderr.contains("NAVREEL_FONT_DIR has no Inter-Regular.otf"), "\(run.stderr)")
        #expect(!run.stderr.contains("no shipped font has"))
    }
}
