import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import NavReel
import Compare
import Navigation
import Raster
import Scenario

@Suite("JUnit XML")
struct JUnitTests {
    final class Collector: NSObject, XMLParserDelegate {
        var elements: [(String, [String: String])] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append((name, attributes))
        }
    }

    @Test("a suite per scenario, a case per device, failures listing frames; well-formed with hostile names")
    func structure() throws {
        var failing = FrameOutcome(index: 3, time: 0.1, status: .failed)
        failing.comparison = Comparison(width: 10, height: 10)
        failing.comparison?.counts.mismatched = 7
        failing.diff = "frames/a/d/0003.diff.png"
        let result = SuiteResult(jobs: [
            JobResult(scenario: "a", device: "iphone-14", file: "Fixtures/scenarios/a<&\">.yaml",
                      frames: [FrameOutcome(index: 0, time: 0, status: .passed), failing]),
            JobResult(scenario: "a", device: "iphone-se", file: "a.yaml", frames: [FrameOutcome(index: 0, time: 0, status: .passed)]),
            JobResult(scenario: "b", device: "iphone-14", file: "b.yaml", frames: [FrameOutcome(index: 0, time: 0, status: .error)]),
        ], scenarioErrors: [], shard: (1, 1), recordMode: .never)
        let xml = JUnitReport.xml(result, reportPath: ".navreel/report")
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let suites = collector.elements.filter { $0.0 == "testsuite" }
        #expect(suites.map { $0.1["name"] } == ["a", "b"])
        #expect(suites[0].1["tests"] == "2" && suites[0].1["failures"] == "1")
        #expect(collector.elements.filter { $0.0 == "testcase" }.count == 3)
        #expect(collector.elements.filter { $0.0 == "failure" }.count == 1)
        #expect(collector.elements.filter { $0.0 == "error" }.count == 1)
        #expect(xml.contains("frame 3 (t=0.100s): 7 of 100 pixels mismatched"))
        #expect(xml.contains("[[ATTACHMENT|.navreel/report/frames/a/d/0003.diff.png]]"))
        #expect(xml.contains("a&lt;&amp;&quot;&gt;.yaml"))
    }
}
