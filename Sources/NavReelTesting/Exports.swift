// What a test needs, and nothing more: the scenario model (`Scenario`, `ScreenSpec`, `BarSpec`,
// `ScenarioColor`, ...) and the result types of a run. The raster and comparison internals are not
// re-exported, so `Image`, `Path`, `Canvas`, `SHA256` stay SwiftUI's and CryptoKit's in a test file.
@_exported import Scenario
@_exported import enum NavReel.RecordMode
@_exported import struct NavReel.SuiteResult
@_exported import struct NavReel.JobResult
@_exported import struct NavReel.FrameOutcome
@_exported import struct NavReel.CaptureOptions
@_exported import struct NavReel.RunLimits
@_exported import struct NavReel.SequenceComparison
@_exported import struct Compare.ToleranceOverrides
@_exported import struct Compare.PixelRect
