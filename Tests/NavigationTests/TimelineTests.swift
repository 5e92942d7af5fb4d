import Testing
import Foundation
@testable import Navigation
@testable import Scenario

/// The navigation tests' scenarios, on Ionic's 0.54 s push and pop unless they give a timing:
/// their times (a push ends at 0.54, a swipe after it starts there) were written for it, and what
/// they test, the rules at a progress, does not depend on the curve that gives the progress. The
/// default timing itself is tested in ScenarioParserTests ("timing profiles") and
/// TransitionTests.nativeTiming.
func scenario(_ yaml: String) throws -> Scenario {
    let pinned = yaml.contains("\ntiming:") || yaml.hasPrefix("timing:") ? yaml : "timing: {profile: ionic}\n" + yaml
    return try ScenarioParser.parse(yaml: pinned, file: "t.yaml", defaultName: "t", fixturesRoot: nil).get()
}

func timeline(_ yaml: String, device: String = "iphone-14") throws -> Timeline {
    let s = try scenario(yaml)
    return Timeline(scenario: s, device: Device.named(device) ?? s.devices[0])
}

let twoScreens = """
devices: [iphone-14]
screens:
  me: {title: Me, bar: {style: black, color: "#000000"}}
  favorites: {title: Favorites, bar: {color: "#FFFFFF"}}
  white2: {title: White, bar: {color: "#FFFFFF"}}

"""

@Suite("timing curves")
struct CurveTests {
    @Test("linear, ease-in-out and the Ionic push curve", arguments: [
        (Curve.linear, 0.25, 0.25), (Curve.linear, 0.5, 0.5), (Curve.easeInOut, 0.5, 0.5),
        (Curve.easeInOut, 0.0, 0.0), (Curve.easeInOut, 1.0, 1.0),
        // Reference values of cubic-bezier(0.32, 0.72, 0, 1), solved independently below.
        (Curve.bezier(0.32, 0.72, 0, 1), 0.5, -1.0),
    ])
    func values(_ curve: Curve, _ x: Double, _ expected: Double) {
        let b = CubicBezier(curve)
        let want = expected >= 0 ? expected : reference(curve, x)
        #expect(abs(b(x) - want) < 1e-7, "\(b(x)) vs \(want)")
    }

    /// Dense bisection on the parametric form, independent of the solver's Newton steps.
    func reference(_ curve: Curve, _ x: Double) -> Double {
        let (x1, y1, x2, y2) = curve.controlPoints
        func bx(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t }
        func by(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let mid = (lo + hi) / 2; if bx(mid) < x { lo = mid } else { hi = mid } }
        return by((lo + hi) / 2)
    }

    @Test("every curve is solved to 1e-7 across its range")
    func accuracy() {
        for curve in [Curve.easeInOut, .bezier(0.32, 0.72, 0, 1), .bezier(0.4, 0, 0.2, 1), .bezier(0.1, 0.9, 0.9, 0.1)] {
            let b = CubicBezier(curve)
            for i in 0...200 {
                let x = Double(i) / 200
                #expect(abs(b(x) - reference(curve, x)) < 1e-7, "\(curve) at \(x)")
            }
        }
    }
}

@Suite("timeline")
struct TimelineTests {
    @Test("the incoming screen's x at p = 0.5 of a linear push is W/2; the outgoing one at -0.15 W under 0.05 dimming")
    func linearPush() throws {
        let t = try timeline(twoScreens + "steps:\n  - show: me\n  - push: favorites\n    duration: 1\n    curve: linear\n")
        let s = t.state(at: 0.5)
        #expect(s.screens.map(\.name) == ["me", "favorites"])
        #expect(abs(s.screens[1].x - 195) < 1e-9)
        #expect(abs(s.screens[0].x - -58.5) < 1e-9)
        #expect(abs(s.screens[0].dimming - 0.05) < 1e-9)
        #expect(s.screens[1].edgeShadow == 0.5, "the edge shadow follows the coverage, as the dimming does")
        #expect(s.transition?.progress == 0.5)
    }

