import Foundation
import Testing
@testable import NavReel
import Compare
import Navigation
import Raster
import Scenario

@Suite("navreel diff")
struct DiffCLITests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let expected: Image?     // nil: write `raw` instead
        let actual: Image?
        var rawActual: [UInt8]? = nil
        let status: Int32
        let says: String
        var testDescription: String { name }
    }

    static let base: Image = {
        var image = Image(width: 20, height: 10, fill: RGBA8(255, 255, 255))
        for x in 0..<20 { image[x, 5] = RGBA8(0, 122, 255) }
        return image
    }()

    static let cases: [Case] = {
        var changed = base
        changed[3, 3] = RGBA8(0, 0, 0)
        changed[4, 3] = RGBA8(250, 255, 255)
        let bigger = Image(width: 21, height: 10, fill: RGBA8(255, 255, 255))
        return [
            Case(name: "equal images", expected: base, actual: base, status: 0, says: "passed: identical (200 pixels)"),
            Case(name: "one pixel mismatches, one is perceptually equal", expected: base, actual: changed, status: 1,
                 says: "failed: 1 of 200 pixels mismatched; forgiven: 1 perceptual"),
            Case(name: "size change", expected: base, actual: bigger, status: 1, says: "size changed: expected 20x10, actual 21x10"),
            Case(name: "actual is not a PNG", expected: base, actual: nil, rawActual: Array("GIF89a......".utf8), status: 2, says: "actual.png: not a PNG"),
            Case(name: "actual is truncated", expected: base, actual: nil,
                 rawActual: Array(try! PNG.encode(base).prefix(40)), status: 2, says: "actual.png: truncated"),
        ]
    }()

    @Test("exit status and message", arguments: cases)
    func diff(_ c: Case) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("expected.png"), b = dir.appendingPathComponent("actual.png")
        try Data(PNG.encode(c.expected!)).write(to: a)
        try Data(c.actual.map { try PNG.encode($0) } ?? c.rawActual!).write(to: b)
        let result = try CLI.run(["diff", a.path, b.path])
        #expect(result.status == c.status, "\(result)")
        #expect((result.stdout + result.stderr).contains(c.says), "\(result)")
    }

    @Test("files of different sizes are still checked in full: damaged image data or maps are an error naming the file")
    func sizeChangeStillChecksFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("expected.png"), b = dir.appendingPathComponent("actual.png")
        try Data(PNG.encode(Self.base)).write(to: a)
        var bigger = [UInt8](try PNG.encode(Image(width: 21, height: 10, fill: RGBA8(9, 9, 9))))
        try Data(bigger).write(to: b)
        let plain = try CLI.run(["diff", a.path, b.path])
        #expect(plain.status == 1 && plain.stdout.contains("size changed: expected 20x10, actual 21x10"), "\(plain)")
        // The image data damaged under a valid CRC: the header still reads 21x10.
        let idat = try #require(TamperCLITests.chunk("IDAT", in: bigger))
        bigger[idat.data + 2] ^= 0xFF
        refreshCRC(ofChunkAt: idat.data, length: idat.length, in: &bigger)
        try Data(bigger).write(to: b)
        for order in [[a.path, b.path], [b.path, a.path]] {
            let r = try CLI.run(["diff"] + order)
            #expect(r.status == 2 && r.stderr.contains("actual.png"), "\(order): \(r)")
        }
    }

    @Test("the same pixels in different encodings are equal")
    func encodingsDoNotMatter() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png"), b = dir.appendingPathComponent("b.png")
        try Data(PNG.encode(Self.base, options: .small)).write(to: a)
        try Data(PNG.encode(Self.base, options: .fast)).write(to: b)
        #expect(try Data(contentsOf: a) != Data(contentsOf: b))
        let result = try CLI.run(["diff", a.path, b.path])
        #expect(result.status == 0, "\(result)")
    }

    @Test("a missing file is a usage error naming the file")
    func missingFile() throws {
        let result = try CLI.run(["diff", "/nonexistent/a.png", "/nonexistent/b.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/a.png"))
    }

    @Test("frames large enough to decode on two threads: each error names its file, maps included; jobs change nothing")
    func parallelDecode() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 400 x 400 = 160,000 pixels: over PairDiff.parallelDecodePixels, so the two files decode
        // and parse their maps on two threads.
        var left = Image(width: 400, height: 400, fill: RGBA8(250, 250, 250))
        var right = left
        for y in 0..<400 where y % 7 < 3 {
            for x in 0..<400 {
                left[x, y] = RGBA8(UInt8(x % 256), UInt8(y % 256), 90)
                right[x, y] = RGBA8(UInt8((x + 3) % 256), UInt8(y % 256), 90)
            }
        }
        let maps = FrameMaps(width: 400, height: 400, translucency: [UInt8](repeating: 40, count: 160_000),
                             elements: (0..<160_000).map { UInt8($0 / 400 % 3) }).serialized()
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        let aBytes = try PNG.encode(left, metadata: PNGMetadata(sideData: maps), options: .baseline)
        #expect(PairDiff.declaredPixels(aBytes) >= PairDiff.parallelDecodePixels, "large enough for two decoding threads")
        let a = try write("a.png", aBytes)
        let b = try write("b.png", PNG.encode(right, metadata: PNGMetadata(sideData: maps), options: .baseline))
        let one = try PairDiff.run(expected: a, actual: b, settings: ComparisonSettings(), jobs: 1)
        let two = try PairDiff.run(expected: a, actual: b, settings: ComparisonSettings(), jobs: 2)
        #expect(one.comparison.counts.mismatched > 0)
        #expect(one.comparison == two.comparison)
        #expect(!one.comparison.elements.isEmpty, "the maps were read: mismatches are named by element")
        // Huge-page reservations (what `navreel diff` asks for) change where buffers live, not
        // what is in them: the same result and the same diff image.
        for jobs in [1, 2] {
            let plain = try PairDiff.run(expected: a, actual: b, settings: ComparisonSettings(), diffStyle: .classic, jobs: jobs)
            let huge = try PairDiff.run(expected: a, actual: b, settings: ComparisonSettings(), diffStyle: .classic, jobs: jobs, hugePages: true)
            #expect(huge.comparison == plain.comparison && huge.comparison == one.comparison)
            #expect(huge.diffPNG != nil && huge.diffPNG == plain.diffPNG)
        }

        let truncated = try write("truncated.png", Array(try Data(contentsOf: URL(fileURLWithPath: b))).dropLast(300).map { $0 })
        let garbledMaps = try write("maps.png", PNG.encode(right, metadata: PNGMetadata(sideData: [9, 9, 9, 9]), options: .baseline))
        for (expected, actual, named) in [(a, truncated, truncated), (truncated, a, truncated), (a, garbledMaps, garbledMaps),
                                          (garbledMaps, b, garbledMaps)] {
            for jobs in [1, 2] {
                #expect { try PairDiff.run(expected: expected, actual: actual, settings: ComparisonSettings(), jobs: jobs) } throws: {
                    "\($0)".contains(named)
                }
            }
        }
    }

    @Test("a diff image is the same bytes in every process, small or banded, classic or heat map")
    func diffImageBytesEveryRun() throws {
        // ISA-L's igzip wrote other bytes for the same rows in 3-4 runs of a hundred (its output
        // followed the addresses its buffers got): separate processes, several runs each.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var small = Image(width: 8, height: 4, fill: RGBA8(255, 255, 255))
        let smallA = dir.appendingPathComponent("sa.png").path, smallB = dir.appendingPathComponent("sb.png").path
        try Data(PNG.encode(small)).write(to: URL(fileURLWithPath: smallA))
        small[2, 2] = RGBA8(0, 0, 0)
        small[3, 1] = RGBA8(250, 252, 255)
        try Data(PNG.encode(small)).write(to: URL(fileURLWithPath: smallB))
        // Many bands of rows and a remainder (DiffImage.encoding.bandBytes), with text-like
        // strokes that differ.
        let (w, h) = (1000, 2 * (PNG.bandBytes / 1001) + 37)
        #expect(h % (DiffImage.encoding.bandBytes / 1001) != 0 && h / (DiffImage.encoding.bandBytes / 1001) >= 4)
        var big = Image(width: w, height: h, fill: RGBA8(242, 242, 247))
        for y in stride(from: 0, to: h, by: 5) { for x in 0..<w where (x / 3 + y) % 7 == 0 { big[x, y] = RGBA8(20, 20, 24) } }
        let bigA = dir.appendingPathComponent("ba.png").path, bigB = dir.appendingPathComponent("bb.png").path
        try Data(PNG.encode(big)).write(to: URL(fileURLWithPath: bigA))
        for y in stride(from: 2, to: h, by: 11) { for x in 0..<w where x % 5 == 0 { big[x, y] = RGBA8(0, 122, 255) } }
        try Data(PNG.encode(big)).write(to: URL(fileURLWithPath: bigB))
        for (a, b, runs) in [(smallA, smallB, 24), (bigA, bigB, 6)] {
            for style in [[], ["--heatmap"]] {
                var seen: Set<Data> = []
                for run in 0..<runs {
                    let out = dir.appendingPathComponent("d\(run).png")
                    let result = try CLI.run(["diff", a, b, "--out", out.path] + style)
                    #expect(result.status == 1, "\(result.stderr)")
                    seen.insert(try Data(contentsOf: out))
                }
                #expect(seen.count == 1, "\(a) \(style): \(seen.count) different files in \(runs) runs")
            }
        }
    }

    @Test("a file declaring a size no PNG may have is an error naming it, on one job or two",
          arguments: [(UInt32.max, UInt32.max, Int.max, "more than PNG allows"),
                      (0x7FFF_FFFF, 0x7FFF_FFFF, 0x3FFF_FFFF_0000_0001, "over the limit"),
                      (0x7FFF_FFFF, 3, 0x1_7FFF_FFFD, "over the limit")])
    func absurdDeclaredSize(width: UInt32, height: UInt32, pixels: Int, says: String) throws {
        // 4294967295 x 4294967295 overflowed the pixel count that chooses one or two decoding
        // threads, before the decoder could refuse it: a trap (exit 132), not an error.
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.png"), bad = dir.appendingPathComponent("absurd.png")
        try Data(PNG.encode(Self.base)).write(to: good)
        var bytes = try PNG.encode(Self.base)
        for (k, value) in [(16, width), (20, height)] {
            for b in 0..<4 { bytes[k + b] = UInt8(truncatingIfNeeded: value >> (24 - 8 * b)) }
        }
        refreshCRC(ofChunkAt: 16, length: 13, in: &bytes)
        try Data(bytes).write(to: bad)
        #expect(PairDiff.declaredPixels(bytes) == pixels)
        for (a, b) in [(good, bad), (bad, good)] {
            for jobs in ["1", "2"] {
                let result = try CLI.run(["diff", a.path, b.path, "--jobs", jobs])
                #expect(result.status == 2, "\(result)")
                #expect(result.stderr.contains("absurd.png") && result.stderr.contains(says), "\(result)")
            }
        }
    }

    /// A file compared with itself reads its maps without making their planes (issue 17): the
    /// result and the diff image are those of a comparison given the maps, and damaged maps are
    /// still an error naming the file (issue 16).
    @Test("a file with maps diffed with itself: the result and diff image of a full comparison; damaged maps still fail")
    func identicalWithMaps() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var image = Image(width: 120, height: 90, fill: RGBA8(240, 240, 245))
        for y in 10..<40 { for x in 0..<120 { image[x, y] = RGBA8(UInt8(x * 2), 60, UInt8(y * 5)) } }
        let maps = FrameMaps(width: 120, height: 90, translucency: (0..<10_800).map { $0 / 120 < 44 ? 191 : 0 },
                             elements: (0..<10_800).map { UInt8($0 / 120 < 44 ? 2 : 1) }, elementNames: [1: "content", 2: "bar"])
        let file = dir.appendingPathComponent("frame.png")
        try Data(PNG.encode(image, metadata: PNGMetadata(sideData: maps.serialized()), options: .baseline)).write(to: file)
        let copy = dir.appendingPathComponent("copy.png")
        try FileManager.default.copyItem(at: file, to: copy)
        let (full, fullDiff) = ImageComparator().compare(
            ComparisonInput(expected: image, actual: image, expectedMaps: maps, actualMaps: maps), diff: .classic)
        for (expected, actual) in [(file.path, file.path), (file.path, copy.path)] {
            for jobs in [1, 2] {
                let r = try PairDiff.run(expected: expected, actual: actual, settings: ComparisonSettings(), diffStyle: .classic, jobs: jobs)
                #expect(r.comparison == full)
                #expect(r.comparison.identical)
                #expect(r.diffPNG == (try fullDiff?.encoded(workers: 1)))
                // Without a diff image the file is checked, not decoded (PNG.check): the same result.
                let checked = try PairDiff.run(expected: expected, actual: actual, settings: ComparisonSettings(), jobs: jobs)
                #expect(checked.comparison == full)
                #expect(checked.diffPNG == nil)
            }
        }
        // The same with a budget and the pixelmatch metric, which the result carries.
        let settings = ComparisonSettings(tolerance: Tolerance(maxDiffRatio: 0.1), metric: .pixelmatch)
        let (budgeted, _) = ImageComparator(settings: settings).compare(
            ComparisonInput(expected: image, actual: image, expectedMaps: maps, actualMaps: maps))
        #expect(try PairDiff.run(expected: file.path, actual: copy.path, settings: settings).comparison == budgeted)
        #expect(budgeted.allowedMismatches == 1_080 && budgeted.metric == .pixelmatch)
        // Maps that overrun a row, in a file compared with itself: an error naming the file.
        var bad = maps.serialized()
        let header = 4 + 4 + 4 + 1 + 2 + (1 + 2 + 7) + (1 + 2 + 3)   // magic, size, flags, two names
        #expect(bad[header] == 1, "the first row is runs")
        bad[header + 2] = 127   // a run of 128 in a row of 120
        let damaged = dir.appendingPathComponent("damaged.png")
        try Data(PNG.encode(image, metadata: PNGMetadata(sideData: bad), options: .baseline)).write(to: damaged)
        #expect { try PairDiff.run(expected: damaged.path, actual: damaged.path, settings: ComparisonSettings()) } throws: {
            "\($0)".contains("damaged.png") && "\($0)".contains("overruns row 0")
        }
        // Maps of another size than the pixels, the same.
        let small = FrameMaps(width: 60, height: 90, translucency: [UInt8](repeating: 0, count: 5_400)).serialized()
        let mismatched = dir.appendingPathComponent("mismatched.png")
        try Data(PNG.encode(image, metadata: PNGMetadata(sideData: small), options: .baseline)).write(to: mismatched)
        #expect { try PairDiff.run(expected: mismatched.path, actual: mismatched.path, settings: ComparisonSettings()) } throws: {
            "\($0)".contains("mismatched.png") && "\($0)".contains("60x90")
        }
    }

    /// A plain file diffed with itself draws its diff image from its own rows (`PNG.plainRows`,
    /// `DiffImage.fadedCopy`, issue 17): the same bytes as comparing the decoded image with
    /// itself, for RGB, RGBA, grey and palette files (the last the long way), any filter, both styles.
    @Test("a file diffed with itself: the diff image of a full comparison for every colour type and filter")
    func identicalDiffImages() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var opaque = Image(width: 61, height: 37, fill: RGBA8(250, 250, 250))
        var translucent = opaque, grey = opaque, few = opaque
        for y in 0..<37 {
            for x in 0..<61 {
                let v = UInt8((x * 7 + y * 13) % 256)
                opaque[x, y] = RGBA8(v, UInt8(x * 4), UInt8(255 - y * 6))
                translucent[x, y] = RGBA8(v, 90, UInt8(y * 6), UInt8((x * 5 + y) % 256))
                grey[x, y] = RGBA8(v, v, v)
                few[x, y] = [RGBA8(255, 0, 0), RGBA8(0, 0, 255), RGBA8(9, 9, 9, 100)][(x / 5 + y / 3) % 3]
            }
        }
        for (name, image, type) in [("RGB", opaque, 2), ("RGBA", translucent, 6), ("grey", grey, 0), ("palette", few, 3)] {
            for filter in [PNGEncodeOptions.Filter.none, .paeth, .adaptive] {
                let file = dir.appendingPathComponent("\(name).png")
                let bytes = try PNG.encode(image, options: PNGEncodeOptions(compressionLevel: 6, filter: filter, strategy: .default, reduceColors: true))
                #expect(try PNG.decode(bytes).colorType == type, "\(name)")
                try Data(bytes).write(to: file)
                for style in [DiffStyle.classic, .heatmap] {
                    let (full, diff) = ImageComparator(settings: ComparisonSettings(tolerance: .captured)).compare(
                        ComparisonInput(expected: image, actual: image), diff: style)
                    for jobs in [1, 2] {
                        let r = try PairDiff.run(expected: file.path, actual: file.path, settings: ComparisonSettings(tolerance: .captured),
                                                 diffStyle: style, jobs: jobs)
                        #expect(r.comparison == full, "\(name) \(filter) \(style) \(jobs)")
                        #expect(r.diffPNG == (try diff?.encoded(workers: 1)), "\(name) \(filter) \(style) \(jobs)")
                    }
                }
            }
        }
    }

    @Test("identical bytes that are not a PNG are still an error, not a pass")
    func identicalGarbage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png")
        try Data("nonsense".utf8).write(to: a)
        let result = try CLI.run(["diff", a.path, a.path])
        #expect(result.status == 2)
    }
}

