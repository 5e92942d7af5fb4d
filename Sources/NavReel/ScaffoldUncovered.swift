import Foundation
import Navigation
import Raster
import Scenario

/// The screen under a recording's first screen. A recording often starts on a pushed screen (it
/// has a back button) whose root never shows at rest: the app was opened there, or the finger
/// only swiped back part way and let go. Before, scaffold wrote a root that copied the first
/// screen's bar, and a swipe on the first screen was "nothing under it to swipe back to": not
/// written. HBDNavigationBar's `screenshot/weixin.gif` (an iPhone's recording) is exactly that: a
/// swipe from a grey bar to WeChat's black "Me" bar, held and let go.
extension Scaffold {
    /// The screen at rest a recording shows under its first one: when the first other screen at
    /// rest came by a pop or a swipe back taken all the way (nothing pushed before it), that screen
    /// (its index in `readings`), which is the root of the scenario's stack. nil otherwise. The
    /// motion's direction says the first screen was pushed, whether or not a back button was read
    /// on it: HBDNavigationBar's juejin.gif starts on a screen whose white chevron over a photo is
    /// not read, and pops it.
    public static func screenUnderFirst(_ r: RecordingRead) -> Int? {
        guard let firstIndex = r.rests.firstIndex(where: { $0.screen != nil }), let first = r.rests[firstIndex].screen else { return nil }
        for j in (firstIndex + 1)..<r.rests.count {
            // A rest not read may have been another screen pushed: the stack is not known after it.
            if r.rests[j].screen == nil && r.rests[j].held == nil { return nil }
            guard let seen = r.rests[j].screen else { continue }
            if seen == first { continue }
            switch r.movements[j - 1] {
            case .pop, .swipeFinished: return seen
            default: return nil
            }
        }
        return nil
    }

    /// The first screen read (its index in `readings`) and the motions on it before another screen
    /// shows at rest (indices into `movements`): what a swipe on the first screen is judged from.
    static func firstScreenMotions(_ r: RecordingRead) -> (first: Int, motions: [Int])? {
        guard let firstIndex = r.rests.firstIndex(where: { $0.screen != nil }), let first = r.rests[firstIndex].screen else { return nil }
        var motions: [Int] = []
        // (A swipe held from the recording's start is on the first screen: its let-go too.)
        for j in (r.opensHeld ? 0 : firstIndex)..<(r.rests.count - 1) {
            if let s = r.rests[j + 1].screen, s != first { break }
            motions.append(j)
        }
        return (first, motions)
    }

    /// A swipe held still on the first screen says it was pushed (a root cannot be swiped, and a
    /// push and pop never stop part way) even when no back button was read: a hidden bar shows
    /// none, and juejin.gif's white chevron over a photo is not read. So does a slow swipe let go,
    /// seen in many frames: a push and a pop with no rest between (the screens that came and went
    /// over look-alike content, which reads as one) take two of NavReel's 0.5 s and a tap. The
    /// first screen then gets a chevron and a note.
    ///
    /// A bar that shows nothing of its own (no title, items or back button, and the content's
    /// colour: `showsNothing`) is written hidden instead: HBDNavigationBar's hidden bar, which
    /// hidden.gif swipes back from; a transparent bar that hides its back button looks the same
    /// at rest and in the swipe (NavReel draws each screen's bar with its screen).
    static func markFirstPushed(_ r: inout RecordingRead) {
        guard let (first, motions) = firstScreenMotions(r), !r.readings[first].pushed else { return }
        func t(_ v: Double) -> String { String(format: "%.2f", v) }
        func markPushed(_ why: String) {
            if showsNothing(r.readings[first]) {
                r.readings[first].barHidden = true
                r.readings[first].notes.append("no back button, title or bar buttons read over the content's colour, but \(why): it was pushed, its bar hidden (`hidden: true`, HBDNavigationBar's hidden bar; a transparent bar that hides its back button looks the same)")
            } else {
                r.readings[first].backButton = .chevron
                r.readings[first].notes.append("no back button read, but \(why): it was pushed (a chevron is written; a hidden bar shows none)")
            }
        }
        if r.opensHeld, let to = r.rests[0].held {
            markPushed("the recording starts on a swipe back holding it \(Int((to * 100).rounded())) % over")
            return
        }
        if let x0 = r.openingSwipe.first {
            markPushed("the recording starts on a swipe back with it \(Int((x0.x * 100).rounded())) % over")
            return
        }
        for j in motions {
            let next = r.rests[j + 1]
            // A rest not read may have been another screen.
            if next.screen == nil && next.held == nil { return }
            let length = next.start - r.rests[j].end
            let why: String
            switch r.movements[j] {
            case .swipeHeld(let to, _):
                why = "a swipe back held it \(Int((to * 100).rounded())) % over at \(t(next.start)) s"
            case .swipeCancelled(let to, _) where length > 1.5 && j < r.paths.count && r.paths[j].count >= 5:
                why = "a swipe back took it \(Int((to * 100).rounded())) % over for \(t(length)) s from \(t(r.rests[j].end)) s"
            default: continue
            }
            markPushed(why)
            return
        }
    }

