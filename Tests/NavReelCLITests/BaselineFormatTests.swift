import Foundation
import Testing
import Compare
import Navigation
import Raster
import Scenario
@testable import NavReel

/// Issue 17: baseline format 2 (one encode by libdeflate without filters, nothing naming the frame)
/// beside format 1, which every NavReel before it wrote and which must keep working.
@Suite("baseline file format")
struct BaselineFormatTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// A real format-1 baseline: `Baselines/hidden-bar/iphone-14/0000.png` as committed before issue 17.
    static let format1File = fixtures.appendingPathComponent("format1-hidden-bar-iphone-14-0000.png")

    /// An opaque frame of many colours (so RGB, as most baselines) with maps: a bar over rows,
    /// a translucent band and a title.
    static func frame() -> (image: Image, side: [UInt8]) {
        let (w, h) = (48, 30)
        var image = Image(width: w, height: h, fill: RGBA8(248, 248, 248))
        var translucency = [UInt8](repeating: 0, count: w * h)
        var elements = [UInt8](repeating: 1, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                if y < 12 { image[x, y] = RGBA8(UInt8(x * 5), UInt8(y * 7), 200); translucency[y * w + x] = 180; elements[y * w + x] = 2 }
                if y == 12 { image[x, y] = RGBA8(0, 0, 0, 255) }
                if (4..<8).contains(y) && (10..<30).contains(x) && (x + y) % 3 == 0 { elements[y * w + x] = 3 }
            }
        }
        let maps = FrameMaps(width: w, height: h, translucency: translucency, elements: elements,
                             elementNames: [1: "content", 2: "bar", 3: "title"])
        return (image, maps.serialized())
    }

    /// Format 1 as `BaselineFile.encode` wrote it before issue 17: level 9 with every filter, maps
    /// at level 9 (side-data version 1), frame and time in text, encoded a second time to hold the
    /// hash of its image chunks.
    static func encodeFormat1(_ image: Image, text: [String: String], side: [UInt8]?) throws -> [UInt8] {
        var text = text
        let first = try PNG.encode(image, metadata: PNGMetadata(text: text, sideData: side), options: .small)
        text["navreel.data"] = try BaselineFile.dataHash(first, source: "<test>").0
        return try PNG.encode(image, metadata: PNGMetadata(text: text, sideData: side), options: .small)
    }

    static func chunkTypes(_ bytes: [UInt8]) throws -> [String] {
        try PNGStructure.scan(bytes, source: "b.png").chunks.map(\.type)
    }

    @Test("identical frames give identical files whatever frame and time they are given; the file says format 2")
    func identicalFrames() throws {
        let (image, side) = Self.frame()
        let a = try BaselineFile.encode(image, text: ["navreel.content": "c0ffee", "navreel.frame": "3", "navreel.time": "0.1000"], side: side)
        let b = try BaselineFile.encode(image, text: ["navreel.content": "c0ffee", "navreel.frame": "4", "navreel.time": "0.1333"], side: side)
        #expect(a == b)
        let scanned = try BaselineFile.scan(a, source: "b.png")
        #expect(scanned.header.format == BaselineFile.format && scanned.header.text["navreel.frame"] == nil && scanned.header.text["navreel.time"] == nil)
        #expect(scanned.matches(content: "c0ffee"), "the fast path holds for a format-2 file")
        // navreel.data goes after the maps, just before IEND, so that the file is encoded once.
        #expect(try Self.chunkTypes(a).suffix(3) == ["nrSD", "tEXt", "IEND"])
    }

    @Test("a format-2 file round-trips pixels and maps in every colour layout; libpng and NavReel's own pass over the image data take it")
    func roundTrip() throws {
        let (image, side) = Self.frame()
        let bytes = try BaselineFile.encode(image, text: ["navreel.content": "1"], side: side)
        let decoded = try PNG.decode(bytes, source: "b.png")   // libpng
        #expect(decoded.image == image && decoded.colorType == 2)
        #expect(decoded.metadata.sideData == side)
        #expect(try FrameMaps(serialized: #require(decoded.metadata.sideData), maxPixels: 1 << 20) == FrameMaps(serialized: side, maxPixels: 1 << 20))
        let structure = try PNGStructure.scan(bytes, source: "b.png")
        // NavReel's own pass over the image data (before libpng allocates anything) agrees.
        try bytes.withUnsafeBytes { try structure.checkImageData($0, source: "b.png") }
        #expect(structure.chunks.map(\.type) == ["IHDR", "tEXt", "tEXt", "IDAT", "nrSD", "tEXt", "IEND"])
        // Images without maps in each layout the writer chooses: palette with tRNS, grey, RGB,
        // RGBA; and UTF-8 text (iTXt) beside Latin-1 (tEXt).
        var rgba = Image(width: 300, height: 20, fill: RGBA8(0, 122, 255, 128))
        for x in 0..<300 { for y in 0..<20 { rgba[x, y] = RGBA8(UInt8(x % 256), UInt8(y * 9), UInt8((x * y) % 256), UInt8(x % 200 + 20)) } }
        var grey = Image(width: 7, height: 3, fill: RGBA8(9, 9, 9))
        grey[2, 1] = RGBA8(200, 200, 200)
        for (other, colorType) in [(Image(width: 1, height: 1, fill: RGBA8(1, 2, 3, 4)), 3), (grey, 0), (image, 2), (rgba, 6)] {
            let encoded = try BaselineFile.encode(other, text: ["navreel.font": "Noto Sans CJK 字"], side: nil)
            let back = try PNG.decode(encoded, source: "o.png")
            #expect(back.image == other && back.colorType == colorType && back.metadata.text["navreel.font"] == "Noto Sans CJK 字")
        }
    }

    @Test("the libdeflate writer refuses filters, other strategies and levels outside 0-12, naming why")
    func libdeflateOptions() throws {
        let image = Image(width: 3, height: 2, fill: RGBA8(1, 2, 3))
        var libdeflate = PNGEncodeOptions.baseline
        libdeflate.deflater = .libdeflate
        var options = libdeflate
        options.filter = .paeth
        #expect { try PNG.encode(image, options: options) } throws: { "\($0)".contains("without filters") }
        options = libdeflate
        options.strategy = .rle
        #expect { try PNG.encode(image, options: options) } throws: { "\($0)".contains("without filters") }
        options = libdeflate
        options.sideDataStrategy = .rle
        #expect { try PNG.encode(image, metadata: PNGMetadata(sideData: [1, 2]), options: options) } throws: { "\($0)".contains("without filters") }
        options = libdeflate
        options.compressionLevel = 13
        #expect { try PNG.encode(image, options: options) } throws: { "\($0)".contains("outside 0...12") }
        options = libdeflate
        options.sideDataLevel = -1
        #expect { try PNG.encode(image, metadata: PNGMetadata(sideData: [1, 2]), options: options) } throws: { "\($0)".contains("outside 0...12") }
        for level in [0, 1, 12] {
            options = libdeflate
            options.compressionLevel = level
            options.sideDataLevel = level
            let bytes = try PNG.encode(image, metadata: PNGMetadata(sideData: [7, 7, 7]), options: options)
            let back = try PNG.decode(bytes, source: "l\(level).png")
            #expect(back.image == image && back.metadata.sideData == [7, 7, 7])
        }
    }

    @Test("the search writer (baselines since issue 17) refuses filters, other strategies and levels outside 0-9, naming why; its maps go through libdeflate")
    func searchOptions() throws {
        let image = Image(width: 3, height: 2, fill: RGBA8(1, 2, 3))
        #expect(PNGEncodeOptions.baseline.deflater == .search)
        var options = PNGEncodeOptions.baseline
        options.filter = .paeth
        #expect { try PNG.encode(image, options: options) } throws: { "\($0)".contains("without filters") }
        options = .baseline
        options.strategy = .rle
        #expect { try PNG.encode(image, options: options) } throws: { "\($0)".contains("without filters") }
        options = .baseline
        options.compressionLevel = 10
        #expect { try PNG.encode(image, options: options) } throws: { "\($0)".contains("outside 0...9") }
        options = .baseline
        options.sideDataLevel = 13
        #expect { try PNG.encode(image, metadata: PNGMetadata(sideData: [1, 2]), options: options) } throws: { "\($0)".contains("outside 0...12") }
        // Side data at level 12: libdeflate's levels, which zlib (0-9) would refuse.
        for (level, side) in [(0, 0), (6, 12), (9, 9)] {
            options = .baseline
            options.compressionLevel = level
            options.sideDataLevel = side
            let bytes = try PNG.encode(image, metadata: PNGMetadata(sideData: [7, 7, 7]), options: options)
            let back = try PNG.decode(bytes, source: "s\(level).png")
            #expect(back.image == image && back.metadata.sideData == [7, 7, 7])
        }
    }

    @Test("maps of one-pixel-wide images and single rows round-trip",
          arguments: [(1, 9), (9, 1), (2, 2)])
    func mapEdges(_ size: (Int, Int)) throws {
        let (w, h) = size
        let image = Image(width: w, height: h, fill: RGBA8(10, 20, 30))
        let maps = FrameMaps(width: w, height: h, translucency: (0..<w * h).map { UInt8($0 * 37 % 256) },
                             elements: (0..<w * h).map { UInt8($0 % 3) }, elementNames: [0: "a", 1: "b", 2: "c"])
        let bytes = try BaselineFile.encode(image, text: [:], side: maps.serialized())
        #expect(try PNG.decode(bytes, source: "m.png").metadata.sideData == maps.serialized())
    }

    @Test("a committed format-1 baseline reads, takes the fast path, and gives the same pixels and maps as format 2")
    func format1Committed() throws {
        let old = [UInt8](try Data(contentsOf: Self.format1File))
        let scanned = try BaselineFile.scan(old, source: Self.format1File.path)
        #expect(scanned.header.format == 1)
        #expect(scanned.header.text["navreel.frame"] == "0", "written by the old encoder")
        #expect(scanned.matches(content: try #require(scanned.header.contentHash)), "the fast path still holds for format 1")
        let decoded = try PNG.decode(old, source: Self.format1File.path)
        let maps = try #require(try PairDiff.maps(of: decoded, source: "old"))
        #expect(maps.width == decoded.image.width && maps.translucency != nil && maps.elements != nil)
        let structure = try PNGStructure.scan(old, source: "old")
        #expect(old[try #require(structure.chunks.first { $0.type == PNG.sideDataChunk }).dataOffset] == 1)

        let new = try BaselineFile.encode(decoded.image, text: decoded.metadata.text, side: decoded.metadata.sideData)
        let again = try PNG.decode(new, source: "new")
        #expect(again.image == decoded.image && again.metadata.sideData == decoded.metadata.sideData)
        let newScan = try BaselineFile.scan(new, source: "new")
        #expect(newScan.header.format == BaselineFile.format && newScan.matches(content: scanned.header.contentHash!))
        #expect(new.count < old.count)
    }

    @Test("format 1 built by the old encoder and format 2 decode to the same pixels and maps, and compare equal")
    func format1Built() throws {
        let (image, side) = Self.frame()
        let text = ["navreel.content": "abc", "navreel.frame": "7", "navreel.time": "0.2333"]
        let old = try Self.encodeFormat1(image, text: text, side: side)
        let new = try BaselineFile.encode(image, text: text, side: side)
        #expect(old != new)
        let a = try PNG.decode(old, source: "old"), b = try PNG.decode(new, source: "new")
        #expect(a.image == b.image && a.metadata.sideData == b.metadata.sideData)
        #expect(try BaselineFile.scan(old, source: "old").matches(content: "abc"))
        let input = ComparisonInput(expected: a.image, actual: b.image, expectedMaps: try PairDiff.maps(of: a, source: "old"),
                                    actualMaps: try PairDiff.maps(of: b, source: "new"))
        #expect(ImageComparator(settings: ComparisonSettings(tolerance: .rendered), jobs: 1).compare(input).0.passed)
    }

    @Test("a truncated format-2 file is an error naming it at every length, never a crash")
    func truncated() throws {
        let (image, side) = Self.frame()
        let bytes = try BaselineFile.encode(image, text: ["navreel.content": "1"], side: side)
        for length in Swift.stride(from: 0, to: bytes.count, by: 5) {
            let cut = Array(bytes.prefix(length))
            #expect(throws: PNGError.self, "\(length) bytes") { try PNG.decode(cut, source: "cut.png") }
            do { _ = try BaselineFile.scan(cut, source: "cut.png"); Issue.record("scan took \(length) bytes") } catch {
                #expect("\(error)".contains("cut.png"), "\(error)")
            }
        }
    }

    @Test("damaged maps of a format-2 file, CRC fixed, never take the fast path; decoded, they are an error naming the file or maps for the comparison to judge")
    func damagedMaps() throws {
        let (image, side) = Self.frame()
        let bytes = try BaselineFile.encode(image, text: ["navreel.content": "1"], side: side)
        let chunk = try #require(try PNGStructure.scan(bytes, source: "b.png").chunks.first { $0.type == PNG.sideDataChunk })
        for i in chunk.dataOffset..<chunk.dataOffset + chunk.length {
            var changed = bytes
            changed[i] ^= 0x10
            refreshCRC(ofChunkAt: chunk.dataOffset, length: chunk.length, in: &changed)
            #expect(!(try BaselineFile.scan(changed, source: "b.png").matches(content: "1")))
            do {
                _ = try PNG.decode(changed, source: "b.png")
            } catch {
                #expect("\(error)".contains("b.png"), "\(error)")
            }
        }
        var unknown = bytes
        unknown[chunk.dataOffset] = 3
        refreshCRC(ofChunkAt: chunk.dataOffset, length: chunk.length, in: &unknown)
        #expect { try PNG.decode(unknown, source: "b.png") } throws: { "\($0)".contains("layout version 3") }
    }
}

