import CAV
import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Limits on what a decoded animation or video may cost, checked before allocating.
public struct MediaLimits: Sendable, Equatable {
    public var maxSide: Int
    public var maxPixels: Int
    /// Frames kept from one file (after --fps sampling).
    public var maxFrames: Int
    public var maxFileBytes: Int
    /// Bytes of RGBA kept from one file, after cropping.
    public var maxTotalBytes: Int

    public init(maxSide: Int = 16_384, maxPixels: Int = 1 << 26, maxFrames: Int = 7_200, maxFileBytes: Int = 4 << 30,
                maxTotalBytes: Int = 2 << 30) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxFileBytes = maxFileBytes
        self.maxTotalBytes = maxTotalBytes
    }

    public static let `default` = MediaLimits()
}

/// A file that could not be decoded; the message names it.
public struct MediaError: Error, CustomStringConvertible, Sendable {
    public let source: String
    public let message: String
    public var description: String { "\(source): \(message)" }
}

/// One frame decoded from a file, with its presentation time in seconds.
public struct DecodedFrame: Sendable {
    public var image: Image
    public var time: Double
}

/// Animated GIF, APNG and QuickTime/MP4 video (H.264, HEVC) through `CAV`.
public enum MediaReader {
    /// File name extensions read as animations or video rather than as one PNG.
    public static let extensions = ["gif", "png", "apng", "mov", "mp4", "m4v"]

    public struct Info: Sendable {
        public var container: String
        public var codec: String
        /// How the file's display matrix turns the stored picture, as every player shows it
        /// ("turned 90 degrees clockwise", "mirrored left to right"...); nil when it does not. The
        /// frames `decode` returns are turned so.
        public var turn: String?
        /// How many video tracks the file has, and which one (from 1, in file order) was read:
        /// FFmpeg's pick, the default track when one is marked.
        public var videoTracks = 1
        public var track = 1
        /// The N of ffmpeg's `-map 0:v:N` that selects the track read (cover art counts there).
        public var mapIndex = 0
        /// With --fps: frames whose timestamp is no later than the frame before, which sampling
        /// never shows (only the last frame at a moment is on screen). Nonzero means the file's
        /// timing is broken, as when every timestamp is 0.
        public var untimedFrames = 0
        /// Seconds a QuickTime/MP4 file's index declares (its movie header); nil for other
        /// containers, whose lengths FFmpeg may only estimate.
        public var declaredDuration: Double?
    }

    /// Decodes every frame of `path`, or with `fps` one frame per 1/fps seconds of its timeline
    /// (the frame shown at that moment), each cropped to `crop` when given.
    public static func decode(path: String, fps: Double? = nil, crop: PixelRect? = nil,
                              limits: MediaLimits = .default) throws(MediaError) -> (frames: [DecodedFrame], info: Info) {
        var out: [DecodedFrame] = []
        var bytes = 0
        func keep(_ image: Image, _ time: Double) throws(MediaError) {
            guard out.count < limits.maxFrames else {
                guard let fps else {
                    throw MediaError(source: path, message: "more than \(limits.maxFrames) frames; sample fewer with --fps")
                }
                // Sampling fills still stretches too: a recording that showed one screen for
                // 13 minutes makes 7,800 samples at 10 a second from three frames.
                throw MediaError(source: path, message: String(
                    format: "sampled at --fps %g, its timeline is too long: more than %d frames by %.1f s (still stretches "
                        + "count as time too); cut it to the moments compared (ffmpeg -ss and -t) or sample fewer a second",
                    fps, limits.maxFrames, time))
            }
            bytes += image.pixels.count
            guard bytes <= limits.maxTotalBytes else {
                throw MediaError(source: path, message: "its frames need more than \(limits.maxTotalBytes >> 20) MiB; crop with --crop or sample fewer with --fps")
            }
            out.append(DecodedFrame(image: image, time: time))
        }
        var previous: (image: Image, time: Double, duration: Double)?
        var sample = 0
        var untimed = 0
        // With --fps: every sample time before `limit` shows the previous frame.
        func emit(upTo limit: Double) throws(MediaError) {
            guard let fps, let p = previous else { return }
            while Double(sample) / fps < limit - 1e-9 {
                try keep(p.image, Double(sample) / fps)
                sample += 1
            }
        }
        var info = try forEachFrame(path: path, crop: crop, limits: limits) { (image, time, duration) throws(MediaError) in
            if fps != nil, let p = previous, time <= p.time { untimed += 1 }
            if fps == nil {
                try keep(image, time)
            } else {
                // A frame is on screen from 1 ms before its timestamp: containers round times to
                // their time base (APNG stores 1/60 s as 1667/100000 s), which must not move a
                // sample at exactly k/fps onto the frame before.
                try emit(upTo: time - 0.001)
            }
            previous = (image, time, duration)
        }
        info.untimedFrames = untimed
        if fps != nil, let p = previous { try emit(upTo: p.time + max(p.duration, 1e-6)) }
        guard !out.isEmpty else { throw MediaError(source: path, message: "no frames (its data is cut short, or its video track is empty)") }
        return (out, info)
    }

