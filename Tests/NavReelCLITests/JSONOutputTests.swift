import Foundation
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

/// A JSON reader that rejects an object with a key twice (RFC 8259 says names "SHOULD be unique";
/// readers then disagree on which value wins: Python, jq and Node keep the last, Swift's
/// JSONDecoder the first). Written for these tests: enough JSON to read what NavReel writes.
struct StrictJSON {
    struct Problem: Error, CustomStringConvertible { var description: String }
    let s: [UInt8]
    var i = 0

    static func check(_ text: String) throws {
        var p = StrictJSON(s: Array(text.utf8))
        p.space()
        try p.value(path: "$")
        p.space()
        guard p.i == p.s.count else { throw Problem(description: "trailing text at byte \(p.i)") }
    }

    mutating func space() { while i < s.count, [0x20, 0x0A, 0x0D, 0x09].contains(s[i]) { i += 1 } }

    mutating func expect(_ c: UInt8) throws {
        guard i < s.count, s[i] == c else { throw Problem(description: "expected \(Character(UnicodeScalar(c))) at byte \(i)") }
        i += 1
    }

    mutating func string() throws -> String {
        try expect(0x22)
        var out: [UInt8] = []
        while i < s.count, s[i] != 0x22 {
            if s[i] == 0x5C { out.append(s[i]); i += 1 }
            guard i < s.count else { break }
            out.append(s[i]); i += 1
        }
        try expect(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    mutating func value(path: String) throws {
        space()
        guard i < s.count else { throw Problem(description: "unexpected end") }
        switch s[i] {
        case 0x7B:
            i += 1; space()
            var keys = Set<String>()
            if i < s.count, s[i] == 0x7D { i += 1; return }
            while true {
                space()
                let key = try string()
                guard keys.insert(key).inserted else { throw Problem(description: "duplicate key `\(key)` in \(path)") }
                space(); try expect(0x3A)
                try value(path: path + "." + key)
                space()
                if i < s.count, s[i] == 0x2C { i += 1; continue }
                try expect(0x7D); return
            }
        case 0x5B:
            i += 1; space()
            if i < s.count, s[i] == 0x5D { i += 1; return }
            var n = 0
            while true {
                try value(path: path + "[\(n)]"); n += 1
                space()
                if i < s.count, s[i] == 0x2C { i += 1; continue }
                try expect(0x5D); return
            }
        case 0x22: _ = try string()
        default:
            let start = i
            while i < s.count, !",]} \n\r\t".utf8.contains(s[i]) { i += 1 }
            let word = String(decoding: s[start..<i], as: UTF8.self)
            guard ["true", "false", "null"].contains(word) || Double(word) != nil else { throw Problem(description: "bad value `\(word)` at byte \(start)") }
        }
    }
}

@Suite("JSON NavReel writes", .serialized)
struct JSONOutputTests {
    @Test("the strict reader rejects a duplicate key (the check is live)")
    func strictReader() {
        #expect(throws: StrictJSON.Problem.self) { try StrictJSON.check(#"{"summary": {"passed": 3, "passed": true}}"#) }
        #expect(throws: Never.self) { try StrictJSON.check(#"{"a": [1, 2.5, "x\"y", {"b": null}], "c": false}"#) }
    }

    @Test("every JSON NavReel writes has unique keys; the verdict has its own key")
    func everyOutput() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        let check = try p.run(["check", "--record", "never", "--json", "-", "--quiet"])
        #expect(check.status == 1)
        let results = try String(contentsOf: p.report.appendingPathComponent("results.json"), encoding: .utf8)
        let list = try p.run(["list", "--json"])
        let frames = p.report.appendingPathComponent("frames/one/tiny")
        let diff = try p.run(["diff", frames.appendingPathComponent("0001.expected.png").path, frames.appendingPathComponent("0001.actual.png").path, "--json", "-"])
        let compare = try p.run(["compare", "--actual", p.baselines.appendingPathComponent("one/tiny").path,
                                 "--expected", p.baselines.appendingPathComponent("one/tiny").path, "--json", "-", "--quiet", "--report", "c"])
        // record's own line goes to standard error with --json - (it was printed after the JSON).
        let record = try p.run(["record", "--prune", "--json", "-", "--report", "rec"])
        #expect(record.status == 0 && record.stderr.contains("record: 0 added, 4 changed, 1 kept, 0 removed"), "\(record)")
        // --last-failed with nothing to do says so on standard error, and standard output stays empty.
        let none = try p.run(["check", "--record", "never", "--last-failed", "--json", "-", "--report", "rec"])
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.contains("nothing to check"), "\(none)")
        for (name, text) in [("record --json -", record.stdout), ("check --json -", check.stdout), ("results.json", results), ("list --json", list.stdout),
                             ("diff --json -", diff.stdout), ("compare --json -", compare.stdout),
                             ("compare results.json", try String(contentsOf: p.root.appendingPathComponent("c/results.json"), encoding: .utf8))] {
            #expect(throws: Never.self, "\(name)") { try StrictJSON.check(text) }
        }
        let summary = (try JSONSerialization.jsonObject(with: Data(results.utf8)) as! [String: Any])["summary"] as! [String: Any]
        #expect(summary["verdict"] as? String == "failed" && summary["passed"] as? Int == 1, "\(summary)")
    }

    @Test("results.json is written and read through the same Codable types: read and written again, it is the same bytes")
    func codableRoundTrip() throws {
        let p = try Project(["one": Project.scenario("one"), "two": Project.scenario("two")])
        defer { p.remove() }
        #expect(try p.run(["record", "--quiet"]).status == 0)
        try p.write("two", Project.scenario("two", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let path = p.report.appendingPathComponent("results.json").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let loaded = try ResultJSON.load(path)
        #expect(loaded.runs.count == 2 && loaded.runs[1].frames.contains { $0.status == .failed && $0.comparison != nil })
        #expect(try JSONTreeEncoder.encode(loaded.document).rendered() + "\n" == text)
        // And through the run model (what merge-reports and approve use).
        #expect(ResultJSON.encode(loaded.document.suiteResult).rendered() + "\n" == text)
    }

    @Test("a damaged or foreign results file is a clear error naming the file and field")
    func damaged() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["check", "--record", "never", "--quiet"]).status == 1)
        let path = p.report.appendingPathComponent("results.json")
        let good = try String(contentsOf: path, encoding: .utf8)
        try good.replacingOccurrences(of: #""index": 2,"#, with: #""index": "two","#).write(to: path, atomically: true, encoding: .utf8)
        let r = try p.run(["approve"])
        #expect(r.status == 2 && r.stderr.contains("results.json: damaged results file: `runs[0].frames[2].index` is not a whole number"), "\(r)")
        try #"{"name": "some other tool"}"#.write(to: path, atomically: true, encoding: .utf8)
        let foreign = try p.run(["merge-reports", p.report.path, "--report", "m"])
        #expect(foreign.status == 2 && foreign.stderr.contains("not a NavReel results file"), "\(foreign)")
        try good.replacingOccurrences(of: #""status": "missing""#, with: #""status": "lost""#).write(to: path, atomically: true, encoding: .utf8)
        let status = try p.run(["approve"])
        #expect(status.status == 2 && status.stderr.contains("unknown status `lost`"), "\(status)")
    }
}