@Suite("baseline file format, end to end", .serialized)
struct BaselineFormatCLITests {
    @Test("record writes identical frames as identical files, and rewrites a format-1 baseline as format 2 with its pixels")
    func recordAndRefresh() throws {
        let scenario = """
            devices: [\(Project.device)]
            fps: 4
            capture: bar
            screens:
              a: {title: A, bar: {color: "#FFFFFF", translucent: false}}
              b: {title: B}
            steps:
              - show: a
              - wait: 0.5
              - push: b
                duration: 0.5
            """
        let p = try Project(["one": scenario])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        // Frames 0-2 are the resting screen: the same pixels, so the same bytes.
        #expect(try p.bytes("one/tiny/0000.png") == p.bytes("one/tiny/0001.png"))
        #expect(try p.bytes("one/tiny/0001.png") == p.bytes("one/tiny/0002.png"))
        #expect(try p.bytes("one/tiny/0002.png") != p.bytes("one/tiny/0004.png"))

        // Frame 3 as NavReel wrote it before: format 1. Check takes it without decoding; record
        // rewrites it to the very bytes it writes today.
        let url = p.baselines.appendingPathComponent("one/tiny/0003.png")
        let current = [UInt8](try Data(contentsOf: url))
        let decoded = try PNG.decode(current, source: url.path)
        var text = decoded.metadata.text
        text["navreel.format"] = nil
        text["navreel.data"] = nil
        text["navreel.frame"] = "3"
        text["navreel.time"] = "0.7500"
        // Format 1 and 2 files hold the first content hash (FastHash.hash), format 3 the second.
        let maps = try #require(try PairDiff.maps(of: decoded, source: url.path))
        var h = FastHash.hash(decoded.image.pixels)
        h = FastHash.hash(try #require(maps.translucency), seed: h)
        h = FastHash.hash(try #require(maps.elements), seed: h)
        text["navreel.content"] = FastHash.hex(h ^ UInt64(decoded.image.width) << 32 ^ UInt64(decoded.image.height))
        let old = try BaselineFormatTests.encodeFormat1(decoded.image, text: text, side: maps.serializedV1())
        try Data(old).write(to: url)
        let check = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
        #expect(check.status == 0, "\(check)")
        let frames = p.pngs().count
        #expect(check.stdout.components(separatedBy: "\"fastPath\": true").count - 1 == frames, "\(check.stdout)")
        let record = try p.run(["record"])
        #expect(record.status == 0 && record.stdout.contains("1 changed"), "\(record)")
        #expect([UInt8](try Data(contentsOf: url)) == current)
        #expect(try p.run(["record"]).stdout.contains("0 changed"))
    }

    @Test("a frame identical to an earlier, not adjacent one of its run takes that file's bytes, the bytes its own encode gives; a file changed or gone since is not taken")
    func identicalFramesReadBack() throws {
        let scenario = """
            devices: [\(Project.device)]
            fps: 4
            capture: bar
            screens:
              a: {title: A, bar: {color: "#FFFFFF", translucent: false}}
              b: {title: B, bar: {color: "#FF8800"}}
            steps:
              - show: a
              - wait: 0.5
              - push: b
                duration: 0.5
              - wait: 0.5
              - pop: {}
                duration: 0.5
              - wait: 1
            """
        let p = try Project(["one": scenario])
        defer { p.remove() }
        for jobs in [1, 2] {
            try? FileManager.default.removeItem(at: p.baselines)
            var o = RunOptions()
            o.scenarios = p.root.appendingPathComponent("Fixtures/scenarios").path
            o.baselines = p.baselines.path
            o.report = p.report.path
            o.record = .all
            o.jobs = jobs
            let runner = try SuiteRunner(options: o)
            let result = runner.run()
            #expect(result.jobs.flatMap(\.frames).allSatisfy { $0.status == .added })
            // Screen a at rest before the push and after the pop: frames 0-2 and the last ones
            // (units of 12 frames: the last frames are in another unit than the first).
            let names = p.pngs().filter { $0.hasPrefix("one/tiny/") }.sorted()
            #expect(names.count > 12)
            let first = try p.bytes("one/tiny/0000.png"), last = try p.bytes(try #require(names.last))
            #expect(first == last, "the rest after the pop is the rest before the push")
            #expect(runner.writtenFiles.reused >= 1, "\(jobs) jobs: \(runner.writtenFiles.reused) frames read back")
            // Every file holds what encoding its own frame gives.
            let job = runner.jobs[0]
            for (k, name) in names.enumerated() {
                let frame = try runner.renderer.render(job, frame: k)
                let alone = try BaselineFile.encode(runner.renderer, job, k, frame, contentHash: BaselineFile.contentHash(frame))
                let same = try [UInt8](p.bytes(name)) == alone
                #expect(same, "\(name) with \(jobs) jobs")
            }
        }

        // The reader itself: a path it was told of is read back only while it holds that frame.
        var o = RunOptions()
        o.scenarios = p.root.appendingPathComponent("Fixtures/scenarios").path
        o.baselines = p.baselines.path
        let runner = try SuiteRunner(options: o)
        let job = runner.jobs[0]
        let files = SuiteRunner.WrittenFiles()
        let zero = p.baselines.appendingPathComponent("one/tiny/0000.png").path
        let four = p.baselines.appendingPathComponent("one/tiny/0004.png").path
        let content = BaselineFile.contentHash(try runner.renderer.render(job, frame: 0))
        #expect(files.bytes(job, content: content) == nil, "nothing written yet")
        files.wrote(job, content: content, path: zero, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: zero))))
        let read = files.bytes(job, content: content)
        #expect(try read == [UInt8](Data(contentsOf: URL(fileURLWithPath: zero))))
        #expect(files.bytes(job, content: "0123456789abcdef") == nil, "another frame's content")
        try FileManager.default.copyItem(atPath: zero, toPath: zero + ".kept")
        try FileManager.default.removeItem(atPath: zero)
        try FileManager.default.copyItem(atPath: four, toPath: zero)
        #expect(files.bytes(job, content: content) == nil, "the file now holds another frame")
        try FileManager.default.removeItem(atPath: zero)
        #expect(files.bytes(job, content: content) == nil, "the file is gone")
        var damaged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zero + ".kept")))
        damaged[damaged.count / 2] ^= 0x40
        try Data(damaged).write(to: URL(fileURLWithPath: zero))
        #expect(files.bytes(job, content: content) == nil, "a damaged copy")
        // The same image chunks with other text (another tool's tEXt chunk, or another NavReel's
        // metadata): not the bytes written, so not taken.
        var other = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zero + ".kept")))
        let text = Array("tEXtSoftware\u{0}an editor".utf8), crc = CompareSafetyCLITests.crc32(text)
        let chunk = [0, 0, 0, UInt8(text.count - 4)] + text + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        other.insert(contentsOf: chunk, at: other.count - 12)   // before IEND
        #expect(try BaselineFile.scan(other, source: "other").matches(content: content), "the image chunks still prove the frame")
        try Data(other).write(to: URL(fileURLWithPath: zero))
        #expect(files.bytes(job, content: content) == nil, "other text")
        #expect(files.reused == 1)
    }

    @Test("frames of a run that share their maps reuse the compressed maps chunk: the same bytes as each encoded alone")
    func mapsChunkReused() throws {
        let yaml = "{devices: [iphone-14], scale: 1, capture: bar, screens: {a: {title: A, content: {rows: 4}}}, steps: [{show: a}]}"
        let scenario = try ScenarioParser.parse(yaml: yaml, file: "maps.yaml", defaultName: "maps", fixturesRoot: nil).get()
        let renderer = try FrameRenderer(fixturesRoot: "/nonexistent")
        let job = renderer.jobs(for: scenario)[0]
        let first = try renderer.render(job, frame: 0)
        // The same maps under other pixels (a fade: colour bytes changed, alpha kept), then one
        // element changed (a title moved), then the translucency, then the same planes' bytes
        // in a frame of the other shape (transposed).
        var recoloured = first
        recoloured.image.pixels = recoloured.image.pixels.enumerated().map { $0.offset % 4 == 3 ? $0.element : $0.element ^ 0x10 }
        var moved = recoloured
        moved.elements[moved.elements.count / 2] &+= 1
        var translucent = moved
        translucent.translucency[0] &+= 1
        var transposed = translucent
        transposed.image = Image(width: translucent.image.height, height: translucent.image.width, pixels: translucent.image.pixels)
        let cache = BaselineFile.MapsCache()
        for (k, frame) in [first, recoloured, moved, translucent, translucent, transposed].enumerated() {
            let alone = try BaselineFile.encode(renderer, job, k, frame, contentHash: BaselineFile.contentHash(frame))
            let cached = try BaselineFile.encode(renderer, job, k, frame, contentHash: BaselineFile.contentHash(frame), maps: cache)
            let sameBytes = cached == alone   // (a Bool: the arrays would fill the log)
            #expect(sameBytes, "frame \(k): \(cached.count) bytes against \(alone.count)")
            let ownMaps = try PNG.decode(cached, source: "\(k).png").metadata.sideData == renderer.maps(frame).serialized()
            #expect(ownMaps, "frame \(k)'s own maps")
        }
        #expect(cache.hits == 2, "the recoloured frame and the repeated one reuse the chunk; moved, translucent and transposed maps do not")
        // The level the baselines' maps are written at since 2026-11-29 (docs/baselines.md says
        // why): a change is a decision to take there, not here.
        #expect(PNGEncodeOptions.baseline.sideDataLevel == 1)
        // A chunk packed for other options is refused, not written under these.
        let other = try PNG.packSide([1, 2, 3], options: .small)
        #expect(throws: PNGError.self) { try PNG.encode(first.image, metadata: PNGMetadata(), options: .baseline, packedSide: other) }
    }
}
