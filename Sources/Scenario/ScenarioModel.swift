/// Where something was written: file, line and column (1-based).
public struct ScenarioLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A scenario file, parsed and validated. See SCENARIO-FORMAT.md.
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var file: String
    public var devices: [Device]
    /// Render scale; nil means each device's own.
    public var scale: Double?
    public var fps: Int
    public var capture: Capture
    public var timing: TimingDefaults
    public var appearance: BarSpec
    public var tolerance: ToleranceSpec
    /// Screens in file order.
    public var screens: [ScreenSpec]
    public var steps: [Step]
    /// Image files given an explicit scale (`image: {file: x.png, scale: 2}`), by path; any
    /// other image takes its scale from its name as UIKit does (`@2x`, `@3x`, else 1).
    public var imageScales: [String: Double] = [:]
    /// How the bar changes between two screens whose bars differ (`barTransition`, an extension).
    public var barTransition: BarTransition = .hbd

    /// The app's technique for per-screen bars, which decides what one transition's bar shows.
    public enum BarTransition: String, Sendable, Equatable, CaseIterable {
        /// HBDNavigationBar: one bar when the two look alike, else each screen carries its own
        /// copy (`HBDNavigationController.m`, `shouldShowFake`). The contract's model; the default.
        case hbd
        /// A plain UIKit bar restyled in `viewWillAppear`: the one bar takes the destination's look
        /// when the transition starts, and a cancelled swipe's source look comes back only once the
        /// screen is at rest (KMNavigationBarTransition's "Before" recordings, iOS 9; HBD's
        /// juejin.gif for the cancel; docs/transitions.md).
        case `switch`
        /// A plain UIKit bar with per-screen `standardAppearance` (iOS 13+): the one bar's look
        /// blends from the source's to the destination's with the transition's progress (Flutter's
        /// `_NavigationBarTransition` ColorTween and BorderTween; no recording was found).
        case crossFade
    }

    /// The model directly; the builder (`Scenario(name:devices:...) { screens } steps: { steps }`)
    /// and `ScenarioParser` check what they build, this does not.
    public init(name: String, file: String = "", devices: [Device], scale: Double? = nil, fps: Int = 30,
                capture: Capture = .full, timing: TimingDefaults = TimingDefaults(), appearance: BarSpec = BarSpec(),
                tolerance: ToleranceSpec = ToleranceSpec(), screens: [ScreenSpec], steps: [Step]) {
        self.name = name
        self.file = file
        self.devices = devices
        self.scale = scale
        self.fps = fps
        self.capture = capture
        self.timing = timing
        self.appearance = appearance
        self.tolerance = tolerance
        self.screens = screens
        self.steps = steps
    }

    public func screen(_ name: String) -> ScreenSpec? { screens.first { $0.name == name } }

    public enum Capture: String, Sendable, Equatable, CaseIterable {
        /// The whole screen.
        case full
        /// Status bar, bar and large title, plus 16 pt of content.
        case bar
    }
}

/// A timing curve: `linear`, `easeInOut` or a cubic Bézier `[x1, y1, x2, y2]`.
public enum Curve: Sendable, Equatable, Hashable {
    case linear
    case easeInOut
    case bezier(Double, Double, Double, Double)

    /// UIKit's ease-in-out is the CSS `ease-in-out` curve (0.42, 0, 0.58, 1).
    public var controlPoints: (Double, Double, Double, Double) {
        switch self {
        case .linear: return (0, 0, 1, 1)
        case .easeInOut: return (0.42, 0, 0.58, 1)
        case let .bezier(a, b, c, d): return (a, b, c, d)
        }
    }
}

public struct Timing: Sendable, Equatable, Hashable {
    public var duration: Double
    public var curve: Curve

    public init(duration: Double, curve: Curve) {
        self.duration = duration
        self.curve = curve
    }
}

public struct TimingDefaults: Sendable, Equatable {
    /// Push, default: UIKit's measured timing, the `native` profile (NAVIGATION-MODEL.md,
    /// "Transitions"; until renderer 6 Ionic's 0.54 s curve).
    public var push = Profile.native.timing
    /// Pop: the same timeline in reverse.
    public var pop = Profile.native.timing
    public init() {}

