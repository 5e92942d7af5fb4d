import Testing
import Raster
@testable import Compare

/// One pixel of a 5x5 grey frame changes; the maps and settings say what may forgive it.
struct RuleCase: CustomTestStringConvertible, Sendable {
    let name: String
    var expectedPixel = RGBA8(100, 100, 100)
    var actualPixel: RGBA8
    var tolerance = Tolerance.rendered
    var expectedWeight: UInt8? = nil
    var actualWeight: UInt8? = nil
    var expectedElement: UInt8? = nil
    var actualElement: UInt8? = nil
    var elements: [UInt8: RuleOverride] = [:]
    var regions: [Region] = []
    var neighbors: [RGBA8] = []
    let verdict: Verdict
    var testDescription: String { "\(name) -> \(verdict)" }
}

enum Verdict: String, Sendable {
    case equal, perceptual, antialiasing, translucency, timing, ignored, mismatched
    func count(in c: RuleCounts) -> Int {
        switch self {
        case .equal: return c.equal
        case .perceptual: return c.perceptual
        case .antialiasing: return c.antialiasing
        case .translucency: return c.translucency
        case .timing: return c.timing
        case .ignored: return c.ignored
        case .mismatched: return c.mismatched
        }
    }
}

private let at = (x: 2, y: 2)
private let content: UInt8 = 1, title: UInt8 = 2

