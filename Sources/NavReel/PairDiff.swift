import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// `navreel diff A B`: one pair, the same rules as everywhere else. A library call so that the
/// command line holds no logic.
public struct PairDiff: Sendable {
    public struct Timings: Sendable {
        public var read: Duration = .zero
        public var decode: Duration = .zero
        public var compare: Duration = .zero
        public var encode: Duration = .zero
    }

    public let expectedPath: String
    public let actualPath: String
    public let comparison: Comparison
    /// The encoded diff image, when one was asked for.
    public let diffPNG: [UInt8]?
    public let timings: Timings

    /// Reads both files (in parallel; each error names its file), compares them and, when
    /// `diffStyle` is given, encodes the diff image. Files with identical bytes are decoded once
    /// (without a diff image, checked and not decoded: `PNG.check`), and their maps checked
    /// without being made (no pixel differs, so they change no verdict): identical damaged files
    /// are an error, not a pass (issue 16).
    ///
    /// `hugePages`: put the decoded images and the diff image in 2 MiB pages
    /// (`LargeBuffers.reserve`), for a process that diffs once and exits (`navreel diff`): it
    /// sets glibc's mmap and trim thresholds for the whole process, which a program calling this
    /// as a library may not want.
    public static func run(expected: String, actual: String, settings: ComparisonSettings,
                           diffStyle: DiffStyle? = nil, limits: PNGLimits = .default,
                           jobs: Int = ImageComparator.defaultJobs, hugePages: Bool = false) throws(PNGError) -> PairDiff {
        let clock = ContinuousClock()
        var timings = Timings()
        var start = clock.now

        // Read one after the other: two file reads are no work for a thread (the kernel copies).
        let paths = [expected, actual]
        let bytes = [try FileBytes.read(path: expected, limit: limits.maxFileBytes),
                     try FileBytes.read(path: actual, limit: limits.maxFileBytes)]
        timings.read = clock.now - start
        start = clock.now

        let sameBytes = bytes[0] == bytes[1]
        // The same file twice: no pixel can differ. Without a diff image it is checked as a decode
        // checks it (every error the same) and no pixel is made; with one, a plain file's rows are
        // faded where they lie (RGB stays three bytes a pixel; both styles fade equal pixels alike).
        // Neither makes the maps' planes nor compares the pixels with themselves: a 390x844
        // frame's RGBA copy was 1.32 MB of fresh memory a diff of a frame with its copy waited
        // for (issue 17). Other files with a diff image go the long way below.
        if sameBytes {
            let rows = diffStyle == nil ? nil : try PNG.plainRows(bytes[0], source: expected, limits: limits)
            if diffStyle == nil || rows != nil {
                let file: CheckedPNG
                if let rows { file = rows.checked } else { file = try PNG.check(bytes[0], source: expected, limits: limits) }
                _ = try maps(file.metadata, width: file.width, height: file.height, source: expected, planes: false)
                timings.decode = clock.now - start
                start = clock.now
                let comparison = ImageComparator(settings: settings, jobs: jobs).identical(width: file.width, height: file.height)
                let diff = rows.map { DiffImage.fadedCopy(of: $0, workers: jobs) }
                timings.compare = clock.now - start
                start = clock.now
                let png = try diff?.encoded(workers: jobs)
                timings.encode = clock.now - start
                return PairDiff(expectedPath: expected, actualPath: actual, comparison: comparison, diffPNG: png, timings: timings)
            }
        }

        // Files of different sizes: no pixel is compared. Both are checked as a decode checks them
        // (every error the same, their maps read and checked, their maps' planes not made), one
        // after the other, so at most one file's image data is held at a time: an 8000x8000 RGBA
        // pair of different heights peaked at 273 MB instead of both decodes at once.
        // (The sizes from the IHDR bytes alone: the files are walked once, by the check or decode.)
        if !sameBytes, let e = Self.declaredSize(bytes[0]), let a = Self.declaredSize(bytes[1]),
           e.width != a.width || e.height != a.height {
            for i in 0..<2 {
                let file = try PNG.check(bytes[i], source: paths[i], limits: limits)
                _ = try maps(file.metadata, width: file.width, height: file.height, source: paths[i], planes: false)
            }
            timings.decode = clock.now - start
            let comparison = ImageComparator(settings: settings, jobs: jobs)
                .sizeMismatch(expected: Comparison.Size(width: e.width, height: e.height), actual: Comparison.Size(width: a.width, height: a.height))
            return PairDiff(expectedPath: expected, actualPath: actual, comparison: comparison, diffPNG: nil, timings: timings)
        }

        // The two inputs decode in parallel when they are large enough to be worth a thread (one
        // decode when the bytes are the same).
        // Each thread decodes its file and parses its maps, into a slot of its own (a plain enum:
        // an array of `Result` had its generic metadata built at run time, with a conformance
        // lookup for `Error`, 15 % of a diff of two 1x1 files, issue 17).
        let decodes = sameBytes ? 1 : 2
        let parallel = decodes == 2 && jobs > 1 && bytes.contains { Self.declaredPixels($0) >= Self.parallelDecodePixels }
        let slots = UnsafeMutablePointer<Decoded>.allocate(capacity: 2)
        slots.initialize(to: .failed(PNGError(source: expected, kind: .io, message: "not read")))
        (slots + 1).initialize(to: .failed(PNGError(source: actual, kind: .io, message: "not read")))
        // Huge-page reservations of the two decodes and of the diff image, released at the end.
        let reservations = UnsafeMutablePointer<LargeBuffers.Reservation>.allocate(capacity: 3)
        reservations.initialize(repeating: LargeBuffers.Reservation.none, count: 3)
        defer {
            slots.deinitialize(count: 2)
            slots.deallocate()
            for k in 0..<3 { reservations[k].release() }
            reservations.deallocate()
        }
        let out = DecodedSlots(slots, reservations)
        Parallel.forEach(decodes, workers: parallel ? 2 : 1) { i in
            // The pixels (and a filter byte a row), with maps their two planes and rows, and what
            // the decoders allocate on the way: 8 bytes a pixel with maps, 5 without (a megabyte
            // is added; nothing under a megabyte or over LargeBuffers.maxNeed is reserved: 1x frames).
            // (The chunk headers are walked again by the decode, which reports what is wrong.)
            if hugePages, let structure = try? PNGStructure.scan(bytes[i], source: paths[i], limits: limits) {
                // (A file compared with itself makes no map planes.)
                let perPixel = !sameBytes && structure.chunks.contains { $0.type == PNG.sideDataChunk } ? 8 : 5
                out.reservations[i] = LargeBuffers.reserve(bytes: structure.width * structure.height * perPixel)
            }
            do throws(PNGError) {
                let png = try PNG.decode(bytes[i], source: paths[i], limits: limits)
                // A file compared with itself: its maps are read and checked, not made (no pixel
                // differs, so they can change no verdict).
                out.pointer[i] = .decoded(png, try maps(png.metadata, width: png.image.width, height: png.image.height,
                                                        source: paths[i], planes: !sameBytes))
            } catch { out.pointer[i] = .failed(error) }
        }
        // The same file twice: decoded and its maps checked once (their copies were a tenth of a 1x diff).
        if sameBytes { slots[1] = slots[0] }
        let (e, expectedMaps) = try slots[0].get(), (a, actualMaps) = try slots[1].get()
        timings.decode = clock.now - start
        start = clock.now

        // The diff image's indices, its filtered rows, the deflate's symbols (two bytes a byte)
        // and the file, made on this thread when the image is one band.
        if hugePages && diffStyle != nil { out.reservations[2] = LargeBuffers.reserve(bytes: e.image.width * e.image.height * 4) }
        let comparator = ImageComparator(settings: settings, jobs: jobs)
        let (comparison, diff) = comparator.compare(
            ComparisonInput(expected: e.image, actual: a.image, expectedMaps: expectedMaps, actualMaps: actualMaps),
            diff: diffStyle)
        timings.compare = clock.now - start
        start = clock.now
        let png = try diff?.encoded(workers: jobs)
        timings.encode = clock.now - start
        return PairDiff(expectedPath: expected, actualPath: actual, comparison: comparison, diffPNG: png, timings: timings)
    }

