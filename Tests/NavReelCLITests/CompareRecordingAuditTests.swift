import Foundation
import Testing
@testable import NavReel
import Raster

/// `compare` on what an audit with real-device recordings (HBDNavigationBar's GIFs, re-encoded,
/// 2026-11-27) found: a wide --align chose a shift that left a few still frames overlapping, and
/// an unchanged recording failed; recording with alignment into an empty folder failed; a folder
/// matched by order had a file overwritten by `--record missing`; a file recorded as one crop
/// was cropped again at another's coordinates; the offset was missing from the reports.
@Suite("compare: alignment, recording and crops with real recordings", .serialized)
struct CompareRecordingAuditTests {
    /// A still lead-in and tail (frame 0's picture) around motion, as a recording of one
    /// transition is; `noise` adds what an encoder does to moving frames only (1 level on every
    /// red channel of them).
    static func transition(_ count: Int, still: Int, noise: Bool) -> [Image] {
        (0..<count).map { k in
            let moving = k >= still && k < count - still
            var image = Recording.frame(moving ? k : 0)
            if noise && moving {
                for y in 0..<image.height { for x in 0..<image.width { var p = image[x, y]; p.r = p.r == 255 ? 254 : p.r + 1; image[x, y] = p } }
            }
            return image
        }
    }

    @Test("a wide --align scores every expected frame, so an unchanged recording is aligned at 0 and passes", arguments: [10, 20, 30])
    func wideAlign(_ n: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Recording.write(Self.transition(24, still: 4, noise: false), to: dir.appendingPathComponent("e"))
        try Recording.write(Self.transition(24, still: 4, noise: true), to: dir.appendingPathComponent("a"))
        let r = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--align", "\(n)", "--perceptual", "0.1", "--report", "r"], in: dir)
        // Over the overlap alone, a shift of -20 left four still frames (no noise) overlapping and won.
        #expect(r.status == 0 && r.stdout.contains("actual frame k+0 is compared with expected frame k"), "\(r)")
        #expect(r.stdout.contains("24 frames: 24 passed"), "\(r)")
        // The offset is in the reports as well as on the console.
        let results = try String(contentsOf: dir.appendingPathComponent("r/results.json"), encoding: .utf8)
        #expect(results.contains("aligned: actual frame k+0 is compared with expected frame k (best offset within ±\(n))"), "\(results)")
        // A recording that started 5 frames early is still found.
        try Recording.write(Array(repeating: Recording.frame(0), count: 5) + Self.transition(24, still: 4, noise: true),
                            to: dir.appendingPathComponent("early"))
        let early = try CLI.run(["compare", "--actual", "early", "--expected", "e", "--align", "\(n)", "--perceptual", "0.1", "--report", "r"], in: dir)
        #expect(early.status == 0 && early.stdout.contains("actual frame k+5 is compared"), "\(early)")
    }

