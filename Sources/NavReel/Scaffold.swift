import Foundation
import Navigation
import Raster
import Scenario

/// `navreel scaffold`: a first scenario read off screenshots of a real app, one screenshot a
/// screen, so that a user starts from the colours, geometry and bar parts their app shows instead
/// of a blank file. What it reads, where, and how close NavReel's render of the result comes to
/// each screenshot is said beside the file; text is never read (titles and item names are
/// placeholders).
///
/// Geometry is UIKit's, as NavReel draws it (`docs/geometry.md`): the bar's background spans the
/// status bar and the 44 pt bar below it (96 pt with a large title), its hairline in its last
/// pixel row; the back button's chevron starts 8 pt from the leading edge, bar buttons end 8 pt
/// from the trailing one, the title is centred.
public enum Scaffold {
    /// What one screenshot shows.
    public struct Reading: Sendable, Equatable {
        public enum Background: Sendable, Equatable {
            case solid(RGBA8)
            /// Top and bottom colours of the whole bar (status bar included).
            case vertical(RGBA8, RGBA8)
            /// Leading and trailing colours.
            case horizontal(RGBA8, RGBA8)
            /// The bar shows the content under it and no hairline: UIKit's transparent
            /// `scrollEdgeAppearance`, the default since iOS 15 at the top of a scroll view.
            case transparent
            /// A translucent bar: smooth but uneven colour, the blur of the content under it (or
            /// UIKit's default bar over light content, flat #F7F7F8 to #F9F9F9 with a hairline):
            /// NavReel's material, its median for the notes.
            case translucent(RGBA8)
            /// Neither flat nor a gradient NavReel can read (an image, a pattern): the median.
            case other(RGBA8)
        }
        public enum BackButton: Sendable, Equatable { case none, chevron, labelled }

        public var source: String
        public var device: Device
        /// Whether `device` is a custom one measured from the screenshot.
        public var customDevice: Bool
        public var background: Background
        public var lightStatusBar: Bool
        public var titleColor: RGBA8?
        public var largeTitle: Bool
        public var tint: RGBA8?
        public var backButton: BackButton
        /// Whether the trailing side shows a bar button.
        public var rightItem: Bool { rightItems > 0 }
        public var hairline: Bool
        public var content: RGBA8
        /// Whether the content below the bar is one flat colour (no rows or pictures).
        public var contentFlat: Bool
        /// What was read where, and doubts, one line each, for the console and the file.
        public var notes: [String]
        /// The bar's rows in pixels, status bar included: what a render is compared with.
        public var barRows: Int { Int(((device.statusBar + (largeTitle ? 96 : 44)) * device.scale).rounded()) }
        /// Where the screenshot shows text or symbols on the bar, `[minX, minY, maxX, maxY]` in
        /// pixels (inclusive): left out when a render is compared with it.
        public var inkBoxes: [[Int]] = []
        /// Whether the content shows tiles or pictures (a third of it far from its colour).
        public var contentTiled = false
        /// How many bar buttons the trailing side shows (runs of ink 6 pt apart; at most 3).
        public var rightItems = 0
        /// A picture under a transparent bar that goes on below it (HBDNavigationBar's gradient
        /// demo, juejin's collection page): its top and bottom rows' colours, which stand in for
        /// it, and its height in points from the screen's top.
        public var header: Header?
        /// Whether the screenshot was made smaller and is read scaled back up (`Scaling`): its
        /// edges are spread over rows, as a video's codec spreads them.
        public var scaledUp = false
        /// Whether the bar is written hidden (`hidden: true`), as HBDNavigationBar's hidden bar:
        /// a bar that shows nothing of its own (no title, items or back button, the content's
        /// colour) on a first screen a swipe back says was pushed (`markFirstPushed`), on a
        /// screen the recording pushes, or on the look a bar changed to in place (`markHiddenBars`).
        public var barHidden = false
        /// Whether the screen shows it was pushed: a back button, or its bar hidden (read so
        /// because a swipe back moved it, or a push brought it; a look changed to in place has
        /// it too, which only the screen it is a look of uses).
        public var pushed: Bool { backButton != .none || barHidden }
    }

    public struct Header: Sendable, Equatable {
        /// The picture's row colours at 0, 25, 50, 75 and 100 % of its height: a gradient of
        /// them stands in for it (a sunset's band, not only its ends).
        public var colors: [RGBA8]
        public var height: Double
        /// How far the picture moved for each point the content below it scrolled, when a
        /// recording showed it scrolled (`header: {parallax:}`); nil when not seen.
        public var parallax: Double? = nil
    }

    // MARK: Reading

    /// Reads one screenshot: a portrait iPhone screen at its device's pixel size. `device` names
    /// the device (a built-in or a custom one); without it the size chooses a built-in, or a
    /// custom device whose status bar is measured from where the bar ends.
    public static func read(_ image: Image, source: String, device named: Device? = nil, statusBar statusBarGiven: Double? = nil,
                            lossy: Bool = false) throws -> Reading {
        let w = image.width, h = image.height
        if let wrong = sizeError(width: w, height: h, device: named) { throw UsageError("\(source): \(wrong)") }
        var pixels = Pixels(image)
        pixels.lossy = lossy
        var notes: [String] = []
        if let borders = blackBorders(image) {
            notes.append("warning: black borders all along the frame (\(borders)): a letterboxed or padded capture, read as if the borders were the screen's; crop them off (ffmpeg -vf crop=W:H:X:Y) and scale to the device's pixels")
        }
        let device: Device
        var custom = false
        if let named {
            device = named
            custom = Device.named(named.name) == nil
        } else if statusBarGiven == nil, let match = Device.builtIns.first(where: { Int($0.width * $0.scale) == w && Int($0.height * $0.scale) == h }) {
            device = match
            let same = Device.builtIns.filter { $0.name != match.name && $0.width == match.width && $0.height == match.height && $0.scale == match.scale }
            notes.append("\(w) x \(h) px: \(match.name)" + (same.isEmpty ? "" : " (the same screen as \(same.map(\.name).joined(separator: ", ")))"))
        } else {
            let scale = w >= 1000 ? 3 : 2
            guard w % scale == 0, h % scale == 0 else {
                throw UsageError("\(source): \(w) x \(h) px is no built-in device's screen, nor a phone's in whole points at \(scale)x: give an uncropped, upright screenshot (xcrun simctl io booted screenshot shot.png)")
            }
            let k = Double(scale)
            let statusBar: Double, how: String
            if let given = statusBarGiven {
                (statusBar, how) = (given, "as --status-bar gives it")
            } else {
                (statusBar, how) = try measureStatusBar(pixels, scale: k, source: source)
            }
            guard statusBar >= 20, statusBar <= 80 else {
                throw UsageError("\(source): the status bar reads \(fmt(statusBar)) pt (\(how)), outside 20-80 pt; give its height with --status-bar PT")
            }
            device = Device(name: "custom-\(w / scale)x\(h / scale)", width: Double(w / scale), height: Double(h / scale), scale: k, statusBar: statusBar)
            custom = true
            notes.append("\(w) x \(h) px is no built-in device: \(w / scale) x \(h / scale) pt at \(scale)x, the status bar \(fmt(statusBar)) pt, \(how)")
        }
        return try finish(pixels, source: source, device: device, custom: custom, notes: notes)
    }

    /// A screen captured smaller than its device's pixels: a GIF made for a README (HBDNavigationBar's
    /// are an iPhone's 750 x 1334 px at 320 x 569), a recording exported at half size. Its frames
    /// are read scaled back up to the device's pixels (`apply`), where every reading's geometry
    /// lives; what the scaling blurred (hairlines, small text) reads less surely, and the note says so.
    public struct Scaling: Sendable {
        /// The device whose screen the frames show.
        public let device: Device
        /// The frames' size as given.
        public let width: Int, height: Int
        /// What was read, for scaffold's output.
        public let note: String
        /// Rows cut off the top of every frame before it is scaled: a simulator window's title
        /// bar (`windowTitleBar`), 0 for a screen captured alone.
        public var top = 0

        /// Whether the frames are scaled (a window captured at its device's pixels is only cropped).
        public var scales: Bool { width != device.pixelWidth || height - top != device.pixelHeight }

        /// `image` (of the size given) cropped below `top` and scaled to the device's pixels.
        public func apply(_ image: Image) -> Image {
            var image = image
            if top > 0, top < image.height {
                let rowBytes = image.width * 4
                image = Image(width: image.width, height: image.height - top, pixels: Array(image.pixels[(top * rowBytes)...]))
            }
            if image.width == device.pixelWidth, image.height == device.pixelHeight { return image }
            return Self.scaled(image, to: device)
        }

        /// `image` scaled to `device`'s pixels: Raster's bilinear image fill (pixel centres mapped
        /// to pixel centres, 8-bit weights), the same integers on every machine. Bilinear, not
        /// Lanczos: it adds no ringing for the readings to take for ink.
        static func scaled(_ image: Image, to device: Device) -> Image {
            let canvas = Canvas(width: device.pixelWidth, height: device.pixelHeight, scale: 1)
            let rect = Rect(x: 0, y: 0, width: Double(device.pixelWidth), height: Double(device.pixelHeight))
            canvas.fill(rect, .image(ImagePaint(image: image, rect: rect, mode: .stretch)), element: 0)
            return canvas.makeImage()
        }
    }

