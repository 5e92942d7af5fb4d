import CCompare
import Raster

/// The diff image as palette indices: a few colours over the baseline faded to grey, so it
/// encodes as a small palette PNG at a fast zlib level.
public struct DiffImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let indices: [UInt8]

    public var palette: [RGBA8] { DiffPalette.colors }

    /// Unfiltered rows in bands of 64 KiB compressed on the diff's threads (no buffer larger
    /// than a band, the bytes the same for any number of threads; 512 KiB, `PNG.bandBytes`, left
    /// a 1x diff one band on one thread: 0.67 -> 0.30-0.37 ms, the file 0.99x, a phone diff's
    /// 0.97x, a 37 MP one's 1.00x, issue 17) by NavReel's
    /// row-runs deflate (`Deflater.rowRuns`): a diff image is a few colours in long runs whose
    /// rows repeat the row above, so its matches are runs and the row above only, without zlib's
    /// hash chains and sliding window, Huffman-coded per band. Against zlib level 1 in the same
    /// bands (what this was, itself chosen by measurement over filters, strategies and
    /// libdeflate, which was slower on 390x844 diffs and needed an image-sized buffer): the
    /// encoding 0.4x the wall time on a phone diff, the file 0.6-0.7x on 1x diffs, 0.9x on phone
    /// screenshots, 1.6x on desktop ones, 0.97x over 142 bench and baseline diffs (issue 17).
    /// ISA-L's igzip was faster than zlib too but wrote other bytes from one process to the next
    /// (its output followed the addresses its buffers got), and a diff image is the same bytes on
    /// every run.
    public static let encoding = PNGEncodeOptions(compressionLevel: 1, filter: .none, strategy: .default, reduceColors: false,
                                                  sideDataLevel: 1, sideDataStrategy: .default, deflater: .rowRuns, bandBytes: 64 << 10)

    /// The PNG of this diff; `workers` threads may share the compression (the bytes do not
    /// depend on how many).
    public func encoded(options: PNGEncodeOptions = DiffImage.encoding, workers: Int = 1) throws(PNGError) -> [UInt8] {
        try PNG.encodeIndexed(width: width, height: height, indices: indices, palette: palette, options: options, workers: workers)
    }

    /// The diff image of an image compared with itself, what `ImageComparator.compare` draws for
    /// it (every pixel equal, so faded), made from a plain PNG's own rows (`PNG.plainRows`: 4, 3
    /// or 1 bytes a pixel after each row's filter byte) without an RGBA copy of the image and
    /// without comparing it with itself (issue 17). Rows in the comparison's bands on `workers`
    /// threads; the indices do not depend on how many.
    public static func fadedCopy(of rows: PlainRows, workers: Int) -> DiffImage {
        let width = rows.width, height = rows.height, stride = rows.stride, channels = Int32(rows.channels)
        let indices = [UInt8].filledLarge(count: width * height) { out in
            guard let out = out.baseAddress else { return }
            rows.bytes.withUnsafeBufferPointer { b in
                let bands = ImageComparator.bandCount(width: width, height: height)
                Parallel.forEachAdaptive(bands, workers: workers) { band in
                    for y in band * height / bands..<(band + 1) * height / bands {
                        nr_fade_run_packed(b.baseAddress! + y * stride + 1, channels, out + y * width, Int64(width))
                    }
                }
            }
        }
        return DiffImage(width: width, height: height, indices: indices)
    }

    /// The diff as RGBA8 (for tests and reports that composite it).
    public var image: Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let colors = palette
        for (i, index) in indices.enumerated() {
            let c = colors[Int(index)]
            pixels[i * 4] = c.r
            pixels[i * 4 + 1] = c.g
            pixels[i * 4 + 2] = c.b
            pixels[i * 4 + 3] = c.a
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}