    @Test("recording with alignment into an empty or new folder records from the first frame and says there was nothing to align with")
    func recordAligned() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Recording.write((0..<6).map { Recording.frame($0) }, to: dir.appendingPathComponent("a"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for folder in ["new", "empty"] {
            for mode in ["missing", "all"] {
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(folder + "/0000.png"))
                let r = try CLI.run(["compare", "--actual", "a", "--expected", folder, "--align", "5", "--record", mode, "--report", "r"], in: dir)
                #expect(r.status == (mode == "missing" ? 1 : 0), "\(folder) \(mode): \(r)")
                #expect(r.stdout.contains("holds no expected frames yet, so there was nothing to align with"), "\(r)")
                #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(folder + "/0005.png").path), "\(folder) \(mode)")
                try? FileManager.default.removeItem(at: dir.appendingPathComponent(folder))
                if folder == "empty" { try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true) }
            }
        }
        // The next compare aligns against what was recorded.
        _ = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--align", "5", "--record", "missing", "--report", "r"], in: dir)
        let next = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--align", "5", "--report", "r"], in: dir)
        #expect(next.status == 0 && next.stdout.contains("actual frame k+0"), "\(next)")
    }

    @Test("--record never overwrites a file of a folder matched by order, and says which file met which frame")
    func orderedFolderKeepsFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = (0..<6).map { Recording.frame($0) }
        try Recording.write(frames, to: dir.appendingPathComponent("src"))
        try Recording.encode(dir.appendingPathComponent("src"), fps: 10, Recording.apng, to: dir.appendingPathComponent("rec.png"))
        // Approved frames recorded by NavReel, then 0000.png deleted: 0001.png is now frame 0 by order.
        _ = try CLI.run(["compare", "--actual", "rec.png", "--expected", "e", "--record", "missing", "--report", "r"], in: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("e/0000.png"))
        let last = dir.appendingPathComponent("e/0005.png")
        let before = try Data(contentsOf: last)
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("e").path).sorted()
        for mode in ["missing", "failed", "all"] {
            // Frame 5 would be written as 0005.png, the file compared with frame 4: the record is refused whole.
            let r = try CLI.run(["compare", "--actual", "rec.png", "--expected", "e", "--record", mode, "--report", "r"], in: dir)
            #expect(r.status == 2 && r.stderr.contains("--record would add 1 frame from 0005.png on, but the folder is matched by order and 0005.png is already one of its files: nothing was written"), "\(mode): \(r)")
            #expect(try Data(contentsOf: last) == before, "--record \(mode) overwrote 0005.png with frame 5")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("e").path).sorted() == listing, "\(mode) wrote nothing")
        }
        let compared = try CLI.run(["compare", "--actual", "rec.png", "--expected", "e", "--report", "r"], in: dir)
        #expect(compared.stdout.contains("e is matched with rec.png frame by frame in order, so its 0001.png is its frame 0"), "\(compared)")
        // Should a frame be added one at a time anyway (the library's own guard), it is never written over a file.
        #expect(throws: UsageError.self) {
            var seq = try FrameSequence.open(dir.appendingPathComponent("e").path, crop: nil, fps: nil, limits: .default)
            seq.matchedByOrder = true
            var options = CaptureOptions()
            options.record = .missing
            _ = try SequenceComparison.record(SequenceComparison.Frame(path: "0005.png", status: .missingExpected), Recording.frame(5),
                                              previous: nil, expectedSeq: seq, capture: options)
        }
        #expect(try Data(contentsOf: last) == before)
        // Frames numbered by another tool (ffmpeg's %04d starts at 0001) are matched by order without a note.
        let other = dir.appendingPathComponent("ffmpeg")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        for (k, image) in frames.enumerated() {
            try Data(PNG.encode(image)).write(to: other.appendingPathComponent(String(format: "%04d.png", k + 1)))
        }
        let plain = try CLI.run(["compare", "--actual", "rec.png", "--expected", "ffmpeg", "--report", "r"], in: dir)
        #expect(plain.status == 0 && !plain.stdout.contains("in order, so its"), "\(plain)")
        // Such a folder shorter than the recording: the frames a record would add start at a name
        // it has (0004.png is its 4th file), so the whole record is refused before anything is written.
        try FileManager.default.removeItem(at: other.appendingPathComponent("0005.png"))
        try FileManager.default.removeItem(at: other.appendingPathComponent("0006.png"))
        let short = try CLI.run(["compare", "--actual", "rec.png", "--expected", "ffmpeg", "--record", "missing", "--report", "r"], in: dir)
        #expect(short.status == 2 && short.stderr.contains("--record would add 2 frames from 0004.png on, but the folder is matched by order and 0004.png is already one of its files: nothing was written"), "\(short)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).sorted() == ["0001.png", "0002.png", "0003.png", "0004.png"])
        // Compared without recording, the extra frames have names of their own, not the files'.
        let listed = try CLI.run(["compare", "--actual", "rec.png", "--expected", "ffmpeg", "--report", "r"], in: dir)
        #expect(listed.status == 1 && listed.stdout.contains("after/0004.png") && listed.stdout.contains("0005.png"), "\(listed)")
        // Named otherwise (an iPhone's IMG_...): a new frame's name would sort among them, so it is not written.
        let shots = dir.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for (k, image) in frames.prefix(4).enumerated() {
            try Data(PNG.encode(image)).write(to: shots.appendingPathComponent(String(format: "IMG_%04d.PNG", k + 1)))
        }
        let more = try CLI.run(["compare", "--actual", "rec.png", "--expected", "shots", "--record", "missing", "--report", "r"], in: dir)
        #expect(more.status == 2 && more.stderr.contains("0004.png would sort among its files (its last is IMG_0004.PNG): nothing was written"), "\(more)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shots.path).count == 4)
    }

    @Test("frames that all fail on their size say it once, as a range")
    func sizeOnce() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Recording.write((0..<5).map { Recording.frame($0) }, to: dir.appendingPathComponent("e"))
        try Recording.write((0..<5).map { Recording.frame($0, width: 240, height: 80) }, to: dir.appendingPathComponent("big"))
        let r = try CLI.run(["compare", "--actual", "big", "--expected", "e", "--report", "r"], in: dir)
        #expect(r.status == 1, "\(r)")
        let lines = r.stdout.split(separator: "\n").filter { $0.hasPrefix("FAILED") }
        #expect(lines.count == 1 && lines[0].hasPrefix("FAILED 0000.png ... 0004.png (5 frames): size changed"), "\(r.stdout)")
        // --verbose keeps a line a frame.
        let verbose = try CLI.run(["compare", "--actual", "big", "--expected", "e", "--report", "r", "--verbose"], in: dir)
        #expect(verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("FAILED") }.count == 5, "\(verbose.stdout)")
    }

    @Test("frames recorded as one crop are an error under another crop, never cropped again at its coordinates")
    func otherCrop() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Recording.write((0..<3).map { Recording.frame($0) }, to: dir.appendingPathComponent("a"))
        _ = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--crop", "0,10,120,30", "--record", "missing", "--report", "r"], in: dir)
        // A smaller crop fits inside the recorded 120x30 file: it used to be cut from the file's rows 0-9.
        let r = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--crop", "0,0,120,10", "--report", "r"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("e/0000.png: it was recorded as the crop 0,10,120,30, not 0,0,120,10"), "\(r)")
        let same = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--crop", "0,10,120,30", "--report", "r"], in: dir)
        #expect(same.status == 0, "\(same)")
        // Without a crop the frames fail on their size; the note names the crop they were recorded as.
        let none = try CLI.run(["compare", "--actual", "a", "--expected", "e", "--report", "r"], in: dir)
        #expect(none.status == 1 && none.stdout.contains("e/0000.png was recorded as the crop 0,10,120,30 of its input: compare with --crop 0,10,120,30"),
                "\(none)")
        // With that crop on the actual side already, the note would change nothing: none.
        try Recording.write((0..<3).map { Recording.frame($0, bar: RGBA8(255, 0, 0)) }, to: dir.appendingPathComponent("red"))
        let red = try CLI.run(["compare", "--actual", "red", "--expected", "e", "--crop-actual", "0,10,120,30", "--perceptual", "0", "--report", "r"], in: dir)
        #expect(red.status == 1 && !red.stdout.contains("was recorded as the crop"), "\(red)")
    }
}
