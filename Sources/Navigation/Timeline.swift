import Scenario

/// A scenario on one device as a pure function of time: `state(at:)` gives everything a painter
/// needs. Step boundaries are kept in whole microseconds so that frame counts never depend on
/// floating-point drift.
public struct Timeline: Sendable {
    public let scenario: Scenario
    public let device: Device
    let metrics: any TextMetrics
    let segments: [Segment]
    /// Large-title collapse events per screen, for the small title's 0.15 s fade.
    let collapseEvents: [String: [(micros: Double, collapsed: Bool)]]
    public let durationMicros: Int
    /// The most, in points, that a large-title screen's content is pulled down (a negative
    /// offset) at any time: `capture: bar` keeps that much more, or the stretched title would
    /// leave the frame (`Painter.barCaptureHeight`).
    public let largeTitlePullDown: Double

    /// Defaults where the format leaves a duration open.
    static let scrollDuration = 0.3
    static let setBarDuration = 0.2          // UIKit UINavigationControllerHideShowBarDuration
    static let dragDuration = 0.3
    static let rotateDuration = 0.4
    static let smallTitleFade = 0.15
    /// Points of scroll over which a bar without a large title shown fades from its scroll-edge
    /// look to its standard one, with the offset: Flutter's `_kNavBarScrollUnderAnimationExtent`,
    /// "eyeballed on the native Settings app on an iPhone 15 simulator running iOS 17.4"
    /// (`CupertinoNavigationBar`'s background: offset / 10, clamped).
    static let scrollUnderExtent = 10.0

    /// The offset at which a shown large title gives way to the small one, as things stand in
    /// `model` (its orientation: a phone in landscape shows none); nil without one. The bar's
    /// scroll-edge look goes with it, on the same clock.
    static func transferThreshold(_ spec: ScreenSpec, device: Device, _ model: Model) -> Double? {
        spec.largeTitle && DeviceLayout(device: device, orientation: model.orientation).showsLargeTitles
            ? ScreenParts.largeTitleVisibleBelowShrink : nil
    }

    public init(scenario: Scenario, device: Device, metrics: any TextMetrics = ApproximateMetrics()) {
        self.scenario = scenario
        self.device = device
        self.metrics = metrics
        let built = Self.build(scenario, device: device)
        segments = built.segments
        // The run lasts until the last title transfer or scroll-edge fade has ended, so that its
        // last frame shows the state the steps end in (a scroll back to the top at the very end
        // left the bar mid-fade; a review, 2026-11-27).
        let lastFade = built.events.values.flatMap { $0 }.map { $0.micros }.max().map { Int(($0 + Self.smallTitleFade * 1_000_000).rounded(.up)) }
        durationMicros = max(built.segments.last.map { $0.start + $0.length } ?? 0, lastFade ?? 0)
        collapseEvents = built.events
        largeTitlePullDown = Self.pullDown(built.segments, scenario)
    }

    /// The deepest pull-down of a large-title screen over the segments: rest offsets before and
    /// after each, and a scroll's curve sampled between (a cubic-bezier may overshoot its target).
    static func pullDown(_ segments: [Segment], _ s: Scenario) -> Double {
        var deepest = 0.0
        func large(_ name: String) -> Bool { s.screen(name)?.largeTitle == true }
        for seg in segments {
            for model in [seg.before, seg.after] {
                for (name, offset) in model.offsets where offset < 0 && large(name) { deepest = max(deepest, -offset) }
            }
            if case let .scroll(screen, from, to, curve) = seg.kind, large(screen) {
                for k in 0...64 { deepest = max(deepest, -(from + (to - from) * curve(Double(k) / 64))) }
            }
        }
        return deepest
    }

    public var duration: Double { Double(durationMicros) / 1_000_000 }
    public var fps: Int { scenario.fps }

    /// Frame k is the state at k / fps, from 0 to the end of the last step inclusive. When the
    /// end falls between two frames (a 0.54 s Ionic push at 30 fps ends between frames 16 and 17), the
    /// frame after it is the last one: it shows the state the steps end in. Without it the end
    /// state was in no frame: a pop or an instant `setBar` at the end, or the last pixels of a
    /// transition, could change without any frame failing.
    public var frameCount: Int { (durationMicros * scenario.fps + 999_999) / 1_000_000 + 1 }

    public func time(ofFrame k: Int) -> Double { Double(k) / Double(scenario.fps) }

    public func state(atFrame k: Int) -> NavigationState {
        state(micros: Double(k) * 1_000_000 / Double(scenario.fps))
    }

