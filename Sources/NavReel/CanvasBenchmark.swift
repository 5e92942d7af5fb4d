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

/// Frames per second of the painter, for `navreel bench paint` (issue 17): the bundled
/// `bar-techniques` scenario (opaque, translucent over tiles, image, overlay and hairline bars,
/// six pushes and three scrolls) drawn full screen on iPhone 14 at 3x (1170 x 2532), and a busy
/// split swipe-back. Each frame's CPU time is measured on its own thread, so the per-frame
/// figure does not depend on how many cores run.
public enum PaintBenchmark {
    /// Used when the bundled file is not found (run outside the repository).
    public static let fallback = """
    devices: [iphone-14]
    screens:
      opaque: {title: Opaque, bar: {color: "#FF9500", translucent: false, titleColor: "#FFFFFF", tintColor: "#FFFFFF"}, content: {rows: 10}}
      translucent: {title: Translucent, bar: {color: "#F8F8F8CC", material: light}, content: {tiles: 24}}
      overlay: {title: Overlay, bar: {color: "#5856D699", material: light, titleColor: "#FFFFFF", style: black}, content: {tiles: 24}}
    steps:
      - show: opaque
      - push: translucent
      - scroll: {to: 120, duration: 0.4}
      - push: overlay
    """

    public static let busy = """
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

    public struct Result: Sendable {
        public var name: String
        public var frames: Int
        public var wallSeconds: Double
        /// CPU time of the whole process over the run (every thread, user and system).
        public var cpuSeconds: Double
        public var framesPerSecond: Double { Double(frames) / wallSeconds }
        public var cpuMillisecondsPerFrame: Double { cpuSeconds / Double(frames) * 1000 }
    }

    /// The scenarios measured: (name, YAML, fixtures root).
    public static func scenarios(fixtures: String = "Fixtures") -> [(String, String, String)] {
        let file = fixtures + "/scenarios/bar-techniques.yaml"
        var out: [(String, String, String)] = []
        if let yaml = try? String(contentsOfFile: file, encoding: .utf8) {
            out.append(("bar-techniques", yaml, fixtures))
        } else {
            out.append(("bar-techniques-lite", fallback, "/nonexistent"))
        }
        out.append(("busy-swipe-back", busy, "/nonexistent"))
        return out
    }

    /// Renders every frame of `yaml`, full screen on iPhone 14 at 3x, `passes` times with `jobs`
    /// workers.
    public static func run(name: String, yaml: String, fixtures: String, jobs: Int, passes: Int = 1, frames: Int? = nil) throws -> Result {
        var s = try ScenarioParser.parse(yaml: yaml, file: name + ".yaml", defaultName: name, fixturesRoot: fixtures).get()
        s.scale = 3
        s.capture = .full
        let renderer = try FrameRenderer(fixturesRoot: fixtures)
        let job = renderer.jobs(for: s, devices: ["iphone-14"])[0]
        // One frame first, so that assets and fonts are loaded before the clock starts.
        _ = try renderer.render(job, frame: 0)
        let n = max(1, min(job.frameCount, frames ?? job.frameCount))
        var failure: Error?
        let lock = NSLock()
        let clock = ContinuousClock()
        let cpu0 = processCPUSeconds()
        let start = clock.now
        Parallel.forEach(n * passes, workers: jobs) { k in
            do { _ = try renderer.render(job, frame: k % n) } catch { lock.lock(); failure = error; lock.unlock() }
        }
        let d = clock.now - start
        let cpu = processCPUSeconds() - cpu0
        if let failure { throw failure }
        return Result(name: name, frames: n * passes, wallSeconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18,
                      cpuSeconds: cpu)
    }

    public static func processCPUSeconds() -> Double { ProcessUsage.now().cpuSeconds }
}

/// This process's resource usage (getrusage), for the benchmarks.
public struct ProcessUsage: Sendable {
    /// User plus system CPU time of every thread.
    public var cpuSeconds: Double
    /// Peak resident set size in bytes (Linux counts KiB, macOS bytes).
    public var peakRSSBytes: Int

    public static func now() -> ProcessUsage {
        var u = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &u)
        let peak = Int(u.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &u)
        let peak = Int(u.ru_maxrss)
        #endif
        let cpu = Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
        return ProcessUsage(cpuSeconds: cpu, peakRSSBytes: peak)
    }
}