let ruleCases: [RuleCase] = [
    RuleCase(name: "a one-level change, strict", actualPixel: RGBA8(101, 100, 100), verdict: .mismatched),
    RuleCase(name: "within channel 3", actualPixel: RGBA8(103, 97, 100), tolerance: Tolerance(channel: 3), verdict: .equal),
    RuleCase(name: "two fully transparent pixels, hidden colours differ, strict", expectedPixel: RGBA8(10, 20, 30, 0),
             actualPixel: RGBA8(200, 100, 0, 0), verdict: .equal),
    RuleCase(name: "transparent against alpha 1, strict", expectedPixel: RGBA8(10, 20, 30, 0), actualPixel: RGBA8(10, 20, 30, 1),
             verdict: .mismatched),
    RuleCase(name: "just over channel 3", actualPixel: RGBA8(104, 100, 100), tolerance: Tolerance(channel: 3), verdict: .mismatched),
    RuleCase(name: "tint #007AFF to #0A84FF at perceptual 0.1", expectedPixel: RGBA8(0, 122, 255), actualPixel: RGBA8(10, 132, 255),
             tolerance: Tolerance(perceptual: 0.1), verdict: .perceptual),
    RuleCase(name: "tint #007AFF to #0A84FF, rendered defaults", expectedPixel: RGBA8(0, 122, 255), actualPixel: RGBA8(10, 132, 255),
             verdict: .mismatched),
    RuleCase(name: "black to white at perceptual 0.5", actualPixel: RGBA8(255, 255, 255), expectedPixel_: RGBA8(0, 0, 0),
             tolerance: Tolerance(perceptual: 0.5), verdict: .mismatched),
    RuleCase(name: "translucent both, within allowance", actualPixel: RGBA8(150, 100, 100), expectedWeight: 255, actualWeight: 255,
             verdict: .translucency),
    RuleCase(name: "translucent both, over allowance", actualPixel: RGBA8(165, 100, 100), expectedWeight: 255, actualWeight: 255,
             verdict: .mismatched),
    RuleCase(name: "half weight halves the allowance (32 of 64)", actualPixel: RGBA8(132, 100, 100), expectedWeight: 128, actualWeight: 128,
             verdict: .translucency),
    RuleCase(name: "half weight, 33 levels", actualPixel: RGBA8(133, 100, 100), expectedWeight: 128, actualWeight: 130,
             verdict: .mismatched),
    RuleCase(name: "opaque pixel gets no translucency allowance", actualPixel: RGBA8(101, 100, 100), expectedWeight: 0, actualWeight: 0,
             verdict: .mismatched),
    RuleCase(name: "a regression raising only the frame's weight gains nothing", actualPixel: RGBA8(110, 100, 100),
             expectedWeight: 0, actualWeight: 255, verdict: .mismatched),
    RuleCase(name: "no maps on one side: no translucency", actualPixel: RGBA8(110, 100, 100), expectedWeight: 255,
             verdict: .mismatched),
    RuleCase(name: "translucency 0 turns the rule off", actualPixel: RGBA8(101, 100, 100), tolerance: Tolerance(translucency: 0),
             expectedWeight: 255, actualWeight: 255, verdict: .mismatched),
    RuleCase(name: "inside the k-1...k+1 envelope", actualPixel: RGBA8(118, 118, 118), tolerance: Tolerance(temporal: true),
             neighbors: [RGBA8(90, 90, 90), RGBA8(120, 120, 120)], verdict: .timing),
    RuleCase(name: "outside the envelope", actualPixel: RGBA8(125, 125, 125), tolerance: Tolerance(temporal: true),
             neighbors: [RGBA8(90, 90, 90), RGBA8(120, 120, 120)], verdict: .mismatched),
    RuleCase(name: "envelope widened by channel", actualPixel: RGBA8(125, 125, 125), tolerance: Tolerance(channel: 5, temporal: true),
             neighbors: [RGBA8(90, 90, 90), RGBA8(120, 120, 120)], verdict: .timing),
    RuleCase(name: "a transparent frame showing the transparent neighbour, hidden colours differing", expectedPixel: RGBA8(255, 0, 0),
             actualPixel: RGBA8(255, 255, 255, 0), tolerance: Tolerance(temporal: true), neighbors: [RGBA8(0, 0, 0, 0)], verdict: .timing),
    RuleCase(name: "temporal off by default", actualPixel: RGBA8(118, 118, 118),
             neighbors: [RGBA8(90, 90, 90), RGBA8(120, 120, 120)], verdict: .mismatched),
    RuleCase(name: "ignored element", actualPixel: RGBA8(0, 0, 0), expectedElement: content, actualElement: content,
             elements: [content: .ignored], verdict: .ignored),
    RuleCase(name: "another element is not ignored", actualPixel: RGBA8(0, 0, 0), expectedElement: title, actualElement: title,
             elements: [content: .ignored], verdict: .mismatched),
    RuleCase(name: "title moved over ignored content: the stricter map wins", actualPixel: RGBA8(0, 0, 0),
             expectedElement: title, actualElement: content, elements: [content: .ignored], verdict: .mismatched),
    RuleCase(name: "element-level channel tolerance", actualPixel: RGBA8(104, 100, 100), expectedElement: title, actualElement: title,
             elements: [title: RuleOverride(channel: 4)], verdict: .equal),
    RuleCase(name: "ignored region", actualPixel: RGBA8(0, 0, 0),
             regions: [Region(rect: PixelRect(x: 1, y: 1, width: 2, height: 2), rule: .ignored)], verdict: .ignored),
    RuleCase(name: "region that does not cover the pixel", actualPixel: RGBA8(0, 0, 0),
             regions: [Region(rect: PixelRect(x: 0, y: 0, width: 2, height: 2), rule: .ignored)], verdict: .mismatched),
    RuleCase(name: "region overrides an ignored element", actualPixel: RGBA8(0, 0, 0), expectedElement: content, actualElement: content,
             elements: [content: .ignored], regions: [Region(rect: PixelRect(x: 2, y: 2, width: 1, height: 1), rule: RuleOverride(ignore: false))],
             verdict: .mismatched),
    RuleCase(name: "first rule wins: translucency before ignore", actualPixel: RGBA8(110, 100, 100), expectedWeight: 255, actualWeight: 255,
             expectedElement: content, actualElement: content, elements: [content: .ignored], verdict: .translucency),
]

extension RuleCase {
    init(name: String, actualPixel: RGBA8, expectedPixel_: RGBA8, tolerance: Tolerance, verdict: Verdict) {
        self.init(name: name, expectedPixel: expectedPixel_, actualPixel: actualPixel, tolerance: tolerance, verdict: verdict)
    }
}

