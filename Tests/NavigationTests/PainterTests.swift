import Foundation
import Testing
@testable import Navigation
@testable import Raster
@testable import Scenario

let painterFonts = try! FontSet.discover()

func paint(_ yaml: String, at t: Double = 0, scale: Double = 1, assets: String = "/nonexistent") throws -> (Frame, NavigationState) {
    let s = try ScenarioParser.parse(yaml: yaml, file: "p.yaml", defaultName: "p", fixturesRoot: nil).get()
    let timeline = Timeline(scenario: s, device: s.devices[0], metrics: FontMetrics(fonts: painterFonts))
    let state = timeline.state(at: t)
    let painter = Painter(fonts: painterFonts, assets: AssetStore(root: assets))
    return (try painter.render(state, scale: scale, capture: .full), state)
}

/// The bar's colour away from any text: a third of the way across, mid-band.
func barPixel(_ frame: Frame, _ state: NavigationState, scale: Double = 1) -> RGBA8 {
    frame.image[Int(state.layout.width / 3 * scale), Int((state.layout.statusBar + 30) * scale)]
}

@Suite("painter")
struct PainterTests {
    /// With the real font (the timeline tests measure with average advances, where "A" is as wide
    /// as "…"): a title narrower than an ellipsis is drawn whole, on an empty bar and beside a back
    /// label and three buttons; one that has no room for even an ellipsis is left out.
    @Test("a one-letter title is drawn; a title with no room for an ellipsis is not", arguments: ["A", "i", "7"])
    func narrowTitles(_ title: String) throws {
        func titlePixels(_ screen: String) throws -> Int {
            let yaml = "devices: [iphone-se]\nscreens:\n  a: {title: Inbox}\n  b: \(screen)\nsteps:\n  - show: a\n  - push: b\n    animated: false\n"
            let (frame, _) = try paint(yaml, at: 1)
            return frame.elements.filter { $0 == Element.title.rawValue }.count
        }
        #expect(try titlePixels("{title: \"\(title)\"}") > 10)
        #expect(try titlePixels("{title: \"\(title)\", rightItems: [One, Two, Three]}") > 10)
        // Buttons filling the bar leave no room: no title, and nothing drawn over them.
        #expect(try titlePixels("{title: \"A long title that cannot fit\", rightItems: [Onewordbutton, Anotherwordbutton, Third]}") == 0)
    }

    static func legacy(content: String, rows: Int = 0, offset: Double = 0) -> String {
        """
        devices: [iphone-se]
        screens:
          a:
            title: ""
            bar: {material: legacy, color: "#F8F8F8"}
            content: {color: "\(content)", rows: \(rows)}
        steps:
          - show: a
          - scroll: {to: \(offset), animated: false}
        """
    }

    @Test("legacy material with tint #F8F8F8: #F8F8F8 ± 1 over white, #F0F0F0 ± 1 over black")
    func legacyNumbers() throws {
        for (content, expected) in [("#FFFFFF", 0xF8), ("#000000", 0xF0)] {
            let (frame, state) = try paint(Self.legacy(content: content))
            let p = barPixel(frame, state)
            #expect(abs(Int(p.r) - expected) <= 1 && abs(Int(p.g) - expected) <= 1 && abs(Int(p.b) - expected) <= 1, "\(content): \(p)")
        }
    }

    @Test("over ordinary light content the bar falls between #F4F4F4 and #F9F9F9 (seed article, iOS 10)")
    func ordinaryContent() throws {
        let (frame, state) = try paint(Self.legacy(content: "#EFEFF4", rows: 30, offset: 60))
        var values: [Int] = []
        for x in stride(from: 0, to: Int(state.layout.width), by: 7) {
            for y in stride(from: Int(state.layout.statusBar) + 2, to: Int(state.layout.statusBar + 42), by: 5) {
                let p = frame.image[x, y]
                if frame.elements[y * frame.image.width + x] == Element.barBackground.rawValue { values.append(Int(p.r)) }
            }
        }
        #expect(values.count > 100)
        #expect(values.allSatisfy { (0xF4...0xF9).contains($0) }, "\(values.min()!)...\(values.max()!)")
    }

