import Testing
@testable import Navigation
@testable import Scenario

/// A small seeded generator (SplitMix64), so failures reproduce from the printed seed.
struct SeededRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func bool() -> Bool { next() & 1 == 0 }
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}

/// A random valid scenario as YAML: random bars, then steps chosen by replaying the stack.
func randomScenario(seed: UInt64) -> String {
    var r = SeededRandom(state: seed)
    let count = r.int(2...5)
    let names = (0..<count).map { "s\($0)" }
    var yaml = "devices: [\(r.pick(["iphone-se", "iphone-14", "iphone-14-pro"]))]\nfps: \(r.pick([10, 24, 30]))\nscreens:\n"
    for name in names {
        var bar: [String] = []
        if r.bool() { bar.append("style: \(r.pick(["default", "black"]))") }
        if r.bool() { bar.append("color: \"\(r.pick(["#FFFFFF", "#000000", "#FF0000CC", "#1C1C1CBA"]))\"") }
        if r.int(0...4) == 0 { bar.append("gradient: {colors: [\"#00FF00\", \"#0000FF\"]}") }
        if r.int(0...3) == 0 { bar.append("alpha: \(r.pick([0, 0.5, 1]))") }
        if r.int(0...5) == 0 { bar.append("hidden: true") }
        if r.int(0...5) == 0 { bar.append("standalone: {topAttached: \(r.bool())}") }
        if r.int(0...4) == 0 { bar.append("translucent: false") }
        if r.bool() { bar.append("shadowHidden: \(r.bool())") }
        var screen = ["title: \(r.pick(["Me", "Favorites", "A much longer title here", "设置"]))", "bar: {\(bar.joined(separator: ", "))}"]
        if r.int(0...3) == 0 { screen.append("largeTitle: true") }
        if r.int(0...3) == 0 { screen.append("scroll: {alpha: {start: 0, end: \(r.int(50...300)), exponent: \(r.int(1...4))}, shadowFrom: 20}") }
        if r.int(0...4) == 0 { screen.append("swipeBack: false") }
        if r.int(0...4) == 0 { screen.append("backInteractive: false") }
        if r.bool() { screen.append("rightItems: [Edit]") }
        yaml += "  \(name): {\(screen.joined(separator: ", "))}\n"
    }
    yaml += "steps:\n  - show: s0\n"
    var stack = ["s0"]
    for _ in 0..<r.int(2...8) {
        let off = names.filter { !stack.contains($0) }
        switch r.int(0...6) {
        case 0 where !off.isEmpty, 1 where !off.isEmpty:
            let s = r.pick(off)
            yaml += "  - push: \(s)\n    duration: \(r.pick([0.2, 0.54, 0.33]))\n"
            stack.append(s)
        case 2 where stack.count > 1:
            yaml += "  - pop: {curve: \(r.pick(["linear", "easeInOut", "[0.32, 0.72, 0, 1]"]))}\n"
            stack.removeLast()   // may be refused by backInteractive: the timeline decides
        case 3 where stack.count > 1:
            yaml += "  - swipeBack: {to: \(r.pick([0.2, 0.5, 0.8])), release: \(r.pick(["finish", "cancel"]))}\n"
        case 4:
            yaml += "  - scroll: {to: \(r.int(0...400)), duration: 0.3}\n"
        case 5:
            yaml += "  - setBar: {hidden: \(r.bool()), style: \(r.pick(["fade", "slide"])), duration: 0.2}\n"
        default:
            yaml += "  - wait: 0.1\n"
        }
    }
    return yaml
}

@Suite("timeline properties")
struct TimelinePropertyTests {
    static let seeds: [UInt64] = Array(1...120)

    @Test("every alpha is in [0, 1] and every position finite, at every frame", arguments: seeds)
    func bounded(_ seed: UInt64) throws {
        let yaml = randomScenario(seed: seed)
        // A generated pop may be impossible after a refused one: such files are rejected by lint,
        // which is also behaviour worth keeping. Only valid ones are sampled.
        guard case .success(let s) = ScenarioParser.parse(yaml: yaml, file: "gen.yaml", defaultName: "gen", fixturesRoot: nil) else { return }
        let t = Timeline(scenario: s, device: s.devices[0])
        func unit(_ v: Double) -> Bool { v >= 0 && v <= 1 }
        for k in 0..<t.frameCount {
            let state = t.state(atFrame: k)
            #expect(!state.screens.isEmpty, "seed \(seed) frame \(k)")
            for screen in state.screens {
                #expect(screen.x.isFinite && screen.contentOffset.isFinite, "seed \(seed)")
                #expect(screen.dimming >= 0 && screen.dimming <= 0.1, "seed \(seed)")
                #expect(unit(screen.edgeShadow), "seed \(seed)")
                if let bar = screen.bar { #expect(unit(bar.alpha) && unit(bar.shadowAlpha), "seed \(seed)") }
                for item in screen.ownItems { #expect(unit(item.alpha) && item.x.isFinite, "seed \(seed)") }
            }
            if let bar = state.bar {
                #expect(unit(bar.alpha) && unit(bar.shadowAlpha) && bar.height.isFinite && bar.y.isFinite, "seed \(seed)")
            }
            for item in state.items {
                #expect(unit(item.alpha) && item.x.isFinite && item.y.isFinite && item.width >= 0, "seed \(seed) \(item)")
            }
            if let p = state.transition?.progress { #expect(unit(p), "seed \(seed)") }
        }
    }

    @Test("most generated scenarios are valid, so the properties are not checked on nothing")
    func generatorIsUseful() {
        var valid = 0, frames = 0
        for seed in Self.seeds {
            if case .success(let s) = ScenarioParser.parse(yaml: randomScenario(seed: seed), file: "gen.yaml", defaultName: "gen", fixturesRoot: nil) {
                valid += 1
                frames += Timeline(scenario: s, device: s.devices[0]).frameCount
            }
        }
        #expect(valid >= Self.seeds.count * 3 / 4, "\(valid) of \(Self.seeds.count)")
        #expect(frames > 2_000)
    }

    @Test("a held finger retraces: wherever it has been, the frame at a finger is the frame of a straight drag to it", arguments: Array(1...30) as [UInt64])
    func heldFingerRetraces(_ seed: UInt64) throws {
        var r = SeededRandom(state: seed &* 104_729)
        let yaml = randomScenario(seed: seed)
        guard case .success(let s) = ScenarioParser.parse(yaml: yaml, file: "gen.yaml", defaultName: "gen", fixturesRoot: nil),
              s.screens.count >= 2 else { return }
        let a = s.screens[0].name, b = s.screens[r.int(1...s.screens.count - 1)].name
        // The finger goes out and back several times, held between drags; then one straight drag
        // from the start to each place it stopped.
        let stops = (0..<r.int(2...5)).map { _ in r.pick([0.1, 0.25, 0.4, 0.55, 0.7, 0.9]) }
        var wandering = s
        wandering.steps = [Step(action: .show(a)), Step(action: .push(b), animated: false)]
            + stops.map { Step(action: .swipeBack(to: $0, release: .hold), duration: r.pick([0.1, 0.3])) }
            + [Step(action: .swipeBack(to: 0, release: .cancel), duration: 0.1)]
        let t = Timeline(scenario: wandering, device: s.devices[0])
        // Sampled at the whole microsecond each drag ends (the timeline's own unit), so that no
        // sum of seconds lands a hair before it.
        var end = 0
        for (k, stop) in stops.enumerated() {
            end += Int((wandering.steps[k + 2].duration! * 1_000_000).rounded())
            var straight = s
            straight.steps = [Step(action: .show(a)), Step(action: .push(b), animated: false),
                              Step(action: .swipeBack(to: stop, release: .hold), duration: 0.2),
                              Step(action: .swipeBack(to: 0, release: .cancel), duration: 0.1)]
            var x = t.state(micros: Double(end)), y = Timeline(scenario: straight, device: s.devices[0]).state(micros: 200_000)
            x.time = 0
            y.time = 0
            #expect(x == y, "seed \(seed): stop \(k) at \(stop)")
            // Halfway through each drag the finger is halfway from where it was held (drags run
            // linearly): a drag that started from 0 again, or from the wrong stop, is caught here.
            let span = Int((wandering.steps[k + 2].duration! * 1_000_000).rounded())
            let from = k == 0 ? 0 : stops[k - 1]
            let mid = t.state(micros: Double(end - span / 2))
            if let finger = mid.transition?.progress {   // a swipe's progress is the finger's
                #expect(abs(finger - (from + stop) / 2) < 1e-9, "seed \(seed): drag \(k) from \(from) to \(stop) is at \(finger) halfway")
            }
        }
        // A refused swipe (swipeBack: false, backInteractive: false) moves nothing: the generator's
        // screens may refuse, so the property is only that the run ends where it began.
        var last = t.state(at: t.duration)
        var first = t.state(at: 0)
        last.time = 0
        first.time = 0
        #expect(last.stack == first.stack, "seed \(seed)")
    }

    @Test("the state at the end of a push equals the state of the same stack shown without animation", arguments: Array(1...40) as [UInt64])
    func pushEndsAtRest(_ seed: UInt64) throws {
        var r = SeededRandom(state: seed &* 7919)
        let yaml = randomScenario(seed: seed)
        guard case .success(let s) = ScenarioParser.parse(yaml: yaml, file: "gen.yaml", defaultName: "gen", fixturesRoot: nil),
              s.screens.count >= 2 else { return }
        let a = s.screens[0].name, b = s.screens[r.int(1...s.screens.count - 1)].name
        var animated = s, instant = s
        animated.steps = [Step(action: .show(a)), Step(action: .push(b), duration: r.pick([0.3, 0.54]))]
        instant.steps = [Step(action: .show(a)), Step(action: .push(b), animated: false)]
        let end = Timeline(scenario: animated, device: s.devices[0])
        let rest = Timeline(scenario: instant, device: s.devices[0])
        var x = end.state(at: end.duration), y = rest.state(at: 0)
        x.time = 0
        y.time = 0
        #expect(x == y, "seed \(seed)")
        // And like a plain show of the pushed screen, but for its back button.
        var shown = s
        shown.steps = [Step(action: .show(b))]
        let plain = Timeline(scenario: shown, device: s.devices[0]).state(at: 0)
        #expect(x.screens.map(\.x) == plain.screens.map(\.x))
        #expect(x.bar == plain.bar)
        #expect(x.items.filter { $0.element != .backButton }.map(\.kind) == plain.items.filter { $0.element != .backButton }.map(\.kind))
    }
}