    /// Named profiles (`timing: {profile: ...}`), the "open choices" of NAVIGATION-MODEL.md.
    public enum Profile: String, Sendable, CaseIterable {
        /// Ionic's iOS transition (ios.transition.ts): 0.54 s, cubic-bezier(0.32, 0.72, 0, 1). The
        /// default until renderer 6: against a device's push it is up to 0.05 W ahead (rms 0.020 W).
        case ionic
        /// UIKit's push and pop as a device shows them: 0.5 s on cubic-bezier(0.265, 1.012, 0.356,
        /// 0.988), fitted to the screen's edge in every frame of two tapped pushes of a 60 frames/s
        /// iPhone recording (KMNavigationBarTransition's `状态栏发生变化.mov`, iOS 9): rms 0.0011 W,
        /// at most 0.006 W. Flutter's `Curves.fastEaseInToSlowEaseOut` over 500 ms, which Flutter
        /// fitted to iOS 16.3 frames of an iPhone 14 Pro Max (flutter/flutter#122275), fits the same
        /// recording within 0.0008 W rms. The default since renderer 6; before, `native` was a
        /// guessed 0.35 s ease-in-out, the worst fit of those tried (up to 0.10 W off).
        case native
        /// Flutter's CupertinoPageRoute: 0.5 s on Curves.fastLinearToSlowEaseIn, Cubic(0.18, 1.0, 0.04, 1.0).
        case flutter

        public var timing: Timing {
            switch self {
            case .ionic: return Timing(duration: 0.54, curve: .bezier(0.32, 0.72, 0, 1))
            case .native: return Timing(duration: 0.5, curve: .bezier(0.265, 1.012, 0.356, 0.988))
            case .flutter: return Timing(duration: 0.5, curve: .bezier(0.18, 1.0, 0.04, 1.0))
            }
        }
    }

    public init(profile: Profile) {
        push = profile.timing
        pop = profile.timing
    }
}

public enum BarStyle: String, Sendable, Equatable, CaseIterable {
    /// Dark status bar content on a light bar.
    case `default`
    /// Light status bar content on a dark bar.
    case black
}

public enum BarMaterial: String, Sendable, Equatable, CaseIterable {
    case light, extraLight, dark, legacy
}

public enum ImageMode: Sendable, Equatable, Hashable {
    case stretch
    case tile
    /// Nine-slice stretching with insets in points: top, left, bottom, right.
    case capInsets(Double, Double, Double, Double)
}

public struct ScenarioGradient: Sendable, Equatable, Hashable {
    public var colors: [ScenarioColor]
    /// Unit coordinates in the gradient's rectangle.
    public var start: (Double, Double)
    public var end: (Double, Double)

    public init(colors: [ScenarioColor], start: (Double, Double) = (0, 0), end: (Double, Double) = (1, 0)) {
        self.colors = colors
        self.start = start
        self.end = end
    }

    public static func == (l: ScenarioGradient, r: ScenarioGradient) -> Bool {
        l.colors == r.colors && l.start == r.start && l.end == r.end
    }

    public func hash(into h: inout Hasher) {
        h.combine(colors)
        h.combine(start.0); h.combine(start.1); h.combine(end.0); h.combine(end.1)
    }
}

/// Bar properties (a screen's `bar`, the scenario's `appearance`, or a `setBar` step). Every field
/// is optional: unset fields fall back along HBD's resolution order.
public struct BarSpec: Sendable, Equatable {
    public var style: BarStyle?
    public var tintColor: ScenarioColor?
    public var titleColor: ScenarioColor?
    public var color: ScenarioColor?
    public var image: String?
    public var imageMode: ImageMode?
    public var gradient: ScenarioGradient?
    public var material: BarMaterial?
    public var translucent: Bool?
    public var alpha: Double?
    public var hidden: Bool?
    public var shadowHidden: Bool?
    public var split: Bool?
    public var standalone: Standalone?
    /// How the bar looks while its screen's content is at the scroll edge (UIKit's
    /// `scrollEdgeAppearance`): the keys given over the bar's own, or `transparent`.
    public var scrollEdge: ScrollEdgeAppearance?

    public init() {}

    /// `other`'s set fields over this one's.
    public func overlaid(by other: BarSpec) -> BarSpec {
        var out = self
        out.style = other.style ?? style
        out.tintColor = other.tintColor ?? tintColor
        out.titleColor = other.titleColor ?? titleColor
        out.color = other.color ?? color
        out.image = other.image ?? image
        out.imageMode = other.imageMode ?? imageMode
        out.gradient = other.gradient ?? gradient
        out.material = other.material ?? material
        out.translucent = other.translucent ?? translucent
        out.alpha = other.alpha ?? alpha
        out.hidden = other.hidden ?? hidden
        out.shadowHidden = other.shadowHidden ?? shadowHidden
        out.split = other.split ?? split
        out.standalone = other.standalone ?? standalone
        out.scrollEdge = other.scrollEdge ?? scrollEdge
        return out
    }
}

