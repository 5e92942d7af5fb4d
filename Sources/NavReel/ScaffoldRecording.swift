import Foundation
import Navigation
import Raster
import Scenario

/// `navreel scaffold recording.mov`: a first scenario read off a screen recording of a real app
/// instead of one screenshot a screen. The recording is read a frame at a time (a phone's
/// frames do not fit in memory together): where the screen stays still for a while is a screen at
/// rest, read as a screenshot is; which screen each rest shows, and which way the screens moved
/// between two rests, give the steps (push, pop, popTo, a swipe back let go), and when each motion
/// started gives the waits between them, so that the scenario's timeline is the recording's.
extension Scaffold {
    /// A coarse grey copy of a frame, the mean of each `step` x `step` block: enough to tell
    /// motion from stillness through a video codec's noise, and which way a screen moved (a block's
    /// mean moves smoothly as the picture moves by part of a block, where one pixel of it jumps).
    /// The blocks' colour (`cb`, `cr`) is kept beside the grey, for what changes colour alone: a
    /// bar's blue changed to a red of the same brightness (#3366CC to #DD3333) moves 4 grey levels,
    /// under the 16 that tell motion.
    struct Thumb: Sendable {
        var cols: Int
        var rows: Int
        var step: Int
        /// Rec. 601 luma, and the two colour differences about 128 (Cb, blue; Cr, red), 0-255.
        var v: [UInt8]
        var cb: [UInt8]
        var cr: [UInt8]

        init(_ image: Image, step: Int) {
            let cols = image.width / step, rows = image.height / step
            self.step = step
            self.cols = cols
            self.rows = rows
            var v = [UInt8](repeating: 0, count: cols * rows)
            var cb = v, cr = v
            var ys = [Int](repeating: 0, count: cols), bs = ys, rs = ys
            let width = image.width, area = step * step
            image.pixels.withUnsafeBufferPointer { p in
                for r in 0..<rows {
                    for c in 0..<cols { ys[c] = 0; bs[c] = 0; rs[c] = 0 }
                    for y in (r * step)..<(r * step + step) {
                        var i = y * width * 4
                        for c in 0..<cols {
                            var red = 0, green = 0, blue = 0
                            for _ in 0..<step {
                                red += Int(p[i]); green += Int(p[i + 1]); blue += Int(p[i + 2])
                                i += 4
                            }
                            // Rec. 601 in 256ths: luma 77 + 150 + 29 = 256; Cb and Cr, JFIF's
                            // (-43 - 85 + 128 and 128 - 107 - 21: 0 for a grey).
                            ys[c] += 77 * red + 150 * green + 29 * blue
                            bs[c] += -43 * red - 85 * green + 128 * blue
                            rs[c] += 128 * red - 107 * green - 21 * blue
                        }
                    }
                    for c in 0..<cols {
                        v[r * cols + c] = UInt8((ys[c] / area) >> 8)
                        cb[r * cols + c] = UInt8(Swift.min(255, Swift.max(0, 128 + (bs[c] / area) / 256)))
                        cr[r * cols + c] = UInt8(Swift.min(255, Swift.max(0, 128 + (rs[c] / area) / 256)))
                    }
                }
            }
            self.v = v
            self.cb = cb
            self.cr = cr
        }

        /// Its first `rows` rows alone.
        func top(rows n: Int) -> Thumb {
            var t = self
            t.rows = Swift.min(rows, n)
            t.v = Array(v.prefix(t.rows * cols))
            t.cb = Array(cb.prefix(t.rows * cols))
            t.cr = Array(cr.prefix(t.rows * cols))
            return t
        }

        /// How many samples may differ (a clock's digit, a caret) in a frame still held.
        var stillLimit: Int { Swift.max(3, cols * rows / 1000) }

        /// How many samples differ from `other`'s by more than `threshold` levels of grey or of
        /// either colour difference: what tells a frame still from one that changed.
        func changed(from other: Thumb, threshold: Int = 16) -> Int {
            var n = 0
            for i in 0..<min(v.count, other.v.count, cb.count, other.cb.count)
            where abs(Int(v[i]) - Int(other.v[i])) > threshold || abs(Int(cb[i]) - Int(other.cb[i])) > threshold
                || abs(Int(cr[i]) - Int(other.cr[i])) > threshold { n += 1 }
            return n
        }

        /// `changed(from:)` less up to two compact groups of changed samples each within `box`
        /// (`Scaffold.pointerGroups`): the Mac's mouse pointer, which a captured simulator window
        /// shows moving over a screen at rest. Past `limit` by more than two such groups can hold,
        /// the count as it is (a screen that moved).
        func changedBeyondPointer(from other: Thumb, threshold: Int = 16, box: (cols: Int, rows: Int), limit: Int) -> Int {
            // (Counted first: a frame at rest or one that moved needs no mask of where.)
            let count = changed(from: other, threshold: threshold)
            let n = Swift.min(v.count, other.v.count, cb.count, other.cb.count)
            guard count > limit, count <= limit + 2 * box.cols * box.rows, n == cols * rows else { return count }
            var mask = [Bool](repeating: false, count: n)
            for i in 0..<n where abs(Int(v[i]) - Int(other.v[i])) > threshold || abs(Int(cb[i]) - Int(other.cb[i])) > threshold || abs(Int(cr[i]) - Int(other.cr[i])) > threshold {
                mask[i] = true
            }
            return count - Scaffold.pointerGroups(mask, width: cols, height: rows, box: box)
        }

        /// The mean difference between this frame's samples in `rows` from column `dx` on and
        /// `other`'s `dx` columns to the left: how well this frame shows `other` moved right by dx.
        func shiftedError(_ other: Thumb, dx: Int, rows band: Range<Int>) -> Double {
            guard dx < cols, !band.isEmpty else { return .infinity }
            var sum = 0, n = 0
            for r in stride(from: band.lowerBound, to: band.upperBound, by: 2) {
                let row = r * cols
                for c in dx..<cols {
                    sum += abs(Int(v[row + c]) - Int(other.v[row + c - dx]))
                    n += 1
                }
            }
            return n == 0 ? .infinity : Double(sum) / Double(n)
        }

        /// Whether this frame shows `other` moved `dx` columns over: its `shiftedError` there
        /// (`moved`) under two thirds of its error against `other` where it stood, over the same
        /// columns (the frame's from dx). A screen that looks like itself moved says nothing of
        /// where it went: a list whose rows and lines span the width (FDFullscreenPopGesture's
        /// root, a plain table with one label) matches itself moved anywhere, and a grey screen
        /// with text in its middle (the library's hidden-bar screen) matches itself moved 85 %
        /// over, grey on grey (0.50 against 0.57). HBDNavigationBar's gradient.gif holds a swipe
        /// at 64 % over a sky much like itself moved, and still shows it (2.6 against 5.2).
        /// Nor does a match of `other`'s columns where it is one flat colour (their texture under
        /// 1, what `movement` calls flat): FDFullscreenPopGesture's bar-less grey screen, swiped
        /// 12 % over in snapshot1.gif's first frame of its last swipe, matched its own first
        /// 11 %, grey on grey, 89 % over, better than where it was (0.68 against 1.75; the GIF's
        /// dither and the pointer differ from frame to frame), and the swipe began at 89 %.
        func showsMoved(_ other: Thumb, dx: Int, moved: Double, rows band: Range<Int>) -> Bool {
            guard dx > 0, dx < cols, !band.isEmpty else { return false }
            return 1.5 * moved < unmovedError(other, rows: band, cols: dx..<cols) && other.texture(rows: band, cols: 0..<(cols - dx)) >= 1
        }

        /// The mean difference between this frame's samples and `other`'s in the same places:
        /// `rows` (every other row) by `cols`; infinite over none.
        func unmovedError(_ other: Thumb, rows band: Range<Int>, cols range: Range<Int>) -> Double {
            var sum = 0, n = 0
            for r in stride(from: band.lowerBound, to: band.upperBound, by: 2) {
                let row = r * cols
                for c in range {
                    sum += abs(Int(v[row + c]) - Int(other.v[row + c]))
                    n += 1
                }
            }
            return n == 0 ? .infinity : Double(sum) / Double(n)
        }

        /// The mean difference between this frame's samples in `rows` (every other row) and
        /// `other`'s `dy` rows further down: how well this frame shows `other`'s content moved up
        /// by dy (down when negative). Infinite where less than a quarter of the rows overlap.
        func verticalError(_ other: Thumb, dy: Int, rows band: Range<Int>) -> Double {
            var sum = 0, n = 0
            for r in stride(from: band.lowerBound, to: band.upperBound, by: 2) where band.contains(r + dy) {
                let row = r * cols, from = (r + dy) * cols
                for c in 0..<cols {
                    sum += abs(Int(v[row + c]) - Int(other.v[from + c]))
                    n += 1
                }
            }
            return n * 8 < band.count * cols ? .infinity : Double(sum) / Double(n)
        }

        /// The mean difference between this frame's samples from `dy` rows below the top of `rows`
        /// down (every other row) and `other`'s from the top: how well this frame shows `other`
        /// come up from the bottom edge and `dy` rows short of where it rests (a sheet on its way).
        func risenError(_ other: Thumb, dy: Int, rows band: Range<Int>) -> Double {
            guard dy >= 0, band.lowerBound + dy < band.upperBound else { return .infinity }
            var sum = 0, n = 0
            for r in stride(from: band.lowerBound + dy, to: band.upperBound, by: 2) {
                let row = r * cols, from = (r - dy) * cols
                for c in 0..<cols {
                    sum += abs(Int(v[row + c]) - Int(other.v[from + c]))
                    n += 1
                }
            }
            return n == 0 ? .infinity : Double(sum) / Double(n)
        }

        /// `showsMoved` for `risenError`: whether this frame shows `other` risen `dy` rows, its
        /// error there (`moved`) under two thirds of its error unmoved over the same rows (a
        /// list's rows a period apart look alike).
        func showsRisen(_ other: Thumb, dy: Int, moved: Double, rows band: Range<Int>) -> Bool {
            guard dy > 0, band.lowerBound + dy < band.upperBound else { return false }
            return 1.5 * moved < unmovedError(other, rows: (band.lowerBound + dy)..<band.upperBound, cols: 0..<cols)
        }

        /// How far apart the samples of `rows` are (their mean distance from their mean): a flat
        /// colour cannot show which way it moved. With `cols`, those columns of every other row
        /// (the rows the errors above compare).
        func texture(rows band: Range<Int>, cols given: Range<Int>? = nil) -> Double {
            let range = given ?? 0..<cols, every = given == nil ? 1 : 2
            guard !band.isEmpty, !range.isEmpty else { return 0 }
            var sum = 0, n = 0
            for r in stride(from: band.lowerBound, to: band.upperBound, by: every) {
                for c in range { sum += Int(v[r * cols + c]) }
                n += range.count
            }
            let mean = Double(sum) / Double(n)
            var spread = 0.0
            for r in stride(from: band.lowerBound, to: band.upperBound, by: every) {
                for c in range { spread += abs(Double(v[r * cols + c]) - mean) }
            }
            return spread / Double(n)
        }
    }

    /// What moved between two rests, as far as the content below the bar shows it.
    public enum Movement: Sendable, Equatable {
        /// The later screen came in from the trailing side over the earlier one.
        case push
        /// The earlier screen left to the trailing side, uncovering the later one.
        case pop
        /// The screen moved towards the trailing side by `to` of the width and came back: a
        /// swipe back let go before half way; `at` is when it was furthest, from the motion's start.
        case swipeCancelled(to: Double, at: Double)
        /// The top screen moved towards the trailing side and stopped there, `to` of the width:
        /// a finger held still during a swipe back, dragged there in `duration` seconds.
        case swipeHeld(to: Double, duration: Double)
        /// The top screen left to the trailing side slower than a pop, or after a finger held it:
        /// a swipe back dragged to `to` of the width in `duration` seconds, then let go, as
        /// NavReel's swipeBack runs it (the rest of the pop on its curve, `released`).
        case swipeFinished(to: Double, duration: Double)
        /// The content moved up by `points` (down when negative) and nothing moved sideways: a
        /// scroll of the top screen, which may change its bar (a bar that fades as it scrolls).
        case scroll(points: Double)
        /// The screens moved sideways, but which way could not be told (flat content, or two
        /// that look alike).
        case unknown
        /// Nothing moved sideways or up and down: the screen changed where it stood. With
        /// `contentSame` only the bar changed (a setBar, a bar colour animated); otherwise the
        /// content changed too (an alert's dimming, a keyboard, a change NavReel does not draw).
        case inPlace(contentSame: Bool)
        /// The later screen came up from the bottom edge over the earlier one: a modal sheet or
        /// cover, which is not a navigation step.
        case fromBelow
        /// The earlier screen went down off the bottom edge, uncovering the later one: a modal
        /// dismissed.
        case toBelow

        /// A swipe back let go either way (not one held still).
        var isSwipe: Bool {
            switch self {
            case .swipeCancelled, .swipeFinished: true
            default: false
            }
        }
    }

    /// One stretch of the recording where the screen held still.
    public struct Rest: Sendable, Equatable {
        /// Seconds from the recording's first frame.
        public var start: Double
        /// When the next motion started (or the recording ended).
        public var end: Double
        /// Which of the scaffold's screens it shows (its index in `readings`), nil when it could not
        /// be read or when it is a swipe held still (`held`).
        public var screen: Int?
        /// How far the top screen stood towards the trailing side (of the width) when this rest is
        /// a finger held still mid-swipe: the screen at rest before it, moved over.
        public var held: Double?

        public init(start: Double, end: Double, screen: Int?, held: Double? = nil) {
            self.start = start
            self.end = end
            self.screen = screen
            self.held = held
        }
    }

    /// What `readRecording` found.
    public struct RecordingRead: Sendable {
        public var readings: [Reading]
        /// One still frame of each screen, in the order of `readings`.
        public var images: [Image]
        public var rests: [Rest]
        /// `movements[i]` is what moved between `rests[i]` and `rests[i + 1]`.
        public var movements: [Movement]
        /// Seconds from the first frame to the last (the scenario ends there: frame k is at k / fps).
        public var length: Double
        public var frames: Int
        public var notes: [String]
        /// The screen under the first one as a swipe back uncovered it, when the first screen has a
        /// back button and its root never shows at rest (`readUncovered`): the scenario's root.
        public var uncovered: Reading?
        /// Why the scenario is written with `barTransition: switch`, when a swipe back showed one
        /// bar across the full width (`thumbBarAcross`); nil: nothing showed which.
        public var barSwitch: String?
        /// `paths[i]`: where the earlier screen stood in frames of `movements[i]` that show it moved
        /// over (seconds from the motion's start, of the width); empty when none did.
        public var paths: [[(time: Double, x: Double)]] = []
        /// `delays[i]`: when `movements[i]` is a tapped push or pop that started after the rest
        /// before it ended (seconds; `tappedDelay`: a button's highlight ended the rest); nil when
        /// it started with the first change, or nothing tells.
        public var delays: [Double?] = []
        /// `fades[i]`: how far the bar had gone from the earlier rest's look to the later one's
        /// (0 to 1) in frames of `movements[i]` when it is a change in place of the bar alone
        /// (seconds from the motion's start); empty otherwise, or when the two bars differ too
        /// little, in grey and colour, to tell.
        public var fades: [[(time: Double, q: Double)]] = []
        /// `statusJumps[i]`: when the status bar's content switched at once during `movements[i]`
        /// when it is a scroll (seconds from its start, `statusJump`).
        public var statusJumps: [Double?] = []
        /// `scrollPaths[i]`: how far the content had scrolled from the earlier rest (points, up
        /// positive) in frames of `movements[i]` when it is a scroll (seconds from its start).
        public var scrollPaths: [[(time: Double, offset: Double)]] = []
        /// How the recording's frames were scaled up to its device's pixels, when they were
        /// smaller (`Scaffold.scaling`): a second pass over them scales them the same way.
        public var scaling: Scaling?
        /// Whether the recording starts on a swipe back held still (`rests[0].held`, over the
        /// first screen read): cut after the finger moved.
        public var opensHeld = false
        /// Where the first screen read stood (of the width, at seconds from the recording's start)
        /// in the frames before its first rest, when the recording starts on a swipe back under
        /// way (cut while the finger drags it: the first frame shows it moved over): empty else.
        public var openingSwipe: [(time: Double, x: Double)] = []

        public init(readings: [Reading], images: [Image], rests: [Rest], movements: [Movement],
                    length: Double, frames: Int, notes: [String], uncovered: Reading? = nil) {
            self.readings = readings
            self.images = images
            self.rests = rests
            self.movements = movements
            self.length = length
            self.frames = frames
            self.notes = notes
            self.uncovered = uncovered
        }
    }

