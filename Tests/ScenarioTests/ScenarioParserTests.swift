import Foundation
import Testing
@testable import Scenario

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

/// The example of SCENARIO-FORMAT.md, verbatim but for the commented keys turned on.
let formatExampleYAML = """
name: wechat-pop            # optional; default: file name. [a-z0-9._-]+ only
devices: [iphone-14]
scale: 1
fps: 30
capture: full
timing:
  push: {duration: 0.54, curve: [0.32, 0.72, 0, 1]}
appearance:
  tintColor: "#007AFF"
  material: light
tolerance:
  perceptual: 0.05
  translucency: 64
  maxDiffPixels: 0
  elements: {content: ignore, title: {antialiasing: true}}
  regions: [{rect: [0, 0, 390, 47], ignore: true}]

screens:
  me:
    title: Me
    largeTitle: false
    bar:
      style: default
      tintColor: "#000000"
      titleColor: "#000000"
      color: "#FFFFFF"
      image: images/wood.png
      imageMode: {capInsets: [0, 10, 0, 10]}
      translucent: true
      alpha: 1.0
      hidden: false
      shadowHidden: false
      split: false
      standalone: false
    backButton:
      title: Back
    rightItems: [Edit]
    content:
      color: "#EFEFF4"
      rows: 30
      extendsUnderOpaqueBar: false
    scroll:
      alpha: {start: 0, end: 200, exponent: 4}
      styleBelowAlpha: {alpha: 0.1, style: black, tintColor: "#FFFFFF"}
      shadowFrom: 10
    swipeBack: true
    backInteractive: true
  favorites:
    title: Favorites
    bar: {style: black, color: "#1C1C1CBA", gradient: {colors: ["#00FF00", "#0000FF"], start: [0, 0], end: [1, 0]}, standalone: {topAttached: false}}
    content: {header: {gradient: {colors: ["#FF0000", "#00FF00"]}, height: 240}, tiles: 40}

steps:
  - show: me
  - push: favorites
  - push: me2
    duration: 1.0
    curve: linear
  - wait: 0.2
  - scroll: {to: 240, duration: 0.6}
  - swipeBack: {to: 0.6, duration: 0.4, release: cancel}
  - pop: {}
  - pop: {duration: 1.0, curve: linear}
  - setBar: {hidden: true, animated: true, style: fade}
  - rotate: landscape
"""

@Suite("scenario files")
struct ScenarioParserTests {
    static func parse(_ yaml: String, name: String = "test") -> Result<Scenario, ScenarioErrors> {
        ScenarioParser.parse(yaml: yaml, file: "Fixtures/scenarios/\(name).yaml", defaultName: name, fixturesRoot: fixtures)
    }

    @Test("the format document's example parses into typed values")
    func formatExample() throws {
        let yaml = formatExampleYAML.replacingOccurrences(of: "  favorites:\n", with: "  me2:\n    title: Me 2\n  favorites:\n")
        let s = try Self.parse(yaml).get()
        #expect(s.name == "wechat-pop")
        #expect(s.devices.map(\.name) == ["iphone-14"])
        #expect(s.scale == 1 && s.fps == 30 && s.capture == .full)
        #expect(s.timing.push == Timing(duration: 0.54, curve: .bezier(0.32, 0.72, 0, 1)))
        #expect(s.appearance.tintColor == ScenarioColor(0, 122, 255))
        #expect(s.appearance.material == .light)
        #expect(s.tolerance.base.perceptual == 0.05)
        #expect(s.tolerance.elements["content"]?.ignore == true)
        #expect(s.tolerance.elements["title"]?.antialiasing == true)
        #expect(s.tolerance.regions.count == 1 && s.tolerance.regions[0].rule.ignore == true)
        let me = try #require(s.screen("me"))
        #expect(me.bar.color == .white && me.bar.style == .default && me.bar.image == "images/wood.png")
        #expect(me.bar.imageMode == .capInsets(0, 10, 0, 10))
        #expect(me.bar.standalone == nil)
        #expect(me.rightItems == ["Edit"] && me.backButton?.title == "Back")
        #expect(me.content.rows == 30)
        #expect(me.scroll?.alpha == ScrollSpec.AlphaRule(start: 0, end: 200, exponent: 4))
        #expect(me.scroll?.styleBelowAlpha?.style == .black)
        #expect(me.scroll?.shadowFrom == 10)
        let fav = try #require(s.screen("favorites"))
        #expect(fav.bar.color == ScenarioColor(0x1C, 0x1C, 0x1C, 0xBA))
        #expect(fav.bar.gradient?.colors == [ScenarioColor(0, 255, 0), ScenarioColor(0, 0, 255)])
        #expect(fav.bar.standalone == Standalone(topAttached: false))
        #expect(fav.content.header?.height == 240 && fav.content.tiles == 40)
        #expect(s.steps.map(\.action.keyword) == ["show", "push", "push", "wait", "scroll", "swipeBack", "pop", "pop", "setBar", "rotate"])
        #expect(s.steps[2].duration == 1.0 && s.steps[2].curve == .linear)
        #expect(s.steps[4].action == .scroll(to: 240) && s.steps[4].duration == 0.6)
        #expect(s.steps[5].action == .swipeBack(to: 0.6, release: .cancel))
        #expect(s.steps[7].duration == 1.0 && s.steps[7].curve == .linear, "modifiers inside the action's mapping")
        if case .setBar(let bar, let style) = s.steps[8].action {
            #expect(bar.hidden == true && style == .fade && s.steps[8].animated == true)
        } else { Issue.record("setBar") }
        #expect(s.steps[9].action == .rotate(.landscape))
        #expect(s.steps[1].location.line == 57)
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        let name: String
        let yaml: String
        let line: Int
        let column: Int
        let says: String
        var testDescription: String { name }
    }

