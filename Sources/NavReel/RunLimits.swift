import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Bounds on the work of one run, checked before anything is rendered (docs/limits.md): frames
/// per scenario and device, pixels per frame, and pixels of the whole run. Each is raisable on
/// the command line (`--max-frames`, `--max-frame-pixels`, `--max-run-pixels`).
public struct RunLimits: Sendable, Equatable {
    /// Frames of one scenario on one device.
    public var maxFrames: Int
    /// Pixels of one frame (width × height at the render scale). 4096 × 4096 by default: a
    /// frame holds about 9 bytes a pixel while it is drawn.
    public var maxFramePixels: Int
    /// Frames × pixels summed over every scenario and device of the run.
    public var maxRunPixels: Int

    public init(maxFrames: Int = 10_000, maxFramePixels: Int = 4096 * 4096, maxRunPixels: Int = 20_000_000_000) {
        self.maxFrames = maxFrames
        self.maxFramePixels = maxFramePixels
        self.maxRunPixels = maxRunPixels
    }

    public static let `default` = RunLimits()

    /// The pixel size of the largest frame of a scenario on a device (either orientation), in
    /// floating point so that nothing can overflow.
    static func frameSize(_ scenario: Scenario, _ device: Device) -> (width: Double, height: Double, shortSide: Double) {
        let scale = scenario.scale ?? device.scale
        return (device.width * scale, device.height * scale, min(device.width, device.height) * scale)
    }

    /// Every limit the scenarios break on the selected devices, as positioned issues.
    public func problems(_ scenarios: [Scenario], devices filter: [String] = []) -> [ScenarioIssue] {
        var issues: [ScenarioIssue] = []
        var runPixels = 0.0
        for scenario in scenarios {
            let head = ScenarioLocation(file: scenario.file, line: 1, column: 1)
            let where_ = scenario.steps.first?.location ?? head
            for device in scenario.devices where filter.isEmpty || filter.contains(device.name) {
                let size = Self.frameSize(scenario, device)
                let pixels = size.width * size.height
                if size.shortSide < 1 {
                    issues.append(ScenarioIssue(head, "on \(device.name) a frame would be \(fmt(size.width))x\(fmt(size.height)) pixels; a frame needs at least one pixel a side (raise `scale`)"))
                    continue
                }
                // Both limits are reported when both are broken (every problem of a file at once).
                var over = false
                if pixels > Double(maxFramePixels) {
                    issues.append(ScenarioIssue(head, "on \(device.name) a frame is \(fmt(size.width))x\(fmt(size.height)) = \(fmt(pixels)) pixels, over the limit of \(maxFramePixels) (--max-frame-pixels)"))
                    over = true
                }
                let frames = Timeline(scenario: scenario, device: device).frameCount
                if frames > maxFrames {
                    issues.append(ScenarioIssue(where_, "on \(device.name) the steps make \(frames) frames at \(scenario.fps) fps, over the limit of \(maxFrames) (--max-frames)"))
                    over = true
                }
                if over { continue }
                runPixels += Double(frames) * pixels
            }
        }
        if runPixels > Double(maxRunPixels), let first = scenarios.first {
            issues.append(ScenarioIssue(ScenarioLocation(file: first.file, line: 1, column: 1),
                                        "the run would render \(fmt(runPixels)) pixels in all, over the limit of \(maxRunPixels) (--max-run-pixels; or select fewer scenarios with --filter)"))
        }
        return issues
    }

    private func fmt(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
