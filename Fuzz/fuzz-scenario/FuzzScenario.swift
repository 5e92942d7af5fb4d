// libFuzzer target: scenario parsing and the run limits, as `lint` does them. Built only by
// scripts/fuzz (NAVREEL_FUZZ=1, -sanitize=fuzzer,address).
import NavReel
import Scenario

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .success(let scenario) = ScenarioParser.parse(yaml: text, file: "fuzz.yaml", defaultName: "fuzz", fixturesRoot: nil) {
        _ = RunLimits.default.problems([scenario])
    }
    return 0
}