func maps(_ w: Int, _ h: Int, weight: UInt8?, element: UInt8?) -> FrameMaps? {
    guard weight != nil || element != nil else { return nil }
    var t = weight.map { _ in [UInt8](repeating: 0, count: w * h) }
    var e = element.map { _ in [UInt8](repeating: 0, count: w * h) }
    t?[at.y * w + at.x] = weight ?? 0
    e?[at.y * w + at.x] = element ?? 0
    return FrameMaps(width: w, height: h, translucency: t, elements: e, elementNames: [content: "content", title: "title"])
}

@Suite("comparison rules")
struct RuleTests {
    @Test("each rule forgives exactly what it should", arguments: ruleCases)
    func rule(_ c: RuleCase) {
        let background = RGBA8(200, 200, 200)
        var expected = Image(width: 5, height: 5, fill: background)
        expected[at.x, at.y] = c.expectedPixel
        var actual = Image(width: 5, height: 5, fill: background)
        actual[at.x, at.y] = c.actualPixel
        let neighbors = c.neighbors.map { p -> Image in
            var n = Image(width: 5, height: 5, fill: background)
            n[at.x, at.y] = p
            return n
        }
        let input = ComparisonInput(expected: expected, actual: actual,
                                    expectedMaps: maps(5, 5, weight: c.expectedWeight, element: c.expectedElement),
                                    actualMaps: maps(5, 5, weight: c.actualWeight, element: c.actualElement),
                                    expectedNeighbors: neighbors)
        let settings = ComparisonSettings(tolerance: c.tolerance, elements: c.elements, regions: c.regions)
        let (result, diff) = ImageComparator(settings: settings).compare(input, diff: .classic)
        #expect(c.verdict.count(in: result.counts) == (c.verdict == .equal ? 25 : 1), "\(result.counts)")
        #expect(result.counts.total == 25)
        #expect(result.passed == (c.verdict != .mismatched))
        let color = diff!.image[at.x, at.y]
        switch c.verdict.rawValue {
        case "mismatched": #expect(color == RGBA8(255, 0, 0))
        case "translucency": #expect(color == DiffPalette.colors[Int(DiffPalette.translucency)])
        case "timing": #expect(color == DiffPalette.colors[Int(DiffPalette.timing)])
        case "ignored": #expect(color.r == color.g && color.r < 190)
        default: #expect(color.r == color.g && color.g == color.b && color.r >= 229)
        }
    }

    @Test("fully transparent pixels whose hidden channels differ are identical, in both metrics and on every path")
    func transparentPixels() {
        // Rows of transparent pixels with a different hidden colour in each image (runs and single
        // pixels), one visible difference, at perceptual 0 and with pixelmatch's metric.
        var expected = Image(width: 40, height: 3, fill: RGBA8(0, 0, 0, 0))
        var actual = Image(width: 40, height: 3, fill: RGBA8(255, 255, 255, 0))
        for x in stride(from: 0, to: 40, by: 3) { actual[x, 1] = RGBA8(UInt8(x), 7, 9, 0) }
        let clean = ImageComparator(settings: ComparisonSettings(tolerance: Tolerance(perceptual: 0))).compare(ComparisonInput(expected: expected, actual: actual)).0
        #expect(clean.counts.equal == 120 && clean.maxChannelDelta == 0 && clean.identical && clean.channelForgiven == 0, "\(clean)")
        expected[5, 2] = RGBA8(0, 0, 0, 255)
        for metric in [ComparisonSettings.Metric.navreel, .pixelmatch] {
            for tolerance in [Tolerance(perceptual: 0), Tolerance(channel: 4)] {
                let settings = ComparisonSettings(tolerance: tolerance, metric: metric)
                let r = ImageComparator(settings: settings, jobs: 1).compare(ComparisonInput(expected: expected, actual: actual)).0
                // (pixelmatch's metric has no channel rule: its equal pixels are those under the YIQ threshold.)
                let forgiven = metric == .navreel ? r.counts.equal : r.counts.equal + r.counts.perceptual
                #expect(r.counts.mismatched == 1 && forgiven == 119 && r.maxChannelDelta == 255, "\(metric) \(tolerance): \(r)")
            }
        }
        // Element maps send every pixel down the per-pixel rule path.
        let settings = ComparisonSettings(tolerance: Tolerance(perceptual: 0), elements: [1: RuleOverride(perceptual: 0.2)])
        let r = ImageComparator(settings: settings).compare(ComparisonInput(expected: expected, actual: actual,
                                                                           expectedMaps: maps(40, 3, weight: nil, element: 2),
                                                                           actualMaps: maps(40, 3, weight: nil, element: 2))).0
        #expect(r.counts.mismatched == 1 && r.counts.equal == 119, "\(r)")
    }