    @Test("frame counts are exact, whatever the floating-point sums; the last frame is at or just after the end", arguments: [
        ("  - wait: 0.1\n  - wait: 0.2\n", 10, 4),      // 0.1 + 0.2 != 0.3 in floating point
        ("  - push: favorites\n", 30, 18),                // 0.54 s: frames 0...16, and 17 at 0.567 s
        ("  - wait: 1\n", 30, 31),
        ("  - wait: 0.3333333\n  - wait: 0.6666667\n", 3, 4),
        ("  - wait: 0.2\n  - wait: 0.000001\n", 10, 4),   // a microsecond past frame 2: frame 3
        ("", 30, 1),
    ])
    func frameCount(_ steps: String, _ fps: Int, _ frames: Int) throws {
        let t = try timeline(twoScreens + "fps: \(fps)\nsteps:\n  - show: me\n" + steps)
        #expect(t.frameCount == frames)
        // The last frame is the first at or after the end; the one before it is before the end.
        #expect(t.time(ofFrame: frames - 1) >= t.duration - 1e-9)
        if frames > 1 { #expect(t.time(ofFrame: frames - 2) < t.duration - 1e-9) }
    }

    @Test("the state the steps end in is in the last frame: an instant setBar or pop after a push that ends between frames")
    func endStateInLastFrame() throws {
        for (last, check) in [
            ("  - setBar: {color: \"#0000FF\", animated: false}\n", { (s: NavigationState) in s.screens.last?.name == "favorites" }),
            ("  - pop: {animated: false}\n", { (s: NavigationState) in s.screens.map(\.name) == ["me"] }),
        ] {
            let t = try timeline(twoScreens + "steps:\n  - show: me\n  - push: favorites\n" + last)
            var end = t.state(atFrame: t.frameCount - 1), atEnd = t.state(at: t.duration)
            end.time = 0
            atEnd.time = 0
            #expect(end == atEnd, "\(last)")
            #expect(end.transition == nil && check(end), "\(last)")
            #expect(t.state(atFrame: t.frameCount - 2).transition != nil, "the frame before the end is still moving")
        }
    }

    @Test("shared or split, by HBD's rule", arguments: [
        ("me", "favorites", true),        // black to white: split
        ("favorites", "white2", false),   // two equal bars: shared
    ])
    func sharedOrSplit(_ from: String, _ to: String, _ split: Bool) throws {
        let t = try timeline(twoScreens + "steps:\n  - show: \(from)\n  - push: \(to)\n")
        let s = t.state(at: 0.27)
        #expect(s.transition?.split == split)
        if split {
            #expect(s.bar == nil)
            #expect(s.screens.allSatisfy { $0.bar != nil }, "each screen carries its own bar")
            #expect(s.screens[0].bar?.background.color == (from == "me" ? ScenarioColor(0, 0, 0) : .white))
        } else {
            #expect(s.bar != nil)
            #expect(s.screens.allSatisfy { $0.bar == nil })
        }
    }

    @Test("a WeChat pop: the status bar turns light with the pop; the hairline stays on one side")
    func wechatPop() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          me: {title: Me, bar: {style: black, shadowHidden: true}}
          favorites: {title: Favorites}
        steps:
          - show: me
          - push: favorites
          - pop: {duration: 1, curve: linear}
        """
        let t = try timeline(yaml)
        let early = t.state(at: 0.54 + 0.2), late = t.state(at: 0.54 + 0.8)
        #expect(early.transition?.kind == .pop && early.transition?.split == true)
        // Light content coming in with the pop's progress (linear here), dark going.
        #expect(early.statusBar.style == .black && early.statusBar.previous == .default)
        #expect(abs(early.statusBar.light - 0.2) < 1e-9 && abs(late.statusBar.light - 0.8) < 1e-9)
        #expect(t.state(at: 0.54).statusBar.style == .default, "at rest before the pop")
        let me = try #require(early.screens.first { $0.name == "me" }?.bar)
        let fav = try #require(early.screens.first { $0.name == "favorites" }?.bar)
        #expect(me.shadowAlpha == 0 && fav.shadowAlpha == 1)
        #expect(me.background.color == ResolvedBar.defaultBlack)
        #expect(me.background.material == .light)
    }

    @Test("an animated setBar restyles the status bar with the bar, from dark content to light and back")
    func setBarStatusBar() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A}
        steps:
          - show: a
          - setBar: {style: black, color: "#000000", duration: 1, curve: linear}
          - setBar: {style: default, color: "#FFFFFF", animated: false}
        """
        let t = try timeline(yaml)
        for q in [0.1, 0.5, 0.9] {
            let s = t.state(at: q).statusBar
            #expect(s.previous == .default && s.style == .black && abs(s.light - q) < 1e-9, "at \(q): \(s.light)")
        }
        let end = t.state(at: 1.001).statusBar
        #expect(end.light == 0 && end.change == 1, "an instant setBar switches at once")
    }