    @Test("translucency weight is the backdrop's share under a translucent bar, 0 under an opaque one")
    func weights() throws {
        let (frame, state) = try paint(Self.legacy(content: "#FFFFFF"))
        let x = Int(state.layout.width / 3), y = Int(state.layout.statusBar + 30)
        // Legacy: grey @ 0.8 then tint @ 0.85 leave 0.2 * 0.15 = 0.03 of the backdrop.
        #expect(abs(Int(frame.translucency[y * frame.image.width + x]) - 8) <= 1)
        #expect(frame.translucency[(frame.image.height - 10) * frame.image.width + x] == 0, "content is not translucency")
        let opaque = try paint("devices: [iphone-se]\nscreens:\n  a: {title: A, bar: {color: \"#336699\", translucent: false}}\nsteps:\n  - show: a\n")
        #expect(opaque.0.translucency.allSatisfy { $0 == 0 })
        #expect(barPixel(opaque.0, opaque.1) == RGBA8(0x33, 0x66, 0x99))
    }

    @Test("the element map names the title, the back button, the hairline, the status bar and the content")
    func elements() throws {
        let yaml = "devices: [iphone-14]\nscreens:\n  a: {title: Alpha}\n  b: {title: Beta, content: {rows: 5}}\nsteps:\n  - show: a\n  - push: b\n"
        let (frame, state) = try paint(yaml, at: 5, scale: 2)
        let present = Set(frame.elements)
        for e in [Element.title, .backButton, .hairline, .statusBar, .content, .barBackground] {
            #expect(present.contains(e.rawValue), "\(e)")
        }
        // The hairline is the last row of the bar, one physical pixel.
        let hairlineRow = Int((state.layout.statusBar + 44) * 2) - 1
        #expect(frame.elements[hairlineRow * frame.image.width + 300] == Element.hairline.rawValue)
        #expect(frame.elements[(hairlineRow - 1) * frame.image.width + 300] == Element.barBackground.rawValue)
    }

    @Test("capture: bar keeps the status bar, the bar and 16 pt of content")
    func barCapture() throws {
        let s = try ScenarioParser.parse(yaml: "devices: [iphone-14]\ncapture: bar\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n",
                                         file: "c.yaml", defaultName: "c", fixturesRoot: nil).get()
        let t = Timeline(scenario: s, device: s.devices[0], metrics: FontMetrics(fonts: painterFonts))
        let painter = Painter(fonts: painterFonts, assets: AssetStore(root: "/"))
        let height = Painter.barCaptureHeight(s, layout: t.state(at: 0).layout)
        #expect(height == 47 + 44 + 16)
        let frame = try painter.render(t.state(at: 0), scale: 2, capture: .bar, captureHeight: height)
        #expect(frame.image.width == 780 && frame.image.height == 214)
        #expect(frame.elements.count == 780 * 214 && frame.translucency.count == 780 * 214)
    }

