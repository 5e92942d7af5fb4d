import Foundation
import NavReel
import Compare
import Raster
import Testing

/// Videos whose track header carries a display matrix: an iPhone stores its portrait camera video
/// sideways with a quarter turn there, and QuickTime, browsers and FFmpeg's command line show it
/// upright. NavReel reads the frames as shown, or the frames of such a recording would be compared
/// sideways with upright approved frames.
///
/// The bundled recording is copied with each matrix written into its `tkhd` box, and every frame
/// must be the plain recording's frame moved as the table below says. The table was made by
/// asking FFmpeg 5.1's command line (`ffmpeg -i turned.mp4 frame.png`, which turns frames by the
/// matrix) for each matrix and finding which of Pillow's eight transposes gives its frame exactly;
/// ffprobe gives the clockwise turn a "rotation" of -90 and the counterclockwise one 90.
@Suite("compare: videos turned by their display matrix")
struct TurnedVideoTests {
    static let recording = LossyRecordingTests.root.appendingPathComponent("Fixtures/captured/recording.mp4")

    /// Where the plain picture's pixel (x, y) of a w x h frame is shown.
    enum Move: CaseIterable {
        case none, clockwise, halfTurn, counterclockwise, mirrorLeftRight, mirrorTopBottom, transpose, transverse

        func place(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> (Int, Int) {
            switch self {
            case .none: return (x, y)
            case .clockwise: return (h - 1 - y, x)                 // the top row becomes the right column
            case .halfTurn: return (w - 1 - x, h - 1 - y)
            case .counterclockwise: return (y, w - 1 - x)          // the top row becomes the left column
            case .mirrorLeftRight: return (w - 1 - x, y)
            case .mirrorTopBottom: return (x, h - 1 - y)
            case .transpose: return (y, x)
            case .transverse: return (h - 1 - y, w - 1 - x)
            }
        }
        var sideways: Bool { [.clockwise, .counterclockwise, .transpose, .transverse].contains(self) }

        /// The matrix's a, b, c, d (libavutil/display.h order: matrix[0], [1], [3], [4]) as FFmpeg
        /// 5.1 shows them, and what NavReel says about it.
        var matrix: (Int32, Int32, Int32, Int32) {
            switch self {
            case .none: return (1, 0, 0, 1)
            case .clockwise: return (0, 1, -1, 0)
            case .halfTurn: return (-1, 0, 0, -1)
            case .counterclockwise: return (0, -1, 1, 0)
            case .mirrorLeftRight: return (-1, 0, 0, 1)
            case .mirrorTopBottom: return (1, 0, 0, -1)
            case .transpose: return (0, 1, 1, 0)
            case .transverse: return (0, -1, -1, 0)
            }
        }
        var words: String? {
            switch self {
            case .none: return nil
            case .clockwise: return "turned 90 degrees clockwise"
            case .halfTurn: return "turned 180 degrees"
            case .counterclockwise: return "turned 90 degrees counterclockwise"
            case .mirrorLeftRight: return "mirrored left to right"
            case .mirrorTopBottom: return "mirrored top to bottom"
            case .transpose: return "turned 90 degrees clockwise and mirrored left to right"
            case .transverse: return "turned 90 degrees clockwise and mirrored top to bottom"
            }
        }
    }