    /// A file decoded with its maps, or why not.
    enum Decoded {
        case decoded(DecodedPNG, FrameMaps?)
        case failed(PNGError)

        func get() throws(PNGError) -> (DecodedPNG, FrameMaps?) {
            switch self {
            case .decoded(let png, let maps): return (png, maps)
            case .failed(let error): throw error
            }
        }
    }

    /// The two decode slots and the reservations, written by one thread each.
    struct DecodedSlots: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Decoded>
        let reservations: UnsafeMutablePointer<LargeBuffers.Reservation>
        init(_ pointer: UnsafeMutablePointer<Decoded>, _ reservations: UnsafeMutablePointer<LargeBuffers.Reservation>) {
            self.pointer = pointer
            self.reservations = reservations
        }
    }

    /// Images of fewer pixels decode (with their maps) in well under a millisecond: starting a
    /// thread for them costs more than it saves. A 1x full-screen frame (390 x 844, 329K pixels)
    /// takes about 2 ms: two of them decoded one after the other were a third of a diff of two
    /// different frames (1 << 20 before, which left them on one thread).
    static let parallelDecodePixels = 1 << 17

    /// Width × height from IHDR (0 when the bytes are not a PNG; decoding then says why), at
    /// most `Int.max`: a damaged IHDR may declare 4294967295 × 4294967295, which the decoder
    /// refuses by name and which must not trap here first.
    static func declaredPixels(_ bytes: [UInt8]) -> Int {
        guard let size = declaredSize(bytes) else { return 0 }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        return overflow ? Int.max : pixels
    }

    /// The width and height the IHDR chunk declares, read from its bytes without walking the
    /// file, or nil when the first chunk is not where IHDR must be (the decode says why).
    static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else { return nil }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        return (u32(16), u32(20))
    }

    /// The tolerance and element maps a NavReel baseline carries, if any. `planes` false checks
    /// them as thoroughly (every error the same) and gives nil.
    static func maps(of png: DecodedPNG, source: String, planes: Bool = true) throws(PNGError) -> FrameMaps? {
        try maps(png.metadata, width: png.image.width, height: png.image.height, source: source, planes: planes)
    }

    /// The same for a file checked, not decoded (`PNG.check`).
    static func maps(_ metadata: PNGMetadata, width: Int, height: Int, source: String, planes: Bool = true) throws(PNGError) -> FrameMaps? {
        guard let side = metadata.sideData else { return nil }
        do {
            let pixels = width * height
            let maps = planes ? try FrameMaps(serialized: side, maxPixels: pixels) : nil
            let size = try maps.map { ($0.width, $0.height) } ?? FrameMaps.checked(serialized: side, maxPixels: pixels)
            guard size == (width, height) else {
                throw PNGError(source: source, kind: .corrupt,
                               message: "its maps are \(size.0)x\(size.1) but its pixels \(width)x\(height)")
            }
            return maps
        } catch let error as FrameMaps.DecodeError {
            throw PNGError(source: source, kind: .corrupt, message: error.description)
        } catch let error as PNGError {
            throw error
        } catch {
            throw PNGError(source: source, kind: .corrupt, message: "\(error)")
        }
    }

    public var json: JSON {
        .object(comparison.json + [("expected", .string(expectedPath)), ("actual", .string(actualPath))])
    }
}
