/// Where the bar items of two screens are, and how opaque, at progress p of a push (p = 0: the
/// lower screen at rest; p = 1: the upper one at rest). A pop and a swipe-back run the same
/// function with p going down: every position reverses exactly, and so does every fade but the
/// ones that iOS 18 runs differently in a pop (`back`: the leaving back label, chevron and title).
///
/// Positions and fades are Flutter's `_NavigationBarComponentsTransition` (nav_bar.dart), but where
/// an iOS 18.2 recording measured a fade (the straight lines below): each fade runs over an
/// interval of p with Flutter's curve (`fadeInFrom`: `Curves.easeIn`, `fadeOutBy`:
/// `Curves.easeOut`), on the same progress as the screens (NAVIGATION-MODEL.md, "Transitions"):
/// UIKit animates the items in the screens' transaction, so they never run on a clock of their own.
/// HBDNavigationBar's real-device `weixin.gif` (iOS 11) holds the returning title within 0.2 of
/// opacity at every swipe frame (`TransitionTests.recording`); its leaving title went sooner than
/// iOS 18.2's, which NavReel draws.
struct ItemTransition {
    var lower: [BarItem] = []
    var upper: [BarItem] = []

    /// Fade-out and fade-in intervals, as fractions of p.
    static let oldTitleOutBy = 0.7
    static let oldBackLabelOutBy = 0.2
    static let oldButtonsOutBy = 0.6
    static let oldLargeTitleOutBy = 0.3
    static let newTitleInFrom = 0.2
    static let newBackLabelInFrom = 0.3
    static let newButtonsInFrom = 0.4
    static let newLargeTitleInFrom = 0.3
    /// A custom back button is a custom view: it cross-fades in place (Flutter's `bottomLeading`
    /// fades out by 0.4, `topLeading` in from 0.6).
    static let customBackOutBy = 0.4
    static let customBackInFrom = 0.6
    /// A chevron only one bar has.
    static let chevronInFrom = 0.4
    /// A large title flying into the back label, and the label coming out of it.
    static let largeTitleIntoBackOutBy = 0.6
    static let backFromLargeTitleInFrom = 0.4

    /// `item` at progress p of its flight into `target`'s place: leading edge, vertical centre,
    /// size and font size interpolated linearly; its own colour and weight kept. Flutter tweens
    /// the text style to the back label's (colour and weight too), but 60 frames/s iOS 12 and 13
    /// simulator recordings (thomas-sivilay/blog-large-title-ios13) show the flying title black
    /// and bold to the end (no tint in any frame, the bold glyphs matching throughout) and the
    /// label coming out blue. Its clip opens upwards to the bar's item band as it rises into it.
    static func flying(_ item: BarItem, into target: BarItem, _ p: Double, barTop: Double) -> BarItem {
        guard p > 0 else { return item }
        func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
        var out = item
        out.x = lerp(item.x, target.x)
        out.width = lerp(item.width, target.width)
        out.height = lerp(item.height, target.height)
        out.y = lerp(item.y + item.height / 2, target.y + target.height / 2) - out.height / 2
        out.fontSize = lerp(item.fontSize, target.fontSize)
        // Truncated where it was: the room scales with the text (a long large title cut at 34 pt
        // ran off the bar once its room was dropped).
        out.maxWidth = item.maxWidth.map { $0 * out.fontSize / item.fontSize }
        if let c = item.clip { out.clip = VerticalClip(top: lerp(c.top, barTop), bottom: c.bottom) }
        return out
    }

    /// The lower screen's title at progress p: in a push, flying to the back label's place, a
    /// straight fade out by `pushOldTitleOut` (iOS 18.2); in a pop or swipe, or fading in place,
    /// Flutter's ease-out by `oldTitleOutBy`. (`Timeline.returningTitleAlpha` reads it too.)
    static func lowerTitleAlpha(_ p: Double, flies: Bool, back: Bool) -> Double {
        flies && !back ? 1 - ramp(p, 0, pushOldTitleOut) : fadeOut(p, by: oldTitleOutBy)
    }

    /// Flutter's `Curves.easeIn` and `Curves.easeOut`.
    static let easeIn = CubicBezier(0.42, 0, 1, 1)
    static let easeOut = CubicBezier(0, 0, 0.58, 1)

