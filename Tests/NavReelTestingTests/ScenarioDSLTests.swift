import Foundation
import NavReel
import Navigation
import Raster
import NavReelTesting
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The bundled `wechat-pop.yaml`, written in Swift.
func wechatPopInSwift() throws -> Scenario {
    try Scenario(name: "wechat-pop", devices: ["iphone-14"], scale: 2, capture: .bar) {
        Screen("me", title: "Me", bar: ["style": "black", "shadowHidden": true, "tintColor": "#FFFFFF"],
                content: ["color": "#111111", "rows": 6])
        Screen("favorites", title: "Favorites", bar: ["color": "#FFFFFF"], content: ["rows": 20], scroll: ["shadowFrom": 10])
    } steps: {
        Show("me")
        Push("favorites")
        Wait(0.1)
        Scroll(to: 120, duration: 0.3)
        SwipeBack(to: 0.4, release: "cancel", duration: 0.3)
        SwipeBack(to: 0.65, release: "finish", duration: 0.4)
        Push("favorites", duration: 0.4)
        Pop(duration: 0.4, tapped: true)
    }
}

@Suite("scenarios in Swift")
struct ScenarioDSLTests {
    @Test("the Swift wechat-pop and the bundled YAML file give the same timeline and the same frames")
    func sameFrames() throws {
        let swift = try wechatPopInSwift()
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures").path
        let file = try ScenarioParser.load(path: fixtures + "/scenarios/wechat-pop.yaml", fixturesRoot: fixtures).get()
        #expect(swift.screens.map(\.title) == file.screens.map(\.title))
        #expect(swift.steps.map(\.action) == file.steps.map(\.action))
        #expect(swift.steps.map(\.tapped) == file.steps.map(\.tapped) && swift.steps.last?.tapped == true)
        let renderer = try FrameRenderer(fixturesRoot: fixtures)
        let a = try #require(renderer.jobs(for: swift).first), b = try #require(renderer.jobs(for: file).first)
        #expect(a.frameCount == b.frameCount && a.frameCount == 85, "\(a.frameCount) frames")
        for k in 0..<a.frameCount { #expect(a.timeline.state(atFrame: k) == b.timeline.state(atFrame: k), "frame \(k)") }
        for k in [0, 10, 30, 45, 60, 84] {
            #expect(try renderer.render(a, frame: k).image.pixels == renderer.render(b, frame: k).image.pixels, "frame \(k)")
        }
    }

    @Test("the model's public initializers build what the parser builds from the same text")
    func modelInitializers() throws {
        var bar = BarSpec()
        bar.color = ScenarioColor(0x33, 0x66, 0x99)
        var content = ContentSpec()
        content.header = HeaderSpec(gradient: ScenarioGradient(colors: [ScenarioColor(0, 0, 0), ScenarioColor(255, 255, 255)]), height: 120)
        var scroll = ScrollSpec()
        scroll.alpha = ScrollSpec.AlphaRule(start: 0, end: 100)
        let model = Scenario(name: "m", devices: [try #require(Device.named("iphone-14"))],
                             screens: [ScreenSpec(name: "a", title: "A", bar: bar, content: content, scroll: scroll), ScreenSpec(name: "b", title: "B")],
                             steps: [Step(action: .show("a")), Step(action: .push("b"), duration: 0.3)])
        let text = try Scenario(yaml: """
            name: m
            devices: [iphone-14]
            screens:
              a: {title: A, bar: {color: "#336699"}, content: {header: {gradient: {colors: ["#000000", "#FFFFFF"]}, height: 120}}, scroll: {alpha: {start: 0, end: 100}}}
              b: {title: B}
            steps:
              - show: a
              - push: b
                duration: 0.3
            """, name: "m")
        let fonts = FontMetrics(fonts: try FontSet.discover())
        let t1 = Timeline(scenario: model, device: model.devices[0], metrics: fonts)
        let t2 = Timeline(scenario: text, device: text.devices[0], metrics: fonts)
        #expect(t1.frameCount == t2.frameCount && t1.frameCount > 5)
        for k in 0..<t1.frameCount { #expect(t1.state(atFrame: k) == t2.state(atFrame: k), "frame \(k)") }
    }

    @Test("a mistake is reported at the Swift line that made it, with the parser's message")
    func errorsAtSwiftLines() {
        // Outside any macro: #line inside an #expect expansion names the macro's line.
        var caught = ""
        let line = #line + 5
        do {
            _ = try Scenario(name: "bad") {
                Screen("a", title: "A")
            } steps: {
                Push("nowhere")
            }
        } catch {
            caught = "\(error)"
        }
        #expect(caught.contains("ScenarioDSLTests.swift:\(line):") && caught.contains("unknown screen `nowhere`"), "\(caught)")
    }

    @Test("strings stay strings: values YAML would read otherwise are quoted", arguments: [
        ("no", "\"no\""), ("1.0", "\"1.0\""), ("#FFF", "\"#FFF\""), ("a \"b\"\n", "\"a \\\"b\\\"\\n\""), ("收藏", "\"收藏\""),
    ])
    func quoting(_ value: String, _ yaml: String) throws {
        #expect(ScenarioValue.string(value).yaml == yaml)
        // And it parses back to the same title.
        let s = try Scenario(name: "q") { Screen("a", title: value) } steps: { Show("a") }
        #expect(s.screens[0].title == value)
    }
}
