import CPNG
import Testing
@testable import Raster

/// `PNG.check` (issue 17: a file compared with itself is checked, not decoded) must accept exactly
/// the files `PNG.decode` accepts, with the same size and metadata, and refuse the others with the
/// same error; the plain files it is for must be checked without decoding.
@Suite("PNG check without pixels")
struct PNGCheckTests {
    /// The outcome of decoding and of checking, as comparable text: the size and metadata, or the
    /// error (kind, source and message).
    static func outcomes(_ bytes: [UInt8], limits: PNGLimits = .default) -> (decode: String, check: String) {
        func outcome(_ read: () throws(PNGError) -> (Int, Int, PNGMetadata)) -> String {
            do {
                let (width, height, metadata) = try read()
                return "\(width)x\(height) \(metadata)"
            } catch {
                return "error \(error.kind) \(error.source): \(error.description)"
            }
        }
        let source = "Baselines/x/0001.png"
        return (outcome { () throws(PNGError) in
                    let png = try PNG.decode(bytes, source: source, limits: limits)
                    return (png.image.width, png.image.height, png.metadata)
                },
                outcome { () throws(PNGError) in
                    let png = try PNG.check(bytes, source: source, limits: limits)
                    return (png.width, png.height, png.metadata)
                })
    }

    /// What nr_png_check_plain itself says of a file (no fall-back to a decode).
    static func plainCheck(_ bytes: [UInt8], width: Int, height: Int, channels: Int) throws -> Int32 {
        let structure = try PNGStructure.scan(bytes, source: "t.png")
        let spans = structure.chunks.filter { $0.type == "IDAT" }.map { nr_span(offset: $0.dataOffset, length: $0.length) }
        return bytes.withUnsafeBufferPointer { b in
            spans.withUnsafeBufferPointer { s in
                nr_png_check_plain(b.baseAddress, s.baseAddress, s.count, UInt32(width), UInt32(height), Int32(channels))
            }
        }
    }