    static let minimal = "devices: [iphone-14]\nscreens:\n  a: {title: A}\n  b: {title: B}\nsteps:\n  - show: a\n"

    @Test("a missing name.png beside name@3x.png names the file that is there")
    func scaledNameHint() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("navreel-scaled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
        let png = try Data(contentsOf: URL(fileURLWithPath: fixtures).appendingPathComponent("images/wood.png"))
        try png.write(to: root.appendingPathComponent("images/logo@3x.png"))
        func message(_ image: String) -> String {
            let yaml = Self.minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: \(image)}}")
            guard case .failure(let e) = ScenarioParser.parse(yaml: yaml, file: "s.yaml", defaultName: "s", fixturesRoot: root.path) else { return "parsed" }
            return e.issues.map(\.message).joined(separator: "\n")
        }
        #expect(message("images/logo.png").contains("(did you mean `images/logo@3x.png`? NavReel reads the file named"), "\(message("images/logo.png"))")
        #expect(!message("images/other.png").contains("did you mean"))
        #expect(message("images/logo@3x.png") == "parsed")
    }

    @Test("a colour NavReel does not read gets the #RRGGBB it means, and a word gets none")
    func colourSuggestions() {
        #expect(ScenarioColor.suggestion(for: "#FFF") == "#FFFFFF")
        #expect(ScenarioColor.suggestion(for: "FFF") == "#FFFFFF")
        #expect(ScenarioColor.suggestion(for: "#F008") == "#FF000088")
        #expect(ScenarioColor.suggestion(for: "ff0000") == "#FF0000")
        #expect(ScenarioColor.suggestion(for: "rgb(0, 128, 255)") == "#0080FF")
        #expect(ScenarioColor.suggestion(for: "rgba(255,0,0,0.5)") == "#FF000080")
        #expect(ScenarioColor.suggestion(for: "White") == "#FFFFFF")
        #expect(ScenarioColor.suggestion(for: "0xFF3B30") == "#FF3B30")
        // iOS's names: SwiftUI's and UIKit's system colours are not UIKit's fixed ones of the same name.
        #expect(ScenarioColor.hint(for: "Color.red").hasPrefix(" (did you mean \"#FF3B30\"?"))
        #expect(ScenarioColor.hint(for: "UIColor.red").hasPrefix(" (did you mean \"#FF0000\"?") && ScenarioColor.hint(for: "UIColor.red").contains("#FF3B30"))
        #expect(ScenarioColor.hint(for: ".systemRed").hasPrefix(" (did you mean \"#FF3B30\"?"))
        #expect(ScenarioColor.hint(for: "systemGray6").hasPrefix(" (did you mean \"#F2F2F7\"?"))
        #expect(ScenarioColor.hint(for: "UIColor.systemBackground()").hasPrefix(" (did you mean \"#FFFFFF\"?"))
        let red = ScenarioColor.hint(for: "red")
        #expect(red.contains("\"#FF3B30\"") && red.contains("\"#FF0000\""), "a bare name has both readings: \(red)")
        #expect(ScenarioColor.hint(for: "#FFF") == " (did you mean \"#FFFFFF\"?)")
        #expect(ScenarioColor.hint(for: ".clear") == " (did you mean \"#00000000\"?)" && ScenarioColor.hint(for: "Color.white") == " (did you mean \"#FFFFFF\"?)")
        #expect(ScenarioColor.hint(for: "UIColor.secondarySystemBackground") == " (did you mean \"#F2F2F7\"? UIKit's .secondarySystemBackground in the light appearance)")
        #expect(ScenarioColor.hint(for: "Color.darkGray") == " (did you mean \"#555555\"? UIKit's UIColor.darkGray)")
        #expect(ScenarioColor.hint(for: "Color.systemRed") == " (did you mean \"#FF3B30\"? iOS's systemRed (UIKit's .systemRed, SwiftUI's Color.red) in the light appearance)")
        #expect(ScenarioColor.hint(for: "Color.gray6") == " (did you mean \"#F2F2F7\"? iOS's systemGray6 (UIKit's .systemGray6) in the light appearance)")
        #expect(ScenarioColor.hint(for: "beef") == "")
        for word in ["bad", "beef", "facade", "rgba(1, 2, 3, 4)", "hsl(0, 100%, 50%)"] {
            #expect(ScenarioColor.suggestion(for: word) == nil, "\(word)")
        }
    }

    /// Shared styles: an anchor under a top-level `x-` key, used whole (`*dark`) or merged
    /// (`<<: *dark`), where this mapping's own keys win over the merged ones.
    @Test("x- keys hold anchors; << merges them and a mapping's own keys win")
    func sharedStyles() throws {
        let yaml = """
        devices: [iphone-14]
        x-dark: &dark {style: black, color: "#111111", tintColor: "#FFFFFF"}
        x-tall: &tall {titleColor: "#FF0000", color: "#222222"}
        screens:
          a: {title: A, bar: *dark}
          b: {title: B, bar: {<<: *dark, tintColor: "#00FF00"}}
          c: {title: C, bar: {<<: [*tall, *dark]}}
        steps:
          - show: a
        """
        let s = try Self.parse(yaml).get()
        let a = try #require(s.screen("a")), b = try #require(s.screen("b")), c = try #require(s.screen("c"))
        #expect(a.bar.style == .black && a.bar.color == ScenarioColor(0x11, 0x11, 0x11))
        #expect(b.bar.style == .black && b.bar.color == ScenarioColor(0x11, 0x11, 0x11) && b.bar.tintColor == ScenarioColor(0, 255, 0))
        // In a list, the earlier mapping wins (YAML's merge key).
        #expect(c.bar.color == ScenarioColor(0x22, 0x22, 0x22) && c.bar.titleColor == ScenarioColor(255, 0, 0) && c.bar.style == .black)
        // A mistake inside an anchor is reported once, where the anchor is, however often it is used.
        let broken = yaml.replacingOccurrences(of: "color: \"#111111\"", with: "color: \"#11\"")
        guard case .failure(let errors) = Self.parse(broken) else { Issue.record("parsed"); return }
        #expect(errors.issues.filter { $0.message.contains("`#11`") }.count == 1, "\(errors.issues)")
        #expect(errors.issues.first { $0.message.contains("`#11`") }?.location.line == 2)
    }

    static let badCases: [BadCase] = [
        BadCase(name: "unknown root key", yaml: "devcies: [iphone-14]\n" + minimal.dropFirst(21), line: 1, column: 1,
                says: "unknown key `devcies` in the scenario (did you mean `devices`?)"),
        BadCase(name: "unknown screen key", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {titel: A}"), line: 3, column: 7,
                says: "unknown key `titel` in screen `a` (did you mean `title`?)"),
        BadCase(name: "wrong type", yaml: minimal + "fps: thirty\n", line: 7, column: 6, says: "fps must be a whole number, not `thirty`"),
        BadCase(name: "tapped on a push", yaml: minimal.replacingOccurrences(of: "  - show: a\n", with: "  - show: a\n  - push: b\n    tapped: true\n"),
                line: 8, column: 13, says: "tapped is for pop and popTo: the back button that a tap highlights (a push has none)"),
        BadCase(name: "a quoted number", yaml: minimal + "fps: \"30\"\n", line: 7, column: 6,
                says: "fps must be a whole number, not the quoted text `30` (quotes make it text: leave them out for a number or true/false)"),
        BadCase(name: "a UIKit name for a bar key", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, bar: {barTintColor: \"#FF0000\"}}"),
                line: 3, column: 23, says: "unknown key `barTintColor` in the bar of `a` (UIKit's barTintColor is the bar's background colour: NavReel's `color`"),
        BadCase(name: "a SwiftUI modifier for a screen key", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {navigationTitle: A}"),
                line: 3, column: 7, says: "unknown key `navigationTitle` in screen `a` (SwiftUI's navigationTitle is a screen's `title`)"),
        BadCase(name: "SwiftUI's toolbarColorScheme", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, toolbarColorScheme: dark}"),
                line: 3, column: 17, says: "(SwiftUI's toolbarColorScheme(.dark) is the bar's `style: black`"),
        BadCase(name: "a style named as SwiftUI's colour scheme", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, bar: {style: dark}}"),
                line: 3, column: 30, says: "style must be one of default, black, not `dark` (a dark bar with light status bar content is `black`)"),
        BadCase(name: "SwiftUI's Color.red", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, bar: {color: Color.red}}"),
                line: 3, column: 30, says: "not `Color.red` (did you mean \"#FF3B30\"? SwiftUI's Color.red is iOS's systemRed in the light appearance)"),
        BadCase(name: "a quoted list", yaml: "devices: \"iphone-14\"\n" + minimal.dropFirst(21), line: 1, column: 10,
                says: "devices must be a list, not `iphone-14`"),
        BadCase(name: "setBar's style named as SwiftUI's colour scheme", yaml: minimal + "  - setBar: {style: dark}\n", line: 7, column: 21,
                says: "not `dark` (a dark bar with light status bar content is `black`)"),
        BadCase(name: "a spring curve", yaml: minimal + "  - push: b\n    curve: spring\n", line: 8, column: 12,
                says: "not `spring` (springs are not modelled; pushes and pops default to UIKit's measured curve"),
        BadCase(name: "CSS's easeOut", yaml: minimal + "  - push: b\n    curve: easeOut\n", line: 8, column: 12,
                says: "not `easeOut` (`easeOut` is the cubic-bezier [0, 0, 0.58, 1]: write `curve: [0, 0, 0.58, 1]`)"),
        BadCase(name: "a UIKit name for a screen key", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, scrollEdgeAppearance: {}}"),
                line: 3, column: 17, says: "(NavReel's `scrollEdge` (in `bar:`, `appearance:` or `setBar:`"),
        BadCase(name: "backButtonDisplayMode of no mode", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, backButtonDisplayMode: tiny}"),
                line: 3, column: 40, says: "backButtonDisplayMode must be one of default, generic, minimal, not `tiny`"),
        BadCase(name: "header stretch not a boolean", yaml: minimal.replacingOccurrences(
                    of: "a: {title: A}", with: "a: {title: A, content: {header: {gradient: {colors: [\"#000000\", \"#FFFFFF\"]}, height: 100, stretch: often}}}"),
                line: 3, column: 102, says: "header stretch must be true or false, not `often`"),
        BadCase(name: "a wait far past its range names its range, not the bound on every number", yaml: minimal + "  - wait: 1e7\n", line: 7, column: 11,
                says: "wait must be at most 3600, not 10000000"),
        BadCase(name: "a scroll far past its range names its range", yaml: minimal + "  - scroll: {to: -1e7}\n", line: 7, column: 18,
                says: "must be at least -300, not -10000000"),
        BadCase(name: "header parallax over 1", yaml: minimal.replacingOccurrences(
                    of: "a: {title: A}", with: "a: {title: A, content: {header: {gradient: {colors: [\"#000000\", \"#FFFFFF\"]}, height: 100, parallax: 1.5}}}"),
                line: 3, column: 103, says: "header parallax must be at most 1, not 1.5"),
        BadCase(name: "scroll alpha max over 1", yaml: minimal.replacingOccurrences(
                    of: "a: {title: A}", with: "a: {title: A, scroll: {alpha: {start: 0, end: 50, max: 1.5}}}"),
                line: 3, column: 58, says: "scroll.alpha max must be at most 1, not 1.5"),
        BadCase(name: "unknown bar transition", yaml: minimal + "barTransition: crossfade\n", line: 7, column: 16,
                says: "barTransition must be one of hbd, switch, crossFade, not `crossfade` (did you mean `crossFade`?)"),
        BadCase(name: "split with a plain UIKit bar", yaml: "barTransition: switch\n" + minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, bar: {split: true}}"),
                line: 4, column: 30, says: "`split: true` needs HBDNavigationBar's fake bars; with `barTransition: switch` the one UIKit bar never splits"),
        BadCase(name: "unknown screen in a step", yaml: minimal + "  - push: bb\n", line: 7, column: 11, says: "unknown screen `bb` (did you mean `b`?)"),
        BadCase(name: "unquoted colour", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a:\n    bar:\n      color: #FFFFFF"),
                line: 5, column: 13, says: "an unquoted # starts a YAML comment"),
        BadCase(name: "unquoted colour in a flow mapping", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {color: #FFFFFF, translucent: false}}"),
                line: 4, column: 4, says: "line 3 has an unquoted colour (#FFFFFF): an unquoted # starts a YAML comment, so quote it (\"#FFFFFF\")"),
        BadCase(name: "bad colour", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {color: \"#12345\"}}"),
                line: 3, column: 20, says: "not `#12345`"),
        BadCase(name: "path escaping Fixtures", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: ../../etc/passwd}}"),
                line: 3, column: 20, says: "leaves the Fixtures folder"),
        BadCase(name: "absolute path", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: /etc/passwd}}"),
                line: 3, column: 20, says: "not an absolute path"),
        BadCase(name: "missing asset", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: images/nope.png}}"),
                line: 3, column: 20, says: "missing asset: image `images/nope.png` is not a file: no \(fixtures)/images/nope.png "
                    + "(image paths are relative to `\(fixtures)`, the folder above the scenarios folder)"),
        BadCase(name: "name with capitals and spaces", yaml: "name: Wechat Pop\n" + minimal, line: 1, column: 7,
                says: "name `Wechat Pop` may only use a-z"),
        BadCase(name: "a name that would leave Baselines/", yaml: "name: ..\n" + minimal, line: 1, column: 7,
                says: "may not start with '.'"),
        BadCase(name: "a device name that would leave Baselines/",
                yaml: "devices: [{name: .., width: 100, height: 100, scale: 1, statusBar: 20}]\n" + minimal.dropFirst(21), line: 1, column: 18,
                says: "device name `..`"),
        BadCase(name: "negative duration", yaml: minimal + "  - push: b\n    duration: -1\n", line: 8, column: 15, says: "duration must be at least 0"),
        BadCase(name: "a pull-down past the rubber band", yaml: minimal + "  - scroll: {to: -301}\n", line: 7, column: 18,
                says: "scroll to must be at least -300"),
        BadCase(name: "an image scale beyond any screen's",
                yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: {file: images/wood.png, scale: 5}}}"),
                line: 3, column: 51, says: "image scale must be at most 4, not 5"),
        BadCase(name: "an image given as a mapping without its file",
                yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: {scale: 2}}}"),
                line: 3, column: 20, says: "needs `file`"),
        BadCase(name: "one file given two scales",
                yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: {file: images/wood.png, scale: 2}}}")
                    .replacingOccurrences(of: "b: {title: B}", with: "b: {bar: {image: {file: images/wood.png, scale: 3}}}"),
                line: 4, column: 51, says: "`images/wood.png` is given scale 3 here and 2 at line 3"),
        BadCase(name: "a custom device's landscape inset out of range",
                yaml: "devices: [{name: d, width: 300, height: 600, scale: 2, statusBar: 20, landscapeInset: -1}]\n" + minimal.dropFirst(21),
                line: 1, column: 87, says: "landscapeInset must be at least 0"),
        BadCase(name: "a render scale above one device's of several",
                yaml: "devices: [iphone-se, iphone-14]\nscale: 3\n" + minimal.dropFirst(21), line: 2, column: 8,
                says: "scale 3 is above the device scale of iphone-se (2); a render scale may only lower it: use at most 2"),
        BadCase(name: "a render scale above the one device's",
                yaml: "devices: [iphone-se]\nscale: 2.5\n" + minimal.dropFirst(21), line: 2, column: 8,
                says: "scale 2.5 is above the device scale 2; a render scale may only lower it"),
        BadCase(name: "titleFollowsAlpha not a boolean",
                yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {scroll: {titleFollowsAlpha: sometimes}}"),
                line: 3, column: 35, says: "titleFollowsAlpha must be true or false, not `sometimes`"),
        BadCase(name: "malformed YAML", yaml: "devices: [iphone-14\nscreens: {}\n", line: 2, column: 8, says: "malformed YAML"),
        BadCase(name: "duplicate key, at the repeat", yaml: minimal + "fps: 30\nfps: 60\n", line: 8, column: 1,
                says: "duplicate key `fps` in a mapping (first at line 7)"),
        BadCase(name: "duplicate screen", yaml: minimal.replacingOccurrences(of: "  b: {title: B}", with: "  a: {title: A2}"), line: 4, column: 3,
                says: "duplicate key `a` in a mapping (first at line 3)"),
        BadCase(name: "duplicate key in a flow mapping", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, title: B}"),
                line: 3, column: 17, says: "duplicate key `title` in a mapping (first at line 3)"),
        BadCase(name: "a key one space off its siblings", yaml: "devices: [iphone-14]\nscreens:\n  a:\n    title: A\n   content: {rows: 2}\nsteps:\n  - show: a\n",
                line: 5, column: 4, says: "line 5 is indented 3 spaces, which lines up with no line above it (2 or 4 nearby)"),
        BadCase(name: "a bare action", yaml: minimal + "  - push: b\n  - pop\n", line: 8, column: 5,
                says: "a step must be a mapping (key: value), not `pop`: write `- pop: {}`"),
        BadCase(name: "a CSS short colour", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {color: \"#FFF\"}}"),
                line: 3, column: 20, says: "not `#FFF` (did you mean \"#FFFFFF\"?)"),
        BadCase(name: "a colour name", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {tintColor: red}}"),
                line: 3, column: 24, says: "not `red` (did you mean \"#FF3B30\", iOS's systemRed (UIKit's .systemRed, SwiftUI's Color.red), or \"#FF0000\", UIKit's fixed UIColor.red?)"),
        BadCase(name: "rgba()", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {color: \"rgba(0, 0, 255, 0.5)\"}}"),
                line: 3, column: 20, says: "(did you mean \"#0000FF80\"?)"),
        BadCase(name: "a bar key beside bar:", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, split: true}"),
                line: 3, column: 17, says: "unknown key `split` in screen `a`: it belongs under `bar:`"),
        BadCase(name: "setBar style that is neither", yaml: minimal + "  - setBar: {hidden: true, style: wipe}\n", line: 7, column: 35,
                says: "style in setBar is the bar style (default, black) or, with `hidden`, how the bar hides or shows (fade, slide); not `wipe`"),
        BadCase(name: "scrollEdge neither transparent nor a mapping", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {scrollEdge: clear}}"),
                line: 3, column: 25, says: "scrollEdge takes `transparent` (UIKit's default: no background, no shadow) or a mapping of"),
        BadCase(name: "a scrollEdge key it does not take", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {scrollEdge: {hidden: true}}}"),
                line: 3, column: 26, says: "unknown key `hidden` in scrollEdge"),
        BadCase(name: "an unknown back button display mode", yaml: minimal.replacingOccurrences(of: "b: {title: B}", with: "b: {title: B, backButton: {displayMode: short}}"),
                line: 4, column: 43, says: "displayMode must be one of default, generic, minimal, not `short`"),
        BadCase(name: "a display mode for a custom back button", yaml: minimal.replacingOccurrences(of: "b: {title: B}", with: "b: {title: B, backButton: {image: images/wood.png, displayMode: minimal}}"),
                line: 4, column: 67, says: "displayMode applies to the standard back button, not to one with an image"),
        BadCase(name: "setBar with a hide style alone", yaml: minimal + "  - setBar: {style: slide}\n", line: 7, column: 13,
                says: "setBar needs at least one bar key; style: slide only says how `hidden` animates (`setBar: {hidden: true, style: slide}`)"),
        BadCase(name: "a duplicate beside a nested one of the same name", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: A, bar: {color: \"#FFFFFF\", title: x}, title: B}"),
                line: 3, column: 52, says: "duplicate key `title` in a mapping (first at line 3)"),
        BadCase(name: "a duplicate after an apostrophe and an escaped quote", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {title: What's New, bar: {titleColor: \"#FFFFFF\"}, largeTitle: true, title: \"x\\\"y\"}"),
                line: 3, column: 74, says: "duplicate key `title` in a mapping (first at line 3)"),
        BadCase(name: "a merge of a scalar, at the <<", yaml: "devices: [iphone-14]\nx-s: &s black\nscreens:\n  a: {title: A, bar: {<<: [*s]}}\nsteps:\n  - show: a\n",
                line: 4, column: 23, says: "this list holds `black`"),
        BadCase(name: "unknown device", yaml: "devices: [iphone14]\n" + minimal.dropFirst(21), line: 1, column: 11,
                says: "unknown device `iphone14` (did you mean `iphone-14`?)"),
        BadCase(name: "pop on the root screen", yaml: minimal + "  - pop: {}\n", line: 7, column: 5, says: "nothing to pop"),
        BadCase(name: "two actions in one step", yaml: minimal + "  - push: b\n    pop: {}\n", line: 7, column: 5, says: "a step has one action"),
        BadCase(name: "unknown action", yaml: minimal + "  - pusj: b\n", line: 7, column: 5, says: "(did you mean `push`?)"),
        BadCase(name: "first step is not show", yaml: minimal.replacingOccurrences(of: "  - show: a\n", with: "  - wait: 1\n"),
                line: 6, column: 5, says: "the first step must be `show: SCREEN`"),
        BadCase(name: "unknown element in tolerance", yaml: minimal + "tolerance: {elements: {titel: ignore}}\n", line: 7, column: 24,
                says: "unknown element `titel` (did you mean `title`?)"),
        BadCase(name: "bad curve", yaml: minimal + "  - push: b\n    curve: easeinout\n", line: 8, column: 12, says: "(did you mean `easeInOut`?)"),
        BadCase(name: "yes is not a boolean", yaml: minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {largeTitle: yes}"),
                line: 3, column: 19, says: "largeTitle must be true or false"),
        BadCase(name: "swipe beyond the width", yaml: minimal + "  - push: b\n  - swipeBack: {to: 1.5}\n", line: 8, column: 21, says: "at most 1"),
        BadCase(name: "pushing a screen twice", yaml: minimal + "  - push: b\n  - push: a\n", line: 8, column: 5,
                says: "already on the stack; a screen can be pushed once. To push another like it (a NavigationStack pushing the same view again), give the copy its own name with a YAML anchor: `a: &a {…}`, then `a-2: *a` under screens"),
        BadCase(name: "a step other than swipeBack or wait while the finger is down",
                yaml: minimal + "  - push: b\n  - swipeBack: {to: 0.5, release: hold}\n  - wait: 0.1\n  - pop: {}\n"
                    + "  - swipeBack: {to: 0.1, release: cancel}\n",
                line: 10, column: 5, says: "`pop` while the finger is still down (the swipeBack at line 8 has `release: hold`)"),
        BadCase(name: "a run that ends with the finger down",
                yaml: minimal + "  - push: b\n  - swipeBack: {to: 0.5, release: hold}\n  - swipeBack: {to: 0.2, release: hold}\n",
                line: 9, column: 5, says: "the run ends with the finger still down"),
        BadCase(name: "an unknown release", yaml: minimal + "  - push: b\n  - swipeBack: {to: 0.5, release: keep}\n",
                line: 8, column: 35, says: "finish, cancel, hold"),
    ]

    @Test("bad input gets an error at its line and column", arguments: badCases)
    func bad(_ c: BadCase) {
        switch Self.parse(c.yaml) {
        case .success: Issue.record("parsed")
        case .failure(let errors):
            let match = errors.issues.first { $0.message.contains(c.says) }
            #expect(match != nil, "\(errors)")
            #expect(match?.location.line == c.line, "\(errors)")
            #expect(match?.location.column == c.column, "\(errors)")
            #expect(match?.location.file == "Fixtures/scenarios/test.yaml")
        }
    }

    @Test("an image's explicit scale is kept by path; a plain path leaves the scale to the file name")
    func imageScales() throws {
        let yaml = Self.minimal.replacingOccurrences(of: "a: {title: A}", with: "a: {bar: {image: {file: images/wood.png, scale: 2}}}")
            .replacingOccurrences(of: "b: {title: B}", with: "b: {bar: {image: images/wood.png}}")
        let s = try Self.parse(yaml).get()
        #expect(s.imageScales == ["images/wood.png": 2])
        #expect(s.screen("a")?.bar.image == "images/wood.png" && s.screen("b")?.bar.image == "images/wood.png")
        #expect(try Self.parse(Self.minimal).get().imageScales.isEmpty)
    }

    @Test("all errors of a file are reported at once, in order")
    func allAtOnce() throws {
        let yaml = "devcies: [iphone-14]\nfps: 0\nscreens:\n  a: {titel: A, bar: {color: red}}\nsteps:\n  - show: b\n"
        guard case .failure(let errors) = Self.parse(yaml) else { Issue.record("parsed"); return }
        #expect(errors.issues.count >= 5, "\(errors)")
        let lines = errors.issues.map(\.location.line)
        #expect(lines == lines.sorted())
        #expect(errors.description.contains("test.yaml:2:6: error: fps must be at least 1"))
    }

    @Test("a step that does not parse is its only error: the stack is not replayed past it")
    func noCascade() throws {
        // An unknown screen in the first step: the pushes after it are not "before any screen".
        let yaml = "devices: [iphone-14]\nscreens:\n  a: {title: A}\n  c: {title: C}\nsteps:\n  - show: b\n  - push: c\n  - pop: {}\n"
        guard case .failure(let errors) = Self.parse(yaml) else { Issue.record("parsed"); return }
        #expect(errors.issues.map(\.message) == ["unknown screen `b` (did you mean `a`?)"], "\(errors)")
        // A broken step that leaves the stack alone is skipped: the stack errors after it are reported.
        let wait = "devices: [iphone-14]\nscreens:\n  a: {title: A}\n  c: {title: C}\nsteps:\n  - show: a\n  - wait: -1\n  - pop: {}\n  - push: c\n  - push: c\n"
        guard case .failure(let e3) = Self.parse(wait) else { Issue.record("parsed"); return }
        #expect(e3.issues.count == 3 && e3.issues[1].message.contains("nothing to pop") && e3.issues[2].message.contains("already on the stack"), "\(e3)")
        // A stack error before the broken step is still reported.
        let before = "devices: [iphone-14]\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n  - pop: {}\n  - push: zz\n"
        guard case .failure(let e2) = Self.parse(before) else { Issue.record("parsed"); return }
        #expect(e2.issues.count == 2 && e2.issues[0].message.contains("nothing to pop") && e2.issues[1].message.contains("unknown screen `zz`"), "\(e2)")
    }

    @Test("a line indented with a tab says so")
    func tabIndent() throws {
        guard case .failure(let errors) = Self.parse("devices: [iphone-14]\nscreens:\n\ta: {title: A}\nsteps:\n  - show: a\n") else {
            Issue.record("parsed"); return
        }
        #expect(errors.issues.count == 1 && errors.issues[0].location.line == 3
                && errors.issues[0].message.hasSuffix("line 3 is indented with a tab: YAML indents with spaces only"), "\(errors)")
        // Lines ended by CRLF (one Character in Swift) are counted as lines too.
        guard case .failure(let crlf) = Self.parse("devices: [iphone-14]\r\nscreens:\r\n\ta: {title: A}\r\nsteps:\r\n  - show: a\r\n") else {
            Issue.record("parsed"); return
        }
        #expect(crlf.issues.first?.message.hasSuffix("line 3 is indented with a tab: YAML indents with spaces only") == true, "\(crlf)")
        // A tab inside a line is no indentation: no hint.
        #expect(ScenarioParser.tabHint("a:\tb\n", line: 1).isEmpty && ScenarioParser.tabHint("x", line: 9).isEmpty)
    }

    @Test("the name defaults to the file name, which must be valid")
    func defaultName() throws {
        #expect(try Self.parse(Self.minimal, name: "gradient-bar").get().name == "gradient-bar")
        guard case .failure(let e) = Self.parse(Self.minimal, name: "ScenarioGradient Bar") else { Issue.record("parsed"); return }
        #expect(e.description.contains("rename the file or add `name:`"))
    }

    @Test("timing profiles set push and pop; explicit timings win", arguments: [
        ("{profile: native}", Timing(duration: 0.5, curve: .bezier(0.265, 1.012, 0.356, 0.988)), Timing(duration: 0.5, curve: .bezier(0.265, 1.012, 0.356, 0.988))),
        ("{profile: ionic}", Timing(duration: 0.54, curve: .bezier(0.32, 0.72, 0, 1)), Timing(duration: 0.54, curve: .bezier(0.32, 0.72, 0, 1))),
        ("{profile: flutter, pop: {duration: 0.3}}", Timing(duration: 0.5, curve: .bezier(0.18, 1.0, 0.04, 1.0)),
         Timing(duration: 0.3, curve: .bezier(0.18, 1.0, 0.04, 1.0))),
        // No profile: the measured one (renderer 6).
        ("{}", Timing(duration: 0.5, curve: .bezier(0.265, 1.012, 0.356, 0.988)), Timing(duration: 0.5, curve: .bezier(0.265, 1.012, 0.356, 0.988))),
    ])
    func profiles(_ timing: String, _ push: Timing, _ pop: Timing) throws {
        let s = try Self.parse(Self.minimal + "timing: \(timing)\n").get()
        #expect(s.timing.push == push && s.timing.pop == pop)
    }

    @Test("an unknown timing profile is an error with a suggestion")
    func badProfile() {
        guard case .failure(let e) = Self.parse(Self.minimal + "timing: {profile: nativ}\n") else { Issue.record("parsed"); return }
        #expect(e.description.contains("test.yaml:7:19: error: timing profile must be one of ionic, native, flutter, not `nativ` (did you mean `native`?)"))
    }

    @Test("JSON is YAML too")
    func json() throws {
        let json = #"{"devices": ["iphone-se"], "fps": 10, "screens": {"a": {"title": "A"}}, "steps": [{"show": "a"}, {"wait": 0.5}]}"#
        let s = try Self.parse(json).get()
        #expect(s.fps == 10 && s.steps.count == 2)
    }

    @Test("custom devices", arguments: [
        ("devices: [{name: tablet, width: 768, height: 1024, scale: 2, statusBar: 20}]", true),
        ("devices: [{name: tablet, width: 768, height: 1024, scale: 2}]", false),
        ("devices: [{name: Tablet, width: 768, height: 1024, scale: 2, statusBar: 20}]", false),
    ])
    func customDevices(_ line: String, _ ok: Bool) {
        let yaml = line + "\n" + Self.minimal.dropFirst(21)
        switch Self.parse(yaml) {
        case .success(let s): #expect(ok && s.devices[0].width == 768)
        case .failure(let e): #expect(!ok, "\(e)")
        }
    }

    @Test("did you mean", arguments: [("devcies", "devices"), ("Title", "title"), ("tintcolor", "tintColor"), ("xyzzy", nil)] as [(String, String?)])
    func suggestions(_ word: String, _ expected: String?) {
        #expect(Suggestion.closest(to: word, in: ["devices", "title", "tintColor", "titleColor"]) == expected)
    }
}