/// UIKit's `scrollEdgeAppearance`: the look of a bar whose screen's content is at its top.
public indirect enum ScrollEdgeAppearance: Sendable, Equatable {
    /// UIKit's default when an app sets none (iOS 13 and 14 for large-title bars, iOS 15 and
    /// later for every bar over a scroll view): "the standard appearance modified to use a
    /// transparent background", no background and no shadow.
    case transparent
    /// These keys over the bar's own.
    case bar(BarSpec)
}

public struct Standalone: Sendable, Equatable {
    /// Top-attached bars cover the status bar; others start below it.
    public var topAttached: Bool
    public init(topAttached: Bool = true) { self.topAttached = topAttached }
}

public struct BackButtonSpec: Sendable, Equatable {
    public var title: String?
    public var image: String?
    public var capInsets: (Double, Double, Double, Double)?
    /// UIKit's `UINavigationItem.backButtonDisplayMode` (nil: `default`).
    public var displayMode: BackButtonDisplayMode?

    public init(title: String? = nil, image: String? = nil, capInsets: (Double, Double, Double, Double)? = nil) {
        self.title = title
        self.image = image
        self.capInsets = capInsets
    }

    public static func == (l: BackButtonSpec, r: BackButtonSpec) -> Bool {
        l.title == r.title && l.image == r.image && l.capInsets.map { [$0.0, $0.1, $0.2, $0.3] } == r.capInsets.map { [$0.0, $0.1, $0.2, $0.3] }
            && l.displayMode == r.displayMode
    }
}

/// UIKit's back button display modes (Apple, `UINavigationItem.BackButtonDisplayMode`), each the
/// titles tried, in order, "according to the available space".
public enum BackButtonDisplayMode: String, Sendable, Equatable, CaseIterable {
    /// The back button's own title (or the previous screen's), then "Back", then none.
    case `default`
    /// "Back", then none ("ignores the values of the title and backButtonTitle properties").
    case generic
    /// The back indicator alone.
    case minimal
}

public struct HeaderSpec: Sendable, Equatable {
    public var image: String?
    public var gradient: ScenarioGradient?
    public var height: Double
    /// Pulled down, the header grows from the content's top instead of moving down, its picture
    /// scaled to fill and centred (`stretch: true`, an extension).
    public var stretch: Bool = false
    /// Scrolled up, the header moves by this fraction of the content's scroll, and the content
    /// below it slides over it (`parallax: 0.5`, an extension): 1, the default, moves it with the
    /// content. A parallax header, as the Juejin app's profile page in HBDNavigationBar's
    /// `screenshot/juejin.gif` (its picture moves 30 px while its list moves 59, 2.07-2.40 s).
    public var parallax: Double = 1
    public init(image: String? = nil, gradient: ScenarioGradient? = nil, height: Double, stretch: Bool = false, parallax: Double = 1) {
        self.image = image
        self.gradient = gradient
        self.height = height
        self.stretch = stretch
        self.parallax = parallax
    }
}

public struct ContentSpec: Sendable, Equatable {
    public var color: ScenarioColor = ScenarioColor(0xEF, 0xEF, 0xF4)   // iOS grouped background
    public var rows: Int = 0
    public var header: HeaderSpec?
    public var tiles: Int = 0
    public var extendsUnderOpaqueBar = false
    public init() {}
}

public struct ScrollSpec: Sendable, Equatable {
    public struct AlphaRule: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var exponent: Double
        /// The alpha from `end` on (default 1): an app that stops the fade part way, its bar a
        /// wash over the picture under it (the Juejin app's profile page in HBDNavigationBar's
        /// juejin.gif: white at about 0.37).
        public var max: Double
        public init(start: Double, end: Double, exponent: Double = 1, max: Double = 1) {
            self.start = start
            self.end = end
            self.exponent = exponent
            self.max = max
        }
    }
    public struct StyleRule: Sendable, Equatable {
        public var alpha: Double
        public var style: BarStyle?
        public var tintColor: ScenarioColor?
        public var titleColor: ScenarioColor?
        public init(alpha: Double, style: BarStyle? = nil, tintColor: ScenarioColor? = nil, titleColor: ScenarioColor? = nil) {
            self.alpha = alpha
            self.style = style
            self.tintColor = tintColor
            self.titleColor = titleColor
        }
    }
    public var alpha: AlphaRule?
    public var styleBelowAlpha: StyleRule?
    public var shadowFrom: Double?
    /// The title's alpha follows the bar's (its colour's alpha times the bar alpha), as HBD's
    /// YPGradientDemoViewController sets `[UIColor.blackColor colorWithAlphaComponent:_gradientProgress]`.
    public var titleFollowsAlpha = false
    public init() {}
}