    /// How a frame smaller than a phone's pixels is read, or nil when it is read as it is (or
    /// cannot be read: `sizeError` says why). A frame is made smaller when it has a built-in's
    /// shape (within 2 px or half a percent of its height: a GIF's height is often rounded to
    /// even), at most 0.8 of its width and at least a fifth, and is no built-in's own size (an
    /// iPhone XR's 828 x 1792 px has an iPhone 14's shape at 0.71 of its width, and is an XR).
    /// With `device` named, it must be that device's shape. Without, the built-ins of its shape
    /// are the candidates; the notched phones' shapes agree within 0.2 %, so among them where the
    /// bar ends (or, where that misses every candidate's by over 3 pt, a header picture's end
    /// perhaps, where its title sits), read off `image` scaled to each, decides: the one whose
    /// status bar that puts nearest its own. `statusBar` (--status-bar) makes the chosen phone's
    /// geometry a custom device with that status bar.
    public static func scaling(for image: Image, device named: Device?, statusBar given: Double? = nil) -> Scaling? {
        let w = image.width, h = image.height
        guard w > 0, h > w else { return nil }
        guard !Device.builtIns.contains(where: { $0.pixelWidth == w && $0.pixelHeight == h }) else { return nil }
        if let screen = screenScaling(for: image, device: named, statusBar: given) { return screen }
        // No screen's shape as it is: a simulator window captured whole, its title bar above the
        // screen (KMNavigationBarTransition's README GIFs: an iPhone 6s simulator's window at 350 x
        // 644 px, the top 20 px its title bar)? The screen below it is read as any screen.
        let devices = named.map { [$0] } ?? (Device.builtIns + [fourInch])
        // Where each phone of the frame's width, at its pixels or made smaller, would start.
        let starts = devices.compactMap { d -> Int? in
            if d.pixelWidth == w { return h - d.pixelHeight }
            guard 5 * w >= d.pixelWidth, Double(w) <= 0.8 * Double(d.pixelWidth) else { return nil }
            return h - Int((Double(w) * d.height / d.width).rounded())
        }
        guard let found = windowTitleBar(image, starts: starts) else { return nil }
        var top = found
        // At its device's pixels (a window at the simulator's pixel-accurate size): cut to the
        // screen's own height, not scaled (a border two rows thick, a 1 pt line at 2x, leaves
        // one row of it above what the rows' colours end at).
        let exact = devices.first { $0.pixelWidth == w && abs($0.pixelHeight - (h - found)) <= 3 }
        if let d = exact { top = h - d.pixelHeight }
        let cut = "\(w) x \(h) px, the top \(top) px a window's title bar (a simulator's window captured whole), cut off"
        if let d = exact {
            let device = given.map { g in g == d.statusBar ? d : Device(name: "custom-\(fmt(d.width))x\(fmt(d.height))", width: d.width, height: d.height, scale: d.scale, statusBar: g) } ?? d
            var s = Scaling(device: device, width: w, height: h, note: cut + ": \(d.name == fourInch.name ? "a 4-inch iPhone" : d.name)'s screen")
            s.top = top
            return s
        }
        let cropped = Image(width: w, height: h - top, pixels: Array(image.pixels[(top * w * 4)...]))
        guard let screen = screenScaling(for: cropped, device: named, statusBar: given) else { return nil }
        var s = Scaling(device: screen.device, width: w, height: h, note: cut + "; " + screen.note)
        s.top = top
        return s
    }