    @Test("capture: bar keeps a large title pulled down: the frame grows by the deepest pull-down, and the title stays in it")
    func barCapturePullDown() throws {
        func timeline(_ steps: String) throws -> Timeline {
            let yaml = "devices: [iphone-14]\ncapture: bar\nscreens:\n  a: {title: Inbox, largeTitle: true, content: {rows: 8}}\n"
                + "  b: {title: Plain, content: {rows: 8}}\nsteps:\n  - show: a\n" + steps
            let s = try ScenarioParser.parse(yaml: yaml, file: "c.yaml", defaultName: "c", fixturesRoot: nil).get()
            return Timeline(scenario: s, device: s.devices[0], metrics: FontMetrics(fonts: painterFonts))
        }
        let rest = try timeline("  - wait: 0.1\n")
        #expect(rest.largeTitlePullDown == 0)
        #expect(Painter.barCaptureHeight(rest.scenario, layout: rest.state(at: 0).layout, pullDown: 0) == 47 + 44 + 52 + 16)
        let pulled = try timeline("  - scroll: {to: -60}\n  - scroll: {to: 0}\n")
        #expect(pulled.largeTitlePullDown == 60)
        // An overshooting curve pulls further than its target on the way.
        let overshoot = try timeline("  - scroll: {to: -60, curve: [0.3, 1.6, 0.6, 1.4]}\n")
        #expect(overshoot.largeTitlePullDown > 60)
        // A screen without a large title pulled down does not grow the frame.
        #expect(try timeline("  - push: b\n  - scroll: {to: -60}\n").largeTitlePullDown == 0)
        // The deepest frame keeps the whole title: as many title pixels as at rest, none cut off.
        let painter = Painter(fonts: painterFonts, assets: AssetStore(root: "/"))
        func titlePixels(_ t: Timeline, at time: Double) throws -> (count: Int, height: Int) {
            let state = t.state(at: time)
            let height = Painter.barCaptureHeight(t.scenario, layout: state.layout, pullDown: t.largeTitlePullDown)
            let frame = try painter.render(state, scale: 1, capture: .bar, captureHeight: height)
            return (frame.elements.filter { $0 == Element.largeTitle.rawValue }.count, frame.image.height)
        }
        let atRest = try titlePixels(rest, at: 0), deepest = try titlePixels(pulled, at: 0.3)
        #expect(deepest.height == 47 + 44 + 52 + 60 + 16 && atRest.height == 47 + 44 + 52 + 16)
        #expect(atRest.count > 500 && deepest.count >= atRest.count, "at rest \(atRest), pulled down \(deepest)")
    }