public struct ScreenSpec: Sendable, Equatable {
    public var name: String
    public var title: String
    public var largeTitle: Bool
    public var bar: BarSpec
    public var backButton: BackButtonSpec?
    public var rightItems: [String]
    public var content: ContentSpec
    public var scroll: ScrollSpec?
    public var swipeBack: Bool
    public var backInteractive: Bool
    public var location: ScenarioLocation
    /// UIKit's `backButtonTitle` and `backButtonDisplayMode` of this screen's navigation item: they
    /// shape the back button of the screens pushed over it (an extension; a pushed screen's own
    /// `backButton` wins).
    public var backButtonTitle: String? = nil
    public var backButtonDisplayMode: BackButtonDisplayMode? = nil

    public init(name: String, title: String = "", largeTitle: Bool = false, bar: BarSpec = BarSpec(),
                backButton: BackButtonSpec? = nil, rightItems: [String] = [], content: ContentSpec = ContentSpec(),
                scroll: ScrollSpec? = nil, swipeBack: Bool = true, backInteractive: Bool = true,
                location: ScenarioLocation = ScenarioLocation(file: "", line: 0, column: 0)) {
        self.name = name
        self.title = title
        self.largeTitle = largeTitle
        self.bar = bar
        self.backButton = backButton
        self.rightItems = rightItems
        self.content = content
        self.scroll = scroll
        self.swipeBack = swipeBack
        self.backInteractive = backInteractive
        self.location = location
    }
}

public enum Release: String, Sendable, Equatable, CaseIterable {
    case finish, cancel
    /// The finger stays down where the drag ends: the next `swipeBack` drags on from there (back
    /// towards the start too, a finger that reverses) and `wait` holds it still, until a
    /// `swipeBack` releases it.
    case hold
}

public enum HideStyle: String, Sendable, Equatable, CaseIterable {
    /// Fade the bar over the step.
    case fade
    /// UIKit's hide: move the bar up by its height.
    case slide
}

/// One action of the `steps` list.
public enum Action: Sendable, Equatable {
    case show(String)
    case push(String)
    case pop
    case popTo(String)
    case wait(Double)
    /// Content offset of the top screen, in points from rest.
    case scroll(to: Double)
    /// Drag to a fraction of the width, then release (nil: decided by the 0.5 rule) or hold.
    /// A drag that follows a held one starts where the finger is.
    case swipeBack(to: Double, release: Release?)
    case setBar(BarSpec, style: HideStyle)
    case rotate(Orientation)

    public var keyword: String {
        switch self {
        case .show: return "show"
        case .push: return "push"
        case .pop: return "pop"
        case .popTo: return "popTo"
        case .wait: return "wait"
        case .scroll: return "scroll"
        case .swipeBack: return "swipeBack"
        case .setBar: return "setBar"
        case .rotate: return "rotate"
        }
    }
}

public struct Step: Sendable, Equatable {
    public var action: Action
    public var duration: Double?
    public var curve: Curve?
    public var animated: Bool?
    /// A pop started by a tap on the back button (`tapped: true`), which starts highlighted.
    public var tapped: Bool?
    public var location: ScenarioLocation

    public init(action: Action, duration: Double? = nil, curve: Curve? = nil, animated: Bool? = nil, tapped: Bool? = nil,
                location: ScenarioLocation = ScenarioLocation(file: "", line: 0, column: 0)) {
        self.action = action
        self.duration = duration
        self.curve = curve
        self.animated = animated
        self.tapped = tapped
        self.location = location
    }
}

/// The `tolerance` block: the comparison's knobs, with elements by name and regions in points.
public struct ToleranceSpec: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        public var channel: Int?
        public var perceptual: Double?
        public var antialiasing: Bool?
        public var translucency: Int?
        public var temporal: Bool?
        public var ignore: Bool?
        public init() {}
    }
    public struct Region: Sendable, Equatable {
        /// x, y, width, height in points.
        public var rect: (Double, Double, Double, Double)
        public var rule: Rule
        public init(rect: (Double, Double, Double, Double), rule: Rule) {
            self.rect = rect
            self.rule = rule
        }
        public static func == (l: Region, r: Region) -> Bool {
            l.rule == r.rule && [l.rect.0, l.rect.1, l.rect.2, l.rect.3] == [r.rect.0, r.rect.1, r.rect.2, r.rect.3]
        }
    }
    public var base = Rule()
    public var maxDiffPixels: Int?
    public var maxDiffRatio: Double?
    public var elements: [String: Rule] = [:]
    public var regions: [Region] = []
    public init() {}
}
