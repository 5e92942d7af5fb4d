import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// JUnit XML in the common (Ant/Surefire) schema: a test suite per scenario, a test case per
/// scenario and device, a failure listing its failing frames; attachments referenced by path.
public enum JUnitReport {
    public static func xml(_ r: SuiteResult, reportPath: String) -> String {
        let byScenario = Dictionary(grouping: r.jobs, by: \.scenario)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = r.jobs.filter { j in j.frames.contains { [.failed, .missing].contains($0.status) } }.count
        let errors = r.jobs.filter { j in j.frames.contains { $0.status == .error } }.count
        out += "<testsuites name=\"navreel\" tests=\"\(r.jobs.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for scenario in byScenario.keys.sorted() {
            let jobs = byScenario[scenario]!
            let f = jobs.filter { j in j.frames.contains { [.failed, .missing].contains($0.status) } }.count
            let e = jobs.filter { j in j.frames.contains { $0.status == .error } }.count
            out += "  <testsuite name=\"\(esc(scenario))\" tests=\"\(jobs.count)\" failures=\"\(f)\" errors=\"\(e)\" skipped=\"0\">\n"
            for j in jobs {
                out += "    <testcase classname=\"\(esc(scenario))\" name=\"\(esc(j.device))\" file=\"\(esc(j.file))\">\n"
                let bad = j.frames.filter { [.failed, .missing].contains($0.status) }
                let broken = j.frames.filter { $0.status == .error }
                if !bad.isEmpty {
                    let text = bad.map { f in "frame \(f.index) (t=\(String(format: "%.3f", f.time))s): " +
                        (f.comparison?.summary ?? f.message ?? f.status.rawValue) + (f.diff.map { " diff: \(reportPath)/\($0)" } ?? "") }
                    out += "      <failure message=\"\(esc("\(bad.count) of \(j.frames.count) frames failed"))\" type=\"VisualMismatch\">\(esc(text.joined(separator: "\n")))</failure>\n"
                }
                if !broken.isEmpty {
                    out += "      <error message=\"\(esc("\(broken.count) frames could not be compared"))\" type=\"UnreadableInput\">\(esc(broken.map { "frame \($0.index): \($0.message ?? "")" }.joined(separator: "\n")))</error>\n"
                }
                let attachments = (bad.compactMap(\.diff) + bad.compactMap(\.actual)).map { "[[ATTACHMENT|\(reportPath)/\($0)]]" }
                if !attachments.isEmpty { out += "      <system-out>\(esc(attachments.joined(separator: "\n")))</system-out>\n" }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func esc(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