    /// What changes the frame itself at frame k, for reports: a rotation changes the frame's
    /// size from this frame on, which is an event of the scenario, not a difference to flag.
    public func event(atFrame k: Int) -> String? {
        guard k > 0 else { return nil }
        // Only the orientation decides the size: no need to compose two whole frames.
        let before = DeviceLayout(device: device, orientation: orientation(atFrame: k - 1))
        let now = DeviceLayout(device: device, orientation: orientation(atFrame: k))
        guard before.width != now.width || before.height != now.height else { return nil }
        func size(_ l: DeviceLayout) -> String { "\(Self.points(l.width)) × \(Self.points(l.height)) pt" }
        let turn = now.width > now.height ? "rotated to landscape" : "rotated to portrait"
        return "\(turn): the frame changes size from \(size(before)) to \(size(now))"
    }

    /// The step that produced frame k, by the rule `stateWithoutAssets` draws with: the last
    /// segment started at or before its instant, except that at the first instant of a moving
    /// step the frame still shows the rest state the step before left. Nil when the scenario's
    /// steps carry no location (built in code).
    public func step(atFrame k: Int) -> ScenarioLocation? {
        let m = Double(k) * 1_000_000 / Double(scenario.fps)
        guard var index = segments.lastIndex(where: { Double($0.start) <= m }) else { return nil }
        if segments[index].length > 0 && Double(segments[index].start) == m && index > 0 { index -= 1 }
        return segments[index].step.line > 0 ? segments[index].step : nil
    }

    /// The orientation frame k is drawn in, by the rule `stateWithoutAssets` uses: a rotation
    /// is a cut at the middle of its step.
    func orientation(atFrame k: Int) -> Orientation {
        orientation(micros: Double(k) * 1_000_000 / Double(scenario.fps))
    }

    func orientation(micros m: Double) -> Orientation {
        guard let index = segments.lastIndex(where: { Double($0.start) <= m }) else { return .portrait }
        let seg = segments[index]
        let end = Double(seg.start + seg.length)
        if seg.length == 0 || m >= end { return seg.after.orientation }
        let u = (m - Double(seg.start)) / Double(seg.length)
        if u <= 0 { return seg.before.orientation }
        if case let .rotate(from, _) = seg.kind { return u < 0.5 ? from : seg.after.orientation }
        return seg.before.orientation
    }

