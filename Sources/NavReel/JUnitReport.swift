import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// JUnit XML valid against the common JUnit schema (Jenkins xunit-plugin's junit-10.xsd, which
/// pytest's `junit_family=xunit2` also targets; transcribed in scripts/junit.xsd and checked by
/// scripts/junit-check): a test suite per scenario, a test case per scenario and device, a
/// failure listing its failing frames, attachments referenced by path (the Jenkins JUnit
/// attachments convention `[[ATTACHMENT|path]]`). That schema has no `file` attribute on a test
/// case, so the scenario file is the suite's `file` and a property.
public enum JUnitReport {
    /// `hostname` defaults to this machine's name; `started` to the run's start (or now).
    public static func xml(_ r: SuiteResult, reportPath: String, hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let byScenario = Dictionary(grouping: r.jobs, by: \.scenario)
        let stamp = timestamp(r.started ?? Date())
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = r.jobs.filter { j in j.frames.contains { [.failed, .missing].contains($0.status) } }.count
        // Scenario files that did not load (a run's errors, exit 2) are test cases in error, one per
        // file: left out, a gate or dashboard reading the JUnit showed a green run (an audit,
        // 2026-11-27). The file is what an error names before its first colon.
        // Errors that are not a file's (a merge's missing shard) go under "navreel".
        let broken = Dictionary(grouping: r.scenarioErrors) { SuiteResult.fileOfError($0) ?? "navreel" }
        let errors = r.jobs.filter { j in j.frames.contains { $0.status == .error } }.count + broken.count
        out += "<testsuites name=\"navreel\" tests=\"\(r.jobs.count + broken.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(r.seconds))\">\n"
        let scenarioCount = byScenario.count
        for (k, file) in broken.keys.sorted(by: PathText.naturallyBefore).enumerated() {
            let messages = broken[file]!
            out += "  <testsuite name=\"\(esc(file))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\" timestamp=\"\(stamp)\""
                + " hostname=\"\(esc(hostname))\" id=\"\(scenarioCount + k)\" file=\"\(esc(file))\">\n"
            out += "    <testcase classname=\"\(esc(file))\" name=\"\(file == "navreel" ? "run" : "scenario file")\" time=\"0.000\">\n"
            let what = file == "navreel" ? "runs were not checked" : "its runs were not checked"
            out += "      <error message=\"\(esc("\(messages.count) \(messages.count == 1 ? "error" : "errors"): \(what)"))\" type=\"\(file == "navreel" ? "RunError" : "ScenarioError")\">"
                + "\(esc(messages.joined(separator: "\n")))</error>\n"
            out += "    </testcase>\n  </testsuite>\n"
        }
        for (n, scenario) in byScenario.keys.sorted(by: PathText.naturallyBefore).enumerated() {
            let jobs = byScenario[scenario]!
            let f = jobs.filter { j in j.frames.contains { [.failed, .missing].contains($0.status) } }.count
            let e = jobs.filter { j in j.frames.contains { $0.status == .error } }.count
            let time = jobs.reduce(0) { $0 + $1.seconds }
            let file = jobs.first?.file ?? ""
            // A compare's runs are named by their folder of expected frames, not "." (an audit, 2026-11-27).
            let name = jobs.first?.ciGroup ?? scenario
            out += "  <testsuite name=\"\(esc(name))\" tests=\"\(jobs.count)\" failures=\"\(f)\" errors=\"\(e)\" skipped=\"0\"" +
                " time=\"\(seconds(time))\" timestamp=\"\(stamp)\" hostname=\"\(esc(hostname))\" id=\"\(n)\" file=\"\(esc(file))\">\n"
            out += "    <properties>\n"
            // A --last-failed rerun's report holds runs it did not render: their devices, and when
            // the run they are the result of started.
            let carried = jobs.filter { $0.carriedFrom != nil }.map { "\($0.device) (\($0.carriedFrom!))" }
            for (name, value) in [("file", file), ("navreel", NavReelVersion.string), ("recordMode", r.recordMode.rawValue),
                                  ("shard", "\(r.shard.index)/\(r.shard.count)")] + (carried.isEmpty ? [] : [("notRerun", carried.joined(separator: ", "))]) {
                out += "      <property name=\"\(esc(name))\" value=\"\(esc(value))\"/>\n"
            }
            out += "    </properties>\n"
            for j in jobs {
                out += "    <testcase classname=\"\(esc(name))\" name=\"\(esc(j.device))\" time=\"\(seconds(j.seconds))\">\n"
                let bad = j.frames.filter { [.failed, .missing].contains($0.status) }
                let broken = j.frames.filter { $0.status == .error }
                if !bad.isEmpty {
                    let text = bad.map { f in "frame \(f.index) (t=\(String(format: "%.3f", f.time))s" + (f.line.map { ", \(j.file):\($0)" } ?? "") + "): " +
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

    /// Seconds with millisecond precision, as Surefire and pytest write them.
    static func seconds(_ s: Double) -> String { String(format: "%.3f", max(0, s)) }

    /// ISO 8601 date and time in UTC without a zone designator: the form Ant's JUnit schema
    /// (ISO8601_DATETIME_PATTERN) allows and every consumer reads.
    static func timestamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return f.string(from: date)
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
            // In attribute values a literal line break or tab would be normalised to a space by
            // every XML parser (XML 1.0, 3.3.3): written as character references they survive.
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                // XML 1.0 forbids most control characters.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
