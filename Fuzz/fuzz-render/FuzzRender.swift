// libFuzzer target: timeline and painting of small parsed scenarios, as `render` does them.
// Scenarios over small limits are skipped (they are refused before rendering anyway), and the
// render scale is lowered, so that each input costs milliseconds. Built only by scripts/fuzz.
import Foundation
import NavReel
import Navigation
import Scenario

/// Fixtures/ of the repository (images), found from the working directory scripts/fuzz uses.
let fixtures = FileManager.default.currentDirectoryPath + "/Fixtures"
let renderer = try! FrameRenderer(fixturesRoot: fixtures)
let small = RunLimits(maxFrames: 200, maxFramePixels: 200_000, maxRunPixels: 20_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard case .success(var scenario) = ScenarioParser.parse(yaml: text, file: "fuzz.yaml", defaultName: "fuzz", fixturesRoot: fixtures) else {
        return 0
    }
    // At most 0.5 pixels a point: the painter's arithmetic is the same at any scale.
    let lowest = scenario.devices.map(\.scale).min() ?? 1
    scenario.scale = min(scenario.scale ?? lowest, 0.5, lowest)
    guard small.problems([scenario]).isEmpty else { return 0 }
    // One device, three frames (first, middle, last): every step's state is reached by the
    // timeline, and painting costs stay at milliseconds under the address sanitizer.
    guard let job = renderer.jobs(for: scenario).first else { return 0 }
    let n = job.frameCount
    for k in Set([0, n / 2, n - 1]) where k >= 0 && k < n {
        _ = try? renderer.render(job, frame: k)
    }
    return 0
}
