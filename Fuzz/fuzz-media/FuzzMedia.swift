// libFuzzer target: animations and videos as `compare` reads them (MediaReader over FFmpeg,
// through Sources/CAV's checked calls). Built only by scripts/fuzz (NAVREEL_FUZZ=1,
// -sanitize=fuzzer,address); FFmpeg itself is Debian's, loaded with dlopen and not instrumented,
// so what this finds is in NavReel's C shim and Swift code: sizes, strides, frame counts, times.
import Compare
import Foundation
import NavReel
import Raster

/// Smaller than the defaults so that one input cannot take the fuzzer's memory or time.
let limits = MediaLimits(maxSide: 2048, maxPixels: 1 << 20, maxFrames: 300, maxFileBytes: 4 << 20, maxTotalBytes: 256 << 20)

/// MediaReader opens files by path, and FFmpeg picks the demuxer from the bytes and the name's
/// extension: the input's first byte chooses the extension and its second the sampling and crop,
/// the rest is the file. One file a process, rewritten for each input (in memory where possible).
let folder: String = {
    let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = base + "/navreel-fuzz-media-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: folder) }   // libFuzzer ends with exit()
    return path
}()
let extensions = ["gif", "apng", "png", "mp4", "mov", "m4v"]
/// NAVREEL_FUZZ_PRINT=1: print each input's outcome (to see that seeds decode).
let verbose = ProcessInfo.processInfo.environment["NAVREEL_FUZZ_PRINT"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMedia(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let path = folder + "/input." + extensions[Int(data[0]) % extensions.count]
    let file = Data(bytes: data + 2, count: size - 2)
    guard FileManager.default.createFile(atPath: path, contents: file) else { return 0 }
    let mode = data[1]
    let fps: Double? = mode & 3 == 0 ? nil : [0, 1, 10, 30][Int(mode & 3)]
    let crop: PixelRect? = mode & 4 == 0 ? nil : PixelRect(x: Int(mode >> 4), y: 1, width: 3, height: 2)
    do throws(MediaError) {
        let (frames, _) = try MediaReader.decode(path: path, fps: fps, crop: crop, limits: limits)
        // What compare relies on: at least one frame, each with whole pixels inside the limits,
        // cropped when asked, at a time that is a number; sampled times are k / fps.
        precondition(!frames.isEmpty, "decoded no frames without an error")
        if verbose { print("\(path): \(frames.count) frames, \(frames[0].image.width)x\(frames[0].image.height)") }
        for (k, f) in frames.enumerated() {
            let image = f.image
            precondition(image.width > 0 && image.height > 0 && image.width <= limits.maxSide && image.height <= limits.maxSide)
            precondition(image.pixels.count == image.width * image.height * 4)
            if let crop { precondition(image.width == crop.width && image.height == crop.height) }
            precondition(f.time.isFinite, "frame \(k) at \(f.time)")
            if let fps { precondition(abs(f.time - Double(k) / fps) < 1e-9, "sample \(k) at \(f.time)") }
        }
    } catch {
        precondition(!error.message.isEmpty, "an error without a message")
        if verbose { print(error) }
    }
    return 0
}
