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
    /// Hash of the file's own compressed image data at the time NavReel wrote it.
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

    /// Hash of the IDAT bytes of a PNG, straight from its chunk structure.
    static func dataHash(_ bytes: [UInt8], source: String) throws -> (String, PNGStructure) {
        let structure = try PNGStructure.scan(bytes, source: source)
        return bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0
            for chunk in structure.chunks where chunk.type == "IDAT" {
                h = FastHash.hash(UnsafeRawBufferPointer(rebasing: raw[chunk.dataOffset..<chunk.dataOffset + chunk.length]), seed: h)
            }
            return (FastHash.hex(h), structure)
        }
    }

    /// Hash of the chunks that define a baseline's pixels and maps (IHDR, PLTE, tRNS, IDAT and the
    /// side data), not its text: consecutive frames with the same pixels share it even though
    /// each file names its own frame and time. Keys the reuse of a predecessor's decode.
    static func imageKey(_ bytes: [UInt8], _ structure: PNGStructure) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var h: UInt64 = 0
            for chunk in structure.chunks where ["IHDR", "PLTE", "tRNS", "IDAT", PNG.sideDataChunk].contains(chunk.type) {
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