    /// A screen the recording pushes whose bar shows nothing of its own (`showsNothing`) is
    /// written hidden, as the first screen is when a swipe says it was pushed
    /// (`markFirstPushed`). Before (found 2026-11-29 by rendering a push to a hidden bar and
    /// reading it back), it was written transparent with a note that NavReel draws a chevron the
    /// frames do not show, so the push drew a back button and no hidden bar, and a later
    /// `setBar` that showed the bar had no `hidden: false` to write.
    /// (A push, or screens moved sideways whichever way, to a screen not seen before, from a
    /// rest that was read: `recordingSteps` writes those as pushes. A pop or a swipe taken all
    /// the way to a new screen is written as a push too, but shows a screen that was under
    /// another, a root or one pushed before the recording: not marked.)
    ///
    /// So is the look a bar changed to in place when it shows nothing and the look before
    /// showed something: a setBar that hid the bar, title and back button with it. It was
    /// written as the bar's alpha faded to 0 (HBDNavigationBar's barAlpha), which keeps the
    /// title and back button the frames no longer show.
    static func markHiddenBars(_ r: inout RecordingRead) {
        for j in r.movements.indices {
            guard let s = r.rests[j + 1].screen, let before = r.rests[j].screen, !r.rests[...j].contains(where: { $0.screen == s }),
                  !r.readings[s].pushed else { continue }
            // Pushed: within 4 levels of the content. Changed in place: the title and back button
            // going is the evidence, and the bar may show the band at the top of a list, not its
            // rows (a grouped list's #EFEFF4 is 16 levels from its white rows): within 24, from a
            // look that showed something.
            let why: String, levels: Int
            switch r.movements[j] {
            case .push:
                (why, levels) = (String(format: "pushed at %.2f s", r.rests[j].end), 4)
            case .unknown:
                (why, levels) = (String(format: "come in sideways at %.2f s (which way was not told; written as a push)", r.rests[j].end), 4)
            case .inPlace(contentSame: true) where !showsNothing(r.readings[before]):
                (why, levels) = (String(format: "the bar changed to it in place at %.2f s", r.rests[j].end), 24)
            default:
                continue
            }
            guard showsNothing(r.readings[s], within: levels) else { continue }
            r.readings[s].barHidden = true
            r.readings[s].notes.append(why + ", and no back button, title or bar buttons read over the content's colour: its bar hidden (`hidden: true`, HBDNavigationBar's hidden bar; a transparent bar that hides its back button looks the same)")
        }
    }

    /// The note of a screen marked hidden whose bar then came in as its content scrolled
    /// (`RecordingScript.scrolled`): `yaml` writes such a screen with its scrolled look and its
    /// top as `scrollEdge` or `scroll.alpha`, not hidden (its bar showed nothing only at the top
    /// of its content), so its note says that instead of "its bar hidden".
    public static func settleScrolledNotes(_ readings: inout [Reading], scrolled: [Int: Int]) {
        for (i, look) in scrolled where readings.indices.contains(i) && readings[i].barHidden {
            readings[i].notes.removeAll { $0.contains("its bar hidden (`hidden: true`") }
            readings[i].notes.append("its bar shows nothing at the top of its content, but came in as the content scrolled (\(screenNames(readings)[look])'s look): written with that look, and with its top as `scrollEdge` or `scroll.alpha`, not hidden")
        }
    }

