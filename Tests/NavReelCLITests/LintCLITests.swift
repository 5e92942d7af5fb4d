import Foundation
import Testing

@Suite("navreel lint")
struct LintCLITests {
    @Test("prints every error with file:line:column and exits 2; valid files exit 0")
    func lint() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("Fixtures/scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try "devices: [iphone-14]\nscreens:\n  a: {title: A}\nsteps:\n  - show: a\n".write(to: scenarios.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
        try "devices: [iphone14]\nscreens:\n  a: {titel: A}\nsteps:\n  - show: b\n".write(to: scenarios.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let all = try CLI.run(["lint"], in: dir)
        #expect(all.status == 2)
        #expect(all.stderr.contains("Fixtures/scenarios/bad.yaml:1:11: error: unknown device `iphone14` (did you mean `iphone-14`?)"))
        #expect(all.stderr.contains("bad.yaml:3:7: error: unknown key `titel`"))
        #expect(all.stderr.contains("bad.yaml:5:11: error: unknown screen `b`"))
        #expect(all.stdout.contains("2 scenario files: 1 valid, 1 with errors"))
        let good = try CLI.run(["lint", "good"], in: dir)
        #expect(good.status == 0, "\(good)")
        let missing = try CLI.run(["lint", "goood"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("did you mean `good`?"))
    }
}
