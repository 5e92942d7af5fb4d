import Foundation
import Navigation
import NavReel
import Scenario
import Testing

/// Issue 17: a check reuses the last frame when the next state draws the same (waits, holds).
/// The reused frames must be the frames painting would give, and painting must still happen
/// whenever anything drawn changes.
@Suite struct RenderMemoTests {
    @Test("a reused frame is the painted frame, with its own time; changing frames are painted")
    func reuse() throws {
        let yaml = """
        devices: [iphone-14]
        scale: 1
        capture: bar
        screens:
          a: {title: A, content: {rows: 4}}
          b: {title: B, bar: {color: "#FF950080", material: light}, content: {tiles: 8}}
        steps:
          - show: a
          - wait: 0.2
          - push: b
          - wait: 0.3
          - scroll: {to: 40, duration: 0.2}
        """
        let scenario = try ScenarioParser.parse(yaml: yaml, file: "memo.yaml", defaultName: "memo", fixturesRoot: nil).get()
        let renderer = try FrameRenderer(fixturesRoot: "/nonexistent")
        let job = renderer.jobs(for: scenario)[0]
        var memo = FrameRenderer.Memo()
        var reusedFrames: [Int] = []
        for k in 0..<job.frameCount {
            var reused = false
            let viaMemo = try renderer.render(job, frame: k, memo: &memo, reused: &reused)
            let painted = try renderer.render(job, frame: k)
            #expect(viaMemo.image.pixels == painted.image.pixels, "frame \(k)")
            #expect(viaMemo.translucency == painted.translucency && viaMemo.elements == painted.elements, "frame \(k) maps")
            #expect(viaMemo.time == painted.time, "frame \(k) time")
            if reused { reusedFrames.append(k) }
        }
        // The waits reuse frames; the push and the scroll change every frame.
        #expect(reusedFrames.count >= 10, "\(reusedFrames)")
        let pushing = (0..<job.frameCount).filter { job.timeline.state(atFrame: $0).transition != nil }
        #expect(!pushing.isEmpty)
        #expect(Set(pushing).isDisjoint(with: reusedFrames.filter { k in
            k > 0 && job.timeline.state(atFrame: k - 1).transition != nil && job.timeline.state(atFrame: k).transition != nil
        }))
    }
}
