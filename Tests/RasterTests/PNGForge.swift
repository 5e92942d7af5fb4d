// A small PNG writer for tests, independent of libpng and of the code under test: its own
// CRC-32, zlib stream of stored (uncompressed) deflate blocks, Adam7 interlacing and sub-byte
// packing. It builds every colour type and bit depth, and damaged files on purpose.

/// CRC-32 as PNG defines it (PNG specification, annex D: polynomial 0xEDB88320, reflected).
func forgeCRC32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var table = [UInt32](repeating: 0, count: 256)
    for n in 0..<256 {
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        table[n] = c
    }
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
}

func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

/// One chunk: length, type, data, CRC (over type and data).
func forgeChunk(_ type: String, _ data: [UInt8], crc: UInt32? = nil) -> [UInt8] {
    let t = Array(type.utf8)
    return be32(UInt32(data.count)) + t + data + be32(crc ?? forgeCRC32(t + data))
}

/// zlib stream (RFC 1950) holding `data` in stored deflate blocks (RFC 1951, section 3.2.4).
func forgeZlib(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65535, data.count - offset)
        let final: UInt8 = offset + n == data.count ? 1 : 0
        out.append(final)
        out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += data[offset..<offset + n]
        offset += n
    } while offset < data.count
    // Adler-32 (RFC 1950, section 8).
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in data {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    return out + be32(b << 16 | a)
}

/// Samples of an image in a PNG colour type: `samples[y][x]` holds that pixel's channel values at
/// the file's bit depth.
struct ForgeImage {
    var width: Int
    var height: Int
    var colorType: Int
    var bitDepth: Int
    var samples: [[[Int]]]
    var palette: [(Int, Int, Int)] = []
    var trns: [UInt8]? = nil        // raw tRNS chunk data
    var interlaced = false
    var extraChunksBeforeData: [[UInt8]] = []
    var extraChunksAfterData: [[UInt8]] = []

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    func ihdr() -> [UInt8] {
        be32(UInt32(width)) + be32(UInt32(height)) + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
    }

    /// Filter-type-0 scanlines for the pixels at (xs, y) for each y in ys.
    func scanlines(xs: [Int], ys: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        for y in ys {
            out.append(0)
            var bits: [Int] = []
            var bytes: [UInt8] = []
            for x in xs {
                for s in samples[y][x] {
                    if bitDepth == 16 {
                        bytes += [UInt8(s >> 8), UInt8(s & 0xFF)]
                    } else if bitDepth == 8 {
                        bytes.append(UInt8(s))
                    } else {
                        for i in (0..<bitDepth).reversed() { bits.append((s >> i) & 1) }
                    }
                }
            }
            if bitDepth < 8 {
                while bits.count % 8 != 0 { bits.append(0) }
                for i in stride(from: 0, to: bits.count, by: 8) {
                    bytes.append(UInt8(bits[i..<i + 8].reduce(0) { $0 << 1 | $1 }))
                }
            }
            out += bytes
        }
        return out
    }

    /// Raw (uncompressed, filtered) image data, interlaced with Adam7 when asked
    /// (PNG specification, section 8.2: pass origins and steps).
    func rawData() -> [UInt8] {
        guard interlaced else { return scanlines(xs: Array(0..<width), ys: Array(0..<height)) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            if xs.isEmpty || ys.isEmpty { continue }
            out += scanlines(xs: xs, ys: ys)
        }
        return out
    }

    func file(idat: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += forgeChunk("IHDR", ihdr())
        for c in extraChunksBeforeData { out += c }
        if colorType == 3 {
            out += forgeChunk("PLTE", palette.flatMap { [UInt8($0.0), UInt8($0.1), UInt8($0.2)] })
        }
        if let trns { out += forgeChunk("tRNS", trns) }
        out += forgeChunk("IDAT", idat ?? forgeZlib(rawData()))
        for c in extraChunksAfterData { out += c }
        out += forgeChunk("IEND", [])
        return out
    }

    /// What a correct decoder must produce, computed from the samples by the PNG specification's
    /// rules: low bit depths scale to 8 bits by v * 255 / (2^d - 1), 16-bit samples round to the
    /// nearest of 256 levels, tRNS makes one colour (or palette alpha entries) transparent.
    func expectedRGBA() -> [UInt8] {
        let maxValue = (1 << bitDepth) - 1
        func to8(_ v: Int) -> UInt8 { UInt8((v * 255 + maxValue / 2) / maxValue) }
        var out: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let s = samples[y][x]
                switch colorType {
                case 0:
                    let g = to8(s[0])
                    var a: UInt8 = 255
                    if let trns, trns.count == 2, (Int(trns[0]) << 8 | Int(trns[1])) == s[0] { a = 0 }
                    out += [g, g, g, a]
                case 2:
                    var a: UInt8 = 255
                    if let trns, trns.count == 6 {
                        let key = [Int(trns[0]) << 8 | Int(trns[1]), Int(trns[2]) << 8 | Int(trns[3]), Int(trns[4]) << 8 | Int(trns[5])]
                        if key == s { a = 0 }
                    }
                    out += [to8(s[0]), to8(s[1]), to8(s[2]), a]
                case 3:
                    let p = palette[s[0]]
                    let a = trns.flatMap { s[0] < $0.count ? $0[s[0]] : nil } ?? 255
                    out += [UInt8(p.0), UInt8(p.1), UInt8(p.2), a]
                case 4:
                    let g = to8(s[0])
                    out += [g, g, g, to8(s[1])]
                default:
                    out += s.map(to8)
                }
            }
        }
        return out
    }

    /// A deterministic image whose samples sweep the whole range of the bit depth.
    static func sweep(colorType: Int, bitDepth: Int, width: Int = 13, height: Int = 11,
                      interlaced: Bool = false, transparency: Bool = false) -> ForgeImage {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
        let paletteSize = min(1 << bitDepth, 256)
        let maxValue = colorType == 3 ? paletteSize - 1 : (1 << bitDepth) - 1
        var seed: UInt64 = UInt64(colorType * 100 + bitDepth)
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        var samples: [[[Int]]] = []
        for y in 0..<height {
            var row: [[Int]] = []
            for x in 0..<width {
                let i = y * width + x
                // The first pixels hit 0, max and max-1 exactly; the rest are pseudo-random.
                let edge = [0, maxValue, max(0, maxValue - 1)]
                row.append((0..<channels).map { c in i < 3 ? edge[(i + c) % 3] : next() % (maxValue + 1) })
            }
            samples.append(row)
        }
        var image = ForgeImage(width: width, height: height, colorType: colorType, bitDepth: bitDepth,
                               samples: samples, interlaced: interlaced)
        if colorType == 3 {
            image.palette = (0..<paletteSize).map { i in ((i * 37) % 256, (i * 91 + 7) % 256, 255 - i % 256) }
            if transparency { image.trns = (0..<min(paletteSize, 5)).map { UInt8($0 * 60) } }
        } else if transparency && (colorType == 0 || colorType == 2) {
            let key = samples[0][4]  // a colour that occurs
            image.trns = key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        return image
    }
}