    @Test("scroll-driven alpha follows p^exponent, switches style below the threshold, and shows the hairline past an offset",
          arguments: [(0.0, 0.0, BarStyle.black, 0.0), (100.0, 0.0625, .black, 1.0), (160.0, 0.4096, .default, 1.0),
                      (200.0, 1.0, .default, 1.0), (400.0, 1.0, .default, 1.0), (5.0, 0.000000390625, .black, 0.0)])
    func scrollAlpha(_ offset: Double, _ alpha: Double, _ style: BarStyle, _ shadow: Double) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          g:
            title: ScenarioGradient
            content: {header: {gradient: {colors: ["#FF0000", "#0000FF"]}, height: 300}, rows: 20}
            scroll:
              alpha: {start: 0, end: 200, exponent: 4}
              styleBelowAlpha: {alpha: 0.1, style: black, tintColor: "#FFFFFF"}
              shadowFrom: 10
        steps:
          - show: g
          - scroll: {to: \(offset), animated: false}
        """
        let s = try timeline(yaml).state(at: 1)
        let bar = try #require(s.bar)
        #expect(abs(bar.alpha - alpha) < 1e-12)
        #expect(bar.style == style)
        #expect(s.statusBar.style == style && s.statusBar.change == 1, "a scroll switches the style at once")
        #expect(abs(bar.shadowAlpha - shadow * alpha) < 1e-12)
        let back = s.items.first { $0.element == .title }
        #expect(back?.color == (style == .black ? .white : .black))
        #expect(s.screens[0].contentOffset == offset)
    }

    @Test("scroll.alpha.max: the fade stops part way, and styleBelowAlpha compares with the alpha after it",
          arguments: [(0.0, 0.0, BarStyle.black), (40.0, 0.16, .black), (80.0, 0.32, .default), (100.0, 0.4, .default), (300.0, 0.4, .default)])
    func scrollAlphaMax(_ offset: Double, _ alpha: Double, _ style: BarStyle) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          g:
            title: Juejin
            bar: {color: "#FFFFFF", translucent: false}
            content: {header: {gradient: {colors: ["#403028", "#201818"]}, height: 260, parallax: 0}, rows: 20}
            scroll:
              alpha: {start: 0, end: 100, max: 0.4}
              styleBelowAlpha: {alpha: 0.3, style: black}
        steps:
          - show: g
          - scroll: {to: \(offset), animated: false}
        """
        let bar = try #require(try timeline(yaml).state(at: 1).bar)
        #expect(abs(bar.alpha - alpha) < 1e-12, "offset \(offset): \(bar.alpha)")
        #expect(bar.style == style)
        // Without `max` the same rule reaches 1.
        let full = try #require(try timeline(yaml.replacingOccurrences(of: ", max: 0.4", with: "")).state(at: 1).bar)
        #expect(abs(full.alpha - alpha / 0.4) < 1e-12)
    }

    @Test("titleFollowsAlpha: the title is black at the bar's alpha above the threshold and hidden below it (HBD's gradient demo)",
          arguments: [(170.0, pow(170.0 / 200, 4)), (200.0, 1.0), (100.0, 0.0), (0.0, 0.0)])
    func titleFollowsAlpha(_ offset: Double, _ titleAlpha: Double) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          g:
            title: Lake
            bar: {color: "#FFFFFF", translucent: false, tintColor: "#000000", titleColor: "#000000"}
            content: {rows: 20}
            scroll:
              alpha: {start: 0, end: 200, exponent: 4}
              styleBelowAlpha: {alpha: 0.1, style: black, tintColor: "#FFFFFF", titleColor: "#00000000"}
              titleFollowsAlpha: true
        steps:
          - show: g
          - scroll: {to: \(offset), animated: false}
        """
        let s = try timeline(yaml).state(at: 1)
        let title = try #require(s.items.first { $0.element == .title })
        #expect(abs(Double(title.color.a) - titleAlpha * 255) <= 0.5, "offset \(offset): \(title.color)")
        #expect(title.color.r == 0 && title.color.g == 0 && title.color.b == 0)
        // Without the key the title keeps its colour's alpha.
        let plain = try timeline(yaml.replacingOccurrences(of: "      titleFollowsAlpha: true\n", with: "")).state(at: 1)
        #expect(plain.items.first { $0.element == .title }?.color.a == (pow(offset / 200, 4) < 0.1 ? 0 : 255))
        // An opaque colour below the threshold follows the bar's alpha too.
        let white = try timeline(yaml.replacingOccurrences(of: "titleColor: \"#00000000\"", with: "titleColor: \"#FFFFFF\"")).state(at: 1)
        let below = try #require(white.items.first { $0.element == .title })
        #expect(abs(Double(below.color.a) - pow(offset / 200, 4) * 255) <= 0.5, "offset \(offset): \(below.color)")
    }

    @Test("a cancelled swipe ends where it began; a finished one pops")
    func swipe() throws {
        let base = twoScreens + "steps:\n  - show: favorites\n  - push: white2\n"
        let cancel = try timeline(base + "  - swipeBack: {to: 0.4, duration: 0.4, release: cancel}\n")
        let before = cancel.state(at: 0.54)
        let after = cancel.state(at: cancel.duration)
        #expect(after == { var s = before; s.time = after.time; return s }())
        let during = cancel.state(at: 0.54 + 0.4)
        #expect(abs(during.screens[1].x - 0.4 * 390) < 1e-6, "the finger's progress moves the screen")
        let finish = try timeline(base + "  - swipeBack: {to: 0.7, duration: 0.4}\n")
        #expect(finish.state(at: finish.duration).stack == ["favorites"])
        #expect(abs(finish.duration - (0.54 + 0.4 + 0.3 * 0.54)) < 1e-9, "finishes over the remaining fraction")
    }

    @Test("a held finger drags on from where it is, back towards the start too, until a swipeBack lifts it")
    func reversingFinger() throws {
        let base = twoScreens + "steps:\n  - show: favorites\n  - push: white2\n"
            + "  - swipeBack: {to: 0.7, duration: 0.7, release: hold}\n  - wait: 0.2\n"
            + "  - swipeBack: {to: 0.2, duration: 0.5, release: hold}\n"
        func x(_ t: Timeline, _ seconds: Double) -> Double? {
            let s = t.state(at: seconds)
            return s.screens.count == 2 ? s.screens[1].x / 390 : nil   // the finger: where the upper screen's edge is
        }
        for (ending, popped) in [("  - swipeBack: {to: 0.6, duration: 0.4}\n", true), ("  - swipeBack: {to: 0.6, duration: 0.4, release: cancel}\n", false),
                                 ("  - swipeBack: {to: 0.2, duration: 0, release: cancel}\n", false)] {
            let t = try timeline(base + ending)
            let push = 0.54
            // Out to 0.7, held still through the wait, back to 0.2, then on towards the release.
            for (time, finger) in [(push + 0.35, 0.35), (push + 0.7, 0.7), (push + 0.8, 0.7), (push + 0.9, 0.7),
                                   (push + 0.9 + 0.25, 0.45), (push + 1.4, 0.2)] {
                let got = try #require(x(t, time), "\(ending) at \(time)")
                #expect(abs(got - finger) < 1e-6, "\(ending) at \(time): finger \(got), expected \(finger)")
                #expect(t.state(at: time).stack == ["favorites", "white2"], "the stack stays until the finger lifts")
                #expect(t.state(at: time).statusBar.style == .default && t.state(at: time).transition?.kind == .swipeBack)
            }
            if ending.contains("0.6") {
                let got = try #require(x(t, push + 1.4 + 0.2))
                #expect(abs(got - 0.4) < 1e-6, "the last drag starts from the held finger (0.2), not from 0: \(got)")
            }
            let end = t.state(at: t.duration)
            #expect(end.stack == (popped ? ["favorites"] : ["favorites", "white2"]), "\(ending)")
            #expect(end.screens.count == 1 && end.transition == nil, "\(ending)")
            let release = popped ? 0.4 * 0.54 : (ending.contains("0.6") ? 0.6 * 0.54 : 0.2 * 0.54)
            let drag = ending.contains("0.4") ? 0.4 : 0
            #expect(abs(t.duration - (push + 1.4 + drag + release)) < 1e-6, "\(ending): \(t.duration)")
        }
    }

    @Test("a refused pop or swipe leaves the stack as it was", arguments: [
        ("backInteractive: false", "  - pop: {}\n"),
        ("backInteractive: false", "  - swipeBack: {to: 0.9, release: finish}\n"),
        ("swipeBack: false", "  - swipeBack: {to: 0.9, release: finish}\n"),
    ])
    func refused(_ flag: String, _ step: String) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A}
          b: {title: B, \(flag)}
        steps:
          - show: a
          - push: b
        \(step)
        """
        let t = try timeline(yaml)
        let end = t.state(at: t.duration)
        #expect(end.stack == ["a", "b"])
        #expect(end.screens.map(\.name) == ["b"] && end.screens[0].x == 0)
        #expect(t.duration > 0.54, "the refused step still takes its time")
    }

    @Test("swipeBack: false still allows the back button")
    func swipeOnlyRefusesGesture() throws {
        let yaml = "devices: [iphone-14]\nscreens:\n  a: {title: A}\n  b: {title: B, swipeBack: false}\nsteps:\n  - show: a\n  - push: b\n  - pop: {}\n"
        let t = try timeline(yaml)
        #expect(t.state(at: t.duration).stack == ["a"])
    }

    @Test("the tint moves by min(1, 4p) while dragging between shared bars")
    func swipeTint() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A, bar: {tintColor: "#000000"}}
          b: {title: B, bar: {tintColor: "#FFFFFF"}}
        steps:
          - show: a
          - push: b
          - swipeBack: {to: 0.5, duration: 1, release: cancel}
        """
        let t = try timeline(yaml)
        let s = t.state(at: 0.54 + 0.2)   // finger at 0.1: the tint is 40% of the way back to black
        #expect(s.transition?.split == false)
        let chevron = try #require(s.items.first { if case .chevron = $0.kind { return $0.alpha > 0 } else { return false } })
        #expect(chevron.color == ScenarioColor(153, 153, 153))
    }

    @Test("large titles collapse with scroll; the small title fades in over 0.15 s after", arguments: [
        (0.0, 52.0, 1.0), (30.0, 22.0, 1.0), (36.0, 16.0, 1.0), (38.0, 14.0, 0.0), (41.0, 11.0, 0.0), (60.0, 0.0, 0.0), (200.0, 0.0, 0.0),
    ])
    func largeTitles(_ offset: Double, _ ext: Double, _ largeAlpha: Double) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          s: {title: Settings, largeTitle: true, content: {rows: 40}}
        steps:
          - show: s
          - scroll: {to: \(offset), duration: 1, curve: linear}
          - wait: 1
        """
        let t = try timeline(yaml)
        let s = t.state(at: 2)
        let bar = try #require(s.bar)
        #expect(abs(bar.height - (47 + 44 + ext)) < 1e-9)
        let large = try #require(s.items.first { $0.element == .largeTitle })
        #expect(large.alpha == largeAlpha)
        #expect(abs(large.y + large.height - (47 + 44 + ext - 8)) < 1e-9, "8 pt above the bar's bottom")
        let small = try #require(s.items.first { $0.element == .title })
        // The small title comes in with 15 pt of the extension left (a real iPhone, ScreenParts).
        #expect(small.alpha == (offset >= 37 ? 1 : 0))
        if offset >= 37 {
            // Crossing 37 happens at 37/offset of the linear scroll; 0.075 s later the title is half in.
            let crossing = 37 / offset
            let half = t.state(at: crossing + 0.075)
            let title = try #require(half.items.first { $0.element == .title })
            #expect(abs(title.alpha - 0.5) < 0.02, "\(title.alpha)")
        }
    }

    @Test("backButton displayMode: default tries the title then Back, generic only Back, minimal the chevron alone",
          arguments: [("default", "Inbox 12345"), ("generic", "Back"), ("minimal", nil)] as [(String, String?)])
    func displayMode(_ mode: String, _ expected: String?) throws {
        let (label, items, _) = try Self.backButton(root: "title: Inbox 12345", pushed: "title: Mail, backButton: {displayMode: \(mode)}")
        #expect(label == expected)
        #expect(items.contains { $0.kind == .chevron }, "the chevron in every mode")
    }

    /// The back label's text, and the items, once screen b is pushed over screen a.
    static func backButton(root: String, pushed: String) throws -> (String?, [BarItem], Timeline) {
        let yaml = "devices: [iphone-14]\nscreens:\n  a: {\(root)}\n  b: {\(pushed)}\nsteps:\n  - show: a\n  - push: b\n"
        let t = try timeline(yaml)
        let items = t.state(at: t.duration).items
        let label = items.compactMap { if case .text(let s) = $0.kind, $0.element == .backButton { return s } else { return nil } }.first
        return (label, items, t)
    }

    @Test("UIKit's backButtonTitle and backButtonDisplayMode on the previous screen shape the pushed screen's button; its own backButton wins",
          arguments: [("backButtonDisplayMode: minimal", "", nil), ("backButtonDisplayMode: generic", "", "Back"),
                      ("backButtonTitle: Mailboxes", "", "Mailboxes"), ("backButtonTitle: Mailboxes", ", backButton: {title: Up}", "Up"),
                      ("backButtonDisplayMode: minimal", ", backButton: {displayMode: default}", "Inbox")] as [(String, String, String?)])
    func previousScreenBackButton(_ previous: String, _ own: String, _ expected: String?) throws {
        let (label, _, t) = try Self.backButton(root: "title: Inbox, \(previous)", pushed: "title: Mail\(own)")
        #expect(label == expected)
        // The root's own bar has no back button: the keys shape only the screens pushed over it.
        #expect(t.state(at: 0).items.allSatisfy { $0.element != .backButton })
    }

    /// UIKit's scrollEdgeAppearance: the bar at the top of its content looks so, and cross-fades
    /// to its standard look over 0.15 s as it leaves the edge: a large-title bar with its title's
    /// transfer (offset 37), another as soon as content scrolls under it.
    @Test("a scrollEdge look at the top cross-fades to the standard one as the content leaves the edge")
    func scrollEdge() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          inbox: {title: Inbox, largeTitle: true, bar: {color: "#FF0000", translucent: false, scrollEdge: transparent}, content: {rows: 40}}
          mail: {title: Mail, bar: {color: "#0000FF", translucent: false, scrollEdge: {color: "#00FF00", shadowHidden: true}}, content: {rows: 40}}
        steps:
          - show: inbox
          - scroll: {to: 74, duration: 1, curve: linear}
          - wait: 0.5
          - push: mail
            animated: false
          - scroll: {to: 50, duration: 1, curve: linear}
          - wait: 0.5
        """
        let t = try timeline(yaml)
        // Transparent at the top: no background, no hairline; the red bar comes in as the large
        // title gives way (offset 37, half the 1 s scroll), half in 0.075 s later.
        let top = try #require(t.state(at: 0).bar)
        #expect(top.alpha == 0 && top.shadowAlpha == 0)
        let half = try #require(t.state(at: 0.5 + 0.075).bar)
        #expect(abs(half.alpha - 0.5) < 0.02 && abs(half.shadowAlpha - 0.5) < 0.02, "\(half.alpha) \(half.shadowAlpha)")
        let away = try #require(t.state(at: 1.4).bar)
        #expect(away.alpha == 1 && away.shadowAlpha == 1 && away.background.color == ScenarioColor(255, 0, 0))
        // A bar without a large title: green at the top, blue once content has scrolled 10 pt
        // under it, mixed with the offset (Flutter's iOS 17 measure); the scroll starts at 1.5 s
        // at 50 pt a second, so at 1.6 s (5 pt) the two are half mixed.
        let green = try #require(t.state(at: 1.5).bar)
        #expect(green.background.color == ScenarioColor(0, 255, 0) && green.shadowAlpha == 0)
        let mixed = try #require(t.state(at: 1.6).bar)
        let c = try #require(mixed.background.color)
        #expect(abs(Int(c.g) - 128) <= 2 && abs(Int(c.b) - 128) <= 2, "\(c)")
        let blue = try #require(t.state(at: t.duration).bar)
        #expect(blue.background.color == ScenarioColor(0, 0, 255) && blue.shadowAlpha == 1)
        // Without a scrollEdge key nothing changes at the edge (the bundled scenarios' bars).
        let plain = try timeline(yaml.replacingOccurrences(of: ", scrollEdge: transparent", with: ""))
        #expect(plain.state(at: 0).bar?.alpha == 1)
    }

    @Test("scrollEdge from a setBar, over a screen's image, in landscape, and at the end of a run")
    func scrollEdgeCases() throws {
        // Given by a setBar on a screen without a large title: the look applies, and a scroll
        // moves the bar off it.
        let byStep = try timeline("""
        devices: [iphone-14]
        screens:
          a: {title: A, bar: {color: "#FF0000", translucent: false}, content: {rows: 30}}
        steps:
          - show: a
          - setBar: {scrollEdge: transparent, animated: false}
          - wait: 0.3
          - scroll: {to: 40, duration: 0.3, curve: linear}
          - wait: 0.3
        """)
        #expect(byStep.state(at: 0.2).bar?.alpha == 0, "transparent at the top after the setBar")
        #expect(byStep.state(at: byStep.duration).bar?.alpha == 1)
        // The edge's colour over the screen's own image.
        let overImage = try timeline("""
        devices: [iphone-14]
        screens:
          a: {title: A, bar: {image: wood.png, scrollEdge: {color: "#00FF00"}}}
        steps:
          - show: a
        """)
        let edge = try #require(overImage.state(at: 0).bar)
        #expect(edge.background.color == ScenarioColor(0, 255, 0) && edge.background.image == nil, "\(edge.background)")
        // In landscape a phone shows no large title: the bar leaves its edge as content scrolls
        // under it, not at offset 37; back in portrait at offset 20 the large title shows again.
        let turned = try timeline("""
        devices: [iphone-14]
        appearance: {scrollEdge: transparent}
        screens:
          a: {title: A, largeTitle: true, bar: {color: "#FF0000", translucent: false}, content: {rows: 30}}
        steps:
          - show: a
          - rotate: landscape
          - scroll: {to: 20, duration: 0.2, curve: linear}
          - wait: 0.3
          - rotate: portrait
          - wait: 0.3
        """)
        #expect(turned.state(at: 0.4 + 0.2 + 0.25).bar?.alpha == 1, "landscape, offset 20: off the edge")
        #expect(turned.state(at: turned.duration).bar?.alpha == 0, "portrait, offset 20: the large title shows, at the edge")
        // A scroll back over the title's threshold at the very end: the run lasts until the
        // transfer (and the bar's edge look with it) has ended.
        let back = try timeline("""
        devices: [iphone-14]
        screens:
          a: {title: A, largeTitle: true, bar: {color: "#FF0000", translucent: false, scrollEdge: transparent}, content: {rows: 30}}
        steps:
          - show: a
          - scroll: {to: 60, duration: 0.3, curve: linear}
          - scroll: {to: 30, duration: 0.3, curve: linear}
        """)
        let crossing = 0.3 + 0.3 * (60 - 37) / 30.0   // 0.53 s, 0.07 s before the steps end
        #expect(abs(back.duration - (crossing + 0.15)) < 1e-5, "\(back.duration)")
        #expect(back.state(at: back.duration).bar?.alpha == 0, "the last frame is the edge look")
    }

    /// A real iPhone 414 pt wide starts its large title's glyph at 22 pt, a 375 pt simulator at
    /// 18.8 (ScreenParts.largeTitleMargin): UIKit's layout margin, 20 pt from 414 pt up.
    @Test("the large title sits at the layout margin: 16 pt, 20 pt on phones 414 pt wide or more",
          arguments: [("iphone-se", 16.0), ("iphone-14", 16.0), ("iphone-14-pro", 16.0), ("iphone-xr", 20.0), ("iphone-14-pro-max", 20.0),
                      ("iphone-16", 16.0), ("iphone-16-plus", 20.0)])
    func largeTitleMargin(_ device: String, _ margin: Double) throws {
        let yaml = "devices: [\(device)]\nscreens:\n  s: {title: Settings, largeTitle: true}\nsteps:\n  - show: s\n"
        let s = try timeline(yaml, device: device).state(at: 0)
        let large = try #require(s.items.first { $0.element == .largeTitle })
        #expect(large.x == margin)
    }

    @Test("a hidden bar: no background, hairline, title or back button", arguments: ["fade", "slide"])
    func hiddenBar(_ style: String) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A}
          b: {title: B}
        steps:
          - show: a
          - push: b
          - setBar: {hidden: true, style: \(style), duration: 1, curve: linear}
        """
        let t = try timeline(yaml)
        let half = t.state(at: 0.54 + 0.5)
        let bar = try #require(half.bar)
        if style == "fade" {
            #expect(abs(bar.alpha - 0.5) < 1e-9)
            #expect(half.items.allSatisfy { abs($0.alpha - 0.5) < 1e-9 || $0.alpha == 0 })
        } else {
            #expect(abs(bar.y - -(44 + 47) / 2) < 1e-9)
            #expect(bar.alpha == 1)
        }
        let end = t.state(at: t.duration)
        #expect(end.bar?.alpha == 0 && end.bar?.shadowAlpha == 0)
        #expect(end.items.isEmpty)
    }

    @Test("pushing from a visible bar to a hidden one splits the background")
    func pushToHidden() throws {
        let yaml = "devices: [iphone-14]\nscreens:\n  a: {title: A}\n  b: {title: B, bar: {hidden: true}}\nsteps:\n  - show: a\n  - push: b\n"
        let s = try timeline(yaml).state(at: 0.2)
        #expect(s.transition?.split == true)
        #expect(s.screens[1].bar?.alpha == 0)
        #expect(!s.items.contains { $0.element == .title && $0.kind == .text("B") })
    }

    @Test("background resolution order: screen image, screen colour, appearance image, appearance colour, style default", arguments: [
        ("{image: a.png, color: \"#FF0000\"}", "{image: b.png, color: \"#00FF00\"}", "a.png", nil),
        ("{color: \"#FF0000\"}", "{image: b.png, color: \"#00FF00\"}", nil, ScenarioColor(255, 0, 0)),
        ("{}", "{image: b.png, color: \"#00FF00\"}", "b.png", nil),
        ("{}", "{color: \"#00FF00\"}", nil, ScenarioColor(0, 255, 0)),
        ("{}", "{}", nil, ResolvedBar.defaultLight),
        ("{style: black}", "{}", nil, ResolvedBar.defaultBlack),
        ("{color: \"#FF000080\", translucent: false}", "{}", nil, ScenarioColor(255, 0, 0)),
        // An opaque bar backs its image with the bar tint colour, else black or white by style
        // (Apple, UINavigationBar.isTranslucent); a translucent one shows the image alone.
        ("{image: a.png, translucent: false}", "{}", "a.png", .white),
        ("{image: a.png, translucent: false, style: black}", "{}", "a.png", .black),
        ("{image: a.png, translucent: false, color: \"#0000FF80\"}", "{}", "a.png", ScenarioColor(0, 0, 255)),
        ("{image: a.png, translucent: false}", "{color: \"#00FF00\"}", "a.png", ScenarioColor(0, 255, 0)),
        ("{gradient: {colors: [\"#FF000000\", \"#FF0000\"]}, translucent: false}", "{}", nil, .white),
    ] as [(String, String, String?, ScenarioColor?)])
    func resolution(_ screenBar: String, _ appearance: String, _ image: String?, _ color: ScenarioColor?) throws {
        let yaml = "devices: [iphone-14]\nappearance: \(appearance)\nscreens:\n  a: {title: A, bar: \(screenBar)}\nsteps:\n  - show: a\n"
        let s = try timeline(yaml).state(at: 0)
        #expect(s.bar?.background.image == image)
        #expect(s.bar?.background.color == color)
        #expect((s.bar?.background.material != nil) == (image == nil && !screenBar.contains("translucent: false") && !screenBar.contains("gradient")))
    }

    @Test("a standalone bar moves with its screen and never fades; not top-attached it starts below the status bar",
          arguments: [true, false])
    func standalone(_ attached: Bool) throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A}
          b: {title: B, bar: {standalone: {topAttached: \(attached)}, color: "#336699", translucent: false}}
        steps:
          - show: a
          - push: b
          - swipeBack: {to: 0.5, duration: 1, release: cancel}
        """
        let t = try timeline(yaml)
        let s = t.state(at: 0.54 + 1)   // finger at 0.5
        let b = try #require(s.screens.first { $0.name == "b" })
        #expect(abs(b.x - 195) < 1e-9)
        let bar = try #require(b.bar)
        #expect(bar.alpha == 1 && bar.background.color == ScenarioColor(0x33, 0x66, 0x99))
        #expect(bar.y == (attached ? 0 : 47))
        #expect(b.ownItems.contains { $0.kind == .text("B") && $0.alpha == 1 })
        #expect(s.screens[0].bar != nil, "the other screen's bar is split off")
        #expect(!s.items.contains { $0.kind == .text("B") })
    }

    @Test("the iPhone 15 and 16 names have the 14 Pro's and 14 Pro Max's geometry, as the HIG's layout table gives them")
    func newerPhones() throws {
        for (name, twin) in [("iphone-15", "iphone-14-pro"), ("iphone-15-pro", "iphone-14-pro"), ("iphone-16", "iphone-14-pro"),
                             ("iphone-15-plus", "iphone-14-pro-max"), ("iphone-15-pro-max", "iphone-14-pro-max"), ("iphone-16-plus", "iphone-14-pro-max")] {
            var device = try #require(Device.named(name))
            device.name = twin
            #expect(device == Device.named(twin), "\(name)")
        }
    }

    @Test("landscape on iPhone: no status bar, a 32 pt bar (44 on Plus/Max-class widths), items inside the safe area, no large title",
          arguments: [
              ("iphone-se", 667.0, 32.0, 0.0), ("iphone-x", 812.0, 32.0, 44.0), ("iphone-14", 844.0, 32.0, 47.0),
              ("iphone-14-pro", 852.0, 32.0, 59.0), ("iphone-14-pro-max", 932.0, 44.0, 59.0), ("iphone-xr", 896.0, 44.0, 44.0),
              ("iphone-15", 852.0, 32.0, 59.0), ("iphone-15-pro", 852.0, 32.0, 59.0), ("iphone-16", 852.0, 32.0, 59.0),
              ("iphone-15-plus", 932.0, 44.0, 59.0), ("iphone-15-pro-max", 932.0, 44.0, 59.0), ("iphone-16-plus", 932.0, 44.0, 59.0),
          ])
    func landscape(_ device: String, _ width: Double, _ bar: Double, _ inset: Double) throws {
        let yaml = """
        devices: [\(device)]
        screens:
          a: {title: Mail, largeTitle: true}
          b: {title: Inbox, rightItems: [Edit]}
        steps:
          - show: a
          - push: b
          - rotate: landscape
          - wait: 0.5
          - rotate: portrait
        """
        let t = try timeline(yaml, device: device)
        let land = t.state(at: 1.3)
        #expect(land.layout.width == width)
        #expect(land.statusBar.height == 0 && !land.statusBar.visible)
        #expect(land.bar?.height == bar && land.bar?.width == width, "the background spans the full width")
        let chevron = try #require(land.items.first { $0.kind == .chevron })
        #expect(chevron.x == inset + ScreenParts.chevronX)
        let edit = try #require(land.items.first { $0.kind == .text("Edit") })
        #expect(abs(edit.x + edit.width - (width - inset - 16)) < 1e-9)
        #expect(t.state(at: t.duration).layout.orientation == .portrait)
        // Reports name the two frames where the size changes, and no other.
        let events = (0..<t.frameCount).compactMap { k in t.event(atFrame: k).map { (k, $0) } }
        #expect(events.count == 2, "\(events)")
        if events.count == 2 {
            #expect(t.state(atFrame: events[0].0 - 1).layout.orientation == .portrait)
            #expect(t.state(atFrame: events[0].0).layout.orientation == .landscape)
            #expect(events[0].1.hasPrefix("rotated to landscape") && events[0].1.hasSuffix("to \(Self.pt(width)) × \(Self.pt(land.layout.height)) pt"), "\(events[0].1)")
            #expect(events[1].1.hasPrefix("rotated to portrait"))
        }
        // A large-title screen shows its small title in landscape.
        let root = try timeline("devices: [\(device)]\nscreens:\n  a: {title: Mail, largeTitle: true}\nsteps:\n  - show: a\n  - rotate: landscape\n",
                                device: device)
        let r = root.state(at: root.duration)
        #expect(!r.items.contains { $0.element == .largeTitle })
        #expect(r.items.first { $0.element == .title }?.alpha == 1)
        #expect(r.bar?.height == bar)
    }

    static func pt(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v) }

    @Test("a back label longer than 12 characters reads Back; a custom title wins")
    func backLabel() throws {
        let yaml = """
        devices: [iphone-14]
        screens:
          a: {title: A very long title indeed}
          b: {title: B}
          c: {title: C, backButton: {title: Done}}
        steps:
          - show: a
          - push: b
          - push: c
        """
        let t = try timeline(yaml)
        #expect(t.state(at: 0.6).items.contains { $0.kind == .text("Back") && $0.element == .backButton })
        #expect(t.state(at: 2).items.contains { $0.kind == .text("Done") })
    }

    /// UIKit's default back button display mode: the back title, then "Back", then none,
    /// whichever lets the title fit whole; the title moves off centre before it is truncated,
    /// and is never drawn over the back button or the bar buttons.
    @Test("a long title takes the back label's room: previous title, then Back, then the chevron alone")
    func backLabelGivesWay() throws {
        func rest(_ title: String, buttons: String = "[]", back: String = "") throws -> [BarItem] {
            let yaml = """
            devices: [iphone-14]
            screens:
              a: {title: Inbox 12345}
              b: {title: "\(title)", rightItems: \(buttons)\(back)}
            steps:
              - show: a
              - push: b
            """
            let t = try timeline(yaml)
            return t.state(at: t.duration).items
        }
        func label(_ items: [BarItem]) -> String? {
            items.compactMap { if case .text(let s) = $0.kind, $0.element == .backButton { return s } else { return nil } }.first
        }
        func title(_ items: [BarItem]) -> BarItem? { items.first { $0.element == .title } }
        // Short: the previous title, and the title centred.
        let short = try rest("Mail")
        #expect(label(short) == "Inbox 12345")
        let centred = try #require(title(short))
        #expect(abs(centred.x + centred.width / 2 - 195) < 0.01)
        // Longer: "Back", and the title whole (iphone-14 is 390 pt wide).
        let longer = try rest("Conversations with the team")
        #expect(label(longer) == "Back", "\(longer.map(\.kind))")
        let whole = try #require(title(longer))
        #expect(whole.maxWidth.map { whole.width <= $0 } ?? true)
        #expect(whole.width > 200, "not truncated: \(whole.width)")
        // Longest: the chevron alone, and the title truncated between it and the buttons, clear of both.
        let longest = try rest("A very very very very long title that will never fit in a bar", buttons: "[One, Two, Three, Four]")
        #expect(label(longest) == nil && longest.contains { $0.kind == .chevron })
        let cut = try #require(title(longest))
        let chevron = try #require(longest.first { $0.kind == .chevron })
        let firstButton = try #require(longest.filter { $0.element == .barButton }.map(\.x).min())
        #expect(cut.x >= chevron.x + chevron.width + 8 - 0.01 && cut.x + cut.width <= firstButton - 8 + 0.01, "\(cut), \(chevron.x), \(firstButton)")
        #expect(cut.width > 60, "the room between them, not a symmetric one: \(cut.width)")
        // A custom back button keeps its title (the display mode applies only without one); the
        // title is moved clear of it, or left out when no ellipsis fits.
        let custom = try rest("Reeder", back: ", backButton: {title: A much much longer back title, image: images/pill.png}")
        let pill = try #require(custom.first { $0.element == .backButton && $0.kind != .chevron })
        let beside = try #require(title(custom), "there is room for Reeder beside the button")
        #expect(beside.x >= pill.x + pill.width + 8 - 0.01, "\(beside.x) against \(pill.x + pill.width)")
        #expect(label(custom.flatMap { [$0] + $0.attached }) == "A much much longer back title")
    }
}