    /// Hands `body` each decoded frame of `path` in order, with its time (a frame without one
    /// follows the one before) and its stored duration, and keeps none of them: for a caller that
    /// reads a long recording a frame at a time (`navreel scaffold`). Frame sizes and the file's
    /// size are held to `limits`; a file with no frames calls `body` never.
    /// `opened` sees the file's description before the first frame is decoded.
    public static func forEachFrame(path: String, crop: PixelRect? = nil, limits: MediaLimits = .default,
                                    opened: (Info) throws(MediaError) -> Void = { _ in },
                                    _ body: (Image, Double, Double) throws(MediaError) -> Void) throws(MediaError) -> Info {
        var message = [CChar](repeating: 0, count: 512)
        func text() -> String { message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
        var cLimits = nr_av_limits(max_width: UInt32(clamping: limits.maxSide), max_height: UInt32(clamping: limits.maxSide),
                                   max_pixels: UInt64(limits.maxPixels), max_file_bytes: UInt64(limits.maxFileBytes))
        var reader: OpaquePointer?
        var cInfo = nr_av_info()
        let status = nr_av_open(path, &cLimits, &reader, &cInfo, &message, message.count)
        guard status == NR_AV_OK, let reader else { throw MediaError(source: path, message: text()) }
        defer { nr_av_close(reader) }
        func string<T>(_ field: T) -> String { withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
        let turn = string(cInfo.turn)
        var info = Info(container: string(cInfo.container), codec: string(cInfo.codec), turn: turn.isEmpty ? nil : turn)
        info.videoTracks = max(1, Int(cInfo.video_tracks))
        info.track = max(1, Int(cInfo.track))
        info.mapIndex = Int(cInfo.map_index)
        if info.container.hasPrefix("mov"), cInfo.duration > 0 { info.declaredDuration = cInfo.duration }
        try opened(info)
        var previous: (time: Double, duration: Double)?
        while true {
            var f = nr_av_frame_info()
            let s = nr_av_next(reader, &f, &message, message.count)
            if s == NR_AV_END { break }
            guard s == NR_AV_OK else { throw MediaError(source: path, message: text()) }
            let width = Int(f.width), height = Int(f.height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let c = pixels.withUnsafeMutableBytes { nr_av_copy_rgba(reader, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count, &message, message.count) }
            guard c == NR_AV_OK else { throw MediaError(source: path, message: text()) }
            var image = Image(width: width, height: height, pixels: pixels)
            if let crop {
                guard let cropped = image.cropped(to: crop) else {
                    // A turned video's frames are not the size a user who knows the stored picture expects.
                    var turned = info.turn.map { " (\($0) as its display matrix asks, as players show it)" } ?? ""
                    if info.videoTracks > 1 { turned += " (the file has \(info.videoTracks) video tracks and this is track \(info.track))" }
                    throw MediaError(source: path, message: "crop \(crop.x),\(crop.y),\(crop.width),\(crop.height) does not fit its \(width)x\(height) frames\(turned)")
                }
                image = cropped
            }
            // Frames without a timestamp follow the previous one.
            let time = f.time >= 0 ? f.time : (previous.map { $0.time + $0.duration } ?? 0)
            try body(image, time, f.duration)
            previous = (time, f.duration)
        }
        return info
    }
}

extension Image {
    /// The pixels inside `rect`, or nil when it does not lie inside the image.
    public func cropped(to rect: PixelRect) -> Image? {
        guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0,
              rect.x + rect.width <= width, rect.y + rect.height <= height else { return nil }
        if rect.x == 0 && rect.y == 0 && rect.width == width && rect.height == height { return self }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let row = rect.width * 4
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<rect.height {
                    let from = ((rect.y + y) * width + rect.x) * 4
                    dst.baseAddress!.advanced(by: y * row).update(from: src.baseAddress!.advanced(by: from), count: row)
                }
            }
        }
        return Image(width: rect.width, height: rect.height, pixels: out)
    }
}