    /// Whether a screen's bar shows nothing of its own: no title (small or large), back button
    /// or bar buttons, over the content's colour (a transparent bar, or a flat one within
    /// `levels`, 4 unless said, of the content). Not over a header picture, where a dark
    /// chevron on a dark photo may not be read.
    static func showsNothing(_ r: Reading, within levels: Int = 4) -> Bool {
        guard r.titleColor == nil, !r.largeTitle, r.backButton == .none, r.rightItems == 0, r.header == nil else { return false }
        switch r.background {
        case .transparent: return true
        case .solid(let c): return distance(c, r.content) <= levels
        default: return false
        }
    }

    /// Puts the screen under the first one (`screenUnderFirst`) first in `readings` and `images`
    /// (and the rests' indices with them): the root is `screen-1`, as in every scaffold.
    static func rootFirst(_ r: inout RecordingRead) {
        guard let root = screenUnderFirst(r), root != 0 else { return }
        let order = [root] + r.readings.indices.filter { $0 != root }
        var index = [Int](repeating: 0, count: order.count)
        for (new, old) in order.enumerated() { index[old] = new }
        r.readings = order.map { r.readings[$0] }
        r.images = order.map { r.images[$0] }
        for i in r.rests.indices { r.rests[i].screen = r.rests[i].screen.map { index[$0] } }
    }

    /// Reads the screen a swipe back on the first screen uncovered, when the first screen has a
    /// back button and no screen under it shows at rest (`screenUnderFirst` is nil): the recording
    /// is decoded again up to the swipe that went furthest; in the frame where the first screen
    /// stood furthest over, the uncovered strip is the screen under it as NavReel draws it there
    /// (0.3 of the width behind, under a black dimming of 0.1 x what is still covered: UIKit's
    /// parallax transition, NAVIGATION-MODEL.md), which is undone column by column, the strip
    /// stretched over what it did not show, and read as a screenshot. nil when no swipe uncovered a
    /// fifth of the width.
    static func readUncovered(path: String, _ r: RecordingRead, limits: MediaLimits) throws -> Reading? {
        try readUncoveredBar(path: path, r, limits: limits)?.reading
    }

