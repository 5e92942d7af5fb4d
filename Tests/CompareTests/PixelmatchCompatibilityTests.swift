import Foundation
import Testing
import Raster
@testable import Compare

/// Counts recorded from the PyPI `pixelmatch` package by scripts/pixelmatch-fixtures.py.
struct PixelmatchCase: Decodable, CustomTestStringConvertible, Sendable {
    let pair: String
    let threshold: Double
    let includeAA: Bool
    let mismatched: Int
    var testDescription: String { "\(pair) threshold \(threshold) includeAA \(includeAA)" }
}

let pixelmatchFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/pixelmatch")

let pixelmatchCases: [PixelmatchCase] = {
    let data = try! Data(contentsOf: pixelmatchFixtures.appendingPathComponent("expected.json"))
    return try! JSONDecoder().decode([PixelmatchCase].self, from: data)
}()

@Suite("--metric pixelmatch")
struct PixelmatchCompatibilityTests {
    @Test("counts exactly what pixelmatch counts", arguments: pixelmatchCases)
    func sameCount(_ c: PixelmatchCase) throws {
        let a = try PNG.read(path: pixelmatchFixtures.appendingPathComponent("\(c.pair)-a.png").path).image
        let b = try PNG.read(path: pixelmatchFixtures.appendingPathComponent("\(c.pair)-b.png").path).image
        let settings = ComparisonSettings(tolerance: Tolerance(perceptual: c.threshold, antialiasing: !c.includeAA),
                                          metric: .pixelmatch)
        for jobs in [1, 3] {
            let (result, _) = ImageComparator(settings: settings, jobs: jobs).compare(ComparisonInput(expected: a, actual: b))
            #expect(result.counts.mismatched == c.mismatched, "jobs \(jobs)")
            #expect(result.counts.total == a.pixelCount)
            if c.includeAA { #expect(result.counts.antialiasing == 0) }
        }
    }

    @Test("the fixtures exercise anti-aliasing detection and thresholds")
    func fixturesAreMeaningful() {
        // Guard against a fixture set that would pass a naive implementation.
        let aaMatters = pixelmatchCases.contains { c in
            !c.includeAA && pixelmatchCases.contains { $0.pair == c.pair && $0.threshold == c.threshold && $0.includeAA && $0.mismatched != c.mismatched }
        }
        #expect(aaMatters)
        #expect(Set(pixelmatchCases.map(\.mismatched)).count > 20)
    }
}