    /// The rows of a window's title bar above a screen, or nil: from the top, rows whose median
    /// colour is a grey (channels within 12 levels) and within 16 levels of the row above, over a
    /// third of each row within 24 levels of it (the traffic lights and the window's title cover
    /// the rest: 41 % of KMNavigationBarTransition's 350 px window), at least 8 of them and at
    /// most a tenth of the height (or, where grey rows go on, a phone's start among `starts`);
    /// then a border line and a row the capture's scaling blended, cut too. macOS draws a window's title
    /// bar as a light grey gradient, or a dark one in Dark Mode. `scaling` uses it only where what
    /// is left has a phone's shape and the frame as it is has none.
    public static func windowTitleBar(_ image: Image, starts: [Int] = []) -> Int? {
        let w = image.width, h = image.height
        guard w >= 16, h >= 80 else { return nil }
        func median(_ y: Int) -> (c: [Int], flat: Double) {
            var c = [0, 0, 0]
            for ch in 0..<3 {
                var values = (0..<w).map { Int(image.pixels[(y * w + $0) * 4 + ch]) }
                values.sort()
                c[ch] = values[w / 2]
            }
            var near = 0
            for x in 0..<w {
                let i = (y * w + x) * 4
                if (0..<3).allSatisfy({ abs(Int(image.pixels[i + $0]) - c[$0]) <= 24 }) { near += 1 }
            }
            return (c, Double(near) / Double(w))
        }
        func grey(_ c: [Int]) -> Bool { c.max()! - c.min()! <= 12 }
        func close(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 16 } }
        var previous: [Int]?
        var end = 0
        while end < h / 10 {
            let (c, flat) = median(end)
            guard grey(c), flat >= 0.35, previous.map({ close($0, c) }) ?? true else { break }
            previous = c
            end += 1
        }
        // Grey rows all the way down a tenth: a grey bar or status bar right under the title
        // bar. Where a phone of the frame's width would start (`starts`), if that is in them.
        if end >= h / 10 { return starts.filter { $0 >= 8 && $0 <= end }.min() }
        guard end >= 8 else { return nil }
        // The first row that is not the title bar is the screen's, unless it differs from the
        // next by over 24 levels: a border line, cut. Then a row far from both its neighbours
        // (half the border and half the screen: the capture's scaling blends them;
        // KMNavigationBarTransition's GIFs show both) is cut too; a screen's first row, which a
        // GIF's dither or the status bar's edge sets apart from its second by less, is not.
        func far(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).contains { abs($0 - $1) > 24 } }
        let rows = (0..<3).map { median(Swift.min(h - 1, end + $0)).c }
        guard far(rows[0], rows[1]) else { return end }
        return far(rows[1], rows[0]) && far(rows[1], rows[2]) ? end + 2 : end + 1
    }

    /// A 4-inch iPhone's geometry, which no built-in has: the iPhone 5, 5s and the first iPhone SE,
    /// 320 x 568 pt at 2x under a 20 pt status bar (Apple's "iOS Device Compatibility Reference").
    /// Its shape is the iPhone SE's (375 x 667 pt) within 0.2 %, so a README's GIF of either
    /// (navigation libraries of 2014-2017 show these simulators: RTRootNavigationController's
    /// 320 x 568 px) is told apart by where its bar sits, as the notched phones are; the iPhone SE
    /// stays the choice when that cannot be read.
    public static let fourInch = Device(name: "custom-320x568", width: 320, height: 568, scale: 2, statusBar: 20)

    /// `scaling` for a frame that is a screen alone (no window around it).
    static func screenScaling(for image: Image, device named: Device?, statusBar given: Double?) -> Scaling? {
        let w = image.width, h = image.height
        guard w > 0, h > w else { return nil }
        // Of the device's shape, between a fifth and 0.8 of its width: larger, it is another
        // phone's screen (an iPhone X's 1125 px against an iPhone 14's 1170); smaller, a bar's
        // text is a few pixels and nothing of it reads (HBDNavigationBar's GIFs are 0.43 of an
        // iPhone 6's).
        // (Within 2 px or 1 % of its height: a GIF's height is often rounded to even, and a GIF
        // cropped by hand loses a few rows or columns: FDFullscreenPopGesture's snapshot1.gif is
        // 368 x 658 px, 3.4 px taller than an iPhone 6's shape at its width.)
        func off(_ d: Device) -> Double { Double(h) - Double(w) * d.height / d.width }
        func shaped(_ d: Device) -> Bool {
            let tw = Double(d.pixelWidth)
            return abs(off(d)) <= Swift.max(2, 0.01 * Double(h)) && Double(5 * w) >= tw && Double(w) <= 0.8 * tw
        }
        func hedge(_ d: Device) -> String {
            let stretched = abs(off(d)) > 2 ? "; its height is \(fmt((abs(off(d)) * 10).rounded() / 10)) px \(off(d) > 0 ? "more" : "less") than the screen's shape at its width (cropped by hand?), stretched to it" : ""
            return "scaled up \(fmt((Double(d.pixelWidth) / Double(w) * 100).rounded() / 100))x to read\(stretched); hairlines and small text read less surely than on an unscaled screenshot"
        }
        func called(_ d: Device) -> String { d.name == fourInch.name ? "a 4-inch iPhone" : d.name }
        // With --status-bar, the phone's geometry under the status bar given.
        func withStatusBar(_ d: Device) -> (Device, String) {
            guard let given, given != d.statusBar else { return (d, "") }
            return (Device(name: "custom-\(fmt(d.width))x\(fmt(d.height))", width: d.width, height: d.height, scale: d.scale, statusBar: given),
                    " (\(d.name)'s geometry, the status bar \(fmt(given)) pt as --status-bar gives it)")
        }
        func pixelSize(_ d: Device) -> String { "\(d.pixelWidth) x \(d.pixelHeight) px" }
        if let named {
            guard shaped(named) else { return nil }
            return Scaling(device: named, width: w, height: h, note: "\(w) x \(h) px: \(called(named))'s screen (\(pixelSize(named))) made smaller, " + hedge(named))
        }
        // One device of each geometry, in the built-ins' order.
        var candidates: [Device] = []
        for d in Device.builtIns + [fourInch] where shaped(d) && !candidates.contains(where: { $0.width == d.width && $0.height == d.height && $0.scale == d.scale && $0.statusBar == d.statusBar }) {
            candidates.append(d)
        }
        guard let first = candidates.first else { return nil }
        var chosen = first, how = ""
        if candidates.count > 1, let given {
            // The status bar is given: the phone of this shape whose own is nearest it.
            chosen = candidates.min { abs($0.statusBar - given) < abs($1.statusBar - given) }!
            how = ", the phone of its shape whose status bar is nearest --status-bar's"
        } else if candidates.count > 1 {
            // Each candidate's status bar against the one measured off the frame at its size: the
            // bar's lower edge, where it shows one, in the candidate's points (to a pixel, not
            // rounded to a point as `measureStatusBar` gives it), else the titles. An iPhone 14's
            // 47 + 44 pt and an iPhone X's 44 + 44 pt are half a point apart at either's shape,
            // less than the blur of a capture made a third its size moves the edge found (a pixel
            // or two at 3x): those two are not told apart, and the note names the other.
            func misses(edges: Bool) -> [(device: Device, miss: Double?)] {
                candidates.map { d -> (device: Device, miss: Double?) in
                    // (Read as a video's frame is: the scaling spreads an edge over rows, as a codec does.)
                    var pixels = Pixels(Scaling.scaled(image, to: d))
                    pixels.lossy = true
                    if edges {
                        guard let bottom = barBottom(pixels, scale: d.scale) else { return (d, nil) }
                        let edge = Double(bottom) / d.scale
                        return (d, Swift.min(abs(edge - d.statusBar - 44), abs(edge - d.statusBar - 96)))
                    }
                    return (d, (try? measureStatusBar(pixels, scale: d.scale, source: "").0).map { abs($0 - d.statusBar) })
                }
            }
            func best(_ m: [(device: Device, miss: Double?)]) -> (device: Device, miss: Double)? {
                m.compactMap { x in x.miss.map { (x.device, $0) } }.min { $0.1 < $1.1 }.flatMap { $0.1 <= 3 ? $0 : nil }
            }
            // (An edge that misses every candidate by over 3 pt is no bar's: a header picture's end.)
            var measured = misses(edges: true)
            if best(measured) == nil { measured = misses(edges: false) }
            if let top = best(measured) {
                chosen = top.device
                let alike = measured.filter { $0.device.name != chosen.name && $0.miss.map { abs($0 - top.miss) < 1 } == true }.map { called($0.device) }
                how = ", told from the phones of its shape by where its bar sits (status bar \(fmt(chosen.statusBar)) pt)" + (alike.isEmpty ? "" : "; \(alike.joined(separator: ", ")) would put it within a point too: --device names the phone" + (alike.contains(called(fourInch)) ? " (4-inch for that one)" : ""))
            } else {
                how = "; \(candidates.dropFirst().map(called).joined(separator: ", ")) \(candidates.count == 2 ? "has" : "have") its shape too, and its status bar could not be measured: --device names the phone" + (candidates.contains { $0.name == fourInch.name } ? " (4-inch for a 4-inch iPhone)" : "")
            }
        }
        let (device, custom) = withStatusBar(chosen)
        return Scaling(device: device, width: w, height: h,
                       note: "\(w) x \(h) px: \(called(chosen))'s screen (\(pixelSize(chosen))\(chosen.name == fourInch.name ? ", 320 x 568 pt at 2x: an iPhone 5, 5s or the first SE" : "")) made smaller\(how)\(custom); " + hedge(chosen))
    }

    /// Why a frame of `width` x `height` px cannot be a screen scaffold reads (of `device` when
    /// named), or nil: what any frame of a recording is held to before its rests are read.
    public static func sizeError(width w: Int, height h: Int, device named: Device?) -> String? {
        guard w > 0, h > 0 else { return "the image is empty" }
        // The narrowest phone NavReel knows is 375 pt at 2x (the iPhone SE); a 320 pt one would be 640 px.
        guard named != nil || min(w, h) >= 640 else {
            let smaller = h > w ? ", nor a built-in phone's screen made smaller, which scaffold scales back up (of its shape, a fifth to 0.8 of its width)" : ""
            return "\(w) x \(h) px is too small for a phone's screen at its pixel size (an iPhone SE's is 750 x 1334)\(smaller); give an unscaled screenshot or recording (xcrun simctl io booted screenshot shot.png, or recordVideo rec.mov), or scale it to the device's pixels"
        }
        guard h > w else {
            return "\(w) x \(h) px is not a portrait screen; scaffold reads portrait screenshots (landscape hides the status bar and shortens the bar)"
        }
        if let named, named.pixelWidth != w || named.pixelHeight != h {
            return "\(w) x \(h) px is not \(named.name)'s screen (\(fmt(named.width)) x \(fmt(named.height)) pt at \(fmt(named.scale))x = \(named.pixelWidth) x \(named.pixelHeight) px)"
        }
        return nil
    }

    /// The black borders of a letterboxed or padded frame ("left 60 px, right 60 px"): both sides
    /// (or top and bottom) at least 4 px of columns (rows) with every pixel within 12 levels of
    /// black. A phone's own screen reaches its edges: a dark app's bar has its title and status
    /// bar text, so no column of it is black all the way down, but its content may be black.
    static func blackBorders(_ image: Image) -> String? {
        let w = image.width, h = image.height
        func dark(_ x: Int, _ y: Int) -> Bool {
            let i = (y * w + x) * 4
            return image.pixels[i] <= 12 && image.pixels[i + 1] <= 12 && image.pixels[i + 2] <= 12
        }
        func columns(_ xs: StrideTo<Int>) -> Int {
            var n = 0
            for x in xs {
                guard stride(from: 0, to: h, by: 2).allSatisfy({ dark(x, $0) }) else { break }
                n += 1
            }
            return n
        }
        func rows(_ ys: StrideTo<Int>) -> Int {
            var n = 0
            for y in ys {
                guard stride(from: 0, to: w, by: 2).allSatisfy({ dark($0, y) }) else { break }
                n += 1
            }
            return n
        }
        let left = columns(stride(from: 0, to: w / 4, by: 1)), right = columns(stride(from: w - 1, to: w - w / 4, by: -1))
        let top = rows(stride(from: 0, to: h / 4, by: 1)), bottom = rows(stride(from: h - 1, to: h - h / 4, by: -1))
        var sides: [String] = []
        if left >= 4, right >= 4 { sides += ["left \(left) px", "right \(right) px"] }
        if top >= 4, bottom >= 4 { sides += ["top \(top) px", "bottom \(bottom) px"] }
        return sides.isEmpty ? nil : sides.joined(separator: ", ")
    }

    /// The status bar of a phone NavReel does not build in, from where its bar shows it: a large
    /// title's bar ends 96 pt below it; a centred title's top puts the bar's centre 22 pt below it
    /// (`titleCentre`); a bar ends 44 pt below it. Where the edge and the title agree within 2 pt
    /// the edge wins (it is exact); where they do not, the title (a bar of another height, as iOS
    /// 26's is taller, keeps its items' row under the status bar). A transparent bar shows no edge:
    /// its title alone. Returns the height and how it was read.
    static func measureStatusBar(_ p: Pixels, scale k: Double, source: String) throws -> (Double, String) {
        let w = p.width
        func px(_ pt: Double) -> Int { Int((pt * k).rounded()) }
        func one(_ v: Double) -> String { fmt((v * 10).rounded() / 10) }
        let bottom = barBottom(p, scale: k)
        // The search starts below a home-button phone's status bar (its clock is centred).
        let top = px(22), end = bottom.map { $0 - px(2) } ?? px(170)
        let from = bottom.map { max(top, $0 - px(60)) } ?? top
        // Lines of ink across the whole width, from the top down (a notched phone's status bar
        // text comes first where the bar shows no edge): the first that is a large title (from the
        // leading margin, 20 pt or taller) or a centred title.
        var y = from, looked = 0
        while y < end, looked < 12, let line = p.firstLine(rows: y..<end, cols: 0..<w) {
            looked += 1
            y = max(line.upperBound, y + 1)
            guard let ink = p.ink(rows: line, cols: 0..<w) else { continue }
            // (23 pt: a back chevron, also at the leading margin, is about 20 pt tall; a large
            // title's capitals 24 pt and more.)
            if ink.run >= px(23), ink.box.minX <= px(26) {
                if let bottom {
                    let edge = Double(bottom) / k
                    return ((edge - 96).rounded(), "measured from the large-title bar's lower edge at y \(bottom) px (96 pt below the status bar)")
                }
                let sb = (Double(line.lowerBound) / k - largeTitleTop).rounded()
                return (sb, "measured from the large title, whose top is \(one(largeTitleTop)) pt below the status bar in NavReel's bar (within a point; the bar shows no edge)")
            }
            // A centred title: ink in the middle 140 pt (or, beside a button, 70 pt) whose extent is
            // centred on the screen within 16 (8) pt.
            let centred = [(70.0, 16.0), (35.0, 8.0)].lazy.compactMap { half, slack -> Ink? in
                guard let mid = p.ink(rows: line, cols: max(0, w / 2 - px(half))..<min(w, w / 2 + px(half))), mid.run < px(20),
                      abs(Double(mid.box.minX + mid.box.maxX + 1) / 2 - Double(w) / 2) <= Double(px(slack)) else { return nil }
                return mid
            }.first
            if let title = centred {
                let barCentre = titleCentre(top: title.box.minY, scale: k)
                let byTitle = (barCentre - 22).rounded()
                guard let bottom else {
                    return (byTitle, "measured from the title, whose top puts the bar's centre at y \(one(barCentre)) pt (22 pt below the status bar; within a point; the bar shows no edge)")
                }
                let edge = Double(bottom) / k
                if abs(edge - 44 - byTitle) <= 2 {
                    return ((edge - 44).rounded(), "measured from the bar's lower edge at y \(bottom) px (44 pt below the status bar; its title agrees)")
                }
                return (byTitle, "measured from the title, whose top puts the bar's centre at y \(one(barCentre)) pt (22 pt below the status bar; within a point); the bar ends at y \(one(edge)) pt, \(fmt((edge - byTitle - 44).rounded())) pt lower than UIKit's 44 pt bar puts it (iOS 26's bar is taller): NavReel draws the 44 pt bar")
            }
        }
        guard let bottom else {
            throw UsageError("\(source): \(w) x \(p.height) px is no built-in device's screen, and neither the bar's lower edge (no hairline, the bar has the content's colour) nor a title shows where the status bar ends; give its height with --status-bar PT")
        }
        return ((Double(bottom) / k - 44).rounded(), "measured from the bar's lower edge at y \(bottom) px (44 pt below the status bar)")
    }

    /// How far below the status bar a large title's ink starts in NavReel's bar: its 34 pt bold
    /// title's capitals 55.0 pt on every device, an i's dot 53.5-53.7 pt (measured on its renders).
    /// Most titles start with a capital; a reading from it is within a point.
    static let largeTitleTop = 54.6

    /// The reading once the device is known.
    static func finish(_ pixels: Pixels, source: String, device: Device, custom: Bool, notes: [String]) throws -> Reading {
        var notes = notes
        let w = pixels.width, h = pixels.height
        let s = device.scale, sb = device.statusBar
        func px(_ pt: Double) -> Int { Int((pt * s).rounded()) }

        // A large title: tall ink starting at the leading margin in the 52 pt below the small bar.
        let extensionRows = px(sb + 44 + 4)..<px(sb + 96 - 4)
        let largeInk = pixels.ink(rows: extensionRows, cols: span(px(10), w / 2))
        // ...over the bar's own background, which goes on below the small bar (its colour, or the
        // content's for a transparent bar: the same in both bands).
        let bandMedian = pixels.median(rows: px(sb)..<px(sb + 44) - 1, cols: 0..<w)
        let extensionMedian = pixels.median(rows: extensionRows, cols: 0..<w)
        var largeTitle = (largeInk.map { $0.run >= px(20) && $0.box.minX <= px(26) } ?? false) && distance(bandMedian, extensionMedian) <= 4
        // ...unless the band is a picture that goes on below the small bar and ends as a header
        // picture does, well below where a large title's bar would (juejin.gif's blurred photo,
        // whose avatar and name sit at the leading margin): the picture's own text, under a small
        // bar. (A picture: its rows are not one colour; a large title's bar over a list is.)
        // Not when the rows change all across where a large title's bar ends (`barBottom`): a
        // large-title bar with an image or a blur of its own, whose soft edge `headerBelow` runs
        // past, is that bar.
        let firstChange = barBottom(pixels, scale: s)
        // ...and not when the rows change all across where the small bar ends: a bar of 44 pt
        // with its hairline or edge, and a list's first row's label under it at the leading
        // margin (FDFullscreenPopGesture's snapshot0.gif: white bar, hairline, white table, "Push").
        // A large title's bar goes on in its colour past that row.
        if largeTitle, let edge = firstChange, abs(edge - px(sb + 44)) <= Swift.max(2, Int(s)) * (pixels.lossy ? 2 : 1) {
            largeTitle = false
        }
        if largeTitle {
            let smallBottom = px(sb + 44)
            let bandRowMedians = stride(from: px(sb), to: smallBottom - px(2), by: Swift.max(1, Int(s))).map { pixels.median(rows: $0..<$0 + 1, cols: 0..<w) }
            let largeEdge = firstChange.map { abs($0 - px(sb + 96)) <= Swift.max(2, Int(s)) } ?? false
            if !largeEdge, spread(bandRowMedians) > 4, let end = headerBelow(pixels, from: smallBottom, scale: s), end > px(sb + 96 + 8) {
                largeTitle = false
            }
        }
        let barHeight = sb + (largeTitle ? 96 : 44)
        let bottomPx = px(barHeight)             // exclusive: the bar's rows are 0..<bottomPx
        let hairlineRow = bottomPx - 1
        let bandRows = px(sb)..<px(sb + 44) - 1  // the small bar's rows, without a hairline

        // The content just below the bar, and further down.
        // The content's own colour shows at its edges (a grouped list's background beside its
        // inset cells, a plain table's cells reach both edges): the outer 6 pt of each side over the
        // 200 pt below the bar.
        let contentRows = min(h - 1, bottomPx + px(4))..<min(h, bottomPx + px(200))
        let leading = pixels.median(rows: contentRows, cols: 0..<px(6)), trailing = pixels.median(rows: contentRows, cols: (w - px(6))..<w)
        let content = distance(leading, trailing) <= 4 ? leading : pixels.median(rows: contentRows, cols: 0..<w)
        var contentFlat = true
        for f in [0.35, 0.55, 0.75, 0.9] {
            let y = Int(Double(h) * f)
            let m = pixels.median(rows: y..<min(h, y + px(20)), cols: 0..<w)
            if distance(m, content) > 4 || pixels.ink(rows: y..<min(h, y + px(20)), cols: 0..<w, threshold: 24) != nil { contentFlat = false }
        }
        // Tiles or pictures: a third of the content's pixels far from its colour.
        var far = 0, seen = 0
        for y in stride(from: contentRows.lowerBound, to: min(h, contentRows.lowerBound + px(400)), by: max(1, Int(s))) {
            for x in stride(from: 0, to: w, by: max(1, Int(s))) {
                seen += 1
                if distance(pixels.at(x, y), content) > 40 { far += 1 }
            }
        }
        let contentTiled = seen > 0 && far * 3 > seen

        // The hairline: a row darker than the bar above it and the content below it.
        // UIKit's shadow view hangs below the bar's bounds, NavReel draws it in the bar's last row:
        // either row.
        // Per pixel, so that content of any colour below it (tiles, a photo) does not hide it: most
        // of the row darker than the bar 2 px above it, and a row unlike the one below it.
        func isLine(_ y: Int) -> Bool {
            guard y >= 2, y + 3 <= h else { return false }
            var darker = 0, unlike = 0
            for x in 0..<w {
                let line = luma(pixels.at(x, y))
                if line + 3 < luma(pixels.at(x, y - 2)) { darker += 1 }
                if distance(pixels.at(x, y), pixels.at(x, y + 1)) > 3 { unlike += 1 }
            }
            return darker * 10 >= w * 8 && unlike * 2 >= w
        }
        // Within a point of where the device puts it (a status bar measured a point off).
        let lineRow = (max(2, hairlineRow - px(1))...(hairlineRow + px(1))).sorted { abs($0 - hairlineRow) < abs($1 - hairlineRow) }.first(where: isLine)
        let hairline = lineRow != nil

        // The background: row medians down the whole bar, column medians across the small bar.
        // (Without the last 2 pt: a hairline drawn soft by a scaled capture would read as a gradient.)
        let rows = 0..<max(1, hairlineRow - px(2))
        let rowMedians = rows.map { pixels.median(rows: $0..<$0 + 1, cols: 0..<w) }
        // (Columns over the whole bar, status bar included: an item, even a tall custom back
        // button, covers less than half of a column's rows.)
        let colMedians = (0..<w).map { pixels.median(rows: rows, cols: $0..<$0 + 1) }
        var background: Reading.Background
        let whole = pixels.median(rows: bandRows, cols: 0..<w)
        let rowSpread = spread(rowMedians), edgeStart = Int(Double(w) * 0.03), edgeEnd = Int(Double(w) * 0.97)
        // How the bar's two ends differ: its first and last 3 % of columns (a vertical
        // gradient's columns all read its middle colour).
        let edge = max(1, w * 3 / 100)
        let across = distance(average(colMedians[w / 100..<w / 100 + edge]), average(colMedians[(w - w / 100 - edge)..<(w - w / 100)]))
        // How the bar's top and bottom differ, column by column (a horizontal gradient's columns
        // each stay flat): the median over sixteen columns of the small bar's first and last rows
        // (below the status bar's text and, on a recording of the simulator's window, its island).
        let downs = (0..<16).map { k -> Int in
            let x = Int(Double(w) * (0.02 + 0.96 * Double(k) / 15))
            return distance(pixels.at(x, bandRows.lowerBound + 1), pixels.at(x, max(1, hairlineRow - px(2))))
        }.sorted()
        let down = downs[8]
        // How rough the bar is: the mean second difference between neighbouring pixels along each
        // row and down each column (a straight ramp, however steep, has none but its rounding's,
        // under a level; a blur little more), the median over rows and over columns (most rows no
        // text crosses), the larger of the two. An image's texture, wood's grain, a photo's
        // detail step by more.
        func second(_ a: RGBA8, _ b: RGBA8, _ c: RGBA8) -> Int {
            max(abs(Int(a.r) - 2 * Int(b.r) + Int(c.r)), abs(Int(a.g) - 2 * Int(b.g) + Int(c.g)), abs(Int(a.b) - 2 * Int(b.b) + Int(c.b)))
        }
        func median(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.sorted()[v.count / 2] }
        // Text is left out: a step touching a pixel more than 40 levels from its row's median.
        // (Near its row's median or its column's: a horizontal gradient's pixels are near the
        // second.)
        func plain(_ x: Int, _ y: Int) -> Bool {
            let c = pixels.at(x, y)
            return distance(c, rowMedians[y - rows.lowerBound]) <= 40 || distance(c, colMedians[x]) <= 40
        }
        // Along row y: the mean second difference over the runs of three pixels `keep` keeps,
        // and how many runs it left out.
        func alongRow(_ y: Int, keep: (Int) -> Bool) -> (mean: Double, left: Int) {
            var sum = 0, n = 0, left = 0
            for x in 1..<max(1, w - 1) {
                guard keep(x - 1), keep(x), keep(x + 1) else { left += 1; continue }
                sum += second(pixels.at(x - 1, y), pixels.at(x, y), pixels.at(x + 1, y)); n += 1
            }
            return (Double(sum) / Double(max(1, n)), left)
        }
        let along = stride(from: rows.lowerBound, to: rows.upperBound, by: 2).map { y in alongRow(y) { plain($0, y) }.mean }
        let downward = stride(from: 0, to: w, by: 3).map { x -> Double in
            var sum = 0, n = 0
            for y in (rows.lowerBound + 1)..<max(rows.lowerBound + 1, rows.upperBound - 1) where plain(x, y - 1) && plain(x, y) && plain(x, y + 1) {
                sum += second(pixels.at(x, y - 1), pixels.at(x, y), pixels.at(x, y + 1)); n += 1
            }
            return Double(sum) / Double(max(1, n))
        }
        // A pattern of strong contrast is mostly "text" by that rule: more than a fifth of the
        // bar's pixels far from their row's median is an image, whatever its steps.
        var farPixels = 0, sampled = 0
        for y in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) {
            for x in stride(from: 0, to: w, by: 2) { sampled += 1; if !plain(x, y) { farPixels += 1 } }
        }
        let rough = farPixels * 5 > sampled ? 99 : max(median(along), median(downward))
        // UIKit's default bar over light content, as NavReel's light material draws it (#F7F7F8
        // over white) and iOS 13-18 show it (about #F9F9F9).
        let defaultBar = hairline && luma(content) > 240 && (distance(whole, RGBA8(0xF7, 0xF7, 0xF8)) <= 1 || distance(whole, RGBA8(0xF9, 0xF9, 0xF9)) <= 1)
        // A bar with no edge: the colour just above its bottom goes on below it, with no hairline
        // (UIKit's transparent bar at the top of its content, whatever the content below shows).
        let justBelow = pixels.median(rows: min(h - 1, bottomPx)..<min(h, bottomPx + px(2)), cols: 0..<w)
        // A plain table's first cell can start right at the bar's bottom, so a flat bar of a system
        // background colour with no hairline counts too: the default since iOS 15, and what an
        // opaque bar of that colour shows at rest alike.
        let systemBackgrounds = [RGBA8(255, 255, 255), RGBA8(0xF2, 0xF2, 0xF7), RGBA8(0xEF, 0xEF, 0xF4), RGBA8(0, 0, 0), RGBA8(0x1C, 0x1C, 0x1E)]
        let noEdge = !hairline && (distance(whole, justBelow) <= 3 || systemBackgrounds.contains { distance($0, whole) <= 1 })
        // A picture that goes on below the bar, with no edge or hairline between: a transparent
        // bar over a header image (`header`), read as such rather than as the bar's own image.
        var header: (colors: [RGBA8], end: Int)?
        // (The first lasting change below 60 pt, `barBottom`, is then the picture's end, not the bar's;
        // where no picture is read, it is the bar's edge the warning below checks.)
        // A picture: textured, or varying smoothly as no straight gradient does (a blurred photo:
        // juejin.gif's, under a bar with no background of its own).
        let flat = rowSpread <= 4 && across <= 4
        let straight = (across <= 4 && (fit(rowMedians, positions: rows.map { (Double($0) + 0.5) / Double(bottomPx) })?.2 ?? 99) <= 5)
            || (down <= 4 && (fit(Array(colMedians[edgeStart..<edgeEnd]), positions: (edgeStart..<edgeEnd).map { (Double($0) + 0.5) / Double(w) }, percentile: 0.9)?.2 ?? 99) <= 5)
        // A picture goes on below the bar as it is in the bar: the rows 2-20 pt below it are no
        // sharper than the bar (three times its roughness, at least 8 levels: a photo whose sky
        // fills the bar may have more detail below it, a blur's content far more), text and the picture's
        // own avatar or name left out as in the bar (pixels 40 levels from their row's median;
        // a row mostly so is rough). A translucent bar's blur over sharp, varied content, or a
        // gradient of several stops over a photo, is no picture.
        let belowRows = Swift.min(h, bottomPx + px(2))..<Swift.min(h, bottomPx + px(20))
        let belowRough = stride(from: belowRows.lowerBound, to: belowRows.upperBound, by: 2).map { y -> Double in
            let m = pixels.median(rows: y..<y + 1, cols: 0..<w)
            let row = alongRow(y) { distance(pixels.at($0, y), m) <= 40 }
            return row.left * 2 > w ? 99 : row.mean
        }
        let smoothBelow = median(belowRough) <= Swift.max(8, 3 * rough)
        if rough >= 1.5 || (!flat && !straight), !hairline, smoothBelow, firstChange.map({ abs($0 - bottomPx) > Int(s) }) ?? true,
           let found = headerBelow(pixels, from: bottomPx, scale: s) {
            // Each a 4 pt band's median, within the picture.
            let band = px(4)
            let colors = [0.0, 0.25, 0.5, 0.75, 1.0].map { f -> RGBA8 in
                let y = Swift.min(found - px(2) - band, Swift.max(0, Int(Double(found) * f) - band / 2))
                return pixels.median(rows: y..<y + band, cols: 0..<w)
            }
            header = (colors, found)
        }
        if let header {
            background = .transparent
            notes.append("the bar shows a picture that goes on below it, with no edge or hairline, to y \(header.end) px: a transparent bar over a header image (HBDNavigationBar's barAlpha 0, UIKit's transparent appearance). A gradient of its colours (\(header.colors.map(hex).joined(separator: ", "))) stands in for the picture; give yours as `header: {image: ...}`. Its back button and bar buttons are read where they stand out from it; its title is not")
        } else if rough >= 1.5 {
            background = .other(whole)
            notes.append("bar background is an image or a pattern (" + (rough >= 99 ? "a fifth of it far from its rows' colour" : "its texture steps \(String(format: "%.1f", rough)) levels from pixel to pixel, a blur or a gradient under 1.5") + "): \(hex(whole)) stands in for it; give your image as `image:`. Items are not read over it")
        } else if rowSpread <= 4 && across <= 4 && noEdge {
            background = .transparent
            notes.append("the bar shows the colour of the content under it (\(hex(whole))), with no edge or hairline: a transparent bar at the top of its content (UIKit's scrollEdgeAppearance since iOS 15)")
        } else if rowSpread <= 4 && across <= 4 && defaultBar {
            background = .translucent(whole)
            notes.append("bar background \(hex(whole)) with a hairline over light content: UIKit's default translucent bar, written as NavReel's (its blur of what scrolls under it)")
        } else if rowSpread <= 4 && across <= 4 {
            background = .solid(whole)
            notes.append("bar background \(hex(whole)), flat (rows 0-\(hairlineRow - 1) px within \(rowSpread) levels)")
        } else if across <= 4, let (top, bottom, worst) = fit(rowMedians, positions: rows.map { (Double($0) + 0.5) / Double(bottomPx) }), worst <= 5 {
            background = distance(top, bottom) <= 2 ? .solid(whole) : .vertical(top, bottom)
            notes.append(distance(top, bottom) <= 2 ? "bar background \(hex(whole)), flat" : "bar background: a vertical gradient \(hex(top)) to \(hex(bottom)) over the whole bar (0-\(bottomPx) px), within \(worst) levels")
        } else if down <= 4, let (left, right, worst) = fit(Array(colMedians[edgeStart..<edgeEnd]), positions: (edgeStart..<edgeEnd).map { (Double($0) + 0.5) / Double(w) }, percentile: 0.9), worst <= 5 {
            background = distance(left, right) <= 2 ? .solid(whole) : .horizontal(left, right)
            notes.append(distance(left, right) <= 2 ? "bar background \(hex(whole)), flat" : "bar background: a horizontal gradient \(hex(left)) to \(hex(right)), within \(worst) levels over 90 % of its columns")
        } else {
            background = .translucent(whole)
            notes.append("bar background varies smoothly (its top and bottom differ by \(down) levels, its ends by \(across)), as a translucent bar's blur of the content under it does: written as NavReel's material, \(luma(whole) < 100 ? "dark" : "light"); its render blurs NavReel's content, not your app's")
        }

        if case .solid(let c) = background, defaultBar, c == whole {
            background = .translucent(whole)
            notes[notes.count - 1] = "bar background \(hex(whole)) with a hairline over light content: UIKit's default translucent bar, written as NavReel's (its blur of what scrolls under it)"
        }

        // Where the bar should end on this device, against where it shows it ends (not over an
        // image or a pattern, whose own edges would read as the bar's).
        if !custom, !isOther(background), header == nil, let bottom = firstChange {
            let small = px(sb + 44), large = px(sb + 96)
            // (Within a point; two in a video or a capture made smaller, whose edges settle a few
            // rows after they start: KMNavigationBarTransition's GIFs, 2.14x, read 128 px as 131.)
            let within = Int(s) * (pixels.lossy ? 2 : 1)
            // (Rows of the bar's colour from where its bar ends down to that edge: content of its
            // colour under it, a grouped list's background, whose first cell is the edge seen.
            // KMNavigationBarTransition's Before2.gif, #F1EFF5 over #EFEFF4 down to 241 px.)
            let bandBelow = span(Swift.min(h, small + Swift.max(2, Int(s))), Swift.min(h, bottom - Swift.max(2, Int(s))))
            // (Only where the title sits as in a bar of 44 pt: a taller bar, or another device's,
            // puts it lower.)
            let titleFits = pixels.ink(rows: bandRows, cols: Swift.max(0, w / 2 - px(70))..<Swift.min(w, w / 2 + px(70))).map {
                abs(titleCentre(top: $0.box.minY, scale: s) - (sb + 22)) <= 3
            } ?? false
            // (Nor where the edge is a line across, darker than the rows on both sides: a taller
            // bar's own hairline.)
            func rowLuma(_ y: Int) -> Double { luma(pixels.median(rows: Swift.max(0, Swift.min(h - 1, y))..<Swift.max(1, Swift.min(h, y + 1)), cols: 0..<w)) }
            let lineAtEdge = (Swift.max(2, bottom - 3)..<Swift.max(2, Swift.min(h - 2, bottom + 1))).contains { y in
                rowLuma(y) + 3 < rowLuma(y - 2) && rowLuma(y) + 3 < rowLuma(y + 2)
            }
            let barColoured = titleFits && !lineAtEdge && bottom > small && bandBelow.count >= px(8)
                && stride(from: bandBelow.lowerBound, to: bandBelow.upperBound, by: Swift.max(1, Int(s))).allSatisfy { y in
                    distance(pixels.median(rows: y..<y + 1, cols: 0..<w), whole) <= 4 && pixels.ink(rows: y..<y + 1, cols: 0..<w, threshold: 24) == nil
                }
            if abs(bottom - small) > within, abs(bottom - large) > within, barColoured {
                notes.append("the bar's lower edge does not show: the rows below it are its colour (\(hex(whole))) down to y \(bottom) px, content of its colour (a grouped list's background); read as a bar of 44 pt")
            } else if abs(bottom - small) > within, abs(bottom - large) > within {
                notes.append("warning: the bar's lower edge shows at y \(bottom) px, where \(device.name) puts it at \(small) px (status bar \(fmt(sb)) pt + 44 pt) or \(large) px with a large title: a screenshot of another device, or a bar of another height (iOS 26's is taller); --status-bar PT gives the height")
            }
        }

        // Ink is told from the bar by its distance from the background there: a horizontal
        // gradient's column, else the row's median.
        let horizontal: Bool
        if case .horizontal = background { horizontal = true } else { horizontal = false }
        let columns: [RGBA8]? = horizontal ? colMedians : nil

        // The status bar's text: lighter than the bar under it means light content.
        var lightStatusBar = false
        let statusInk = pixels.ink(rows: 0..<px(sb), cols: 0..<w, columns: columns)
        if let ink = statusInk {
            let bg = pixels.median(rows: 0..<px(sb), cols: 0..<w)
            lightStatusBar = luma(ink.color) > luma(bg)
            notes.append("status bar content \(lightStatusBar ? "light" : "dark") (its text \(hex(ink.color)) over \(hex(bg)))")
        } else {
            notes.append("no status bar text found in rows 0-\(px(sb) - 1) px: dark content assumed")
        }

        // Title, back button, bar buttons: ink against each row's background.
        // (No items are read over a bar's own image; a header picture sets a transparent bar.)
        let barImage = isOther(background), overImage = barImage || header != nil
        // Over a header picture the back chevron and the bar buttons are still read, for their
        // tint, as ink twice as far from its row's colour as over a bar (a photo's own detail
        // steps less than white or black items on it: juejin.gif's white chevron is 180 levels
        // off its blurred photo, gradient.gif's blue chevron and label "1" stand out from its
        // dark sky); the title is not (hidden over a picture, as HBDNavigationBar's demos hide it).
        let inkThreshold = header != nil ? 80 : 40
        let titleWindow = max(0, w / 2 - px(70))..<min(w, w / 2 + px(70))
        var titleInk = overImage ? nil : largeTitle ? largeInk : pixels.ink(rows: bandRows, cols: titleWindow, columns: columns)
        // The row backgrounds ink is told from (a horizontal gradient's column instead).
        let backgrounds = bandRows.map { columns == nil ? pixels.median(rows: $0..<$0 + 1, cols: 0..<w) : RGBA8(0, 0, 0) }
        // (With `near`, only ink within 60 levels of that colour.)
        func inkColumn(_ x: Int, threshold: Int, near colour: RGBA8? = nil) -> Bool {
            bandRows.contains { y in
                let c = pixels.at(x, y)
                return distance(c, columns?[x] ?? backgrounds[y - bandRows.lowerBound]) > threshold && colour.map { distance(c, $0) <= 60 } ?? true
            }
        }
        // A title wider than the 140 pt looked in goes on past it (FDFullscreenPopGesture's root,
        // "FDFullscreenPopGesture", 200 pt wide: its end was read as a bar button), and a bar
        // button may reach into them: the title is the run of columns with ink, apart by under
        // 9 pt (the space between its words), that overlaps what was found and lies nearest the
        // middle.
        // Its ink only: within 60 levels of the title's colour (a tinted button 5 pt from a
        // black title is no part of it). And a run whose middle is over a fifth of the width off
        // the bar's is no centred title (a long bar button reaching into the middle of a bar
        // without one): what was found stays.
        if !largeTitle, var t = titleInk {
            var runs: [ClosedRange<Int>] = []
            var first = -1, last = -1
            for x in px(6)..<Swift.max(px(6), w - px(6)) where inkColumn(x, threshold: 40, near: t.color) {
                if first >= 0, x - last <= px(9) { last = x } else {
                    if first >= 0 { runs.append(first...last) }
                    (first, last) = (x, x)
                }
            }
            if first >= 0 { runs.append(first...last) }
            func off(_ r: ClosedRange<Int>) -> Int { r.contains(w / 2) ? 0 : Swift.min(abs(r.lowerBound - w / 2), abs(r.upperBound - w / 2)) }
            if let run = runs.filter({ $0.overlaps(t.box.minX...t.box.maxX) }).min(by: { off($0) < off($1) }),
               abs(run.lowerBound + run.upperBound - w) <= w * 2 / 5 {
                t.box.minX = run.lowerBound
                t.box.maxX = run.upperBound
                titleInk = t
            }
        }
        let chevron = barImage ? nil : pixels.ink(rows: bandRows, cols: px(6)..<px(28), threshold: inkThreshold, columns: columns)
        let label = barImage ? nil : pixels.ink(rows: bandRows, cols: span(px(30), min(w / 2 - px(72), px(110))), threshold: inkThreshold, columns: columns)
        // From past the title (or the middle), up to 200 pt from the trailing edge.
        let rightZone = span(max(titleInk.map { $0.box.maxX + px(8) } ?? w / 2 + px(20), w - px(200)), w - px(6))
        let right = barImage ? nil : pixels.ink(rows: bandRows, cols: rightZone, threshold: inkThreshold, columns: columns)
        // Bar buttons: runs of columns with ink, apart by 6 pt or more (a space inside one item's
        // title is narrower; at most three).
        var rightItems = 0
        if right != nil {
            var gap = Int.max
            for x in rightZone {
                if inkColumn(x, threshold: inkThreshold) {
                    if gap >= px(6) { rightItems += 1 }
                    gap = 0
                } else if gap < Int.max { gap += 1 }
            }
            rightItems = min(3, max(1, rightItems))
        }
        // A filled shape where the chevron goes, tall: a custom back button image, whose colour
        // is no tint.
        let backImage = chevron.map { c in
            let area = (c.box.maxX - c.box.minX + 1) * (c.box.maxY - c.box.minY + 1)
            return c.box.maxY - c.box.minY + 1 >= px(24) && c.count * 2 >= area
        } ?? false
        let backButton: Reading.BackButton = chevron == nil ? .none : (label == nil && !backImage ? .chevron : .labelled)
        let tint = (backImage ? nil : chevron?.color) ?? right?.color
        if !largeTitle, !custom, let t = titleInk {
            let centre = titleCentre(top: t.box.minY, scale: s)
            if abs(centre - (sb + 22)) > 3 {
                notes.append("warning: the title's top puts the bar's centre at y \(fmt((centre * 10).rounded() / 10)) pt, where \(device.name)'s bar centres it at \(fmt(sb + 22)) pt: a screenshot of another device, or of another iOS; --status-bar PT gives the height")
            }
        }
        if let t = titleInk { notes.append("\(largeTitle ? "large title" : "title") \(hex(t.color)) at x \(t.box.minX)-\(t.box.maxX) px, y \(t.box.minY)-\(t.box.maxY) px (its text is not read: a placeholder stands in)") }
        else { notes.append("no title found") }
        switch backButton {
        case .none: break
        case .chevron: notes.append("a back chevron without a label (\(hex(chevron!.color)))")
        case .labelled:
            notes.append(backImage ? "a filled shape where the back button goes (\(hex(chevron!.color))): a custom back button image? give it as `backButton: {image: ...}`" : "a back button with a label (\(hex(chevron!.color)))")
        }
        if let r = right { notes.append("\(rightItems) bar button\(rightItems == 1 ? "" : "s") at x \(r.box.minX)-\(r.box.maxX) px (\(hex(r.color))); their text or symbols are not read: placeholders stand in") }
        if titleInk == nil, chevron == nil, right == nil, !overImage {
            notes.append("no title and no items: if the bar is hidden, write `bar: {hidden: true}`")
        }
        notes.append(lineRow.map { "a hairline at y \($0) px" } ?? "no hairline under the bar")
        // Under a header, the content's colour is what follows the picture: its edges' if they
        // agree (a grouped list's background), else its median.
        let belowHeader = header.map { hd -> RGBA8 in
            let rows = min(h - 1, hd.end + px(4))..<min(h, hd.end + px(200))
            let a = pixels.median(rows: rows, cols: 0..<px(6)), b = pixels.median(rows: rows, cols: (w - px(6))..<w)
            return distance(a, b) <= 4 ? a : pixels.median(rows: rows, cols: 0..<w)
        }
        if let belowHeader, let hd = header {
            // Flat or not below the picture, against the colour after it.
            contentFlat = true
            for f in [0.35, 0.55, 0.75, 0.9] {
                let y = Swift.max(Int(Double(h) * f), hd.end + px(4))
                guard y + px(20) <= h else { continue }
                let m = pixels.median(rows: y..<y + px(20), cols: 0..<w)
                if distance(m, belowHeader) > 4 || pixels.ink(rows: y..<y + px(20), cols: 0..<w, threshold: 24) != nil { contentFlat = false }
            }
            notes.append("content \(hex(belowHeader)) below the picture" + (contentFlat ? ", flat" : ", with rows or controls further down (written flat; `rows: N` draws table rows)"))
        } else {
            notes.append("content \(hex(content))" + (contentTiled ? ", with tiles or pictures over a third of it (written as NavReel's tiles)" : contentFlat ? ", flat" : ", with rows or controls further down (written flat; `rows: N` draws table rows)"))
        }

        let boxes = [statusInk, titleInk, chevron, label, right].compactMap { $0.map { [$0.box.minX, $0.box.minY, $0.box.maxX, $0.box.maxY] } }
        var reading = Reading(source: source, device: device, customDevice: custom, background: background,
                              lightStatusBar: lightStatusBar, titleColor: titleInk?.color, largeTitle: largeTitle,
                              tint: tint, backButton: backButton, hairline: hairline,
                              content: belowHeader ?? (background == .transparent ? whole : content), contentFlat: contentFlat, notes: notes, inkBoxes: boxes,
                              contentTiled: header == nil && contentTiled, rightItems: rightItems)
        reading.header = header.map { Header(colors: $0.colors, height: (Double($0.end) / s).rounded()) }
        return reading
    }

    /// The first row, from 60 pt down to a third of the screen, where the bar ends: a hairline (a
    /// row darker than the rows on both sides) or a lasting change of the row's colour. Returns the
    /// row after the bar (its height in pixels), or nil.
    /// Where a bar's centre is, from the top of its title's ink (a capital's or an ascender's:
    /// descenders, which only some titles have, would move a centre taken from the ink's extent).
    /// NavReel's 17 pt title tops 6.7 pt above the bar's centre on every device with a capital,
    /// 7.0 with an i's dot (measured on its renders); UIKit's SF Pro, estimated from the font's usual metrics (capitals about 0.70 em
    /// tall, ascender about 0.95 em, descender about 0.24 em) in a line box centred on the bar,
    /// about 6 pt. 6.3 pt is within about 0.35 pt of both, so a whole status bar height rounds
    /// back to itself from either; an iOS 26 recording of a 402 x 874 pt phone (a taller bar)
    /// reads 63 pt, where third-party tables give that phone 62.
    static func titleCentre(top: Int, scale: Double) -> Double { Double(top) / scale + 6.3 }

    /// `a..<b`, empty where b is below a (a phone narrower than the zones' sums: a custom size).
    static func span(_ a: Int, _ b: Int) -> Range<Int> { a..<max(a, b) }

    /// Where a picture that goes on below the bar (from row `from`) ends, or nil. It goes on when
    /// the rows' colour runs on across the bar's bottom (the median 2 pt above and below it within
    /// 12 levels: no edge); it ends at the first sharp change of the rows' colour (over 30 levels
    /// from the row before to the row after) at least 20 pt and at most 400 pt below the bar that
    /// 6 pt of plain rows of the new colour follow (nine in ten of their pixels within 8 levels of
    /// it: a list's cell, a flat background), at the row where the change is sharpest. A photo's
    /// own smooth sky or flat shadow is no end; a picture filling the screen has none.
    static func headerBelow(_ p: Pixels, from: Int, scale s: Double) -> Int? {
        let w = p.width
        let run = Swift.max(2, Int((6 * s).rounded())), pt2 = Swift.max(1, Int((2 * s).rounded()))
        let start = from + Int((20 * s).rounded()), end = Swift.min(p.height - run - 2, from + Int((400 * s).rounded()))
        guard from - 2 * pt2 >= 0, start < end else { return nil }
        guard distance(p.median(rows: from - 2 * pt2..<from - pt2, cols: 0..<w), p.median(rows: from + pt2..<from + 2 * pt2, cols: 0..<w)) <= 12 else { return nil }
        var medians: [Int: RGBA8] = [:]
        func m(_ y: Int) -> RGBA8 {
            if let c = medians[y] { return c }
            let c = p.median(rows: y..<y + 1, cols: 0..<w)
            medians[y] = c
            return c
        }
        func plain(_ y: Int, near c: RGBA8) -> Bool {
            var near = 0, n = 0
            for x in stride(from: 0, to: w, by: 2) {
                n += 1
                if distance(p.at(x, y), c) <= 8 { near += 1 }
            }
            return near * 10 >= n * 9
        }
        var y = start
        while y < end {
            guard distance(m(y - 1), m(y + 1)) > 30 else { y += 1; continue }
            // The sharpest row of the change (an upscaled or codec-blurred edge spans a few).
            var sharpest = y
            while sharpest + 1 < end, distance(m(sharpest), m(sharpest + 2)) > distance(m(sharpest - 1), m(sharpest + 1)) { sharpest += 1 }
            let after = sharpest + 2
            let colour = m(after + run / 2)
            if (after..<after + run).allSatisfy({ plain($0, near: colour) }) { return sharpest + 1 }
            y = sharpest + 1
        }
        return nil
    }

    static func isOther(_ b: Reading.Background) -> Bool {
        if case .other = b { return true }
        return false
    }

    static func barBottom(_ p: Pixels, scale s: Double) -> Int? {
        let start = Int(60 * s), end = min(p.height - 4, Int(Double(p.height) / 3))
        guard start + 2 < end else { return nil }
        // The share of a row's pixels that differ from another row's by more than 6 levels: a bar's
        // edge or hairline changes nearly all of them, text and gradients few or none.
        func changed(_ a: Int, _ b: Int) -> Double {
            var n = 0
            for x in 0..<p.width where distance(p.at(x, a), p.at(x, b)) > 6 { n += 1 }
            return Double(n) / Double(p.width)
        }
        func mean(_ y: Int) -> Double {
            var sum = 0.0
            for x in 0..<p.width { sum += luma(p.at(x, y)) }
            return sum / Double(p.width)
        }
        if p.lossy {
            // A video's codec rings around an edge or a hairline for a row or two (H.264 at 2x:
            // 54, 67, 32 over the rows between a blue bar and white): the edge is where the rows
            // settle, after rows that held still above it (within eight rows: a GIF made a third or less
            // of its device's pixels and scaled back up spreads a line between two colours further;
            // KMNavigationBarTransition's, 2.14x, over eight with the hairline's pink row).
            for y in max(start, 3)..<end where changed(y, y + 1) > 0.8 && changed(y - 3, y - 1) < 0.1 {
                for k in 1...8 where y + k + 2 < p.height && changed(y + k, y + k + 1) < 0.1 && changed(y + k, y + k + 2) < 0.1 {
                    return y + k
                }
            }
            return nil
        }
        for y in start..<end {
            let next = changed(y, y + 1)
            guard next > 0.8 else { continue }
            if changed(y - 1, y) > 0.8, changed(y - 2, y - 1) < 0.1, mean(y) < mean(y - 1) - 2, mean(y) < mean(y + 1) - 2 { return y + 1 }   // a hairline
            if changed(y - 2, y) < 0.1, changed(y + 1, y + 3) < 0.1 { return y + 1 }                          // an edge
        }
        return nil
    }

    // MARK: Writing

    /// The scenario for readings in order: the first screenshot is the root and each next one is
    /// pushed over it; then a swipe back to half way that is cancelled, and a tapped pop. A
    /// first screenshot with a back button gets a root screen before it (with its bar). `steps`
    /// overrides the steps (verification renders each screen at rest).
    /// `under` is the root under a first screen with a back button, as a swipe back uncovered it
    /// (`readUncovered`); without it the root copies the first screen's bar.
    public static func yaml(_ readings: [Reading], name: String, sources: Bool = true, steps: [String]? = nil,
                            under: Reading? = nil, scrolled: [Int: Reading] = [:], scrollAlpha: [Int: ScrollAlpha] = [:],
                            barSwitch: String? = nil, copies: [Copy] = []) -> String {
        precondition(!readings.isEmpty)
        var out = ""
        if sources {
            out += "# Written by `navreel scaffold` from \(readings.map(\.source).joined(separator: ", ")).\n"
            out += "# Colours and geometry were read off the screenshots; titles and item names are placeholders\n"
            out += "# (NavReel does not read text). A colour read off the screen is what the bar shows: written with\n"
            out += "# `translucent: false`, NavReel draws it exactly. Review, then `navreel lint` and `navreel record`.\n"
        }
        out += "name: \(name)\n"
        let d = readings[0].device
        if readings[0].customDevice {
            out += "devices: [{name: \(d.name), width: \(fmt(d.width)), height: \(fmt(d.height)), scale: \(fmt(d.scale)), statusBar: \(fmt(d.statusBar))}]\n"
        } else {
            out += "devices: [\(d.name)]\n"
        }
        if let barSwitch {
            out += "barTransition: switch" + (sources ? "   # \(barSwitch)" : "") + "\n"
        } else if sources, Set(readings.map { bar($0, indent: "") }).count > 1 {
            out += "# The screens' bars differ: how your app changes the bar between them decides the frames.\n"
            out += "# NavReel draws HBDNavigationBar's split bar by default; an app with one UIKit bar sets\n"
            out += "# barTransition: switch (restyled in viewWillAppear) or crossFade (per-screen standardAppearance).\n"
        }
        out += "screens:\n"
        let names = screenNames(readings)
        let needsRoot = readings[0].pushed
        if needsRoot, let under {
            out += "  root:     # " + (sources ? "\(under.source): its title is a placeholder" : "under \(names[0])") + "\n"
            out += "    title: Back\n"
            out += bar(under, indent: "    ")
            out += "    content: {color: \"\(hex(under.content))\", rows: 0}\n"
        } else if needsRoot {
            // (A first screen with its bar hidden was swiped: the root copies its look, shown.)
            var shown = readings[0]
            shown.barHidden = false
            out += "  root:     # the screen under the first screenshot's (it " + (readings[0].barHidden ? "was swiped back" : "has a back button") + ")\n"
            out += "    title: Back\n"
            out += bar(shown, indent: "    ")
            // (With the first screen's picture too: its transparent bar shows it.)
            out += "    " + contentMapping(readings[0], tiles: false) + "\n"
        }
        for (i, r) in readings.enumerated() {
            // (A screen pushed again as a new one like it: a YAML anchor, and each copy its alias.)
            let anchor = copies.contains { $0.of == i } ? " &\(names[i])" : ""
            if sources { out += "  \(names[i]):\(anchor)     # \(r.source)\n" } else { out += "  \(names[i]):\(anchor)\n" }
            if let _ = r.titleColor { out += "    title: \"Screen \(i + 1)\"\n" }
            // (Over a header picture a title rarely shows: HBDNavigationBar's demos hide it until
            // the bar fades in. Without one, NavReel would draw the screen's name.)
            else if r.header != nil { out += "    title: \"\"   # no title shows over the picture\n" }
            if r.largeTitle { out += "    largeTitle: true\n" }
            if let look = scrolled[i], r.background == .transparent, let alpha = scrollAlpha[i] {
                var shown = look
                if let wash = alpha.wash { shown.background = .solid(wash.color) }
                out += bar(shown, indent: "    ")
                let top = topDifferences(top: r, scrolled: look)
                let below = alpha.below.flatMap { a in top.isEmpty ? nil : ", styleBelowAlpha: {alpha: \(fmt(a)), \(top.joined(separator: ", "))}" } ?? ""
                let max = alpha.wash.map { ", max: \(fmt($0.max))" } ?? ""
                out += "    scroll: {alpha: {start: \(fmt(alpha.start)), end: \(fmt(alpha.end)), exponent: \(alpha.exponent)\(max)}\(below)}   # fitted to \(r.source)'s scroll"
                    + (below.isEmpty ? "" : alpha.belowSeen ? "; the style's switch seen in the frames" : "; where the style switched was not seen: 0.1 is a guess")
                    + (alpha.wash.map { "; once scrolled the bar is \(hex($0.color)) at \(fmt($0.max)) over the picture under it, no blur" } ?? "") + "\n"
            } else if let look = scrolled[i], r.background == .transparent {
                out += scrolledBar(top: r, scrolled: look, indent: "    ")
            } else {
                out += bar(r, indent: "    ")
            }
            if r.backButton == .chevron { out += "    backButton: {displayMode: minimal}\n" }
            if r.rightItem { out += "    rightItems: [" + ["Edit", "Add", "Share"].prefix(max(1, r.rightItems)).joined(separator: ", ") + "]\n" }
            if i > 0 || needsRoot, r.backButton == .none, !r.barHidden || scrolled[i] != nil {
                out += "    # its screenshot shows no back button, though it is pushed: NavReel draws one\n"
            }
            if let hd = r.header {
                out += "    # a gradient of the picture's colours stands in for the picture under the bar: give yours as header: {image: your.png, height: \(fmt(hd.height))}\n"
            }
            out += "    " + contentMapping(r)
            out += r.contentFlat || r.contentTiled ? "\n" : "   # rows or controls further down: `rows: N` draws table rows\n"
            for c in copies where c.of == i {
                out += "  \(c.name): *\(names[i])" + (sources ? "   # \(c.why)" : "") + "\n"
            }
        }
        out += "steps:\n"
        if let steps {
            // A step that starts with `#` is a comment line (`recordingSteps` says what it left out).
            for s in steps { out += s.hasPrefix("#") ? "  \(s)\n" : "  - \(s)\n" }
        } else {
            if needsRoot { out += "  - show: root\n  - push: \(names[0])\n" } else { out += "  - show: \(names[0])\n" }
            for n in names.dropFirst() { out += "  - push: \(n)\n  - wait: 0.3\n" }
            if needsRoot || readings.count > 1 {
                out += "  - swipeBack: {to: 0.5, duration: 0.4, release: cancel}\n"
                out += "  - wait: 0.3\n"
                out += "  - pop: {tapped: true}\n"
            } else {
                out += "  - wait: 0.2\n"
            }
        }
        return out
    }

    /// A screen written again under another name (`name: *screen`), for a push of a new screen
    /// that looks like one already on the stack (a stack holds a screen once): the reading it
    /// copies (`of`), and why, for the comment.
    public struct Copy: Sendable, Equatable {
        public var name: String
        public var of: Int
        public var why: String
    }

    /// A screen's `content:` entry: its colour, and a header picture's stand-in (the content
    /// reaching under the bar, where the picture shows through it) or NavReel's tiles.
    static func contentMapping(_ r: Reading, tiles: Bool = true) -> String {
        if let hd = r.header {
            let parallax = hd.parallax.map { ", parallax: \(fmt($0))" } ?? ""
            return "content: {color: \"\(hex(r.content))\", header: {gradient: {colors: [\(hd.colors.map { "\"\(hex($0))\"" }.joined(separator: ", "))], start: [0, 0], end: [0, 1]}, height: \(fmt(hd.height))\(parallax)}, rows: 0, extendsUnderOpaqueBar: true}"
        }
        return "content: {color: \"\(hex(r.content))\"\(tiles && r.contentTiled ? ", tiles: 24" : ", rows: 0")}"
    }

    /// The screen keys: `screen-1`, `screen-2`...
    public static func screenNames(_ readings: [Reading]) -> [String] { readings.indices.map { "screen-\($0 + 1)" } }

    static func bar(_ r: Reading, indent: String) -> String {
        var out = indent + "bar:\n"
        for k in barKeys(r) { out += indent + "  " + k + "\n" }
        return out
    }

    /// A bar that shows the content under it at the top of its content and `scrolled`'s look once
    /// scrolled (UIKit's `scrollEdgeAppearance` over its `standardAppearance`): the scrolled look's
    /// keys, and `scrollEdge` with what differs at the top (status bar style, tint, title colour).
    /// (`alpha: 0`, not a clear colour: an opaque bar's colour is drawn opaque.)
    static func scrolledBar(top r: Reading, scrolled s: Reading, indent: String) -> String {
        var out = indent + "bar:\n"
        for k in barKeys(s) { out += indent + "  " + k + "\n" }
        out += indent + "  scrollEdge: " + scrollEdgeValue(top: r, scrolled: s) + "   # at the top of its content (\(r.source))\n"
        return out
    }

    /// The `scrollEdge` value `scrolledBar` writes: `transparent`, or `alpha: 0` with what differs.
    static func scrollEdgeValue(top r: Reading, scrolled s: Reading) -> String {
        let edge = topDifferences(top: r, scrolled: s)
        return edge.isEmpty ? "transparent" : "{alpha: 0, shadowHidden: true, \(edge.joined(separator: ", "))}"
    }

    /// What differs at the top from the scrolled look, as keys: status bar style, tint and
    /// title colour. (Colours within 6 levels are one colour read through a codec.)
    static func topDifferences(top r: Reading, scrolled s: Reading) -> [String] {
        var edge: [String] = []
        if r.lightStatusBar != s.lightStatusBar { edge.append(r.lightStatusBar ? "style: black" : "style: default") }
        if let t = r.tint, s.tint.map({ near($0, t, within: 6) }) != true { edge.append("tintColor: \"\(hex(t))\"") }
        if let t = r.titleColor, s.titleColor.map({ near($0, t, within: 6) }) != true { edge.append("titleColor: \"\(hex(t))\"") }
        return edge
    }

    /// The bar keys a reading's bar is written with ("color: \"#FFFFFF\"", ...).
    static func barKeys(_ r: Reading) -> [String] {
        var keys: [String] = []
        if r.lightStatusBar { keys.append("style: black") }
        if r.barHidden { return keys + ["hidden: true"] }
        switch r.background {
        case .solid(let c), .other(let c):
            keys.append("color: \"\(hex(c))\"")
            keys.append("translucent: false")
        case .vertical(let a, let b):
            keys.append("gradient: {colors: [\"\(hex(a))\", \"\(hex(b))\"], start: [0, 0], end: [0, 1]}")
            keys.append("translucent: false")
        case .horizontal(let a, let b):
            keys.append("gradient: {colors: [\"\(hex(a))\", \"\(hex(b))\"], start: [0, 0], end: [1, 0]}")
            keys.append("translucent: false")
        case .transparent:
            keys.append("scrollEdge: transparent")
        case .translucent(let c):
            if luma(c) < 100 { keys.append("material: dark") }
        }
        if let t = r.tint { keys.append("tintColor: \"\(hex(t))\"") }
        if let t = r.titleColor { keys.append("titleColor: \"\(hex(t))\"") }
        if !r.hairline, r.background != .transparent { keys.append("shadowHidden: true") }
        return keys
    }

    // MARK: Verification

    /// How NavReel's render of a scaffolded screen compares with its screenshot over the bar's
    /// background: the pixels of the bar's rows the render paints as bar background, hairline or
    /// content (under a transparent bar) and the screenshot
    /// shows as background (outside its text and symbols, `margin` pixels around them for their
    /// anti-aliased edges), their largest channel difference at the 99th percentile, and the mean.
    public struct Agreement: Sendable, Equatable {
        public var pixels: Int
        public var p99: Int
        public var mean: Double
        public var worstRow: Int
    }

    /// `edge` rows above the bar's lower edge are left out: a video's codec, or a recording scaled
    /// up (HBDNavigationBar's GIFs, an iPhone 7's screen at 320 px wide), spreads the edge over
    /// them, half a point either way of where the bar ends.
    public static func agreement(render: Frame, screenshot: Image, barRows: Int, skipping boxes: [[Int]], margin: Int = 6, edge: Int = 0) -> Agreement? {
        let img = render.image
        guard img.width == screenshot.width, img.height == screenshot.height else { return nil }
        var text = [Bool](repeating: false, count: img.width * img.height)
        for b in boxes where b.count == 4 {
            for y in max(0, b[1] - margin)...min(img.height - 1, b[3] + margin) {
                for x in max(0, b[0] - margin)...min(img.width - 1, b[2] + margin) { text[y * img.width + x] = true }
            }
        }
        var histogram = [Int](repeating: 0, count: 256)
        var total = 0, sum = 0, worst = -1, worstRow = 0
        // The content a transparent bar shows counts as its background.
        let bg = Element.barBackground.rawValue, hl = Element.hairline.rawValue, content = Element.content.rawValue
        for y in 0..<min(img.height, max(0, barRows - edge)) {
            for x in 0..<img.width {
                let e = render.elements[y * img.width + x]
                guard e == bg || e == hl || e == content, !text[y * img.width + x] else { continue }
                let i = (y * img.width + x) * 4
                let shot = RGBA8(screenshot.pixels[i], screenshot.pixels[i + 1], screenshot.pixels[i + 2])
                let d = max(abs(Int(img.pixels[i]) - Int(shot.r)), abs(Int(img.pixels[i + 1]) - Int(shot.g)), abs(Int(img.pixels[i + 2]) - Int(shot.b)))
                histogram[d] += 1
                total += 1
                sum += d
                if d > worst { worst = d; worstRow = y }
            }
        }
        guard total > 0 else { return nil }
        var seen = 0, p99 = 0
        for (d, n) in histogram.enumerated() {
            seen += n
            if Double(seen) >= Double(total) * 0.99 { p99 = d; break }
        }
        return Agreement(pixels: total, p99: p99, mean: Double(sum) / Double(total), worstRow: worstRow)
    }

    /// Steps that leave screen `index` of `readings` at rest, pushed without animation over the
    /// ones before it.
    public static func restSteps(_ readings: [Reading], index: Int) -> [String] {
        let names = screenNames(readings)
        var out = readings[0].pushed ? ["show: root", "{push: \(names[0]), animated: false}"] : ["show: \(names[0])"]
        for n in names[1..<(index + 1)] { out.append("{push: \(n), animated: false}") }
        return out
    }

    // MARK: Pixels

    struct Ink {
        var color: RGBA8
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)
        var count: Int
        /// The most consecutive rows with ink: a line of text's height, whatever lies above or below it.
        var run: Int
    }

    struct Pixels {
        let width: Int, height: Int
        let bytes: [UInt8]
        /// A video's frame: its codec spreads an edge over a few rows (`barBottom`).
        var lossy = false
        init(_ image: Image) { width = image.width; height = image.height; bytes = image.pixels }

        func at(_ x: Int, _ y: Int) -> RGBA8 {
            let i = (y * width + x) * 4
            return RGBA8(bytes[i], bytes[i + 1], bytes[i + 2])
        }

        /// Per-channel median of a rectangle (clamped to the image).
        func median(rows: Range<Int>, cols: Range<Int>) -> RGBA8 {
            let r0 = max(0, rows.lowerBound), r1 = min(height, rows.upperBound)
            let c0 = max(0, cols.lowerBound), c1 = min(width, cols.upperBound)
            guard r1 > r0, c1 > c0 else { return RGBA8(0, 0, 0) }
            var hr = [Int](repeating: 0, count: 256), hg = hr, hb = hr
            for y in r0..<r1 {
                var i = (y * width + c0) * 4
                for _ in c0..<c1 {
                    hr[Int(bytes[i])] += 1; hg[Int(bytes[i + 1])] += 1; hb[Int(bytes[i + 2])] += 1
                    i += 4
                }
            }
            let half = ((r1 - r0) * (c1 - c0) + 1) / 2
            func m(_ h: [Int]) -> UInt8 {
                var seen = 0
                for v in 0..<256 { seen += h[v]; if seen >= half { return UInt8(v) } }
                return 255
            }
            return RGBA8(m(hr), m(hg), m(hb))
        }

        /// The first run of consecutive rows, from the top of a rectangle, with pixels further than
        /// 40 levels from their row's median: a line of text's rows (inclusive lower, exclusive upper).
        func firstLine(rows: Range<Int>, cols: Range<Int>) -> Range<Int>? {
            let r0 = max(0, rows.lowerBound), r1 = min(height, rows.upperBound)
            let c0 = max(0, cols.lowerBound), c1 = min(width, cols.upperBound)
            guard r1 > r0, c1 > c0 else { return nil }
            var start: Int?
            for y in r0..<r1 {
                let bg = median(rows: y..<y + 1, cols: 0..<width)
                var n = 0
                for x in c0..<c1 where distance(at(x, y), bg) > 40 { n += 1 }
                if n > 0 { if start == nil { start = y } } else if let s = start { return s..<y }
            }
            return start.map { $0..<r1 }
        }

        /// Text or symbols in a rectangle: pixels further than `threshold` from their row's
        /// median (the row's background); their colour is the median of the quarter furthest from
        /// it (anti-aliased edges mix with the background). Nil below a few pixels' worth.
        func ink(rows: Range<Int>, cols: Range<Int>, threshold: Int = 40, columns: [RGBA8]? = nil) -> Ink? {
            let r0 = max(0, rows.lowerBound), r1 = min(height, rows.upperBound)
            let c0 = max(0, cols.lowerBound), c1 = min(width, cols.upperBound)
            guard r1 > r0, c1 > c0 else { return nil }
            var found: [(d: Int, c: RGBA8)] = []
            var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1)
            var run = 0, longest = 0
            for y in r0..<r1 {
                let rowBackground = columns == nil ? median(rows: y..<y + 1, cols: 0..<width) : RGBA8(0, 0, 0)
                let before = found.count
                for x in c0..<c1 {
                    let c = at(x, y)
                    let d = distance(c, columns?[x] ?? rowBackground)
                    guard d > threshold else { continue }
                    found.append((d, c))
                    box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                }
                run = found.count > before ? run + 1 : 0
                longest = max(longest, run)
            }
            guard found.count >= 6 else { return nil }
            found.sort { $0.d > $1.d }
            let core = found.prefix(max(1, found.count / 4))
            func med(_ k: KeyPath<RGBA8, UInt8>) -> UInt8 { core.map { $0.c[keyPath: k] }.sorted()[core.count / 2] }
            return Ink(color: RGBA8(med(\.r), med(\.g), med(\.b)), box: box, count: found.count, run: longest)
        }
    }

    // MARK: Small helpers

    static func distance(_ a: RGBA8, _ b: RGBA8) -> Int {
        max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
    }

    /// Rec. 601 luma, 0...255.
    static func luma(_ c: RGBA8) -> Double { 0.299 * Double(c.r) + 0.587 * Double(c.g) + 0.114 * Double(c.b) }

    static func spread(_ colors: [RGBA8]) -> Int {
        guard let first = colors.first else { return 0 }
        var lo = (first.r, first.g, first.b), hi = lo
        for c in colors {
            lo = (min(lo.0, c.r), min(lo.1, c.g), min(lo.2, c.b))
            hi = (max(hi.0, c.r), max(hi.1, c.g), max(hi.2, c.b))
        }
        return max(Int(hi.0) - Int(lo.0), Int(hi.1) - Int(lo.1), Int(hi.2) - Int(lo.2))
    }

    static func average(_ colors: ArraySlice<RGBA8>) -> RGBA8 {
        let n = Double(max(1, colors.count))
        func avg(_ k: KeyPath<RGBA8, UInt8>) -> UInt8 { UInt8((colors.reduce(0.0) { $0 + Double($1[keyPath: k]) } / n).rounded()) }
        return RGBA8(avg(\.r), avg(\.g), avg(\.b))
    }

    /// A straight line through colours at positions 0...1 (least squares per channel): its
    /// colours at 0 and 1, clamped, and its largest channel residual (at `percentile` of the
    /// points, for columns that items cross). Nil for fewer than two points.
    static func fit(_ colors: [RGBA8], positions: [Double], percentile: Double = 1) -> (RGBA8, RGBA8, Int)? {
        guard colors.count >= 2, colors.count == positions.count else { return nil }
        let n = Double(colors.count)
        let mt = positions.reduce(0, +) / n
        let vt = positions.reduce(0) { $0 + ($1 - mt) * ($1 - mt) }
        guard vt > 0 else { return nil }
        var ends: [(Double, Double)] = []
        var residuals = [Int](repeating: 0, count: colors.count)
        for k in [\RGBA8.r, \RGBA8.g, \RGBA8.b] {
            let values = colors.map { Double($0[keyPath: k]) }
            let mv = values.reduce(0, +) / n
            var cov = 0.0
            for i in values.indices { cov += (positions[i] - mt) * (values[i] - mv) }
            let slope = cov / vt, at0 = mv - slope * mt
            ends.append((at0, at0 + slope))
            for i in values.indices { residuals[i] = max(residuals[i], Int(abs(values[i] - (at0 + slope * positions[i])).rounded())) }
        }
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        let sorted = residuals.sorted()
        let worst = sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * percentile))]
        return (RGBA8(clamp(ends[0].0), clamp(ends[1].0), clamp(ends[2].0)), RGBA8(clamp(ends[0].1), clamp(ends[1].1), clamp(ends[2].1)), worst)
    }

    /// `#RRGGBB`, as scenarios write an opaque colour (ScenarioColor's own text).
    public static func hex(_ c: RGBA8) -> String { ScenarioColor(c.r, c.g, c.b).description }

    static func fmt(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
