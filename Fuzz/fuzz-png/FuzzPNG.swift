// libFuzzer target: PNG decoding as `check` and `diff` do it (structure, CRCs, image data,
// libpng, maps). Built only by scripts/fuzz (NAVREEL_FUZZ=1, -sanitize=fuzzer,address).
import Compare
import Raster

/// Smaller than the defaults so that one input cannot take the fuzzer's memory.
let limits = PNGLimits(maxSide: 4096, maxPixels: 1 << 22, maxChunkBytes: 8 << 20, maxFileBytes: 16 << 20, maxSideDataBytes: 64 << 20)

/// CRC-32 table (PNG specification, annex D).
let crcTable: [UInt32] = (0..<256).map { n in
    (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
}

/// The input with every whole chunk's CRC recomputed. Mutations almost never keep a CRC right,
/// so without this the fuzzer would stop at the CRC check and never reach zlib, libpng or the maps
/// (libpng's own fuzzer skips CRCs for the same reason).
func withFixedCRCs(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    var p = 8
    while p + 12 <= bytes.count {
        let length = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
        guard length <= bytes.count - p - 12 else { break }
        var c: UInt32 = 0xFFFF_FFFF
        for i in p + 4..<p + 8 + length { c = crcTable[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8) }
        c ^= 0xFFFF_FFFF
        let at = p + 8 + length
        bytes[at] = UInt8(c >> 24); bytes[at + 1] = UInt8(c >> 16 & 0xFF); bytes[at + 2] = UInt8(c >> 8 & 0xFF); bytes[at + 3] = UInt8(c & 0xFF)
        p = at + 4
    }
    return bytes
}

func decode(_ bytes: [UInt8]) {
    _ = try? PNGStructure.scan(bytes, source: "fuzz", limits: limits)
    var decoded: DecodedPNG?, checked: CheckedPNG?
    var decodeError: String?, checkError: String?
    do { decoded = try PNG.decode(bytes, source: "fuzz", limits: limits) } catch { decodeError = "\(error.kind) \(error)" }
    do { checked = try PNG.check(bytes, source: "fuzz", limits: limits) } catch { checkError = "\(error.kind) \(error)" }
    // PNG.check (a file diffed with itself, issue 17) accepts exactly what decoding accepts, with
    // the same size and metadata, and refuses the rest with the same error.
    precondition(checkError == decodeError, "check: \(checkError ?? "accepted"); decode: \(decodeError ?? "accepted")")
    // PNG.plainRows (the diff image of a file diffed with itself) gives rows only for a file
    // decoding accepts, holding its pixels, and when it throws, decoding's error.
    do {
        if let rows = try PNG.plainRows(bytes, source: "fuzz", limits: limits) {
            guard let decoded else { preconditionFailure("plain rows of a file decoding refuses: \(decodeError ?? "")") }
            precondition(rows.metadata == decoded.metadata && rows.width == decoded.image.width && rows.height == decoded.image.height)
            for y in 0..<rows.height {
                for x in 0..<rows.width {
                    let p = y * rows.stride + 1 + x * rows.channels, q = (y * rows.width + x) * 4
                    let c = rows.channels
                    let rgba = c == 4 ? Array(rows.bytes[p..<p + 4]) : c == 3 ? Array(rows.bytes[p..<p + 3]) + [255]
                        : [rows.bytes[p], rows.bytes[p], rows.bytes[p], 255]
                    precondition(rgba == Array(decoded.image.pixels[q..<q + 4]), "plain rows differ from the decode at \(x), \(y)")
                }
            }
        }
    } catch {
        precondition("\(error.kind) \(error)" == decodeError, "plain rows: \(error); decode: \(decodeError ?? "accepted")")
    }
    if let decoded {
        precondition(checked?.width == decoded.image.width && checked?.height == decoded.image.height
                     && checked?.metadata == decoded.metadata)
        precondition(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 4)
        if let side = decoded.metadata.sideData {
            // bounded by the image, as PairDiff.maps reads them
            _ = try? FrameMaps(serialized: side, maxPixels: decoded.image.width * decoded.image.height)
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    decode(bytes)
    let fixed = withFixedCRCs(bytes)
    if fixed != bytes { decode(fixed) }
    return 0
}
