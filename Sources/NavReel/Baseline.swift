import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// What a baseline file says about itself, read from its text chunks without decoding pixels.
struct BaselineHeader {
    var text: [String: String]
    /// Hash of the rendered pixels and maps the file was written from.
    var contentHash: String? { text["navreel.content"] }
    /// Hash of the file's own image-defining chunks (BaselineFile.dataHash) when NavReel wrote it.
    var dataHash: String? { text["navreel.data"] }
    /// The layout of the file (`BaselineFile.format`); files written before it was recorded are 1.
    var format: Int { text["navreel.format"].flatMap { Int($0) } ?? 1 }
}

public enum BaselineFile {
    /// Hash of a frame's pixels and maps: equal hashes mean an identical frame.
    /// `version` 2 (`FastHash.hash2`) for files of format 3 and later, 1 (`FastHash.hash`) before.
    static func contentHash(_ frame: Frame, version: Int = 2) -> String {
        let hash: ([UInt8], UInt64) -> UInt64 = version >= 2 ? { FastHash.hash2($0, seed: $1) } : { FastHash.hash($0, seed: $1) }
        var h = hash(frame.image.pixels, 0)
        h = hash(frame.translucency, h)
        h = hash(frame.elements, h)
        return FastHash.hex(h ^ UInt64(frame.image.width) << 32 ^ UInt64(frame.image.height))
    }

    /// The hash version of a file's `navreel.content` and `navreel.data`, by its format.
    static func hashVersion(format: Int) -> Int { format >= 3 ? 2 : 1 }

    /// The chunks that decide a baseline's pixels and maps. No other chunk can: the decoder applies
    /// no gamma, colour profile, significant bits or background (cpng.c), refuses unknown critical
    /// chunks, and NavReel reads only its own text keys.
    static let imageChunks: Set<String> = ["IHDR", "PLTE", "tRNS", "IDAT", PNG.sideDataChunk]

    /// Hash of the chunks that decide a baseline's pixels and maps (`imageChunks`, type and data,
    /// in file order), computed from the bytes read, after every chunk's CRC is checked: a damaged
    /// file is an error here, never a fast pass. Stored as `navreel.data`; the fast path matches a
    /// frame without decoding only when it equals what the file holds now.
    static func dataHash(_ bytes: [UInt8], source: String, version: Int = 1) throws -> (String, PNGStructure) {
        let structure = try checkedStructure(bytes, source: source)
        return (FastHash.hex(imageKey(bytes, structure, version: version)), structure)
    }

    static func checkedStructure(_ bytes: [UInt8], source: String) throws -> PNGStructure {
        let structure = try PNGStructure.scan(bytes, source: source)
        if let bad = bytes.withUnsafeBytes({ structure.firstBadCRC(in: $0) }) {
            throw PNGError(source: source, kind: .corrupt,
                           message: "bad CRC in chunk \(bad.type) at byte \(bad.dataOffset - 8): the file is damaged")
        }
        return structure
    }

    /// A baseline's bytes as `check` reads them before deciding whether to decode: structure
    /// scanned, every CRC checked (throws, naming the file and chunk), text read, and the hash of
    /// the image-defining chunks computed from the bytes themselves.
    struct Scanned {
        let structure: PNGStructure
        let header: BaselineHeader
        /// `imageKey` in the file's hash version, and as hex (what `navreel.data` holds).
        let dataKey: UInt64
        let dataHash: String
        /// The version of the file's hashes (`hashVersion(format:)`).
        var hashVersion: Int { BaselineFile.hashVersion(format: header.format) }

        /// The fast path: the file holds exactly the image chunks NavReel wrote for pixels and maps
        /// with hash `content`, so it matches that frame without being decoded. Proven by the
        /// bytes just read (`dataHash`), not trusted from the file's own text alone.
        func matches(content: String) -> Bool {
            header.contentHash == content && header.dataHash == dataHash
        }
    }

