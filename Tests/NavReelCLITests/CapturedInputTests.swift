import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario
import Testing

/// Recordings and animations made in the test with the ffmpeg command (scripts/setup.sh installs
/// it), from frames drawn here.
enum Recording {
    static var ffmpeg: String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = String(dir) + "/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs ffmpeg quietly; throws with its messages when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let tool = try #require(ffmpeg, "the ffmpeg command is needed to make test recordings (scripts/setup.sh installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw UsageError("ffmpeg \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// Frame k of a small moving picture: a coloured bar on top, a black block sliding under it.
    /// Colours have channels 0 or 255 only, so that a GIF's palette holds them exactly.
    static func frame(_ k: Int, width: Int = 120, height: Int = 40, bar: RGBA8 = RGBA8(0, 0, 255)) -> Image {
        var image = Image(width: width, height: height, fill: RGBA8(255, 255, 255))
        for y in 0..<16 { for x in 0..<width { image[x, y] = bar } }
        let left = (k * 5) % (width - 12)
        for y in 22..<34 { for x in left..<(left + 12) { image[x, y] = RGBA8(0, 0, 0) } }
        return image
    }

    /// Writes images as 0000.png, 0001.png... in `folder`.
    static func write(_ images: [Image], to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (k, image) in images.enumerated() {
            try Data(PNG.encode(image)).write(to: folder.appendingPathComponent(String(format: "%04d.png", k)))
        }
    }

    /// Encodes a folder of 0000.png... at `fps` into `output`, with extra ffmpeg arguments.
    static func encode(_ folder: URL, fps: Int = 30, _ codec: [String], to output: URL) throws {
        try ffmpeg(["-framerate", "\(fps)", "-i", folder.appendingPathComponent("%04d.png").path] + codec + [output.path])
    }

    static let losslessH264 = ["-c:v", "libx264rgb", "-qp", "0", "-pix_fmt", "rgb24"]

    /// Where the first box of `type` starts its type field in QuickTime/MP4 bytes (ISO/IEC
    /// 14496-12 4.2: a box's size, then its four-letter type), found by its name; nil when absent.
    /// The tests edit a box's fields at fixed offsets from there.
    static func box(_ type: String, in bytes: [UInt8]) -> Int? {
        let name = Array(type.utf8)
        return (4..<max(4, bytes.count - 3)).first { bytes[$0..<$0 + 4].elementsEqual(name) }
    }
    /// One palette made from all frames, no dithering: the frames' few colours exactly. (FFmpeg
    /// 5.1's GIF encoder fed palette PNGs directly leaves stale pixels in later frames: its bug,
    /// which its own decoder shows too.)
    static let gif = ["-vf", "split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse=dither=none", "-c:v", "gif"]
    static let apng = ["-c:v", "apng", "-plays", "0", "-f", "apng"]
}

/// The results JSON of a compare run, decoded.
struct Results {
    let frames: [[String: Any]]
    init(_ text: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        frames = ((object["runs"] as? [[String: Any]]) ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
    }
    var statuses: [String] { frames.map { $0["status"] as? String ?? "" } }
}

@Suite("navreel compare: animations, video, crop, ignore, align, record")
struct CapturedInputTests {
    static func compare(_ arguments: [String], in dir: URL) throws -> CLIResult {
        try CLI.run(["compare", "--report", dir.appendingPathComponent("report").path] + arguments)
    }

    @Test("GIF, APNG and video each decode to frames that line up with a folder, with file and time per frame")
    func inputKinds() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<12).map { Recording.frame($0) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write(frames, to: folder)
        for (name, codec) in [("a.gif", Recording.gif), ("a.apng", Recording.apng), ("a.mp4", Recording.losslessH264),
                              ("a.mov", Recording.losslessH264), ("a.m4v", Recording.losslessH264)] {
            let file = dir.appendingPathComponent(name)
            try Recording.encode(folder, codec, to: file)
            let r = try Self.compare(["--actual", file.path, "--expected", folder.path, "--perceptual", "0", "--json", "-", "--quiet"], in: dir)
            #expect(r.status == 0, "\(name): \(r)")
            let results = try Results(r.stdout)
            #expect(results.frames.count == 12, "\(name)")
            #expect(results.statuses == Array(repeating: "passed", count: 12), "\(name)")
            let third = try #require(results.frames.first { $0["path"] as? String == "0003.png" })
            #expect(third["actualFile"] as? String == file.path)
            #expect(abs((third["actualTime"] as? Double ?? -1) - 0.1) < 0.011, "\(name): frame 3 at 30 fps is at 0.1 s")
            #expect(third["expectedFile"] as? String == folder.appendingPathComponent("0003.png").path)
            // A changed frame in the recording is caught, and named by index.
        }
        var changed = frames
        changed[5] = Recording.frame(5, bar: RGBA8(255, 0, 0))
        let changedFolder = dir.appendingPathComponent("changed")
        try Recording.write(changed, to: changedFolder)
        let gif = dir.appendingPathComponent("changed.gif")
        try Recording.encode(changedFolder, Recording.gif, to: gif)
        let r = try Self.compare(["--actual", gif.path, "--expected", folder.path], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("FAILED 0005.png"), "\(r.stdout)")
        #expect(r.stdout.contains("12 frames: 11 passed, 1 failed"), "\(r.stdout.replacingOccurrences(of: "\n", with: " | "))")
        #expect(r.stdout.contains("changed.gif @ 0.1"), "the failure names the file and the time (GIF delays are centiseconds): \(r.stdout)")
    }

    @Test("a folder of frames numbered without padding is matched against a video in the numbers' order (frame2 before frame10)")
    func unpaddedNumbers() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<12).map { Recording.frame($0) }
        let padded = dir.appendingPathComponent("padded")
        try Recording.write(frames, to: padded)
        let gif = dir.appendingPathComponent("a.gif")
        try Recording.encode(padded, Recording.gif, to: gif)
        // The same frames as frame1.png ... frame12.png: byte order would put frame10-12 after frame1.
        let unpadded = dir.appendingPathComponent("unpadded")
        try FileManager.default.createDirectory(at: unpadded, withIntermediateDirectories: true)
        for (k, image) in frames.enumerated() {
            try Data(PNG.encode(image)).write(to: unpadded.appendingPathComponent("frame\(k + 1).png"))
        }
        let r = try Self.compare(["--actual", gif.path, "--expected", unpadded.path, "--perceptual", "0", "--json", "-", "--quiet"], in: dir)
        #expect(r.status == 0, "\(r)")
        let results = try Results(r.stdout)
        #expect(results.statuses == Array(repeating: "passed", count: 12))
        #expect(results.frames.map { $0["path"] as? String ?? "" } == (1...12).map { "frame\($0).png" })
        // --align reads the folder in the same order.
        let aligned = try Self.compare(["--actual", gif.path, "--expected", unpadded.path, "--perceptual", "0", "--align", "2", "--quiet"], in: dir)
        #expect(aligned.status == 0, "\(aligned)")

        // Folders of folders: runs in the same order in the console, results.json and JUnit.
        for side in ["a", "e"] {
            for sub in ["10", "2", "9"] { try Recording.write([frames[0]], to: dir.appendingPathComponent("\(side)/\(sub)")) }
        }
        let junit = dir.appendingPathComponent("junit.xml")
        let nested = try Self.compare(["--actual", dir.appendingPathComponent("a").path, "--expected", dir.appendingPathComponent("e").path,
                                       "--json", "-", "--junit", junit.path], in: dir)
        #expect(nested.status == 0, "\(nested)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(nested.stdout.utf8)) as? [String: Any])
        #expect(((object["runs"] as? [[String: Any]]) ?? []).map { $0["scenario"] as? String ?? "" } == ["2", "9", "10"])
        let xml = try String(contentsOf: junit, encoding: .utf8)
        let suites = xml.components(separatedBy: "<testsuite name=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        // JUnit names a compare's runs by their folder of expected frames.
        #expect(suites == ["2", "9", "10"].map { dir.appendingPathComponent("e").path + "/" + $0 }, "\(xml)")
    }

    @Test("natural order: numbers by value, the rest by bytes, a total order")
    func naturalOrder() {
        let names = ["frame10.png", "frame2.png", "frame1.png", "Frame3.png", "a/10/0000.png", "a/9/0001.png", "a/9/0000.png",
                     "frame01.png", "frame001.png", "x.png", "0010.png", "0009.png", "10.png", "9.png", "frame.png", "frame2a.png"]
        let sorted = names.sorted(by: PathText.naturallyBefore)
        #expect(sorted == ["0009.png", "9.png", "0010.png", "10.png", "Frame3.png", "a/9/0000.png", "a/9/0001.png", "a/10/0000.png",
                           "frame.png", "frame001.png", "frame01.png", "frame1.png", "frame2.png", "frame2a.png", "frame10.png", "x.png"])
        // A strict weak order: irreflexive, asymmetric, and exactly one of a<b, b<a for distinct names.
        for a in names {
            #expect(!PathText.naturallyBefore(a, a))
            for b in names where a != b {
                #expect(PathText.naturallyBefore(a, b) != PathText.naturallyBefore(b, a), "\(a) \(b)")
            }
        }
        // Digits after a decimal point are a fraction's: timestamps with fewer decimals stay in order.
        let stamps = ["shot-0.15.png", "shot-0.1.png", "shot-0.05.png", "shot-1.5.png", "shot-0.5.png", "shot-10.png", "shot-2.png", "shot-0.10.png"]
        #expect(stamps.sorted(by: PathText.naturallyBefore)
                == ["shot-0.05.png", "shot-0.1.png", "shot-0.10.png", "shot-0.15.png", "shot-0.5.png", "shot-1.5.png", "shot-2.png", "shot-10.png"])
        // A strict weak order over many generated names: transitive, and one of a<b, b<a for distinct names.
        let alphabet: [String] = ["0", "1", "9", ".", "a", "/", "é"]
        var generated: [String] = [""]
        for _ in 0..<3 { generated = generated + generated.flatMap { g in alphabet.map { g + $0 } } }
        let pool = Array(Set(generated)).sorted().enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        let order = pool.sorted(by: PathText.naturallyBefore)
        for (k, a) in order.enumerated() {
            #expect(!PathText.naturallyBefore(a, a))
            for b in order[(k + 1)...] {
                #expect(PathText.naturallyBefore(a, b) && !PathText.naturallyBefore(b, a), "\(a) \(b)")
            }
        }
        // A name before its longer variants: macOS names a second screenshot of the same second "... (2)".
        let shots = ["Screenshot 2026-11-27 at 10.10.00 (2).png", "Screenshot 2026-11-27 at 10.10.01.png",
                     "Screenshot 2026-11-27 at 10.10.00.png", "Screenshot 2026-11-27 at 10.09.59.png", "a-1.png", "a.png", "a.b.png"]
        #expect(shots.sorted(by: PathText.naturallyBefore)
                == ["Screenshot 2026-11-27 at 10.09.59.png", "Screenshot 2026-11-27 at 10.10.00.png", "Screenshot 2026-11-27 at 10.10.00 (2).png",
                    "Screenshot 2026-11-27 at 10.10.01.png", "a.png", "a-1.png", "a.b.png"])
        // Zero-padded names keep byte order.
        let padded = (0..<1200).map { String(format: "%04d.png", $0) }.shuffled()
        #expect(padded.sorted(by: PathText.naturallyBefore) == padded.sorted())
    }

    @Test("hidden files are never frames; two folders with no names in common say how to match them by order")
    func hiddenFilesAndNames() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<4).map { Recording.frame($0) }
        let expected = dir.appendingPathComponent("e")
        try Recording.write(frames, to: expected)
        // What macOS leaves beside files it copies to FAT or SMB, and inside zips.
        let appleDouble = Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00] + Array("Mac OS X        ".utf8))
        try appleDouble.write(to: expected.appendingPathComponent("._0000.png"))
        try FileManager.default.createDirectory(at: expected.appendingPathComponent("__MACOSX"), withIntermediateDirectories: true)
        try appleDouble.write(to: expected.appendingPathComponent("__MACOSX/0001.png"))
        try FileManager.default.createDirectory(at: expected.appendingPathComponent(".cache"), withIntermediateDirectories: true)
        try Data(PNG.encode(frames[0])).write(to: expected.appendingPathComponent(".cache/0000.png"))
        let video = dir.appendingPathComponent("v.mp4")
        try Recording.encode(expected, Recording.losslessH264, to: video)
        let byOrder = try Self.compare(["--actual", video.path, "--expected", expected.path, "--perceptual", "0", "--json", "-"], in: dir)
        #expect(byOrder.status == 0, "\(byOrder)")
        #expect(try Results(byOrder.stdout).frames.count == 4)
        // Screenshots named by the device against frames named by index.
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for (k, image) in frames.enumerated() {
            try Data(PNG.encode(image)).write(to: shots.appendingPathComponent(String(format: "IMG_%04d.PNG", k + 1)))
        }
        let named = try Self.compare(["--actual", shots.path, "--expected", expected.path], in: dir)
        #expect(named.status == 1)
        #expect(named.stdout.contains("no file names are in common between \(shots.path) and \(expected.path)")
                && named.stdout.contains("--align 0 matches them in order instead"), "\(named.stdout)")
        let aligned = try Self.compare(["--actual", shots.path, "--expected", expected.path, "--align", "0", "--perceptual", "0"], in: dir)
        #expect(aligned.status == 0 && !aligned.stdout.contains("no file names"), "\(aligned)")
    }

    @Test("compare --record all and failed keep the replaced expected frame's old pixels in the report", arguments: ["all", "failed"])
    func recordKeepsReplaced(_ mode: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = (0..<3).map { Recording.frame($0) }
        var new = old
        new[1] = Recording.frame(1, bar: RGBA8(255, 0, 0))
        try Recording.write(old, to: dir.appendingPathComponent("e"))
        try Recording.write(new, to: dir.appendingPathComponent("a"))
        let r = try Self.compare(["--actual", dir.appendingPathComponent("a").path, "--expected", dir.appendingPathComponent("e").path,
                                  "--record", mode, "--json", "-"], in: dir)
        #expect(r.status == 0, "\(r)")
        let results = try Results(r.stdout)
        #expect(results.statuses == ["passed", "changed", "passed"])
        let f = results.frames[1]
        let report = dir.appendingPathComponent("report")
        let expected = try PNG.read(path: report.appendingPathComponent(try #require(f["expected"] as? String)).path).image
        let actual = try PNG.read(path: report.appendingPathComponent(try #require(f["actual"] as? String)).path).image
        #expect(expected == old[1] && actual == new[1])
        #expect(try PNG.read(path: dir.appendingPathComponent("e/0001.png").path).image == new[1], "the frame was recorded")
        #expect(f["diff"] is String)
    }

    @Test("--record missing into folders of subfolders lists the files written per folder, with the git add that commits them")
    func recordMissingSubfolders() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let actual = dir.appendingPathComponent("a"), expected = dir.appendingPathComponent("e")
        try Recording.write((0..<3).map { Recording.frame($0) }, to: actual.appendingPathComponent("one"))
        try Recording.write((0..<2).map { Recording.frame($0) }, to: actual.appendingPathComponent("two"))
        let run = try Self.compare(["--actual", actual.path, "--expected", expected.path, "--record", "missing"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("5 expected frames were written because none existed in \(expected.path)")
                && run.stdout.contains("  \(expected.path)/one/0000.png ... 0002.png (3 files)\n  \(expected.path)/two/0000.png ... 0001.png (2 files)\n"
                                       + "  git add \(expected.path)\n"), "\(run.stdout)")
        #expect(try Self.compare(["--actual", actual.path, "--expected", expected.path, "--record", "missing"], in: dir).status == 0)
    }

    @Test("a capture with no frames is an error, never a pass: an empty folder, one of JPEGs, a --filter matching nothing")
    func noFrames() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty"), approved = dir.appendingPathComponent("approved")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // Nothing approved either, in every record mode: it passed, wrote nothing, and passed again.
        for mode in ["never", "missing"] {
            let run = try Self.compare(["--actual", empty.path, "--expected", approved.path, "--record", mode], in: dir)
            #expect(run.status == 2 && run.stderr.contains("\(empty.path): no frames to compare: the folder holds no PNG files"), "\(mode): \(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: approved.path), "nothing recorded")
        // Screenshots of another kind: the error says what the folder holds.
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for k in 0..<3 { try Data([0xFF, 0xD8, 0xFF]).write(to: shots.appendingPathComponent("IMG_000\(k).JPG")) }
        let jpegs = try Self.compare(["--actual", shots.path, "--expected", approved.path, "--record", "missing"], in: dir)
        #expect(jpegs.status == 2 && jpegs.stderr.contains("(it holds 3 other files: .jpg; compare reads PNG frames"), "\(jpegs)")
        // Links to PNGs are not followed: the error says so.
        let linked = dir.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        try Recording.write([Recording.frame(0)], to: dir.appendingPathComponent("real"))
        try FileManager.default.createSymbolicLink(atPath: linked.appendingPathComponent("0000.png").path,
                                                   withDestinationPath: dir.appendingPathComponent("real/0000.png").path)
        let links = try Self.compare(["--actual", linked.path, "--expected", approved.path], in: dir)
        #expect(links.status == 2 && links.stderr.contains("(its 1 PNG name is a symbolic link, which are not followed"), "\(links)")
        // Frames there, but a filter that matches none of them.
        let frames = dir.appendingPathComponent("frames")
        try Recording.write((0..<3).map { Recording.frame($0) }, to: frames)
        let filtered = try Self.compare(["--actual", frames.path, "--expected", frames.path, "--filter", "nothing*"], in: dir)
        #expect(filtered.status == 2 && filtered.stderr.contains("--filter nothing* matches no frame"), "\(filtered)")
        #expect(try Self.compare(["--actual", frames.path, "--expected", frames.path, "--filter", "0001*"], in: dir).status == 0)
    }

    @Test("folders whose PNGs are tagged with different colour spaces say that no profile is applied")
    func colourProfiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<3).map { Recording.frame($0) }
        let plain = dir.appendingPathComponent("plain"), p3 = dir.appendingPathComponent("p3"), srgb = dir.appendingPathComponent("srgb")
        try Recording.write(frames, to: plain)
        // The same files with a chunk after IHDR (which ends at byte 33): an iCCP profile named
        // "Display P3" (PNG specification 11.3.3.3: name, a zero byte, method 0, then the
        // profile; its contents do not matter here), or an sRGB chunk (rendering intent 0).
        func tagged(_ type: String, _ payload: [UInt8], into folder: URL) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for k in 0..<frames.count {
                let name = String(format: "%04d.png", k)
                let bytes = [UInt8](try Data(contentsOf: plain.appendingPathComponent(name)))
                let body = Array(type.utf8) + payload
                let crc = pngCRC32(body[...])
                let chunk = [UInt8(payload.count >> 24), UInt8(payload.count >> 16 & 0xFF), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF)]
                    + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
                try Data(bytes[0..<33] + chunk + bytes[33...]).write(to: folder.appendingPathComponent(name))
            }
        }
        try tagged("iCCP", Array("Display P3".utf8) + [0, 0] + [UInt8](repeating: 7, count: 40), into: p3)
        try tagged("sRGB", [0], into: srgb)
        let r = try Self.compare(["--actual", p3.path, "--expected", plain.path, "--perceptual", "0"], in: dir)
        #expect(r.status == 0, "the stored values are the same: \(r)")
        #expect(r.stdout.contains("actual frames are tagged Display P3 (an ICC profile) (0000.png) and expected frames not tagged (sRGB): "
                                  + "NavReel compares the stored values and converts no colour profile"), "\(r.stdout)")
        for (a, e) in [(srgb, plain), (plain, plain), (p3, p3)] {
            let quiet = try Self.compare(["--actual", a.path, "--expected", e.path, "--perceptual", "0"], in: dir)
            #expect(quiet.status == 0 && !quiet.stdout.contains("colour profile"), "\(a.lastPathComponent) against \(e.lastPathComponent): \(quiet.stdout)")
        }
    }

    @Test("a file with two video tracks says which one was read")
    func twoVideoTracks() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = dir.appendingPathComponent("small"), large = dir.appendingPathComponent("large")
        try Recording.write((0..<3).map { Recording.frame($0, width: 60) }, to: small)
        try Recording.write((0..<3).map { Recording.frame($0) }, to: large)
        let two = dir.appendingPathComponent("two.mov")
        try Recording.ffmpeg(["-framerate", "30", "-i", small.appendingPathComponent("%04d.png").path,
                              "-framerate", "30", "-i", large.appendingPathComponent("%04d.png").path,
                              "-map", "0", "-map", "1"] + Recording.losslessH264 + [two.path])
        let read = try MediaReader.decode(path: two.path)
        #expect(read.info.videoTracks == 2)
        // The track read is the one whose frames came back: the first is 60 wide, the second 120.
        let width = try #require(read.frames.first?.image.width)
        #expect((read.info.track == 1 && width == 60) || (read.info.track == 2 && width == 120), "track \(read.info.track), \(width) wide")
        let r = try Self.compare(["--actual", two.path, "--expected", width == 60 ? small.path : large.path, "--perceptual", "0"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("has 2 video tracks; NavReel read track \(read.info.track) of them (\(width)x")
                && r.stdout.contains("this one is 0:v:\(read.info.track - 1))"), "\(r)")
        let cropped = try Self.compare(["--actual", two.path, "--expected", large.path, "--crop-actual", "0,0,500,20"], in: dir)
        #expect(cropped.status == 2 && cropped.stderr.contains("(the file has 2 video tracks and this is track \(read.info.track))"), "\(cropped)")
    }

    @Test("frames whose timestamps do not advance are named: --fps sampling would show only the last of them")
    func brokenTiming() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("f")
        try Recording.write((0..<6).map { Recording.frame($0) }, to: frames)
        let video = dir.appendingPathComponent("v.mp4")
        try Recording.encode(frames, Recording.losslessH264, to: video)
        var bytes = [UInt8](try Data(contentsOf: video))
        // Every sample's duration 0 in the time-to-sample table (stts, ISO/IEC 14496-12 8.6.1.2:
        // version and flags, the entry count, then each entry's sample count and delta).
        let stts = try #require(Recording.box("stts", in: bytes))
        let entries = bytes[(stts + 8)..<(stts + 12)].reduce(0) { $0 << 8 | Int($1) }
        for e in 0..<entries { for k in 0..<4 { bytes[stts + 12 + 8 * e + 4 + k] = 0 } }
        let flat = dir.appendingPathComponent("flat.mp4")
        try Data(bytes).write(to: flat)
        let sampled = try MediaReader.decode(path: flat.path, fps: 10)
        #expect(sampled.info.untimedFrames == 5, "\(sampled.info.untimedFrames)")
        #expect(try MediaReader.decode(path: video.path, fps: 10).info.untimedFrames == 0)
        let r = try Self.compare(["--actual", flat.path, "--expected", frames.path, "--fps", "10", "--perceptual", "0"], in: dir)
        #expect(r.stdout.contains("actual \(flat.path): 5 of its frames have a timestamp no later than the frame before"), "\(r)")
        // Without --fps every frame is taken in order, and they match.
        #expect(try Self.compare(["--actual", flat.path, "--expected", frames.path, "--perceptual", "0", "--quiet"], in: dir).status == 0)
    }

    @Test("a still stretch that --fps sampling makes too long names the timeline, not the flag already given")
    func longStillStretch() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("f")
        try Recording.write([Recording.frame(0), Recording.frame(1)], to: frames)
        // Two frames 20 s apart (one frame every 20 s): 200 samples at --fps 10.
        let video = dir.appendingPathComponent("still.mp4")
        try Recording.ffmpeg(["-framerate", "0.05", "-i", frames.appendingPathComponent("%04d.png").path] + Recording.losslessH264
                             + ["-r", "0.05", video.path])
        var limits = MediaLimits()
        limits.maxFrames = 100
        #expect { try MediaReader.decode(path: video.path, fps: 10, limits: limits) } throws: {
            let text = "\($0)"
            return text.contains("sampled at --fps 10, its timeline is too long: more than 100 frames by 10.0 s") && text.contains("ffmpeg -ss and -t")
        }
        // At one sample a second the same timeline fits: 40 samples of 40 s.
        #expect(try MediaReader.decode(path: video.path, fps: 1, limits: limits).frames.count == 40)
    }

    @Test("FFmpeg is loaded only to decode an animation or video: folders of PNGs need none, and a missing FFmpeg is a clear error")
    func ffmpegLoadedOnDemand() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<3).map { Recording.frame($0) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write(frames, to: folder)
        let gif = dir.appendingPathComponent("a.gif")
        try Recording.encode(folder, Recording.gif, to: gif)
        // An empty folder as the only place FFmpeg may come from: as if it were not installed.
        let empty = dir.appendingPathComponent("no-ffmpeg")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noFFmpeg = ["NAVREEL_FFMPEG_LIB_DIR": empty.path]

        let pngs = try CLI.run(["compare", "--report", dir.appendingPathComponent("r1").path, "--actual", folder.path,
                                "--expected", folder.path, "--quiet"], environment: noFFmpeg)
        #expect(pngs.status == 0, "PNG folders never load FFmpeg: \(pngs)")
        let missing = try CLI.run(["compare", "--report", dir.appendingPathComponent("r2").path, "--actual", gif.path,
                                   "--expected", folder.path, "--perceptual", "0"], environment: noFFmpeg)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("a.gif: FFmpeg's libraries, needed to read animations and videos, could not be loaded"), "\(missing.stderr)")
        #expect(missing.stderr.contains(empty.path + "/libavutil"), "the message names the library it looked for: \(missing.stderr)")
        #expect(missing.stderr.contains("install FFmpeg"), "\(missing.stderr)")
        // Without the override the same GIF decodes (loaded lazily from the system).
        let found = try CLI.run(["compare", "--report", dir.appendingPathComponent("r3").path, "--actual", gif.path,
                                 "--expected", folder.path, "--perceptual", "0", "--quiet"])
        #expect(found.status == 0, "\(found)")
    }

    @Test("reports: JUnit, GitHub annotations and step summary, and an HTML report linking the decoded frames")
    func reports() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("frames"), changedFolder = dir.appendingPathComponent("changed")
        let frames = (0..<5).map { Recording.frame($0) }
        try Recording.write(frames, to: folder)
        var changed = frames
        changed[3] = Recording.frame(3, bar: RGBA8(255, 0, 0))
        try Recording.write(changed, to: changedFolder)
        let video = dir.appendingPathComponent("app.mp4")
        try Recording.encode(changedFolder, Recording.losslessH264, to: video)
        let summary = dir.appendingPathComponent("summary.md")
        _ = FileManager.default.createFile(atPath: summary.path, contents: nil)
        let junit = dir.appendingPathComponent("junit.xml")
        let r = try CLI.run(["compare", "--actual", video.path, "--expected", folder.path, "--report", dir.appendingPathComponent("report").path,
                             "--junit", junit.path], environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
        #expect(r.status == 1)
        // Named by the folder of expected frames, and pointing at the first failing one (a folder is no file to annotate).
        #expect(r.stdout.contains("::error file=\(folder.path)/0003.png,title=NavReel \(folder.path)::1 of 5 frames failed, first at frame 3"), "\(r.stdout)")
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("| \(folder.path) | captured | 5 |"))
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("failures=\"1\""))
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("<testsuite name=\"\(folder.path)\""))
        let results = try Results(String(contentsOf: dir.appendingPathComponent("report/results.json"), encoding: .utf8))
        // Every frame links an actual image inside the report (decoded frames are written there).
        for f in results.frames {
            let actual = try #require(f["actual"] as? String)
            #expect(actual.hasPrefix("captured/actual/"))
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("report/" + actual).path))
        }
    }

    @Test("decoding is deterministic: the same results and report images for any number of jobs")
    func deterministic() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write((0..<10).map { Recording.frame($0) }, to: folder)
        let video = dir.appendingPathComponent("a.mp4")
        try Recording.encode(folder, ["-c:v", "libx264", "-crf", "30", "-pix_fmt", "yuv420p"], to: video)
        var outputs: [String] = [], images: [[Data]] = []
        for jobs in ["1", "2", "3"] {
            let report = dir.appendingPathComponent("r\(jobs)")
            let r = try CLI.run(["compare", "--actual", video.path, "--expected", folder.path, "--report", report.path, "--jobs", jobs,
                                 "--json", "-", "--quiet", "--fps", "20"])
            #expect(r.status == 1, "lossy frames fail the default tolerance: \(r.stderr)")
            outputs.append(r.stdout.replacingOccurrences(of: "/r\(jobs)/", with: "/r/"))
            let names = try FileManager.default.contentsOfDirectory(atPath: report.appendingPathComponent("captured/actual").path).sorted()
            images.append(try names.map { try Data(contentsOf: report.appendingPathComponent("captured/actual/" + $0)) })
        }
        #expect(Set(outputs).count == 1)
        #expect(images[0] == images[1] && images[1] == images[2] && !images[0].isEmpty)
    }

    @Test("HEVC video decodes when this FFmpeg has the decoder")
    func hevc() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write((0..<6).map { Recording.frame($0) }, to: folder)
        let file = dir.appendingPathComponent("a.mov")
        do {
            try Recording.encode(folder, ["-c:v", "libx265", "-x265-params", "log-level=none:lossless=1", "-pix_fmt", "yuv444p", "-tag:v", "hvc1"], to: file)
        } catch {
            return // this ffmpeg cannot encode HEVC; the decoder is tested where it can
        }
        let r = try Self.compare(["--actual", file.path, "--expected", folder.path, "--perceptual", "0.05", "--json", "-", "--quiet"], in: dir)
        #expect(r.status == 0, "\(r)")
        #expect(try Results(r.stdout).frames.count == 6)
    }

    @Test("--fps samples a source from its timestamps")
    func fpsSampling() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<12).map { Recording.frame($0) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write(frames, to: folder)
        let video = dir.appendingPathComponent("a.mp4")
        try Recording.encode(folder, Recording.losslessH264, to: video)
        // 30 fps sampled at 10 fps: every third frame, at 0, 0.1, 0.2, 0.3 s.
        let every3 = dir.appendingPathComponent("every3")
        try Recording.write([0, 3, 6, 9].map { frames[$0] }, to: every3)
        let r = try Self.compare(["--actual", video.path, "--expected", every3.path, "--fps", "10", "--perceptual", "0", "--json", "-", "--quiet"], in: dir)
        #expect(r.status == 0, "\(r)")
        let results = try Results(r.stdout)
        #expect(results.frames.map { (($0["actualTime"] as? Double ?? -1) * 10).rounded() } == [0, 1, 2, 3])
        // Sampled at 20 fps, sample 1 (0.05 s) shows frame 1 (0.033 s): the frame on screen then.
        let r20 = try Self.compare(["--actual", video.path, "--expected", every3.path, "--fps", "20", "--perceptual", "0", "--json", "-", "--quiet"], in: dir)
        #expect(r20.status == 1)
        #expect(try Results(r20.stdout).frames.count == 8)
    }

    @Test("corrupt, truncated and unsupported files are errors naming the file, never a crash")
    func badFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write((0..<10).map { Recording.frame($0) }, to: folder)
        var cases: [(String, Data)] = [("text.mp4", Data("this is not a video".utf8)), ("empty.gif", Data())]
        for (name, codec) in [("gif", Recording.gif), ("apng", Recording.apng), ("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])] {
            let file = dir.appendingPathComponent("good.\(name)")
            try Recording.encode(folder, codec, to: file)
            let bytes = try Data(contentsOf: file)
            cases.append(("truncated.\(name)", bytes.prefix(bytes.count / 2)))
            cases.append(("header-only.\(name)", bytes.prefix(40)))
            var corrupt = bytes
            // Overwrite a stretch of the later frames' picture data with a pattern (the start of
            // a GIF or APNG is a palette, whose unused entries could change without harm).
            let from = bytes.count * 2 / 3
            for i in from..<min(bytes.count - 12, from + 100) { corrupt[i] = UInt8(truncatingIfNeeded: i &* 37) }
            cases.append(("corrupt.\(name)", corrupt))
        }
        // A file NavReel does not read: audio only.
        let wav = dir.appendingPathComponent("tone.mov")
        try Recording.ffmpeg(["-f", "lavfi", "-i", "sine=duration=0.2", "-c:a", "pcm_s16le", wav.path])
        cases.append(("tone.mov", try Data(contentsOf: wav)))
        for (name, bytes) in cases {
            let file = dir.appendingPathComponent(name)
            try bytes.write(to: file)
            let r = try Self.compare(["--actual", file.path, "--expected", folder.path], in: dir)
            #expect(r.status == 2 || r.status == 1, "\(name): a damaged file is an error, or (if the bytes that are left decode) a failure; never a pass or a crash: \(r)")
            if r.status == 2 { #expect(r.stderr.contains(file.path), "\(name): the message names the file: \(r.stderr)") }
        }
        // Files that cannot be read at all, and cut files, are exit 2 with a reason.
        for name in ["text.mp4", "empty.gif", "header-only.mp4", "tone.mov", "header-only.gif", "header-only.apng",
                     "truncated.gif", "truncated.apng", "truncated.mp4"] {
            let r = try Self.compare(["--actual", dir.appendingPathComponent(name).path, "--expected", folder.path], in: dir)
            #expect(r.status == 2, "\(name): \(r)")
        }
        // A recording whose index (moov) comes first, cut after some frames: still an error.
        let fast = dir.appendingPathComponent("fast.mp4")
        try Recording.encode(folder, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"], to: fast)
        let fastBytes = try Data(contentsOf: fast)
        try fastBytes.prefix(fastBytes.count * 3 / 4).write(to: fast)
        let cut = try Self.compare(["--actual", fast.path, "--expected", folder.path], in: dir)
        #expect(cut.status == 2, "\(cut)")
        #expect(cut.stderr.contains("fast.mp4: damaged or cut-short data"), "\(cut.stderr)")
        let gifCut = try Self.compare(["--actual", dir.appendingPathComponent("truncated.gif").path, "--expected", folder.path], in: dir)
        #expect(gifCut.stderr.contains("truncated.gif: truncated"), "\(gifCut.stderr)")
        // Cut exactly at a frame's edge, the data left is whole: FFmpeg reads a shorter video
        // without complaint, and `--record` wrote fewer approved frames. The index (stsz, ISO/IEC
        // 14496-12 8.7.3: version and flags, a common size, the count, then each size) lists
        // every frame; with faststart the data box is last and holds the frames in order.
        let whole = dir.appendingPathComponent("whole.mp4")
        try Recording.encode(folder, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"], to: whole)
        let wholeBytes = [UInt8](try Data(contentsOf: whole))
        let stsz = try #require(Recording.box("stsz", in: wholeBytes))
        func word(_ at: Int) -> Int { wholeBytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let count = word(stsz + 12)
        #expect(word(stsz + 8) == 0 && count == 10, "one size per frame, ten frames")
        let sizes = (0..<count).map { word(stsz + 16 + 4 * $0) }
        for dropped in [1, 4] {
            let edge = dir.appendingPathComponent("edge\(dropped).mp4")
            try Data(wholeBytes.prefix(wholeBytes.count - sizes.suffix(dropped).reduce(0, +))).write(to: edge)
            let r = try Self.compare(["--actual", edge.path, "--expected", folder.path], in: dir)
            #expect(r.status == 2 && r.stderr.contains("edge\(dropped).mp4: cut short: its index lists 10 frames and the data ends after \(10 - dropped) of them"), "\(r)")
            let record = dir.appendingPathComponent("record\(dropped)")
            let rec = try Self.compare(["--actual", edge.path, "--expected", record.path, "--record", "missing"], in: dir)
            #expect(rec.status == 2 && !FileManager.default.fileExists(atPath: record.appendingPathComponent("0000.png").path), "\(rec)")
        }
        // The same file whole reads all ten frames.
        #expect(try Self.compare(["--actual", whole.path, "--expected", folder.path, "--perceptual", "0.3", "--quiet"], in: dir).status != 2)
        // Before its index is written (a recording never stopped), and empty: each says so.
        let moovLast = try Data(contentsOf: dir.appendingPathComponent("good.mp4"))
        let unfinished = dir.appendingPathComponent("unfinished.mov")
        try moovLast.prefix(moovLast.count / 2).write(to: unfinished)
        let u = try Self.compare(["--actual", unfinished.path, "--expected", folder.path], in: dir)
        #expect(u.status == 2 && u.stderr.contains("unfinished.mov: no index (moov box): a QuickTime/MP4 recording that was never finished"), "\(u)")
        // Cut inside its index at the end of the file: QuickTime/MP4 by its first box, the index damaged.
        let lateCut = dir.appendingPathComponent("late-cut.mp4")
        let moovBytes = [UInt8](moovLast)
        let moov = try #require(Recording.box("moov", in: moovBytes))
        #expect(moov > moovBytes.count / 2, "the index is written after the data")
        try moovLast.prefix(moov + (moovBytes.count - moov) / 2).write(to: lateCut)
        let l = try Self.compare(["--actual", lateCut.path, "--expected", folder.path], in: dir)
        #expect(l.status == 2 && l.stderr.contains("late-cut.mp4: a QuickTime/MP4 file whose index (moov box) is damaged or cut short"), "\(l)")
        // Text named .mp4: FFmpeg takes it for MP4 by its name and misses the index, which is no
        // reason to tell the user a recording was never finished.
        let notes = dir.appendingPathComponent("notes.mp4")
        try Data("steps: push, pop\n".utf8).write(to: notes)
        let n = try Self.compare(["--actual", notes.path, "--expected", folder.path], in: dir)
        #expect(n.status == 2 && n.stderr.contains("notes.mp4: not a GIF, APNG or QuickTime/MP4 file NavReel can read") && !n.stderr.contains("moov"), "\(n)")
        let zero = dir.appendingPathComponent("zero.mov")
        try Data().write(to: zero)
        let z = try Self.compare(["--actual", zero.path, "--expected", folder.path], in: dir)
        #expect(z.status == 2 && z.stderr.contains("zero.mov: the file is empty (0 bytes)"), "\(z)")
        let tone = try Self.compare(["--actual", wav.path, "--expected", folder.path], in: dir)
        #expect(tone.stderr.contains("no video stream: its one track is audio or data"), "\(tone.stderr)")
        let text = try Self.compare(["--actual", dir.appendingPathComponent("x.avi").path, "--expected", folder.path], in: dir)
        #expect(text.status == 2)
    }

    @Test("--crop compares part of each input; --crop-actual and --crop-expected crop one side")
    func crop() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = dir.appendingPathComponent("e"), actual = dir.appendingPathComponent("a"), padded = dir.appendingPathComponent("p")
        let frames = (0..<4).map { Recording.frame($0) }
        try Recording.write(frames, to: expected)
        // The actual frames differ below the bar only.
        try Recording.write(frames.enumerated().map { k, f in var g = f; g[100, 38] = RGBA8(255, 0, 0); _ = k; return g }, to: actual)
        #expect(try Self.compare(["--actual", actual.path, "--expected", expected.path], in: dir).status == 1)
        let bar = try Self.compare(["--actual", actual.path, "--expected", expected.path, "--crop", "0,0,120,16", "--json", "-", "--quiet"], in: dir)
        #expect(bar.status == 0, "\(bar)")
        #expect(try Results(bar.stdout).statuses == Array(repeating: "passed", count: 4))
        // The report shows the cropped frames.
        let shown = try PNG.read(path: dir.appendingPathComponent("report/captured/actual/0000.png").path)
        #expect(shown.image.width == 120 && shown.image.height == 16)
        // A capture with a 10-pixel border around the same picture.
        let borders = frames.map { f -> Image in
            var g = Image(width: 140, height: 60, fill: RGBA8(0, 255, 0))
            for y in 0..<40 { for x in 0..<120 { g[x + 10, y + 10] = f[x, y] } }
            return g
        }
        try Recording.write(borders, to: padded)
        let video = dir.appendingPathComponent("p.mp4")
        try Recording.encode(padded, Recording.losslessH264, to: video)
        #expect(try Self.compare(["--actual", video.path, "--expected", expected.path], in: dir).status == 1)
        let one = try Self.compare(["--actual", video.path, "--expected", expected.path, "--crop-actual", "10,10,120,40", "--perceptual", "0"], in: dir)
        #expect(one.status == 0, "\(one)")
        let outside = try Self.compare(["--actual", video.path, "--expected", expected.path, "--crop", "100,0,100,10"], in: dir)
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("crop 100,0,100,10 does not fit"), "\(outside.stderr)")
        let bad = try Self.compare(["--actual", video.path, "--expected", expected.path, "--crop", "1,2,3"], in: dir)
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("X,Y,W,H"))
    }

    @Test("--ignore forgives a rectangle, counted as ignored and dimmed in the diff")
    func ignore() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let expected = dir.appendingPathComponent("e"), actual = dir.appendingPathComponent("a")
        let frames = (0..<3).map { Recording.frame($0) }
        try Recording.write(frames, to: expected)
        // A clock in the bar that differs in every frame.
        try Recording.write(frames.map { f in var g = f; for x in 50..<60 { g[x, 5] = RGBA8(255, 255, 255) }; return g }, to: actual)
        let plain = try Self.compare(["--actual", actual.path, "--expected", expected.path, "--json", "-", "--quiet"], in: dir)
        #expect(plain.status == 1)
        let r = try Self.compare(["--actual", actual.path, "--expected", expected.path, "--ignore", "48,0,14,16", "--json", "-", "--quiet"], in: dir)
        #expect(r.status == 0, "\(r)")
        let c = try #require(try Results(r.stdout).frames.first?["comparison"] as? [String: Any])
        #expect((c["forgiven"] as? [String: Int])?["ignored"] == 10, "the ten changed pixels")
        // The report keeps the rectangle, to outline it over the frames.
        let run = try #require((try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])
        #expect((run.first?["ignored"] as? [[String: Int]]) == [["x": 48, "y": 0, "width": 14, "height": 16]])
        // With a crop, ignored rectangles stay in the input's pixels.
        let cropped = try Self.compare(["--actual", actual.path, "--expected", expected.path, "--crop", "40,0,80,20", "--ignore", "48,0,14,16",
                                        "--json", "-", "--quiet"], in: dir)
        #expect(cropped.status == 0, "\(cropped)")
        let croppedRun = try #require((try JSONSerialization.jsonObject(with: Data(cropped.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])
        #expect((croppedRun.first?["ignored"] as? [[String: Int]]) == [["x": 8, "y": 0, "width": 14, "height": 16]], "moved with the crop")
        let wrong = try Self.compare(["--actual", actual.path, "--expected", expected.path, "--ignore", "0,20,14,16"], in: dir)
        #expect(wrong.status == 1, "an ignored rectangle elsewhere forgives nothing here")
    }

    @Test("--align finds the offset; frames the recording did not reach fail unless a still lead-in or tail; an offset of 7 with --align 5 fails clearly")
    func align() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = (0..<30).map { Recording.frame($0) }
        let expected = dir.appendingPathComponent("e")
        try Recording.write(Array(all[0..<20]), to: expected)
        for shift in [3, 7] {
            let folder = dir.appendingPathComponent("shift\(shift)")
            try Recording.write(Array(all[shift..<(shift + 20)]), to: folder)
            let video = dir.appendingPathComponent("shift\(shift).mp4")
            try Recording.encode(folder, Recording.losslessH264, to: video)
        }
        // Without --align a recording that starts 3 frames late fails.
        let shifted = dir.appendingPathComponent("shift3.mp4").path
        #expect(try Self.compare(["--actual", shifted, "--expected", expected.path], in: dir).status == 1)
        // It missed the first three frames, which move: they are missing, not excused, while the
        // frames it has past the expected ones are not compared.
        let r = try Self.compare(["--actual", shifted, "--expected", expected.path, "--align", "--perceptual", "0"], in: dir)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("aligned: actual frame k-3 is compared with expected frame k"), "\(r.stdout)")
        #expect(r.stdout.contains("17 frames overlap"))
        #expect(r.stdout.contains("23 frames: 17 passed, 3 failed, 3 not compared (outside the aligned overlap)"), "\(r.stdout)")
        // The frames outside the overlap are reported, not dropped.
        let json = try Self.compare(["--actual", shifted, "--expected", expected.path, "--align", "--json", "-", "--quiet"], in: dir)
        let statuses = try Results(json.stdout).statuses
        #expect(statuses.count == 23)
        #expect(statuses.filter { $0 == "skipped" }.count == 3)
        #expect(statuses.filter { $0 == "passed" }.count == 17)
        #expect(Array(statuses.prefix(3)) == ["failed", "failed", "failed"], "\(statuses)")
        // A recording that started late during a still lead-in passes: the expected frames it
        // missed show what the first compared one shows. Here three still frames, then the motion;
        // the recording catches one still frame.
        let still = all[0]
        let lead = dir.appendingPathComponent("lead"), late = dir.appendingPathComponent("late")
        try Recording.write([still, still, still] + Array(all[1..<18]), to: lead)
        try Recording.write([still] + Array(all[1..<20]), to: late)
        let leadIn = try Self.compare(["--actual", late.path, "--expected", lead.path, "--align", "--perceptual", "0"], in: dir)
        #expect(leadIn.status == 0, "\(leadIn)")
        #expect(leadIn.stdout.contains("actual frame k-2") && leadIn.stdout.contains("22 frames: 18 passed, 0 failed, 4 not compared"), "\(leadIn.stdout)")
        let leadJSON = try Self.compare(["--actual", late.path, "--expected", lead.path, "--align", "--perceptual", "0", "--verbose"], in: dir)
        #expect(leadJSON.stdout.contains("the recording did not reach it, and it shows what 0002.png shows (a still lead-in or tail)"), "\(leadJSON.stdout)")
        // Two folders align too, and the offset goes the other way when the actual starts early.
        // Started 3 frames early and as long as the expected frames, it stopped before their last
        // three screens (20-22): those are missing.
        let early = try Self.compare(["--actual", expected.path, "--expected", dir.appendingPathComponent("shift3").path, "--align", "4",
                                      "--perceptual", "0"], in: dir)
        #expect(early.status == 1, "\(early)")
        #expect(early.stdout.contains("actual frame k+3") && early.stdout.contains("23 frames: 17 passed, 3 failed, 3 not compared"), "\(early.stdout)")
        // The same, with the last expected screen held still for three frames: the recording
        // stopped a little sooner in the still tail, which is not a failure.
        let tail = dir.appendingPathComponent("tail")
        try Recording.write(Array(all[3..<20]) + [all[19], all[19], all[19]], to: tail)
        let stillTail = try Self.compare(["--actual", expected.path, "--expected", tail.path, "--align", "4", "--perceptual", "0"], in: dir)
        #expect(stillTail.status == 0 && stillTail.stdout.contains("23 frames: 17 passed, 0 failed, 6 not compared"), "\(stillTail)")
        let far = try Self.compare(["--actual", dir.appendingPathComponent("shift7.mp4").path, "--expected", expected.path, "--align", "5"], in: dir)
        #expect(far.status == 1, "\(far)")
        #expect(far.stdout.contains("is at the edge of the search (±5) and frames still differ"), "\(far.stdout)")
        #expect(far.stdout.contains("try --align 10"))
        // A caret that blinks in the still lead-in: with --temporal the frames the recording did
        // not reach are judged as the run judges the others, with their neighbours.
        func marked(_ image: Image, x: Int, width: Int, height: Int) -> Image {
            var out = image
            for y in 20..<(20 + height) { for dx in 0..<width { out[x + dx, y] = RGBA8(0, 0, 0) } }
            return out
        }
        let plainA = Recording.frame(0), caret = marked(plainA, x: 100, width: 2, height: 9)   // 18 pixels
        let blinkE = dir.appendingPathComponent("blink-e"), blinkA = dir.appendingPathComponent("blink-a")
        try Recording.write([caret, plainA, caret, plainA, caret, plainA, all[5], all[9]], to: blinkE)
        try Recording.write([plainA, caret, plainA, all[5], all[9]], to: blinkA)
        let blink = try Self.compare(["--actual", blinkA.path, "--expected", blinkE.path, "--align", "5", "--temporal", "--perceptual", "0"], in: dir)
        #expect(blink.status == 0 && blink.stdout.contains("actual frame k-3"), "\(blink)")
        // The recording's own frame must be within the tolerance of a frame it did not reach,
        // not only the expected frames of each other: 4 pixels off the still, 22 off the skipped frame.
        let spot = marked(plainA, x: 60, width: 2, height: 2)
        let twiceE = dir.appendingPathComponent("twice-e"), twiceA = dir.appendingPathComponent("twice-a")
        try Recording.write([caret, plainA, all[5], all[9]], to: twiceE)
        try Recording.write([spot, all[5], all[9]], to: twiceA)
        let twice = try Self.compare(["--actual", twiceA.path, "--expected", twiceE.path, "--align", "5", "--perceptual", "0",
                                      "--max-diff-pixels", "18"], in: dir)
        #expect(twice.status == 1 && twice.stdout.contains("MISSING FRAME 0000.png")
                && twice.stdout.contains("the recording did not reach it, and it differs from 0001.png, the nearest frame compared"), "\(twice)")
        // The edge-of-search warning speaks of frames compared, not of frames the recording did not reach.
        #expect(!twice.stdout.contains("edge of the search"), "\(twice.stdout)")
        // A recording cut short is missing frames, not "not compared". This one starts at the
        // expected start and stops after 9 frames: expected frames 9-19 are missing.
        let cut = dir.appendingPathComponent("cut")
        try Recording.write(Array(all[0..<9]), to: cut)
        let short = try Self.compare(["--actual", cut.path, "--expected", expected.path, "--align", "--perceptual", "0", "--json", "-"], in: dir)
        #expect(short.status == 1, "\(short)")
        let shortStatuses = try Results(short.stdout).statuses
        #expect(shortStatuses.filter { $0 == "passed" }.count == 9 && shortStatuses.filter { $0 == "failed" }.count == 11, "\(shortStatuses)")
        #expect(short.stderr.contains("20 frames: 9 passed, 11 failed"), "\(short.stderr)")
        // One frame of a recording: 19 frames missing, whatever the offset found.
        let one = dir.appendingPathComponent("one")
        try Recording.write([all[0]], to: one)
        let single = try Self.compare(["--actual", one.path, "--expected", expected.path, "--align", "--perceptual", "0", "--quiet"], in: dir)
        #expect(single.status == 1, "\(single)")
    }

    @Test("--record writes expected frames from a recording; approve accepts a compare report's failures atomically")
    func recordAndApprove() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("src"), changedSource = dir.appendingPathComponent("src2")
        let frames = (0..<6).map { Recording.frame($0) }
        try Recording.write(frames, to: source)
        var changed = frames
        changed[2] = Recording.frame(2, bar: RGBA8(255, 0, 0))
        changed[4] = Recording.frame(4, bar: RGBA8(255, 0, 0))
        try Recording.write(changed, to: changedSource)
        let video = dir.appendingPathComponent("app.mp4"), video2 = dir.appendingPathComponent("app2.mp4")
        try Recording.encode(source, Recording.losslessH264, to: video)
        try Recording.encode(changedSource, Recording.losslessH264, to: video2)
        let expected = dir.appendingPathComponent("approved")
        let never = try Self.compare(["--actual", video.path, "--expected", expected.path], in: dir)
        #expect(never.status == 2, "a missing expected folder is an error unless recording")
        // Writing expected frames because none existed fails that run, as a check that writes new
        // baselines does, and names the files to review; the report says failed too.
        let first = try Self.compare(["--actual", video.path, "--expected", expected.path, "--record", "missing", "--crop", "0,0,120,16"], in: dir)
        #expect(first.status == 1, "\(first)")
        #expect(first.stdout.contains("6 expected frames were written because none existed in \(expected.path); this run fails"), "\(first.stdout)")
        #expect(first.stdout.contains("  \(expected.path)/0000.png ... 0005.png (6 files)\n  git add \(expected.path)\n"), "\(first.stdout)")
        let firstResults = try String(contentsOf: dir.appendingPathComponent("report/results.json"), encoding: .utf8)
        #expect(firstResults.contains("\"recordMode\": \"missing\"") && firstResults.contains("\"verdict\": \"failed\""), "\(firstResults.prefix(600))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted() == (0..<6).map { String(format: "%04d.png", $0) })
        // Nothing missing: the same command compares and passes.
        let again = try Self.compare(["--actual", video.path, "--expected", expected.path, "--record", "missing", "--crop", "0,0,120,16"], in: dir)
        #expect(again.status == 0 && !again.stdout.contains("written because none existed"), "\(again)")
        // --record failed and all write missing frames without failing.
        for mode in ["failed", "all"] {
            let other = dir.appendingPathComponent("approved-\(mode)")
            let run = try Self.compare(["--actual", video.path, "--expected", other.path, "--record", mode], in: dir)
            #expect(run.status == 0 && run.stdout.contains("6 recorded"), "\(mode): \(run)")
        }
        let bar = try PNG.read(path: expected.appendingPathComponent("0002.png").path)
        #expect(bar.image.width == 120 && bar.image.height == 16 && bar.image[3, 3] == RGBA8(0, 0, 255))
        #expect(try Self.compare(["--actual", video.path, "--expected", expected.path, "--crop", "0,0,120,16", "--perceptual", "0"], in: dir).status == 0)

        // The app changed: two frames fail; approve makes them the expected frames.
        let report = dir.appendingPathComponent("report")
        let failing = try Self.compare(["--actual", video2.path, "--expected", expected.path, "--crop", "0,0,120,16"], in: dir)
        #expect(failing.status == 1)
        let before = try Data(contentsOf: expected.appendingPathComponent("0000.png"))
        // A damaged report changes nothing: every image is decoded before anything is written.
        let artifact = report.appendingPathComponent("captured/actual/0004.png")
        let good = try Data(contentsOf: artifact)
        try Data("damaged".utf8).write(to: artifact)
        let refused = try CLI.run(["approve", "--report", report.path])
        #expect(refused.status == 2, "\(refused)")
        #expect(try PNG.read(path: expected.appendingPathComponent("0002.png").path).image[3, 3] == RGBA8(0, 0, 255))
        try good.write(to: artifact)
        let approve = try CLI.run(["approve", "--report", report.path])
        #expect(approve.status == 0, "\(approve)")
        #expect(approve.stdout.contains("2 frames approved"), "\(approve.stdout)")
        #expect(try PNG.read(path: expected.appendingPathComponent("0002.png").path).image[3, 3] == RGBA8(255, 0, 0))
        #expect(try Data(contentsOf: expected.appendingPathComponent("0000.png")) == before, "passing frames are not rewritten")
        #expect(try Self.compare(["--actual", video2.path, "--expected", expected.path, "--crop", "0,0,120,16", "--perceptual", "0"], in: dir).status == 0)
        // --record failed does the same in one step; --record into a video is refused.
        let back = try Self.compare(["--actual", video.path, "--expected", expected.path, "--crop", "0,0,120,16", "--record", "failed"], in: dir)
        #expect(back.status == 0, "\(back)")
        #expect(back.stdout.contains("UPDATED 0002.png"), "\(back.stdout)")
        #expect(try PNG.read(path: expected.appendingPathComponent("0002.png").path).image[3, 3] == RGBA8(0, 0, 255))
        let intoVideo = try Self.compare(["--actual", video.path, "--expected", video2.path, "--record", "all"], in: dir)
        #expect(intoVideo.status == 2)
        #expect(intoVideo.stderr.contains("--record writes PNG frames into a folder"))
        let videoReport = dir.appendingPathComponent("video-report")
        #expect(try CLI.run(["compare", "--actual", video.path, "--expected", video2.path, "--report", videoReport.path]).status == 1)
        let approveIntoVideo = try CLI.run(["approve", "--report", videoReport.path])
        #expect(approveIntoVideo.status == 2)
        #expect(approveIntoVideo.stderr.contains("approve writes PNG frames into a folder"), "\(approveIntoVideo.stderr)")
    }

    @Test("navreel-compare.yaml beside the expected frames sets tolerance, crop, ignore, fps and align; flags win; errors have a line")
    func settingsFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let all = (0..<20).map { Recording.frame($0) }
        let expected = dir.appendingPathComponent("e"), actualFolder = dir.appendingPathComponent("a")
        // Two still frames, then the motion; the recording starts two frames late, in the still.
        try Recording.write(([all[2], all[2]] + Array(all[2..<12])).map { $0.cropped(to: PixelRect(x: 0, y: 0, width: 120, height: 36))! }, to: expected)
        try Recording.write(Array(all[2..<14]).map { f in var g = f; for x in 0..<5 { g[x, 38] = RGBA8(255, 0, 0) }; g[70, 5] = RGBA8(0, 255, 0); return g }, to: actualFolder)
        let video = dir.appendingPathComponent("a.mp4")
        try Recording.encode(actualFolder, Recording.losslessH264, to: video)
        let settings = expected.appendingPathComponent("navreel-compare.yaml")
        try """
        # captured from the app
        perceptual: 0
        maxDiffPixels: 0
        cropActual: [0, 0, 120, 36]
        ignore:
          - [68, 3, 4, 4]
        align: 3
        """.write(to: settings, atomically: true, encoding: .utf8)
        let r = try Self.compare(["--actual", video.path, "--expected", expected.path], in: dir)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("actual frame k-2"), "\(r.stdout)")
        let strict = try Self.compare(["--actual", video.path, "--expected", expected.path, "--no-align"], in: dir)
        #expect(strict.status == 1, "the flag wins over the file")
        try "perceptual: 0\ncrop: [0, 0, 10]\nalign: 3\nmaxDifPixels: 2\n".write(to: settings, atomically: true, encoding: .utf8)
        let bad = try Self.compare(["--actual", video.path, "--expected", expected.path], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("navreel-compare.yaml:2:"), "\(bad.stderr)")
        #expect(bad.stderr.contains("did you mean `maxDiffPixels`"), "\(bad.stderr)")

        // metric, as --metric: the file's unless the flag says otherwise; a wrong name is an error with a suggestion.
        let m1 = dir.appendingPathComponent("m1"), m2 = dir.appendingPathComponent("m2")
        try Recording.write([Image(width: 8, height: 8, fill: RGBA8(255, 255, 255))], to: m1)
        try Recording.write([Image(width: 8, height: 8, fill: RGBA8(254, 254, 254))], to: m2)   // passes, not identical
        func metrics(_ extra: [String]) throws -> Set<String> {
            let r = try Self.compare(["--actual", m2.path, "--expected", m1.path, "--json", "-"] + extra, in: dir)
            #expect(r.status == 0, "\(r)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let frames = ((object["runs"] as? [[String: Any]]) ?? []).flatMap { $0["frames"] as? [[String: Any]] ?? [] }
            return Set(frames.compactMap { ($0["comparison"] as? [String: Any])?["metric"] as? String })
        }
        let own = m1.appendingPathComponent("navreel-compare.yaml")
        try "metric: pixelmatch\n".write(to: own, atomically: true, encoding: .utf8)
        #expect(try metrics([]) == ["pixelmatch"])
        #expect(try metrics(["--metric", "navreel"]) == ["navreel"])
        try "metric: pixelmath\n".write(to: own, atomically: true, encoding: .utf8)
        let wrong = try Self.compare(["--actual", m2.path, "--expected", m1.path], in: dir)
        #expect(wrong.status == 2 && wrong.stderr.contains("navreel-compare.yaml:1:9: error: metric must be one of navreel, pixelmatch")
                && wrong.stderr.contains("pixelmatch"), "\(wrong.stderr)")
        // The line starts with the file's path, as lint's do: what editors and CI annotations read.
        #expect(wrong.stderr.hasPrefix(own.path + ":1:9: error: "), "\(wrong.stderr)")
        #expect(CompareMetricName.allCases.map(\.rawValue) == ComparisonSettings.Metric.allCases.map(\.rawValue))
    }
}