    /// `readUncovered`, and what the frame it read says of the bar across the swipe: a sentence
    /// saying why when it showed one bar across the full width, the root's, and not the first
    /// screen's moving with it (`thumbBarAcross`: `barTransition: switch`).
    static func readUncoveredBar(path: String, _ r: RecordingRead, limits: MediaLimits) throws -> (reading: Reading, switched: String?)? {
        guard screenUnderFirst(r) == nil, let (first, motions) = firstScreenMotions(r), r.readings[first].pushed else { return nil }
        // The swipes on the first screen before any other screen shows.
        var windows: [ClosedRange<Double>] = []
        var furthest = 0.0
        scan: for j in motions {
            let next = r.rests[j + 1]
            switch r.movements[j] {
            case .swipeCancelled(let to, _), .swipeHeld(let to, _):
                windows.append(r.rests[j].end...(next.start + (next.held != nil ? 0.1 : 0)))
                furthest = Swift.max(furthest, to)
            case .inPlace(contentSame: true): continue
            default: break scan
            }
        }
        // A swipe held from the recording's start: its held frames.
        if r.opensHeld, let to = r.rests[0].held {
            windows.append(r.rests[0].start...r.rests[0].end)
            furthest = Swift.max(furthest, to)
        }
        // A swipe under way from the recording's start: its frames before the first rest.
        if !r.opensHeld, let last = r.openingSwipe.last {
            windows.append(0...last.time)
            furthest = Swift.max(furthest, r.openingSwipe.map(\.x).max() ?? 0)
        }
        guard !windows.isEmpty, furthest >= 0.2 else { return nil }
        let reading = r.readings[first], anchor = r.images[first]
        let w = anchor.width, h = anchor.height
        let step = Swift.max(1, w / 130)
        let anchorThumb = Thumb(anchor, step: step)
        let end = windows.map(\.upperBound).max()!
        var best: (fraction: Double, time: Double, image: Image)?
        var start: Double?
        do {
            _ = try MediaReader.forEachFrame(path: path, limits: limits) { (image, time, _) throws(MediaError) in
                if start == nil { start = time }
                let t = time - start!
                if t > end { throw MediaError(source: path, message: "stopped") }
                guard windows.contains(where: { $0.contains(t) }) else { return }
                let image = r.scaling?.apply(image) ?? image
                guard image.width == w, image.height == h else { return }
                if let f = heldFraction(Thumb(image, step: step), over: anchorThumb, reading: reading), f > (best?.fraction ?? 0) {
                    best = (f, t, image)
                }
            }
        } catch {
            if error.message != "stopped" { throw error }
        }
        guard let best, best.fraction >= 0.2 else { return nil }
        let dx = fineHorizontalShift(from: anchor, to: best.image, near: Int((best.fraction * Double(w)).rounded()), within: 2 * step,
                                     rows: reading.barRows..<Swift.max(reading.barRows, h - Int((34 * reading.device.scale).rounded())))
        let f = Double(dx) / Double(w)
        let image = uncoveredScreen(best.image, fraction: f, scale: reading.device.scale)
        let percent = Int((f * 100).rounded())
        let source = "\(path) at \(String(format: "%.2f", best.time)) s (the screen under the first, \(percent) % uncovered by a swipe back)"
        var under = try read(image, source: source, device: reading.device, lossy: true)
        under.backButton = .none
        // A title moving in from the back button's place is not where a title at rest is looked
        // for: any text in the bar's uncovered rows gives its colour.
        if under.titleColor == nil {
            let k = reading.device.scale, sb = reading.device.statusBar
            let offset = Int(0.3 * Double(w) * (1 - f)), shown = Int(f * Double(w)) - Int((10 * k).rounded())
            if shown > 0, let ink = Pixels(image).ink(rows: Int((sb + 8) * k)..<Int((sb + 36) * k), cols: offset..<(offset + shown)) {
                under.titleColor = ink.color
                under.notes.append("title colour \(hex(ink.color)), from text moving in the bar as the swipe went")
            }
        }
        // The title was fading in as the swipe went: NavReel draws it at `returningTitleAlpha`
        // there, so the colour read is that far from the bar's towards the title's. At full
        // strength it is that much further (hidden.gif's "1", read #636264 at 89 % over a hidden
        // bar, is near black: the frame's ink and NavReel's alpha agree there, 159 levels under
        // the bar at 0.65 against 0.67). Not where the title had barely come in (under a third).
        let alpha = Timeline.returningTitleAlpha(uncovered: f, topBarHidden: reading.barHidden)
        if let t = under.titleColor, alpha >= 0.33, alpha < 0.97 {
            // (The small bar's rows without a hairline, as `finish` reads them.)
            let k = reading.device.scale, sb = reading.device.statusBar
            let bar = Pixels(image).median(rows: Int((sb * k).rounded())..<Int(((sb + 44) * k).rounded()) - 1, cols: 0..<w)
            func full(_ c: UInt8, _ b: UInt8) -> UInt8 { UInt8(Swift.min(255, Swift.max(0, (Double(b) + (Double(c) - Double(b)) / alpha).rounded()))) }
            let strong = RGBA8(full(t.r, bar.r), full(t.g, bar.g), full(t.b, bar.b))
            under.titleColor = strong
            under.notes.append("title colour \(hex(t)) as read, where NavReel draws the returning title at \(String(format: "%.2f", alpha)) of its strength (\(percent) % uncovered\(reading.barHidden ? ", under a hidden bar" : "")): \(hex(strong)) at full strength")
        }
        // No bar button uncovered: its colour is the first screen's (HBD blends the tint from one
        // screen's to the other's as the swipe goes: a default blue would tint the first screen's
        // items in every frame of the swipe).
        if under.tint == nil, let tint = reading.tint {
            under.tint = tint
            under.notes.append("no bar button uncovered: its tint is taken from the first screen (\(hex(tint)))")
        }
        // Across the width only the strip was seen (the rest copies its edge columns, and the top
        // screen's shadow darkens its end): a bar's colour changing across it is not trusted.
        if case .horizontal(let a, let b) = under.background {
            let mix = RGBA8(UInt8((Int(a.r) + Int(b.r)) / 2), UInt8((Int(a.g) + Int(b.g)) / 2), UInt8((Int(a.b) + Int(b.b)) / 2))
            under.background = .solid(mix)
            under.notes.append("its bar read as a horizontal gradient \(hex(a)) to \(hex(b)) across the strip and what copies its edge: written as one colour, \(hex(mix))")
        }
        // What a screenshot's reading says of a bar with no title or items is not so here.
        under.notes.removeAll { $0.hasPrefix("no title found") || $0.hasPrefix("no title and no items") }
        under.notes.insert("read from the \(percent) % of the width a swipe back uncovered (NavReel's parallax and dimming undone; the rest is that strip stretched): its bar's background and the status bar's style are what the swipe showed. Its title and bar buttons were moving or out of view: placeholders stand in, and no back button (it is the root)", at: 0)
        var switched: String?
        if thumbBarAcross(Thumb(best.image, step: step), top: anchorThumb, dx: Int((Double(dx) / Double(step)).rounded()), reading: reading) {
            switched = "a swipe back \(percent) % of the way (\(String(format: "%.2f", best.time)) s) showed one bar across the full width, not this screen's moving with it (HBDNavigationBar's split bar): one UIKit bar restyled in viewWillAppear"
            // The whole bar is the root's there, its items too: its tint and title colour are read
            // across the width (juejin.gif: blue items and a black title, where the strip showed
            // the back button's blue as the title and no bar button).
            if let whole = try? read(best.image, source: source, device: reading.device, lossy: true) {
                if let t = whole.tint, whole.rightItem {
                    under.tint = t
                    under.notes.removeAll { $0.hasPrefix("no bar button uncovered") }
                    under.notes.append("tint \(hex(t)), from the bar buttons the bar showed across the full width in the swipe")
                }
                if let t = whole.titleColor {
                    under.titleColor = t
                    under.notes.removeAll { $0.hasPrefix("title colour ") }
                    under.notes.append("title colour \(hex(t)), from the title the bar showed across the full width in the swipe")
                }
            }
        }
        return (under, switched)
    }