    @Test("every filter, RGB, RGBA, grey and palette, with text and maps: the size and metadata of a decode",
          arguments: [PNGEncodeOptions.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func sameAsDecode(_ filter: PNGEncodeOptions.Filter) throws {
        let metadata = PNGMetadata(text: ["navreel.frame": "3", "Title": "Größe ✓"], sideData: [1, 2, 3, 4, 5])
        for (w, h) in [(1, 1), (13, 11), (257, 5)] {
            var images: [(String, Image)] = [("RGBA", PlainDecodeTests.image(width: w, height: h, opaque: false)),
                                             ("RGB", PlainDecodeTests.image(width: w, height: h, opaque: true))]
            images.append(("grey", PlainIndexedDecodeTests.image(width: w, height: h, colors: 60, translucent: false, grey: true)))
            images.append(("palette", PlainIndexedDecodeTests.image(width: w, height: h, colors: 5, translucent: true, grey: false)))
            for (name, image) in images {
                let bytes = try PNG.encode(image, metadata: metadata,
                                           options: PNGEncodeOptions(compressionLevel: 6, filter: filter, strategy: .default, reduceColors: true))
                let checked = try PNG.check(bytes)
                let decoded = try PNG.decode(bytes)
                #expect(checked == CheckedPNG(width: w, height: h, metadata: decoded.metadata), "\(name) \(filter) \(w)x\(h)")
                #expect(checked.metadata == metadata, "\(name) \(filter) \(w)x\(h)")
                // RGB, RGBA and grey files are checked by nr_png_check_plain itself, not decoded.
                let channels = [2: 3, 6: 4, 0: 1][decoded.colorType]
                if let channels {
                    #expect(Int(try Self.plainCheck(bytes, width: w, height: h, channels: channels)) == NR_OK, "\(name) \(filter) \(w)x\(h)")
                }
            }
        }
    }

    @Test("each bad input of the decoder's list: the same error from check")
    func badInputsSameError() {
        for c in badInputs {
            let (decode, check) = Self.outcomes(c.bytes, limits: c.limits)
            #expect(decode.hasPrefix("error"), "\(c.name): \(decode)")
            #expect(check == decode, "\(c.name)")
        }
    }

    /// Damage inside the image data with the chunk's CRC made right again, so that it reaches the
    /// inflate and the filter types: a filter type past 4, a stored block's length, the Adler-32,
    /// too little or too much data. nr_png_check_plain refuses each (the decode then says why).
    @Test("damaged image data behind a good CRC: refused by the plain check, the decode's error")
    func damagedImageData() throws {
        let forged = ForgeImage.sweep(colorType: 2, bitDepth: 8, width: 13, height: 11)
        let raw = forged.rawData()
        var filter = raw
        filter[(1 + 13 * 3) * 4] = 5   // row 4's filter type
        var length = forgeZlib(raw)
        length[3] ^= 0xFF
        var adler = forgeZlib(raw)
        adler[adler.count - 1] ^= 1
        let files: [(String, [UInt8])] = [
            ("filter type 5", forged.file(idat: forgeZlib(filter))),
            ("stored length", forged.file(idat: length)),
            ("Adler-32", forged.file(idat: adler)),
            ("a row short", forged.file(idat: forgeZlib(Array(raw.dropLast(40))))),
            ("a row too many", forged.file(idat: forgeZlib(raw + raw.prefix(40)))),
        ]
        for (name, bytes) in files {
            #expect(Int(try Self.plainCheck(bytes, width: 13, height: 11, channels: 3)) == NR_PLAIN_FALLBACK, "\(name)")
            let (decode, check) = Self.outcomes(bytes)
            #expect(decode.hasPrefix("error"), "\(name): \(decode)")
            #expect(check == decode, "\(name)")
        }
        // The good file passes the same check.
        #expect(Int(try Self.plainCheck(forged.file(), width: 13, height: 11, channels: 3)) == NR_OK)
    }

    @Test("every byte of a plain file flipped, with its CRC made right: check and decode agree")
    func flipsBehindGoodCRCs() throws {
        let image = PlainDecodeTests.image(width: 9, height: 6, opaque: true)
        let file = try PNG.encode(image, metadata: PNGMetadata(text: ["k": "v"], sideData: [7, 7]),
                                  options: PNGEncodeOptions(compressionLevel: 6, filter: .adaptive, strategy: .default, reduceColors: false))
        let structure = try PNGStructure.scan(file, source: "t.png")
        var refused = 0
        for chunk in structure.chunks where chunk.type == "IDAT" || chunk.type == "nrSD" {
            for i in chunk.dataOffset..<chunk.dataOffset + chunk.length {
                var damaged = file
                damaged[i] ^= 0x24
                let crc = be32(forgeCRC32(damaged[(chunk.dataOffset - 4)..<(chunk.dataOffset + chunk.length)]))
                damaged.replaceSubrange((chunk.dataOffset + chunk.length)..<(chunk.dataOffset + chunk.length + 4), with: crc)
                let (decode, check) = Self.outcomes(damaged)
                #expect(check == decode, "byte \(i) of \(chunk.type)")
                if decode.hasPrefix("error") { refused += 1 }
            }
        }
        // Most flips of compressed data break it: the check is made to refuse, not only to pass.
        #expect(refused > 10)
    }

    @Test("a declared size whose rows overflow a size_t: refused before allocating")
    func overflowingSize() {
        let data: [UInt8] = [0x78, 0x01, 0x03, 0x00]
        let status = data.withUnsafeBufferPointer { b in
            [nr_span(offset: 0, length: 4)].withUnsafeBufferPointer { s in
                nr_png_check_plain(b.baseAddress, s.baseAddress, 1, UInt32.max, UInt32.max, 4)
            }
        }
        #expect(Int(status) == NR_PLAIN_FALLBACK)
    }

    @Test("every truncation of a plain file: check refuses it as decode does")
    func everyPrefix() throws {
        let file = try PNG.encode(PlainDecodeTests.image(width: 7, height: 5, opaque: false), metadata: PNGMetadata(text: ["a": "b"]))
        for n in 0..<file.count {
            let (decode, check) = Self.outcomes(Array(file.prefix(n)))
            #expect(decode.hasPrefix("error"), "prefix of \(n) bytes")
            #expect(check == decode, "prefix of \(n) bytes")
        }
    }

    /// A plain file's own rows (`PNG.plainRows`) widened to RGBA8 as decoding widens them.
    static func widened(_ rows: PlainRows) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.width * rows.height * 4)
        for y in 0..<rows.height {
            for x in 0..<rows.width {
                let p = y * rows.stride + 1 + x * rows.channels
                let b = rows.bytes
                switch rows.channels {
                case 4: out += [b[p], b[p + 1], b[p + 2], b[p + 3]]
                case 3: out += [b[p], b[p + 1], b[p + 2], 255]
                default: out += [b[p], b[p], b[p], 255]
                }
            }
        }
        return out
    }