    /// Reads `path` (a video or an animated image) a frame at a time. A stretch of at least
    /// `minRest` seconds in which no frame differs from the one before (beyond a codec's noise and
    /// a few samples: a clock's digit, a caret) is a rest; each rest is read as a screenshot
    /// (`read`) and matched with the screens read before it by its bar, below the status bar.
    /// `pointer`: the frames show the Mac's mouse pointer (a capture of the simulator's window),
    /// whose moves do not end a rest and which does not tell two screens apart
    /// (`Thumb.changedBeyondPointer`, `sameScreen`); taken as so where a window's title bar is cut
    /// off (`Scaffold.windowTitleBar`).
    public static func readRecording(path: String, device named: Device? = nil, statusBar: Double? = nil, minRest: Double = 0.25, pointer given: Bool = false,
                                     limits: MediaLimits = .default, maxFrames: Int = 36_000, maxLength: Double = 300, maxScreens: Int = 50) throws -> RecordingRead {
        var pointer = given
        var readings: [Reading] = []
        var images: [Image] = []
        var rests: [Rest] = []
        var restThumbs: [Thumb] = []
        var motions: [[(Double, Thumb)]] = []
        var notes: [String] = []
        var frames = 0
        var first: (time: Double, width: Int, height: Int, step: Int)?
        var previous: Thumb?
        // The run of frames each equal to the one before it: when it started, its last frame.
        var runStart = 0.0
        // The run's frame since which it has held within 4 levels (a rest is read from it and
        // starts there: an ease's tail is not at rest), and the one before it.
        var settled: (time: Double, thumb: Thumb, image: Image)?
        var settledBefore: (time: Double, thumb: Thumb, image: Image)?
        // The run's latest frame within 4 levels of the one a tenth of a second before it: the
        // most settled picture of a rest (an ease's tail creeps on after the rest begins).
        var latest: (time: Double, image: Image)?
        var runFirstThumb: Thumb?
        // The run's frames of the last 0.6 s: where a fade that ends the run began.
        var recent: [(time: Double, thumb: Thumb)] = []
        // Frames of the motion since the last rest (a thumb at each run's start), at most 240.
        var moving: [(Double, Thumb)] = []
        // Every frame since the last rest, its top third (the bar), for how a bar's change in
        // place ran (`fadePath`): a slow fade's frames make few runs. At most 480, thinned to
        // every other when full.
        var barFrames: [(Double, Thumb)] = []
        var pointerBox = (cols: 13, rows: 16)
        var barMotions: [[(Double, Thumb)]] = []
        var last = (time: 0.0, duration: 0.0)
        // The shortest and longest time between two frames: a recording that keeps only the
        // frames that change (a simulator's) has gaps far longer than its shortest.
        var shortest = Double.infinity, longest = 0.0
        var failure: Error?
        var unread: [(reason: String, times: [Double])] = []
        var previousRest: (image: Image, thumb: Thumb, held: Bool)?
        var fineShifts: [Int?] = []
        // The last rest that showed a screen read (not a swipe held), and its thumb.
        var lastScreen: (screen: Int, thumb: Thumb)?
        // The last rest, when it was shorter than --min-rest (`briefReturn`): its index in `rests`.
        var briefAt: Int?
        // The recording's first run when it is shorter than --min-rest: a recording started a
        // moment before the finger moved (HBDNavigationBar's background.gif, an iPhone's at
        // 10 frames/s, shows its screen for one frame, swipes for four seconds and comes back
        // to it). It is taken as a rest once the first rest read shows the same picture.
        var opening: (end: Double, image: Image, thumb: Thumb)?
        // An opening that was not the first rest's picture, and the frames from it to that rest.
        var unmatchedOpening: (end: Double, thumb: Thumb, moving: [(Double, Thumb)])?
        // How frames smaller than their device's pixels are scaled up (`scaling`), and the device
        // named or read from that.
        var scaling: Scaling?
        var device = named

        // The last frame is a rest however briefly it shows: a recording that keeps only the
        // frames that change (a simulator's) stores no time after the last one.
        func close(at end: Double, last: Bool = false, fading: Bool = false) throws {
            guard let current = settled else { return }
            // A fade that ends the run may have moved the frames on before `end`.
            let anchor = current.time < end || last ? current : settledBefore.map { $0.time < end ? $0 : current } ?? current
            var (start, image, thumb) = (anchor.time, anchor.image, anchor.thumb)
            // Before a fade, the frame the rest settled on (a fade's first frames creep by under
            // what `latest` allows).
            if !fading, let l = latest, l.time >= start, l.time <= end || last { image = l.image }
            // A recording's first run is at rest from its first frame: what settles there is the
            // codec's first frames, not an ease's tail.
            if rests.isEmpty, runStart == 0 { start = 0 }
            let brief = !(end - start >= minRest || last) && briefReturn(since: runStart, end: end, image: image, thumb: thumb)
            if brief { start = runStart }
            guard end - start >= minRest || last || brief else {
                if rests.isEmpty, opening == nil, start == 0, end > 0 {
                    opening = (end, image, thumb)
                    moving = []
                } else if !rests.isEmpty || opening != nil, moving.count < 240, let t = runFirstThumb {
                    moving.append((runStart, t))
                }
                return
            }
            // A finger held still mid-swipe shows the screen at rest before it moved over, and
            // the screen under it: not a screen of its own.
            if let anchor = lastScreen, let f = heldFraction(thumb, over: anchor.thumb, reading: readings[anchor.screen]) {
                if !rests.isEmpty { motions.append(moving); barMotions.append(barFrames) }
                barFrames = barFrames.filter { $0.0 > end }
                moving = []
                if previousRest != nil { fineShifts.append(nil) }
                previousRest = (image, thumb, true)
                rests.append(Rest(start: start, end: end, screen: nil, held: f))
                restThumbs.append(thumb)
                return
            }
            let source = "\(path) at \(String(format: "%.2f", start)) s"
            var screen: Int?
            // (Not the first screen when the recording's one rest so far shows this one moved
            // over and held, and their bars differ, if by less than a codec's noise: a swipe held
            // from the recording's start over a screen that looks alike. HBDNavigationBar's
            // hidden.gif holds its hidden-bar screen 89 % over the screen "1" under it, light grey
            // against white, both the same demo's controls, and comes back to rest. A picture
            // panned sideways under the same bar is still that screen: its bar has not changed.)
            func heldOver(_ k: Int) -> Bool {
                guard rests.count == 1, rests[0].screen == k, barsDiffer(images[k], image, readings[k]) else { return false }
                return heldFraction(restThumbs[0], over: thumb, reading: readings[k]) != nil
            }
            if let known = readings.indices.first(where: { sameScreen(images[$0], image, readings[$0], pointer: pointer) && !heldOver($0) }) {
                screen = known
                // The screen read again from this rest where the first showed the pointer over
                // its bar and this one does not (`pointerOnBar`).
                if pointer, pointerOnBar(images[known], image, readings[known]) == 0,
                   var again = try? read(image, source: source, device: readings[known].device, statusBar: nil, lossy: true),
                   again.device == readings[known].device, again.barRows == readings[known].barRows {
                    again.customDevice = readings[known].customDevice
                    again.notes.append("read at \(String(format: "%.2f", start)) s, where this screen rests again: at \(readings[known].source.components(separatedBy: " at ").last ?? "its first rest") the Mac's pointer covered part of its bar")
                    readings[known] = again
                    images[known] = image
                }
            } else {
                guard readings.count < maxScreens else {
                    throw UsageError("\(path): more than \(maxScreens) different screens at rest; cut the recording to the flow to scaffold (ffmpeg -ss and -t)")
                }
                do {
                    let reading = try read(image, source: source, device: device ?? readings.first?.device, statusBar: readings.isEmpty ? statusBar : nil,
                                           lossy: true)
                    screen = readings.count
                    readings.append(reading)
                    images.append(image)
                } catch {
                    // One line for each reason: a recording of the wrong size fails every rest alike.
                    let reason = "\(error)".replacingOccurrences(of: source + ": ", with: "")
                    if let i = unread.firstIndex(where: { $0.reason == reason }) {
                        unread[i].times.append(start)
                    } else {
                        unread.append((reason, [start]))
                    }
                }
            }
            if rests.isEmpty, let o = opening, let screen, o.thumb.changed(from: thumb) <= thumb.stillLimit {
                rests.append(Rest(start: 0, end: o.end, screen: screen))
                restThumbs.append(o.thumb)
                previousRest = (o.image, o.thumb, false)
                lastScreen = (screen, o.thumb)
                barFrames = barFrames.filter { $0.0 > o.end }
            } else if rests.isEmpty, let o = opening {
                // Not this rest's picture: perhaps a later screen's, before a swipe held from it.
                unmatchedOpening = (o.end, o.thumb, moving)
            }
            opening = nil
            if !rests.isEmpty { motions.append(moving); barMotions.append(barFrames) }
            // (A fade seen by its drift began before it was seen: its first frames are the next motion's.)
            barFrames = barFrames.filter { $0.0 > end }
            moving = []
            // How far the content moved since the last rest, to the pixel, while both frames are
            // at hand (the thumbs alone cannot tell a list's rows apart: one row further reads
            // as well as the true distance).
            if let before = previousRest, !before.held, let reading = (screen ?? rests.last?.screen).map({ readings[$0] }) {
                let top = reading.barRows + 2 * first!.step
                let bottom = image.height - Int((34 * reading.device.scale).rounded()) - first!.step
                let band = (top / first!.step)..<max(top / first!.step, bottom / first!.step)
                // (Followed through the motion's frames first: a list of tiles or rows that repeat
                // matches itself a period away, and only the frames between tell which.)
                fineShifts.append(verticalShift(from: before.thumb, to: thumb, rows: band) == nil ? nil
                    : fineVerticalShift(from: before.image, to: image, thumbs: before.thumb, thumb, rows: top..<max(top, bottom),
                                        near: trackedShift(from: before.thumb, frames: motions.last ?? [], to: thumb, rows: band)))
            } else if previousRest != nil {
                fineShifts.append(nil)
            }
            previousRest = (image, thumb, false)
            if let screen { lastScreen = (screen, thumb) }
            // A brief rest between two rests of one screen was a finger that reached the screen
            // under it and turned back (a swipe to the edge, held a moment and let go: a review,
            // 2026-11-29, read a pop and a push there): it is taken back, and the motions on
            // either side of it, with its held frames between them, are one.
            if let b = briefAt, b == rests.count - 1, b >= 1, let screen, rests[b - 1].screen == screen,
               motions.count == rests.count, barMotions.count == motions.count, fineShifts.count == motions.count {
                motions[b - 1] += [(rests[b].start, restThumbs[b]), (rests[b].end, restThumbs[b])] + motions[b]
                motions.remove(at: b)
                barMotions[b - 1] += barMotions[b]
                barMotions.remove(at: b)
                fineShifts[b - 1] = nil
                fineShifts.remove(at: b)
                rests.remove(at: b)
                restThumbs.remove(at: b)
            }
            briefAt = brief ? rests.count : nil
            rests.append(Rest(start: start, end: end, screen: screen))
            restThumbs.append(thumb)
        }

        // A run shorter than --min-rest that shows a screen read before, other than the last
        // one, whole: its bar as `sameScreen` tells, and at most a tenth of the frame's samples
        // changed from that screen's last rest (a row's highlight, a value the screen before
        // changed, the pointer), for at least 0.1 s (two frames at 10 a second, three at 30; an
        // ease's last frames still move). A screen popped back to and tapped on at
        // once: KMNavigationBarTransition's Now1.gif pops to its root, whose pop eases on to
        // 2.70 s, and the pointer presses "Next" at 2.90 s; FDFullscreenPopGesture's
        // snapshot1.gif swipes back to its root, whose row fades from its highlight while the
        // pointer moves to the next row and taps it. Both read as one motion "sideways".
        func briefReturn(since start: Double, end: Double, image: Image, thumb: Thumb) -> Bool {
            guard end - start >= 0.1, !rests.isEmpty, let lastShown = lastScreen else { return false }
            return readings.indices.contains { k in
                guard k != lastShown.screen, let j = rests.lastIndex(where: { $0.screen == k }) else { return false }
                return thumb.changed(from: restThumbs[j]) * 10 <= thumb.v.count && sameScreen(images[k], image, readings[k], pointer: pointer)
            }
        }

        // A new run of frames starts at `t`.
        func startRun(_ t: Double, _ thumb: Thumb, _ image: Image) {
            runStart = t
            runFirstThumb = thumb
            recent = []
            (settled, settledBefore, latest) = ((t, thumb, image), nil, (t, image))
        }

        do {
            func tooLong(declared: Double? = nil) -> UsageError {
                let index = declared.map { String(format: " (its index declares %.1f s)", $0) } ?? ""
                return UsageError("\(path): longer than \(fmt(maxLength)) s\(index); cut the recording to the flow to scaffold (ffmpeg -ss and -t)")
            }
            // A QuickTime/MP4 index declares the length: a long recording is refused before a frame is decoded.
            let opened = { (info: MediaReader.Info) throws(MediaError) in
                if let declared = info.declaredDuration, declared > maxLength + 1 {
                    failure = tooLong(declared: declared)
                    throw MediaError(source: path, message: "stopped")
                }
            }
            _ = try MediaReader.forEachFrame(path: path, limits: limits, opened: opened) { (image, time, duration) throws(MediaError) in
                // A failure stops the reading (the thrown error only ends the loop; `failure` says why).
                let stop = MediaError(source: path, message: "stopped")
                frames += 1
                if frames > maxFrames {
                    failure = UsageError("\(path): more than \(maxFrames) frames; cut the recording to the flow to scaffold (ffmpeg -ss and -t)")
                    throw stop
                }
                if first == nil {
                    // A recording made smaller than its device's pixels is read scaled back up.
                    scaling = Self.scaling(for: image, device: named, statusBar: statusBar)
                    if let scaling {
                        device = scaling.device
                        notes.append(scaling.note)
                    }
                    // A frame of the wrong size fails every rest alike: said before decoding them.
                    let size = scaling.map { ($0.device.pixelWidth, $0.device.pixelHeight) } ?? (image.width, image.height)
                    if let wrong = sizeError(width: size.0, height: size.1, device: device) {
                        failure = UsageError("\(path): \(wrong)")
                        throw stop
                    }
                    first = (time, image.width, image.height, max(1, size.0 / 130))
                    if (scaling?.top ?? 0) > 0, !pointer {
                        pointer = true
                        notes.append("a window's capture shows the Mac's mouse pointer, perhaps: a change no larger than a pointer (32 x 40 pt, in one or two places) neither ends a rest nor tells two screens apart")
                    }
                    // A mouse pointer's 32 x 40 pt in samples (`Thumb.changedBeyondPointer`).
                    let k = device?.scale ?? (size.0 >= 1000 ? 3 : 2), step = Double(max(1, size.0 / 130))
                    pointerBox = (Int((32 * k / step).rounded(.up)), Int((40 * k / step).rounded(.up)))
                }
                guard let f = first, image.width == f.width, image.height == f.height else {
                    failure = UsageError("\(path): its frames change size at \(String(format: "%.2f", time - first!.time)) s (\(image.width) x \(image.height) px after \(first!.width) x \(first!.height)); scaffold reads a recording of one screen")
                    throw stop
                }
                let image = scaling?.apply(image) ?? image
                let t = time - f.time
                if frames > 1 {
                    let interval = t - last.time
                    if interval > 1e-6 { shortest = Swift.min(shortest, interval); longest = Swift.max(longest, interval) }
                }
                if t > maxLength {
                    failure = tooLong()
                    throw stop
                }
                let thumb = Thumb(image, step: f.step)
                let limit = thumb.stillLimit
                // Whether this frame differs from `from` (not counting the Mac's mouse pointer, where
                // a captured window shows it).
                func moved(_ from: Thumb, threshold: Int = 16) -> Bool {
                    (pointer ? thumb.changedBeyondPointer(from: from, threshold: threshold, box: pointerBox, limit: limit)
                        : thumb.changed(from: from, threshold: threshold)) > limit
                }
                if let p = previous {
                    // Against the run's first frame too: a fade (a bar's colour animated, an
                    // alert's dimming) changes each frame by a few levels, and a slow ease's tail
                    // by less than a level a frame, yet neither is a screen at rest.
                    let jumped = moved(p)
                    let drifted = !jumped && runFirstThumb.map { moved($0) } == true
                    if jumped || drifted {
                        // The motion started after the last still frame, where the frame
                        // before this one would have been: one frame interval before it (the
                        // shortest seen, at most 1/30 s; a recording that keeps only changes may
                        // have shown the still frame for seconds). A fade started after the last
                        // frame that had not begun to drift.
                        let end = (drifted ? fadeStart(recent, limit: limit) : nil) ?? t - Swift.min(t - last.time, shortest, 1.0 / 30)
                        do { try close(at: end, fading: drifted) } catch { failure = error; throw stop }
                        startRun(t, thumb, image)
                    } else if let s = settled, moved(s.thumb, threshold: 4) {
                        // Still settling (an ease's tail). Once it has held for --min-rest, the
                        // rest is its own, and a later drift is a fade that will end it.
                        if t - s.time < minRest { (settled, settledBefore) = ((t, thumb, image), s) }
                    }
                } else {
                    startRun(t, thumb, image)
                }
                recent.removeAll { $0.time < t - 0.6 }
                if let j = recent.lastIndex(where: { $0.time <= t - 0.1 }), !moved(recent[j].thumb, threshold: 4) {
                    latest = (t, image)
                }
                recent.append((t, thumb))
                // (Not a rest's frames past --min-rest: they would thin the motion's.)
                if t - runStart < minRest {
                    if barFrames.count >= 480 { barFrames = barFrames.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
                    barFrames.append((t, thumb.top(rows: (thumb.rows + 2) / 3)))
                }
                previous = thumb
                last = (t, duration)
            }
        } catch {
            if let failure { throw failure }
            throw UsageError("\(error) (scaffold reads a screen recording: xcrun simctl io booted recordVideo rec.mov)")
        }
        if let failure { throw failure }
        guard first != nil else { throw UsageError("\(path): no frames (its data is cut short, or its video track is empty)") }
        let length = last.time + (last.duration > 0 ? last.duration : 1.0 / 60)
        let tail = length - runStart
        let keepsChangesOnly = longest > shortest * 1.5
        // A recording stopped soon after the screen settled still ends on a screen at rest: its
        // last frames, when they have held within 4 levels for half of --min-rest (HBDNavigationBar's
        // alpha.gif, an iPhone's recording at 10 frames/s, holds its last picture for 0.2 s).
        let settledTail = settled.map { $0.time < last.time && length - $0.time >= minRest / 2 } ?? false
        // A file of one frame (a GIF or APNG exported from a screenshot) is that screenshot.
        let single = frames == 1
        try close(at: length, last: keepsChangesOnly || settledTail || single)
        if single {
            notes.append("the recording has one frame: read as a screenshot")
        } else if tail < minRest {
            notes.append(keepsChangesOnly
                ? "the recording's last frame shows for \(String(format: "%.2f", tail)) s and is taken as a screen at rest (a recording that keeps only the frames that change stores no time after its last)"
                : settledTail ? "the recording's last \(String(format: "%.2f", tail)) s hold still and are taken as a screen at rest (shorter than --min-rest: the recording stops there)"
                : "the recording ends while the screen moves (its last \(String(format: "%.2f", tail)) s); the steps end at its last rest")
        }
        guard !(rests.count <= 1 && tail < minRest) || single else {
            throw UsageError("\(path): the screen never holds still for \(fmt(minRest)) s (\(frames) frames over \(String(format: "%.2f", length)) s); scaffold reads screens at rest (--min-rest sets how long)")
        }
        for u in unread {
            let times = u.times.prefix(5).map { String(format: "%.2f", $0) }.joined(separator: ", ") + (u.times.count > 5 ? "..." : "")
            notes.append("warning: \(path): \(u.times.count) rest\(u.times.count == 1 ? "" : "s") not read (at \(times) s): \(u.reason); left out of the steps")
        }
        guard !readings.isEmpty else {
            if rests.isEmpty {
                throw UsageError("\(path): the screen never holds still for \(fmt(minRest)) s (\(frames) frames over \(String(format: "%.2f", length)) s); scaffold reads screens at rest (--min-rest sets how long)")
            }
            throw UsageError("\(path): no screen at rest could be read: \(unread.map(\.reason).joined(separator: "; "))")
        }

        // A recording cut after the finger moved starts on a swipe held still (HBDNavigationBar's
        // gradient.gif holds its photo screen 42 % over the list under it for its first 1.5 s):
        // its first rest is then a screen read nowhere else that a later screen, moved over, shows
        // (`heldFraction`). It becomes that swipe, held over the later screen, and the screen read
        // from it goes.
        var openingHeldOver: Int?
        if rests.count >= 2, rests[0].held == nil, let s0 = rests[0].screen, !rests.dropFirst().contains(where: { $0.screen == s0 }) {
            for j in rests.indices.dropFirst() {
                guard let k = rests[j].screen, let f = heldFraction(restThumbs[0], over: restThumbs[j], reading: readings[k]) else { continue }
                rests[0].screen = nil
                rests[0].held = f
                readings.remove(at: s0)
                images.remove(at: s0)
                for i in rests.indices { if let s = rests[i].screen, s > s0 { rests[i].screen = s - 1 } }
                if !fineShifts.isEmpty { fineShifts[0] = nil }
                openingHeldOver = j
                if let o = unmatchedOpening, o.thumb.changed(from: restThumbs[j]) <= restThumbs[j].stillLimit {
                    // Its opening frames show that screen at rest: the finger dragged it over from there.
                    rests.insert(Rest(start: 0, end: o.end, screen: rests[j].screen), at: 0)
                    restThumbs.insert(o.thumb, at: 0)
                    motions.insert(o.moving, at: 0)
                    barMotions.insert([], at: 0)
                    fineShifts.insert(nil, at: 0)
                    openingHeldOver = nil
                    notes.append("the recording's first \(String(format: "%.2f", o.end)) s show the screen at rest at \(String(format: "%.2f", rests[j + 1].start)) s, which a swipe back then holds \(Int((f * 100).rounded())) % over from \(String(format: "%.2f", rests[1].start)) s")
                } else {
                    notes.append("the recording starts on a swipe back held still: its first \(String(format: "%.2f", rests[0].end)) s show the screen at rest at \(String(format: "%.2f", rests[j].start)) s moved \(Int((f * 100).rounded())) % to the trailing side")
                }
                break
            }
        }

        // A recording cut while a finger drags a screen back starts moving: its first frame
        // shows the first screen read moved over, and the frames to that rest show it going back
        // (weixin.gif cut at 1.5 s: its screen 53 % over, coming back to rest).
        var openingSwipe: [(time: Double, x: Double)] = []
        if openingHeldOver == nil, let o = unmatchedOpening, let rest0 = rests.first, rest0.start > 0, let s0 = rest0.screen {
            let reading = readings[s0], step = first!.step
            let frames = [(0.0, o.thumb)] + o.moving.filter { $0.0 > 0 && $0.0 < rest0.start }
            let path = swipePath(of: restThumbs[0], frames: frames,
                                 rows: contentRows(barRows: reading.barRows, scale: reading.device.scale, thumbRows: restThumbs[0].rows, step: step))
            // Its first frame shows the screen over, most frames show where it stood, and it was
            // coming back at the end (a swipe let go back, not one taken all the way: the screen
            // that then rests is another, which may look alike).
            let furthest = path.map(\.x).max() ?? 0
            if let x0 = path.first, x0.time == 0, x0.x >= 0.05, path.count >= 3, path.count * 2 >= frames.count,
               let last = path.last, last.x <= furthest - 0.05, last.x <= 0.6 {
                openingSwipe = path
                notes.append("the recording starts on a swipe back under way: its first frame shows the screen at rest at \(String(format: "%.2f", rest0.start)) s moved \(Int((x0.x * 100).rounded())) % to the trailing side, and \(path.count) of the \(frames.count) frames before that rest show where it went")
            }
        }

        var movements: [Movement] = []
        var paths: [[(time: Double, x: Double)]] = []
        var delays = [Double?](repeating: nil, count: Swift.max(0, rests.count - 1))
        // The rest each motion was compared with (the screen a swipe held moved on from).
        var anchors: [Int] = []
        var scrollPaths = [[(time: Double, offset: Double)]](repeating: [], count: Swift.max(0, rests.count - 1))
        for i in rests.indices.dropLast() {
            let a = rests[i], b = rests[i + 1]
            paths.append([])
            // After a swipe held, the screen it held moved on: compared with that screen at rest.
            // (Before any screen at rest, a swipe held from the recording's start: the screen it held.)
            let anchor = a.held == nil ? i : (rests[...i].lastIndex { $0.screen != nil } ?? openingHeldOver ?? i)
            anchors.append(anchor)
            let reading = (rests[anchor].screen ?? b.screen).map { readings[$0] }
            let step = first!.step
            let content = contentRows(barRows: reading?.barRows ?? 0, scale: reading?.device.scale ?? 1, thumbRows: restThumbs[i].rows, step: step)
            if let to = b.held {
                // The drag to where it held, measured where the screen shows (a finger does
                // not drag evenly: gradient.gif's flicks the photo screen 7 % over in a frame).
                if reading != nil, rests[anchor].screen != nil {
                    paths[i] = swipePath(of: restThumbs[anchor], frames: motions[i].map { ($0.0 - a.end, $0.1) }, rows: content)
                        .filter { $0.time < b.start - a.end }
                    if a.held == nil, let first = motions[i].first?.0, let lead = dragLead(paths[i], firstFrame: first - a.end, shortest: shortest) {
                        rests[i].end += lead
                        paths[i] = paths[i].map { (time: $0.time - lead, x: $0.x) }
                    }
                }
                movements.append(.swipeHeld(to: to, duration: b.start - rests[i].end))
                continue
            }
            guard let reading else { movements.append(.unknown); continue }
            // What moved, the motion timed from `end` (the rest's, or where a drag started).
            func measure(from end: Double, into path: inout [(time: Double, x: Double)]) -> Movement {
                movement(from: restThumbs[anchor], to: restThumbs[i + 1], frames: motions[i].map { ($0.0 - end, $0.1) },
                         rows: content, same: rests[anchor].screen != nil && rests[anchor].screen == b.screen,
                         scale: reading.device.scale, length: b.start - end, heldFrom: a.held, measured: &path)
            }
            var m = measure(from: a.end, into: &paths[i])
            if a.held == nil, m.isSwipe, let first = motions[i].first?.0, let lead = dragLead(paths[i], firstFrame: first - a.end, shortest: shortest) {
                // The drag from where it started (`dragLead`): measured again from there.
                var again: [(time: Double, x: Double)] = []
                let n = measure(from: a.end + lead, into: &again)
                if n.isSwipe { (m, paths[i], rests[i].end) = (n, again, a.end + lead) }
            }
            if case .scroll = m, i < fineShifts.count, let px = fineShifts[i] { m = .scroll(points: (Double(px) / reading.device.scale).rounded()) }
            if a.held == nil, m == .push || m == .pop {
                // Where the moving screen was in each frame, on UIKit's curve: when it started.
                let progress = m == .pop ? paths[i]
                    : swipePath(of: restThumbs[i + 1], frames: motions[i].map { ($0.0 - a.end, $0.1) }, rows: content).map { (time: $0.time, x: 1 - $0.x) }
                delays[i] = tappedDelay(progress, length: b.start - a.end)
            }
            // A header picture that moved less than the content below it, which slid over it:
            // a parallax header scrolled (juejin.gif's profile page, 2.07-2.60 s), which the whole
            // content band does not show moved as one.
            var scrolled = content
            if case .inPlace(contentSame: false) = m, a.held == nil, let screen = rests[i].screen, let header = readings[screen].header,
               let p = parallaxScroll(from: restThumbs[i], to: restThumbs[i + 1], frames: motions[i].map { ($0.0 - a.end, $0.1) }, rows: content,
                                      headerEnd: Int((header.height * reading.device.scale).rounded()) / step) {
                m = .scroll(points: (Double(p.dy * step) / reading.device.scale).rounded())
                scrolled = p.below
                if readings[screen].header?.parallax == nil {
                    readings[screen].header?.parallax = p.parallax
                    readings[screen].notes.append(String(format: "scrolled at %.2f s, its picture moved %d px while the content below it moved %d px and slid over it: ",
                                                         a.end, p.headerDy * step, p.dy * step) + "a parallax header (`parallax: \(fmt(p.parallax))`)")
                }
            }
            if case .scroll(let points) = m, a.held == nil {
                scrollPaths[i] = scrollPath(from: restThumbs[i], frames: motions[i].map { ($0.0 - a.end, $0.1) }, rows: scrolled,
                                            points: points, scale: reading.device.scale)
            }
            movements.append(m)
        }
        var result = RecordingRead(readings: readings, images: images, rests: rests, movements: movements,
                                   length: last.time, frames: frames, notes: notes)
        result.scaling = scaling
        result.opensHeld = openingHeldOver != nil
        result.openingSwipe = openingSwipe
        result.paths = paths
        result.delays = delays
        result.scrollPaths = scrollPaths
        // One bar across a swipe between screens seen at rest (`thumbBarAcross`):
        // most of the frames a quarter to three fifths over say so, at least two.
        swipes: for i in movements.indices {
            switch movements[i] {
            case .swipeHeld, .swipeCancelled, .swipeFinished: break
            default: continue swipes
            }
            guard i < anchors.count, let screen = rests[anchors[i]].screen else { continue }
            let top = restThumbs[anchors[i]], reading = readings[screen]
            var votes: [Bool] = []
            var seen: Double?
            for point in paths[i] where point.x >= 0.25 && point.x <= 0.6 {
                guard let frame = motions[i].first(where: { abs($0.0 - rests[i].end - point.time) < 1e-6 })?.1 else { continue }
                let across = thumbBarAcross(frame, top: top, dx: Int((point.x * Double(top.cols)).rounded()), reading: reading)
                votes.append(across)
                if across, seen == nil { seen = rests[i].end + point.time }
            }
            if votes.count >= 2, votes.filter({ $0 }).count * 4 >= votes.count * 3, let seen {
                result.barSwitch = "a swipe back at \(String(format: "%.2f", seen)) s showed one bar across the full width (\(votes.filter { $0 }.count) of \(votes.count) frames a quarter to three fifths over), not this screen's moving with it (HBDNavigationBar's split bar): one UIKit bar restyled in viewWillAppear"
                break
            }
        }
        // One bar of the destination's colour across a push or pop between screens at rest whose
        // bars are flat colours (`barSwitchedInTransit`); none where any shows both side by side.
        if result.barSwitch == nil {
            var seen: [(time: Double, switched: Bool, what: String)] = []
            for i in movements.indices {
                let what: String
                switch movements[i] {
                case .push: what = "a push"
                case .pop: what = "a pop"
                case .swipeFinished: what = "a swipe back"
                default: continue
                }
                guard rests[i].held == nil, rests[i + 1].held == nil, let from = rests[i].screen, let to = rests[i + 1].screen, from != to else { continue }
                // (The lower of the two bars: a large title's rows are no bar on the other.)
                let reading = readings[from].barRows < readings[to].barRows ? readings[from] : readings[to]
                if let v = barSwitchedInTransit(frames: barMotions[i], from: restThumbs[i], to: restThumbs[i + 1], reading: reading) {
                    seen.append((rests[i].end, v, what))
                }
            }
            if let first = seen.first(where: \.switched), !seen.contains(where: { !$0.switched }) {
                result.barSwitch = "\(first.what) at \(String(format: "%.2f", first.time)) s showed the next screen's bar across the full width while the screens moved (\(seen.count == 1 ? "the one push or pop between flat bars" : "each of the \(seen.count) pushes and pops between flat bars")), not each screen's own bar moving with it (HBDNavigationBar's split bar): one UIKit bar restyled in viewWillAppear"
            }
        }
        result.fades = movements.indices.map { i in
            guard rests[i].held == nil, let screen = rests[i].screen ?? rests[i + 1].screen else { return [] }
            let bar = 0..<min((restThumbs[i].rows + 2) / 3, readings[screen].barRows / first!.step)
            switch movements[i] {
            case .inPlace(contentSame: true), .scroll:
                return fadePath(from: restThumbs[i], to: restThumbs[i + 1], frames: barMotions[i].map { ($0.0 - rests[i].end, $0.1) }, rows: bar)
            default:
                return []
            }
        }
        result.statusJumps = movements.indices.map { i in
            guard rests[i].held == nil, case .scroll = movements[i], let screen = rests[i].screen ?? rests[i + 1].screen else { return nil }
            let status = 0..<Int((readings[screen].device.statusBar * readings[screen].device.scale / Double(first!.step)).rounded(.down))
            return statusJump(frames: [(0, restThumbs[i])] + barMotions[i].map { ($0.0 - rests[i].end, $0.1) }
                                  + [(rests[i + 1].start - rests[i].end, restThumbs[i + 1])], rows: status)
        }
        markFirstPushed(&result)
        markHiddenBars(&result)
        // A recording that starts on a pushed screen: its root, when a pop showed it at rest, is
        // screen-1; else what a swipe back uncovered of it is read.
        rootFirst(&result)
        do {
            if let read = try readUncoveredBar(path: path, result, limits: limits) {
                result.uncovered = read.reading
                if let switched = read.switched { result.barSwitch = switched }
            }
        } catch {
            result.notes.append("warning: the screen a swipe back uncovered under the first could not be read (\(error)); the root copies the first screen's bar")
        }
        return result
    }

    /// A bar key's name (`color` of `color: "#FFFFFF"`).
    static func keyName(_ key: String) -> String { String(key.prefix { $0 != ":" }) }

    /// Whether a bar key (as `barKeys` writes it) sets the bar's background.
    static func isBackgroundKey(_ key: String) -> Bool {
        ["color", "translucent", "gradient", "scrollEdge", "material", "image"].contains(keyName(key))
    }

    /// Bar keys by name.
    static func keyed(_ keys: [String]) -> [String: String] {
        Dictionary(keys.map { (keyName($0), $0) }, uniquingKeysWith: { _, later in later })
    }

    /// The colour of a `color: "#RRGGBB"` key as `barKeys` writes it.
    static func colorValue(_ key: String) -> RGBA8? {
        let digits = key.drop { $0 != "#" }.dropFirst().prefix(6)
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
        return RGBA8(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
    }

    /// Whether bar key `key` says what `state` has already, a colour within 6 levels (a codec's
    /// error: a white title read #FFFEFD after a bar's change is the same white).
    static func kept(_ key: String, in state: [String: String]) -> Bool {
        guard let had = state[keyName(key)] else { return false }
        if had == key { return true }
        guard ["color", "titleColor", "tintColor"].contains(keyName(key)), let a = colorValue(had), let b = colorValue(key) else { return false }
        return near(a, b, within: 6)
    }

    static func near(_ a: RGBA8, _ b: RGBA8, within levels: Int) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= levels && abs(Int(a.g) - Int(b.g)) <= levels && abs(Int(a.b) - Int(b.b)) <= levels
    }

    /// `a` moved `q` of the way to `b`, channel by channel (an animated colour's frames).
    static func blend(_ a: RGBA8, _ b: RGBA8, _ q: Double) -> RGBA8 {
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * q).rounded()) }
        return RGBA8(mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b))
    }

    /// How far the content in `rows` of each of `frames` shows `a`'s moved up (points; a scroll of
    /// `points` in all), followed frame by frame: each frame's shift is looked for within 8 samples
    /// of where the last one's motion would put it, within 6 levels, since a list's rows repeat
    /// (a shift by one row reads as well as the true one). Empty when the path does not end within
    /// 3 samples and its last frame's motion of the whole scroll (it lost the content).
    static func scrollPath(from a: Thumb, frames: [(Double, Thumb)], rows band: Range<Int>, points: Double, scale: Double) -> [(time: Double, offset: Double)] {
        guard !frames.isEmpty, band.count >= 4, points != 0 else { return [] }
        let total = Int((points * scale / Double(a.step)).rounded())
        let placed = follow(from: a, frames: frames, rows: band, within: (Swift.min(0, total) - 3)...(Swift.max(0, total) + 3))
        let out = placed.map { (time: $0.time, offset: Double($0.dy * a.step) / scale) }
        let previous = placed.last?.dy ?? 0, velocity = placed.count >= 2 ? previous - placed[placed.count - 2].dy : previous
        // (The motion's last frame may be a frame's motion short of the rest.)
        guard abs(previous - total) <= 3 + abs(velocity) else { return [] }
        return out
    }

    /// Knots at whole hundredths of a second (the steps' durations are written so, and add up):
    /// knots that round to the same hundredth are one, the later kept; the last is at least 0.05 s.
    static func hundredths(_ knots: [(time: Double, x: Double)]) -> [(hundredths: Int, x: Double)] {
        var parts: [(hundredths: Int, x: Double)] = []
        for (n, k) in knots.enumerated() {
            var at = Int((k.time * 100).rounded())
            if n == knots.count - 1 { at = Swift.max(at, 5) }
            while let last = parts.last, last.hundredths >= at { parts.removeLast() }
            if at > 0 { parts.append((at, k.x)) }
        }
        return parts
    }

    /// The parts a bar's change in place is written in, from its measured `fade` (seconds from the
    /// motion's start, 0 to 1) over `length` seconds, and when the first starts (seconds from the
    /// motion's start). One part on the default ease-in-out curve when that keeps within 0.04 of
    /// every point measured (UIKit's animated changes); its start and end are fitted too, since an
    /// ease's first and last frames change too little to be seen as motion. Else straight parts
    /// through the knots that keep within 0.04 (`dragKnots`: a slider dragged, paused and dragged
    /// on). One default part when nothing was measured.
    static func fadeParts(_ fade: [(time: Double, q: Double)], length: Double) -> (start: Double, parts: [(hundredths: Int, x: Double, linear: Bool)]) {
        let whole = (start: 0.0, parts: [(hundredths: Swift.max(5, Int((length * 100).rounded())), x: 1.0, linear: false)])
        let inside = fade.filter { $0.time > 0 && $0.time < length }
        guard inside.count >= 3, length > 0 else { return whole }
        let ease = CubicBezier(.easeInOut)
        var best = (miss: Double.infinity, start: 0.0, end: length)
        // (Started at most a tenth of a second early, since a longer ease's middle passes for a
        // straight line; ended up to 0.15 s early, as an ease's creeping tail delays the rest.)
        for a in -10...2 {
            for b in -15...10 {
                let start = Double(a) / 100, end = length + Double(b) / 100
                guard end - start >= 0.05 else { continue }
                let miss = inside.map { abs($0.q - ease(Swift.min(1, Swift.max(0, ($0.time - start) / (end - start))))) }.max()!
                if miss < best.miss - 1e-9 || (abs(miss - best.miss) <= 1e-9 && abs(start) + abs(end - length) < abs(best.start) + abs(best.end - length)) {
                    best = (miss, start, end)
                }
            }
        }
        if best.miss <= 0.04 {
            return (best.start, [(Swift.max(5, Int(((best.end - best.start) * 100).rounded())), 1, false)])
        }
        return (0, hundredths(dragKnots(inside.map { (time: $0.time, x: $0.q) }, from: 0, release: (length, 1))).map { ($0.hundredths, $0.x, true) })
    }

    /// How far each of `frames` (seconds, sample) shows the bar's `rows` gone from `a`'s look to
    /// `b`'s, 0 to 1: the least-squares blend of the two over the samples where they differ by
    /// 12 levels or more (text and items that stay put do not count). A bar's alpha or colour
    /// animated changes every pixel by the same blend: HBDNavigationBar's alpha.gif (an iPhone's
    /// recording of its demo's slider, which labels the bar's alpha) reads within 0.02 of the
    /// label in the frames checked. Empty when fewer than 16 samples differ.
    /// The grey and both colour differences count, each a plane of samples: a change of colour
    /// alone is measured as well as one of brightness.
    static func fadePath(from a: Thumb, to b: Thumb, frames: [(Double, Thumb)], rows band: Range<Int>) -> [(time: Double, q: Double)] {
        guard a.cols == b.cols, a.rows == b.rows, band.upperBound <= a.rows else { return [] }
        let pa = [a.v, a.cb, a.cr], pb = [b.v, b.cb, b.cr]
        var samples: [[Int]] = [[], [], []]
        for k in 0..<3 {
            for i in (band.lowerBound * a.cols)..<(band.upperBound * a.cols) where abs(Int(pb[k][i]) - Int(pa[k][i])) >= 12 { samples[k].append(i) }
        }
        guard samples.reduce(0, { $0 + $1.count }) >= 16 else { return [] }
        var norm = 0.0
        for k in 0..<3 { for i in samples[k] { let d = Double(pb[k][i]) - Double(pa[k][i]); norm += d * d } }
        return frames.compactMap { (time, f) in
            guard f.cols == a.cols, f.rows >= band.upperBound else { return nil }
            let pf = [f.v, f.cb, f.cr]
            var dot = 0.0
            for k in 0..<3 {
                for i in samples[k] { dot += (Double(pf[k][i]) - Double(pa[k][i])) * (Double(pb[k][i]) - Double(pa[k][i])) }
            }
            return (time, Swift.min(1, Swift.max(0, dot / norm)))
        }
    }

    /// Where a fade began among a run's `recent` frames (time, thumb): the last frame that differs
    /// by at most 4 levels (in all but `limit` samples) from the frame a tenth of a second before
    /// it. nil when the frames reach back less than that.
    static func fadeStart(_ recent: [(time: Double, thumb: Thumb)], limit: Int) -> Double? {
        for k in recent.indices.reversed() {
            guard let j = recent[..<k].lastIndex(where: { $0.time <= recent[k].time - 0.1 }) else { return nil }
            if recent[k].thumb.changed(from: recent[j].thumb, threshold: 4) <= limit { return recent[k].time }
        }
        return nil
    }

    /// How many thumb rows `b`'s content sits above `a`'s, followed frame by frame through
    /// `frames` (each searched within 8 rows of where the last frame's motion puts it, as
    /// `scrollPath` does); nil when fewer than two frames could be placed.
    static func trackedShift(from a: Thumb, frames: [(Double, Thumb)], to b: Thumb, rows band: Range<Int>) -> Int? {
        guard band.count >= 4 else { return nil }
        let placed = follow(from: a, frames: frames + [(Double.infinity, b)], rows: band, within: -(band.count * 3 / 4)...(band.count * 3 / 4))
        return placed.count >= 2 ? placed.last!.dy : nil
    }

    /// The frames (time, thumb) whose content could be placed, each with how many thumb rows
    /// above `a`'s it sits: searched within 8 rows of where the last placed frame's motion puts
    /// it, and within `bounds`; a frame matching no shift within 6 levels is skipped.
    static func follow(from a: Thumb, frames: [(Double, Thumb)], rows band: Range<Int>, within bounds: ClosedRange<Int>) -> [(time: Double, dy: Int)] {
        var out: [(time: Double, dy: Int)] = []
        var previous = 0, velocity = 0
        for (time, f) in frames.sorted(by: { $0.0 < $1.0 }) where f.cols == a.cols && f.rows == a.rows {
            let predicted = Swift.min(bounds.upperBound, Swift.max(bounds.lowerBound, previous + velocity))
            var best = (err: Double.infinity, dy: predicted)
            for dy in (predicted - 8)...(predicted + 8) where bounds.contains(dy) {
                let e = f.verticalError(a, dy: dy, rows: band)
                if e < best.err { best = (e, dy) }
            }
            if best.err > 6 {
                // Not near where the last frames put it: a recording of few frames a second
                // (juejin.gif's 10 a second move its list 16 rows of samples in one frame of a
                // flick): all the shifts the scroll allows, the one nearest the prediction among
                // those within half a level of the best (a list's rows repeat: equal matches a
                // row apart).
                let errors = bounds.map { (e: f.verticalError(a, dy: $0, rows: band), dy: $0) }
                if let least = errors.map(\.e).min(), least <= 6 {
                    best = errors.filter { $0.e <= least + 0.5 }.min { abs($0.dy - predicted) < abs($1.dy - predicted) }.map { ($0.e, $0.dy) } ?? best
                }
            }
            guard best.err <= 6 else { continue }
            velocity = best.dy - previous
            previous = best.dy
            out.append((time, best.dy))
        }
        return out
    }

    /// How many pixels `b`'s content sits above `a`'s, checked at full size among the shifts the
    /// thumbs allow (the sixteen best of their local bests within 8 levels, each to a block either
    /// way: a shift by part of a block reads worse in blocks than a whole one, and a list's rows
    /// make a best every row), over `rows` in
    /// pixels and every fourth column: nil when the thumbs see no vertical shift.
    /// `near`: thumb rows where the frames between put it (`trackedShift`); the best candidate
    /// within 3 rows of it is taken when it matches within 15 % of the best of all.
    static func fineVerticalShift(from a: Image, to b: Image, thumbs ta: Thumb, _ tb: Thumb, rows: Range<Int>, near: Int? = nil) -> Int? {
        guard a.width == b.width, a.height == b.height, rows.count >= 8 else { return nil }
        let step = ta.step
        let band = (rows.lowerBound / step)..<(rows.upperBound / step)
        guard band.count >= 4 else { return nil }
        let range = -(band.count * 3 / 4)...(band.count * 3 / 4)
        let errors = range.map { tb.verticalError(ta, dy: $0, rows: band) }
        var candidates: [(err: Double, dy: Int)] = []
        for (k, dy) in range.enumerated() where abs(dy) >= 2 && errors[k] <= 8
            && (k == 0 || errors[k] <= errors[k - 1]) && (k == errors.count - 1 || errors[k] <= errors[k + 1]) {
            candidates.append((errors[k], dy))
        }
        guard !candidates.isEmpty else { return nil }
        candidates.sort { $0.err < $1.err }
        func fine(_ dy: Int) -> Double {
            var sum = 0, n = 0
            a.pixels.withUnsafeBufferPointer { p in
                b.pixels.withUnsafeBufferPointer { q in
                    for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) where rows.contains(y + dy) {
                        var i = y * b.width * 4, j = (y + dy) * a.width * 4
                        for _ in stride(from: 0, to: b.width, by: 4) {
                            sum += abs(Int(q[i]) - Int(p[j])) + abs(Int(q[i + 1]) - Int(p[j + 1])) + abs(Int(q[i + 2]) - Int(p[j + 2]))
                            n += 1
                            i += 16
                            j += 16
                        }
                    }
                }
            }
            return n * 8 < rows.count * b.width / 4 ? .infinity : Double(sum) / Double(n)
        }
        // Each pixel around the sixteen best (text is sharp: a pixel off reads worse than another row).
        func bestOf(_ cs: some Sequence<(err: Double, dy: Int)>) -> (err: Double, dy: Int) {
            var best = (err: Double.infinity, dy: 0)
            for c in cs {
                for dy in (c.dy * step - step)...(c.dy * step + step) {
                    let e = fine(dy)
                    if e < best.err { best = (e, dy) }
                }
            }
            return best
        }
        let best = bestOf(candidates.prefix(16))
        // Where the frames between put it wins a tie: a pattern that repeats (tiles) matches a
        // period away as well, where a list's rows one off read worse at full size.
        if let near, best.err.isFinite {
            let close = bestOf(candidates.filter { abs($0.dy - near) <= 3 })
            if close.err <= best.err * 1.15 + 0.5 { return close.dy }
        }
        return best.err.isFinite ? best.dy : nil
    }

    /// How two frames' bars (below the status bar, as `reading` places it) differ, pixel by pixel
    /// (the largest of the three channels' differences): how many by more than 48 levels, their
    /// sum, and how many pixels. Nil when the frames' sizes differ or there is no bar.
    static func barDifferences(_ a: Image, _ b: Image, _ reading: Reading) -> (far: Int, sum: Int, pixels: Int)? {
        guard a.width == b.width, a.height == b.height else { return nil }
        let top = Int((reading.device.statusBar * reading.device.scale).rounded())
        let bottom = min(a.height, reading.barRows)
        guard bottom > top else { return nil }
        var far = 0, sum = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for i in stride(from: top * a.width * 4, to: bottom * a.width * 4, by: 4) {
                    let d = max(abs(Int(p[i]) - Int(q[i])), abs(Int(p[i + 1]) - Int(q[i + 1])), abs(Int(p[i + 2]) - Int(q[i + 2])))
                    sum += d
                    if d > 48 { far += 1 }
                }
            }
        }
        return (far, sum, (bottom - top) * a.width)
    }

    /// Whether `b` shows the screen `a` shows: their bars below the status bar differ by more than
    /// 48 levels in at most 0.3 % of its pixels (another title, back button or bar button differs
    /// in more; a translucent bar's blur of scrolled content by less than 48 levels); with
    /// `pointer`, not counting up to two compact groups each within a mouse pointer's 32 x 40 pt (`pointerGroups`) clear
    /// of the leading 60 pt, where a back button's chevron alone may be what tells a pushed
    /// screen from the one under it: a captured simulator window shows the Mac's pointer, and
    /// KMNavigationBarTransition's Before2.gif shows its root once with the pointer on its bar
    /// button and once without.
    public static func sameScreen(_ a: Image, _ b: Image, _ reading: Reading, pointer: Bool = false) -> Bool {
        guard let d = barDifferences(a, b, reading) else { return false }
        if d.far * 1000 <= d.pixels * 3 { return true }
        guard pointer else { return false }
        let k = reading.device.scale
        let box = (cols: Int((32 * k).rounded()), rows: Int((40 * k).rounded()))
        guard d.far <= 2 * box.cols * box.rows else { return false }
        let top = Int((reading.device.statusBar * k).rounded()), bottom = Swift.min(a.height, reading.barRows), w = a.width
        var mask = [Bool](repeating: false, count: (bottom - top) * w)
        for y in top..<bottom {
            for x in 0..<w {
                let i = (y * w + x) * 4
                let dd = Swift.max(abs(Int(a.pixels[i]) - Int(b.pixels[i])), abs(Int(a.pixels[i + 1]) - Int(b.pixels[i + 1])), abs(Int(a.pixels[i + 2]) - Int(b.pixels[i + 2])))
                if dd > 48 { mask[(y - top) * w + x] = true }
            }
        }
        // A group counts where a pointer would not hide a difference of the screens': over the
        // bar's trailing quarter (its buttons: KMNavigationBarTransition's pointer rests on
        // "Next"), or where one of the two bars is its plain colour all over the group's box
        // (the pointer over nothing of the bar's). A title's or a back label's digit that differs
        // is neither, and keeps two screens apart.
        func colour(_ img: Image) -> [Int] {
            (0..<3).map { ch in
                var values: [UInt8] = []
                for y in stride(from: top, to: bottom, by: 2) { for x in stride(from: 0, to: w, by: 4) { values.append(img.pixels[(y * w + x) * 4 + ch]) } }
                values.sort()
                return Int(values[values.count / 2])
            }
        }
        let plain = [(a, colour(a)), (b, colour(b))]
        let pointer = pointerGroups(mask, width: w, height: bottom - top, box: box, clearOf: Int((60 * k).rounded())) { x, y in
            if x.lowerBound * 4 >= w * 3 { return true }
            return plain.contains { img, c in
                y.allSatisfy { yy in x.allSatisfy { xx in
                    let i = ((yy + top) * w + xx) * 4
                    return (0..<3).allSatisfy { abs(Int(img.pixels[i + $0]) - c[$0]) <= 24 }
                } }
            }
        }
        return (d.far - pointer) * 1000 <= d.pixels * 3
    }

    /// How many of `mask`'s cells (`width` x `height`) lie in the (at most) two largest groups of
    /// touching cells (8-connected) that each fit within `box`, start at or right of column
    /// `clearOf` and whose box (columns, rows) `accept` takes: what a mouse pointer changes
    /// between two frames (where it was, where it is).
    public static func pointerGroups(_ mask: [Bool], width w: Int, height h: Int, box: (cols: Int, rows: Int), clearOf: Int = 0,
                                     where accept: (ClosedRange<Int>, ClosedRange<Int>) -> Bool = { _, _ in true }) -> Int {
        var seen = [Bool](repeating: false, count: mask.count)
        var sizes: [Int] = []
        var stack: [Int] = []
        for start in mask.indices where mask[start] && !seen[start] {
            seen[start] = true
            stack.append(start)
            var size = 0, minX = w, maxX = 0, minY = h, maxY = 0
            while let i = stack.popLast() {
                size += 1
                let x = i % w, y = i / w
                minX = Swift.min(minX, x); maxX = Swift.max(maxX, x); minY = Swift.min(minY, y); maxY = Swift.max(maxY, y)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, nx < w, ny >= 0, ny < h else { continue }
                        let j = ny * w + nx
                        if mask[j], !seen[j] { seen[j] = true; stack.append(j) }
                    }
                }
            }
            if maxX - minX < box.cols, maxY - minY < box.rows, minX >= clearOf, accept(minX...maxX, minY...maxY) { sizes.append(size) }
        }
        return sizes.sorted(by: >).prefix(2).reduce(0, +)
    }

    /// Which of two frames of one screen shows the Mac's mouse pointer over its bar (0 for `a`,
    /// 1 for `b`), nil when neither can be told: where their bars (below the status bar) differ
    /// by over 48 levels, the one with at least twice as many near-black grey pixels there, and
    /// at least 12 (the pointer's black arrow; its white rim is no help over a light bar). Read
    /// the other, a bar button under the pointer takes the pointer's colour:
    /// KMNavigationBarTransition's Before2.gif rests first with the pointer on "Next" (read as
    /// #545457, where the button is blue) and shows the root again without it.
    static func pointerOnBar(_ a: Image, _ b: Image, _ reading: Reading) -> Int? {
        guard a.width == b.width, a.height == b.height else { return nil }
        let top = Int((reading.device.statusBar * reading.device.scale).rounded()), bottom = Swift.min(a.height, reading.barRows)
        guard bottom > top else { return nil }
        func dark(_ p: [UInt8], _ i: Int) -> Bool {
            let hi = Swift.max(p[i], p[i + 1], p[i + 2]), lo = Swift.min(p[i], p[i + 1], p[i + 2])
            return hi < 70 && hi - lo <= 16
        }
        var inA = 0, inB = 0
        for i in stride(from: top * a.width * 4, to: bottom * a.width * 4, by: 4) {
            let d = Swift.max(abs(Int(a.pixels[i]) - Int(b.pixels[i])), abs(Int(a.pixels[i + 1]) - Int(b.pixels[i + 1])), abs(Int(a.pixels[i + 2]) - Int(b.pixels[i + 2])))
            guard d > 48 else { continue }
            if dark(a.pixels, i) { inA += 1 }
            if dark(b.pixels, i) { inB += 1 }
        }
        if inA >= 12, inA >= 2 * inB { return 0 }
        if inB >= 12, inB >= 2 * inA { return 1 }
        return nil
    }

    /// Whether two frames' bars (below the status bar) differ by more than a codec's noise: a mean
    /// of over 3 levels (hidden.gif's grey bar held under its white one: about 8; one bar
    /// recorded twice: under 1). Frames of other sizes differ; no bar rows, no difference.
    static func barsDiffer(_ a: Image, _ b: Image, _ reading: Reading) -> Bool {
        guard a.width == b.width, a.height == b.height else { return true }
        guard let d = barDifferences(a, b, reading) else { return false }
        return d.sum > 3 * d.pixels
    }

    /// Which way the screens moved between two rests, from the content below the bar (`rows`, in
    /// samples): in a push the later screen slides in from the trailing side, so some motion
    /// frame shows it moved right; in a pop the earlier one slides out the same way. The screen
    /// underneath moves by its parallax and dims, so only the columns the moving screen covers are
    /// compared. `frames` are the motion's (seconds from its start, sample).
    ///
    /// `length` is the motion's, from its start to the later rest. `heldFrom` is where a finger
    /// held the earlier screen still before this motion (of the width): the motion is that swipe
    /// let go. A pop slower than `slowPop` seconds is a swipe back (a tapped back button's pop runs
    /// the scenario's pop duration, 0.5 s by default).
    static func movement(from a: Thumb, to b: Thumb, frames: [(Double, Thumb)], rows: Range<Int>, same: Bool, scale: Double,
                         length: Double = 0, heldFrom: Double? = nil, popDuration: Double = 0.5,
                         measured: inout [(time: Double, x: Double)]) -> Movement {
        let slowPop = 1.5 * popDuration
        // Content that is all one colour (or nearly) cannot say which way it moved. (A held
        // swipe's was seen to move: it is let go.)
        guard !frames.isEmpty, rows.count >= 4, a.texture(rows: rows) >= 2 || b.texture(rows: rows) >= 2 else {
            if let held = heldFrom { return same ? .swipeCancelled(to: held, at: 0) : .swipeFinished(to: held, duration: 0) }
            return .unknown
        }
        let cols = a.cols
        let shifts = Swift.max(1, cols / 10)..<(cols * 9 / 10)
        // At most 24 frames, spread over the motion.
        let picked = frames.count <= 24 ? frames : (0..<24).map { frames[$0 * frames.count / 24] }
        // Each frame's least error against a screen shifted, only at shifts where the frame
        // shows the screen moved, not as it stood (`showsMoved`), and `raw`, at any shift: what a
        // rise from the bottom or a sinking must beat, and what says the frame shows something
        // moved sideways. A screen of one flat colour in these rows (texture under 1; FD's plain
        // table, thin lines on white, is 1.6) looks like itself moved anywhere and is taken at
        // its least error (the frame's other columns, which do not show it, tell where it is:
        // the `still` test below).
        let flatA = a.texture(rows: rows) < 1, flatB = b.texture(rows: rows) < 1
        // A release ends after the last frame that moved and by the first at rest: half the
        // frames' usual gap before the rest was seen, where nothing measured tells.
        let gaps = zip(frames.dropFirst(), frames).map { $0.0 - $1.0 }.sorted()
        let gap = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
        func best(_ f: Thumb, _ x: Thumb, flat: Bool, shifts: Range<Int> = shifts) -> (err: Double, dx: Int, raw: Double) {
            var e = Double.infinity, at = 0, raw = Double.infinity
            for dx in shifts {
                let v = f.shiftedError(x, dx: dx, rows: rows)
                raw = Swift.min(raw, v)
                if v < e, flat || f.showsMoved(x, dx: dx, moved: v, rows: rows) { (e, at) = (v, dx) }
            }
            return (e, at, raw)
        }
        // The least error of any frame against each rest shifted (only the error decides a push
        // or a pop), and the furthest shift of the earlier rest, and when (a swipe let go): a
        // frame counts there when it matches the shifted screen far better than either rest
        // unshifted.
        var bestA = Double.infinity, bestB = Double.infinity, bestRisen = Double.infinity, bestSunk = Double.infinity
        var rawA = Double.infinity, rawB = Double.infinity
        var furthest = (dx: 0, at: 0.0)
        // Where the earlier screen stood in each frame that shows it moved over (of the width).
        var path: [(time: Double, x: Double)] = []
        defer { measured = path }
        // Whether some frame shows a screen moved sideways, and whether every frame shows the
        // earlier screen's content where it was.
        var sideways = false, contentStill = a.shiftedError(b, dx: 0, rows: rows) <= 2
        let rises = Swift.max(1, rows.count / 10)..<Swift.max(1, rows.count * 9 / 10)
        // (Where the frame shows the screen moved up or down, not as it stood: `showsRisen`.)
        func risen(_ f: Thumb, _ x: Thumb) -> Double {
            var e = Double.infinity
            for dy in rises {
                let v = f.risenError(x, dy: dy, rows: rows)
                if v < e, f.showsRisen(x, dy: dy, moved: v, rows: rows) { e = v }
            }
            return e
        }
        for (time, f) in picked {
            let ua = f.shiftedError(a, dx: 0, rows: rows)
            let still = Swift.min(ua, f.shiftedError(b, dx: 0, rows: rows))
            if ua > 2 { contentStill = false }
            let ea = best(f, a, flat: flatA)
            bestA = Swift.min(bestA, ea.err)
            rawA = Swift.min(rawA, ea.raw)
            if ea.raw <= 4, ea.raw < still * 0.5 { sideways = true }
            if ea.err <= 4, ea.err < still * 0.5 {
                path.append((time, Double(ea.dx) / Double(cols)))
                if ea.dx > furthest.dx { furthest = (ea.dx, time) }
            }
            if !same {
                let eb = best(f, b, flat: flatB)
                bestB = Swift.min(bestB, eb.err)
                rawB = Swift.min(rawB, eb.raw)
                if eb.raw <= 4, eb.raw < still * 0.5 { sideways = true }
                // The later screen risen part of the way from the bottom edge.
                let er = risen(f, b)
                if er <= 4, er < still * 0.5 { bestRisen = Swift.min(bestRisen, er) }
                // Or the earlier one on its way down.
                let es = risen(f, a)
                if es <= 4, es < still * 0.5 { bestSunk = Swift.min(bestSunk, es) }
            }
        }
        // A swipe's path from more of its frames (at most 120): where a finger's drag turns is
        // a knot of the steps written (`dragKnots`), and a frame skipped there moves the knot.
        if !path.isEmpty, same || length > slowPop, frames.count > picked.count {
            let chosen = Set((0..<24).map { $0 * frames.count / 24 })
            let others = frames.indices.filter { !chosen.contains($0) }
            let spread = others.count <= 96 ? others : (0..<96).map { others[$0 * others.count / 96] }
            for k in spread {
                let (time, f) = frames[k]
                let still = Swift.min(f.shiftedError(a, dx: 0, rows: rows), f.shiftedError(b, dx: 0, rows: rows))
                let ea = best(f, a, flat: flatA)
                guard ea.err <= 4, ea.err < still * 0.5 else { continue }
                path.append((time, Double(ea.dx) / Double(cols)))
                if same, heldFrom == nil, ea.dx > furthest.dx { furthest = (ea.dx, time) }
            }
            path.sort { $0.time < $1.time }
        }
        if same, heldFrom != nil, let lastSeen = path.last?.time {
            // A held swipe let go back: its last frames before the rest show the screen under a
            // tenth of the width over, which the search above does not reach; from a twentieth
            // they are measured too (with any frame after the last measured that the spread
            // skipped), so that the let-go is not found before the finger's last slow drag
            // (hidden.gif's brings its screen from 0.119 to 0.081 of the width in the last tenth
            // of a second before it goes under a twentieth; the let-go was found at 0.11).
            let small = Swift.max(1, cols / 20)..<(cols * 9 / 10)
            for (time, f) in frames where time > lastSeen {
                let still = Swift.min(f.shiftedError(a, dx: 0, rows: rows), f.shiftedError(b, dx: 0, rows: rows))
                let ea = best(f, a, flat: flatA, shifts: small)
                if ea.err <= 4, ea.err < still * 0.5 { path.append((time, Double(ea.dx) / Double(cols))) }
            }
        }
        if same, let held = heldFrom {
            // Let go after the hold, where the finger had dragged it on to (further or back).
            let fit = fittedSwipe(path: path, from: held, length: length, popDuration: popDuration, finish: false)
            return .swipeCancelled(to: fit.to, at: fit.duration)
        }
        // The top screen went out on a tapped pop's curve and did not come back: a pop to a
        // screen that looks like it (the screen a copy repeats, under it), which one look at both
        // rests hides. A swipe let go comes back, and its frames after the furthest show it on
        // its way (a review, 2026-11-29: a tapped popTo from a copy to its screen was written as
        // a swipe let go at 85 %).
        if same, heldFrom == nil, furthest.dx > 0, path.count >= 2, length <= slowPop {
            let out = Double(furthest.dx) / Double(cols)
            if !path.contains(where: { $0.time > furthest.at && $0.x < out - 0.05 }),
               tappedPopMiss(path, popDuration: popDuration) <= 0.05 { return .pop }
        }
        if same, furthest.dx > 0 {
            return .swipeCancelled(to: Double(furthest.dx) / Double(cols), at: furthest.at)
        }
        if !same, heldFrom == nil, contentStill { return .inPlace(contentSame: true) }
        // A list scrolled under a bar that changes as it scrolls (UIKit's scroll edge, a bar that
        // fades in) is two looks of one screen, and its later frames show the later look's content
        // moved down, as a sheet rising does; but in its middle frame the earlier content has moved
        // up too, where a sheet leaves it still.
        if !same, heldFrom == nil, !sideways, let dy = verticalShift(from: a, to: b, rows: rows),
           let mid = middleFrame(frames),
           verticalShift(from: a, to: mid, rows: rows, least: 1, within: 4) != nil {
            return .scroll(points: (Double(dy * a.step) / scale).rounded())
        }
        if !same, heldFrom == nil, bestRisen < Swift.min(rawA, rawB, bestSunk) * 0.6 { return .fromBelow }
        if !same, heldFrom == nil, bestSunk < Swift.min(rawA, rawB, bestRisen) * 0.6 { return .toBelow }
        if !same, bestB <= 4, bestB < bestA * 0.6, heldFrom == nil { return .push }
        if !same, heldFrom != nil || (bestA <= 4 && bestA < bestB * 0.6) {
            if heldFrom == nil, length <= slowPop {
                // As short as a tapped pop, yet a finger's drag where the screen moved at a
                // finger's even pace and not on UIKit's pop curve, which is over 80 % of the way
                // at a third of its time (KMNavigationBarTransition's Before1.gif, a simulator's
                // pointer dragging from the leading edge: 0.18 to 0.87 of the width in 0.6 s,
                // about 0.12 every 0.1 s, 0.73 s in all; its Now2.gif's tapped back button: 0.32
                // then 0.85 a tenth of a second later).
                guard path.count >= 3, tappedPopMiss(path, popDuration: popDuration) > 0.1 else { return .pop }
                // An even drag as `fittedSwipe` draws it, where that fits (its end may be off
                // the rest's start by a frame either way); else the finger on at its last speed,
                // its release ending half a frame before the rest was seen (up to a frame late:
                // at 10 frames a second a drag let go at 85 % was read as let go at 98 %).
                let fit = fittedSwipe(path: path, from: 0, length: length, popDuration: popDuration, finish: true, settle: gap / 2)
                if fit.miss <= 0.03 { return .swipeFinished(to: fit.to, duration: fit.duration) }
                let letGo = draggedOn(path, length: length - gap / 2, popDuration: popDuration)
                return .swipeFinished(to: letGo.x, duration: letGo.time)
            }
            let fit = fittedSwipe(path: path, from: heldFrom ?? 0, length: length, popDuration: popDuration, finish: true, settle: gap / 2)
            return .swipeFinished(to: fit.to, duration: fit.duration)
        }
        // Two screens that look alike cannot tell a push from a pop, but a motion slower than a
        // pop in which the earlier screen was seen moving over as a swipe moves it (within a
        // tenth of the width on average) is a swipe (if the stack says the later screen was
        // under it).
        if !same, length > slowPop, path.count >= 3 {
            let fit = fittedSwipe(path: path, from: 0, length: length, popDuration: popDuration, finish: true)
            if fit.miss <= 0.1 { return .swipeFinished(to: fit.to, duration: fit.duration) }
        }
        // A scroll moves the content up or down in every frame; a push between two lists whose
        // bars differ in height (a large title's) shows the later list moved up too, but its
        // middle frame is two screens side by side.
        // And it moves what is right under the bar: a keyboard or a panel rising over the
        // lower part leaves that where it was.
        let under = rows.lowerBound..<(rows.lowerBound + Swift.max(2, rows.count / 4))
        let underMoved = a.texture(rows: under) < 2 || a.shiftedError(b, dx: 0, rows: under) > 1.5
        if underMoved, let dy = verticalShift(from: a, to: b, rows: rows) {
            if let mid = middleFrame(frames), verticalShift(from: a, to: mid, rows: rows, least: 0, within: 4) != nil {
                return .scroll(points: (Double(dy * a.step) / scale).rounded())
            }
        }
        return sideways ? .unknown : .inPlace(contentSame: false)
    }

    /// How long before the rest's end a finger's drag started (negative seconds), where a
    /// recording under 30 frames a second leaves it open. The rest ends 1/30 s before the first
    /// frame that moved, and the drag started after the last still frame: anywhere in the
    /// `shortest` interval before the first moving frame (`firstFrame`, seconds from the rest's
    /// end). At 10 frames a second that is 0.07 s more, and the screen is 12-35 % over in its
    /// first frame, so the drag was written in two parts, a flick to there in 0.03 s and then the
    /// finger's pace (HBDNavigationBar's weixin.gif and gradient.gif, KMNavigationBarTransition's
    /// Now1.gif at 4.17 s, `to: 0.35, duration: 0.03`). Taken back along the line through the
    /// first two points of `path` (the top screen's), at most to that frame before: nil where the
    /// first frame is not measured, the screen was not moving out between the two, or the line
    /// starts at or after the rest's end.
    static func dragLead(_ path: [(time: Double, x: Double)], firstFrame: Double, shortest: Double) -> Double? {
        let points = path.sorted { $0.time < $1.time }
        guard points.count >= 2, shortest.isFinite, abs(points[0].time - firstFrame) < 1e-6, points[0].x > 0,
              points[1].time > points[0].time, points[1].x > points[0].x else { return nil }
        let speed = (points[1].x - points[0].x) / (points[1].time - points[0].time)
        let start = Swift.max(firstFrame - shortest, points[0].time - points[0].x / speed)
        return start < -0.005 ? start : nil
    }

    /// Where a finger dragging the top screen back let it go: the first moment after which the
    /// screen went back as NavReel's release does (`released`), at a measured point from `top` on
    /// or between two (the finger moving on at its speed until then), every later point within
    /// 0.03 of the width; failing that, the first point within 0.1 (the last point fits
    /// trivially, having none after it). `stillAtFirst`: the finger was still at `points[0]`
    /// (a hold's end), so the drag from there starts at no speed; otherwise the first point's
    /// speed is not known and only later ones are moved on from. hidden.gif's finger takes its screen
    /// back from 89 % over 1.7 s, slower and slower; weixin.gif's from 64 % to 0.434 in two frames and to about 0.37
    /// in the 0.06 s after, then lets go (the release shows 0.144 a frame later).
    static func letGoPoint(_ points: [(time: Double, x: Double)], from top: Int, stillAtFirst: Bool, popDuration: Double) -> (time: Double, x: Double)? {
        guard top >= 0, top < points.count else { return nil }
        func fits(_ at: (time: Double, x: Double), after k: Int, within: Double) -> Bool {
            points[(k + 1)...].allSatisfy { abs($0.x - released(from: at.x, finish: false, after: $0.time - at.time, popDuration: popDuration)) <= within }
        }
        for k in top..<points.count where k + 1 < points.count {
            let p = points[k]
            if fits((p.time, p.x), after: k, within: 0.03) { return (p.time, p.x) }
            guard k > 0 || stillAtFirst else { continue }
            let speed = k > 0 ? (p.x - points[k - 1].x) / Swift.max(1e-9, p.time - points[k - 1].time) : 0
            for step in 1..<10 {
                let time = p.time + (points[k + 1].time - p.time) * Double(step) / 10
                let at = (time: time, x: Swift.min(1, Swift.max(0, p.x + speed * (time - p.time))))
                if fits(at, after: k, within: 0.03) { return at }
            }
        }
        if let k = (top..<points.count).first(where: { fits((points[$0].time, points[$0].x), after: $0, within: 0.1) }) {
            return (points[k].time, points[k].x)
        }
        return nil
    }

    /// Where the finger let go of a swipe it had held still (at `points[0]`, time 0) and dragged
    /// on through the other `points`, the screen at rest from `restAt` (seconds from the same
    /// start): `letGoPoint` searched from the hold, with the rest's start as one more point (the
    /// screen at 0). Alone, the last measured point always "fits" (nothing after it can
    /// disagree), so a misread one would become the let-go; with the rest after it, it is taken
    /// when the release from there is over by then (gradient.gif's second hold, let go at 19 %:
    /// back a frame later). Nil when only the rest fits: the caller keeps the motion's own fit.
    static func letGoAfterHold(_ points: [(time: Double, x: Double)], restAt: Double, popDuration: Double) -> (time: Double, x: Double)? {
        guard points.count > 1, restAt > points[points.count - 1].time else { return nil }
        guard let found = letGoPoint(points + [(time: restAt, x: 0)], from: 0, stillAtFirst: true, popDuration: popDuration),
              found.time < restAt else { return nil }
        return found
    }

    /// Where the screen `a` showed at rest stood in each of `frames` (at most 120, spread) that
    /// shows it moved towards the trailing side (of the width): its content below the bar matches
    /// `a` shifted within 4 levels, and far better than unshifted. For a drag into a held swipe,
    /// which `movement` does not read.
    static func swipePath(of a: Thumb, frames: [(Double, Thumb)], rows: Range<Int>) -> [(time: Double, x: Double)] {
        guard rows.count >= 4, a.texture(rows: rows) >= 2 else { return [] }
        let cols = a.cols
        let shifts = Swift.max(1, cols / 20)..<(cols * 19 / 20)
        let spread = frames.count <= 120 ? frames : (0..<120).map { frames[$0 * frames.count / 120] }
        var path: [(time: Double, x: Double)] = []
        for (time, f) in spread {
            let still = f.shiftedError(a, dx: 0, rows: rows)
            var e = Double.infinity, at = 0
            for dx in shifts {
                let v = f.shiftedError(a, dx: dx, rows: rows)
                if v < e, f.showsMoved(a, dx: dx, moved: v, rows: rows) { (e, at) = (v, dx) }
            }
            if e <= 4, e < still * 0.5 { path.append((time, Double(at) / Double(cols))) }
        }
        return path
    }

    /// The knots of a finger's drag, from `from` at the motion's start to `release` (seconds, of
    /// the width), through the measured `path` (its points before the release): a polyline that
    /// keeps every point within `tolerance` of the width (Ramer-Douglas-Peucker, distances taken
    /// along the width at each point's time). One knot (the release) when an even drag does.
    /// A real finger is not even: HBDNavigationBar's weixin.gif (an iPhone's recording at 10
    /// frames a second) flicks the screen 20 % over in its first frame, drags on at a third of the
    /// width a second and holds at 64 % before letting go.
    static func dragKnots(_ path: [(time: Double, x: Double)], from: Double, release: (time: Double, x: Double),
                          tolerance: Double = 0.04) -> [(time: Double, x: Double)] {
        let points = [(time: 0.0, x: from)] + path.filter { $0.time > 0 && $0.time < release.time }.sorted { $0.time < $1.time } + [release]
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        func split(_ i: Int, _ j: Int) {
            guard j > i + 1 else { return }
            let a = points[i], b = points[j]
            var worst = (d: 0.0, k: -1)
            for k in (i + 1)..<j {
                let u = b.time > a.time ? (points[k].time - a.time) / (b.time - a.time) : 0
                let d = abs(points[k].x - (a.x + (b.x - a.x) * u))
                if d > worst.d { worst = (d, k) }
            }
            guard worst.d > tolerance else { return }
            keep[worst.k] = true
            split(i, worst.k)
            split(worst.k, j)
        }
        split(0, points.count - 1)
        return points.indices.filter { $0 > 0 && keep[$0] }.map { points[$0] }
    }

    /// Where a finger that dragged a screen all the way out, faster than `fittedSwipe`'s even drag
    /// from the edge allows (a path that jumps at its start, then slows), let it go: after the last
    /// point measured (a screen near the trailing edge is not), the finger moves on at its last
    /// measured speed, and lets go where the release from there ends as the later rest starts
    /// (`length`), or where it reaches 0.98 of the width (the rest is seen on the frame after the
    /// release ends, up to a frame late); at the last point if even that release ends later.
    /// KMNavigationBarTransition's Now1.gif: 0.35, 0.58, 0.66, then 0.80 at 0.33 s, at rest from
    /// 0.53 s: on at 1.4 widths a second to 0.98 at 0.46 s.
    static func draggedOn(_ path: [(time: Double, x: Double)], length: Double, popDuration: Double) -> (time: Double, x: Double) {
        guard let last = path.last else { return (0, 0) }
        let speed = path.count > 1 ? Swift.max(0, (last.x - path[path.count - 2].x) / Swift.max(1e-9, last.time - path[path.count - 2].time)) : 0
        // The release from x at time T ends at T + (1 - x) * popDuration; x = last.x + speed * (T - last.time).
        func end(_ t: Double) -> Double { t + (1 - Swift.min(0.98, last.x + speed * (t - last.time))) * popDuration }
        if end(last.time) >= length || last.x >= 0.98 { return (last.time, Swift.min(0.98, last.x)) }
        // The first millisecond at which it does (end(t) falls where x grows faster than the
        // release would take it), or x reaches 0.98.
        var t = last.time
        while end(t) < length, t < length, last.x + speed * (t - last.time) < 0.98 { t += 0.001 }
        return (t, Swift.min(0.98, last.x + speed * (t - last.time)))
    }

    /// Why a motion that took a screen out to the trailing side is a finger's (`movement`): it took
    /// longer than a tapped pop can, or it did not move on a tapped pop's curve.
    public static func fingersPace(length: Double, popDuration: Double = 0.5) -> String {
        length > 1.5 * popDuration ? "slower than a pop" : "at a finger's pace, not on a tapped pop's curve (or the app's own pop animation)"
    }

    /// How far a pop's measured path (of the width, at seconds from the motion's start) misses a
    /// tapped pop's: UIKit's pop curve (`defaultPopCurve`), started from 0.15 s before the first
    /// changed frame to 0.15 s after it (a 10 frames a second capture's frames are 0.1 s apart) or
    /// later, up to the first point measured (a back button's highlight before the pop, as
    /// `tappedDelay` finds; a review, 2026-11-29: a pop 0.2 s after one was read as a swipe), and
    /// lasting 0.7 to 1.4 times `popDuration` (another iOS, a capture's clock): the least root
    /// mean square miss of any such pop.
    static func tappedPopMiss(_ path: [(time: Double, x: Double)], popDuration: Double) -> Double {
        let first = path.map(\.time).min() ?? 0
        return tappedFit(path, popDuration: popDuration, starts: -0.15...Swift.max(0.15, first)).miss
    }

    /// The tapped push or pop (UIKit's curve, `defaultPopCurve`, both ways) that `path` (how far
    /// the moving screen had gone, 0 to 1, at seconds from the motion's start; at most 24 points
    /// are used, spread) fits best: started at a time within `starts` (in steps of 5 ms) and lasting
    /// 0.7 to 1.4 times `popDuration`; its root mean square miss.
    static func tappedFit(_ path: [(time: Double, x: Double)], popDuration: Double,
                          starts: ClosedRange<Double>) -> (miss: Double, start: Double, duration: Double) {
        guard !path.isEmpty else { return (0, 0, popDuration) }
        let points = path.count <= 24 ? path : (0..<24).map { path[$0 * path.count / 24] }
        let curve = CubicBezier(defaultPopCurve)
        var best = (miss: Double.infinity, start: 0.0, duration: popDuration)
        let first = Int((starts.lowerBound / 0.005).rounded(.up)), last = Int((starts.upperBound / 0.005).rounded(.down))
        guard first <= last else { return best }
        for d in 0...14 {
            let duration = popDuration * (0.7 + 0.05 * Double(d))
            for k in first...last {
                let start = Double(k) * 0.005
                var miss = 0.0
                for p in points {
                    let u = (p.time - start) / duration
                    let x = u <= 0 ? 0 : u >= 1 ? 1 : curve(u)
                    miss += (p.x - x) * (p.x - x)
                }
                let rms = (miss / Double(points.count)).squareRoot()
                if rms < best.miss { best = (rms, start, duration) }
            }
        }
        return best
    }

    /// How long after the rest before it ended a tapped push or pop started, where that is a
    /// frame or more at 10 frames a second: `path` (the moving screen's progress, 0 to 1, at
    /// seconds from the rest's end) on UIKit's curve within 0.04 of the width, at two points at
    /// least, started 0.1 s or more after the screen first changed. A button's or a row's
    /// highlight changes the screen before anything moves: KMNavigationBarTransition's Now2.gif
    /// dims its "Next" from 3.70 s, still at 3.90 s, the push half way at 4.00 s; the fit starts
    /// it at 3.95 s. FDFullscreenPopGesture's snapshot1.gif dims "Push" from 8.85 s, unmoved at
    /// 9.06 s and about 70 % of the way at 9.18 s; the fit: 9.04 s. Nil otherwise.
    static func tappedDelay(_ path: [(time: Double, x: Double)], length: Double, duration: Double = 0.5) -> Double? {
        guard path.count >= 2, length > 0.1, let first = path.map(\.time).min() else { return nil }
        // (It started before the screen was first seen moved: a long motion costs no more.)
        let fit = tappedFit(path, popDuration: duration, starts: -0.15...Swift.max(-0.15, Swift.min(length, first)))
        guard fit.miss <= 0.04, fit.start >= 0.1 else { return nil }
        return fit.start
    }

    /// Where NavReel draws a swipe let go at `from` (of the width) `after` seconds later: the rest
    /// of the way on the default pop curve, over the remaining fraction of `popDuration`
    /// (`Timeline.released`), on to the end when it `finish`es, back to where it was when not.
    static func released(from: Double, finish: Bool, after: Double, popDuration: Double) -> Double {
        Timeline.released(from: from, to: finish ? 1 : 0, after: after, pop: Timing(duration: popDuration, curve: defaultPopCurve))
    }
    static let defaultPopCurve = TimingDefaults().pop.curve

    /// The swipe back that NavReel would run as this motion ran: the finger drags the top screen
    /// from `from` to `to` of the width in `duration` seconds at an even speed, and once let go
    /// the screen goes the rest of the way as `released` says. So the motion lasts
    /// `duration + (1 - to) * popDuration`, or `duration + to * popDuration`. Of the swipes that
    /// end within 0.07 s before and 0.2 s after the motion's `length`, those whose path misses
    /// where the screen was measured (`path`, of the width at seconds from the motion's start)
    /// by the least root mean square, within 0.002 of the width; of those, the one ending nearest
    /// `settle` seconds before `length` (half a frame: the release ended after the last frame
    /// that moved, by the first at rest). `miss` is its root mean square miss.
    static func fittedSwipe(path: [(time: Double, x: Double)], from: Double, length: Double, popDuration: Double,
                            finish: Bool, settle: Double = 0) -> (to: Double, duration: Double, miss: Double) {
        // (Of fits that miss alike, the end nearest `settle` seconds before the rest was seen.)
        let early = Int((settle * 100).rounded())
        guard !path.isEmpty else { return (from, Swift.max(0, length - (finish ? 1 - from : from) * popDuration), 0) }
        var fits: [(rms: Double, slack: Int, to: Double, duration: Double)] = []
        for k in 0...100 {
            let to = Double(k) / 100
            // A finished swipe is let go on its way out, past where it was held.
            if finish, to < from || to > 0.98 { continue }
            // Where the later rest was seen to start can be off the release's end: its last
            // hundredths of the width move less than a thumb's column (the pop's curve is within
            // 0.01 of its end after 70 % of its time), or a frame or two late. The release
            // itself is rarely measured (a screen near either edge is not), so a drag's line
            // fits as well ended anywhere along it: of the paths that miss alike, the one whose
            // end is nearest the rest's start wins.
            for slack in -7...20 {
                let duration = length + Double(slack) / 100 - (finish ? 1 - to : to) * popDuration
                guard duration >= 0 else { continue }
                var miss = 0.0
                for p in path {
                    let x = p.time < duration ? from + (to - from) * p.time / Swift.max(duration, 1e-9)
                        : released(from: to, finish: finish, after: p.time - duration, popDuration: popDuration)
                    miss += (p.x - x) * (p.x - x)
                }
                fits.append(((miss / Double(path.count)).squareRoot(), abs(slack + early), to, duration))
            }
        }
        // The least miss, then of the fits within 0.002 of the width of it, the end nearest the
        // rest's start, then the lesser miss.
        guard let least = fits.map(\.rms).min(),
              let best = fits.filter({ $0.rms <= least + 0.002 }).min(by: { ($0.slack, $0.rms) < ($1.slack, $1.rms) })
        else { return (from, 0, .infinity) }
        return (best.to, best.duration, best.rms)
    }

    /// A thumbnail's rows (of `thumbRows`, a row for `step` pixels) that show a screen's content:
    /// from two below the bar (`barRows` pixels) to one above the home indicator's 34 pt. Empty
    /// when the screen shows none.
    static func contentRows(barRows: Int, scale: Double, thumbRows: Int, step: Int) -> Range<Int> {
        let top = barRows / step + 2
        let bottom = thumbRows - Int((34 * scale).rounded()) / step - 1
        return top..<Swift.max(top, bottom)
    }

    /// Whether a frame of a swipe back (samples: `Thumb`), the top screen moved `dx` columns over,
    /// shows one bar across the full width where `top`'s bar would be (`barTransition: switch`;
    /// juejin.gif: the root's bar from the swipe's first moving frame, over the photo screen too),
    /// rather than that screen's own moving with it (HBDNavigationBar's split bar) or a blend of
    /// the two (`crossFade`, whose slope is 1 - p). Over the bar's rows below the
    /// status bar (their luma and colour differences), right of the edge and two columns clear of
    /// it: the top screen's bar shifted does not show (median difference over 40 levels; where
    /// it has texture, a slope under 0.3), and the bar is of a piece across the edge (the
    /// columns two either side within 16 levels at the median). juejin.gif at 0.90 s: 166 levels
    /// off the photo screen's bar at the median, slope -0.09 (measured on its pixels).
    static func thumbBarAcross(_ frame: Thumb, top: Thumb, dx: Int, reading: Reading) -> Bool {
        let step = top.step, k = reading.device.scale
        guard frame.cols == top.cols, frame.rows == top.rows else { return false }
        let rows = Int((reading.device.statusBar * k / Double(step)).rounded(.up))..<Swift.min(top.rows, (reading.barRows - Int((2 * k).rounded())) / step)
        let cols = top.cols
        guard rows.count >= 2, dx - 2 >= 0, dx + 2 < cols - 1 else { return false }
        let planes = [(frame.v, top.v), (frame.cb, top.cb), (frame.cr, top.cr)]
        var xs: [Double] = [], ys: [Double] = [], differences: [Int] = []
        for r in rows {
            for c in (dx + 2)..<(cols - 1) {
                var worst = 0
                for (f, t) in planes {
                    let a = Double(t[r * cols + c - dx]), b = Double(f[r * cols + c])
                    xs.append(a); ys.append(b)
                    worst = Swift.max(worst, Int(abs(a - b)))
                }
                differences.append(worst)
            }
        }
        guard !differences.isEmpty else { return false }
        differences.sort()
        guard differences[differences.count / 2] > 40 else { return false }
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0
        for i in xs.indices { sxx += (xs[i] - mx) * (xs[i] - mx); sxy += (xs[i] - mx) * (ys[i] - my) }
        if sxx / n >= 64, sxy / sxx >= 0.3 { return false }
        var steps: [Int] = []
        for r in rows {
            steps.append(planes.map { (f, _) in abs(Int(f[r * cols + dx - 2]) - Int(f[r * cols + dx + 2])) }.max()!)
        }
        steps.sort()
        return steps[steps.count / 2] <= 16
    }

    /// What a push or pop between two screens at rest shows of the bar, where both screens' bars
    /// are flat colours that differ (over 40 levels): true for one bar of the destination's colour
    /// across the full width while the screens move (`barTransition: switch`, one UIKit bar
    /// restyled in `viewWillAppear`: KMNavigationBarTransition's "Before" GIFs, the destination's
    /// colour from the first moving frame), false where a frame shows both colours side by side
    /// (HBDNavigationBar's split bar, or KMNavigationBarTransition's own per-screen bars), nil
    /// otherwise (a blend, `crossFade`; too few frames; bars that are not flat). Over the bar's rows
    /// below the status bar (`frames` are the tops of thumbnails, as `barFrames` keeps them): a
    /// sample is a bar's colour when all three planes are within 24 levels of the median of that
    /// bar's rows at rest. A frame is in transit when over a tenth of its content samples differ
    /// from both rests' (a moving pointer, a caret, is less); it says switch when three fifths of
    /// its bar samples are the destination's and a tenth or less the source's (the items and the
    /// titles, moving and fading, are the rest), and both when each colour holds 15 % or more.
    /// Switch needs the first frame in transit and another to say so, three quarters of those in
    /// transit, and none showing both.
    static func barSwitchedInTransit(frames: [(Double, Thumb)], from a: Thumb, to b: Thumb, reading: Reading) -> Bool? {
        let step = a.step, k = reading.device.scale
        let barRows = Int((reading.device.statusBar * k / Double(step)).rounded(.up))..<Swift.min(a.rows, b.rows, (reading.barRows - Int((2 * k).rounded())) / step)
        // (The frames are the top third of the screen: the content rows they hold.)
        let content = (reading.barRows / step + 2)..<Swift.min(a.rows, b.rows, frames.map(\.1.rows).min() ?? 0)
        guard barRows.count >= 2, content.count >= 2, a.cols == b.cols else { return nil }
        let cols = a.cols
        func planes(_ t: Thumb) -> [[UInt8]] { [t.v, t.cb, t.cr] }
        func median(_ t: Thumb) -> [Int] {
            planes(t).map { plane in
                var values: [UInt8] = []
                for r in barRows { values += plane[(r * cols)..<((r + 1) * cols)] }
                values.sort()
                return Int(values[values.count / 2])
            }
        }
        let ca = median(a), cb = median(b)
        guard zip(ca, cb).map({ abs($0 - $1) }).max()! > 40 else { return nil }
        func near(_ t: Thumb, _ c: [Int]) -> Double {
            let p = planes(t)
            var n = 0
            for r in barRows {
                for col in 0..<cols where (0..<3).allSatisfy({ abs(Int(p[$0][r * cols + col]) - c[$0]) <= 24 }) { n += 1 }
            }
            return Double(n) / Double(barRows.count * cols)
        }
        // Flat bars at rest: most of each bar is its colour (the rest its items and title).
        guard near(a, ca) >= 0.7, near(b, cb) >= 0.7 else { return nil }
        func differs(_ t: Thumb, _ rest: Thumb) -> Bool {
            let p = planes(t), q = planes(rest)
            var n = 0
            for r in content {
                for col in 0..<cols where (0..<3).contains(where: { abs(Int(p[$0][r * cols + col]) - Int(q[$0][r * cols + col])) > 16 }) { n += 1 }
            }
            return n * 10 > content.count * cols
        }
        var switched = 0, moving = 0, firstSwitched = false
        for (_, frame) in frames where frame.cols == cols {
            guard differs(frame, a), differs(frame, b) else { continue }
            let source = near(frame, ca), destination = near(frame, cb)
            if source >= 0.15, destination >= 0.15 { return false }
            let says = destination >= 0.6 && source <= 0.1
            if says { switched += 1 }
            if moving == 0 { firstSwitched = says }
            moving += 1
        }
        // (A blend's last frames are near the destination's colour too: the first frame in
        // transit, and three quarters of them, where crossFade's early ones are neither colour.)
        return firstSwitched && switched >= 2 && switched * 4 >= moving * 3 ? true : nil
    }

    /// How far `thumb` shows `anchor`'s screen moved towards the trailing side and held there (of
    /// the width, at least a twentieth and at most nineteen): the content below `reading`'s bar
    /// matches it moved over far better than unmoved. nil otherwise.
    static func heldFraction(_ thumb: Thumb, over anchor: Thumb, reading: Reading) -> Double? {
        let step = anchor.step
        let rows = contentRows(barRows: reading.barRows, scale: reading.device.scale, thumbRows: anchor.rows, step: step)
        guard rows.count >= 4, thumb.cols == anchor.cols, anchor.texture(rows: rows) >= 2 else { return nil }
        let unmoved = thumb.shiftedError(anchor, dx: 0, rows: rows)
        var best = (err: Double.infinity, dx: 0)
        for dx in Swift.max(2, anchor.cols / 20)..<(anchor.cols * 19 / 20) {
            let e = thumb.shiftedError(anchor, dx: dx, rows: rows)
            if e < best.err, thumb.showsMoved(anchor, dx: dx, moved: e, rows: rows) { best = (e, dx) }
        }
        // A GIF's dither does not move with the picture: HBDNavigationBar's juejin.gif (an
        // iPhone's recording) holds a swipe at 37 % whose content misses the first screen moved
        // over by 5.8 levels, against 37.6 unmoved. Within 4 levels, or 8 and a quarter of unmoved.
        guard best.err <= 4 && best.err < unmoved * 0.5 || best.err <= 8 && best.err < unmoved * 0.25 else { return nil }
        return Double(best.dx) / Double(anchor.cols)
    }

    /// How many sample rows the content of `b` sits above `a`'s (a scroll down moves it up), when
    /// `b` shows `a`'s content moved up or down by at least two rows and far better than unmoved:
    /// nil otherwise.
    static func verticalShift(from a: Thumb, to b: Thumb, rows band: Range<Int>, least: Int = 2, within: Double = 3) -> Int? {
        func error(_ dy: Int) -> Double { b.verticalError(a, dy: dy, rows: band) }
        let unmoved = error(0)
        var best = (err: Double.infinity, dy: 0)
        for dy in -(band.count * 3 / 4)...(band.count * 3 / 4) where abs(dy) >= least {
            let e = error(dy)
            if e < best.err { best = (e, dy) }
        }
        guard best.err <= within, least == 0 || best.err < unmoved * 0.5 else { return nil }
        return best.dy
    }

    /// The motion's frame nearest its middle (frames are seconds from the motion's start, the
    /// last at its end): where a scroll has moved the content and a rising sheet has not.
    static func middleFrame(_ frames: [(Double, Thumb)]) -> Thumb? {
        guard let end = frames.last?.0 else { return nil }
        return frames.min { abs($0.0 - end / 2) < abs($1.0 - end / 2) }?.1
    }

    /// A parallax header scrolled (`header: {parallax:}`): the content below the header picture
    /// (rows from `headerEnd` down) moved up by `dy` rows as one, in the last rest and in the
    /// motion's middle frame too (as for any scroll: a sheet rising leaves the earlier content
    /// still), while what stays of the picture above it moved by `headerDy`, less. `parallax` is
    /// their ratio to a twentieth. `below`: the rows that moved as one, for the scroll's path.
    static func parallaxScroll(from a: Thumb, to b: Thumb, frames: [(Double, Thumb)], rows: Range<Int>, headerEnd: Int)
        -> (dy: Int, headerDy: Int, parallax: Double, below: Range<Int>)? {
        guard headerEnd < rows.upperBound else { return nil }
        let below = Swift.max(rows.lowerBound, headerEnd)..<rows.upperBound
        guard below.count >= 8, headerEnd > rows.lowerBound, a.texture(rows: below) >= 2 || b.texture(rows: below) >= 2,
              let dy = verticalShift(from: a, to: b, rows: below), dy > 0,
              let mid = middleFrame(frames),
              verticalShift(from: a, to: mid, rows: below, least: 1, within: 4) != nil else { return nil }
        // The picture left above the content in the later rest: its rows there against the
        // earlier rest's, moved up by less than the content.
        let picture = rows.lowerBound..<Swift.max(rows.lowerBound, headerEnd - dy)
        guard picture.count >= 6 else { return nil }
        var best = (err: Double.infinity, dy: 0)
        for h in 0..<dy {
            let e = b.verticalError(a, dy: h, rows: picture)
            if e < best.err { best = (e, h) }
        }
        // (Within 8 levels: labels laid over the picture may move otherwise. juejin.gif's photo
        // stays where it was, 6.8 levels off, while its profile's name and title move up by half
        // the list's scroll: `parallax: 0`, the picture NavReel draws.)
        guard best.err <= 8, best.err < b.verticalError(a, dy: dy, rows: picture) * 0.7 else { return nil }
        return (dy, best.dy, (Double(best.dy) / Double(dy) * 20).rounded() / 20, below)
    }

    /// The steps for a recording's rests: the first screen read is shown (over a root when it has
    /// a back button, as `yaml` writes), each later rest of another screen is a push, or a pop
    /// (`popTo` further down) when it shows a screen under the top; a rest of the same screen
    /// after a swipe back let go is that swipe; a wait before each keeps the recording's times
    /// (a push or pop takes the default 0.5 s). Comments say what was guessed. `popDuration` is
    /// the scenario's pop duration (a cancelled swipe's return takes `to` of it).
    public static func recordingSteps(_ r: RecordingRead, popDuration: Double = 0.5, pushDuration: Double = 0.5) -> [String] {
        recordingScript(r, popDuration: popDuration, pushDuration: pushDuration).steps
    }

    /// A bar's alpha tied to how far its content scrolled (HBDNavigationBar's demo): 0 until
    /// `start` points, 1 from `end`, ((offset - start) / (end - start)) ^ `exponent` between.
    public struct ScrollAlpha: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var exponent: Int
        /// Below which alpha the bar shows the top's status bar style, tint and title colour
        /// (`styleBelowAlpha`), when they differ from the scrolled look's; `belowSeen` when the
        /// frames showed where they switched (else a guess).
        public var below: Double? = nil
        public var belowSeen = false
        /// The alpha from `end` on (`scroll.alpha.max`) and the colour the bar washes the
        /// picture under it with there, when the scrolled look is that colour over the picture
        /// (`seeThrough`); nil: the scrolled look is opaque.
        public var wash: Wash? = nil

        /// A colour at part alpha over the picture under the bar.
        public struct Wash: Sendable, Equatable {
            public var color: RGBA8
            public var max: Double
        }

        /// The alpha at `offset` points.
        func alpha(at offset: Double) -> Double {
            (wash?.max ?? 1) * pow(Swift.min(1, Swift.max(0, (offset - start) / Swift.max(1e-9, end - start))), Double(exponent))
        }
    }

    /// A scrolled bar that is a colour at one alpha over the picture under it, without blur (the
    /// Juejin app's profile page in juejin.gif: once scrolled its bar is white at about 0.37 over
    /// the header photo, which stays put, `parallax: 0`; read as one flat colour it was a grey,
    /// #7C7373, that hid the photo): the colour and alpha that turn the `top` look's bar rows,
    /// where the bar is transparent and the picture shows, into the `scrolled` look's, as
    /// `scrolled = alpha * colour + (1 - alpha) * top` in each channel with one alpha, by least
    /// squares over the samples that fit. Items, titles and the status bar's text change colour
    /// between the two, so each pass keeps only the samples within 2.5 deviations (at least 8
    /// levels) of the last fit, until the samples kept stay the same (at most 12 passes: juejin.gif
    /// settles in six, at 0.37). nil unless the picture there has texture (the kept
    /// samples of `top` spread by at least 8 levels), at least half the samples fit, the fit
    /// explains the scrolled rows (correlation 0.9 or more over the kept samples), and the alpha
    /// is from 0.05 to 0.9 (more is a bar as good as opaque: written flat, as before).
    static func seeThrough(top: Image, scrolled: Image, rows: Range<Int>) -> (color: RGBA8, alpha: Double)? {
        guard top.width == scrolled.width, top.height == scrolled.height, !rows.isEmpty, rows.upperBound <= top.height else { return nil }
        // Every second sample each way: a bar of a 3x frame is 200,000 pixels.
        var xs: [[Double]] = [[], [], []], ys: [[Double]] = [[], [], []]
        for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) {
            for x in stride(from: 0, to: top.width, by: 2) {
                let i = (y * top.width + x) * 4
                for c in 0..<3 {
                    xs[c].append(Double(top.pixels[i + c]))
                    ys[c].append(Double(scrolled.pixels[i + c]))
                }
            }
        }
        let n = xs[0].count
        guard n >= 64 else { return nil }
        var kept = [Bool](repeating: true, count: n)
        var fit: (k: Double, m: [Double])?
        for pass in 0..<12 {
            // One slope for the three channels, an intercept each: centre each channel on its mean.
            var mx = [0.0, 0.0, 0.0], my = [0.0, 0.0, 0.0]
            let count = Double(kept.lazy.filter { $0 }.count)
            guard count >= Double(n) / 2 else { return nil }
            for c in 0..<3 {
                for i in 0..<n where kept[i] { mx[c] += xs[c][i]; my[c] += ys[c][i] }
                mx[c] /= count; my[c] /= count
            }
            var sxy = 0.0, sxx = 0.0
            for c in 0..<3 { for i in 0..<n where kept[i] { let dx = xs[c][i] - mx[c]; sxx += dx * dx; sxy += dx * (ys[c][i] - my[c]) } }
            // Texture: the picture's samples spread by 8 levels (a flat picture fits any alpha).
            guard sxx / (3 * count) >= 64 else { return nil }
            let k = sxy / sxx
            let m = (0..<3).map { my[$0] - k * mx[$0] }
            fit = (k, m)
            // Each sample's worst channel off the fit; keep those within 2.5 deviations, the
            // deviation estimated from the median (1.4826 times it, for normal noise), so that
            // the items' samples do not widen it.
            let residual = (0..<n).map { i in (0..<3).map { abs(ys[$0][i] - k * xs[$0][i] - m[$0]) }.max()! }
            let sorted = (0..<n).filter { kept[$0] }.map { residual[$0] }.sorted()
            let limit = Swift.max(8, 2.5 * 1.4826 * sorted[sorted.count / 2])
            let next = residual.map { $0 <= limit }
            // (Not moved after the last pass: the fit and the r² below are of the same samples.)
            if next == kept || pass == 11 { break }
            kept = next
        }
        guard let fit, kept.lazy.filter({ $0 }).count >= n / 2 else { return nil }
        // How much of the scrolled rows' spread the fit explains, over the samples kept.
        var ss = 0.0, se = 0.0
        for c in 0..<3 {
            let ks = (0..<n).filter { kept[$0] }
            let mean = ks.reduce(0.0) { $0 + ys[c][$1] } / Double(ks.count)
            for i in ks {
                ss += (ys[c][i] - mean) * (ys[c][i] - mean)
                let e = ys[c][i] - fit.k * xs[c][i] - fit.m[c]
                se += e * e
            }
        }
        let alpha = 1 - fit.k
        guard ss > 0, 1 - se / ss >= 0.81, alpha >= 0.05, alpha <= 0.9 else { return nil }
        func level(_ m: Double) -> UInt8 { UInt8(Swift.min(255, Swift.max(0, (m / alpha).rounded()))) }
        return (RGBA8(level(fit.m[0]), level(fit.m[1]), level(fit.m[2])), (alpha * 100).rounded() / 100)
    }

    /// When the status bar's content switched at once during a motion (seconds from its start):
    /// between the two frames where the most status bar samples changed by 20 levels more than
    /// the frames either side predict (the mean of the changes before and after), at least 4 and
    /// 2 % of them, and three times as many as at any other moment but the two next to it. Text
    /// that changes colour at once jumps there; a background that fades, or content scrolling
    /// under a bar, changes as it did a frame before. nil when no moment stands out.
    static func statusJump(frames: [(Double, Thumb)], rows band: Range<Int>) -> Double? {
        let f = frames.sorted { $0.0 < $1.0 }.filter { $0.1.rows >= band.upperBound && $0.1.cols == frames[0].1.cols }
        guard f.count >= 4, !band.isEmpty else { return nil }
        let samples = (band.lowerBound * f[0].1.cols)..<(band.upperBound * f[0].1.cols)
        func change(_ k: Int, _ i: Int) -> Int { Int(f[k].1.v[i]) - Int(f[k - 1].1.v[i]) }
        // jumps[k]: samples that jumped between frames k - 1 and k.
        var jumps = [Int](repeating: 0, count: f.count)
        for k in 1..<f.count {
            for i in samples {
                let before = k >= 2 ? change(k - 1, i) : 0, after = k + 1 < f.count ? change(k + 1, i) : 0
                if abs(2 * change(k, i) - before - after) > 40 { jumps[k] += 1 }
            }
        }
        guard let k = jumps.indices.max(by: { jumps[$0] < jumps[$1] }), jumps[k] >= Swift.max(4, samples.count / 50) else { return nil }
        let others = jumps.indices.filter { abs($0 - k) > 1 }.map { jumps[$0] }.max() ?? 0
        guard jumps[k] >= 3 * others else { return nil }
        return (f[k - 1].0 + f[k].0) / 2
    }

    /// What `recordingScript` wrote: the steps, and the screens whose bar changed as their
    /// content scrolled from a transparent bar at the top (screen index, and the reading of how
    /// its bar looked once scrolled), with the alpha fitted to that scroll when the bar faded in
    /// over more than UIKit's scroll edge does.
    public struct RecordingScript: Sendable {
        public var steps: [String]
        public var scrolled: [Int: Int]
        public var scrollAlpha: [Int: ScrollAlpha]
        /// Screens pushed again as new ones like them, written as copies (`yaml`'s `copies`).
        public var copies: [Copy] = []
    }

    /// A bar that faded in over a scroll, as `scroll.alpha` draws it: `fade` (seconds, 0 to 1 from
    /// transparent to the scrolled look) against `path` (seconds, points scrolled from `from`)
    /// at the same frames. nil when it was all but in within 15 points (UIKit's scroll edge, which
    /// `scrollEdge` draws over the first 10), when too few frames pair, or when the start, end
    /// and exponent 1-4 nearest in least squares miss by more than 0.05 (root mean square) or
    /// 0.15 in some frame.
    static func scrollAlphaFit(fade: [(time: Double, q: Double)], path: [(time: Double, offset: Double)], from: Double) -> ScrollAlpha? {
        var pairs: [(y: Double, q: Double)] = []
        for p in path {
            guard let f = fade.min(by: { abs($0.time - p.time) < abs($1.time - p.time) }), abs(f.time - p.time) <= 0.02 else { continue }
            pairs.append((from + p.offset, f.q))
        }
        guard pairs.count >= 4, let top = pairs.map(\.y).max(), top > from + 15 else { return nil }
        // Least squares (content scrolling under a part-transparent bar moves its colour a little).
        var best: (rms: Double, worst: Double, alpha: ScrollAlpha)?
        for s in stride(from: 0.0, through: top, by: 5) {
            for e in stride(from: s + 5, through: top + 100, by: 5) {
                for k in 1...4 {
                    let alpha = ScrollAlpha(start: s, end: e, exponent: k)
                    let misses = pairs.map { abs($0.q - alpha.alpha(at: $0.y)) }
                    let rms = (misses.reduce(0) { $0 + $1 * $1 } / Double(misses.count)).squareRoot()
                    if best == nil || rms < best!.rms - 1e-9 { best = (rms, misses.max()!, alpha) }
                }
            }
        }
        // All but in within 15 points is UIKit's scroll edge (10 points in NavReel), whatever the frames show.
        guard let best, best.rms <= 0.05, best.worst <= 0.15, best.alpha.end > from + 15 else { return nil }
        return best.alpha
    }

    /// `recordingSteps`, and the screens whose bar changed as their content scrolled from a
    /// transparent bar at the top of the content (UIKit's scroll edge): screen index, and the
    /// reading of how its bar looked once scrolled, for `yaml`'s `scrolled`.
    public static func recordingScript(_ r: RecordingRead, popDuration: Double = 0.5, pushDuration: Double = 0.5) -> RecordingScript {
        var scrolled: [Int: Int] = [:]
        var scrollAlpha: [Int: ScrollAlpha] = [:]
        // The look a screen written through `scrolled` shows while scrolled (changed in place
        // while scrolled: the later look).
        var scrolledNow: [Int: Int] = [:]
        var names = screenNames(r.readings)
        // Screens pushed again as new ones like them (`Copy`): their stack entries, numbered
        // after the readings, and the reading each copies.
        var copyOf: [Int: Int] = [:]
        var copies: [Copy] = []
        func base(_ id: Int) -> Int { copyOf[id] ?? id }
        var steps: [String] = []
        func t(_ v: Double) -> String { String(format: "%.2f", v) }
        func seconds(_ v: Double) -> String {
            let s = String(format: "%.3f", v)
            var trimmed = s
            while trimmed.hasSuffix("0") { trimmed.removeLast() }
            if trimmed.hasSuffix(".") { trimmed.removeLast() }
            return trimmed
        }
        guard let firstIndex = r.rests.firstIndex(where: { $0.screen != nil }), let root = r.rests[firstIndex].screen else { return RecordingScript(steps: [], scrolled: [:], scrollAlpha: [:]) }
        var stack = [root]
        // A screen whose bar changed as the content scrolled is the top screen scrolled.
        var alias: [Int: Int] = [:]
        // The reading a screen's bar looks like after a setBar (its own when absent).
        var look: [Int: Int] = [:]
        // The bar keys a screen's bar has after the setBars written, by key name (its reading's
        // when absent), and its alpha (1 when absent).
        var written: [Int: [String: String]] = [:]
        var alphas: [Int: Double] = [:]
        var offsets: [Int: Double] = [:]
        if let under = screenUnderFirst(r) {
            // A pop from the first screen showed the one under it: the stack's root.
            steps += ["show: \(names[under])", "{push: \(names[root]), animated: false}"]
            stack = [under, root]
        } else if r.readings[root].pushed || r.opensHeld || !r.openingSwipe.isEmpty {
            // The root the scenario writes under it (-1: no screen read), which a swipe back uncovers.
            steps += ["show: root", "{push: \(names[root]), animated: false}"]
            stack = [-1, root]
        } else {
            steps.append("show: \(names[root])")
        }
        // The scenario's clock, in the recording's seconds: frame k of both is at k / fps. It is
        // the sum of the durations written (to the millisecond), so that rounding does not add
        // up; the last wait is rounded down, so that the scenario does not end a frame late.
        var clock = 0.0
        func wait(until time: Double, last: Bool = false) {
            let gap = ((time - clock) * 1000).rounded(last ? .down : .toNearestOrAwayFromZero) / 1000
            guard gap >= 0.001 else { return }
            steps.append("wait: \(seconds(gap))")
            clock += gap
        }
        // Where a finger holds the top screen still mid-swipe (of the width): the next step lets go.
        var held: Double?
        if r.opensHeld, let to = r.rests[0].held, stack.count >= 2 {
            // The recording starts with the finger holding the first screen over: there at once.
            let to = (to * 100).rounded() / 100
            steps.append("swipeBack: {to: \(seconds(to)), duration: 0, release: hold}   # the recording starts on a swipe back held still at \(Int((to * 100).rounded())) %")
            held = to
        } else if r.rests[firstIndex].start > 0, r.openingSwipe.isEmpty || stack.count < 2 {
            steps.append("# the recording's first \(t(r.rests[firstIndex].start)) s show no screen at rest NavReel read")
        }
        // A drag in parts (`dragKnots`): each part but the last held, the last let go; their
        // durations are the differences of the knots' times rounded, so that they add up.
        // Knots that round to the same hundredth are one: the later one stays (the release).
        func writeDrag(_ knots: [(time: Double, x: Double)], release: String, comment: (Int) -> String) -> Double {
            let parts = hundredths(knots)
            var before = 0
            for (n, k) in parts.enumerated() {
                let last = n == parts.count - 1
                steps.append("swipeBack: {to: \(seconds((k.x * 100).rounded() / 100)), duration: \(seconds(Double(Swift.max(0, k.hundredths - before)) / 100)), release: \(last ? release : "hold")}"
                             + (n == 0 ? "   # " + comment(parts.count) : ""))
                before = Swift.max(before, k.hundredths)
            }
            return Double(before) / 100
        }
        // A swipe let go from `x` (of the width, where the finger held or the recording found
        // it): the finger's drag through `path` to `letGo` in parts, then NavReel's release back;
        // let go at once (`letGo` at or before the start, where the screen stood), the release alone.
        func writeLetGo(from x: Double, path: [(time: Double, x: Double)], letGo: (time: Double, x: Double),
                        atOnce: String, comment: (Int) -> String) {
            if letGo.time <= 0 {
                let x = (letGo.x * 100).rounded() / 100
                steps.append("swipeBack: {to: \(seconds(x)), duration: 0, release: cancel}   # " + atOnce)
                clock += x * popDuration
            } else {
                clock += writeDrag(dragKnots(path.filter { $0.time > 0 }, from: x, release: letGo), release: "cancel", comment: comment)
                clock += (letGo.x * 100).rounded() / 100 * popDuration
            }
        }
        // A change in parts (`fadeParts`: a bar's, a scroll's), each an `action` step (setBar,
        // scroll) to the value `value` gives for its knot, the keys `last` with the last part; the
        // comment on the first.
        func writeChain(_ action: String, _ parts: [(hundredths: Int, x: Double, linear: Bool)], last others: [String] = [],
                        comment: String, value: (Double) -> String) -> Double {
            var before = 0
            for (n, k) in parts.enumerated() {
                let keys = [value(k.x)] + (n == parts.count - 1 ? others : []) + (action == "setBar" ? ["animated: true"] : [])
                steps.append("\(action): {\(keys.joined(separator: ", ")), duration: \(seconds(Double(k.hundredths - before) / 100))"
                             + (k.linear ? ", curve: linear" : "") + "}" + (n == 0 ? comment : ""))
                before = k.hundredths
            }
            return Double(before) / 100
        }
        func percent(_ f: Double) -> Int { Int((f * 100).rounded()) }
        // A recording that starts on a swipe back under way: the screen there at once, then the
        // finger's drag back through where it was measured, let go where the screen went back as
        // NavReel's release does (`letGoPoint`; the finger's speed in the first frame is not known).
        if !r.openingSwipe.isEmpty, !r.opensHeld, stack.count >= 2 {
            let path = r.openingSwipe, x0 = (path[0].x * 100).rounded() / 100
            steps.append("swipeBack: {to: \(seconds(x0)), duration: 0, release: hold}   # the recording starts on a swipe back under way, the screen \(percent(x0)) % over")
            let letGo = letGoPoint(path, from: 0, stillAtFirst: false, popDuration: popDuration) ?? path.last!
            // (Let go in the first frame: cut just after the finger lifted.)
            writeLetGo(from: x0, path: path, letGo: letGo, atOnce: "let go at once") { n in
                "the finger's drag from there, let go at \(percent(letGo.x)) %" + (n > 1 ? "; its drag in \(n) parts, as measured" : "")
            }
        }
        // (From the motion into the first screen read when the recording starts on a swipe held.)
        for j in ((r.opensHeld && held != nil) ? firstIndex : firstIndex + 1)..<r.rests.count {
            if r.rests[j].held != nil, case .swipeHeld(let to, let duration) = r.movements[j - 1] {
                let motion = r.rests[j - 1].end
                guard stack.count >= 2 else {
                    // The root cannot be swiped back: a screen came over it and stopped part way.
                    steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: \(names[stack.last!]) moved \(percent(to)) % to the trailing side and held, with nothing under it to swipe back to: not written")
                    continue
                }
                wait(until: motion)
                let path = j - 1 < r.paths.count ? r.paths[j - 1] : []
                let knots = dragKnots(path, from: held ?? 0, release: (duration, to))
                if knots.count > 1 {
                    // Not an even drag: in parts through where the screen was measured.
                    clock += writeDrag(knots, release: "hold") { "\(t(motion)) s: the screen went \(percent(to)) % of the way and held still; the finger's drag in \($0) parts, as measured" }
                    held = (to * 100).rounded() / 100
                    continue
                }
                let to = (to * 100).rounded() / 100, drag = (duration * 100).rounded() / 100
                steps.append("swipeBack: {to: \(seconds(to)), duration: \(seconds(drag)), release: hold}   # \(t(motion)) s: the screen went \(percent(to)) % of the way and held still")
                clock += drag
                held = to
                continue
            }
            guard let seen = r.rests[j].screen else { continue }
            // The motion into this rest (after a rest that could not be read, the last motion);
            // a tapped push or pop from where UIKit's curve puts its start (`tappedDelay`).
            let delay = j - 1 < r.delays.count ? r.delays[j - 1] : nil
            let motion = r.rests[j - 1].end + (delay ?? 0)
            let movement = r.movements[j - 1]
            let length = r.rests[j].start - motion
            var screen = alias[seen] ?? seen
            // (A screen on the stack twice, as itself and as a copy: the topmost.)
            if !copyOf.isEmpty, let c = stack.last(where: { base($0) == screen }) { screen = c }
            // A pop from a copy on top to the screen it repeats (or a copy of it further down):
            // the one under the top.
            if movement == .pop, screen == stack.last!, let under = stack.dropLast().last(where: { base($0) == base(screen) }) { screen = under }
            var barChanged: String?
            if case .scroll = movement, screen != stack.last!, !stack.contains(screen) {
                let top = stack.last!
                alias[seen] = top
                if top >= 0, r.readings[base(top)].background == .transparent, r.readings[seen].background != .transparent, scrolled[top] == nil {
                    // UIKit's scroll edge: the bar written is the scrolled one, with its look at the top as `scrollEdge`.
                    scrolled[top] = seen
                    scrolledNow[top] = seen
                    if case .scroll = movement, let alpha = scrollAlphaFit(fade: j - 1 < r.fades.count ? r.fades[j - 1] : [],
                                                                          path: j - 1 < r.scrollPaths.count ? r.scrollPaths[j - 1] : [],
                                                                          from: offsets[top] ?? 0) {
                        var alpha = alpha
                        // A scrolled look that is a colour at part alpha over the picture the
                        // top showed under its bar: the colour, and the alpha the fade stops at.
                        switch r.readings[seen].background {
                        case .solid, .other:
                            if base(top) < r.images.count, seen < r.images.count,
                               let wash = seeThrough(top: r.images[base(top)], scrolled: r.images[seen], rows: 0..<r.readings[base(top)].barRows) {
                                alpha.wash = ScrollAlpha.Wash(color: wash.color, max: wash.alpha)
                            }
                        default: break
                        }
                        var below = ""
                        if !topDifferences(top: r.readings[base(top)], scrolled: r.readings[seen]).isEmpty {
                            // The top's status bar, tint or title: below some alpha (HBD's demo
                            // switches at 0.1), seen where the status bar switched, at the scroll's
                            // offset then.
                            let path = j - 1 < r.scrollPaths.count ? r.scrollPaths[j - 1] : []
                            let from = offsets[top] ?? 0
                            // The content's offset at a moment of the motion, between two frames placed.
                            func offset(_ time: Double) -> Double? {
                                guard let before = path.last(where: { $0.time <= time }), let after = path.first(where: { $0.time >= time }) else { return nil }
                                let u = after.time > before.time ? (time - before.time) / (after.time - before.time) : 0
                                return from + before.offset + (after.offset - before.offset) * u
                            }
                            if let at = j - 1 < r.statusJumps.count ? r.statusJumps[j - 1] : nil, let y = offset(at) {
                                alpha.below = (alpha.alpha(at: y) * 100).rounded() / 100
                                alpha.belowSeen = true
                                below = "; below alpha \(seconds(alpha.below!)) its status bar, tint and title are the top's, as they switched at \(t(motion + at)) s"
                            } else {
                                alpha.below = 0.1
                                below = "; below alpha 0.1 its status bar, tint and title are the top's: where they switched was not seen, 0.1 is HBD's demo's"
                            }
                        }
                        scrollAlpha[top] = alpha
                        let written = alpha.wash.map { "as \(hex($0.color)) at \(seconds($0.max)) over the picture under it, how it looked once scrolled (\(names[seen]))" }
                            ?? "as it looked once scrolled (\(names[seen]))"
                        barChanged = "# \(t(motion)) s: \(names[top])'s bar faded in as its content scrolled, from \(seconds(alpha.start)) to \(seconds(alpha.end)) pt: its bar is written \(written), with `scroll.alpha` fitted to the frames" + below
                    } else {
                        barChanged = "# \(t(motion)) s: \(names[top])'s bar changed as its content scrolled: its bar is written as it looked once scrolled (\(names[seen])), with `scrollEdge` for its look at the top"
                    }
                } else {
                    barChanged = "# \(t(motion)) s: \(names[top])'s bar changed as its content scrolled (\(names[seen]) is how it looked after): scroll.alpha or setBar draws that"
                }
                screen = top
            }
            // A change in place: the bar's look (a setBar), or what NavReel does not draw.
            let top = stack.last!
            switch movement {
            case .inPlace(contentSame: true) where screen == top || !stack.contains(screen):
                // A screen written with its scrolled look (UIKit's scroll edge) shows that look
                // while its content is scrolled: a change then starts from those keys, the ones
                // written, and leaves its scroll edge alone (whether the app changed that too, a
                // scrolled bar does not show). At the top it shows the look read there.
                // (Scrolled: past the 10 pt over which NavReel mixes the two looks.)
                let away = scrolledNow[top].flatMap { (offsets[top] ?? 0) >= 10 ? $0 : nil }
                let from = away ?? look[top] ?? base(top)
                guard seen != from else { break }
                // The keys as written: the scrolled look's, with its scroll edge (none with
                // `scroll.alpha`), until a setBar changes them.
                var state = written[top] ?? scrolled[top].map { s in
                    var keys = keyed(barKeys(r.readings[s]))
                    if scrollAlpha[top] == nil { keys["scrollEdge"] = "scrollEdge: " + scrollEdgeValue(top: r.readings[base(top)], scrolled: r.readings[s]) }
                    return keys
                } ?? keyed(barKeys(r.readings[base(top)]))
                let after = r.readings[seen]
                let fade = j - 1 < r.fades.count ? r.fades[j - 1] : []
                let alpha = alphas[top] ?? 1
                let comment = "   # \(t(motion)) s: \(names[top])'s bar changed in place" + (seen == base(top) ? "" : " (\(names[seen]) is how it looked after)")
                // A flat bar that comes to show the content under it, or back: HBDNavigationBar's
                // barAlpha (the bar's colour kept, its alpha written as the recording shows it).
                // From alpha 0 to any other look, the alpha comes back to 1 (the new background, if
                // it is another, with the last part).
                // (Not for a bar hidden, title and back button too, or shown again: `hidden`
                // draws that, all at once.)
                let target: Double? = switch after.background {
                case _ where after.barHidden || state["hidden"] == "hidden: true": nil
                case .transparent where state["color"] != nil && state["scrollEdge"] == nil: 0
                case .transparent: nil
                default: alpha < 1 ? 1 : nil
                }
                if let target {
                    var others = barKeys(after).filter { (target == 1 || !isBackgroundKey($0)) && !kept($0, in: state)
                        && !(after.background == .transparent && keyName($0) == "shadowHidden") }
                    if target == 1, let c0 = state["color"].flatMap(colorValue), case .solid(let c1) = after.background, near(c0, c1, within: 6) {
                        others.removeAll { isBackgroundKey($0) }
                    }
                    // A light status bar the new look does not have is set back.
                    if state["style"] == "style: black", !after.lightStatusBar { others.append("style: default") }
                    let (start, parts) = fadeParts(fade, length: length)
                    wait(until: motion + start)
                    let values = parts.map { (hundredths: $0.hundredths, x: alpha + (target - alpha) * $0.x, linear: $0.linear) }
                    clock += writeChain("setBar", values, last: others, comment: comment + ", its alpha to \(seconds(target))"
                                        + (values.count > 1 ? " in \(values.count) parts, as measured" : "")) { "alpha: \(seconds(($0 * 100).rounded() / 100))" }
                    for k in others { state[keyName(k)] = k }
                    alphas[top] = target
                    written[top] = state
                    if seen != base(top) { alias[seen] = top }
                    if away != nil { scrolledNow[top] = seen } else { look[top] = seen }
                    continue
                }
                // A key the new look leaves out is set back to NavReel's default.
                let old = Set(state.values)
                var keys = barKeys(after).filter { !old.contains($0) && !kept($0, in: state) }
                // (Given: the keys the new look has, whether or not the old had them too.)
                let given = Set(barKeys(after).map { $0.prefix { $0 != ":" } })
                for k in old.map({ String($0.prefix { $0 != ":" }) }) where !given.contains(Substring(k)) {
                    // (Not again when the default is what the bar has.)
                    switch k {
                    case "style" where state["style"] != "style: default": keys.append("style: default")
                    // (A hidden bar draws no hairline and no scroll edge look: nothing to set back.)
                    case "shadowHidden" where state["shadowHidden"] != "shadowHidden: false" && !after.barHidden: keys.append("shadowHidden: false")
                    // A scroll edge look the new one lacks: the bar's own at the top too (UIKit's
                    // scrollEdgeAppearance set to the standard one). Else it would stay
                    // transparent at the top, where the recording shows the new look.
                    case "scrollEdge" where away == nil && state["scrollEdge"] != "scrollEdge: {}" && !after.barHidden: keys.append("scrollEdge: {}")
                    // A hidden bar that shows a look of its own is shown.
                    case "hidden" where state["hidden"] == "hidden: true": keys.append("hidden: false")
                    default: break
                    }
                }
                let duration = Swift.max(0.05, (length * 100).rounded() / 100)
                if keys.isEmpty {
                    wait(until: motion)
                    steps.append("# \(t(motion)) s: \(names[top])'s bar changed in place (\(names[seen]) is how it looked after), in nothing a bar key writes: not written")
                } else if state["hidden"] != "hidden: true", !after.barHidden, let c0 = state["color"].flatMap(colorValue),
                          case .solid(let c1) = after.background {
                    // One flat colour to another, on the recording's course: the colours between
                    // as measured, the other keys with the last part.
                    let (start, parts) = fadeParts(fade, length: length)
                    wait(until: motion + start)
                    let colour = keys.first { keyName($0) == "color" }
                    let others = keys.filter { keyName($0) != "color" }
                    clock += writeChain("setBar", parts, last: others, comment: comment + (parts.count > 1 ? " in \(parts.count) parts, as measured" : "")) { q in
                        q >= 1 ? colour ?? "color: \"\(hex(c1))\"" : "color: \"\(hex(blend(c0, c1, q)))\""
                    }
                } else {
                    let (start, parts) = fadeParts(fade, length: length)
                    wait(until: motion + start)
                    let whole = parts.count == 1 ? Double(parts[0].hundredths) / 100 : duration
                    steps.append("setBar: {\(keys.joined(separator: ", ")), animated: true, duration: \(seconds(whole))\(parts.count == 1 && parts[0].linear ? ", curve: linear" : "")}" + comment)
                    clock += whole
                }
                for k in keys { state[keyName(k)] = k }
                written[top] = state
                if seen != base(top) { alias[seen] = top }
                // (While scrolled, the look changed is the scrolled one; at the top the bar still
                // shows its scroll edge look.)
                if away != nil { scrolledNow[top] = seen } else { look[top] = seen }
                continue
            case .toBelow where screen == top:
                steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: what covered \(names[top]) went down off the bottom (a modal dismissed): not written")
                continue
            case .inPlace(contentSame: false) where !stack.contains(screen), .fromBelow where !stack.contains(screen), .toBelow where !stack.contains(screen):
                alias[seen] = top
                let what = movement == .fromBelow
                    ? "\(names[seen]) came up from the bottom over \(names[top]) (a modal sheet or cover: NavReel draws navigation, not modals)"
                    : movement == .toBelow ? "\(names[top])'s screen went down off the bottom, uncovering \(names[seen]) (a modal dismissed)"
                    : "\(names[top]) changed in place, its content too (an alert, a keyboard, a sheet?; \(names[seen]) is how it looked)"
                steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: \(what): not written; later rests of \(names[seen]) are taken as \(names[top])")
                continue
            default: break
            }
            if screen == stack.last! {
                switch movement {
                case .swipeCancelled(let to, let at) where stack.count < 2 && held == nil:
                    // Nothing to swipe back to: another screen came over the root and went (a
                    // push and a pop with no rest between, over content that looks alike).
                    steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: \(names[screen]) moved \(percent(to)) % to the trailing side and back, with nothing under it to swipe back to (a screen that came and went without resting?): not written"
                                 + (stack == [root] && !r.readings[root].pushed
                                    ? "; if the recording starts on a pushed screen whose back button does not show (a hidden bar, a custom button), show a root under it and write swipeBack: {to: \(seconds((to * 100).rounded() / 100)), duration: \(seconds(Swift.max(0.05, (at * 100).rounded() / 100))), release: cancel} here" : ""))
                case .swipeCancelled(let to, let at):
                    wait(until: motion)
                    let path = j - 1 < r.paths.count ? r.paths[j - 1] : []
                    // The finger may stay at its furthest before letting go.
                    let release = held == nil ? (path.last { $0.time >= at && $0.x >= to - 0.02 }?.time ?? at) : at
                    // And may drag it back some way first (`letGoPoint`).
                    // After a hold the finger starts where it held the screen: the search starts
                    // there (gradient.gif's drags the photo screen back from 58 % ever faster,
                    // 0.53 at 0.15 s, 0.39 at 0.35 s, 0.26 at 0.45 s, and lets go: 0.075 a frame
                    // later, at rest the frame after).
                    let points = held.map { h in [(time: 0.0, x: h)] + path.filter { $0.time > 0 } } ?? path
                    var letGo = (time: release, x: to), foundAfterHold = false
                    if held != nil {
                        if let found = letGoAfterHold(points, restAt: length, popDuration: popDuration) {
                            letGo = found
                            foundAfterHold = true
                        }
                    } else if let top = points.lastIndex(where: { $0.time <= release }),
                              let found = letGoPoint(points, from: top, stillAtFirst: false, popDuration: popDuration), found.time > release {
                        letGo = found
                    }
                    let parts = held == nil ? dragKnots(points.filter { $0.time > 0 }, from: 0, release: letGo) : []
                    if parts.count > 1 || foundAfterHold {
                        // A drag that was not even: the finger's path in parts, each held then
                        // dragged on; let go where it was held, the release alone.
                        let from = held
                        writeLetGo(from: held ?? 0, path: points, letGo: letGo,
                                   atOnce: "\(t(motion)) s: " + (from.map { "the swipe held at \(percent($0)) % was let go" } ?? "let go at once")) { n in
                            "\(t(motion)) s: " + (from.map { "the swipe held at \(percent($0)) % was dragged on and let go at \(percent(letGo.x)) %" }
                                                   ?? "the screen went \(percent(to)) % of the way and came back")
                                + (n > 1 ? "; the finger's drag in \(n) parts, as measured" : "")
                        }
                        held = nil
                        continue
                    }
                    let to = ((held == nil ? letGo.x : to) * 100).rounded() / 100
                    // A finger held still lets go where it is (NavReel drags on from there).
                    let drag = held != nil ? (at * 100).rounded() / 100 : Swift.max(0.05, (letGo.time * 100).rounded() / 100)
                    steps.append("swipeBack: {to: \(seconds(to)), duration: \(seconds(drag)), release: cancel}   # \(t(motion)) s: "
                        + (held.map { "the swipe held at \(percent($0)) % was let go at \(percent(to)) %" } ?? "the screen went \(percent(to)) % of the way and came back"))
                    clock += drag + to * popDuration
                    held = nil
                case .scroll(let by):
                    // On the course measured: UIKit's ease-in-out when it fits (its start fitted), else
                    // straight parts through where the content was (a finger's drag, a fling's slowing).
                    func clamped(_ y: Double) -> Double { Swift.min(100_000, Swift.max(-300, y)) }
                    let from = offsets[screen] ?? 0, to = clamped(from + by)
                    let path = (j - 1 < r.scrollPaths.count ? r.scrollPaths[j - 1] : []).map { (time: $0.time, q: by != 0 ? $0.offset / by : 0) }
                    let (start, parts) = fadeParts(path, length: length)
                    wait(until: motion + start)
                    if let barChanged { steps.append(barChanged) }
                    clock += writeChain("scroll", parts, comment: "   # \(t(motion)) s: the content moved \(by >= 0 ? "up" : "down") \(seconds(abs(by))) pt"
                                        + (parts.count > 1 ? ", in \(parts.count) parts, as measured" : "")) { x in
                        "to: \(seconds(x >= 1 ? to : clamped((from + by * x).rounded())))"
                    }
                    offsets[screen] = to
                default:
                    if let to = held {
                        wait(until: motion)
                        steps.append("swipeBack: {to: \(seconds(to)), duration: 0, release: cancel}   # \(t(motion)) s: the swipe held at \(percent(to)) % was let go")
                        clock += to * popDuration
                        held = nil
                    } else if case .inPlace(contentSame: false) = movement {
                        steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: \(names[screen])'s content changed in place under the same bar (a keyboard, an alert, a sheet?): not written")
                    } else if movement == .pop {
                        steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: \(names[screen]) left as in a pop, to a screen that looks like it, and none like it is under it (a push of it again that was not seen?): not written")
                    } else if length > 0 {
                        steps.append("# \(t(motion))-\(t(r.rests[j].start)) s: \(names[screen]) changed under the same bar (a change in place, or screens that came and went without resting): not written")
                    }
                }
                continue
            }
            var finished: (to: Double, duration: Double)?
            if stack.lastIndex(of: screen) == stack.count - 2, case .swipeFinished(let to, let duration) = movement { finished = (to, duration) }
            if let to = held, finished == nil {
                // The finger let go where it held (unseen): the top screen came back first.
                wait(until: motion)
                steps.append("swipeBack: {to: \(seconds(to)), duration: 0, release: cancel}   # \(t(motion)) s: the swipe held at \(percent(to)) % was let go, then \(names[screen]) showed")
                clock += to * popDuration
                held = nil
            }
            wait(until: motion)
            var line: String
            if let (to, duration) = finished {
                // A swipe back taken all the way: dragged to `to`, then the rest of the pop (`released`).
                let path = j - 1 < r.paths.count ? r.paths[j - 1] : []
                let parts = held == nil ? dragKnots(path, from: 0, release: (duration, to)) : []
                let to = (to * 100).rounded() / 100, drag = (duration * 100).rounded() / 100
                let why = held != nil ? "the swipe held at \(percent(held!)) % went on to \(names[screen])"
                    : "the screen left to the trailing side in \(t(length)) s, \(fingersPace(length: length, popDuration: popDuration)): a swipe back let go at \(percent(to)) %"
                stack.removeLast()
                held = nil
                if parts.count > 1 {
                    clock += writeDrag(parts, release: "finish") { "\(t(motion)) s: \(why); the finger's drag in \($0) parts, as measured" }
                    clock += (1 - to) * popDuration
                    continue
                }
                line = "swipeBack: {to: \(seconds(to)), duration: \(seconds(drag)), release: finish}   # \(t(motion)) s: " + why
                clock += drag + (1 - to) * popDuration
            } else if movement == .push, stack.contains(screen), base(screen) >= 0 {
                // A push to a screen like one under the top: the app pushed a new screen of the
                // same look (FDFullscreenPopGesture's demo pushes its "forkingdog" screen again
                // from a screen with its bar hidden). A stack holds a screen once: a copy.
                let of = base(screen)
                let copy = names.count
                var name = "\(names[of])-again"
                var k = 2
                while names.contains(name) { name = "\(names[of])-again-\(k)"; k += 1 }
                names.append(name)
                copyOf[copy] = of
                copies.append(Copy(name: name, of: of, why: "a new screen like \(names[of]), pushed at \(t(motion)) s over \(stack.last! >= 0 ? names[stack.last!] : "root")"))
                line = "push: \(name)   # \(t(motion)) s: the screens moved as in a push, to a screen that looks like \(names[of]), under the top: a new one like it"
                stack.append(copy)
                clock += pushDuration
            } else if let depth = stack.lastIndex(of: screen) {
                line = depth == stack.count - 2 ? "pop: {}" : "popTo: \(names[screen])"
                stack.removeSubrange((depth + 1)...)
                clock += popDuration
                var why: [String] = []
                if movement == .push { why.append("the screens moved as in a push, yet \(names[screen]) was under the top") }
                if case .swipeFinished = movement { why.append("the screens moved for \(t(length)) s, \(fingersPace(length: length, popDuration: popDuration)) (a swipe back, to a screen further down?)") }
                line += "   # \(t(motion)) s" + (why.isEmpty ? "" : ": " + why.joined(separator: "; "))
            } else {
                line = "push: \(names[screen])"
                stack.append(screen)
                // A scenario's screen keeps its offset (NavReel's model); an app's new instance of
                // a screen starts at the top.
                if let kept = offsets[screen], kept != 0 {
                    steps.append("# \(names[screen]) is pushed again and NavReel keeps the offset it scrolled to (\(seconds(kept)) pt); where the app's new screen starts at the top, give it a screen of its own")
                }
                clock += pushDuration
                var why: [String] = []
                if movement == .pop { why.append("the screens moved as in a pop, to a screen not seen under this one: is it the root?") }
                if case .swipeFinished = movement { why.append("the screens moved as in a swipe back, to a screen not seen under this one: is it the root, or the one under it looking otherwise?") }
                if length > 1.0 { why.append("the screens moved for \(t(length)) s, longer than a push") }
                line += "   # \(t(motion)) s" + (why.isEmpty ? "" : ": " + why.joined(separator: "; "))
            }
            if let delay {   // (set for a tapped push or pop alone)
                line += (line.hasSuffix(" s") ? ": " : "; ") + "the screen changed \(t(delay)) s before it moved (a button's or a row's highlight?); started where UIKit's curve fits where the screens were"
            }
            steps.append(line)
        }
        // To the last frame: a scenario's frames run from 0 to its end inclusive.
        wait(until: r.length, last: true)
        if let to = held {
            // A run must end with the finger up: the recording ended with it down.
            steps.append("swipeBack: {to: \(seconds(to)), duration: 0, release: cancel}   # the recording ends with the swipe held at \(percent(to)) %: let go after its end, so that the scenario's run ends with the finger up")
        }
        // (A copy is its screen's definition again: what it showed scrolled is that screen's.)
        var scrolledBase: [Int: Int] = [:], alphaBase: [Int: ScrollAlpha] = [:]
        for (k, v) in scrolled.sorted(by: { $0.key < $1.key }) where scrolledBase[base(k)] == nil { scrolledBase[base(k)] = v }
        for (k, v) in scrollAlpha.sorted(by: { $0.key < $1.key }) where alphaBase[base(k)] == nil { alphaBase[base(k)] = v }
        return RecordingScript(steps: steps, scrolled: scrolledBase, scrollAlpha: alphaBase, copies: copies)
    }
}
