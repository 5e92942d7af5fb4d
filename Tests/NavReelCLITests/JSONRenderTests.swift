import Foundation
import Testing
@testable import NavReel

/// JSON rendering takes shortcuts for speed (issue 17: strings with nothing to escape appended
/// whole; indentation made for containers only; the report page spliced, not searched): the
/// output must be what the plain rules give, and a page's data is never changed by its template.
@Suite("JSON rendering and the report page")
struct JSONRenderTests {
    @Test("strings escape as the scalar rules say, with and without anything to escape")
    func escaping() {
        let strings = ["", "plain", "Baselines/wechat-pop/iphone-14/0005.png", "Größe ✓", "返回 微信", "emoji 😀",
                       "quote \" and \\ back", "tab\tnew\nline\r", "<script>&</script>", "\u{1}\u{1F}", "line\u{2028}sep\u{2029}",
                       "\u{2027}\u{202A} near the separators", "…", "\u{7F} delete"]
        for s in strings {
            var fast = "", slow = "\""
            JSON.escape(s, into: &fast)
            JSON.escapeScalars(s, into: &slow)
            #expect(fast == slow + "\"", "\(s.debugDescription)")
        }
        // The rules themselves, on a few characters.
        var out = ""
        JSON.escape("a\"\\<>&\n\u{1}\u{2028}é", into: &out)
        #expect(out == #""a\"\\\u003c\u003e\u0026\n\u0001\u2028é""#)
    }

    @Test("pretty and compact rendering of nested values")
    func nesting() {
        let value = JSON.object([("a", .array([.int(1), .double(2.5)])), ("b", .object([("c", .string("x")), ("d", .array([]))])),
                                 ("e", .array([.object([("f", .null)]), .bool(true)])), ("g", .object([]))])
        #expect(value.rendered(pretty: false) == #"{"a":[1,2.5],"b":{"c":"x","d":[]},"e":[{"f":null},true],"g":{}}"#)
        #expect(value.rendered() == """
        {
          "a": [1, 2.5],
          "b": {
            "c": "x",
            "d": []
          },
          "e": [
            {
              "f": null
            },
            true
          ],
          "g": {}
        }
        """)
    }

    @Test("the report page: one title and the data spliced in; data holding the slots' names is kept as it is")
    func pageSlots() throws {
        #expect(HTMLReport.template.components(separatedBy: "__TITLE__").count == 2)
        #expect(HTMLReport.template.components(separatedBy: "__DATA__").count == 2)
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        // A results file whose strings name both slots, merged into a new report.
        let results = p.report.appendingPathComponent("results.json")
        let text = try String(contentsOf: results, encoding: .utf8)
        #expect(text.contains("\"status\": \"added\""))
        try text.replacingOccurrences(of: "\"scenario\": \"one\"", with: "\"scenario\": \"one__TITLE____DATA__\"")
            .write(to: results, atomically: true, encoding: .utf8)
        let merged = p.root.appendingPathComponent("merged")
        let r = try CLI.run(["merge-reports", p.report.path, "--report", merged.path])
        #expect(r.status == 0, "\(r)")
        let html = try String(contentsOf: merged.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("<title>NavReel report: passed</title>"))
        #expect(html.contains("one__TITLE____DATA__"), "the data's strings are left as they are")
        #expect(html.components(separatedBy: "__TITLE__").count == 2 && html.components(separatedBy: "__DATA__").count == 2)
    }

    /// The page's copy of the results, from the `"results"` object in its data script.
    static func pageRuns(_ folder: URL) throws -> [[String: Any]] {
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as! [String: Any]
        return (data["results"] as! [String: Any])["runs"] as! [[String: Any]]
    }

    static func fileRuns(_ folder: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("results.json"))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["runs"] as! [[String: Any]]
    }

    /// The page reuses results.json's encoding when it shows the results as they are (issue 17),
    /// and encodes its own when frames linked from outside the folder are copied in.
    @Test("the page's data: results.json's frames as they are, or with linked frames' local copies")
    func pageDataMatchesResults() throws {
        let p = try Project(["one": Project.scenario("one")])
        defer { p.remove() }
        #expect(try p.run(["record"]).status == 0)
        try p.write("one", Project.scenario("one", color: "#FF0000"))
        #expect(try p.run(["check", "--record", "never"]).status == 1)
        func frames(_ runs: [[String: Any]]) -> [String] {
            runs.flatMap { ($0["frames"] as! [[String: Any]]).map { f in
                ["status", "expected", "actual", "diff", "thumbnail"].map { "\($0)=\(f[$0] ?? "-")" }.joined(separator: " ")
            } }
        }
        let page = frames(try Self.pageRuns(p.report)), file = frames(try Self.fileRuns(p.report))
        #expect(page.count == 5 && page == file, "\(page)\n\(file)")
        // A report whose frames live outside it (a compare of folders elsewhere): the page shows
        // them from its own thumbnail sheets, results.json points at the originals.
        let frames0 = p.baselines.appendingPathComponent("one/tiny").path
        let compared = p.root.appendingPathComponent("compared")
        let c = try p.run(["compare", "--actual", frames0, "--expected", frames0, "--report", compared.path])
        #expect(c.status == 0, "\(c)")
        let comparedPage = frames(try Self.pageRuns(compared)), comparedFile = frames(try Self.fileRuns(compared))
        #expect(comparedPage.count == 5 && comparedPage != comparedFile, "\(comparedPage)")
        #expect(comparedPage.allSatisfy { $0.contains("thumbnail=frames/_linked/") }, "\(comparedPage)")
        #expect(comparedFile.allSatisfy { $0.contains("thumbnail=-") }, "\(comparedFile)")
    }
}