    @Test("plain rows: every filter, RGB, RGBA and grey give the decoded pixels where they lie; palette files are left to decode",
          arguments: [PNGEncodeOptions.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func plainRowsAsDecode(_ filter: PNGEncodeOptions.Filter) throws {
        let metadata = PNGMetadata(text: ["k": "v"], sideData: [3, 1, 4])
        for (w, h) in [(1, 1), (13, 11), (257, 5)] {
            let images: [(String, Image)] = [
                ("RGBA", PlainDecodeTests.image(width: w, height: h, opaque: false)),
                ("RGB", PlainDecodeTests.image(width: w, height: h, opaque: true)),
                ("grey", PlainIndexedDecodeTests.image(width: w, height: h, colors: 60, translucent: false, grey: true)),
                ("palette", PlainIndexedDecodeTests.image(width: w, height: h, colors: 5, translucent: true, grey: false)),
            ]
            for (name, image) in images {
                let bytes = try PNG.encode(image, metadata: metadata,
                                           options: PNGEncodeOptions(compressionLevel: 6, filter: filter, strategy: .default, reduceColors: true))
                let decoded = try PNG.decode(bytes)
                let rows = try PNG.plainRows(bytes)
                if decoded.colorType == 3 {
                    #expect(rows == nil, "\(name) \(filter) \(w)x\(h)")
                    continue
                }
                let r = try #require(rows, "\(name) \(filter) \(w)x\(h)")
                #expect(r.channels == [6: 4, 2: 3, 0: 1][decoded.colorType], "\(name) \(filter) \(w)x\(h)")
                #expect(Self.widened(r) == image.pixels, "\(name) \(filter) \(w)x\(h)")
                #expect(r.metadata == metadata && r.width == w && r.height == h)
            }
        }
    }

    @Test("plain rows of bad files: the decoder's error, or nothing (then decoding says why); never rows for a file decode refuses")
    func plainRowsOfBadFiles() throws {
        let forged = ForgeImage.sweep(colorType: 2, bitDepth: 8, width: 13, height: 11)
        var filter = forged.rawData()
        filter[(1 + 13 * 3) * 4] = 5
        var files = badInputs.map { ($0.name, $0.bytes, $0.limits) }
        files.append(("filter type 5", forged.file(idat: forgeZlib(filter)), .default))
        files.append(("a row short", forged.file(idat: forgeZlib(Array(forged.rawData().dropLast(40)))), .default))
        for (name, bytes, limits) in files {
            let decode = Self.outcomes(bytes, limits: limits).decode
            #expect(decode.hasPrefix("error"), "\(name)")
            do {
                let rows = try PNG.plainRows(bytes, source: "Baselines/x/0001.png", limits: limits)
                #expect(rows == nil, "\(name): rows of a file decoding refuses")
            } catch {
                #expect("error \(error.kind) \(error.source): \(error.description)" == decode, "\(name)")
            }
        }
    }
}
