import CPNG
import Testing
@testable import Raster

/// `Deflater.zlibBands` and `.rowRuns` (diff images, issue 17): bands compressed apart, by zlib or
/// by NavReel's row-runs encoder, and joined as pigz does. Every reader must take the joined
/// stream, the pixels must be exact, and the bytes must not depend on how many threads
/// compressed the bands.
@Suite("PNG zlib in bands")
struct BandedDeflateTests {
    static let palette: [RGBA8] = (0..<40).map { (i: Int) -> RGBA8 in
        let alpha: UInt8 = i < 8 ? UInt8(i * 30) : 255
        return RGBA8(UInt8(i * 6), UInt8(255 - i * 6), UInt8(i * 3), alpha)
    }

    /// Indices with runs, noise and rows repeated from the row above, like a diff image.
    static func indices(_ width: Int, _ height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        var seed: UInt32 = 0x1234_5678
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let i = y * width + x
                if y % 9 == 4 {
                    out[i] = out[i - width]
                } else if (x / 11 + y / 3) % 4 == 0 {
                    out[i] = UInt8(seed >> 27)
                } else {
                    out[i] = UInt8((x / 50) % 40)
                }
            }
        }
        return out
    }

    @Test("one band, several, and a last band of one row: libpng and the plain decoder give the indices back; threads never change the bytes",
          arguments: [PNGEncodeOptions.Deflater.zlibBands, .rowRuns, .search])
    func roundTrip(deflater: PNGEncodeOptions.Deflater) throws {
        var options = Self.options
        options.deflater = deflater
        let rowsPerBand = { (w: Int) in max(1, PNG.bandBytes / (w + 1)) }
        // (1 row) (exactly one band) (one band and one row) (several bands and a remainder) (1 px wide) (1x1)
        let sizes = [(5, 1), (1170, rowsPerBand(1170)), (1170, rowsPerBand(1170) + 1), (2560, 3 * rowsPerBand(2560) + 17), (1, 16_000), (16_000, 97),
                     (1, 1)]
        for (w, h) in sizes {
            let indices = Self.indices(w, h)
            let one = try PNG.encodeIndexed(width: w, height: h, indices: indices, palette: Self.palette, options: options, workers: 1)
            for workers in [2, 3, 8] {
                let many = try PNG.encodeIndexed(width: w, height: h, indices: indices, palette: Self.palette, options: options, workers: workers)
                #expect(many == one, "\(w)x\(h) with \(workers) threads")
            }
            // The same stream when helper threads surely run (no work threshold).
            let single = try PNG.bandedStream(rows: (indices, w), rowBytes: w, height: h, level: 1, deflater: deflater, workers: 1)
            for workers in [2, 5] {
                #expect(try PNG.bandedStream(rows: (indices, w), rowBytes: w, height: h, level: 1, deflater: deflater, workers: workers,
                                             threshold: .zero) == single)
            }
            let (plain, libpng) = try PlainDecodeTests.decodeBoth(one)
            #expect(plain == libpng, "\(w)x\(h)")
            let expected = indices.map { Self.palette[Int($0)] }
            #expect(plain.image.width == w && plain.image.height == h)
            #expect(plain.image.pixels == expected.flatMap { [$0.r, $0.g, $0.b, $0.a] }, "\(w)x\(h)")
            // The same pixels as the one-call zlib stream of libpng.
            let reference = try PNG.encodeIndexed(width: w, height: h, indices: indices, palette: Self.palette,
                                                  options: PNGEncodeOptions(compressionLevel: 1, filter: .none, strategy: .default, reduceColors: false))
            #expect(try PNG.decode(reference, source: "r.png").image == plain.image)
        }
    }

    @Test("the joined stream is a valid zlib stream with the Adler-32 of all rows, at every level, compressible or not")
    func zlibStream() throws {
        let (w, h) = (1000, 2000)   // four bands
        // The diff-like indices, then random bytes (incompressible: stored blocks, the most a band can grow).
        var random = [UInt8](repeating: 0, count: w * h)
        var seed: UInt64 = 99
        for i in random.indices {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            random[i] = UInt8(truncatingIfNeeded: seed >> 56)
        }
        // All zeros (an identical dark pair's diff), and zeros for two bands then the diff-like rows.
        let zeros = [UInt8](repeating: 0, count: w * h)
        var zerosFirst = Self.indices(w, h)
        for i in 0..<(w * 1100) { zerosFirst[i] = 0 }
        for indices in [Self.indices(w, h), random, zeros, zerosFirst, Array(zeros.prefix(w * 3))] {
            try Self.checkStream(indices, w, indices.count / w, levels: [0, 1, 4, 6, 9])
            try Self.checkStream(indices, w, indices.count / w, levels: [1], deflater: .rowRuns)
            try Self.checkStream(indices, w, indices.count / w, levels: [6], deflater: .search)
        }
        // Filtered rows of 32768 bytes (the row above at deflate's largest distance) and of 32769
        // (too far: runs only), wider than a PNG may be here, so as streams.
        for w in [32_767, 32_768] {
            try Self.checkStream(Self.indices(w, 40), w, 40, levels: [1], deflater: .rowRuns)
            try Self.checkStream(Self.indices(w, 40), w, 40, levels: [6], deflater: .search)
        }
        // One row whose literals have frequencies 1, 2, 4 ... 65536: Huffman's code would be 16
        // bits deep, past deflate's 15 (the lengths are limited; without the limit two symbols
        // get no code and no inflater takes the stream), and no byte stands four times in a row
        // until the end.
        try Self.checkStream(Self.skewedRow, Self.skewedRow.count, 1, levels: [1], deflater: .rowRuns)
        try Self.checkStream(Self.skewedRow, Self.skewedRow.count, 1, levels: [6], deflater: .search)
    }

    /// Symbol k (0-16) 2^k times, dealt round-robin so that equal bytes never stand four in a row
    /// (no run to match) until only the commonest symbol is left.
    static let skewedRow: [UInt8] = {
        var remaining = (0..<17).map { 1 << $0 }
        var row: [UInt8] = []
        while remaining.contains(where: { $0 > 0 }) {
            for k in 0..<17 where remaining[k] > 0 {
                row.append(UInt8(k * 7))
                remaining[k] -= 1
            }
        }
        return row
    }()

    @Test("the row-runs encoder's code lengths: complete, within the limit, shorter for commoner symbols")
    func codeLengths() {
        var cases: [([UInt32], Int32)] = []
        var fib: [UInt32] = [1, 1]
        while fib.count < 30 { fib.append(fib[fib.count - 1] + fib[fib.count - 2]) }
        cases.append((fib, 15))                                           // depth 29 unlimited
        cases.append((fib.prefix(19).map { $0 }, 7))                      // the code-length alphabet's limit
        cases.append(([5, 0, 0, 0], 15))                                  // one symbol: two codes of 1 bit
        cases.append(([0, 0, 0], 15))                                     // none: the same
        cases.append((Array(repeating: 3, count: 286), 15))               // flat
        var seed: UInt32 = 7
        cases.append(((0..<286).map { _ in seed = seed &* 1_664_525 &+ 1_013_904_223; return seed >> 20 }, 15))
        for (freq, limit) in cases {
            var lengths = [UInt8](repeating: 0, count: freq.count)
            nr_code_lengths(freq, Int32(freq.count), limit, &lengths)
            #expect(lengths.allSatisfy { Int32($0) <= limit }, "\(freq.prefix(4))...")
            // Kraft's sum exactly 1: a complete prefix code.
            let kraft = lengths.filter { $0 > 0 }.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
            #expect(kraft == 1, "\(freq.prefix(4))...: \(kraft)")
            for i in freq.indices where freq[i] > 0 {
                #expect(lengths[i] > 0)
                for j in freq.indices where freq[j] > freq[i] { #expect(lengths[j] <= lengths[i]) }
            }
        }
        // More symbols than codes of the limit's length: refused (the lengths stay as given),
        // not run past the ends of the length counts.
        var refused = [UInt8](repeating: 0, count: 17)
        nr_code_lengths([UInt32](repeating: 1, count: 17), 17, 4, &refused)
        #expect(refused.allSatisfy { $0 == 0 })
        // Without pressure from the limit the lengths are Huffman's: total bits no more than any
        // other complete code's, here the flat 8-bit one for 256 equal symbols.
        var flat = [UInt8](repeating: 0, count: 256)
        nr_code_lengths([UInt32](repeating: 1, count: 256), 256, 15, &flat)
        #expect(flat.allSatisfy { $0 == 8 })
    }

    @Test("the search reaches back the whole window: a block repeated exactly 32,768 bytes later is matched, not stored again")
    func searchWindowEdge() throws {
        // Random bytes have no runs or row above to match (one row wider than the window), so
        // only the hash chains can find the repeat, at the distance whose chain slot the current
        // position has just reused (cpng.c, band_symbols).
        var seed: UInt64 = 3
        let block = (0..<32768).map { _ -> UInt8 in seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: seed >> 40) }
        for (tail, pixelBytes) in [(block, 1), (Array(block.prefix(20000)), 4)] {
            let row = block + tail
            let stream = try PNG.bandedStream(rows: (row, row.count), rowBytes: row.count, height: 1, level: 6, deflater: .search,
                                              pixelBytes: pixelBytes, workers: 1)
            #expect(try zlibInflate(stream) == [0] + row)
            // The block once as literals (8 or 9 bits each), the repeat as matches of 258.
            #expect(stream.count < block.count + tail.count / 20, "\(stream.count) bytes for \(row.count)")
        }
    }

    @Test("every length 3-258 and both ends of every distance code (1-32,768) come back through zlib's inflater")
    func searchEveryCode() throws {
        // Random bytes (nothing to match by chance but a few bytes) with copies planted: a copy
        // of `length` bytes from `distance` back, found through the hash chains. The encoder
        // takes each match's symbol, extra bits and distance code from tables (cpng.c,
        // match_symbol); a wrong entry gives other bytes back, or a stream zlib refuses.
        var seed: UInt64 = 11
        func random() -> UInt8 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: seed >> 40) }
        // RFC 1951 3.2.5: the first distance of each of the 30 codes; a code ends where the next begins.
        let bases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                     3073, 4097, 6145, 8193, 12289, 16385, 24577, 32769]
        var distances = [Int]()
        for c in 0..<30 { distances += [bases[c], bases[c + 1] - 1] }
        var row = (0..<32768).map { _ in random() }
        var k = 0
        for length in 4...258 {
            for distance in [distances[k % distances.count], distances[(k + 31) % distances.count]] {
                for _ in 0..<24 { row.append(random()) }
                for _ in 0..<length { row.append(row[row.count - distance]) }
                k += 1
            }
        }
        // Every length once more, each copied from fresh random bytes 24 past its end (the copies
        // above can start inside an earlier long copy, whose positions are not hashed, and be
        // split), then runs of four equal bytes: a literal and a match of 3. A wrong length
        // entry gives other bytes back.
        var lengths = [UInt8]()
        for length in 4...258 {
            let source = (0..<(length + 24)).map { _ in random() }
            lengths += source
            lengths += source.prefix(length)
        }
        for k in 0..<64 { lengths += [UInt8](repeating: UInt8(k), count: 4) + [random(), random()] }
        let lengthStream = try PNG.bandedStream(rows: (lengths, lengths.count), rowBytes: lengths.count, height: 1, level: 6,
                                                deflater: .search, pixelBytes: 1, workers: 1)
        #expect(try zlibInflate(lengthStream) == [0] + lengths)
        for pixelBytes in [1, 3] {
            let stream = try PNG.bandedStream(rows: (row, row.count), rowBytes: row.count, height: 1, level: 6, deflater: .search,
                                              pixelBytes: pixelBytes, workers: 1)
            #expect(try zlibInflate(stream) == [0] + row)
            // The copies as matches: the random bytes alone are 32,768 + 510 * 24 bytes.
            #expect(stream.count < 32768 + 510 * 24 + 510 * 8, "\(stream.count) bytes for \(row.count)")
        }
        // Rows that repeat the one above, and rows of one value: matches of the longest length,
        // 258 bytes, however the compare steps through them (cpng.c, match_length: 16 bytes, then
        // 64 a step, then 16, 8 and 1): under 2 bytes for 258 here (1.6 measured; matches cut at
        // 64 bytes made the streams 1.55x as long and failed this).
        for width in [1170, 1171, 1233] {
            let first = (0..<(width * 3)).map { _ in random() }
            var rows = [UInt8]()
            for y in 0..<120 { rows += y % 40 < 30 ? first : [UInt8](repeating: UInt8(y), count: width * 3) }
            let stream = try PNG.bandedStream(rows: (rows, width * 3), rowBytes: width * 3, height: 120, level: 6, deflater: .search,
                                              pixelBytes: 3, workers: 1)
            var filtered = [UInt8]()
            for y in 0..<120 { filtered += [0] + rows[(y * width * 3)..<((y + 1) * width * 3)] }
            #expect(try zlibInflate(stream) == filtered)
            // The random row as literals three times (rows 0, 40 and 80: 40 rows back is past the
            // window), under 8.4 bits a byte; the rest as matches of 258.
            let literals = 3 * width * 3 * 21 / 20
            #expect(stream.count < literals + rows.count / 258 * 2, "\(width): \(stream.count) bytes for \(rows.count)")
        }
    }

    /// The code lengths as cpng.c defines them, written plainly: symbols sorted by (frequency,
    /// symbol), Huffman's two-queue merge (a leaf before an inner node of equal weight), then the
    /// lengths past the limit adjusted as JPEG's annex K.3 does and dealt out by frequency.
    static func referenceCodeLengths(_ freq: [UInt32], limit: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: freq.count)
        let order = freq.indices.filter { freq[$0] > 0 }.sorted { (freq[$0], $0) < (freq[$1], $1) }
        let m = order.count
        if m < 2 {
            let a = order.first ?? 0
            lengths[a] = 1
            lengths[a == 0 ? 1 : 0] = 1
            return lengths
        }
        var weight = order.map { UInt64(freq[$0]) } + [UInt64](repeating: 0, count: m - 1)
        var parent = [Int](repeating: 0, count: 2 * m - 1)
        var leaf = 0, inner = m, next = m
        while next < 2 * m - 1 {
            var picks: [Int] = []
            for _ in 0..<2 {
                if leaf < m && (inner >= next || weight[leaf] <= weight[inner]) { picks.append(leaf); leaf += 1 } else { picks.append(inner); inner += 1 }
            }
            weight[next] = weight[picks[0]] + weight[picks[1]]
            parent[picks[0]] = next
            parent[picks[1]] = next
            next += 1
        }
        var depth = [Int](repeating: 0, count: 2 * m - 1)
        for k in stride(from: 2 * m - 3, through: 0, by: -1) { depth[k] = depth[parent[k]] + 1 }
        var count = [Int](repeating: 0, count: 2 * m)
        for k in 0..<m { count[depth[k]] += 1 }
        let longest = depth[0..<m].max()!
        var i = longest
        while i > limit {
            while count[i] > 0 {
                var j = i - 2
                while count[j] == 0 { j -= 1 }
                count[i] -= 2; count[i - 1] += 1; count[j + 1] += 2; count[j] -= 1
            }
            i -= 1
        }
        var k = m - 1
        for length in 1...limit {
            for _ in 0..<count[length] { lengths[order[k]] = UInt8(length); k -= 1 }
        }
        return lengths
    }

    @Test("the code lengths are the plain definition's, ties between equal frequencies included")
    func codeLengthsAsDefined() {
        var seed: UInt64 = 11
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        for round in 0..<300 {
            let n = [19, 30, 286, 320][round % 4]
            let limit = n == 19 ? 7 : 15
            // Few distinct frequencies (many ties), skewed ones (lengths past the limit), zeros.
            let freq: [UInt32] = (0..<n).map { _ in
                switch round % 3 {
                case 0: return UInt32(next() % 4)
                case 1: return next() % 3 == 0 ? 0 : UInt32(1) << UInt32(next() % 24)
                default: return UInt32(truncatingIfNeeded: next())
                }
            }
            guard freq.filter({ $0 > 0 }).count <= 1 << limit else { continue }
            var lengths = [UInt8](repeating: 0, count: n)
            nr_code_lengths(freq, Int32(n), Int32(limit), &lengths)
            #expect(lengths == Self.referenceCodeLengths(freq, limit: limit), "round \(round)")
        }
    }

    @Test("the C call refuses levels past 9, no rows, and rows past the buffer")
    func bandRefusals() {
        let (w, h) = (100, 60)
        let indices = Self.indices(w, h)
        func band(level: Int32, rows: UInt32 = 60, first: UInt32 = 0) -> Int32 {
            var out: UnsafeMutablePointer<UInt8>?
            var length = 0
            var adler: UInt32 = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = indices.withUnsafeBufferPointer {
                nr_deflate_band($0.baseAddress, $0.count, w, w, first, rows, level, 1, &out, &length, &adler, &message, message.count)
            }
            if let out { nr_free(out) }
            return status
        }
        #expect(Int(band(level: 9)) == NR_OK)
        #expect(Int(band(level: 10)) == NR_ERR_ARGUMENT)
        #expect(Int(band(level: -1)) == NR_ERR_ARGUMENT)
        #expect(Int(band(level: 1, rows: 0)) == NR_ERR_ARGUMENT)
        #expect(Int(band(level: 1, rows: 2, first: UInt32(h - 1))) == NR_ERR_ARGUMENT)
        func runsBand(rows: UInt32 = 60, first: UInt32 = 0, stride: Int = w) -> Int32 {
            var out: UnsafeMutablePointer<UInt8>?
            var length = 0
            var adler: UInt32 = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = indices.withUnsafeBufferPointer {
                nr_deflate_band_runs($0.baseAddress, $0.count, stride, w, first, rows, 1, &out, &length, &adler, &message, message.count)
            }
            if let out { nr_free(out) }
            return status
        }
        #expect(Int(runsBand()) == NR_OK)
        func searchBand(pixelBytes: Int, depth: Int32) -> Int32 {
            var out: UnsafeMutablePointer<UInt8>?
            var length = 0
            var adler: UInt32 = 0
            var message = [CChar](repeating: 0, count: 256)
            let status = indices.withUnsafeBufferPointer {
                nr_deflate_band_search($0.baseAddress, $0.count, w, w, 0, 60, pixelBytes, depth, 1, &out, &length, &adler,
                                       &message, message.count)
            }
            if let out { nr_free(out) }
            return status
        }
        for (pixelBytes, depth) in [(1, 0), (4, 16), (8, 4096), (3, 1)] { #expect(Int(searchBand(pixelBytes: pixelBytes, depth: Int32(depth))) == NR_OK) }
        for (pixelBytes, depth) in [(0, 16), (9, 16), (4, -1), (4, 4097)] {
            #expect(Int(searchBand(pixelBytes: pixelBytes, depth: Int32(depth))) == NR_ERR_ARGUMENT, "\(pixelBytes) bytes, depth \(depth)")
        }
        #expect(Int(runsBand(rows: 0)) == NR_ERR_ARGUMENT)
        #expect(Int(runsBand(rows: 2, first: UInt32(h - 1))) == NR_ERR_ARGUMENT)
        #expect(Int(runsBand(stride: w - 1)) == NR_ERR_ARGUMENT)
    }

    static func checkStream(_ indices: [UInt8], _ w: Int, _ h: Int, levels: [Int], deflater: PNGEncodeOptions.Deflater = .zlibBands,
                            pixelBytes: Int = 1) throws {
        var filtered = [UInt8]()
        for y in 0..<h { filtered.append(0); filtered += indices[y * w..<(y + 1) * w] }
        var inflated = [UInt8](repeating: 0, count: filtered.count)
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        var stream: [UInt8] = []
        for level in levels {
            stream = try PNG.bandedStream(rows: (indices, w), rowBytes: w, height: h, level: level, deflater: deflater,
                                          pixelBytes: pixelBytes, workers: 2, threshold: .zero)
            // zlib's own inflate too (nr_inflate_into tries libdeflate first).
            #expect(try zlibInflate(stream) == filtered, "level \(level), \(deflater)")
            #expect(stream[0] == 0x78 && (Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0, "level \(level)")
            inflated = [UInt8](repeating: 0, count: filtered.count)
            let status = stream.withUnsafeBufferPointer { s in
                inflated.withUnsafeMutableBufferPointer { d in
                    nr_inflate_into(s.baseAddress, s.count, d.baseAddress, d.count, &length, &message, message.count)
                }
            }
            #expect(Int(status) == NR_OK && length == filtered.count && inflated == filtered, "level \(level)")
        }
        // Rows given with their filter bytes (as baselines pack them) make the same stream, the
        // search reading them in place (nr_deflate_band_search_filtered) and the others copying.
        for bandBytes in [PNG.bandBytes, 3 * (w + 1) + 5, 1] {
            let plain = try PNG.bandedStream(rows: (indices, w), rowBytes: w, height: h, level: 1, deflater: deflater,
                                             pixelBytes: pixelBytes, workers: 2, threshold: .zero, bandBytes: bandBytes)
            let inPlace = try PNG.bandedStream(rows: (filtered, w + 1), rowBytes: w, height: h, level: 1, deflater: deflater,
                                               pixelBytes: pixelBytes, workers: 2, threshold: .zero, bandBytes: bandBytes, rowsFiltered: true)
            #expect(plain == inPlace, "\(deflater), bands of \(bandBytes) bytes")
        }
        // Rows that do not fit the buffer given are refused, not read past its end.
        #expect { try PNG.bandedStream(rows: (Array(indices.dropLast()), w), rowBytes: w, height: h, level: 1, deflater: deflater,
                                       pixelBytes: pixelBytes, workers: 1) } throws: {
            "\($0)".contains("do not fit")
        }
        #expect { try PNG.bandedStream(rows: (Array(filtered.dropLast()), w + 1), rowBytes: w, height: h, level: 1, deflater: deflater,
                                       pixelBytes: pixelBytes, workers: 1, rowsFiltered: true) } throws: {
            "\($0)".contains("do not fit")
        }
        // The C call checks for itself: a band ending past the buffer is refused.
        if deflater == .search {
            var out: UnsafeMutablePointer<UInt8>?
            var length = 0
            var adler: UInt32 = 0
            var message = [CChar](repeating: 0, count: 256)
            let short = Array(filtered.dropLast())
            let status = nr_deflate_band_search_filtered(short, short.count, w, UInt32(h - 1), 1, pixelBytes, 16, 1,
                                                         &out, &length, &adler, &message, message.count)
            #expect(Int(status) == NR_ERR_ARGUMENT && out == nil)
            let huge = nr_deflate_band_search_filtered(filtered, filtered.count, w, UInt32.max, UInt32.max, pixelBytes, 16, 1,
                                                       &out, &length, &adler, &message, message.count)
            #expect(Int(huge) == NR_ERR_ARGUMENT && out == nil)
            // Rows whose size overflows any buffer (a row of SIZE_MAX bytes, or 2^32 rows of 2^33).
            let wide = nr_deflate_band_search_filtered(filtered, filtered.count, -1, 0, 1, pixelBytes, 16, 1,
                                                       &out, &length, &adler, &message, message.count)
            let tall = nr_deflate_band_search_filtered(filtered, filtered.count, 1 << 33, UInt32.max, UInt32.max, pixelBytes, 16, 1,
                                                       &out, &length, &adler, &message, message.count)
            #expect(Int(wide) == NR_ERR_LIMIT && Int(tall) == NR_ERR_LIMIT && out == nil)
        }
        // A damaged check value is refused: the Adler-32 really covers every band.
        var bad = stream
        bad[bad.count - 1] ^= 1
        let refused = bad.withUnsafeBufferPointer { s in
            inflated.withUnsafeMutableBufferPointer { d in
                nr_inflate_into(s.baseAddress, s.count, d.baseAddress, d.count, &length, &message, message.count)
            }
        }
        #expect(Int(refused) != NR_OK)
    }

    @Test("filters, other strategies and levels past 9 are refused, naming why")
    func refusals() throws {
        let indices = Self.indices(4, 4)
        var options = Self.options
        options.compressionLevel = 10
        #expect { try PNG.encodeIndexed(width: 4, height: 4, indices: indices, palette: Self.palette, options: options) } throws: { "\($0)".contains("levels 0-9") }
        options = Self.options
        options.filter = .sub
        #expect { try PNG.encodeIndexed(width: 4, height: 4, indices: indices, palette: Self.palette, options: options) } throws: { "\($0)".contains("without filters") }
        options = Self.options
        options.compressionLevel = 9
        #expect(try PNG.decode(PNG.encodeIndexed(width: 4, height: 4, indices: indices, palette: Self.palette, options: options),
                               source: "l9.png").image.pixels == indices.flatMap { i in [Self.palette[Int(i)].r, Self.palette[Int(i)].g, Self.palette[Int(i)].b, Self.palette[Int(i)].a] })
    }

    @Test("the writers refuse rows that do not fit their buffer, and filtered rows at the wrong stride")
    func rowsChecked() {
        // 4x3 grey: rows of 4 bytes, or 5 with their filter byte.
        let plain = [UInt8](repeating: 7, count: 12), filtered = [UInt8](repeating: 0, count: 15)
        func encode(_ rows: [UInt8], length: Int, stride: Int, filteredRows: Bool, unfiltered: Bool) -> (Int32, String) {
            var params = nr_png_encode_params()
            params.width = 4
            params.height = 3
            params.color_type = NR_COLOR_GRAY
            params.compression_level = 6
            params.filters = NR_FILTER_NONE
            params.strategy = NR_Z_DEFAULT_STRATEGY
            params.stride = stride
            params.rows_filtered = filteredRows ? 1 : 0
            var message = [CChar](repeating: 0, count: 256)
            var out: UnsafeMutablePointer<UInt8>?
            var outLength = 0
            let status = rows.withUnsafeBufferPointer { buffer in
                params.rows = buffer.baseAddress
                params.rows_length = length
                return unfiltered ? nr_png_encode_unfiltered(&params, &out, &outLength, &message, message.count)
                                  : nr_png_encode(&params, &out, &outLength, &message, message.count)
            }
            if let out { nr_free(out) }
            return (status, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        for unfiltered in [true, false] {
            #expect(Int(encode(plain, length: 12, stride: 4, filteredRows: false, unfiltered: unfiltered).0) == NR_OK)
            let short = encode(plain, length: 11, stride: 4, filteredRows: false, unfiltered: unfiltered)
            #expect(Int(short.0) != NR_OK && short.1.contains("do not fit"))
            let wide = encode(plain, length: 12, stride: 5, filteredRows: false, unfiltered: unfiltered)
            #expect(Int(wide.0) != NR_OK && wide.1.contains("do not fit"))
        }
        #expect(Int(encode(filtered, length: 15, stride: 5, filteredRows: true, unfiltered: true).0) == NR_OK)
        #expect(Int(encode(filtered, length: 14, stride: 5, filteredRows: true, unfiltered: true).0) != NR_OK)
        #expect(Int(encode(filtered, length: 15, stride: 4, filteredRows: true, unfiltered: true).0) != NR_OK)
        // libpng's writer filters rows itself: rows given with filter bytes are refused.
        #expect(Int(encode(filtered, length: 15, stride: 5, filteredRows: true, unfiltered: false).0) != NR_OK)
    }

    /// RGB rows like a UI frame: a vertical gradient (each row one colour), text-like marks that
    /// repeat at a glyph's width and on other rows (matches only a search finds), noise in a
    /// corner, and bars that repeat the row above.
    static func frameRows(_ width: Int, _ height: Int) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: width * height * 3)
        var seed: UInt32 = 0xC0FF_EE00
        let glyphs: [[UInt8]] = (0..<6).map { g in (0..<21).map { k in UInt8((k * 37 + g * 91) % 256) } }
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                seed = seed &* 1_664_525 &+ 1_013_904_223
                if x < 12 && y < 12 {
                    rows[i] = UInt8(seed >> 24); rows[i + 1] = UInt8(seed >> 16 & 0xFF); rows[i + 2] = UInt8(seed >> 8 & 0xFF)
                } else if (y / 7) % 3 == 1 && x % 7 < 7 && x > 20 && x < width - 20 {
                    // "Text": glyph (x / 7 + y / 21) % 6's byte for this column and row.
                    let g = glyphs[(x / 7 + y / 21) % 6], k = (x % 7) * 3 + y % 3
                    rows[i] = g[k]; rows[i + 1] = g[(k + 5) % 21]; rows[i + 2] = g[(k + 11) % 21]
                } else {
                    rows[i] = UInt8(40 + y % 150); rows[i + 1] = UInt8(90 + y % 100); rows[i + 2] = 200
                }
            }
        }
        return rows
    }

    @Test("the search encoder: with no search it is the row-runs encoder byte for byte; with one its streams inflate to the rows, whatever the threads, and are smaller")
    func searchEncoder() throws {
        // Depth 0 and one-byte pixels: the row-runs symbols, so the same bytes.
        for (w, h) in [(100, 60), (1170, 500), (7, 3)] {
            let indices = Self.indices(w, h)
            func band(_ search: Bool) -> [UInt8] {
                var out: UnsafeMutablePointer<UInt8>?
                var length = 0
                var adler: UInt32 = 0
                var message = [CChar](repeating: 0, count: 256)
                let status = indices.withUnsafeBufferPointer {
                    search ? nr_deflate_band_search($0.baseAddress, $0.count, w, w, 0, UInt32(h), 1, 0, 1, &out, &length, &adler, &message, message.count)
                           : nr_deflate_band_runs($0.baseAddress, $0.count, w, w, 0, UInt32(h), 1, &out, &length, &adler, &message, message.count)
                }
                defer { if let out { nr_free(out) } }
                guard Int(status) == NR_OK, let out else { return [] }
                return Array(UnsafeBufferPointer(start: out, count: length))
            }
            let runs = band(false)
            #expect(!runs.isEmpty && band(true) == runs, "\(w)x\(h)")
        }
        // RGB frames: one band, several, and rows at deflate's distance limits.
        for (w, h) in [(390, 844), (1170, 700), (10_922, 12), (10_923, 12), (1, 5)] {
            let rows = Self.frameRows(w, h)
            try Self.checkStream(rows, w * 3, h, levels: [6], deflater: .search, pixelBytes: 3)
            let search = try PNG.bandedStream(rows: (rows, w * 3), rowBytes: w * 3, height: h, level: 6, deflater: .search,
                                              pixelBytes: 3, workers: 1)
            for workers in [2, 4] {
                #expect(try PNG.bandedStream(rows: (rows, w * 3), rowBytes: w * 3, height: h, level: 6, deflater: .search,
                                             pixelBytes: 3, workers: workers, threshold: .zero) == search, "\(w)x\(h), \(workers) threads")
            }
            let runs = try PNG.bandedStream(rows: (rows, w * 3), rowBytes: w * 3, height: h, level: 6, deflater: .rowRuns, workers: 1)
            if w * h >= 10_000 { #expect(search.count * 10 < runs.count * 9, "\(w)x\(h): \(search.count) against row-runs' \(runs.count)") }
        }
        // PNG.encode with the baseline options: RGB, palette and RGBA frames give their pixels back.
        let rgb = Self.frameRows(390, 200)
        var pixels = [UInt8]()
        for k in 0..<(390 * 200) {
            let r: UInt8 = rgb[3 * k], g: UInt8 = rgb[3 * k + 1], b: UInt8 = rgb[3 * k + 2]
            pixels += [r, g, b, 255]
        }
        var translucent = pixels
        for k in stride(from: 3, to: translucent.count, by: 4 * 5) { translucent[k] = 128 }
        var flat = [UInt8]()   // seven colours: a palette
        for k in 0..<(390 * 200) {
            let shade: UInt8 = UInt8(k / 390 % 7) * 30
            flat += [shade, 50, 60, 255]
        }
        for bytes in [pixels, translucent, flat] {
            let image = Image(width: 390, height: 200, pixels: bytes)
            let encoded = try PNG.encode(image, options: .baseline)
            #expect(try PNG.decode(encoded, source: "s.png").image == image)
        }
    }

    static let options = PNGEncodeOptions(compressionLevel: 1, filter: .none, strategy: .default, reduceColors: false,
                                          sideDataLevel: 1, sideDataStrategy: .default, deflater: .zlibBands)
}

/// A zlib stream inflated by zlib itself (`uncompress`), or an error.
func zlibInflate(_ stream: [UInt8], capacity: Int = 1 << 26) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: capacity)
    var length = 0
    let status = stream.withUnsafeBufferPointer { s in
        out.withUnsafeMutableBufferPointer { d in nr_zlib_uncompress(s.baseAddress, s.count, d.baseAddress, d.count, &length) }
    }
    guard Int(status) == NR_OK else { throw PNGError(source: "zlib", kind: .corrupt, message: "zlib refused the stream") }
    return Array(out.prefix(length))
}
