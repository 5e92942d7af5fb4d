import Testing
@testable import Compare
import Raster

/// Pixels that repeat the pair of colours to their left take its verdict without deciding
/// again where it cannot differ (issue 17: on two different frames 95 % of the differing pixels
/// do). Whatever the rules, the result and the diff image must be those of deciding every pixel.
@Suite("runs of equal pixel pairs")
struct PixelRunTests {
    /// A UI-like pair: flat rectangles of a few colours (one translucent), one-pixel strokes and
    /// lone pixels; the actual frame moves some shapes, recolours a block flat and adds noise, so
    /// there are long runs of the same differing pair bounded by edges, stripes one or two pixels
    /// high (runs whose neighbours above or below differ) and pixels on every border.
    static func pair(width: Int, height: Int, seed start: UInt64) -> ComparisonInput {
        var seed = start
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let palette = [RGBA8(255, 255, 255), RGBA8(20, 20, 24), RGBA8(0, 122, 255), RGBA8(242, 242, 247),
                       RGBA8(250, 80, 60, 128), RGBA8(21, 20, 24)]
        var expected = Image(width: width, height: height, fill: palette[next(palette.count)])
        var actual = expected
        func rect(_ image: inout Image, _ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ c: RGBA8) {
            for y in max(0, y0)..<min(height, y0 + h) where y0 + h > 0 {
                for x in max(0, x0)..<min(width, x0 + w) where x0 + w > 0 { image[x, y] = c }
            }
        }
        for _ in 0..<(4 + width * height / 400) {
            let x = next(width), y = next(height), w = 1 + next(max(1, width / 2)), h = 1 + next(max(1, height / 3))
            let c = palette[next(palette.count)]
            let dx = next(3) - 1, dy = next(3) - 1
            rect(&expected, x, y, w, h, c)
            rect(&actual, x + dx, y + dy, w, h, c)
        }
        // A flat block recoloured, a stroke one pixel high and one two pixels high, in the actual frame.
        rect(&actual, next(width), next(height), 1 + next(width), 1 + next(height), palette[next(palette.count)])
        rect(&actual, 0, next(height), width, 1, palette[next(palette.count)])
        rect(&actual, next(width), next(height), width, 2, palette[next(palette.count)])
        for _ in 0..<(width * height / 50) {
            let x = next(width), y = next(height)
            actual[x, y] = RGBA8(UInt8(next(256)), UInt8(next(256)), UInt8(next(256)), next(4) == 0 ? UInt8(next(256)) : 255)
        }
        let elements = (0..<(width * height)).map { UInt8(($0 % width) * 3 / max(1, width) + ($0 / width) % 2) }
        let m = FrameMaps(width: width, height: height, translucency: elements.map { $0 &* 70 }, elements: elements,
                          elementNames: [0: "bar", 1: "title", 2: "content", 3: "tab"])
        return ComparisonInput(expected: expected, actual: actual, expectedMaps: m, actualMaps: m,
                               expectedNeighbors: [actual, expected])
    }

    static let settings: [ComparisonSettings] = [
        ComparisonSettings(tolerance: Tolerance(perceptual: 0.1, antialiasing: true, translucency: 0)),
        ComparisonSettings(tolerance: Tolerance(perceptual: 0.1, antialiasing: false, translucency: 0)),
        ComparisonSettings(tolerance: Tolerance(channel: 3, perceptual: 0, antialiasing: true, translucency: 0)),
        ComparisonSettings(tolerance: Tolerance(channel: 2, perceptual: 0.05, antialiasing: true, translucency: 40)),
        ComparisonSettings(tolerance: Tolerance(perceptual: 0.1, antialiasing: true, translucency: 0, temporal: true)),
        ComparisonSettings(metric: .pixelmatch),
        ComparisonSettings(tolerance: Tolerance(perceptual: 0.1, antialiasing: true, translucency: 0), elements: [2: .ignored]),
    ]

    @Test("the same counts, boxes, elements and diff images as deciding every pixel",
          arguments: [(1, 1), (2, 3), (3, 2), (5, 200), (64, 64), (300, 120), (390, 90)])
    func sameAsEveryPixel(_ size: (Int, Int)) {
        var mismatchedRuns = 0
        for seed in 0..<4 {
            let input = Self.pair(width: size.0, height: size.1, seed: UInt64(size.0 * 1009 + size.1 * 31 + seed))
            for settings in Self.settings {
                for style in [DiffStyle.classic, .heatmap] {
                    var plain = ImageComparator(settings: settings, jobs: 1)
                    plain.pixelRuns = false
                    let (r0, d0) = plain.compare(input, diff: style)
                    let (r1, d1) = ImageComparator(settings: settings, jobs: 1).compare(input, diff: style)
                    #expect(r1 == r0, "\(size) seed \(seed) \(settings.tolerance) \(settings.metric) \(style)")
                    // Not part of ==: the pixels forgiven by the channel rule, which the summary prints.
                    #expect(r1.channelForgiven == r0.channelForgiven && r1.summary == r0.summary, "\(size) seed \(seed)")
                    #expect(d1 == d0, "\(size) seed \(seed) \(settings.tolerance) \(settings.metric) \(style)")
                    let (r2, _) = ImageComparator(settings: settings, jobs: 1).compare(input)
                    #expect(r2 == r0, "\(size) seed \(seed) without a diff image")
                    mismatchedRuns += r0.counts.mismatched
                }
            }
        }
        // The pairs do differ (so runs of differing pixels were taken), except a 1x1 image may not.
        if size.0 * size.1 > 6 { #expect(mismatchedRuns > 0) }
    }

    @Test("a long run of one differing pair is decided once and counted whole")
    func flatBlock() {
        // Light against dark: every pixel differs, none is anti-aliased (all neighbours equal).
        let expected = Image(width: 200, height: 50, fill: RGBA8(255, 255, 255))
        let actual = Image(width: 200, height: 50, fill: RGBA8(0, 0, 0))
        let (r, d) = ImageComparator(settings: ComparisonSettings(tolerance: Tolerance(perceptual: 0.1, antialiasing: true)), jobs: 1)
            .compare(ComparisonInput(expected: expected, actual: actual), diff: .classic)
        #expect(r.counts.mismatched == 10_000)
        #expect(r.mismatchBox == PixelRect(x: 0, y: 0, width: 200, height: 50))
        #expect(d?.indices.allSatisfy { $0 == DiffPalette.mismatch } == true)
    }
}
