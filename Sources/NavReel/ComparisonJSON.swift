import Compare
import Foundation
import Navigation
import Raster
import Scenario

extension Comparison {
    /// The result object of CLI.md (`width`, `height`, `mismatched`, `forgiven`, `maxChannelDelta`,
    /// `passed`), followed by NavReel's additions.
    public var json: [(String, JSON)] {
        var pairs: [(String, JSON)] = [
            ("width", .int(sizeMismatch?.actual.width ?? width)),
            ("height", .int(sizeMismatch?.actual.height ?? height)),
            ("mismatched", .int(sizeMismatch == nil ? counts.mismatched : (sizeMismatch!.actual.width * sizeMismatch!.actual.height))),
            ("forgiven", .object([
                ("equal", .int(counts.equal)), ("perceptual", .int(counts.perceptual)),
                ("antialiasing", .int(counts.antialiasing)), ("translucency", .int(counts.translucency)),
                ("timing", .int(counts.timing)), ("ignored", .int(counts.ignored)),
            ])),
            ("maxChannelDelta", .int(maxChannelDelta)),
            ("passed", .bool(passed)),
            ("metric", .string(metric.rawValue)),
            ("allowedMismatches", .int(allowedMismatches)),
            ("maxMismatchDelta", .int(maxMismatchDelta)),
        ]
        if let s = sizeMismatch {
            pairs.append(("sizeMismatch", .object([
                ("expected", .object([("width", .int(s.expected.width)), ("height", .int(s.expected.height))])),
                ("actual", .object([("width", .int(s.actual.width)), ("height", .int(s.actual.height))])),
            ])))
        }
        if let box = mismatchBox { pairs.append(("mismatchBox", box.json)) }
        if !elements.isEmpty {
            pairs.append(("elements", .array(elements.map { e in
                .object([("id", .int(Int(e.id))), ("name", .string(e.name)), ("pixels", .int(e.pixels)), ("box", e.box.json)])
            })))
        }
        return pairs
    }
}

extension PixelRect {
    var json: JSON { .object([("x", .int(x)), ("y", .int(y)), ("width", .int(width)), ("height", .int(height))]) }
}