    /// The bundled recording with `matrix` (nine 32-bit words: a, b, u, c, d, v, tx, ty, w) as its
    /// track header's matrix (ISO/IEC 14496-12 8.3.2: version 0 puts it 40 bytes after the box type).
    static func turned(_ matrix: [Int32], in dir: URL, name: String) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: recording))
        let at = try #require(Recording.box("tkhd", in: bytes), "the recording has a track header")
        #expect(bytes[at + 4] == 0, "a version 0 track header")
        for (i, word) in matrix.enumerated() {
            let u = UInt32(bitPattern: word)
            for k in 0..<4 { bytes[at + 4 + 40 + i * 4 + k] = UInt8(truncatingIfNeeded: u >> (24 - 8 * k)) }
        }
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    static func words(_ m: (Int32, Int32, Int32, Int32), scale: Int32 = 65536) -> [Int32] {
        [m.0 * scale, m.1 * scale, 0, m.2 * scale, m.3 * scale, 0, 0, 0, 1 << 30]
    }

    @Test("each of the eight quarter turns and mirrorings shows the frames as FFmpeg's command line does", arguments: Move.allCases)
    func eachMove(_ move: Move) throws {
        let dir = try temporaryDirectory("turned-\(move)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try MediaReader.decode(path: Self.recording.path)
        #expect(plain.info.turn == nil)
        // A scaled matrix (twice the size) turns the same: players scale, NavReel compares pixels.
        for scale: Int32 in [65536, 131072] {
            let file = try Self.turned(Self.words(move.matrix, scale: scale), in: dir, name: "turned-\(scale).mp4")
            let shown = try MediaReader.decode(path: file.path)
            #expect(shown.info.turn == move.words)
            #expect(shown.frames.count == plain.frames.count)
            for (p, s) in zip(plain.frames, shown.frames) {
                let w = p.image.width, h = p.image.height
                #expect(s.image.width == (move.sideways ? h : w) && s.image.height == (move.sideways ? w : h))
                #expect(s.time == p.time)
                guard s.image.width * s.image.height == w * h else { continue }
                var wrong = 0
                for y in 0..<h {
                    for x in 0..<w {
                        let (tx, ty) = move.place(x, y, w, h)
                        if s.image[tx, ty] != p.image[x, y] { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "\(wrong) pixels not where \(move) puts them")
            }
        }
    }

    @Test("a turn by another angle is refused, naming it; a matrix with a zero column turns nothing, as in FFmpeg")
    func otherAngles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 30 degrees counterclockwise in av_display_rotation_set's terms: a = cos, b = -sin, c = sin, d = cos.
        let c = Int32((cos(Double.pi / 6) * 65536).rounded()), s = Int32((sin(Double.pi / 6) * 65536).rounded())
        let thirty = try Self.turned([c, -s, 0, s, c, 0, 0, 0, 1 << 30], in: dir, name: "thirty.mp4")
        #expect { try MediaReader.decode(path: thirty.path) } throws: {
            let text = "\($0)"
            return text.hasPrefix(thirty.path + ": ") && text.contains("turns the picture 30.0 degrees counterclockwise (ffprobe's \"rotation\": 29)") && text.contains("quarter turns")
        }
        // Within a degree of a quarter turn counts as the quarter turn (FFmpeg's autorotate: 1 degree).
        let nearly = try Self.turned([Int32((cos(0.5 * .pi / 180) * 65536).rounded()), Int32((sin(0.5 * .pi / 180) * 65536).rounded()), 0,
                                      -Int32((sin(0.5 * .pi / 180) * 65536).rounded()), Int32((cos(0.5 * .pi / 180) * 65536).rounded()),
                                      0, 0, 0, 1 << 30], in: dir, name: "nearly.mp4")
        #expect(try MediaReader.decode(path: nearly.path).info.turn == nil)
        let degenerate = try Self.turned([0, 0, 0, 0, 0, 0, 0, 0, 1 << 30], in: dir, name: "zero.mp4")
        let read = try MediaReader.decode(path: degenerate.path)
        #expect(read.info.turn == nil && read.frames.first?.image.width == 390)
    }

    @Test("compare takes a turned recording as shown: crops are in its pixels, the console says what was turned")
    func compareTurned() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let turned = try Self.turned(Self.words(Move.clockwise.matrix), in: dir, name: "turned.mov")
        // Expected frames: the plain recording's, turned clockwise here, cropped to a rectangle of
        // the turned picture (its left 40 columns, all rows).
        let plain = try MediaReader.decode(path: Self.recording.path)
        let expected = dir.appendingPathComponent("expected")
        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
        for (k, frame) in plain.frames.enumerated() {
            let w = frame.image.width, h = frame.image.height
            var out = Image(width: h, height: w, pixels: [UInt8](repeating: 0, count: w * h * 4))
            for y in 0..<h { for x in 0..<w { let (tx, ty) = Move.clockwise.place(x, y, w, h); out[tx, ty] = frame.image[x, y] } }
            let crop = try #require(out.cropped(to: PixelRect(x: 0, y: 0, width: 40, height: w)))
            try Data(PNG.encode(crop)).write(to: expected.appendingPathComponent(String(format: "%04d.png", k)))
        }
        let report = dir.appendingPathComponent("report").path
        let run = try CLI.run(["compare", "--actual", turned.path, "--expected", expected.path, "--crop-actual", "0,0,40,390",
                               "--perceptual", "0", "--max-diff-ratio", "0", "--no-antialiasing", "--report", report])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("actual \(turned.path): turned 90 degrees clockwise, as its display matrix asks"), "\(run.stdout)")
        // The report says it too (results.json `notes`, shown above the runs), for whoever reads
        // only the CI artifact.
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/results.json"))) as? [String: Any])
        let notes = results["notes"] as? [String] ?? []
        #expect(notes.count == 1 && notes[0].hasPrefix("actual \(turned.path): turned 90 degrees clockwise"), "\(notes)")
        // The same recording read as stored would not even fit the crop's height.
        let plainRun = try CLI.run(["compare", "--actual", Self.recording.path, "--expected", expected.path,
                                    "--crop-actual", "0,0,40,390", "--report", report, "--quiet"])
        #expect(plainRun.status == 2 && plainRun.stderr.contains("does not fit its 390x106 frames\n"), "\(plainRun)")
        // Nothing to say about a plain folder comparison: no `notes` key.
        let quiet = try CLI.run(["compare", "--actual", expected.path, "--expected", expected.path, "--report", report, "--quiet"])
        #expect(quiet.status == 0)
        let plainResults = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report + "/results.json"))) as? [String: Any])
        #expect(plainResults["notes"] == nil)
        // A crop of the stored picture does not fit the turned one, and the error says why.
        let storedCrop = try CLI.run(["compare", "--actual", turned.path, "--expected", expected.path,
                                      "--crop-actual", "0,0,390,40", "--report", report, "--quiet"])
        #expect(storedCrop.status == 2 && storedCrop.stderr.contains(
            "does not fit its 106x390 frames (turned 90 degrees clockwise as its display matrix asks, as players show it)"), "\(storedCrop)")
    }
}