    static func fadeOut(_ p: Double, by t: Double) -> Double { 1 - easeOut(min(1, max(0, p / t))) }
    static func fadeIn(_ p: Double, from t: Double) -> Double { easeIn(min(1, max(0, (p - t) / (1 - t)))) }
    /// 0 up to `a`, 1 from `b`, a straight line between.
    static func ramp(_ x: Double, _ a: Double, _ b: Double) -> Double { min(1, max(0, (x - a) / (b - a))) }

    /// iOS 18's fades where a 60 frames/s simulator recording measured them (iPhone 16, iOS 18.2, a
    /// UINavigationController with plain bars through react-native-screens:
    /// jongbelegen/expo-router-navigate-bug 244d509 `recording.mov`; helper-69, 2026-11-27). Each is
    /// a straight line in p, the screens' progress, and a pop is not a push played backwards:
    /// - push, the old title flying to the back label: out by p 0.74 (rms 0.014 over 25 frames;
    ///   Flutter's ease-out by 0.7 is 0.19-0.22 fainter at p 0.24-0.46);
    /// - push, the new back label coming from the old title: in over 0.13...0.97 (rms 0.014; Flutter's
    ///   ease-in from 0.3 up to 0.32 fainter);
    /// - push, a chevron only the new bar has: in over 0.08...0.98 (rms 0.006; 0.4...1, up to 0.43);
    /// - pop (q = 1 - p), the leaving back label: out over q 0.23...1 (rms 0.039; NavReel had it
    ///   gone by q 0.65, 0.57 too faint at 0.46), and a chevron only the old bar has: out over q
    ///   0.155...1 (rms 0.032). Both end at rest: the best free lines end at 1.06, past the end, and
    ///   left a 6 % ghost that vanished in the rest frame (a review), where the recording's tail
    ///   reaches 0 by then. The returning title fits Flutter's curve (within 0.05), kept.
    /// A swipe runs the pop's animations from the finger, so it takes the pop's. HBD's iOS 11 GIFs
    /// (2018) faded the chevron and labels sooner: docs/transitions.md keeps their numbers.
    static let pushOldTitleOut = 0.74
    static let pushBackLabelIn = (0.13, 0.97)
    static let pushChevronIn = (0.08, 0.98)
    static let popBackLabelOut = (0.23, 1.0)
    static let popChevronOut = (0.155, 1.0)
    /// The title leaving in a pop: out by q 0.82 (iOS 18.2, both pops, within 0.05).
    static let popTitleOutBy = 0.82

    /// A pop started by a tap on the back button (`tapped: true`): the same iOS 18.2 recording's
    /// pop from a tap (touch-down 110 ms before the screens move) shows the button highlighted at
    /// 0.22-0.23, its label leaving at 0.25-0.31 until its own fade takes it lower (0.17 at q 0.85),
    /// and a chevron both bars have at 0.50 on the first frame, recovering as 0.49 + 0.58 q
    /// (within 0.05 to q 0.70). A pop by code starts at full strength (0.97-0.99).
    static let tappedLabel = 0.28
    static func tappedChevron(_ q: Double) -> Double { min(1, 0.5 + 0.58 * q) }

    /// A back button's items (chevron and label) as a tap left them at pop progress q: the label
    /// at most `tappedLabel`, the chevron times `tappedChevron(q)`. One rule for every bar: items
    /// that fade (below) and items at rest (a bar carried off by the top screen, a standalone bar).
    static func highlighted(_ items: [BarItem], q: Double) -> [BarItem] {
        items.map { item in
            guard item.element == .backButton else { return item }
            switch item.kind {
            case .chevron: return item.with(alpha: tappedChevron(q))
            case .text:
                var out = item
                out.alpha = min(item.alpha, tappedLabel)
                return out
            default: return item
            }
        }
    }