    static func points(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v) }

    public func state(at seconds: Double) -> NavigationState {
        state(micros: seconds * 1_000_000)
    }

    // MARK: Building

    struct Model: Equatable {
        var stack: [String] = []
        var offsets: [String: Double] = [:]
        var overrides: [String: BarSpec] = [:]
        /// Screens whose bar a `setBar` slide hid: UIKit's `setNavigationBarHidden`, which takes
        /// the bar out of the layout (HBD's hidden bar, a fade, keeps its place).
        var removed: Set<String> = []
        var orientation: Orientation = .portrait
        /// Where a held swipe (`release: hold`) left the finger, 0...1 of the width; nil when no
        /// finger is down. The stack is the one before the swipe until a swipeBack releases it.
        var finger: Double?
        var top: String { stack.last ?? "" }
        func offset(_ s: String) -> Double { offsets[s] ?? 0 }
    }

    enum Kind {
        case hold
        case push(from: String, to: String, curve: CubicBezier)
        /// `tapped`: started by a tap on the back button, which starts highlighted.
        case pop(from: String, to: String, curve: CubicBezier, tapped: Bool)
        /// The finger drags from `dragFrom` to `dragTo` over `dragMicros`, then the transition
        /// finishes or cancels (`finish` true or false) or the finger stays down (nil).
        /// Once let go it runs as `Timeline.released` says.
        case swipe(from: String, to: String, dragFrom: Double, dragTo: Double, dragMicros: Int, dragCurve: CubicBezier, finish: Bool?)
        case scroll(screen: String, from: Double, to: Double, curve: CubicBezier)
        case setBar(screen: String, before: BarSpec?, after: BarSpec?, style: HideStyle, curve: CubicBezier)
        case rotate(from: Orientation, to: Orientation)
    }

    struct Segment {
        var start: Int
        var length: Int
        var kind: Kind
        var before: Model
        var after: Model
        /// Where the step that made this segment is written (for reports and annotations).
        var step = ScenarioLocation(file: "", line: 0, column: 0)
    }

    /// Where a swipe let go at `from` (0...1 of the width) stands `elapsed` seconds later, on its
    /// way to `target` (1: the pop finishes; 0: it cancels): the rest of the pop on the pop's own
    /// curve, over the remaining fraction of the pop's duration (UIKit's
    /// `UIPercentDrivenInteractiveTransition` completes over the remaining fraction of the
    /// transition's duration). NavReel ran that rest linearly until renderer 11; real recordings
    /// rule that out (docs/transitions.md, "Letting go"): HBDNavigationBar's weixin.gif, an
    /// iPhone at 10 frames/s, cancels from 0.434 to 0.144 in one frame and to 0 in the next, where
    /// a linear rest over 0.5 s moves 0.2 a frame, and FDFullscreenPopGesture's snapshot1.gif
    /// (iOS 9 simulator) finishes from 0.696 within 0.12 s, where the linear rest takes 0.15 s.
    /// The pop's curve starts fast and fits all four releases that tell models apart. A fixed
    /// duration however little is left (Flutter's 350 ms since flutter/flutter#153765) fits at
    /// most one.
    public static func released(from: Double, to target: Double, after elapsed: Double, pop: Timing) -> Double {
        let length = abs(target - from) * pop.duration
        guard length > 0, elapsed < length else { return elapsed <= 0 ? from : target }
        return from + (target - from) * CubicBezier(pop.curve)(max(0, elapsed) / length)
    }

    static func micros(_ seconds: Double) -> Int { Int((max(0, seconds) * 1_000_000).rounded()) }

    static func build(_ s: Scenario, device: Device) -> (segments: [Segment], events: [String: [(micros: Double, collapsed: Bool)]]) {
        var model = Model()
        var t = 0
        var segments: [Segment] = []
        var events: [String: [(Double, Bool)]] = [:]
        func screen(_ name: String) -> ScreenSpec? { s.screen(name) }
        // Each screen's side of its threshold as the events left it (false: large title shown). A
        // rotate can bring the threshold back under a resting offset: the title (and the bar's
        // scroll-edge look) then change sides at that step, with the same fade.
        func settle(_ m: Model, at micros: Double) {
            for name in Set(m.stack) {
                guard let spec = screen(name), let threshold = transferThreshold(spec, device: device, m) else { continue }
                let side = m.offset(name) >= threshold
                if side != (events[name]?.last?.1 ?? false) { events[name, default: []].append((micros, side)) }
            }
        }
        func add(_ length: Int, _ kind: Kind, _ after: Model) {
            segments.append(Segment(start: t, length: length, kind: kind, before: model, after: after, step: stepLocation))
            t += length
            model = after
        }
        var stepLocation = ScenarioLocation(file: "", line: 0, column: 0)
        for step in s.steps {
            stepLocation = step.location
            let animated = step.animated ?? true
            func length(_ default_: Double) -> Int { animated ? micros(step.duration ?? default_) : 0 }
            var next = model
            // The stack rules lint uses too; a refused or impossible step holds for its time.
            // (Only whether a finger is down matters here: the parser reports where.)
            let held = model.finger != nil ? ScenarioLocation(file: "", line: 0, column: 0) : nil
            let change = StackRules.apply(step.action, to: model.stack, fingerDown: held, screen: screen)
            let moved: [String]? = { if case .stack(let st) = change { return st } else { return nil } }()
            switch step.action {
            case .show(let name):
                next.stack = [name]
                add(0, .hold, next)
            case .push(let name):
                guard let moved else { add(length(0), .hold, model); continue }
                next.stack = moved
                add(length(s.timing.push.duration), .push(from: model.top, to: name, curve: CubicBezier(step.curve ?? s.timing.push.curve)), next)
            case .pop:
                guard let moved else { add(length(s.timing.pop.duration), .hold, model); continue }
                next.stack = moved
                add(length(s.timing.pop.duration), .pop(from: model.top, to: next.top, curve: CubicBezier(step.curve ?? s.timing.pop.curve),
                                                        tapped: step.tapped == true), next)
            case .popTo(let name):
                guard let moved else { add(length(0), .hold, model); continue }
                next.stack = moved
                add(length(s.timing.pop.duration), .pop(from: model.top, to: name, curve: CubicBezier(step.curve ?? s.timing.pop.curve),
                                                        tapped: step.tapped == true), next)
            case .wait(let seconds):
                add(micros(seconds), .hold, model)
            case .scroll(let to):
                guard !model.stack.isEmpty else { continue }
                let from = model.offset(model.top)
                next.offsets[model.top] = to
                let len = length(scrollDuration)
                let curve = CubicBezier(step.curve ?? .easeInOut)
                if let spec = screen(model.top), let threshold = transferThreshold(spec, device: device, model) {
                    if (from < threshold) != (to < threshold) {
                        let u = crossing(from: from, to: to, at: threshold, curve: curve)
                        events[model.top, default: []].append((Double(t) + u * Double(len), to >= threshold))
                    }
                }
                add(len, .scroll(screen: model.top, from: from, to: to, curve: curve), next)
            case let .swipeBack(to, release):
                let dragLen = micros(step.duration ?? dragDuration)
                guard let moved else {
                    add(dragLen, .hold, model)   // the gesture is refused: nothing moves
                    continue
                }
                let curve = CubicBezier(step.curve ?? .linear)
                let below = model.stack[model.stack.count - 2]
                if release == .hold {
                    next.finger = to
                    add(dragLen, .swipe(from: model.top, to: below, dragFrom: model.finger ?? 0, dragTo: to, dragMicros: dragLen,
                                        dragCurve: curve, finish: nil), next)
                    continue
                }
                let finish = StackRules.finishes(to: to, release: release)
                let releaseLen = micros((finish ? 1 - to : to) * s.timing.pop.duration)
                next.stack = moved
                next.finger = nil
                add(dragLen + releaseLen, .swipe(from: model.top, to: below, dragFrom: model.finger ?? 0, dragTo: to, dragMicros: dragLen,
                                                 dragCurve: curve, finish: finish), next)
            case let .setBar(spec, style):
                guard !model.stack.isEmpty else { continue }
                let before = model.overrides[model.top]
                let after = (before ?? BarSpec()).overlaid(by: spec)
                next.overrides[model.top] = after
                if after.hidden != true { next.removed.remove(model.top) } else if style == .slide { next.removed.insert(model.top) }
                add(length(setBarDuration), .setBar(screen: model.top, before: before, after: after, style: style,
                                                    curve: CubicBezier(step.curve ?? .easeInOut)), next)
            case .rotate(let orientation):
                next.orientation = orientation
                let len = length(rotateDuration)
                let cut = Double(t) + Double(len) / 2   // where the rotation is drawn as a cut
                add(len, .rotate(from: model.orientation, to: orientation), next)
                settle(next, at: cut)
            }
        }
        return (segments, events)
    }

    /// Where along a scroll (0...1 of its time) the offset crosses `value`, by bisection.
    static func crossing(from: Double, to: Double, at value: Double, curve: CubicBezier) -> Double {
        var lo = 0.0, hi = 1.0
        for _ in 0..<50 {
            let mid = (lo + hi) / 2
            let o = from + (to - from) * curve(mid)
            if (o < value) == (from < value) { lo = mid } else { hi = mid }
        }
        return hi
    }

    // MARK: Sampling

    func state(micros m: Double) -> NavigationState {
        var state = stateWithoutAssets(micros: m)
        state.imageScales = scenario.imageScales
        return state
    }

    func stateWithoutAssets(micros m: Double) -> NavigationState {
        guard let index = segments.lastIndex(where: { Double($0.start) <= m }) else {
            return compose(Model(), at: m)
        }
        let seg = segments[index]
        let end = Double(seg.start + seg.length)
        if seg.length == 0 || m >= end {
            // Past this segment: zero-length segments at the same instant apply in order.
            return compose(seg.after, at: m)
        }
        let u = (m - Double(seg.start)) / Double(seg.length)
        // At its first instant a step has not moved anything yet: the rest state before it.
        if u <= 0 { return compose(seg.before, at: m) }
        switch seg.kind {
        case .hold:
            return compose(seg.before, at: m)
        case let .push(from, to, curve):
            // The bar's items run in the same transaction as the screens: one progress p drives both.
            let p = curve(u)
            return transition(lower: parts(from, seg.before, at: m), upper: parts(to, seg.after, at: m), model: seg.after,
                              progress: p, kind: .push, from: from, to: to, at: m, tintProgress: p)
        case let .pop(from, to, curve, tapped):
            let p = curve(u)
            // The popped screen keeps the bar it had at rest (its own back label, even for popTo);
            // the target is laid out on the stack after the pop. Screens in between never show.
            return transition(lower: parts(to, seg.after, at: m), upper: parts(from, seg.before, at: m), model: seg.after,
                              progress: 1 - p, kind: .pop, from: from, to: to, at: m, tintProgress: 1 - p, tapped: tapped)
        case let .swipe(_, _, dragFrom, dragTo, dragMicros, dragCurve, finish):
            let elapsed = m - Double(seg.start)
            if elapsed < Double(dragMicros) || finish == nil {
                let finger = dragFrom + (dragTo - dragFrom) * dragCurve(min(1, elapsed / Double(max(1, dragMicros))))
                return swiping(seg.before, finger: finger, at: m)
            }
            let finger = Self.released(from: dragTo, to: finish == true ? 1 : 0, after: (elapsed - Double(dragMicros)) / 1_000_000, pop: scenario.timing.pop)
            return swiping(seg.before, finger: finger, lifted: dragTo, at: m)
        case let .scroll(screen, from, to, curve):
            var model = seg.before
            model.offsets[screen] = from + (to - from) * curve(u)
            return compose(model, at: m)
        case let .setBar(screen, before, after, style, curve):
            return setBar(seg.before, seg.after, screen: screen, before: before, after: after, style: style, q: curve(u), at: m)
        case .rotate:
            var model = seg.before
            // Drawn as a cut at the middle of the step (the rule lives in `orientation(micros:)`);
            // UIKit's snapshot cross-fade is not modelled.
            model.orientation = orientation(micros: m)
            return compose(model, at: m)
        }
    }

    func layout(_ model: Model) -> DeviceLayout { DeviceLayout(device: device, orientation: model.orientation) }

    func smallTitleAlpha(_ screen: ScreenSpec, offset: Double, at m: Double, model: Model) -> Double {
        guard screen.largeTitle else { return 1 }
        return awayFromEdge(screen, offset: offset, at: m, model: model)
    }

    /// How far a screen's bar has left its scroll-edge look, 0 at the edge to 1 away: a bar whose
    /// large title shows with the title's transfer (the same 0.15 s after the threshold is
    /// crossed; a real iPhone's hairline appears as its large title collapses, from offset 34 to
    /// 40), any other bar with a `scrollEdge` look with the offset, over its first 10 pt.
    func awayFromEdge(_ screen: ScreenSpec, offset: Double, at m: Double, model: Model) -> Double {
        guard let threshold = Self.transferThreshold(screen, device: device, model) else {
            let edge = model.overrides[screen.name]?.scrollEdge ?? screen.bar.scrollEdge ?? scenario.appearance.scrollEdge
            return edge == nil ? 1 : min(1, max(0, offset / Self.scrollUnderExtent))
        }
        let fade = Self.smallTitleFade * 1_000_000
        guard let last = collapseEvents[screen.name]?.last(where: { $0.micros <= m }) else {
            return offset >= threshold ? 1 : 0
        }
        let k = min(1, max(0, (m - last.micros) / fade))
        return last.collapsed ? k : 1 - k
    }

    func parts(_ name: String, _ model: Model, at m: Double, override: BarSpec?? = nil) -> ScreenParts? {
        guard let spec = scenario.screen(name) else { return nil }
        let previous = model.stack.firstIndex(of: name).flatMap { $0 > 0 ? scenario.screen(model.stack[$0 - 1]) : nil }
        let offset = model.offset(name)
        let bar = ResolvedBar.resolve(spec, appearance: scenario.appearance, override: override ?? model.overrides[name], offset: offset,
                                      awayFromEdge: awayFromEdge(spec, offset: offset, at: m, model: model))
        var p = ScreenParts(spec: spec, previous: previous, bar: bar, layout: layout(model), offset: offset,
                            smallTitleAlpha: smallTitleAlpha(spec, offset: offset, at: m, model: model), metrics: metrics)
        // UIKit's hidden bar is out of the layout: hidden by a slide, or any hidden bar of a plain
        // UIKit scenario (`barTransition` switch or crossFade), where no HBD keeps it in place.
        p.removed = bar.hidden && (model.removed.contains(name) || scenario.barTransition != .hbd) ? 1 : 0
        return p
    }

    func statusBar(_ style: BarStyle, _ model: Model, from previous: BarStyle? = nil, change: Double = 1) -> StatusBarState {
        let l = layout(model)
        return StatusBarState(style: style, height: l.statusBar, visible: l.statusBar > 0, previous: previous, change: change)
    }

    /// A swipe back from `model`'s top screen to the one below it with the finger at `finger`
    /// (0...1 of the width); once let go, where it `lifted`.
    func swiping(_ model: Model, finger: Double, lifted: Double? = nil, at m: Double) -> NavigationState {
        guard model.stack.count >= 2 else { return compose(model, at: m, fingerless: true) }
        let from = model.top, to = model.stack[model.stack.count - 2]
        // While dragging, HBD moves the tint by min(1, 4p) of the way (`blendColor` in its pan
        // handler, for the gesture's began and changed states). Nothing sets it when the finger
        // lifts: it keeps that blend through the release, and the transition's completion sets
        // the screen's own (HBDNavigationController.m). Until renderer 11 NavReel switched to
        // 1 - p at the release, a jump of up to 0.75 of the way that HBD does not make.
        let tint = 1 - min(1, 4 * (lifted ?? finger))
        var below = model
        below.stack.removeLast()
        return transition(lower: parts(to, below, at: m), upper: parts(from, model, at: m), model: model,
                          progress: 1 - finger, kind: .swipeBack, from: from, to: to, at: m, tintProgress: tint)
    }

    /// The top screen at rest, or mid-swipe while a held finger is down.
    func compose(_ model: Model, at m: Double, barY: Double = 0, itemAlpha: Double = 1, override: BarSpec?? = nil,
                 removed: Double? = nil, fingerless: Bool = false) -> NavigationState {
        if !fingerless, let finger = model.finger { return swiping(model, finger: finger, at: m) }
        let l = layout(model)
        guard var top = parts(model.top, model, at: m, override: override) else {
            return NavigationState(time: m / 1_000_000, layout: l, statusBar: statusBar(.default, model), screens: [], bar: nil,
                                   items: [], stack: model.stack, transition: nil)
        }
        if let removed { top.removed = removed }
        let items = top.items.map { $0.with(alpha: itemAlpha, dy: barY) }
        if top.bar.standalone != nil {
            let screen = top.screenLayer(x: 0, dimming: 0, edgeShadow: 0, ownBar: top.barLayer(x: 0, y: barY), ownItems: items)
            return NavigationState(time: m / 1_000_000, layout: l, statusBar: statusBar(top.bar.style, model), screens: [screen],
                                   bar: nil, items: [], stack: model.stack, transition: nil)
        }
        let screen = top.screenLayer(x: 0, dimming: 0, edgeShadow: 0, ownBar: nil, ownItems: [])
        return NavigationState(time: m / 1_000_000, layout: l, statusBar: statusBar(top.bar.style, model), screens: [screen],
                               bar: top.barLayer(x: 0, y: barY), items: items, stack: model.stack, transition: nil)
    }

    /// A setBar step in progress: fade (alpha and colours) or slide (the bar moves up by its height).
    func setBar(_ model: Model, _ next: Model, screen: String, before: BarSpec?, after: BarSpec?, style: HideStyle, q: Double, at m: Double) -> NavigationState {
        // The step's two rest states (a setBar changes no offset or stack, only the bar and whether
        // UIKit took it out of the layout).
        guard let a = parts(screen, model, at: m, override: .some(before)), let b = parts(screen, next, at: m, override: .some(after)) else {
            return compose(model, at: m)
        }
        // How far the bar is out of the layout moves from the step's start to its end, whatever
        // the style: a slide that UIKit ends removed, a UIKit hidden bar faded (under
        // `barTransition` switch or crossFade), and back; HBD's hidden bar stays laid out (the
        // content jumped 44 pt at one end or the other when only slides moved it; a review).
        let removed = a.removed + (b.removed - a.removed) * q
        let hiding = !a.bar.hidden && b.bar.hidden, showing = a.bar.hidden && !b.bar.hidden
        let visible = hiding ? a : (showing ? b : (q < 0.5 ? a : b))
        var state: NavigationState
        if style == .slide && (hiding || showing) {
            // The whole bar leaves, a large title's extension included (it stopped 52 pt short).
            let y = -(a.barHeight + a.barTop + a.extensionHeight) * (hiding ? q : 1 - q)
            // The content follows the safe area up as the bar leaves, and back down.
            state = compose(model, at: m, barY: y, override: .some(hiding ? before : after), removed: removed)
        } else {
            let itemAlpha = hiding ? 1 - q : (showing ? q : 1)
            state = compose(model, at: m, itemAlpha: itemAlpha, override: .some(hiding ? before : (showing ? after : (q < 0.5 ? before : after))),
                            removed: removed)
            if !hiding && !showing {
                // Colours and alpha move together; items take the interpolated tint.
                state.items = visible.items.map { item in
                    var i = item
                    let from = item.element == .title || item.element == .largeTitle ? a.bar.titleColor : a.bar.tintColor
                    let to = item.element == .title || item.element == .largeTitle ? b.bar.titleColor : b.bar.tintColor
                    i.color = from.mixed(with: to, q)
                    return i
                }
            }
            // An animated restyle changes the status bar with the bar (the same animation block).
            state.statusBar = statusBar(b.bar.style, model, from: a.bar.style, change: q)
            if var bar = state.bar {
                bar.alpha = hiding ? a.bar.alpha * (1 - q) : (showing ? b.bar.alpha * q : a.bar.alpha + (b.bar.alpha - a.bar.alpha) * q)
                bar.shadowAlpha = a.bar.shadowAlpha + (b.bar.shadowAlpha - a.bar.shadowAlpha) * q
                if !hiding && !showing, let ca = a.bar.background.color, let cb = b.bar.background.color {
                    bar.background.color = ca.mixed(with: cb, q)
                }
                state.bar = bar
            }
        }
        return state
    }

    /// Two screens in transition. `upper` is the pushed one; `progress` 1 means it fully covers
    /// the lower one. The screens and the bar items move on this one progress.
    func transition(lower: ScreenParts?, upper: ScreenParts?, model: Model, progress p: Double,
                    kind: TransitionInfo.Kind, from: String, to: String, at m: Double, tintProgress: Double,
                    tapped: Bool = false) -> NavigationState {
        guard let L = lower, let U = upper else { return compose(model, at: m, fingerless: true) }
        let w = L.layout.width
        let upperX = w * (1 - p)
        let lowerX = -0.3 * w * p   // UIKit parallax: 0.3 W
        let moving = p > 0 && p < 1
        let mode = scenario.barTransition
        // A plain UIKit bar hidden on one of the two screens (`setNavigationBarHidden(_:animated:)`
        // in viewWillAppear) slides with the top screen's leading edge, items at rest, above the
        // screens (undimmed, no edge shadow over it): FDFullscreenPopGesture's snapshot1.gif
        // (UIKit's own hide, called from viewWillAppear by the library; iOS 9 simulator) measures
        // the lower screen's title moving 1.002 x the top screen's edge (15 frames, within 0.8 px
        // and a constant 4 px), where the screen itself moves 0.303 x, and the bar about 0.03 dim
        // where the screen is 0.07-0.09; a bar the top screen shows moves with it. HBD keeps its
        // hidden bar in place instead.
        let standalone = L.bar.standalone != nil || U.bar.standalone != nil
        let carried = mode != .hbd && L.bar.hidden != U.bar.hidden && !standalone
        // HBD shares its bar only between look-alike bars; a plain UIKit bar is always the one.
        let shared = mode == .hbd ? ResolvedBar.shared(L.bar, U.bar) : !standalone
        // The status bar takes the destination's style (HBD answers preferredStatusBarStyle from the
        // top view controller and sets the bar style before animateAlongsideTransition). In a
        // push or pop (a tap's or code's) UIKit asks for it inside the transition's animation, and a status bar
        // restyled in an animation block changes with it (Apple, `setNeedsStatusBarAppearanceUpdate`):
        // a 60 frames/s device recording of a tapped push from dark content to light
        // (KMNavigationBarTransition's `状态栏发生变化.mov`, frames 262-273 of the second push) has
        // the content's grey at 0.97 x the push's progress, within 0.03 in every frame. A swipe
        // cannot animate it: the destination's style from its first moving frame (HBD's weixin.gif
        // and gradient.gif), the source's again when a cancelled swipe ends, with the rest state.
        let destination = kind == .push ? U : L, source = kind == .push ? L : U
        let style = destination.bar.style
        let statusChange = kind == .swipeBack ? 1 : (kind == .push ? p : 1 - p)

        // Standalone bars belong to their screens. When either screen owns its bar, the
        // controller's bar shows only for the other one, and UIKit moves it with that screen:
        // each bar keeps its items at rest, and nothing is drawn over the other screen's bar.
        var lowerOwn: (BarLayer?, [BarItem]) = (nil, [])
        var upperOwn: (BarLayer?, [BarItem]) = (nil, [])
        var items: [BarItem] = []
        var bar: BarLayer?
        var barBelow: BarLayer?
        if carried {
            // The bar is pushed off (or drawn back) by the top screen: its trailing edge on that
            // screen's leading edge when the lower screen shows it, with the top screen otherwise.
            let visible = L.bar.hidden ? U : L
            let dx = L.bar.hidden ? upperX : upperX - w
            var b = visible.barLayer(x: dx)
            b.style = style
            bar = b
            items = visible.items.map { $0.with(alpha: 1, dx: dx) }
            // The popped screen's back button, tapped, is carried off highlighted.
            if tapped, kind == .pop, L.bar.hidden { items = ItemTransition.highlighted(items, q: 1 - p) }
        } else if standalone {
            lowerOwn = (L.barLayer(x: 0), L.items)
            upperOwn = (U.barLayer(x: 0), tapped && kind == .pop ? ItemTransition.highlighted(U.items, q: 1 - p) : U.items)
        } else {
            let moved = ItemTransition(lower: L, upper: U, width: w, progress: p, lowerX: lowerX, back: kind != .push, tapped: tapped)
            items = moved.lower + moved.upper
            // The tint (chevron, back labels, bar buttons) moves from the lower screen's to the
            // upper one's, shared or split: HBD sets the bar's tintColor inside the transition's
            // animation block, and by min(1, 4p) while a swipe is dragged (`blendColor`). Titles
            // keep their own screen's colour: each title is its own label (HBD's weixin.gif shows
            // the white and the black title side by side during the swipe).
            // A bar restyled in viewWillAppear takes the destination's tint with the rest of its
            // look; per-screen appearances blend it with the progress, as the background.
            let tint: ScenarioColor
            switch mode {
            case .hbd: tint = L.bar.tintColor.mixed(with: U.bar.tintColor, tintProgress)
            case .switch: tint = destination.bar.tintColor
            case .crossFade: tint = L.bar.tintColor.mixed(with: U.bar.tintColor, p)
            }
            for i in items.indices where items[i].element != .title && items[i].element != .largeTitle {
                items[i].color = tint
                items[i].attached = items[i].attached.map { var a = $0; a.color = tint; return a }
            }
            if shared {
                // One bar stays in place; its hairline, height and colours move with the transition.
                let lowerBar = L.barLayer(x: 0)
                var b = U.barLayer(x: 0)
                b.height = lowerBar.height + (b.height - lowerBar.height) * p
                b.shadowAlpha = L.bar.shadowAlpha + (U.bar.shadowAlpha - L.bar.shadowAlpha) * p
                switch mode {
                case .hbd:
                    break   // the two backgrounds look alike: the upper one's stands for both
                case .switch:
                    // Restyled in viewWillAppear, before the transition's animations: the whole
                    // bar, hairline included, is the destination's from the first moving frame
                    // (KM's "Before" GIFs: rms 0.008 of the colour mix against 0.49 for a
                    // cross-fade, 23 frames), and a cancelled swipe's rest state brings the
                    // source's back when it ends (juejin.gif).
                    let d = destination.barLayer(x: 0)
                    b.background = d.background
                    b.alpha = d.alpha
                    b.shadowAlpha = d.shadowAlpha
                case .crossFade:
                    // Flutter's ColorTween of the two bars' colours (alpha included) and BorderTween
                    // of their hairlines, on the transition's progress. A bar at alpha 0 (a
                    // transparent one; a hidden one slides with the top screen's edge, above) has
                    // no colour of its own to blend towards: the other bar's colour fades.
                    // Backgrounds of other kinds (an image, a gradient, another material) have no
                    // blend in Flutter: they are cross-dissolved, the upper bar at p x its alpha over
                    // the lower one fading by (1 - p). The painter keeps the lower bar whole under an
                    // upper one that covers it (`Painter.covers`: no dip where both half show);
                    // under a material, whose blur reads it, it must fade, or it stayed whole to the
                    // last frame and then vanished (a review, 2026-11-27).
                    let a = L.bar.background, c = U.bar.background
                    let lowerClear = L.bar.alpha == 0, upperClear = U.bar.alpha == 0
                    if a.image == nil, c.image == nil, a.gradient == nil, c.gradient == nil,
                       a.material == c.material || lowerClear || upperClear,
                       let ca = a.color, let cc = c.color {
                        if upperClear { b.background = a }
                        b.background.color = lowerClear ? cc : upperClear ? ca : ca.mixed(with: cc, p)
                        b.alpha = L.bar.alpha + (U.bar.alpha - L.bar.alpha) * p
                    } else if a != c || L.bar.alpha != U.bar.alpha {
                        var under = lowerBar
                        under.height = b.height
                        under.alpha = (1 - p) * L.bar.alpha
                        under.shadowAlpha = 0
                        under.style = style
                        barBelow = under
                        b.alpha = U.bar.alpha * p
                    }
                }
                b.style = style
                bar = b
            } else {
                // Split (the WeChat effect): each screen carries its own bar background and hairline.
                lowerOwn.0 = L.barLayer(x: 0)
                upperOwn.0 = U.barLayer(x: 0)
            }
        }

        let lowerLayer = L.screenLayer(x: lowerX, dimming: 0.1 * p, edgeShadow: 0, ownBar: lowerOwn.0, ownItems: lowerOwn.1)
        // The shadow at the moving edge fades as the screen leaves, with the dimming: HBD's
        // shadow.gif, hidden.gif and weixin.gif measure 0.19 x the screen's coverage just left of
        // the edge (Flutter's `_CupertinoEdgeShadowDecoration` is lerped by the route's progress
        // alike), where a constant strength was 3-4x too dark near the end of a swipe.
        // A push's shadow is the other way round: strongest as the screen starts to move in and
        // gone as it lands (a 60 frames/s device recording of two tapped pushes, KMNavigationBar-
        // Transition's `状态栏发生变化.mov`: 0.14 just left of the edge at p 0.25, 0.095 at 0.48,
        // 0.064 at 0.65, 0.02 at 0.88; simulator GIFs of three libraries at most 0.03 late in a push).
        // Both directions: strongest when the transition starts.
        let shadow = kind == .push ? 1 - p : p
        let upperLayer = U.screenLayer(x: upperX, dimming: 0, edgeShadow: moving ? shadow : 0, ownBar: upperOwn.0, ownItems: upperOwn.1)
        let info = TransitionInfo(kind: kind, from: from, to: to, progress: kind == .push ? p : 1 - p, split: !shared && !carried)
        var state = NavigationState(time: m / 1_000_000, layout: L.layout,
                                    statusBar: statusBar(style, model, from: source.bar.style, change: statusChange),
                                    screens: [lowerLayer, upperLayer], bar: bar, items: items,
                                    stack: model.stack, transition: info)
        state.barBelow = barBelow
        return state
    }
}
