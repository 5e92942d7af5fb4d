import CPNG

/// Metadata NavReel keeps in a PNG beside the pixels.
public struct PNGMetadata: Sendable, Equatable {
    /// Text chunks (tEXt when the value is ASCII, iTXt otherwise), written in key order.
    public var text: [String: String]
    /// Opaque binary side data (e.g. tolerance and element maps), stored compressed in the private
    /// ancillary chunk `nrSD`.
    public var sideData: [UInt8]?

    public init(text: [String: String] = [:], sideData: [UInt8]? = nil) {
        self.text = text
        self.sideData = sideData
    }
}

/// A decoded PNG: the pixels as RGBA8, NavReel's metadata, and what the file declared.
public struct DecodedPNG: Sendable, Equatable {
    public var image: Image
    public var metadata: PNGMetadata
    public var bitDepth: Int
    /// PNG colour type as declared (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA).
    public var colorType: Int
    public var interlaced: Bool
}

/// A plain PNG's pixels in its own rows (`PNG.plainRows`): row y is the byte at y * `stride`
/// (its filter type, unused) and then `width` pixels of `channels` bytes: red, green, blue and
/// alpha (4), red, green and blue (3, opaque) or grey (1, opaque), unfiltered.
public struct PlainRows: Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public let bytes: [UInt8]
    public let metadata: PNGMetadata
    public var stride: Int { 1 + width * channels }
    /// What `PNG.check` gives for the same file.
    public var checked: CheckedPNG { CheckedPNG(width: width, height: height, metadata: metadata) }
}

/// What decoding a PNG gives but the pixels (`PNG.check`).
public struct CheckedPNG: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var metadata: PNGMetadata
}

/// How to encode. `.baseline` for baselines (what `record` writes on every changed frame),
/// `.small` for the fewest bytes whatever the time, `.fast` for report artifacts that are written
/// once and looked at once.
public struct PNGEncodeOptions: Sendable, Equatable {
    public enum Filter: Sendable, Equatable { case none, sub, up, average, paeth, adaptive }
    public enum Strategy: Sendable, Equatable { case `default`, filtered, huffmanOnly, rle }
    /// zlib through libpng (any filter and strategy, levels 0-9), libdeflate in one call (no
    /// filter, levels 0-12), or zlib in bands (no filter, levels 0-9): bands of about
    /// `bandBytes` of rows compressed apart, on several threads when `workers` allows, and
    /// joined into one stream as pigz does. The bands depend only on the image's size, so the
    /// bytes are the same for any number of threads. Side data in bands goes through zlib. All
    /// write zlib streams any PNG reader takes, and the same bytes for the same pixels on every
    /// run (why diff images no longer use ISA-L's igzip: `DiffImage.encoding`). `rowRuns` is
    /// `zlibBands` with NavReel's own encoder in place of zlib: matches are runs and the row
    /// above only, Huffman-coded per band (`nr_deflate_band_runs`), for palette diff images.
    /// `search` is `rowRuns` with runs of whole pixels and a hash-chain search for other matches
    /// too (`nr_deflate_band_search`, `PNG.searchDepth`), for baselines; its side data goes
    /// through libdeflate, as `libdeflate`'s does.
    public enum Deflater: Sendable, Equatable {
        case zlib, libdeflate, zlibBands, rowRuns, search
        var banded: Bool { self == .zlibBands || self == .rowRuns || self == .search }
        /// Side data (the maps) through libdeflate in one call (levels 0-12), else through zlib.
        var sideDataByLibdeflate: Bool { self == .libdeflate || self == .search }
        /// The levels the image data may be compressed at.
        var levels: ClosedRange<Int> { self == .libdeflate ? 0...12 : 0...9 }
    }

    /// Deflate level: 0 (store) to 9 (smallest) for zlib, to 12 for libdeflate (`Deflater.levels`).
    public var compressionLevel: Int
    public var filter: Filter
    public var strategy: Strategy
    /// Write opaque images as RGB (or grey), and images of at most 256 colours as a palette. The
    /// decoded pixels are identical either way; only the file is smaller.
    public var reduceColors: Bool
    /// Deflate level and zlib strategy of the side data (the maps), compressed apart from the
    /// pixels: by libdeflate when that is the deflater (which has no strategies: the default
    /// only), by zlib otherwise, in bands too (levels 0-9).
    public var sideDataLevel: Int
    public var sideDataStrategy: Strategy
    /// Which deflate implementation compresses the image data and the side data.
    public var deflater: Deflater
    /// Bytes of filtered rows a band of a banded deflater holds (about; whole rows, at least one).
    /// The bytes written depend on it, never on how many threads compress the bands.
    public var bandBytes: Int

    public init(compressionLevel: Int = 6, filter: Filter = .adaptive, strategy: Strategy = .default,
                reduceColors: Bool = true, sideDataLevel: Int = 9, sideDataStrategy: Strategy = .default,
                deflater: Deflater = .zlib, bandBytes: Int = PNG.bandBytes) {
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.strategy = strategy
        self.reduceColors = reduceColors
        self.sideDataLevel = sideDataLevel
        self.sideDataStrategy = sideDataStrategy
        self.deflater = deflater
        self.bandBytes = bandBytes
    }