    /// `back`: a pop or a swipe (p going down), whose fades are not the push's reversed.
    /// `tapped`: a pop that a tap on the back button started.
    init(lower L: ScreenParts, upper U: ScreenParts, width w: Double, progress p: Double, lowerX: Double, back: Bool = false,
         tapped: Bool = false) {
        typealias T = ItemTransition
        let q = 1 - p
        // Old title: slides to where the new back label will rest, also where it would rest when
        // the new screen shows none (a chevron alone: `displayMode: minimal`, or a label with no
        // room; a hidden bar, which stays laid out): `backLabelRestX`; or fades in place beside a
        // custom back button. HBDNavigationBar's weixin.gif, an iPhone's swipe back from a screen
        // with a chevron alone, measures the returning title's centre at 0.057 + 0.438 x the
        // finger (of the width, 0.194 at 0.31 to 0.338 at 0.64, 12 frames), as hidden.gif's
        // 0.042 + 0.459 x; until renderer 10 it faded in place at 0.5 W, 0.3 W off at 0.31.
        if let t = L.title {
            let target = U.backLabel?.x ?? U.backLabelRestX ?? t.x
            let flies = target != t.x
            lower.append(t.with(alpha: T.lowerTitleAlpha(p, flies: flies, back: back), dx: (target - t.x) * p))
        }
        if let b = L.backLabel { lower.append(b.with(alpha: T.fadeOut(p, by: T.oldBackLabelOutBy), dx: -w / 2 * p)) }
        if let b = L.backImage { lower.insert(b.with(alpha: T.fadeOut(p, by: T.customBackOutBy)), at: 0) }
        lower += L.buttons.map { $0.with(alpha: T.fadeOut(p, by: T.oldButtonsOutBy)) }
        // Whether the lower screen's large title shows (Flutter's `bottomLargeExpanded`): one
        // answer for both its flight and the back label's, so that the two never part.
        let expanded = (L.largeTitle?.alpha ?? 0) >= 0.5
        if let lt = L.largeTitle {
            if expanded, let b = U.backLabel {
                // A large title that shows flies into the new back label: its leading edge and
                // centre move there as it shrinks from 34 pt to the label's 17 pt, out by 0.6
                // (Flutter's `bottomLargeTitle`: slideFromLeadingEdge to the top back label,
                // fadeOutBy(0.6)). Until renderer 7 NavReel slid it off with its screen, out by
                // 0.3; iOS 12 and 13 recordings hold it within 2.5 pt of its x and rising 45 pt x p
                // (docs/transitions.md), where the slide-off was 28 pt off by p 0.25.
                lower.append(T.flying(lt, into: b, p, barTop: U.barTop).with(alpha: T.fadeOut(p, by: T.largeTitleIntoBackOutBy)))
            } else if expanded, U.backImage != nil {
                // Beside a custom back button it cannot fly there: it shifts a quarter of the width
                // towards the trailing edge and fades out by 0.4 (Flutter's `bottomLargeTitle` with a
                // top leading widget).
                lower.append(lt.with(alpha: T.fadeOut(p, by: T.customBackOutBy), dx: w / 4 * p))
            } else if expanded {
                // No back label to fly into (`displayMode: minimal`, a hidden bar): it goes with its
                // screen and fades as the flying one does, out by 0.6 (the iOS 12 push's title fits
                // 1 - p / 0.6). Flutter drops it at once; out by 0.3 with the fast start of UIKit's
                // curve it was gone by the first moving frame, and a swipe back showed an empty
                // large-title bar until the end (an audit, 2026-11-27).
                lower.append(lt.with(alpha: T.fadeOut(p, by: T.largeTitleIntoBackOutBy), dx: lowerX))
            } else {
                lower.append(lt.with(alpha: T.fadeOut(p, by: T.oldLargeTitleOutBy), dx: lowerX))
            }
        }

        if let t = U.title {
            // Enters with its centre on the trailing edge (Flutter's `topMiddle`: "the width / 2
            // here makes the middle widget's horizontal center on the trailing edge"; its older
            // version shifts the title by W / 2 alike). weixin.gif measures the centre at
            // 0.501 + 0.498 finger: until 2026-11-27 NavReel put the centre at W - width / 2.
            let start = w - t.width / 2
            // iOS 18.2: in a push, Flutter's ease-in from 0.2 (rms 0.028; from 0.25, 0.042); leaving
            // in a pop, a straight line out by q 0.82 (rms 0.026), where the push's curve reversed
            // had it 0.22 too faint at q 0.35 (helper-73).
            let alpha = back ? 1 - T.ramp(q, 0, T.popTitleOutBy) : T.fadeIn(p, from: T.newTitleInFrom)
            upper.append(t.with(alpha: alpha, dx: (start - t.x) * (1 - p)))
        }
        if let b = U.backLabel {
            if let lt = L.largeTitle, expanded {
                // From an expanded large title: the label comes out of it, the same flight, in from
                // 0.4 (Flutter's `topBackLabel`, "the topBackLabel always comes from the large title
                // first if available and expanded").
                var from = lt
                from.kind = b.kind
                from.element = b.element
                from.color = b.color
                from.weight = b.weight
                from.alpha = 1   // the label's own strength, whatever the title's cross-fade was at
                upper.append(T.flying(from, into: b, p, barTop: U.barTop).with(alpha: T.fadeIn(p, from: T.backFromLargeTitleInFrom)))
            } else {
                // Starts where the old title was (under a hidden bar too, which stays laid out).
                let start = L.title?.x ?? (L.bar.hidden ? L.titleRestX : nil) ?? b.x
                let alpha = back ? 1 - T.ramp(q, T.popBackLabelOut.0, T.popBackLabelOut.1) : T.ramp(p, T.pushBackLabelIn.0, T.pushBackLabelIn.1)
                upper.append(b.with(alpha: alpha, dx: (start - b.x) * (1 - p)))
            }
        }
        if let b = U.backImage { upper.insert(b.with(alpha: T.fadeIn(p, from: T.customBackInFrom)), at: 0) }
        upper += U.buttons.map { $0.with(alpha: T.fadeIn(p, from: T.newButtonsInFrom)) }
        if let lt = U.largeTitle { upper.append(lt.with(alpha: T.fadeIn(p, from: T.newLargeTitleInFrom), dx: w * (1 - p))) }

        // The back chevron is the bar's one back indicator, not a per-screen item: when both
        // screens show it, it stays in place at full strength; when only the new one does, it
        // comes in over most of a push and goes over most of a pop (iOS 18, above; Flutter's
        // 0.4...1, which HBD's iOS 11 background.gif matched within 0.12, was up to 0.57 too faint
        // there). One that only the lower bar has keeps Flutter's fade: nothing measured it.
        switch (L.chevron, U.chevron) {
        case let (_?, u?): upper.insert(u, at: 0)
        case let (nil, u?):
            let alpha = back ? 1 - T.ramp(q, T.popChevronOut.0, T.popChevronOut.1) : T.ramp(p, T.pushChevronIn.0, T.pushChevronIn.1)
            upper.insert(u.with(alpha: alpha), at: 0)
        case let (l?, nil): lower.insert(l.with(alpha: T.fadeOut(p, by: 1 - T.chevronInFrom)), at: 0)
        case (nil, nil): break
        }

        // A tap on the back button leaves it highlighted as the pop runs (`tapped: true`).
        if back && tapped { upper = T.highlighted(upper, q: q) }

        // A hidden bar keeps its place with its content view faded out (HBD `hbd_setContentHidden:`,
        // called inside the transition's animation block): the visible bar's items fade with it.
        if U.bar.hidden { lower = lower.map { $0.with(alpha: 1 - p) } }
        if L.bar.hidden { upper = upper.map { $0.with(alpha: p) } }
    }
}

extension Timeline {
    /// How opaque NavReel draws the returning screen's title in a swipe back with `uncovered` of
    /// the width uncovered (the top screen that far over): `ItemTransition`'s fade of the lower
    /// title in a pop or swipe, with the top bar's content faded out as well when it is hidden.
    /// `navreel scaffold` reads the title of a screen only ever seen under a swipe, and divides
    /// this out to get the colour at full strength.
    public static func returningTitleAlpha(uncovered: Double, topBarHidden: Bool) -> Double {
        let f = min(1, max(0, uncovered))
        let alpha = ItemTransition.lowerTitleAlpha(1 - f, flies: true, back: true)
        // (`ItemTransition.init`'s last rule: a hidden top bar's content fades with the swipe.)
        return topBarHidden ? alpha * f : alpha
    }
}
