import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Throughput of the canvas's primitives, for `navreel bench canvas`.
public enum CanvasBenchmark {
    public struct Figure: Sendable {
        public var name: String
        public var megapixels: Double
        public var seconds: Double
        public var megapixelsPerSecond: Double { megapixels / seconds }
    }

    static func time(_ repeats: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = clock.now
            body()
            let d = clock.now - start
            best = min(best, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        return best
    }

    public static func run(repeats: Int = 5) throws -> [Figure] {
        var out: [Figure] = []
        let w = 1170, h = 2532
        let fullMP = Double(w * h) / 1e6
        out.append(Figure(name: "solid fill, 1170x2532, fractional edges", megapixels: fullMP, seconds: time(repeats) {
            let c = Canvas(width: w, height: h, scale: 3, background: RGBA8(255, 255, 255))
            c.fill(Rect(x: 0.2, y: 0.3, width: 389.5, height: 843.4), .solid(RGBA8(239, 239, 244)), element: 1)
        }))
        out.append(Figure(name: "linear gradient, 1170x2532", megapixels: fullMP, seconds: time(repeats) {
            let c = Canvas(width: w, height: h, scale: 3)
            c.fill(Rect(x: 0, y: 0, width: 390, height: 844), .linearGradient(LinearGradient(start: Point(0, 0), end: Point(390, 0),
                   colors: [RGBA8(0, 255, 0), RGBA8(0, 0, 255)])), element: 3)
        }))
        // The bar area of an iPhone at 3x with the light material: sigma 30 pt = 90 px.
        let tiles = Canvas(width: 1170, height: 900, scale: 3, background: RGBA8(255, 255, 255))
        for y in 0..<15 { for x in 0..<20 {
            tiles.fill(Rect(x: Double(x) * 20, y: Double(y) * 20, width: 18, height: 18),
                       .solid(RGBA8(UInt8(x * 12), UInt8(y * 16), 200)), element: 1)
        } }
        let barMP = 1170.0 * 300 / 1e6
        out.append(Figure(name: "backdrop blur 1170x300 px, sigma 90 px, saturation 1.8", megapixels: barMP, seconds: time(repeats) {
            tiles.group(alpha: 1) { tiles.backdrop(Rect(x: 0, y: 0, width: 390, height: 100), sigma: 30, saturation: 1.8, element: 3) }
        }))
        let fonts = try FontSet.discover()
        let textMP = 1170.0 * 132 / 1e6
        out.append(Figure(name: "text: 40 titles of 17 pt semibold in a 1170x132 band", megapixels: textMP, seconds: time(repeats) {
            let c = Canvas(width: 1170, height: 132, scale: 3, background: RGBA8(247, 247, 247))
            for i in 0..<40 {
                c.text("Favorites", font: fonts.semibold, size: 17, color: RGBA8(0, 0, 0), x: Double(i % 4) * 95, centerY: 22,
                       element: 5)
            }
        }))
        return out
    }
}

/// Frames per second of the painter, for `navreel bench paint`: a busy transition (split
/// translucent bars over tiles and rows, status bar, items) on iPhone 14 at 3x, full screen.
public enum PaintBenchmark {
    public static let scenario = """
    devices: [iphone-14]
    fps: 30
    screens:
      me: {title: Me, bar: {style: black}, content: {tiles: 40}, rightItems: [Edit]}
      favorites: {title: Favorites, largeTitle: true, content: {rows: 30}, bar: {color: "#FFFFFFCC"}, rightItems: [Add, Edit]}
    steps:
      - show: me
      - push: favorites
      - scroll: {to: 120, duration: 0.5}
      - swipeBack: {to: 0.6, duration: 0.5, release: cancel}
    """

    /// Renders every frame once with `jobs` workers; returns (frames, seconds).
    public static func run(jobs: Int) throws -> (Int, Double) {
        let s = try ScenarioParser.parse(yaml: scenario, file: "bench.yaml", defaultName: "bench", fixturesRoot: nil).get()
        let renderer = try FrameRenderer(fixturesRoot: "/nonexistent")
        let job = renderer.jobs(for: s)[0]
        let clock = ContinuousClock()
        let start = clock.now
        var failure: Error?
        let lock = NSLock()
        Parallel.forEach(job.frameCount, workers: jobs) { k in
            do { _ = try renderer.render(job, frame: k) } catch { lock.lock(); failure = error; lock.unlock() }
        }
        if let failure { throw failure }
        let d = clock.now - start
        return (job.frameCount, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
}