    @Test("anti-aliased edge: forgiven with detection on, a mismatch with it off")
    func antialiasing() throws {
        // A dark bar on white with a one-pixel anti-aliased column that moves.
        func frame(edge: Int) -> Image {
            var image = Image(width: 12, height: 8, fill: RGBA8(255, 255, 255))
            for y in 0..<8 {
                for x in 0..<edge { image[x, y] = RGBA8(0, 0, 0) }
                image[edge, y] = RGBA8(128, 128, 128)
            }
            return image
        }
        let input = ComparisonInput(expected: frame(edge: 5), actual: frame(edge: 6))
        let on = ImageComparator(settings: ComparisonSettings(tolerance: Tolerance(antialiasing: true))).compare(input).0
        let off = ImageComparator(settings: ComparisonSettings(tolerance: Tolerance(antialiasing: false))).compare(input).0
        #expect(on.counts.antialiasing > 0)
        #expect(off.counts.antialiasing == 0)
        #expect(off.counts.mismatched == on.counts.mismatched + on.counts.antialiasing)
        #expect(on.counts.mismatched < off.counts.mismatched)
    }

    struct BudgetCase: CustomTestStringConvertible, Sendable {
        let pixels: Int
        let ratio: Double
        let mismatches: Int
        let passes: Bool
        var testDescription: String { "\(mismatches) mismatches, maxDiffPixels \(pixels), maxDiffRatio \(ratio)" }
    }

    @Test("budgets", arguments: [
        BudgetCase(pixels: 0, ratio: 0, mismatches: 0, passes: true),
        BudgetCase(pixels: 0, ratio: 0, mismatches: 1, passes: false),
        BudgetCase(pixels: 3, ratio: 0, mismatches: 3, passes: true),
        BudgetCase(pixels: 3, ratio: 0, mismatches: 4, passes: false),
        BudgetCase(pixels: 0, ratio: 0.04, mismatches: 4, passes: true),   // 4% of 100 pixels
        BudgetCase(pixels: 0, ratio: 0.04, mismatches: 5, passes: false),
        BudgetCase(pixels: 10, ratio: 0.02, mismatches: 3, passes: false), // both set: either may fail it
        BudgetCase(pixels: 2, ratio: 0.5, mismatches: 3, passes: false),
    ])
    func budgets(_ c: BudgetCase) {
        let expected = Image(width: 10, height: 10, fill: RGBA8(1, 2, 3))
        var actual = expected
        for i in 0..<c.mismatches { actual[i, 0] = RGBA8(200, 2, 3) }
        let (result, _) = ImageComparator(settings: ComparisonSettings(tolerance: Tolerance(maxDiffPixels: c.pixels, maxDiffRatio: c.ratio)))
            .compare(ComparisonInput(expected: expected, actual: actual))
        #expect(result.counts.mismatched == c.mismatches)
        #expect(result.passed == c.passes)
    }

    @Test("a size change always fails and names both sizes, whatever the budget")
    func sizeChange() {
        let (result, diff) = ImageComparator(settings: ComparisonSettings(tolerance: Tolerance(maxDiffRatio: 1)))
            .compare(ComparisonInput(expected: Image(width: 390, height: 96), actual: Image(width: 390, height: 140)), diff: .classic)
        #expect(!result.passed)
        #expect(diff == nil)
        #expect(result.summary.contains("expected 390x96, actual 390x140"))
    }

