import Compare
import Foundation
import Navigation
import Raster
import Scenario
import Yams

/// A problem that does not stop a scenario from rendering, printed by `navreel lint`.
public struct LintWarning: Sendable, Equatable, CustomStringConvertible {
    public var location: ScenarioLocation
    public var message: String
    public var description: String { "\(location): warning: \(message)" }
}

/// Characters of a scenario's texts that no shipped font has: they would draw as Inter's notdef
/// box. The texts are those the bar draws from the file (`Scenario.drawnTexts`): each screen's
/// title, its back button's title and its `rightItems` (a screen without a title is titled with
/// its name, which lint already restricts to a-z, 0-9, '.', '_' and '-': Inter has those),
/// found in the file's YAML so that each warning points at its string.
public enum FontCoverage {
    public static func warnings(file: String, fonts: FontSet) -> [LintWarning] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), let root = try? Yams.compose(yaml: text),
              let screens = root["screens"], case .mapping(let entries) = screens else { return [] }
        var out: [LintWarning] = []
        func check(_ node: Node?) {
            guard let node, case .scalar(let s) = node else { return }
            let missing = fonts.uncovered(s.string)
            guard !missing.isEmpty else { return }
            var seen = Set<Unicode.Scalar>()
            let listed = missing.filter { seen.insert($0).inserted }.map { String(format: "U+%04X ", $0.value) + String($0) }
            let mark = node.mark
            out.append(LintWarning(location: ScenarioLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1),
                                   message: "no shipped font has \(listed.joined(separator: ", ")) in `\(s.string)`; it draws as a box"))
        }
        for (_, screen) in entries {
            check(screen["title"])
            check(screen["backButton"]?["title"])
            if case .sequence(let items)? = screen["rightItems"] { items.forEach(check) }
        }
        return out
    }
}
