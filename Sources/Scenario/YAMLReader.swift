import Yams

/// Walks a composed YAML tree, collecting positioned errors instead of stopping at the first.
final class YAMLReader {
    let file: String
    private(set) var issues: [ScenarioIssue] = []
    /// The issues already reported, for reporting each once without a scan of the list.
    private var reported: Set<String> = []
    /// A merged mapping's entries, by where the mapping starts: an alias is its anchor's node (the
    /// same place), so each anchored mapping is flattened once however many lists name it.
    /// Without this, lists of aliases of merged lists multiplied (nine aliases a level, eight
    /// levels: 86 s of lint in a review).
    private var flattened: [String: [(key: String, keyNode: Node, value: Node)]] = [:]
    /// Entries merge keys may bring in over the whole file, a bound behind the cache (a file of
    /// 1,000 screens each merging a style of a dozen keys is 12,000).
    static let mergeLimit = 1_000_000
    private var merges = 0
    private var mergeLimitSaid = false

    init(file: String) { self.file = file }

    func location(_ node: Node?) -> ScenarioLocation {
        let mark = node?.mark
        return ScenarioLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func error(_ node: Node?, _ message: String) {
        error(at: location(node), message)
    }

    /// Once per place and message: a mistake inside an anchored node is met again at each alias
    /// of it, and is reported where the anchor is (an audit saw one message nine times).
    func error(at location: ScenarioLocation, _ message: String) {
        let issue = ScenarioIssue(location, message)
        if reported.insert("\(location.line):\(location.column):\(message)").inserted { issues.append(issue) }
    }

    /// A mapping's entries as (key, key node, value), or nil (with an error) when it is not a mapping.
    func mapping(_ node: Node, _ what: String) -> [(key: String, keyNode: Node, value: Node)]? {
        guard case .mapping(let m) = node else {
            error(node, "\(what) must be a mapping (key: value), not \(describe(node))")
            return nil
        }
        var out: [(String, Node, Node)] = []
        // YAML's merge key (`<<: *defaults`, or a list of them): the merged mappings' entries
        // come in where no key of this mapping, nor an earlier merged one, gives them.
        var merged: [(String, Node, Node)] = []
        for (k, v) in m {
            guard case .scalar(let s) = k else {
                error(k, "keys of \(what) must be plain words")
                continue
            }
            if s.string == "<<" && s.style == .plain {
                // Errors about the merge are reported at the `<<` key, where it is written (an
                // alias's node carries its anchor's place).
                let sources: [Node]
                switch v {
                case .mapping: sources = [v]
                case .sequence(let list): sources = Array(list)
                default: sources = []
                }
                let usage = "`<<` (a YAML merge key) takes a mapping or a list of mappings, usually an alias such as `<<: *defaults`"
                if sources.isEmpty {
                    error(k, "\(usage), not \(describe(v))")
                    continue
                }
                if let bad = sources.first(where: { if case .mapping = $0 { return false } else { return true } }) {
                    error(k, "\(usage); this list holds \(describe(bad))")
                    continue
                }
                for source in sources {
                    let place = source.mark.map { "\($0.line):\($0.column)" }
                    let entries: [(key: String, keyNode: Node, value: Node)]
                    if let place, let known = flattened[place] {
                        entries = known
                    } else {
                        entries = self.mapping(source, what) ?? []
                        if let place { flattened[place] = entries }
                    }
                    merges += entries.count
                    guard merges <= Self.mergeLimit else {
                        if !mergeLimitSaid {
                            error(k, "merge keys (`<<`) in this file bring in more than \(Self.mergeLimit) entries: merge fewer, or less deeply")
                            mergeLimitSaid = true
                        }
                        return out
                    }
                    for entry in entries where !merged.contains(where: { $0.0 == entry.key }) {
                        // A merged key is placed at the `<<` that brought it: an unknown key is
                        // reported where the mapping merges it, not at the anchor it came from.
                        var keyNode = entry.keyNode
                        if case .scalar(var ks) = keyNode { ks.mark = s.mark; keyNode = .scalar(ks) }
                        merged.append((entry.key, keyNode, entry.value))
                    }
                }
                continue
            }
            out.append((s.string, k, v))
        }
        for entry in merged where !out.contains(where: { $0.0 == entry.0 }) { out.append(entry) }
        return out
    }

    /// Reports keys outside `allowed`, with a suggestion. Returns the entries as a dictionary.
    /// `nested`: keys that belong one level down, by the key they belong under (a bar key written
    /// beside `bar:` rather than in it).
    @discardableResult
    func checkKeys(_ entries: [(key: String, keyNode: Node, value: Node)], allowed: [String], _ what: String,
                   nested: [String: [String]] = [:]) -> [String: Node] {
        var out: [String: Node] = [:]
        for e in entries {
            if allowed.contains(e.key) {
                out[e.key] = e.value
            } else if let parent = nested.first(where: { $0.value.contains(e.key) })?.key {
                error(e.keyNode, "unknown key `\(e.key)` in \(what): it belongs under `\(parent):` (`\(parent): {\(e.key): …}`)")
            } else {
                error(e.keyNode, "unknown key `\(e.key)` in \(what)\(Suggestion.uikitHint(e.key) ?? Suggestion.hint(e.key, allowed))")
            }
        }
        return out
    }

    /// `scalarExpected`: a number or true/false was asked for, so quotes are the likely mistake.
    func describe(_ node: Node, scalarExpected: Bool = false) -> String {
        switch node {
        case .scalar(let s):
            if isNull(s) || (s.string.isEmpty && s.style == .plain) { return s.string.isEmpty ? "nothing (an empty value)" : "`\(s.string)` (YAML's null)" }
            if s.style == .singleQuoted || s.style == .doubleQuoted {
                return scalarExpected ? "the quoted text `\(s.string)` (quotes make it text: leave them out for a number or true/false)"
                    : "`\(s.string)`"
            }
            if taggedText(s) { return "the text `\(s.string)` (tagged !!str)" }
            return "`\(s.string)`"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    private func plainScalar(_ node: Node) -> Node.Scalar? {
        if case .scalar(let s) = node { return s }
        return nil
    }

    /// Longest text value (titles, item labels, names): longer text only costs layout time.
    static let maxTextLength = 500

    /// A plain `null` or `~` (YAML's null, which the composer leaves unresolved): no value, not
    /// the text "null" (quote it for that).
    private func isNull(_ s: Node.Scalar) -> Bool {
        s.tag == Tag(.null) || (s.style == .plain && ["null", "Null", "NULL", "~"].contains(s.string))
    }

    /// An explicit `!!str` tag: text, even when it reads as a number or a boolean.
    private func taggedText(_ s: Node.Scalar) -> Bool { s.tag == Tag(.str) }

    func string(_ node: Node, _ what: String) -> String? {
        guard let s = plainScalar(node), !isNull(s), !(s.string.isEmpty && s.style == .plain) else {
            error(node, "\(what) must be text, not \(describe(node))")
            return nil
        }
        if s.string.unicodeScalars.count > Self.maxTextLength {
            error(node, "\(what) has \(s.string.unicodeScalars.count) characters; at most \(Self.maxTextLength) are allowed")
            return nil
        }
        return s.string
    }

    /// No number in a scenario may be larger than this in magnitude, whatever its key (docs/limits.md):
    /// keys without a tighter range still cannot feed huge values to the timeline or the canvas.
    static let maxMagnitude = 1_000_000.0

    func double(_ node: Node, _ what: String, min: Double? = nil, max: Double? = nil, above: Double? = nil) -> Double? {
        guard let s = plainScalar(node), s.style == .plain || s.style == .any, !taggedText(s), let v = node.float ?? node.int.map(Double.init),
              v.isFinite else {
            error(node, "\(what) must be a number, not \(describe(node, scalarExpected: true))")
            return nil
        }
        // The field's own range first: `wait: 1e7` is over wait's 3600, which says more than the
        // bound on every number (an audit, 2026-11-29, found "within ±1000000" for it).
        if let min, v < min { error(node, "\(what) must be at least \(format(min)), not \(format(v))"); return nil }
        if let max, v > max { error(node, "\(what) must be at most \(format(max)), not \(format(v))"); return nil }
        if let above, v <= above { error(node, "\(what) must be more than \(format(above)), not \(format(v))"); return nil }
        if abs(v) > Self.maxMagnitude {
            // (A field bounded on one side is told the other side's bound alone.)
            let bound = v > 0 && (min != nil || above != nil) ? "at most \(format(Self.maxMagnitude))"
                : v < 0 && max != nil ? "at least \(format(-Self.maxMagnitude))" : "within ±\(format(Self.maxMagnitude))"
            error(node, "\(what) must be \(bound), not \(format(v))")
            return nil
        }
        return v
    }

    func int(_ node: Node, _ what: String, min: Int? = nil, max: Int? = nil) -> Int? {
        guard let s = plainScalar(node), s.style == .plain || s.style == .any, !taggedText(s), let v = node.int else {
            // A whole number too large for an Int is out of range, not "not a whole number".
            if let s = plainScalar(node), s.style == .plain || s.style == .any, !taggedText(s),
               s.string.wholeMatch(of: /[-+]?[0-9]{19,}/) != nil {
                let side = s.string.hasPrefix("-") ? (min.map { "at least \($0)" } ?? "in range") : (max.map { "at most \($0)" } ?? "in range")
                error(node, "\(what) must be \(side), not \(s.string)")
                return nil
            }
            error(node, "\(what) must be a whole number, not \(describe(node, scalarExpected: true))")
            return nil
        }
        if let min, v < min { error(node, "\(what) must be at least \(min), not \(v)"); return nil }
        if let max, v > max { error(node, "\(what) must be at most \(max), not \(v)"); return nil }
        return v
    }

    func bool(_ node: Node, _ what: String) -> Bool? {
        // YAML 1.1 would also take yes/no/on/off; only true and false are accepted, to avoid the
        // classic surprises.
        guard let s = plainScalar(node), s.style == .plain || s.style == .any, !taggedText(s), s.string == "true" || s.string == "false" else {
            error(node, "\(what) must be true or false, not \(describe(node, scalarExpected: true))")
            return nil
        }
        return s.string == "true"
    }

    func color(_ node: Node, _ what: String) -> ScenarioColor? {
        guard let s = plainScalar(node), s.tag != Tag(.null), !(s.string.isEmpty && s.style == .plain) else {
            error(node, "\(what) must be a quoted colour such as \"#RRGGBB\"; an unquoted # starts a YAML comment")
            return nil
        }
        guard let c = ScenarioColor(hex: s.string) else {
            error(node, "\(what) must be a colour \"#RRGGBB\" or \"#RRGGBBAA\", not `\(s.string)`\(ScenarioColor.hint(for: s.string))")
            return nil
        }
        return c
    }

    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _ type: T.Type) -> T? where T.RawValue == String {
        guard let word = string(node, what) else { return nil }
        if let v = T(rawValue: word) { return v }
        let names = T.allCases.map(\.rawValue)
        let platform = T.self == BarStyle.self ? Suggestion.barStyleNames[word.lowercased()].map { " (\($0))" } : nil
        error(node, "\(what) must be one of \(names.joined(separator: ", ")), not `\(word)`\(platform ?? Suggestion.hint(word, names))")
        return nil
    }

    func numbers(_ node: Node, _ what: String, count: Int, min: Double? = nil, max: Double? = nil) -> [Double]? {
        guard case .sequence(let seq) = node, seq.count == count else {
            error(node, "\(what) must be a list of \(count) numbers")
            return nil
        }
        let values = seq.map { double($0, what, min: min, max: max) }
        guard values.allSatisfy({ $0 != nil }) else { return nil }
        return values.map { $0! }
    }

    func list(_ node: Node, _ what: String, maxCount: Int? = nil) -> [Node]? {
        guard case .sequence(let seq) = node else {
            error(node, "\(what) must be a list, not \(describe(node))")
            return nil
        }
        if let maxCount, seq.count > maxCount {
            error(node, "\(what) has \(seq.count) entries; at most \(maxCount) are allowed")
            return nil
        }
        return Array(seq)
    }

    func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e12 ? String(Int(v)) : String(v)
    }
}