    @Test("mismatches are attributed to elements with bounding boxes")
    func elementAttribution() {
        let w = 20, h = 10
        var elements = [UInt8](repeating: content, count: w * h)
        for y in 0..<4 { for x in 5..<15 { elements[y * w + x] = title } }
        let m = FrameMaps(width: w, height: h, elements: elements, elementNames: [content: "content", title: "title"])
        let expected = Image(width: w, height: h, fill: RGBA8(255, 255, 255))
        var actual = expected
        for (x, y) in [(6, 1), (8, 3), (12, 2), (1, 8), (19, 9)] { actual[x, y] = RGBA8(0, 0, 0) }
        let (result, _) = ImageComparator().compare(ComparisonInput(expected: expected, actual: actual, expectedMaps: m, actualMaps: m))
        #expect(result.elements.map(\.name) == ["title", "content"])
        #expect(result.elements[0].pixels == 3)
        #expect(result.elements[0].box == PixelRect(x: 6, y: 1, width: 7, height: 3))
        #expect(result.elements[1].box == PixelRect(x: 1, y: 8, width: 19, height: 2))
        #expect(result.mismatchBox == PixelRect(x: 1, y: 1, width: 19, height: 9))
        #expect(result.summary.contains("title 3"))
    }

    @Test("results and diff images do not depend on the number of threads")
    func deterministicAcrossJobs() {
        var expected = Image(width: 400, height: 300)
        var actual = Image(width: 400, height: 300)
        var seed: UInt64 = 7
        for i in 0..<expected.pixels.count {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            expected.pixels[i] = UInt8(truncatingIfNeeded: seed >> 33)
            actual.pixels[i] = (seed >> 20) % 7 == 0 ? UInt8(truncatingIfNeeded: seed >> 45) : expected.pixels[i]
        }
        let weights = (0..<(400 * 300)).map { UInt8(truncatingIfNeeded: $0 * 31) }
        let m = FrameMaps(width: 400, height: 300, translucency: weights, elements: weights.map { $0 % 4 },
                          elementNames: [0: "a", 1: "b", 2: "c", 3: "d"])
        let settings = ComparisonSettings(tolerance: Tolerance(channel: 2, perceptual: 0.05, antialiasing: true), elements: [3: .ignored])
        let input = ComparisonInput(expected: expected, actual: actual, expectedMaps: m, actualMaps: m)
        let (one, diffOne) = ImageComparator(settings: settings, jobs: 1).compare(input, diff: .heatmap)
        for jobs in [2, 3, 8] {
            let (many, diffMany) = ImageComparator(settings: settings, jobs: jobs).compare(input, diff: .heatmap)
            #expect(many == one)
            #expect(diffMany == diffOne)
        }
        #expect(one.counts.mismatched > 0 && one.counts.ignored > 0 && one.counts.translucency > 0 && one.counts.perceptual > 0)
    }

    @Test("identical images are equal everywhere and draw only faded grey")
    func identical() {
        let image = Image(width: 300, height: 300, fill: RGBA8(0, 122, 255))
        let (result, diff) = ImageComparator().compare(ComparisonInput(expected: image, actual: image), diff: .classic)
        #expect(result.identical)
        #expect(result.counts.equal == 90_000)
        #expect(Set(diff!.indices).count == 1)
        #expect(diff!.indices[0] < DiffPalette.dimmedBase)
    }