    /// How far `frame` shows `anchor`'s screen moved towards the trailing side, to the pixel:
    /// the shift within `within` of `near` whose rows (every sixth of `rows`) match best.
    static func fineHorizontalShift(from anchor: Image, to frame: Image, near: Int, within: Int, rows: Range<Int>) -> Int {
        let w = anchor.width
        var best = (err: Double.infinity, dx: near)
        let a = anchor.pixels, b = frame.pixels
        for dx in Swift.max(1, near - within)...Swift.min(w - 1, near + within) {
            var sum = 0, n = 0
            for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 6) {
                let row = y * w * 4
                for x in stride(from: 0, to: w - dx, by: 2) {
                    let i = row + x * 4, j = row + (x + dx) * 4
                    sum += abs(Int(a[i]) - Int(b[j])) + abs(Int(a[i + 1]) - Int(b[j + 1])) + abs(Int(a[i + 2]) - Int(b[j + 2]))
                    n += 1
                }
            }
            let e = n == 0 ? Double.infinity : Double(sum) / Double(n)
            if e < best.err { best = (e, dx) }
        }
        return best.dx
    }

    /// The screen under a swipe back, from a frame where the top screen stands `fraction` of the
    /// width over: the lower screen is drawn 0.3 x (1 - fraction) of the width to the leading side
    /// under a black dimming of alpha 0.1 x (1 - fraction) (`Timeline.transition`), and the top
    /// screen's edge shadow (9 pt) lies left of its edge. Each column of the lower screen comes
    /// from where it shows, undimmed; the columns hidden off the leading edge or under the top
    /// screen take the nearest shown one. Rows are not moved: the status bar is the device's.
    static func uncoveredScreen(_ frame: Image, fraction f: Double, scale: Double) -> Image {
        let w = frame.width, h = frame.height
        let offset = 0.3 * Double(w) * (1 - f)
        let shown = Swift.max(1, Int(f * Double(w)) - Int((10 * scale).rounded()))
        let keep = 1 - 0.1 * (1 - f)
        var table = [UInt8](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = UInt8(Swift.min(255, (Double(v) / keep).rounded())) }
        var source = [Int](repeating: 0, count: w)
        for u in 0..<w { source[u] = Swift.min(shown - 1, Swift.max(0, Int((Double(u) - offset).rounded()))) }
        var out = [UInt8](repeating: 255, count: w * h * 4)
        frame.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                let row = y * w * 4
                for u in 0..<w {
                    let i = row + source[u] * 4, o = row + u * 4
                    out[o] = table[Int(p[i])]
                    out[o + 1] = table[Int(p[i + 1])]
                    out[o + 2] = table[Int(p[i + 2])]
                }
            }
        }
        return Image(width: w, height: h, pixels: out)
    }
}