    public static let small = PNGEncodeOptions(compressionLevel: 9, filter: .adaptive, strategy: .default, reduceColors: true)
    public static let fast = PNGEncodeOptions(compressionLevel: 1, filter: .sub, strategy: .rle, reduceColors: false,
                                              sideDataLevel: 1, sideDataStrategy: .rle)
    /// Baselines, chosen by measurement (issue 17, 2026-11-23, the 790 bundled baselines
    /// re-encoded on one core of a shared 2-core machine; libpng 1.6.39, zlib 1.2.13, libdeflate
    /// 1.14; CPU for all 790 frames; bytes of all image data, then of all maps):
    ///
    ///     image data                  bytes      CPU    |  maps                  bytes      CPU
    ///     zlib 9, all filters          5,778,501  7.56 s |  zlib 9               1,730,852  2.80 s
    ///     zlib 6, all filters          6,034,005  1.69 s |  zlib 6               1,892,931  0.53 s
    ///     zlib 6, sub                  6,223,948  1.02 s |  zlib 1               2,846,265  0.19 s
    ///     zlib 9, no filter            5,112,044  3.66 s |  zlib RLE             2,654,716  0.19 s
    ///     zlib 6, no filter            5,403,158  0.87 s |  row above XORed, RLE 2,028,042  0.26 s
    ///     zlib 3, no filter            6,385,718  0.56 s |  libdeflate 6         1,852,727  0.28 s
    ///     libdeflate 6, no filter      5,332,354  0.40 s |  libdeflate 9         1,754,390  1.06 s
    ///     libdeflate 3, no filter      5,568,550  0.34 s |
    ///     libdeflate 9, no filter      5,198,880  1.62 s |
    ///
    /// No filter wins on these frames: flat colours and rows repeated from the row above, which
    /// deflate finds as matches one row back; filters turn those repeats into differences that
    /// vary along the row. zlib level 6 without filters is already smaller than the level 9
    /// adaptive encoding used before, and 8.7x cheaper; libdeflate's level 6 is twice as fast
    /// again for 1 % more bytes (its level 9 costs 4x more for 2.5 % fewer). The maps, long runs
    /// and repeated rows, took libdeflate 6 too: smaller than zlib 6 at half its CPU.
    ///
    /// Baseline format 4 writes the maps in layout NRM2 (`FrameMaps`: repeated rows and runs
    /// coded before deflate), a thirtieth of NRM1's bytes, and the levels were measured again
    /// (same machine and frames, libdeflate on one core, CPU for all 790 frames' maps):
    ///
    ///     maps      raw bytes    libdeflate 1        libdeflate 6        libdeflate 9        libdeflate 12
    ///     NRM1    131,670,034    2,115,277 0.36 s    1,852,727 0.34 s    1,754,390 1.22 s    1,609,115 20.5 s
    ///     NRM2      4,146,220    1,625,219 0.03 s    1,589,807 0.06 s    1,581,505 0.07 s    1,540,804 0.33 s
    ///
    /// Level 9 of NRM2 is smaller than any level of NRM1 (12 included), at a fifth of what level
    /// 6 of NRM1 cost; 12 would take back most of the saving in CPU for 2.6 % fewer bytes.
    ///
    /// Since 2026-11-25 the image data goes through NavReel's own encoder (`Deflater.search`):
    /// 97.7 % of these frames' bytes equal the byte above or the pixel to the left, which it finds
    /// eight bytes at a time without hashing, and a hash-chain search (16 positions deep, one step
    /// lazy) finds the rest. The 790 frames' rows, libdeflate 6 against it in bands of 512 KiB,
    /// one core, same process: 5,332,354 against 5,331,008 bytes (depth 4: 5,350,344) in 0.72x
    /// the time, every stream inflated by zlib to the same rows. In `record` (which also pays
    /// libdeflate's long matches hashed byte by byte) the whole suite's CPU fell to 0.83x, 1.40x
    /// a check's against 1.64-1.70x (eight interleaved runs, folders in memory; issue 17).
    /// Baselines written before inflate as they did: only new or changed frames get the new bytes.
    ///
    /// The maps went from libdeflate 9 to level 1 on 2026-11-29. Their NRM2 rows of 1,025
    /// frames (4.79 MB), each frame alone with a compressor of its own as `record` does, one
    /// core: level 9 1,886,502 bytes in 45 ms, 8 1,886,452 in 45 ms, 6 1,895,919 in 38 ms,
    /// 1 1,936,417 in 22.6 ms. Level 1 costs 2.6 % more maps bytes (50 KB, 0.7 % of a record's
    /// files) for half their CPU, 3 % of a whole record: the aim `record` missed by a few
    /// percent (at most 1.5x a check's CPU), against an aim for git's bytes (half of naive
    /// PNGs) that no file of one frame reaches (`docs/baselines.md`). Issue 17.
    public static let baseline = PNGEncodeOptions(compressionLevel: 6, filter: .none, strategy: .default, reduceColors: true,
                                                  sideDataLevel: 1, sideDataStrategy: .default, deflater: .search)
}

public enum PNG {
    /// The private ancillary chunk for side data: lower-case first letter (ancillary), lower-case
    /// second (private), upper-case third (reserved), upper-case fourth (unsafe to copy: the data
    /// describes these exact pixels). PNG specification, section 5.4.
    public static let sideDataChunk = "nrSD"
    /// First byte of the side-data chunk: the layout version of what follows (a zlib stream).
    static let sideDataVersion: UInt8 = 1

    public static var libpngVersion: String { String(cString: nr_png_version()) }

    // MARK: Decoding

    /// Decodes PNG bytes to RGBA8. `source` names the bytes in error messages (usually a path).
    public static func decode(_ bytes: [UInt8], source: String = "<memory>",
                              limits: PNGLimits = .default) throws(PNGError) -> DecodedPNG {
        try withBytes(bytes, source: source) { raw throws(PNGError) in try decode(raw, source: source, limits: limits) }
    }

    public static func decode(_ raw: UnsafeRawBufferPointer, source: String,
                              limits: PNGLimits = .default) throws(PNGError) -> DecodedPNG {
        try decode(raw, source: source, limits: limits, plain: true)
    }

    /// `plain: false` decodes every file with libpng (for the tests that compare the two decoders).
    /// Decodes bytes whose structure the caller has already scanned (with the default limits)
    /// and whose chunk CRCs it has checked (a baseline on `check`'s slow path): neither is done again.
    public static func decode(_ bytes: [UInt8], checked structure: PNGStructure, source: String) throws(PNGError) -> DecodedPNG {
        try withBytes(bytes, source: source) { raw throws(PNGError) in
            try decode(raw, source: source, limits: .default, plain: true, scanned: structure)
        }
    }

