import Testing
@testable import Compare
@testable import Raster

/// Adaptive chunking (issue 17): bands handed out one at a time, threads only for work worth
/// them. Whatever runs where, the counts, boxes, elements and diff images are those of one thread.
@Suite("adaptive parallel comparison")
struct AdaptiveParallelTests {
    static func pair(width: Int, height: Int, seed start: UInt64) -> ComparisonInput {
        var expected = Image(width: width, height: height, fill: RGBA8(250, 250, 250))
        var actual = expected
        var seed = start
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                // Text-like strokes in both, differences in a third of the rows, flat elsewhere.
                if (x / 3 + y / 5) % 11 == 0 { expected[x, y] = RGBA8(20, 20, 20) ; actual[x, y] = RGBA8(20, 20, 20) }
                if y % 3 == 0 && (seed >> 40) % 5 == 0 {
                    actual[x, y] = RGBA8(UInt8(truncatingIfNeeded: seed >> 20), UInt8(truncatingIfNeeded: seed >> 28), 90)
                }
            }
        }
        let elements = (0..<(width * height)).map { UInt8(($0 / width) * 4 / height) }
        let m = FrameMaps(width: width, height: height, translucency: elements.map { $0 &* 60 }, elements: elements,
                          elementNames: [0: "bar", 1: "title", 2: "content", 3: "tab"])
        return ComparisonInput(expected: expected, actual: actual, expectedMaps: m, actualMaps: m)
    }

    @Test("the same result and diff image for 1, 2, 3 and 8 jobs, threaded or not, small to several bands",
          arguments: [(1, 1), (7, 300), (256, 257), (1170, 230), (700, 600)])
    func sameAsOneThread(_ size: (Int, Int)) {
        let input = Self.pair(width: size.0, height: size.1, seed: UInt64(size.0 * 31 + size.1))
        for settings in [ComparisonSettings(tolerance: Tolerance(perceptual: 0.1, antialiasing: true)),
                         ComparisonSettings(tolerance: Tolerance(channel: 3, perceptual: 0.05, antialiasing: true), elements: [3: .ignored]),
                         ComparisonSettings(metric: .pixelmatch)] {
            var one = ImageComparator(settings: settings, jobs: 1)
            one.parallelThreshold = .zero
            let (r1, d1) = one.compare(input, diff: .classic)
            for jobs in [2, 3, 8] {
                for threshold: Duration in [.zero, .milliseconds(4), .seconds(100)] {
                    var c = ImageComparator(settings: settings, jobs: jobs)
                    c.parallelThreshold = threshold
                    let (r, d) = c.compare(input, diff: .classic)
                    #expect(r == r1, "\(size) jobs \(jobs) threshold \(threshold)")
                    #expect(d == d1, "\(size) jobs \(jobs) threshold \(threshold)")
                }
            }
        }
    }

    @Test("every band runs exactly once, on one thread or several")
    func everyIndexOnce() {
        for count in [1, 2, 7, 100] {
            for workers in [1, 2, 8] {
                for threshold: Duration in [.zero, .seconds(100)] {
                    var seen = [Int](repeating: 0, count: count)
                    seen.withUnsafeMutableBufferPointer { buffer in
                        let base = UncheckedPointer(buffer.baseAddress!)
                        Parallel.forEachAdaptive(count, workers: workers, threshold: threshold) { i in base.pointer[i] += 1 }
                    }
                    #expect(seen == [Int](repeating: 1, count: count), "\(count) over \(workers), threshold \(threshold)")
                }
            }
        }
    }
}

private struct UncheckedPointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
    init(_ pointer: UnsafeMutablePointer<Int>) { self.pointer = pointer }
}