    @Test("frame maps round-trip and reject damage")
    func frameMapsSerialization() throws {
        let m = FrameMaps(width: 3, height: 2, translucency: [0, 1, 2, 3, 4, 255], elements: [1, 1, 2, 2, 3, 3],
                          elementNames: [1: "status bar", 2: "title", 3: "content — ü"])
        #expect(try FrameMaps(serialized: m.serialized(), maxPixels: 1 << 20) == m)
        let bare = FrameMaps(width: 3, height: 2)
        #expect(try FrameMaps(serialized: bare.serialized(), maxPixels: 1 << 20) == bare)
        var bytes = m.serialized()
        #expect(throws: FrameMaps.DecodeError.self) { try FrameMaps(serialized: Array(bytes.dropLast()), maxPixels: 1 << 20) }
        #expect(throws: FrameMaps.DecodeError.self) { try FrameMaps(serialized: bytes + [0], maxPixels: 1 << 20) }
        bytes[0] = 0
        #expect(throws: FrameMaps.DecodeError.self) { try FrameMaps(serialized: bytes, maxPixels: 1 << 20) }
        #expect(throws: FrameMaps.DecodeError.self) { try FrameMaps(serialized: Array("NRM1".utf8) + [255, 255, 255, 255, 255, 255, 255, 255, 1, 0, 0], maxPixels: 1 << 20) }
        // The layout before baseline format 4 still reads, to the same maps.
        #expect(Array(m.serializedV1().prefix(4)) == Array("NRM1".utf8))
        #expect(try FrameMaps(serialized: m.serializedV1(), maxPixels: 1 << 20) == m)
        #expect(try FrameMaps(serialized: bare.serializedV1(), maxPixels: 1 << 20) == bare)
        #expect(try FrameMaps.checked(serialized: m.serializedV1(), maxPixels: 1 << 20) == (3, 2))
        #expect(throws: FrameMaps.DecodeError.self) { try FrameMaps.checked(serialized: Array(m.serializedV1().dropLast()), maxPixels: 1 << 20) }
    }