    @Test("a transition frame renders to the same bytes in parallel and serially")
    func deterministic() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: Me, bar: {style: black}, content: {tiles: 12}, rightItems: [Edit]}
          b: {title: Favorites, content: {rows: 12}, bar: {color: "#FFFFFF"}}
        steps:
          - show: a
          - push: b
        """
        let serial = try paint(yaml, at: 0.27, scale: 2).0
        var results = [[UInt8]](repeating: [], count: 3)
        results.withUnsafeMutableBufferPointer { out in
            Parallel.forEach(3) { i in
                let f = try! paint(yaml, at: 0.27, scale: 2).0
                out[i] = f.image.pixels + f.translucency + f.elements
            }
        }
        #expect(results.allSatisfy { $0 == serial.image.pixels + serial.translucency + serial.elements })
    }

    @Test("a screen under another leaves undrawn what that screen covers, and every frame is the same bytes",
          arguments: [1.0, 2.6, 3.0])
    func culling(_ scale: Double) throws {
        // Pushes, pops and swipes between screens with material bars over tiles (the blur reads
        // the content under a covered bar), opaque and translucent bars, a gradient header, cell
        // rows and a screen whose background is translucent (nothing may be culled under it).
        let yaml = """
        devices: [iphone-14]
        screens:
          tiles: {title: Tiles, bar: {color: "#F8F8F8CC", material: light}, content: {tiles: 24}}
          rows: {title: Rows, bar: {color: "#FF9500", translucent: false}, content: {rows: 20}, rightItems: [Edit]}
          header:
            title: Header
            bar: {color: "#5856D699", material: light}
            content: {header: {gradient: {colors: ["#00FF00", "#0000FF"], start: [0, 0], end: [1, 1]}, height: 200}, rows: 12}
          glass: {title: Glass, content: {color: "#FFFFFF80", tiles: 8}}
          more: {title: More, bar: {material: dark}, content: {tiles: 16}}
          card: {title: Card, bar: {standalone: {topAttached: false}, material: light, color: "#FFFFFF80"}, content: {tiles: 12}}
        steps:
          - show: tiles
          - push: rows
          - swipeBack: {to: 0.6, duration: 0.3, release: cancel}
          - push: header
          - scroll: {to: 80, duration: 0.2}
          - push: more
          - pop: {}
          - push: glass
          - pop: {}
          - push: card
          - swipeBack: {to: 0.5, duration: 0.3, release: cancel}
          - popTo: tiles
        """
        let s = try ScenarioParser.parse(yaml: yaml, file: "p.yaml", defaultName: "p", fixturesRoot: nil).get()
        let timeline = Timeline(scenario: s, device: s.devices[0], metrics: FontMetrics(fonts: painterFonts))
        var culling = Painter(fonts: painterFonts, assets: AssetStore(root: "/"))
        var plain = culling
        culling.culls = true
        plain.culls = false
        var transitions = 0
        for t in stride(from: 0.0, through: timeline.duration, by: 0.09) {
            let state = timeline.state(at: t)
            // One screen: only the canvas's white is left to the screen's background (at 1x here).
            guard state.screens.count > 1 || scale == 1 else { continue }
            if state.screens.count > 1 { transitions += 1 }
            for capture in scale == 1 ? [Scenario.Capture.full, .bar] : [.full] {
                let a = try culling.render(state, scale: scale, capture: capture), b = try plain.render(state, scale: scale, capture: capture)
                #expect(a.image.pixels == b.image.pixels && a.translucency == b.translucency && a.elements == b.elements, "t \(t) \(capture)")
            }
        }
        #expect(transitions >= 10)
    }

    @Test("a missing asset is an error naming the file, not a blank bar or header", arguments: [
        "{title: A, bar: {image: images/gone.png}}",
        "{title: A, content: {header: {image: images/gone.png, height: 200}}}",
        "{title: A, backButton: {image: images/gone.png}}",
    ])
    func missingAsset(_ screen: String) throws {
        let yaml = "devices: [iphone-14]\nscreens:\n  root: {title: R}\n  a: \(screen)\nsteps:\n  - show: root\n  - push: a\n"
        #expect { try paint(yaml, at: 1) } throws: { error in "\(error)".contains("images/gone.png") }
    }

    /// Every bar-background pixel of a frame's bar band (status bar and bar rows), as grey levels.
    static func barValues(_ frame: Frame, _ state: NavigationState, scale: Double = 1) -> [RGBA8] {
        var out: [RGBA8] = []
        let w = frame.image.width
        // The bar's own rows, below the status bar's glyphs (their anti-aliased edges are bar pixels).
        for y in Int(state.layout.statusBar * scale)..<Int((state.layout.statusBar + state.layout.barHeight) * scale) - 1 {
            for x in 0..<w where frame.elements[y * w + x] == Element.barBackground.rawValue { out.append(frame.image[x, y]) }
        }
        return out
    }

    @Test("the blur reads only what lies behind the bar: content just below it does not tint it", arguments: [
        ("light", "#FFFFFF"), ("dark", "#000000"), ("extraLight", "#EFEFF4"),
    ])
    func flatBar(_ material: String, _ content: String) throws {
        // Bright tiles start right under the bar; the content behind the bar is one flat colour.
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: "", bar: {material: \(material)}, content: {color: "\(content)", tiles: 8}}
        steps:
          - show: a
          - scroll: {to: -8, animated: false}
        """
        let (frame, state) = try paint(yaml)
        let values = Self.barValues(frame, state)
        #expect(values.count > 10_000)
        #expect(Set(values).count == 1, "\(material): \(Set(values).count) colours, e.g. \(Set(values).prefix(4))")
    }

    @Test("a translucent bar with an opaque tint lets the backdrop through at the system's 0.85 (seed 001)", arguments: [
        // light: backdrop, white @ 0.3, then #F8 @ 0.85: 0.85 * 248 + 0.15 * (0.3 * 255 + 0.7 * content)
        ("light", "#FFFFFF", 0xF9, 0xF9), ("light", "#000000", 0xDE, 0xDE),
        // legacy: grey 0.97 @ 0.8 under the tint (the seed's own layers)
        ("legacy", "#FFFFFF", 0xF8, 0xF8),
    ])
    func systemTintOpacity(_ material: String, _ content: String, _ low: Int, _ high: Int) throws {
        let yaml = """
        devices: [iphone-se]
        screens:
          a: {title: "", bar: {material: \(material), color: "#F8F8F8", translucent: true}, content: {color: "\(content)"}}
        steps:
          - show: a
        """
        let (frame, state) = try paint(yaml)
        let p = barPixel(frame, state)
        #expect((low...high).contains(Int(p.r)) && p.r == p.g && p.g == p.b, "\(material) over \(content): \(p)")
        let x = Int(state.layout.width / 3), y = Int(state.layout.statusBar + 30)
        #expect(frame.translucency[y * frame.image.width + x] > 0, "the backdrop's share is in the weight map")
        // The same tint on an opaque bar is exact.
        let opaque = try paint(yaml.replacingOccurrences(of: "translucent: true", with: "translucent: false"))
        #expect(barPixel(opaque.0, opaque.1) == RGBA8(0xF8, 0xF8, 0xF8))
    }

    @Test("written the natural way, seed 001's bar over ordinary light content falls between #F4F4F4 and #F9F9F9")
    func naturalSeed() throws {
        let yaml = """
        devices: [iphone-se]
        screens:
          a: {title: "", bar: {color: "#F8F8F8", translucent: true}, content: {color: "#EFEFF4", rows: 30}}
        steps:
          - show: a
          - scroll: {to: 60, animated: false}
        """
        let (frame, state) = try paint(yaml)
        let values = Self.barValues(frame, state).map { Int($0.r) }
        #expect(values.count > 1000)
        #expect(values.allSatisfy { (0xF4...0xF9).contains($0) }, "\(values.min()!)...\(values.max()!)")
        #expect(Set(values).count > 1, "not one flat #F8F8F8")
    }

    @Test("a bar image takes its scale from its name or an explicit `scale`: exact at its own scale, reduced without aliasing below it", arguments: [
        ("tile@3x.png", 3.0, nil), ("tile@3x.png", 1.0, nil), ("tile@2x.png", 2.0, nil), ("tile.png", 1.0, nil),
        ("tile.png", 3.0, 3.0), ("tile.png", 1.0, 3.0), ("tile@3x.png", 2.0, 2.0),
    ] as [(String, Double, Double?)])
    func imageScale(_ name: String, _ renderScale: Double, _ explicit: Double?) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fileScale = explicit ?? ImageScale.fromFileName(name)
        // A 10 x 10 pt tile of noise at the file's scale.
        var tile = Image(width: Int(10 * fileScale), height: Int(10 * fileScale))
        var state: UInt32 = 7
        for y in 0..<tile.height { for x in 0..<tile.width {
            state = state &* 1_103_515_245 &+ 12345
            tile[x, y] = RGBA8(UInt8(truncatingIfNeeded: state >> 9), UInt8(truncatingIfNeeded: state >> 17), 90)
        } }
        try Data(PNG.encode(tile)).write(to: dir.appendingPathComponent(name))
        let image = explicit.map { "{file: \(name), scale: \($0)}" } ?? name
        let yaml = "devices: [iphone-se]\nscreens:\n  a: {title: \"\", bar: {image: \(image), imageMode: tile}}\nsteps:\n  - show: a\n"
        let (frame, _) = try paint(yaml, scale: renderScale, assets: dir.path)
        let factor = Int((fileScale / renderScale).rounded(.down))
        let expected = factor >= 2 ? tile.reduced(by: factor) : tile
        // The bar's rows below the status bar, away from its glyphs, one tile period wide.
        var differing = 0
        let top = Int(20 * renderScale), period = expected.width
        for y in top..<(top + period) {
            for x in 0..<period where frame.image[x, y] != expected[x % expected.width, y % expected.height] { differing += 1 }
        }
        #expect(differing == 0, "\(image) at \(renderScale)x: \(differing) pixels")
    }

    @Test("a parallax header scrolled up moves by its fraction of the scroll, the content sliding over it; at rest and pulled down it draws as a plain one")
    func parallaxHeader() throws {
        func yaml(_ parallax: Double, to: Double) -> String {
            """
            devices: [iphone-14]
            screens:
              a:
                title: A
                bar: {hidden: true}
                content: {color: "#00FF00", header: {gradient: {colors: ["#FF0000", "#0000FF"], start: [0, 0], end: [0, 1]}, height: 300, parallax: \(parallax)}, rows: 0, extendsUnderOpaqueBar: true}
            steps:
              - show: a
              - scroll: {to: \(to), duration: 0.2}
            """
        }
        let (half, state) = try paint(yaml(0.5, to: 100), at: 1)
        let (whole, _) = try paint(yaml(1, to: 100), at: 1)
        let s = state.screens[0]
        #expect(s.contentOffset == 100)
        // Where the content below the header starts: the same in both (the rows do not lag).
        let listTop = Int(s.contentTop - s.contentOffset + s.contentInset)
        let width = half.image.width, height = half.image.height
        var below = 0, header = 0
        for y in listTop..<height { for x in 0..<width where half.image[x, y] != whole.image[x, y] { below += 1 } }
        #expect(below == 0, "\(below) pixels of the content differ: it slides over the header, whose lagging part it covers")
        #expect(half.image[width / 2, listTop + 10] == RGBA8(0, 255, 0), "the content's colour over the header's lagging part")
        // Above it, the header has moved 50 points, not 100: each row is the plain header's row
        // 50 above (below the status bar's text in both).
        for y in (Int(max(s.contentTop, state.layout.statusBar)) + 50)..<listTop { for x in stride(from: 0, to: width, by: 7) where half.image[x, y] != whole.image[x, y - 50] { header += 1 } }
        #expect(header == 0, "\(header) header pixels")
        #expect(half.image[width / 2, listTop - 60] != whole.image[width / 2, listTop - 60], "it did lag")
        // Under an opaque large-title bar whose extension is collapsing, the header stays glued
        // to the bar's bottom (no band of the content's colour above it), stretchy or not.
        for stretch in [false, true] {
            func large(_ parallax: Double) -> String {
                """
                devices: [iphone-14]
                screens:
                  a:
                    title: A
                    largeTitle: true
                    bar: {color: "#FFFFFF", translucent: false}
                    content: {color: "#00FF00", header: {gradient: {colors: ["#FF0000", "#0000FF"], start: [0, 0], end: [0, 1]}, height: 200, parallax: \(parallax), stretch: \(stretch)}, rows: 6}
                steps:
                  - show: a
                  - scroll: {to: 40, duration: 0.2}
                """
            }
            let a = try paint(large(0.5), at: 1).0.image, b = try paint(large(1), at: 1).0.image
            #expect(a == b, "stretch \(stretch): glued while the title collapses")
        }
        // At the top, and pulled down, parallax changes nothing.
        for to in [0.0, -60] {
            let a = try paint(yaml(0.5, to: to), at: 1).0.image, b = try paint(yaml(1, to: to), at: 1).0.image
            #expect(a == b, "scrolled to \(to)")
        }
    }

    @Test("a stretchy header pulled down grows from the content's top; a plain one moves down", arguments: [true, false])
    func stretchyHeader(_ stretch: Bool) throws {
        // A vertical gradient, red at the top to blue at the bottom, under a hidden bar.
        let yaml = """
        devices: [iphone-14]
        screens:
          a:
            title: A
            bar: {hidden: true}
            content: {color: "#00FF00", header: {gradient: {colors: ["#FF0000", "#0000FF"], start: [0, 0], end: [0, 1]}, height: 200, stretch: \(stretch)}, rows: 3, extendsUnderOpaqueBar: true}
        steps:
          - show: a
          - scroll: {to: -80, duration: 0.2}
        """
        let (frame, state) = try paint(yaml, at: 1)
        let top = state.screens[0].contentTop
        #expect(state.screens[0].contentOffset == -80)
        let x = Int(state.layout.width / 2)
        let atTop = frame.image[x, Int(top) + 1], below = frame.image[x, Int(top + 80) + 1]
        if stretch {
            // The gradient spans the grown header, content top to 80 + 200 below it.
            #expect(atTop.r > 240 && atTop.g == 0 && atTop.b < 15, "\(atTop)")
            #expect(below.r < atTop.r && below.b > atTop.b && below.g == 0, "\(below)")
            let end = frame.image[x, Int(top + 280) - 2]
            #expect(end.b > 240 && end.g == 0, "\(end)")
        } else {
            // The content's background shows above the header, which starts at the pull.
            #expect(atTop == RGBA8(0, 255, 0), "\(atTop)")
            #expect(below.r > 240 && below.g == 0, "\(below)")
        }
    }
}
