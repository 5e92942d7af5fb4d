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
}

enum BaselineFile {
    /// Hash of a frame's pixels and maps: equal hashes mean an identical frame.
    static func contentHash(_ frame: Frame) -> String {
        var h = FastHash.hash(frame.image.pixels)
        h = FastHash.hash(frame.translucency, seed: h)
        h = FastHash.hash(frame.elements, seed: h)
        return FastHash.hex(h ^ UInt64(frame.image.width) << 32 ^ UInt64(frame.image.height))
    }

    /// The chunks that decide a baseline's pixels and maps. No other chunk can: the decoder applies
    /// no gamma, colour profile, significant bits or background (cpng.c), refuses unknown critical
    /// chunks, and NavReel reads only its own text keys.
    static let imageChunks: Set<String> = ["IHDR", "PLTE", "tRNS", "IDAT", PNG.sideDataChunk]

    /// Hash of the chunks that decide a baseline's pixels and maps (`imageChunks`, type and data,
    /// in file order), computed from the bytes read, after every chunk's CRC is checked: a damaged
    /// file is an error here, never a fast pass. Stored as `navreel.data`; the fast path matches a
    /// frame without decoding only when it equals what the file holds now.
    static func dataHash(_ bytes: [UInt8], source: String) throws -> (String, PNGStructure) {
        let structure = try PNGStructure.scan(bytes, source: source)
        if let bad = bytes.withUnsafeBytes({ structure.firstBadCRC(in: $0) }) {
            throw PNGError(source: source, kind: .corrupt,
                           message: "bad CRC in chunk \(bad.type) at byte \(bad.dataOffset - 8): the file is damaged")
        }
        return (FastHash.hex(imageKey(bytes, structure)), structure)
    }

    /// A baseline's bytes as `check` reads them before deciding whether to decode: structure
    /// scanned, every CRC checked (throws, naming the file and chunk), text read, and the hash of
    /// the image-defining chunks computed from the bytes themselves.
    struct Scanned {
        let structure: PNGStructure
        let header: BaselineHeader
        let dataHash: String

        /// The fast path: the file holds exactly the image chunks NavReel wrote for pixels and maps
        /// with hash `content`, so it matches that frame without being decoded. Proven by the
        /// bytes just read (`dataHash`), not trusted from the file's own text alone.
        func matches(content: String) -> Bool {
            header.contentHash == content && header.dataHash == dataHash
        }
    }

    static func scan(_ bytes: [UInt8], source: String) throws -> Scanned {
        let (hash, structure) = try dataHash(bytes, source: source)
        return Scanned(structure: structure, header: header(bytes, structure), dataHash: hash)
    }

    /// Hash of the chunks that define a baseline's pixels and maps (IHDR, PLTE, tRNS, IDAT and the
    /// side data), not its text: consecutive frames with the same pixels share it even though
    /// each file names its own frame and time. Keys the reuse of a predecessor's decode.
    static func imageKey(_ bytes: [UInt8], _ structure: PNGStructure) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0
            for chunk in structure.chunks where imageChunks.contains(chunk.type) {
                h = FastHash.hash(UnsafeRawBufferPointer(rebasing: raw[chunk.dataOffset - 4..<chunk.dataOffset + chunk.length]), seed: h)
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

    /// The bytes NavReel stores for a frame: encoded once to learn the hash of its image data,
    /// then again with that hash in a text chunk (the image data does not change).
    static func encode(_ renderer: FrameRenderer, _ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, contentHash: String) throws -> [UInt8] {
        var text = renderer.metadata(job, frame: k, time: frame.time)
        text["navreel.content"] = contentHash
        return try encode(frame.image, text: text, side: renderer.maps(frame).serialized())
    }

    /// Baseline encoding of any image with NavReel's metadata and maps.
    static func encode(_ image: Image, text: [String: String], side: [UInt8]?) throws -> [UInt8] {
        var text = text
        text["navreel.data"] = nil
        let first = try PNG.encode(image, metadata: PNGMetadata(text: text, sideData: side), options: .small)
        text["navreel.data"] = try dataHash(first, source: "<encoder>").0
        return try PNG.encode(image, metadata: PNGMetadata(text: text, sideData: side), options: .small)
    }

    /// A report artifact: the same metadata and maps, encoded fast (written once, looked at once).
    /// `approve` re-encodes it as a baseline.
    static func encodeArtifact(_ renderer: FrameRenderer, _ job: FrameRenderer.Job, _ k: Int, _ frame: Frame, contentHash: String) throws -> [UInt8] {
        var text = renderer.metadata(job, frame: k, time: frame.time)
        text["navreel.content"] = contentHash
        return try PNG.encode(frame.image, metadata: PNGMetadata(text: text, sideData: renderer.maps(frame).serialized()), options: .fast)
    }
}