@Suite("navreel diff outputs")
struct DiffOutputTests {
    static func pair(in dir: URL) throws -> (String, String) {
        var changed = DiffCLITests.base
        changed[3, 3] = RGBA8(0, 0, 0)
        changed[4, 3] = RGBA8(250, 255, 255)
        let a = dir.appendingPathComponent("expected.png"), b = dir.appendingPathComponent("actual.png")
        try Data(PNG.encode(DiffCLITests.base)).write(to: a)
        try Data(PNG.encode(changed)).write(to: b)
        return (a.path, b.path)
    }

    @Test("--json - prints the result object of CLI.md")
    func json() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (a, b) = try Self.pair(in: dir)
        let result = try CLI.run(["diff", a, b, "--json", "-"])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(object["width"] as? Int == 20)
        #expect(object["height"] as? Int == 10)
        #expect(object["mismatched"] as? Int == 1)
        #expect(object["passed"] as? Bool == false)
        #expect(object["maxChannelDelta"] as? Int == 255)
        let forgiven = object["forgiven"] as! [String: Int]
        #expect(forgiven == ["equal": 198, "perceptual": 1, "antialiasing": 0, "translucency": 0, "timing": 0, "ignored": 0])
    }

    @Test("tolerance flags change the verdict", arguments: [
        (["--perceptual", "0", "--no-antialiasing"], Int32(1), 2),
        (["--channel", "5"], Int32(1), 1),
        (["--max-diff-pixels", "1"], Int32(0), 1),
        (["--metric", "pixelmatch", "--perceptual", "0.1"], Int32(1), 1),
        (["--perceptual", "0", "--channel", "255"], Int32(0), 0),
    ])
    func flags(_ flags: [String], _ status: Int32, _ mismatched: Int) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (a, b) = try Self.pair(in: dir)
        let result = try CLI.run(["diff", a, b, "--json", "-"] + flags)
        #expect(result.status == status, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(object["mismatched"] as? Int == mismatched)
    }

    @Test("bad flag values are usage errors")
    func badFlags() throws {
        for flags in [["--perceptual", "2"], ["--metric", "odiff"], ["--channel", "-1"]] {
            let result = try CLI.run(["diff", "a.png", "b.png"] + flags)
            #expect(result.status == 2, "\(flags): \(result)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test("--out writes a small palette diff image: red mismatch over faded grey")
    func diffImage() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (a, b) = try Self.pair(in: dir)
        let out = dir.appendingPathComponent("sub/diff.png").path
        let result = try CLI.run(["diff", a, b, "--out", out])
        #expect(result.status == 1)
        let diff = try PNG.read(path: out)
        #expect(diff.colorType == 3)
        #expect(diff.image[3, 3] == RGBA8(255, 0, 0))
        let grey = diff.image[0, 0]
        #expect(grey.r == grey.g && grey.g == grey.b && grey.r > 228)
    }
}
