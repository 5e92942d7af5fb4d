import CPNG

/// A walk over a PNG's chunk structure that reads no pixel data and allocates nothing large.
/// It runs before libpng sees a file so that truncation, absurd dimensions and oversized chunks
/// are refused with a clear message before anything is allocated for the pixels.
public struct PNGStructure: Sendable, Equatable {
    public struct Chunk: Sendable, Equatable {
        public let type: String
        /// Offset of the chunk's data (after the 8-byte length and type).
        public let dataOffset: Int
        public let length: Int
    }

    public let width: Int
    public let height: Int
    public let bitDepth: Int
    public let colorType: Int
    public let interlaced: Bool
    public let chunks: [Chunk]
    /// Total bytes of compressed image data (all IDAT chunks).
    public let imageDataBytes: Int
    /// Exactly how many bytes the image data inflates to: each row (of each Adam7 pass) with its
    /// filter byte (PNG specification, sections 7.2 and 8.2).
    public let filteredBytes: Int

    /// The inflated size of the image data of a `width` × `height` image.
    static func filteredBytes(width: Int, height: Int, bitsPerPixel: Int, interlaced: Bool) -> Int {
        func rows(_ w: Int, _ h: Int) -> Int { w == 0 || h == 0 ? 0 : h * (1 + (w * bitsPerPixel + 7) / 8) }
        guard interlaced else { return rows(width, height) }
        // Adam7 passes: (x start, y start, x step, y step).
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { sum, p in
            let w = width > p.0 ? (width - p.0 + p.2 - 1) / p.2 : 0
            let h = height > p.1 ? (height - p.1 + p.3 - 1) / p.3 : 0
            return sum + rows(w, h)
        }
    }

