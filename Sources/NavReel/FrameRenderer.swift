import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Renders scenarios frame by frame: timeline, painter, and the PNG NavReel stores (pixels,
/// metadata text chunks, translucency and element maps in the side-data chunk).
public final class FrameRenderer: @unchecked Sendable {
    public let fonts: FontSet
    public let assets: AssetStore
    let painter: Painter

    public init(fixturesRoot: String, fonts: FontSet? = nil) throws {
        self.fonts = try fonts ?? FontSet.discover()
        assets = AssetStore(root: fixturesRoot)
        painter = Painter(fonts: self.fonts, assets: assets)
    }

    /// One scenario on one device.
    public struct Job: Sendable {
        public let scenario: Scenario
        public let device: Device
        public let timeline: Timeline
        /// The font files this scenario's frames depend on (`FontSet.fingerprint(covering:)`).
        public let fontFingerprint: String
        public var frameCount: Int { timeline.frameCount }
        /// `<scenario>/<device>`, the folder of its frames.
        public var folder: String { "\(scenario.name)/\(device.name)" }
        public func path(ofFrame k: Int) -> String { folder + "/" + Self.frameName(k) }
        public static func frameName(_ k: Int) -> String {
            let s = String(k)
            return String(repeating: "0", count: max(0, 4 - s.count)) + s + ".png"
        }
    }

    public func jobs(for scenario: Scenario, devices filter: [String] = []) -> [Job] {
        scenario.devices.filter { filter.isEmpty || filter.contains($0.name) }.map {
            Job(scenario: scenario, device: $0, timeline: Timeline(scenario: scenario, device: $0, metrics: FontMetrics(fonts: fonts)),
                fontFingerprint: fonts.fingerprint(covering: scenario.drawnTexts))
        }
    }

    /// The last frame a caller rendered of a job, to answer the next frame without painting when
    /// its state draws the same (a wait, a hold at the end of a step): the painter is a function
    /// of the state, so the pixels and maps are the same ones. `contentHash` is the caller's.
    public struct Memo {
        var state: NavigationState?
        var frame: Frame?
        public var contentHash: String?
        public init() {}
    }

    /// `render(_:frame:)`, reusing `memo`'s frame (with this frame's time) when the state differs
    /// from its state only in what the painter does not draw (time, stack, transition info).
    /// `reused` says which happened, so the caller can reuse what it derived from the frame.
    public func render(_ job: Job, frame k: Int, memo: inout Memo, reused: inout Bool) throws -> Frame {
        let state = job.timeline.state(atFrame: k)
        if let last = memo.state, var frame = memo.frame {
            var same = state
            same.time = last.time
            same.stack = last.stack
            same.transition = last.transition
            if same == last {
                frame.time = state.time
                reused = true
                return frame
            }
        }
        let frame = try render(state, job)
        memo = Memo()
        memo.state = state
        memo.frame = frame
        reused = false
        return frame
    }

    public func render(_ job: Job, frame k: Int) throws -> Frame {
        try render(job.timeline.state(atFrame: k), job)
    }

    func render(_ state: NavigationState, _ job: Job) throws -> Frame {
        let scale = job.scenario.scale ?? job.device.scale
        let height = Painter.barCaptureHeight(job.scenario, layout: state.layout, pullDown: job.timeline.largeTitlePullDown)
        return try painter.render(state, scale: scale, capture: job.scenario.capture, captureHeight: height)
    }

    /// Metadata recorded in every frame NavReel writes.
    public func metadata(_ job: Job, frame k: Int, time: Double) -> [String: String] {
        [
            "navreel.scenario": job.scenario.name,
            "navreel.device": job.device.name,
            "navreel.frame": String(k),
            "navreel.time": String(format: "%.4f", time),
            "navreel.version": NavReelVersion.string,
            "navreel.renderer": NavReelVersion.renderer,
            "navreel.font": job.fontFingerprint,
        ]
    }

    public func maps(_ frame: Frame) -> FrameMaps {
        FrameMaps(width: frame.image.width, height: frame.image.height, translucency: frame.translucency,
                  elements: frame.elements, elementNames: Frame.elementNames)
    }

    /// The PNG of a frame as a baseline: pixels, metadata and maps; smallest encoding.
    public func encode(_ job: Job, frame k: Int, _ frame: Frame, options: PNGEncodeOptions = .small) throws -> [UInt8] {
        try PNG.encode(frame.image, metadata: PNGMetadata(text: metadata(job, frame: k, time: frame.time),
                                                          sideData: maps(frame).serialized()), options: options)
    }
}

extension Scenario {
    /// The texts a scenario draws besides NavReel's own Latin ones ("Back", rows, the clock):
    /// titles, back-button titles and bar button items.
    public var drawnTexts: [String] {
        screens.flatMap { [$0.title] + [$0.backButton?.title, $0.backButtonTitle].compactMap { $0 } + $0.rightItems }
    }
}

extension NavReelVersion {
    /// Bumped whenever a change to the painter or canvas changes pixels on purpose; baselines
    /// record it so a failing check can say "renderer changed" rather than "regression".
    /// 2: GPOS kerning. 3: transitions on one clock (items with the screens), status bar style at
    /// the start, popTo from the bar at rest, one-view custom back buttons, standalone bars that
    /// carry their own items, clipped and stretching large titles, tint blending in splits.
    /// 4: geometry and materials (issue 12). 5: the edge shadow fades with the screen's coverage
    /// at 0.21; a title slides to and from where a hidden bar's back label rests, and a back label
    /// from where a hidden bar's title rests; the incoming title starts with its centre on the
    /// trailing edge (HBD's shadow.gif, hidden.gif and weixin.gif). 6: a push's edge shadow is
    /// strongest as it starts and fades as it ends, and pushes and pops default to UIKit's measured
    /// timing, 0.5 s on cubic-bezier(0.265, 1.012, 0.356, 0.988) (a 60 frames/s device recording
    /// of KMNavigationBarTransition; Flutter's iOS 16.3 measurement agrees). 7: an expanded large
    /// title flies into the next back label; the small title comes in with 15 pt of the
    /// extension left, and the large title sits at a 20 pt margin on phones 414 pt wide (a real
    /// iPhone's recording); the back label gives way to a title that would not fit ("Back", then
    /// none), and the title moves off centre before it is truncated; an opaque bar backs its
    /// translucent image with its tint colour, black or white. 8: the back chevron and label where
    /// iOS 16 and 17 draw them (ten simulator screenshots of five apps): a 10.9 x 18.8 pt chevron
    /// with a 2.5 pt stroke at 9.35 pt, the label at 29 pt (Flutter's 13 x 21 box at 8 pt with a
    /// 3 pt stroke and the label at 27 before); in the same stop, before any release: plain UIKit
    /// bars (`barTransition`), a hidden UIKit bar sliding with the top screen's edge, the content
    /// following a bar taken out of the layout, a large title without a back label fading by 0.6.
    /// 9: the status bar's content changes style on a push's or pop's progress (not a swipe's), and with an
    /// animated `setBar`, a grey between dark and light (a 60 frames/s device recording of a
    /// tapped push), where it switched at the first moving frame; the old title, the new back
    /// label, a lone chevron and a title leaving a pop fade in straight lines that differ between a
    /// push and a pop (or swipe), and a title entering a push from 0.2, as an iOS 18.2 recording
    /// measures, where Flutter's intervals faded them sooner; a tapped pop's button is highlighted.
    /// 10: beside a chevron alone (`displayMode: minimal`, or a back label with no room) the title
    /// below slides to and from where the label would rest, as HBD's weixin.gif measures, where it
    /// faded in place. 11: a swipe let go runs the rest of the pop on the pop's curve over the
    /// remaining fraction of its duration, as HBD's weixin.gif and FDFullscreenPopGesture's
    /// snapshot1.gif measure, where it ran linearly (`Timeline.released`); through it the tint
    /// keeps the blend it had when the finger lifted, as HBD's source does, where it jumped.
    public static let renderer = "11"
}

/// Greyscale and false-colour pictures of a frame's maps, for `render --maps`.
public enum MapPictures {
    public static func translucency(_ frame: Frame) -> Image {
        var img = Image(width: frame.image.width, height: frame.image.height)
        for i in 0..<frame.translucency.count {
            let v = frame.translucency[i]
            img.pixels[i * 4] = v; img.pixels[i * 4 + 1] = v; img.pixels[i * 4 + 2] = v; img.pixels[i * 4 + 3] = 255
        }
        return img
    }

    static let palette: [RGBA8] = [RGBA8(0, 0, 0), RGBA8(200, 200, 200), RGBA8(255, 204, 0), RGBA8(0, 122, 255), RGBA8(255, 45, 85),
                                   RGBA8(52, 199, 89), RGBA8(175, 82, 222), RGBA8(255, 149, 0), RGBA8(90, 200, 250),
                                   RGBA8(60, 60, 60), RGBA8(120, 80, 40)]

    public static func elements(_ frame: Frame) -> Image {
        var img = Image(width: frame.image.width, height: frame.image.height)
        for i in 0..<frame.elements.count {
            let c = palette[Int(frame.elements[i]) % palette.count]
            img.pixels[i * 4] = c.r; img.pixels[i * 4 + 1] = c.g; img.pixels[i * 4 + 2] = c.b; img.pixels[i * 4 + 3] = 255
        }
        return img
    }
}