    /// Checks `bytes` as thoroughly as `decode` does (every error the same) and gives all it
    /// would give but the pixels. A plain file (`plainChunks`) that is not a palette image is
    /// inflated into its filtered rows only, and its filter types checked, with nothing unfiltered
    /// or expanded to RGBA: for a file compared with itself (`PairDiff`; a 390x844 RGB frame
    /// touches 0.99 MB instead of 1.32, issue 17). Anything else is decoded.
    public static func check(_ bytes: [UInt8], source: String = "<memory>",
                             limits: PNGLimits = .default) throws(PNGError) -> CheckedPNG {
        try withBytes(bytes, source: source) { raw throws(PNGError) in
            let prepared = try Prepared(raw, source: source, limits: limits, scanned: nil)
            let structure = prepared.structure
            if let plain = plainNonPalette(raw, prepared) {
                let status = plain.spans.withUnsafeBufferPointer { s in
                    nr_png_check_plain(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), s.baseAddress, s.count,
                                       UInt32(structure.width), UInt32(structure.height), Int32(plain.channels))
                }
                if Int(status) == NR_OK {
                    return CheckedPNG(width: structure.width, height: structure.height,
                                      metadata: try metadata(of: plain.chunks, prepared, source: source, limits: limits))
                }
            }
            let png = try decode(raw, source: source, limits: limits, plain: true, prepared: prepared)
            return CheckedPNG(width: png.image.width, height: png.image.height, metadata: png.metadata)
        }
    }

    /// A plain RGB, RGBA or grey file's pixels in its own rows (`PlainRows`: no RGBA copy, a
    /// quarter less memory for RGB, three quarters for grey), checked as `decode` checks them;
    /// nil for any other file and for one whose image data is not exactly right: decode that one,
    /// whose errors say what is wrong. For the diff image of a file compared with itself, which
    /// fades each pixel where it lies (issue 17).
    public static func plainRows(_ bytes: [UInt8], source: String = "<memory>",
                                 limits: PNGLimits = .default) throws(PNGError) -> PlainRows? {
        try withBytes(bytes, source: source) { raw throws(PNGError) -> PlainRows? in
            let prepared = try Prepared(raw, source: source, limits: limits, scanned: nil)
            let structure = prepared.structure
            guard let plain = plainNonPalette(raw, prepared) else { return nil }
            let count = structure.height * (1 + structure.width * plain.channels)
            var status: Int32 = 0
            let rows = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                status = plain.spans.withUnsafeBufferPointer { s in
                    nr_png_rows_plain(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), s.baseAddress, s.count,
                                      UInt32(structure.width), UInt32(structure.height), Int32(plain.channels),
                                      buffer.baseAddress!, count)
                }
                initialized = Int(status) == NR_OK ? count : 0
            }
            guard Int(status) == NR_OK else { return nil }
            return PlainRows(width: structure.width, height: structure.height, channels: plain.channels, bytes: rows,
                             metadata: try metadata(of: plain.chunks, prepared, source: source, limits: limits))
        }
    }

    /// `body` given the bytes' memory, with its errors typed (`withUnsafeBytes` rethrows them
    /// untyped); anything else thrown on the way is reported as damage to `source`.
    static func withBytes<T>(_ bytes: [UInt8], source: String,
                             _ body: (UnsafeRawBufferPointer) throws(PNGError) -> T) throws(PNGError) -> T {
        do {
            return try bytes.withUnsafeBytes { raw in try body(raw) }
        } catch let error as PNGError {
            throw error
        } catch {
            throw PNGError(source: source, kind: .corrupt, message: "\(error)")
        }
    }

    /// A file the plain decoder takes that is not a palette image: its text and side-data
    /// chunks, its image data's spans, and its bytes a pixel (4 RGBA, 3 RGB, 1 grey).
    private static func plainNonPalette(_ raw: UnsafeRawBufferPointer, _ prepared: Prepared)
        -> (chunks: [PlainChunk], spans: [nr_span], channels: Int)? {
        let structure = prepared.structure
        guard structure.colorType != 3, let (chunks, _) = plainChunks(structure, raw, chunkBound: prepared.chunkBound) else { return nil }
        let spans = structure.chunks.filter { $0.type == "IDAT" }.map { nr_span(offset: $0.dataOffset, length: $0.length) }
        return (chunks, spans, structure.colorType == 6 ? 4 : structure.colorType == 2 ? 3 : 1)
    }

    private static func metadata(of chunks: [PlainChunk], _ prepared: Prepared, source: String,
                                 limits: PNGLimits) throws(PNGError) -> PNGMetadata {
        let collector = MetadataCollector()
        collector.add(chunks)
        return try metadata(collector, width: prepared.structure.width, height: prepared.structure.height, source: source, limits: limits)
    }

    /// What decoding and checking do before the image data: the structure scanned, the CRCs
    /// checked (unless the caller scanned and checked them), the image data proved first when
    /// its pixels would be large for the file, and the bound on other chunks' allocations.
    struct Prepared {
        let structure: PNGStructure
        let proveFirst: Bool
        let chunkBound: Int

        init(_ raw: UnsafeRawBufferPointer, source: String, limits: PNGLimits, scanned: PNGStructure?) throws(PNGError) {
            if let scanned { structure = scanned } else { structure = try PNGStructure.scan(raw, source: source, limits: limits) }
            // The image data must inflate to exactly the declared rows: a huge declared size with
            // little data, or a zlib bomb after the last row, is refused having cost one streaming
            // pass and 64 KiB (checkImageData), before the pixels are allocated when they are large
            // for the file (below).
            if scanned == nil, let chunk = structure.firstBadCRC(in: raw) {
                throw PNGError(source: source, kind: .corrupt, message: "bad CRC in chunk \(chunk.type) at byte \(chunk.dataOffset - 8): the file is damaged")
            }
            // Proving the data first costs a second inflate of it, about a third of the decode; it is
            // done before allocating only when the pixels would be large for the file. Otherwise
            // libpng decodes straight away into memory that only the decoded rows touch, and the
            // proof runs afterwards when libpng failed or warned (data after the last row, a bad
            // checksum after it), so the error is the same either way.
            let pixelBytes = structure.width * structure.height * 4
            proveFirst = pixelBytes > max(limits.unprovenPixelBytes, raw.count.multipliedReportingOverflow(by: limits.unprovenPixelBytesPerFileByte).partialValue)
            if proveFirst { try structure.checkImageData(raw, source: source) }
            // Other chunks may allocate (and compressed text inflate to) no more than the largest
            // chunk of this file or 1 MiB, whichever is more.
            let largestChunk = structure.chunks.filter { $0.type != "IDAT" }.map(\.length).max() ?? 0
            chunkBound = min(limits.maxChunkBytes, max(limits.minChunkAllocation, largestChunk + 1))
        }
    }

    static func decode(_ raw: UnsafeRawBufferPointer, source: String, limits: PNGLimits, plain: Bool,
                       scanned: PNGStructure? = nil) throws(PNGError) -> DecodedPNG {
        try decode(raw, source: source, limits: limits, plain: plain,
                   prepared: Prepared(raw, source: source, limits: limits, scanned: scanned))
    }

    static func decode(_ raw: UnsafeRawBufferPointer, source: String, limits: PNGLimits, plain: Bool,
                       prepared: Prepared) throws(PNGError) -> DecodedPNG {
        let structure = prepared.structure, proveFirst = prepared.proveFirst, chunkBound = prepared.chunkBound
        let width = structure.width, height = structure.height
        let pixelBytes = width * height * 4

        let collector = MetadataCollector()

        // Plain files (8-bit RGB, RGBA, grey or palette, not interlaced, only text, NavReel's
        // chunk and a palette's PLTE and tRNS beside the image: UI screenshots and NavReel's own
        // frames; `plainChunks` says exactly which) are decoded without libpng, about
        // twice as fast; anything else, and any plain file whose data is not exactly right, goes
        // through libpng below, whose errors say what is wrong.
        if plain, let plainFile = plainChunks(structure, raw, chunkBound: chunkBound) {
            let (chunks, table) = plainFile
            let spans = structure.chunks.filter { $0.type == "IDAT" }.map { nr_span(offset: $0.dataOffset, length: $0.length) }
            let capacity = pixelBytes + height
            var status: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                status = spans.withUnsafeBufferPointer { s in
                    let data = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    if let table {
                        return table.withUnsafeBufferPointer { t in
                            nr_png_decode_plain_indexed(data, s.baseAddress, s.count, UInt32(width), UInt32(height),
                                                        t.baseAddress, Int32(t.count), buffer.baseAddress!, capacity)
                        }
                    }
                    return nr_png_decode_plain(data, s.baseAddress, s.count, UInt32(width), UInt32(height),
                                               Int32(structure.colorType == 6 ? 4 : 3), buffer.baseAddress!, capacity)
                }
                count = Int(status) == NR_OK ? pixelBytes : 0
            }
            if Int(status) == NR_OK {
                collector.add(chunks)
                return try finish(pixels: pixels, collector: collector, width: width, height: height, source: source, limits: limits,
                                  bitDepth: structure.bitDepth, colorType: structure.colorType, interlaced: false)
            }
        }

        var sink = nr_png_sink()
        sink.context = Unmanaged.passUnretained(collector).toOpaque()
        sink.text = { context, key, value, length in
            let c = Unmanaged<MetadataCollector>.fromOpaque(context!).takeUnretainedValue()
            c.add(key: String(cString: key!), value: UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : length))
        }
        sink.chunk = { context, name, data, length in
            let c = Unmanaged<MetadataCollector>.fromOpaque(context!).takeUnretainedValue()
            c.add(chunk: String(cString: name!), data: UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length))
        }

        var cLimits = nr_png_limits(max_width: UInt32(clamping: limits.maxSide),
                                    max_height: UInt32(clamping: limits.maxSide),
                                    max_pixels: UInt64(limits.maxPixels),
                                    max_chunk_bytes: UInt32(clamping: chunkBound))
        var info = nr_png_info()
        var message = [CChar](repeating: 0, count: 512)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: pixelBytes) { buffer, count in
            status = nr_png_decode(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &cLimits,
                                   buffer.baseAddress!, UInt32(width), UInt32(height), &sink, &info,
                                   &message, message.count)
            // On failure nothing is kept (the array is discarded below): no page is touched to
            // initialise it.
            count = Int(status) == NR_OK ? width * height * 4 : 0
        }
        withExtendedLifetime(collector) {}
        if !proveFirst && (Int(status) != NR_OK || info.warnings > 0) {
            try structure.checkImageData(raw, source: source)
        }
        guard Int(status) == NR_OK else {
            // Bad CRCs were refused before decoding, with the chunk named.
            throw PNGError(source: source, kind: kind(of: status, message: message),
                           message: describe(message: cString(message)))
        }
        return try finish(pixels: pixels, collector: collector, width: width, height: height, source: source, limits: limits,
                          bitDepth: Int(info.bit_depth), colorType: Int(info.color_type), interlaced: info.interlaced != 0)
    }

    private static func finish(pixels: [UInt8], collector: MetadataCollector, width: Int, height: Int, source: String,
                               limits: PNGLimits, bitDepth: Int, colorType: Int, interlaced: Bool) throws(PNGError) -> DecodedPNG {
        DecodedPNG(image: Image(width: width, height: height, pixels: pixels),
                   metadata: try metadata(collector, width: width, height: height, source: source, limits: limits),
                   bitDepth: bitDepth, colorType: colorType, interlaced: interlaced)
    }

    private static func metadata(_ collector: MetadataCollector, width: Int, height: Int, source: String,
                                 limits: PNGLimits) throws(PNGError) -> PNGMetadata {
        guard collector.extraSideChunks == 0 else {
            throw PNGError(source: source, kind: .corrupt, message: "more than one \(sideDataChunk) side-data chunk")
        }
        var metadata = PNGMetadata(text: collector.text)
        if let chunk = collector.side {
            // The maps hold at most a few bytes a pixel: the bound comes from the image.
            let bound = min(limits.maxSideDataBytes, width * height * limits.sideDataBytesPerPixel + limits.sideDataExtraBytes)
            metadata.sideData = try unpackSideData(chunk, source: source, maxBytes: bound)
        }
        return metadata
    }

    enum PlainChunk {
        case text(key: String, value: UnsafeRawBufferPointer)
        case side(UnsafeRawBufferPointer)
    }

    /// The text and side-data chunks of a file the plain decoder takes, or nil: 8-bit RGB, RGBA,
    /// grey (without tRNS) or palette, not interlaced, IHDR first, the IDAT chunks together, IEND
    /// last, and beside them only tEXt, uncompressed iTXt and nrSD chunks that libpng would read
    /// the same way (keys of 1 to 79 bytes; values end at a NUL as libpng's do) and within
    /// `chunkBound`; for a palette image one PLTE of 1 to 256 entries and at most one tRNS of no
    /// more entries, both before the image data. `table` is the RGBA8 word of each index for
    /// grey and palette images (what libpng's expansion gives), nil for RGB and RGBA.
    static func plainChunks(_ structure: PNGStructure, _ raw: UnsafeRawBufferPointer, chunkBound: Int) -> (chunks: [PlainChunk], table: [UInt32]?)? {
        guard structure.bitDepth == 8, [0, 2, 3, 6].contains(structure.colorType), !structure.interlaced,
              structure.chunks.first?.type == "IHDR", structure.chunks.last?.type == "IEND" else { return nil }
        var out: [PlainChunk] = []
        var seenData = false, dataEnded = false
        var palette: UnsafeRawBufferPointer?, alpha: UnsafeRawBufferPointer?
        for chunk in structure.chunks.dropFirst().dropLast() {
            if chunk.type == "IDAT" {
                if dataEnded { return nil }
                seenData = true
                continue
            }
            if seenData { dataEnded = true }
            guard chunk.length < chunkBound else { return nil }
            let data = UnsafeRawBufferPointer(rebasing: raw[chunk.dataOffset..<chunk.dataOffset + chunk.length])
            func terminated(_ from: Int) -> Int? { data[from...].firstIndex(of: 0) }
            switch chunk.type {
            case "PLTE":
                guard structure.colorType == 3, !seenData, palette == nil, alpha == nil,
                      data.count % 3 == 0, (3...768).contains(data.count) else { return nil }
                palette = data
            case "tRNS":
                guard structure.colorType == 3, !seenData, let palette, alpha == nil,
                      (1...palette.count / 3).contains(data.count) else { return nil }
                alpha = data
            case "tEXt":
                guard let keyEnd = terminated(0), (1...79).contains(keyEnd) else { return nil }
                let rest = UnsafeRawBufferPointer(rebasing: data[(keyEnd + 1)...])
                let valueEnd = rest.firstIndex(of: 0) ?? rest.count
                out.append(.text(key: String(decoding: data[..<keyEnd], as: UTF8.self),
                                 value: UnsafeRawBufferPointer(rebasing: rest[..<valueEnd])))
            case "iTXt":
                // keyword NUL, compression flag, method, language NUL, translated keyword NUL, text.
                guard let keyEnd = terminated(0), (1...79).contains(keyEnd), data.count >= keyEnd + 3,
                      data[keyEnd + 1] == 0, data[keyEnd + 2] == 0,
                      let languageEnd = terminated(keyEnd + 3), let translatedEnd = terminated(languageEnd + 1) else { return nil }
                let rest = UnsafeRawBufferPointer(rebasing: data[(translatedEnd + 1)...])
                let valueEnd = rest.firstIndex(of: 0) ?? rest.count
                out.append(.text(key: String(decoding: data[..<keyEnd], as: UTF8.self),
                                 value: UnsafeRawBufferPointer(rebasing: rest[..<valueEnd])))
            case PNG.sideDataChunk:
                out.append(.side(data))
            default:
                return nil
            }
        }
        guard seenData else { return nil }
        switch structure.colorType {
        case 0:
            return (out, (0..<256).map { g in Self.word(UInt8(g), UInt8(g), UInt8(g), 255) })
        case 3:
            guard let palette else { return nil }
            let table = (0..<palette.count / 3).map { i in
                Self.word(palette[3 * i], palette[3 * i + 1], palette[3 * i + 2], alpha.map { i < $0.count ? $0[i] : 255 } ?? 255)
            }
            return (out, table)
        default:
            return (out, nil)
        }
    }

    /// The UInt32 whose bytes in memory are r, g, b, a (an RGBA8 pixel).
    static func word(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        UInt32(littleEndian: UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24)
    }

    /// Reads and decodes a PNG file.
    public static func read(path: String, limits: PNGLimits = .default) throws(PNGError) -> DecodedPNG {
        let bytes = try FileBytes.read(path: path, limit: limits.maxFileBytes)
        return try decode(bytes, source: path, limits: limits)
    }

    // MARK: Encoding

    /// Encodes an image with its metadata. The same inputs give the same bytes on every run: no
    /// timestamp or other varying chunk is ever written.
    public static func encode(_ image: Image, metadata: PNGMetadata = PNGMetadata(),
                              options: PNGEncodeOptions = .small) throws(PNGError) -> [UInt8] {
        try encode(image, metadata: metadata, options: options, packedSide: nil)
    }

    /// Side data compressed as `encode` stores it in its `nrSD` chunk, for a caller that writes
    /// the same side data under several images: consecutive frames of a fade or a colour change
    /// keep their maps while their pixels change (102 of the 1,025 bundled frames, a tenth of
    /// the maps' bytes), and compressing them again is what `record` would
    /// otherwise pay for each (issue 17).
    /// Opaque to callers: made by `packSide`, given back to `encode`.
    public struct PackedSideData: Sendable {
        /// The chunk's data: the layout version byte and the compressed stream.
        let chunk: [UInt8]
        /// The options' deflater and level it was compressed with (a chunk packed for one set of
        /// options is not used under another, which would give other bytes).
        let deflater: PNGEncodeOptions.Deflater
        let level: Int
        let strategy: PNGEncodeOptions.Strategy
    }

    /// Compresses side data as `encode(_:metadata:options:)` would for these options.
    public static func packSide(_ data: [UInt8], options: PNGEncodeOptions) throws(PNGError) -> PackedSideData {
        PackedSideData(chunk: try packSideData(data, options: options), deflater: options.deflater,
                       level: options.sideDataLevel, strategy: options.sideDataStrategy)
    }

    /// `encode` with the side data already compressed (`packSide`, with the same options):
    /// `metadata.sideData` must then be nil. The bytes are those `encode` writes for the side
    /// data `packed` was made from.
    public static func encode(_ image: Image, metadata: PNGMetadata, options: PNGEncodeOptions,
                              packedSide packed: PackedSideData?) throws(PNGError) -> [UInt8] {
        let source = "<encoder>"
        if let packed {
            guard metadata.sideData == nil, packed.deflater == options.deflater, packed.level == options.sideDataLevel,
                  packed.strategy == options.sideDataStrategy else {
                throw PNGError(source: source, kind: .unencodable, message: "side data packed for other options, or given twice")
            }
        }
        guard image.width > 0, image.height > 0 else {
            throw PNGError(source: source, kind: .unencodable, message: "cannot encode an empty \(image.width)x\(image.height) image")
        }
        // `pixels` is mutable: a buffer resized after the image was made is refused, not read past.
        guard image.pixels.count == image.width * image.height * 4 else {
            throw PNGError(source: source, kind: .unencodable,
                           message: "\(image.pixels.count) bytes of pixels do not fit \(image.width)x\(image.height) RGBA8")
        }
        let levels = options.deflater.levels
        guard levels.contains(options.compressionLevel) else {
            throw PNGError(source: source, kind: .unencodable, message: "compression level \(options.compressionLevel) is outside \(levels)")
        }
        guard options.deflater == .zlib || (options.filter == .none && options.strategy == .default && options.sideDataStrategy == .default) else {
            throw PNGError(source: source, kind: .unencodable, message: "\(options.deflater) encodes rows without filters and with the default strategy")
        }
        let keys = metadata.text.keys.sorted()
        for key in keys {
            guard (1...79).contains(key.unicodeScalars.count),
                  key.unicodeScalars.allSatisfy({ (32...126).contains($0.value) || (161...255).contains($0.value) }),
                  key.first != " ", key.last != " ", !key.contains("  ") else {
                throw PNGError(source: source, kind: .unencodable,
                               message: "text key \"\(key)\" is not 1 to 79 printable Latin-1 characters without leading, trailing or double spaces")
            }
        }
        var side = packed?.chunk
        if let data = metadata.sideData {
            side = try packSideData(data, options: options)
        }
        // libdeflate's writer and the search deflate rows that already hold their filter bytes
        // as they are (the search's bands are then not copied: a memmove of every frame's rows).
        let filtered = options.deflater == .libdeflate || options.deflater == .search
        // Those rows are packed with the opacity of an RGB frame learnt on the way.
        var layout = options.reduceColors ? ColorReduction.choose(for: image, deferringOpacity: filtered) : .rgba
        let rows: (bytes: [UInt8], stride: Int)
        if filtered {
            let bytes = layout.packFiltered(checking: image)
            rows = (bytes, 1 + image.width * layout.channels)
        } else {
            rows = layout.pack(image)
        }
        return try encode(width: image.width, height: image.height, layout: layout, rows: rows, rowsFiltered: filtered,
                          keys: keys, metadata: metadata, side: side, options: options)
    }

    /// Encodes a palette image given as indices (e.g. a diff image), without scanning for colours.
    public static func encodeIndexed(width: Int, height: Int, indices: [UInt8], palette: [RGBA8],
                                     metadata: PNGMetadata = PNGMetadata(),
                                     options: PNGEncodeOptions = .fast, workers: Int = 1) throws(PNGError) -> [UInt8] {
        let source = "<encoder>"
        guard width > 0, height > 0, indices.count == width * height else {
            throw PNGError(source: source, kind: .unencodable, message: "\(indices.count) indices do not fit \(width)x\(height)")
        }
        guard (1...256).contains(palette.count) else {
            throw PNGError(source: source, kind: .unencodable, message: "a palette has 1 to 256 colours, not \(palette.count)")
        }
        var layout = ColorReduction(colorType: NR_COLOR_PALETTE, channels: 1)
        layout.palette = palette.flatMap { [$0.r, $0.g, $0.b] }
        let lastTranslucent = palette.lastIndex { $0.a != 255 } ?? -1
        layout.paletteAlpha = palette.prefix(lastTranslucent + 1).map(\.a)
        let side = try metadata.sideData.map { (d) throws(PNGError) in try packSideData(d, options: options) }
        return try encode(width: width, height: height, layout: layout, rows: (indices, width),
                          keys: metadata.text.keys.sorted(), metadata: metadata, side: side, options: options, workers: workers)
    }

    /// Rows a band of a banded deflater holds by default (`PNGEncodeOptions.bandBytes`): about
    /// this many bytes of filtered rows. A zlib band costs zlib's set-up (~0.1 ms) and its first
    /// 32 KiB without a dictionary; 512 KiB makes a 3x frame's RGB rows 17 bands. Diff images,
    /// NavReel's own deflate without set-up or window, use 64 KiB (`DiffImage.encoding`).
    public static let bandBytes = 1 << 19

    /// How many earlier positions with the same four bytes `Deflater.search` tries at most
    /// (PNGEncodeOptions.baseline says what 4 and 16 gave).
    public static let searchDepth = 16

    /// The zlib stream of unfiltered rows compressed in bands (`Deflater.zlibBands`): a zlib
    /// header, each band's raw deflate (zlib's sync flush: byte-aligned, not final; the last band
    /// finished) in order, and the Adler-32 of all filtered rows combined from the bands'.
    /// `threshold`: how much work the bands after the first must be for helper threads to start
    /// (`Parallel.forEachAdaptive`; nil: its default); tests pass zero to make them run.
    /// `deflater`: `zlibBands`, `rowRuns` or `search` (whose runs of whole pixels are
    /// `pixelBytes` long).
    /// `rowsFiltered`: each row of `rows` is its filter byte 0 and then its `rowBytes` bytes
    /// (`stride` is `rowBytes + 1`); the search deflates them where they are, without copying
    /// each band first (the same bytes out).
    static func bandedStream(rows: (bytes: [UInt8], stride: Int), rowBytes: Int, height: Int, level: Int,
                             deflater: PNGEncodeOptions.Deflater = .zlibBands, pixelBytes: Int = 1, workers: Int,
                             threshold: Duration? = nil, bandBytes: Int = PNG.bandBytes,
                             rowsFiltered: Bool = false) throws(PNGError) -> [UInt8] {
        guard deflater.banded, (1...8).contains(pixelBytes) else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "\(deflater) does not deflate in bands of pixels of \(pixelBytes) bytes")
        }
        let lead = rowsFiltered ? 1 : 0
        guard rowBytes > 0, height > 0, height <= 0x7FFF_FFFF, rows.stride >= rowBytes + lead,
              !rowsFiltered || rows.stride == rowBytes + 1,
              rows.bytes.count >= (height - 1) * rows.stride + rowBytes + lead else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "\(height) rows of \(rowBytes) bytes do not fit the \(rows.bytes.count) given")
        }
        let bandRows = max(1, max(1, bandBytes) / (rowBytes + 1))
        let count = (height + bandRows - 1) / bandRows
        var parts = [(data: [UInt8], adler: UInt32, length: Int, error: String?)](repeating: ([], 1, 0, nil), count: count)
        rows.bytes.withUnsafeBufferPointer { src in
            parts.withUnsafeMutableBufferPointer { slots in
                let slots = UncheckedSendable(slots)
                Parallel.forEachAdaptive(count, workers: max(1, workers), threshold: threshold) { b in
                    let first = b * bandRows, n = min(bandRows, height - first)
                    var out: UnsafeMutablePointer<UInt8>?
                    var length = 0
                    var adler: UInt32 = 1
                    var message = [CChar](repeating: 0, count: 256)
                    let last: Int32 = b == count - 1 ? 1 : 0
                    let status: Int32
                    // Rows after their filter bytes: the copying encoders read from the first row's first byte.
                    let (rowsStart, rowsLength) = (src.baseAddress.map { $0 + lead }, src.count - lead)
                    switch deflater {
                    case .search where rowsFiltered:
                        status = nr_deflate_band_search_filtered(src.baseAddress, src.count, rowBytes, UInt32(first), UInt32(n),
                                                                 pixelBytes, Int32(searchDepth), last, &out, &length, &adler,
                                                                 &message, message.count)
                    case .rowRuns:
                        status = nr_deflate_band_runs(rowsStart, rowsLength, rows.stride, rowBytes, UInt32(first), UInt32(n),
                                                      last, &out, &length, &adler, &message, message.count)
                    case .search:
                        status = nr_deflate_band_search(rowsStart, rowsLength, rows.stride, rowBytes, UInt32(first), UInt32(n),
                                                        pixelBytes, Int32(searchDepth), last, &out, &length, &adler,
                                                        &message, message.count)
                    default:
                        status = nr_deflate_band(rowsStart, rowsLength, rows.stride, rowBytes, UInt32(first), UInt32(n), Int32(level),
                                                 last, &out, &length, &adler, &message, message.count)
                    }
                    if Int(status) == NR_OK, let out {
                        slots.value[b] = (Array(UnsafeBufferPointer(start: out, count: length)), adler, n * (rowBytes + 1), nil)
                        nr_free(out)
                    } else {
                        slots.value[b].error = cString(message)
                    }
                }
            }
        }
        if let error = parts.lazy.compactMap(\.error).first {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: error)
        }
        // RFC 1950: CMF 0x78 (deflate, 32 KiB window); FLG with a level hint (FLEVEL 0-3 as
        // zlib writes it for the level), no dictionary, and FCHECK making CMF*256+FLG a multiple
        // of 31. Readers ignore the hint.
        let flg: UInt8 = level < 2 ? 0x01 : level < 6 ? 0x5E : level == 6 ? 0x9C : 0xDA
        var stream: [UInt8] = [0x78, flg]
        stream.reserveCapacity(parts.reduce(6) { $0 + $1.data.count })
        var adler = parts[0].adler
        for (i, part) in parts.enumerated() {
            stream += part.data
            if i > 0 { adler = nr_adler32_combine(adler, part.adler, part.length) }
        }
        stream += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return stream
    }

    private static func encode(width: Int, height: Int, layout: ColorReduction, rows: (bytes: [UInt8], stride: Int),
                               rowsFiltered: Bool = false, keys: [String], metadata: PNGMetadata, side: [UInt8]?,
                               options: PNGEncodeOptions, workers: Int = 1) throws(PNGError) -> [UInt8] {
        let source = "<encoder>"
        var idat: [UInt8] = []
        if options.deflater.banded {
            let levels = options.deflater.levels
            guard options.filter == .none && options.strategy == .default && levels.contains(options.compressionLevel) else {
                throw PNGError(source: source, kind: .unencodable,
                               message: "deflating in bands encodes rows without filters, with the default strategy, at levels \(levels.lowerBound)-\(levels.upperBound)")
            }
            idat = try bandedStream(rows: rows, rowBytes: width * layout.channels, height: height, level: options.compressionLevel,
                                    deflater: options.deflater, pixelBytes: layout.channels, workers: workers,
                                    bandBytes: options.bandBytes, rowsFiltered: rowsFiltered)
        }

        var params = nr_png_encode_params()
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.compression_level = Int32(options.compressionLevel)
        params.filters = filterMask(options.filter)
        params.strategy = strategyValue(options.strategy)

        var message = [CChar](repeating: 0, count: 512)
        var out: UnsafeMutablePointer<UInt8>?
        var outLength = 0
        var status: Int32 = 0

        // Keep every C string alive for the duration of the call.
        let keyStrings = keys.map { Array($0.unicodeScalars.map { UInt8($0.value) }) + [0] }
        let valueStrings = keys.map { Array(metadata.text[$0]!.utf8) + [0] }
        let utf8Flags = keys.map { !metadata.text[$0]!.utf8.allSatisfy { $0 < 128 } }

        func withCStrings<R>(_ arrays: [[UInt8]], _ body: ([UnsafePointer<CChar>]) -> R) -> R {
            var pointers: [UnsafeMutablePointer<CChar>] = []
            for a in arrays {
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: a.count)
                a.withUnsafeBufferPointer { src in
                    src.withMemoryRebound(to: CChar.self) { p.initialize(from: $0.baseAddress!, count: a.count) }
                }
                pointers.append(p)
            }
            defer { pointers.forEach { $0.deallocate() } }
            return body(pointers.map { UnsafePointer($0) })
        }

        withCStrings(keyStrings) { keyPointers in
            withCStrings(valueStrings) { valuePointers in
                var texts = (0..<keys.count).map { i in
                    nr_png_text(key: keyPointers[i], value: valuePointers[i],
                                value_length: valueStrings[i].count - 1, utf8: utf8Flags[i] ? 1 : 0)
                }
                rows.bytes.withUnsafeBufferPointer { rowBytes in
                    layout.palette.withUnsafeBufferPointer { palette in
                        layout.paletteAlpha.withUnsafeBufferPointer { alpha in
                            texts.withUnsafeMutableBufferPointer { textBuffer in
                                (side ?? []).withUnsafeBufferPointer { sideBuffer in
                                    sideDataChunk.withCString { chunkName in
                                        params.color_type = layout.colorType
                                        params.rows = rowBytes.baseAddress
                                        params.stride = rows.stride
                                        params.rows_length = rowBytes.count
                                        params.rows_filtered = rowsFiltered ? 1 : 0
                                        params.palette_rgb = palette.baseAddress
                                        params.palette_alpha = alpha.baseAddress
                                        params.palette_count = Int32(layout.palette.count / 3)
                                        params.trns_count = Int32(layout.paletteAlpha.count)
                                        params.texts = UnsafePointer(textBuffer.baseAddress)
                                        params.text_count = Int32(keys.count)
                                        if side != nil {
                                            params.private_name = chunkName
                                            params.private_data = sideBuffer.baseAddress
                                            params.private_length = sideBuffer.count
                                        }
                                        if options.deflater.banded {
                                            status = idat.withUnsafeBufferPointer { stream in
                                                params.idat = stream.baseAddress
                                                params.idat_length = stream.count
                                                return nr_png_encode_unfiltered(&params, &out, &outLength, &message, message.count)
                                            }
                                        } else {
                                            status = options.deflater == .libdeflate
                                                ? nr_png_encode_unfiltered(&params, &out, &outLength, &message, message.count)
                                                : nr_png_encode(&params, &out, &outLength, &message, message.count)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard Int(status) == NR_OK, let out else {
            throw PNGError(source: source, kind: .unencodable, message: cString(message))
        }
        defer { nr_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: outLength))
    }

    /// A whole tEXt chunk (length, type, data, CRC; PNG specification 5.3 and 11.3.4.3), to add
    /// to an encoded file. The key is 1 to 79 printable ASCII characters, the value ASCII.
    public static func textChunk(key: String, value: String) throws(PNGError) -> [UInt8] {
        guard (1...79).contains(key.utf8.count), key.utf8.allSatisfy({ (33...126).contains($0) }),
              value.utf8.allSatisfy({ (32...126).contains($0) }) else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "text chunk \"\(key)\" is not printable ASCII")
        }
        let data = Array("tEXt".utf8) + Array(key.utf8) + [0] + Array(value.utf8)
        let length = data.count - 4
        let crc = data.withUnsafeBufferPointer { nr_crc32(0, $0.baseAddress, $0.count) }
        return [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + data + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    // MARK: Side data

    static func packSideData(_ data: [UInt8], options: PNGEncodeOptions) throws(PNGError) -> [UInt8] {
        let levels = options.deflater.sideDataByLibdeflate ? 0...12 : 0...9
        guard levels.contains(options.sideDataLevel) else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "side data compression level \(options.sideDataLevel) is outside \(levels)")
        }
        guard options.deflater == .zlib || options.sideDataStrategy == .default else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "\(options.deflater) compresses side data with the default strategy only")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer {
            options.deflater.sideDataByLibdeflate
                ? nr_deflate_whole($0.baseAddress, $0.count, Int32(options.sideDataLevel), &out, &length, &message, message.count)
                : nr_deflate_strategy($0.baseAddress, $0.count, Int32(options.sideDataLevel), strategyValue(options.sideDataStrategy),
                                      &out, &length, &message, message.count)
        }
        guard Int(status) == NR_OK, let out else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "side data: " + cString(message))
        }
        defer { nr_free(out) }
        return [sideDataVersion] + Array(UnsafeBufferPointer(start: out, count: length))
    }

    static func unpackSideData(_ chunk: [UInt8], source: String, maxBytes: Int) throws(PNGError) -> [UInt8] {
        guard let version = chunk.first else {
            throw PNGError(source: source, kind: .corrupt, message: "empty \(sideDataChunk) side-data chunk")
        }
        guard version == sideDataVersion else {
            throw PNGError(source: source, kind: .corrupt,
                           message: "\(sideDataChunk) side data has layout version \(version); this NavReel reads version \(sideDataVersion)")
        }
        // Inflated straight into the array that is returned: no buffer grown by realloc, no copy.
        // Only the bytes written are touched, so the bound costs address space, not memory.
        var message = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, count in
            var length = 0
            status = chunk.withUnsafeBufferPointer {
                nr_inflate_into($0.baseAddress! + 1, $0.count - 1, buffer.baseAddress, maxBytes, &length, &message, message.count)
            }
            count = Int(status) == NR_OK ? length : 0
        }
        guard Int(status) == NR_OK else {
            throw PNGError(source: source, kind: Int(status) == NR_ERR_LIMIT ? .tooLarge : .corrupt,
                           message: "\(sideDataChunk) side data: " + cString(message))
        }
        return out
    }

    // MARK: Helpers

    private static func kind(of status: Int32, message: [CChar]) -> PNGError.Kind {
        switch Int(status) {
        case NR_ERR_LIMIT: return .tooLarge
        case NR_ERR_MEMORY: return .tooLarge
        default:
            let text = cString(message)
            return text.hasPrefix("truncated") ? .truncated : .corrupt
        }
    }

    /// libpng's messages are terse ("IDAT: CRC error"); keep them and say what they mean.
    private static func describe(message: String) -> String {
        if message.hasPrefix("truncated") { return message }
        let lower = message.lowercased()
        if lower.contains("crc") { return "bad CRC: the file is damaged (libpng: \(message))" }
        if lower.contains("invalid") || lower.contains("incorrect") || lower.contains("too far back")
            || lower.contains("adler") || lower.contains("stored block") || lower.contains("distance") {
            return "bad compressed data (libpng: \(message))"
        }
        if lower.contains("not enough image data") || lower.contains("too much image data") {
            return "image data does not match the declared size (libpng: \(message))"
        }
        return "libpng: \(message)"
    }

    private static func filterMask(_ filter: PNGEncodeOptions.Filter) -> Int32 {
        switch filter {
        case .none: return NR_FILTER_NONE
        case .sub: return NR_FILTER_SUB
        case .up: return NR_FILTER_UP
        case .average: return NR_FILTER_AVG
        case .paeth: return NR_FILTER_PAETH
        case .adaptive: return NR_FILTER_ALL
        }
    }

    private static func strategyValue(_ strategy: PNGEncodeOptions.Strategy) -> Int32 {
        switch strategy {
        case .default: return NR_Z_DEFAULT_STRATEGY
        case .filtered: return NR_Z_FILTERED
        case .huffmanOnly: return NR_Z_HUFFMAN_ONLY
        case .rle: return NR_Z_RLE
        }
    }
}

/// A NUL-terminated C buffer as a String.
func cString(_ buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Text and side data met while decoding, the same for libpng's callbacks and the plain decoder.
final class MetadataCollector {
    var text: [String: String] = [:]
    var side: [UInt8]?
    var extraSideChunks = 0

    func add(key: String, value bytes: UnsafeRawBufferPointer) {
        text[key] = String(validating: bytes, as: UTF8.self)
            ?? String(bytes.map { Character(Unicode.Scalar($0)) })   // tEXt is Latin-1
    }

    func add(chunk name: String, data: UnsafeRawBufferPointer) {
        guard name == PNG.sideDataChunk else { return }
        if side != nil { extraSideChunks += 1; return }
        side = Array(data)
    }

    /// The chunks `PNG.plainChunks` found.
    func add(_ chunks: [PNG.PlainChunk]) {
        for chunk in chunks {
            switch chunk {
            case .text(let key, let value): add(key: key, value: value)
            case .side(let data): add(chunk: PNG.sideDataChunk, data: data)
            }
        }
    }
}