    /// Inflates the image data without keeping it, to prove it holds exactly the declared image
    /// before anything is allocated for the pixels. Costs one pass of zlib over the data and 64 KiB.
    public func checkImageData(_ bytes: UnsafeRawBufferPointer, source: String) throws(PNGError) {
        let spans = chunks.filter { $0.type == "IDAT" }.map { nr_span(offset: $0.dataOffset, length: $0.length) }
        var produced = 0
        var ended: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = spans.withUnsafeBufferPointer { s in
            nr_inflate_measure(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), s.baseAddress, s.count, filteredBytes,
                               &produced, &ended, &message, message.count)
        }
        if Int(status) != NR_OK {
            throw PNGError(source: source, kind: .corrupt, message: "bad compressed data in the image data after \(produced) of \(filteredBytes) bytes (zlib: \(cString(message)))")
        }
        if produced > filteredBytes {
            throw PNGError(source: source, kind: .corrupt,
                           message: "the compressed image data continues after the last row (\(width)x\(height) needs \(filteredBytes) bytes); it is not read")
        }
        if produced < filteredBytes {
            throw PNGError(source: source, kind: ended != 0 ? .corrupt : .truncated,
                           message: "the image data holds \(produced) of the \(filteredBytes) bytes a \(width)x\(height) image needs" + (ended != 0 ? "" : " (it ends early)"))
        }
    }

    /// The 8-byte PNG signature (PNG specification, section 5.2).
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Deflate cannot compress better than about 1032:1 (zlib technical details: "the limit is
    /// 1032:1"), so image data shorter than raw size / 1032 cannot hold the declared image.
    static let maxDeflateRatio = 1032

    public static func scan(_ bytes: UnsafeRawBufferPointer, source: String,
                            limits: PNGLimits = .default) throws(PNGError) -> PNGStructure {
        func fail(_ kind: PNGError.Kind, _ message: String) -> PNGError {
            PNGError(source: source, kind: kind, message: message)
        }
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }

        guard bytes.count >= 8, zip(bytes.prefix(8), signature).allSatisfy({ $0 == $1 }) else {
            if bytes.isEmpty { throw fail(.notPNG, "the file is empty") }
            if bytes.count < 8, zip(bytes, signature).allSatisfy({ $0 == $1 }) {
                throw fail(.truncated, "the file ends inside the PNG signature (\(bytes.count) bytes)")
            }
            throw fail(.notPNG, "it does not start with the PNG signature" + guessFormat(bytes))
        }

        var chunks: [Chunk] = []
        var position = 8
        var header: (w: Int, h: Int, depth: Int, color: Int, compression: Int, filter: Int, interlace: Int)?
        var imageData = 0
        var sawEnd = false
        while position < bytes.count {
            guard bytes.count - position >= 8 else {
                throw fail(.truncated, "the file ends inside a chunk header at byte \(position)")
            }
            let length = u32(position)
            let typeBytes = (4..<8).map { bytes[position + $0] }
            guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
                throw fail(.corrupt, "invalid chunk type at byte \(position + 4)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF else {
                throw fail(.corrupt, "chunk \(type) at byte \(position) declares \(length) bytes, more than PNG allows")
            }
            if chunks.isEmpty && type != "IHDR" {
                throw fail(.corrupt, "the first chunk is \(type), not IHDR")
            }
            if type != "IDAT" && length > limits.maxChunkBytes {
                throw fail(.tooLarge, "chunk \(type) at byte \(position) declares \(length) bytes, over the limit of \(limits.maxChunkBytes)")
            }
            let available = bytes.count - position - 12
            guard length <= available else {
                throw fail(.truncated, "chunk \(type) at byte \(position) declares \(length) bytes but the file ends \(max(0, available)) bytes later")
            }
            let data = position + 8
            chunks.append(Chunk(type: type, dataOffset: data, length: length))
            switch type {
            case "IHDR":
                guard chunks.count == 1 else { throw fail(.corrupt, "a second IHDR chunk at byte \(position)") }
                guard length == 13 else { throw fail(.corrupt, "IHDR has \(length) bytes instead of 13") }
                header = (u32(data), u32(data + 4), Int(bytes[data + 8]), Int(bytes[data + 9]),
                          Int(bytes[data + 10]), Int(bytes[data + 11]), Int(bytes[data + 12]))
                try checkHeader(header!, limits: limits, fail: fail)
            case "IDAT":
                imageData += length
            case "IEND":
                sawEnd = true
            case "PLTE":
                break
            default:
                // PNG specification 5.4: a decoder must refuse a critical chunk (upper-case first
                // letter) it does not know; it cannot know what the chunk does to the pixels.
                if (65...90).contains(typeBytes[0]) {
                    throw fail(.corrupt, "unknown critical chunk \(type) at byte \(position); a PNG reader must refuse it")
                }
            }
            position = data + length + 4
            if sawEnd { break }
        }
        guard let header else { throw fail(.truncated, "the file ends before its IHDR chunk") }
        guard imageData > 0 else {
            throw fail(sawEnd ? .corrupt : .truncated, "no image data (IDAT) before the end of the file")
        }
        guard sawEnd else { throw fail(.truncated, "the file ends without an IEND chunk") }

        let rawBytes = filteredBytes(width: header.w, height: header.h, bitsPerPixel: header.depth * channelCount(colorType: header.color),
                                     interlaced: header.interlace != 0)
        if imageData.multipliedReportingOverflow(by: maxDeflateRatio).partialValue < rawBytes {
            throw fail(.corrupt, "\(imageData) bytes of compressed image data cannot hold \(header.w)x\(header.h) pixels (\(rawBytes) bytes at most ratio 1032:1)")
        }
        return PNGStructure(width: header.w, height: header.h, bitDepth: header.depth,
                            colorType: header.color, interlaced: header.interlace != 0,
                            chunks: chunks, imageDataBytes: imageData, filteredBytes: rawBytes)
    }

    public static func scan(_ bytes: [UInt8], source: String, limits: PNGLimits = .default) throws(PNGError) -> PNGStructure {
        do {
            return try bytes.withUnsafeBytes { raw in try scan(raw, source: source, limits: limits) }
        } catch let error as PNGError {
            throw error
        } catch {
            throw PNGError(source: source, kind: .corrupt, message: "\(error)")   // not reached: scan throws PNGError only
        }
    }

    /// The first chunk whose stored CRC does not match its type and data, if any. Used to explain
    /// a failure: libpng may trip over damaged compressed data before it reaches the chunk's CRC.
    public func firstBadCRC(in bytes: UnsafeRawBufferPointer) -> Chunk? {
        for chunk in chunks {
            let start = chunk.dataOffset - 4
            let stored = UInt32(bytes[chunk.dataOffset + chunk.length]) << 24
                | UInt32(bytes[chunk.dataOffset + chunk.length + 1]) << 16
                | UInt32(bytes[chunk.dataOffset + chunk.length + 2]) << 8
                | UInt32(bytes[chunk.dataOffset + chunk.length + 3])
            let computed = nr_crc32(0, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start, chunk.length + 4)
            if computed != stored { return chunk }
        }
        return nil
    }

    static func channelCount(colorType: Int) -> Int {
        switch colorType {
        case 0, 3: return 1
        case 4: return 2
        case 2: return 3
        default: return 4
        }
    }

    private static func checkHeader(_ h: (w: Int, h: Int, depth: Int, color: Int, compression: Int, filter: Int, interlace: Int),
                                    limits: PNGLimits,
                                    fail: (PNGError.Kind, String) -> PNGError) throws(PNGError) {
        if h.w == 0 || h.h == 0 { throw fail(.corrupt, "IHDR declares a size of \(h.w)x\(h.h); both sides must be at least 1") }
        if h.w > 0x7FFF_FFFF || h.h > 0x7FFF_FFFF { throw fail(.corrupt, "IHDR declares \(h.w)x\(h.h), more than PNG allows") }
        if h.w > limits.maxSide || h.h > limits.maxSide {
            throw fail(.tooLarge, "the image declares \(h.w)x\(h.h) pixels, over the limit of \(limits.maxSide) pixels a side")
        }
        if h.w * h.h > limits.maxPixels {
            throw fail(.tooLarge, "the image declares \(h.w)x\(h.h) = \(h.w * h.h) pixels, over the limit of \(limits.maxPixels)")
        }
        // PNG specification, table 11.1: allowed bit depths per colour type, bit d for depth d (a
        // switch: a dictionary literal here built its generic metadata at run time on the first
        // decode, with a conformance lookup, a sixth of a diff of two 1x1 files, issue 17).
        let depths: UInt32
        switch h.color {
        case 0: depths = 1 << 1 | 1 << 2 | 1 << 4 | 1 << 8 | 1 << 16
        case 2, 4, 6: depths = 1 << 8 | 1 << 16
        case 3: depths = 1 << 1 | 1 << 2 | 1 << 4 | 1 << 8
        default: throw fail(.corrupt, "IHDR declares unknown colour type \(h.color)")
        }
        guard h.depth >= 0 && h.depth < 32 && depths & (1 << UInt32(h.depth)) != 0 else {
            throw fail(.corrupt, "IHDR declares bit depth \(h.depth), not allowed for colour type \(h.color)")
        }
        // Section 11.2.2: method 0 (deflate) and filter method 0 are the only ones defined.
        guard h.compression == 0 else { throw fail(.corrupt, "IHDR declares unsupported compression method \(h.compression) (only 0, deflate, exists)") }
        guard h.filter == 0 else { throw fail(.corrupt, "IHDR declares unsupported filter method \(h.filter) (only 0 exists)") }
        guard h.interlace <= 1 else { throw fail(.corrupt, "IHDR declares unknown interlace method \(h.interlace)") }
    }

    private static func guessFormat(_ bytes: UnsafeRawBufferPointer) -> String {
        let b = Array(bytes.prefix(32))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return " (it looks like a JPEG)" }
        if b.starts(with: Array("GIF8".utf8)) { return " (it looks like a GIF)" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return " (it looks like a WebP)" }
        if b.starts(with: [0x8A, 0x4D, 0x4E, 0x47]) { return " (it looks like an MNG)" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return " (the signature is damaged, e.g. by a text-mode transfer)" }
        if isGitLFSPointer(b) { return " (it is a Git LFS pointer: run `git lfs pull`)" }
        return ""
    }

    /// Whether a file's first bytes are a Git LFS pointer (a checkout without `git lfs pull`):
    /// not an image at all, and never to be written over by `record`.
    public static func isGitLFSPointer(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("version https://git-lfs".utf8))
    }
}