    /// NRM2 rows of every kind: repeated, runs (long ones need several varint bytes), raw; widths
    /// below and above what a run row can use; planes that are one value, noise, or bands.
    @Test("NRM2 maps round-trip rows repeated, run and raw, and are far smaller than NRM1 on bar-like planes")
    func frameMapsRows() throws {
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 { seed &+= 0x9E3779B97F4A7C15; var z = seed; z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) &* 0x94D049BB133111EB; return z ^ (z >> 31) }
        for width in [0, 1, 2, 10, 11, 12, 40, 200, 1170] {
            for height in [0, 1, 3, 17] {
                var t = [UInt8](repeating: 0, count: width * height), e = t
                for y in 0..<height {
                    let kind = next() % 4
                    for x in 0..<width {
                        let i = y * width + x
                        switch kind {
                        case 0 where y > 0: t[i] = t[i - width]; e[i] = e[i - width]            // repeated
                        case 1: t[i] = x < width / 3 ? 0 : 200; e[i] = UInt8(x * 4 / max(width, 1))  // runs
                        case 2: t[i] = UInt8(truncatingIfNeeded: next()); e[i] = UInt8(next() % 3)   // noise
                        default: t[i] = 255; e[i] = 7                                            // one value
                        }
                    }
                }
                let maps = FrameMaps(width: width, height: height, translucency: t, elements: e, elementNames: [7: "bar"])
                let bytes = maps.serialized()
                #expect(Array(bytes.prefix(4)) == Array("NRM2".utf8))
                #expect(try FrameMaps(serialized: bytes, maxPixels: 1 << 20) == maps, "\(width)x\(height)")
                #expect(try FrameMaps(serialized: bytes, maxPixels: width * height) == maps)
                // Checked without planes: the size they declare.
                #expect(try FrameMaps.checked(serialized: bytes, maxPixels: width * height) == (width, height))
                // Read back, a row that repeats the row above shares its values: the planes hold
                // only the rows that differ from the row above (issue 17).
                let changedRows = (0..<height).filter { y in y == 0 || width == 0 || t[y * width..<(y + 1) * width] != t[(y - 1) * width..<y * width] }.count
                let read = try FrameMaps(serialized: bytes, maxPixels: width * height)
                #expect(read.translucencyRows?.pool.count == width * changedRows, "\(width)x\(height)")
                #expect(read.translucencyRows?.height == height && read.elementRows?.height == height)
                // Never more than one tag byte a row over the planes themselves.
                #expect(bytes.count <= maps.serializedV1().count + 2 * height)
            }
        }
        // A 3x bar: 1170 wide, a run of one element and one weight a row, most rows repeated.
        let (w, h) = (1170, 300)
        let bar = FrameMaps(width: w, height: h, translucency: (0..<w * h).map { $0 / w < 140 ? 191 : 0 },
                            elements: (0..<w * h).map { i in i / w < 140 ? (i % w < 100 ? 3 : 2) : 1 })
        #expect(bar.serialized().count * 100 < bar.serializedV1().count, "\(bar.serialized().count) bytes")
        #expect(try FrameMaps(serialized: bar.serialized(), maxPixels: 1 << 20) == bar)
    }

    @Test("maps read from a file (rows shared) judge every pixel as the maps they were written from, one rule or per pixel")
    func sharedRowsJudgeAlike() throws {
        let (w, h) = (97, 61)
        var seed: UInt64 = 42
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        // Bands of weight and element, a few rows of noise (raw rows), the rest repeated.
        var t = [UInt8](repeating: 0, count: w * h), e = t
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                if y % 13 == 5 { t[i] = UInt8(next() % 256); e[i] = UInt8(next() % 4) }
                else { t[i] = y < 20 ? 200 : (x < 30 ? 90 : 0); e[i] = y < 20 ? (x < 40 ? 1 : 2) : 3 }
            }
        }
        let inMemory = FrameMaps(width: w, height: h, translucency: t, elements: e, elementNames: [1: "title", 2: "bar", 3: "content"])
        let read = try FrameMaps(serialized: inMemory.serialized(), maxPixels: w * h)
        #expect(read.translucencyRows?.starts != nil && read.translucencyRows!.pool.count < w * h / 2)
        var expected = Image(width: w, height: h, fill: RGBA8(240, 240, 240)), actual = expected
        for y in 0..<h {
            for x in 0..<w {
                let k = next() % 10
                expected[x, y] = x % 7 == 0 ? RGBA8(30, 30, 30) : RGBA8(240, 240, 240)
                actual[x, y] = k < 4 ? expected[x, y] : RGBA8(UInt8(200 + k * 5), UInt8(240 - k * 9), 240)
            }
        }
        let oneRule = ComparisonSettings(tolerance: Tolerance(perceptual: 0.02, antialiasing: true, translucency: 40))
        let perPixel = ComparisonSettings(tolerance: Tolerance(perceptual: 0.02, antialiasing: true, translucency: 40),
                                          elements: [2: RuleOverride(channel: 30)])
        for settings in [oneRule, perPixel] {
            for jobs in [1, 2] {
                var comparator = ImageComparator(settings: settings, jobs: jobs)
                comparator.parallelThreshold = .zero
                let (a, da) = comparator.compare(ComparisonInput(expected: expected, actual: actual, expectedMaps: inMemory, actualMaps: inMemory), diff: .classic)
                let (b, db) = comparator.compare(ComparisonInput(expected: expected, actual: actual, expectedMaps: read, actualMaps: read), diff: .classic)
                #expect(a == b)
                let sameDiffImage = da == db   // (a Bool: a failure prints no pixel arrays)
                #expect(sameDiffImage)
                // The maps decide something here: weights forgive, elements are named.
                #expect(a.counts.translucency > 0 && a.counts.mismatched > 0 && a.elements.count >= 3, "\(a.counts)")
            }
        }
    }

    @Test("damaged NRM2 maps are errors naming what is wrong, and a header cannot declare more pixels than allowed")
    func frameMapsRowsDamage() throws {
        let m = FrameMaps(width: 20, height: 3, translucency: [UInt8](repeating: 9, count: 60),
                          elements: (0..<60).map { UInt8($0 % 20 < 5 ? 1 : 2) }, elementNames: [1: "a"])
        let good = m.serialized()
        let header = 4 + 4 + 4 + 1 + 2 + 1 + 2 + 1   // magic, size, flags, one name "a"
        #expect(good[header] == 1 && good[header + 3] == 0 && good[header + 4] == 0, "runs, then repeated rows")
        func fails(_ bytes: [UInt8], _ words: String, maxPixels: Int = 1 << 28, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(sourceLocation: sourceLocation) { try FrameMaps(serialized: bytes, maxPixels: maxPixels) } throws: { "\($0)".contains(words) }
            // Checking without planes refuses the same damage with the same words.
            #expect(sourceLocation: sourceLocation) { try FrameMaps.checked(serialized: bytes, maxPixels: maxPixels) } throws: { "\($0)".contains(words) }
        }
        for cut in [header, header + 1, header + 2, good.count - 1] { fails(Array(good.prefix(cut)), "ends early") }
        fails(good + [0], "trailing")
        var bad = good
        bad[header] = 0
        fails(bad, "first row repeats")
        bad = good
        bad[header] = 5
        fails(bad, "unknown row tag 5")
        bad = good
        bad[header + 2] = 40   // a run of 41 in a row of 20
        fails(bad, "overruns row 0")
        bad = good
        bad[header + 2] = 0x80 | 1   // a varint that goes on past the data
        fails(Array(bad.prefix(header + 3)), "ends early in row 0")
        // a varint of ten continuation bytes: more than any length
        fails(Array(good.prefix(header + 2)) + [UInt8](repeating: 0xFF, count: 10) + [1], "bad run length in row 0")
        bad = good
        bad[12] = 0x80   // an unknown plane flag
        fails(bad, "unknown plane flags")
        // 65535 x 65535 in a few bytes: refused before anything is allocated.
        let huge = Array("NRM2".utf8) + [0, 0, 255, 255, 0, 0, 255, 255, 1, 0, 0, 1, 255, 255, 255, 255, 15]
        fails(huge, "more than the 400 pixels", maxPixels: 400)
        fails(good, "more than the 59 pixels", maxPixels: 59)
        #expect(try FrameMaps(serialized: good, maxPixels: 60) == m)
    }
}