    /// Whether the file at `path` is a PNG NavReel wrote as a baseline (its text holds
    /// `navreel.content`, as every format's does). A file that cannot be read or is not a whole
    /// PNG with good CRCs is not: `prune` removes only files this answers yes for.
    static func isNavReelFile(path: String) -> Bool { text(path: path)?["navreel.content"] != nil }

    /// The text chunks of the PNG at `path`, or nil when it cannot be read or is not a whole PNG
    /// with good CRCs. No pixel is decoded.
    public static func text(path: String) -> [String: String]? {
        guard let bytes = try? FileBytes.read(path: path, limit: PNGLimits.default.maxFileBytes),
              let structure = try? checkedStructure(bytes, source: path) else { return nil }
        return header(bytes, structure).text
    }

    static func scan(_ bytes: [UInt8], source: String) throws -> Scanned {
        let structure = try checkedStructure(bytes, source: source)
        let header = header(bytes, structure)
        let key = imageKey(bytes, structure, version: hashVersion(format: header.format))
        return Scanned(structure: structure, header: header, dataKey: key, dataHash: FastHash.hex(key))
    }

    /// Hash of the chunks that define a baseline's pixels and maps (IHDR, PLTE, tRNS, IDAT and the
    /// side data), not its text: consecutive frames with the same pixels share it even though
    /// each file names its own frame and time. Keys the reuse of a predecessor's decode.
    static func imageKey(_ bytes: [UInt8], _ structure: PNGStructure, version: Int = 1) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0
            for chunk in structure.chunks where imageChunks.contains(chunk.type) {
                let data = UnsafeRawBufferPointer(rebasing: raw[chunk.dataOffset - 4..<chunk.dataOffset + chunk.length])
                h = version >= 2 ? FastHash.hash2(data, seed: h) : FastHash.hash(data, seed: h)
            }
            return h
        }
    }

    /// Text chunks read straight from the file (tEXt only, which is what NavReel writes), so the
    /// fast path needs no inflate.
    static func header(_ bytes: [UInt8], _ structure: PNGStructure) -> BaselineHeader {
        var text: [String: String] = [:]
        for chunk in structure.chunks where chunk.type == "tEXt" {
            let data = bytes[chunk.dataOffset..<chunk.dataOffset + chunk.length]
            guard let zero = data.firstIndex(of: 0) else { continue }
            let key = String(decoding: data[data.startIndex..<zero], as: UTF8.self)
            text[key] = String(decoding: data[(zero + 1)...], as: UTF8.self)
        }
        return BaselineHeader(text: text)
    }

    /// The baseline file layout this NavReel writes, recorded as `navreel.format`. Both read the
    /// same way (pixels, maps, text chunks); `record` rewrites older files, pixels unchanged.
    ///   1 (no `navreel.format`): level 9 with adaptive filters, maps at level 9, each file naming
    ///     its frame and time (`navreel.frame`, `navreel.time`), `navreel.data` before the image data.
    ///   2: `PNGEncodeOptions.baseline` (image data without filters and maps, each compressed by
    ///     libdeflate at level 6), no frame or time, so that identical frames are identical files;
    ///     `navreel.data` in a text chunk after the maps.
    ///   3: as 2, with `navreel.content` and `navreel.data` by `FastHash.hash2` (four lanes, about
    ///     four times as fast: hashing was a tenth of a check's CPU once painting got faster).
    ///   4: as 3, with the maps in layout `NRM2` (`FrameMaps`: rows repeated from the row above and
    ///     runs, before deflate) compressed at libdeflate level 9 instead of 6: 15 % fewer bytes
    ///     for the maps, and a thirtieth of the input to deflate (a fifth of its CPU).
    static let format = 4

    /// Text that names one frame rather than its pixels; not written to baselines (format 2), so
    /// that identical frames give identical files. The frame and time are known from the path.
    static let perFrameKeys: Set<String> = ["navreel.frame", "navreel.time"]

    /// The bytes NavReel stores for a frame.
    /// `maps`: the last frame's maps and their compressed chunk, when the caller encodes a run's
    /// frames in order; a frame with the same maps reuses the chunk (the same bytes), and the
    /// cache then holds this frame's.
    static func encode(_ renderer: FrameRenderer, _ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, contentHash: String,
                       maps: MapsCache? = nil) throws -> [UInt8] {
        var text = renderer.metadata(job, frame: k, time: frame.time)
        text["navreel.content"] = contentHash
        guard let maps else { return try encode(frame.image, text: text, side: renderer.maps(frame).serialized()) }
        let packed: PNG.PackedSideData
        if let hit = maps.packed(for: frame) {
            packed = hit
        } else {
            packed = try PNG.packSide(renderer.maps(frame).serialized(), options: .baseline)
            maps.keep(frame, packed)
        }
        return try encode(frame.image, text: text, side: nil, packedSide: packed)
    }

    /// The maps chunk of the last frame encoded in a run (`encode(_:_:_:_:contentHash:maps:)`).
    /// The chunk depends only on the frame's size and its two planes (element names are fixed),
    /// so equal planes give the same chunk.
    final class MapsCache {
        private var width = -1, height = -1
        private var translucency: [UInt8] = [], elements: [UInt8] = []
        private var chunk: PNG.PackedSideData?
        /// How many frames reused the chunk (for tests).
        private(set) var hits = 0

        func packed(for frame: Frame) -> PNG.PackedSideData? {
            guard let chunk, frame.image.width == width, frame.image.height == height,
                  Self.same(frame.translucency, translucency), Self.same(frame.elements, elements) else { return nil }
            hits += 1
            return chunk
        }

        func keep(_ frame: Frame, _ packed: PNG.PackedSideData) {
            (width, height) = (frame.image.width, frame.image.height)
            (translucency, elements, chunk) = (frame.translucency, frame.elements, packed)
        }

        /// Byte equality in one `memcmp` (an array's `==` compares element by element).
        static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in
                a.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0
            } }
        }
    }

    /// Baseline encoding of any image with NavReel's metadata and maps, in one encode: the hash of
    /// the image chunks is taken from the encoded bytes and added as a text chunk just before IEND
    /// (text chunks may stand anywhere between IHDR and IEND, PNG specification 5.6; none of the
    /// hashed chunks moves).
    static func encode(_ image: Image, text: [String: String], side: [UInt8]?, packedSide: PNG.PackedSideData? = nil) throws -> [UInt8] {
        var text = text
        text["navreel.data"] = nil
        for key in perFrameKeys { text[key] = nil }
        text["navreel.format"] = String(format)
        let bytes = try PNG.encode(image, metadata: PNGMetadata(text: text, sideData: side), options: .baseline, packedSide: packedSide)
        let structure = try PNGStructure.scan(bytes, source: "<encoder>")
        guard let end = structure.chunks.last, end.type == "IEND", end.dataOffset + 4 == bytes.count else {
            throw PNGError(source: "<encoder>", kind: .unencodable, message: "the encoder did not end the file with IEND")
        }
        let chunk = try PNG.textChunk(key: "navreel.data", value: FastHash.hex(imageKey(bytes, structure, version: hashVersion(format: format))))
        let iend = end.dataOffset - 8
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + chunk.count)
        out += bytes[..<iend]
        out += chunk
        out += bytes[iend...]
        return out
    }

    /// A report artifact: the same metadata and maps, encoded fast (written once, looked at once).
    /// `approve` re-encodes it as a baseline.
    static func encodeArtifact(_ renderer: FrameRenderer, _ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, contentHash: String) throws -> [UInt8] {
        var text = renderer.metadata(job, frame: k, time: frame.time)
        text["navreel.content"] = contentHash
        return try PNG.encode(frame.image, metadata: PNGMetadata(text: text, sideData: renderer.maps(frame).serialized()), options: .fast)
    }
}
