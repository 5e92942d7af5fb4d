import Foundation
import Testing
@testable import NavReel
import Scenario

/// Issue 16: every number of a scenario, fed extreme values, gives a lint error or a scenario
/// that renders; nothing traps.
@Suite("scenario numbers at their extremes")
struct ScenarioExtremesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static let base = """
    devices: [iphone-se]
    scale: 1
    capture: bar
    screens:
      a: {title: A}
      b: {title: B}
    steps:
      - show: a
      - push: b

    """

    /// One scenario per numeric key, `X` standing for the value.
    static let templates: [(key: String, yaml: String)] = [
        ("scale", base.replacingOccurrences(of: "scale: 1", with: "scale: X")),
        ("fps", base + "fps: X\n"),
        ("device width", base.replacingOccurrences(of: "[iphone-se]", with: "[{name: d, width: X, height: 600, scale: 1, statusBar: 20}]")),
        ("device height", base.replacingOccurrences(of: "[iphone-se]", with: "[{name: d, width: 300, height: X, scale: 1, statusBar: 20}]")),
        ("device scale", base.replacingOccurrences(of: "[iphone-se]", with: "[{name: d, width: 300, height: 600, scale: X, statusBar: 20}]")),
        ("device statusBar", base.replacingOccurrences(of: "[iphone-se]", with: "[{name: d, width: 300, height: 600, scale: 1, statusBar: X}]")),
        ("timing duration", base + "timing: {push: {duration: X}}\n"),
        ("curve x1", base + "timing: {push: {curve: [X, 0, 1, 1]}}\n"),
        ("curve y1", base + "timing: {push: {curve: [0, X, 1, 1]}}\n"),
        ("curve x2", base + "timing: {push: {curve: [0, 0, X, 1]}}\n"),
        ("curve y2", base + "timing: {push: {curve: [0, 0, 1, X]}}\n"),
        ("curve y1 and y2", base + "timing: {push: {curve: [0, X, 1, -X]}}\n"),
        ("step duration", base + "  - pop: {duration: X}\n"),
        ("step curve", base + "  - pop: {curve: [0.5, X, 0.5, 1]}\n"),
        ("wait", base + "  - wait: X\n"),
        ("scroll to", base + "  - scroll: {to: X}\n"),
        ("swipeBack to", base + "  - swipeBack: {to: X}\n"),
        ("setBar alpha", base + "  - setBar: {alpha: X}\n"),
        ("bar alpha", base.replacingOccurrences(of: "b: {title: B}", with: "b: {bar: {alpha: X}}")),
        ("gradient start", base.replacingOccurrences(of: "b: {title: B}", with: "b: {bar: {gradient: {colors: [\"#FF0000\", \"#0000FF\"], start: [X, 0]}}}")),
        ("gradient end", base.replacingOccurrences(of: "b: {title: B}", with: "b: {bar: {gradient: {colors: [\"#FF0000\", \"#0000FF\"], end: [1, X]}}}")),
        ("bar capInsets", base.replacingOccurrences(of: "b: {title: B}", with: "b: {bar: {image: images/wood.png, imageMode: {capInsets: [X, X, 0, X]}}}")),
        ("backButton capInsets", base.replacingOccurrences(of: "b: {title: B}", with: "b: {backButton: {title: Back, image: images/back-pill.png, capInsets: [0, X, 0, X]}}")),
        ("header height", base.replacingOccurrences(of: "b: {title: B}", with: "b: {content: {header: {gradient: {colors: [\"#FF0000\", \"#0000FF\"]}, height: X}}}")),
        ("rows", base.replacingOccurrences(of: "b: {title: B}", with: "b: {content: {rows: X}}")),
        ("tiles", base.replacingOccurrences(of: "b: {title: B}", with: "b: {content: {tiles: X}}")),
        ("scroll.alpha start", base.replacingOccurrences(of: "b: {title: B}", with: "b: {scroll: {alpha: {start: X, end: 1000001}}}")),
        ("scroll.alpha end", base.replacingOccurrences(of: "b: {title: B}", with: "b: {scroll: {alpha: {start: -1000001, end: X}}}")),
        ("scroll.alpha exponent", base.replacingOccurrences(of: "b: {title: B}", with: "b: {scroll: {alpha: {end: 100, exponent: X}}}")
            + "  - scroll: {to: 50}\n"),
        ("styleBelowAlpha alpha", base.replacingOccurrences(of: "b: {title: B}", with: "b: {scroll: {styleBelowAlpha: {alpha: X, style: black}}}")),
        ("shadowFrom", base.replacingOccurrences(of: "b: {title: B}", with: "b: {scroll: {shadowFrom: X}}") + "  - scroll: {to: 50}\n"),
        ("tolerance channel", base + "tolerance: {channel: X}\n"),
        ("tolerance perceptual", base + "tolerance: {perceptual: X}\n"),
        ("tolerance translucency", base + "tolerance: {translucency: X}\n"),
        ("tolerance maxDiffPixels", base + "tolerance: {maxDiffPixels: X}\n"),
        ("tolerance maxDiffRatio", base + "tolerance: {maxDiffRatio: X}\n"),
        ("tolerance temporal", base + "tolerance: {temporal: X}\n"),
        ("region rect", base + "tolerance: {regions: [{rect: [X, X, X, X], ignore: true}]}\n"),
    ]

    static let harmless = ["0", "-1", "1e-320", "-1e-320", "0.0001", "1"]
    static let hostile = ["1e308", "-1e308", "1e12", "-1e12", "9.2e18", "9223372036854775807", "-9223372036854775808",
                          "99999999999999999999", ".nan", ".inf", "-.inf"]

    @Test("hostile values are lint errors that name the line", arguments: templates)
    func hostileValues(_ template: (key: String, yaml: String)) throws {
        for value in Self.hostile {
            let yaml = template.yaml.replacingOccurrences(of: "X", with: value)
            switch ScenarioParser.parse(yaml: yaml, file: "x.yaml", defaultName: "x", fixturesRoot: Self.root) {
            case .success(let s):
                let problems = RunLimits.default.problems([s])
                #expect(!problems.isEmpty, "\(template.key): \(value) was accepted")
            case .failure(let e):
                #expect(e.issues.allSatisfy { $0.location.file == "x.yaml" && $0.location.line >= 1 }, "\(template.key): \(value)")
            }
        }
    }

    @Test("small and zero values are refused or render without trapping", arguments: templates)
    func harmlessValues(_ template: (key: String, yaml: String)) throws {
        let renderer = try FrameRenderer(fixturesRoot: Self.root)
        for value in Self.harmless {
            let yaml = template.yaml.replacingOccurrences(of: "X", with: value)
            guard case .success(let s) = ScenarioParser.parse(yaml: yaml, file: "x.yaml", defaultName: "x", fixturesRoot: Self.root),
                  RunLimits.default.problems([s]).isEmpty else { continue }
            for job in renderer.jobs(for: s) {
                for k in Set([0, job.frameCount / 2, job.frameCount - 1]) {
                    let frame = try renderer.render(job, frame: k)
                    #expect(frame.image.width >= 1 && frame.image.height >= 1)
                }
            }
        }
    }

    @Test("item and row counts are bounded: 10,000 right items is a lint error, not 10 s of rendering")
    func counts() {
        let items = "[" + Array(repeating: "X", count: 10_000).joined(separator: ", ") + "]"
        let yaml = Self.base.replacingOccurrences(of: "b: {title: B}", with: "b: {rightItems: \(items)}")
        guard case .failure(let e) = ScenarioParser.parse(yaml: yaml, file: "x.yaml", defaultName: "x", fixturesRoot: Self.root) else {
            Issue.record("accepted"); return
        }
        #expect(e.issues.contains { $0.message.contains("rightItems has 10000 entries; at most \(ScenarioLimits.maxRightItems)") })
    }

    @Test("frame count, frame size and run pixels are checked before rendering", arguments: [
        ("  - wait: 3600\n", RunLimits(), "frames at 30 fps, over the limit of 10000"),
        ("", RunLimits(maxFrames: 5), "over the limit of 5 (--max-frames)"),
        ("", RunLimits(maxFramePixels: 1000), "over the limit of 1000 (--max-frame-pixels)"),
        ("", RunLimits(maxRunPixels: 1000), "over the limit of 1000 (--max-run-pixels"),
    ])
    func runLimits(_ extra: String, _ limits: RunLimits, _ says: String) throws {
        let s = try ScenarioParser.parse(yaml: Self.base + extra, file: "x.yaml", defaultName: "x", fixturesRoot: Self.root).get()
        let problems = limits.problems([s])
        #expect(problems.count == 1 && problems[0].message.contains(says), "\(problems)")
        #expect(problems.first?.location.file == "x.yaml")
        #expect(RunLimits(maxFrames: 200_000, maxFramePixels: 1 << 30, maxRunPixels: 1 << 50).problems([s]).isEmpty, "raised limits pass")
    }

    @Test("the largest custom device at scale 4 is refused before anything is allocated")
    func hugeDevice() throws {
        let yaml = Self.base.replacingOccurrences(of: "[iphone-se]", with: "[{name: d, width: 4096, height: 4096, scale: 4, statusBar: 20}]")
            .replacingOccurrences(of: "scale: 1\n", with: "")
        let s = try ScenarioParser.parse(yaml: yaml, file: "x.yaml", defaultName: "x", fixturesRoot: Self.root).get()
        let problems = RunLimits.default.problems([s])
        #expect(problems.map(\.message) == ["on d a frame is 16384x16384 = 268435456 pixels, over the limit of 16777216 (--max-frame-pixels)"])
        // Too large and too long: both are reported at once.
        let long = try ScenarioParser.parse(yaml: yaml + "  - wait: 3600\n", file: "x.yaml", defaultName: "x", fixturesRoot: Self.root).get()
        let both = RunLimits.default.problems([long]).map(\.message)
        #expect(both.count == 2 && both[0].contains("(--max-frame-pixels)") && both[1].contains("over the limit of 10000 (--max-frames)"), "\(both)")
    }

    @Test("`--scenarios .` and other short folders have a parent", arguments: [
        (".", "./.."), ("..", "../.."), ("Fixtures/scenarios", "Fixtures"), ("Fixtures/scenarios/", "Fixtures"),
        ("scenarios", "."), ("/", "/"), ("/scenarios", "/"), ("a/./", "a/./.."),
    ])
    func parent(_ directory: String, _ expected: String) {
        #expect(ScenarioCatalog.parent(of: directory) == expected)
    }
}
