import Foundation
import NavReel
import Compare
import Navigation
import Raster
import Scenario
import Testing

/// Rendered frames through a lossy H.264 recording, at the encoder settings docs/capturing.md
/// measured, compared with the tolerance it documents (Fixtures/captured/navreel-compare.yaml).
@Suite("navreel compare: lossy recordings of rendered frames")
struct LossyRecordingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The encoder settings of docs/capturing.md and scripts/captured-example: x264 CRF 23, 4:2:0
    /// chroma, BT.709, 60 fps (4:2:0 needs an even height: the frames lose their last row).
    static let x264 = ["-c:v", "libx264", "-preset", "medium", "-crf", "23", "-pix_fmt", "yuv420p", "-threads", "1",
                       "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0,scale=out_color_matrix=bt709:out_range=tv", "-colorspace", "bt709",
                       "-color_primaries", "bt709", "-color_trc", "bt709"]

    @Test("an H.264 recording of rendered frames passes with the documented tolerance and fails when the bar colour changes")
    func lossyH264() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The bundled example's scenario and settings (crop to the bar, 10 fps, the tolerance).
        let frames = dir.appendingPathComponent("frames")
        let render = try CLI.run(["render", "example", "--scenarios", Self.root.appendingPathComponent("Fixtures/captured").path,
                                  "--out", frames.path, "--quiet"])
        #expect(render.status == 0, "\(render)")
        let rendered = frames.appendingPathComponent("example/iphone-14")
        // Approved frames: the rendered ones, through a lossless APNG and compare --record.
        let approved = dir.appendingPathComponent("approved")
        try FileManager.default.createDirectory(at: approved, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Fixtures/captured/approved/navreel-compare.yaml"),
                                         to: approved.appendingPathComponent("navreel-compare.yaml"))
        let lossless = dir.appendingPathComponent("lossless.apng")
        try Recording.encode(rendered, fps: 60, Recording.apng, to: lossless)
        let record = try CLI.run(["compare", "--actual", lossless.path, "--expected", approved.path, "--record", "missing",
                                  "--report", dir.appendingPathComponent("r0").path, "--quiet"])
        #expect(record.status == 1, "new expected frames fail the run that writes them: \(record)")
        let count = try FileManager.default.contentsOfDirectory(atPath: approved.path).filter { $0.hasSuffix(".png") }.count
        #expect(count >= 8, "one frame per 100 ms of the recording")

        let recording = dir.appendingPathComponent("recording.mp4")
        try Recording.encode(rendered, fps: 60, Self.x264, to: recording)
        // The recording is lossy: compared exactly, frames fail.
        let exact = try CLI.run(["compare", "--actual", recording.path, "--expected", approved.path, "--perceptual", "0",
                                 "--max-diff-ratio", "0", "--no-antialiasing", "--report", dir.appendingPathComponent("r1").path, "--quiet"])
        #expect(exact.status == 1, "H.264 changes pixels")
        let ok = try CLI.run(["compare", "--actual", recording.path, "--expected", approved.path,
                              "--report", dir.appendingPathComponent("r2").path, "--json", "-", "--quiet"])
        #expect(ok.status == 0, "\(ok.stdout.prefix(3000))")
        #expect(try Results(ok.stdout).frames.count == count)

        // The app's bar colour changes from #1E88E5 to #3949AB (another blue): every frame fails.
        let changed = dir.appendingPathComponent("changed")
        try FileManager.default.createDirectory(at: changed, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: rendered.path) where name.hasSuffix(".png") {
            var image = try PNG.read(path: rendered.appendingPathComponent(name).path).image
            for y in 0..<image.height { for x in 0..<image.width where image[x, y] == RGBA8(0x1E, 0x88, 0xE5) { image[x, y] = RGBA8(0x39, 0x49, 0xAB) } }
            try Data(PNG.encode(image)).write(to: changed.appendingPathComponent(name))
        }
        let changedRecording = dir.appendingPathComponent("changed.mp4")
        try Recording.encode(changed, fps: 60, Self.x264, to: changedRecording)
        let bad = try CLI.run(["compare", "--actual", changedRecording.path, "--expected", approved.path,
                               "--report", dir.appendingPathComponent("r3").path, "--json", "-", "--quiet"])
        #expect(bad.status == 1)
        let statuses = try Results(bad.stdout).statuses
        #expect(statuses.count == count && statuses.allSatisfy { $0 == "failed" }, "\(statuses)")
    }

    @Test("declared sizes over the limit are refused before decoding; frame and memory caps are clear errors")
    func limits() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("frames")
        try Recording.write((0..<8).map { Recording.frame($0) }, to: folder)
        let gif = dir.appendingPathComponent("a.gif")
        try Recording.encode(folder, Recording.gif, to: gif)
        // A GIF whose logical screen claims 16000 x 16000 pixels (over the 2^26 pixel limit).
        var bytes = try Data(contentsOf: gif)
        bytes.replaceSubrange(6..<10, with: [0x80, 0x3E, 0x80, 0x3E])
        let huge = dir.appendingPathComponent("huge.gif")
        try bytes.write(to: huge)
        let r = try CLI.run(["compare", "--actual", huge.path, "--expected", folder.path, "--report", dir.appendingPathComponent("r").path])
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.contains(huge.path) && r.stderr.contains("16000x16000"), "\(r.stderr)")
        #expect(throws: MediaError.self) { try MediaReader.decode(path: gif.path, limits: MediaLimits(maxFrames: 5)) }
        do {
            _ = try MediaReader.decode(path: gif.path, limits: MediaLimits(maxFrames: 5))
        } catch {
            #expect(error.description == "\(gif.path): more than 5 frames; sample fewer with --fps")
        }
        do {
            _ = try MediaReader.decode(path: gif.path, limits: MediaLimits(maxTotalBytes: 120 * 40 * 4 * 3))
        } catch {
            #expect(error.description.contains("crop with --crop or sample fewer with --fps"))
        }
        let small = try MediaReader.decode(path: gif.path, fps: 10, crop: PixelRect(x: 0, y: 0, width: 120, height: 16), limits: MediaLimits(maxFrames: 3))
        #expect(small.frames.count == 3 && small.frames[0].image.height == 16, "sampling and cropping keep it within the limits")
    }
}