/// Palette of diff images. Unchanged pixels: the baseline's brightness (over white) in 32 steps,
/// faded to 10% as pixelmatch draws them; ignored pixels: the same steps, dimmed to a mid grey.
enum DiffPalette {
    static let fadedBase: UInt8 = 0
    static let dimmedBase: UInt8 = 32
    static let mismatch: UInt8 = 64
    static let antialiasing: UInt8 = 65
    static let translucency: UInt8 = 66
    static let timing: UInt8 = 67
    static let heatBase: UInt8 = 68
    static let heatSteps = 32

    static let colors: [RGBA8] = {
        var c: [RGBA8] = []
        for k in 0..<32 {
            let y = Double(k * 8 + 4)
            let v = UInt8((255 + (y - 255) * 0.1).rounded())   // pixelmatch's alpha 0.1 fade
            c.append(RGBA8(v, v, v))
        }
        for k in 0..<32 {
            let v = UInt8(120 + k * 2)                           // dimmed: 120...182
            c.append(RGBA8(v, v, v))
        }
        c.append(RGBA8(255, 0, 0))      // mismatch: red
        c.append(RGBA8(255, 255, 0))    // anti-aliasing: yellow
        c.append(RGBA8(0, 90, 255))     // translucency: blue
        c.append(RGBA8(0, 190, 0))      // timing: green
        for k in 0..<heatSteps {        // heat map: orange (small difference) to dark red (large)
            let t = Double(k) / Double(heatSteps - 1)
            c.append(RGBA8(UInt8(255 - 115 * t), UInt8(190 * (1 - t)), 0))
        }
        return c
    }()

    /// Brightness of a pixel blended over white, in 32 steps (index 0...31). Integer only and
    /// branch-free so the loop over unchanged pixels vectorises (`nr_fade_run`, the same
    /// arithmetic in C: Swift's loop did not): luminance with Rec. 601 weights in
    /// 8.8 fixed point (77, 150, 29), and since blending over white is linear, the blend applies
    /// to the luminance directly: Y' = 255 - (255 - Y) * a / 255 (the division by 255 done as
    /// * 257 >> 16).
    @inline(__always)
    static func step(_ word: UInt32) -> UInt8 {
        #if _endian(little)
        let r = word & 0xFF, g = (word >> 8) & 0xFF, b = (word >> 16) & 0xFF, a = word >> 24
        #else
        let r = word >> 24, g = (word >> 16) & 0xFF, b = (word >> 8) & 0xFF, a = word & 0xFF
        #endif
        let y = r &* 77 &+ g &* 150 &+ b &* 29                       // 0...65280
        let blended = 65280 &- (((65280 &- y) &* a &* 257) >> 16)    // fits in 32 bits
        return UInt8(truncatingIfNeeded: blended >> 11)
    }

    @inline(__always)
    static func step(_ p: UnsafePointer<UInt8>) -> UInt8 {
        step(UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }

    @inline(__always)
    static func faded(_ p: UnsafePointer<UInt8>) -> UInt8 { fadedBase &+ step(p) }

    /// Faded-grey indices for a run of unchanged pixels (fadedBase is 0): `step` of each, in C
    /// (`nr_fade_run`, vectorised; tests hold it to `step`).
    static func fadeRun(_ words: UnsafePointer<UInt32>, _ out: UnsafeMutablePointer<UInt8>, _ range: Range<Int>) {
        nr_fade_run(UnsafeRawPointer(words + range.lowerBound).assumingMemoryBound(to: UInt8.self),
                    out + range.lowerBound, Int64(range.count))
    }

    @inline(__always)
    static func index(for verdict: Plan.Verdict, expected p: UnsafePointer<UInt8>, delta: Int, heatmap: Bool) -> UInt8 {
        switch verdict {
        case .equal, .perceptual: return faded(p)
        case .ignored: return dimmedBase &+ step(p)
        case .antialiasing: return antialiasing
        case .translucency: return translucency
        case .timing: return timing
        case .mismatched:
            return heatmap ? heatBase + UInt8(min(heatSteps - 1, (delta - 1) * heatSteps / 255)) : mismatch
        }
    }
}