/// `ImageComparator.identical` stands for a comparison of a file with itself that `PairDiff` no
/// longer runs (issue 17): it must give what `compare` gives for the same pixels twice, under
/// every kind of rule, budget and metric.
@Suite("identical images without reading them")
struct IdenticalComparisonTests {
    @Test("identical(width:height:) is compare's result for an image compared with itself")
    func sameAsCompare() {
        let w = 37, h = 23
        var image = Image(width: w, height: h, fill: RGBA8(250, 250, 252))
        var seed: UInt32 = 7
        for y in 0..<h {
            for x in 0..<w where (x + y) % 3 != 0 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                image[x, y] = RGBA8(UInt8(truncatingIfNeeded: seed >> 24), UInt8(x * 6), UInt8(y * 11), UInt8(128 + (x % 2) * 127))
            }
        }
        let maps = FrameMaps(width: w, height: h, translucency: (0..<w * h).map { $0 / w < 10 ? 191 : 0 },
                             elements: (0..<w * h).map { UInt8($0 / w < 10 ? 2 : 1) }, elementNames: [1: "content", 2: "bar"])
        let settings: [ComparisonSettings] = [
            ComparisonSettings(),
            ComparisonSettings(tolerance: .captured),
            ComparisonSettings(tolerance: .captured, metric: .pixelmatch),
            ComparisonSettings(tolerance: Tolerance(channel: 3, maxDiffPixels: 5)),
            ComparisonSettings(tolerance: Tolerance(maxDiffRatio: 0.25)),
            ComparisonSettings(tolerance: Tolerance(maxDiffPixels: 40, maxDiffRatio: 0.01)),
            ComparisonSettings(elements: [2: .ignored, 1: RuleOverride(channel: 9)]),
            ComparisonSettings(regions: [Region(rect: PixelRect(x: 3, y: 2, width: 10, height: 9), rule: .ignored)]),
        ]
        for (k, s) in settings.enumerated() {
            for withMaps in [false, true] {
                for jobs in [1, 2] {
                    let comparator = ImageComparator(settings: s, jobs: jobs)
                    let (full, _) = comparator.compare(ComparisonInput(expected: image, actual: image,
                                                                       expectedMaps: withMaps ? maps : nil, actualMaps: withMaps ? maps : nil))
                    let quick = comparator.identical(width: w, height: h)
                    #expect(quick == full, "settings \(k), maps \(withMaps), jobs \(jobs)")
                    #expect(quick.channelForgiven == full.channelForgiven && quick.identical && quick.passed, "settings \(k)")
                }
            }
        }
        // The budget is the settings' own, so it differs between them.
        #expect(ImageComparator(settings: settings[4]).identical(width: w, height: h).allowedMismatches == w * h / 4)
    }
}
