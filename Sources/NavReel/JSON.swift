/// A JSON value with ordered object keys, so that output is byte-stable and diffable.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (l: JSON, r: JSON) -> Bool { l.rendered() == r.rendered() }

    /// Compact (one line) or indented by two spaces.
    public func rendered(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : nil)
        return out
    }

    private func write(into out: inout String, indent: Int?) {
        // The line breaks and indentation of a container (made for containers only: building
        // them for every number and string was a fifth of rendering a suite's results, issue 17).
        var newline: String { indent.map { "\n" + String(repeating: "  ", count: $0) } ?? "" }
        var inner: String { indent.map { "\n" + String(repeating: "  ", count: $0 + 1) } ?? "" }
        let colon = indent == nil ? ":" : ": "
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                if d == d.rounded() && abs(d) < 1e15 { out += String(Int(d)) } else { out += "\(d)" }
            } else { out += "null" }
        case .string(let s): JSON.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            // Numbers on one line, as a rectangle is read: [2, 2, 130, 53].
            if indent != nil, items.allSatisfy({ if case .int = $0 { return true }; if case .double = $0 { return true }; return false }) {
                out += "["
                for (n, item) in items.enumerated() {
                    out += n == 0 ? "" : ", "
                    item.write(into: &out, indent: nil)
                }
                out += "]"
                return
            }
            out += "["
            let inner = inner
            for (n, item) in items.enumerated() {
                if n > 0 { out += "," }
                out += inner
                item.write(into: &out, indent: indent.map { $0 + 1 })
            }
            out += newline + "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{"
            let inner = inner
            for (n, (key, value)) in pairs.enumerated() {
                if n > 0 { out += "," }
                out += inner
                JSON.escape(key, into: &out)
                out += colon
                value.write(into: &out, indent: indent.map { $0 + 1 })
            }
            out += newline + "}"
        }
    }

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        // Most strings (names, paths, words) need nothing escaped: appended whole. The bytes
        // that need it are ASCII, but for U+2028 and U+2029, whose UTF-8 starts with 0xE2.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x3C && $0 != 0x3E && $0 != 0x26 && $0 != 0xE2 }) {
            out += s
            out += "\""
            return
        }
        escapeScalars(s, into: &out)
        out += "\""
    }

    /// The body of a JSON string, one scalar at a time (`escape` without its shortcut).
    static func escapeScalars(_ s: String, into out: inout String) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"  // safe to embed in HTML <script>
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }
}
