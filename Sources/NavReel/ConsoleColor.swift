/// When to colour text written for people, decided per output stream.
///
/// Order of precedence: `--color always|never`, then `FORCE_COLOR`, then `NO_COLOR`, then whether
/// the stream itself is a terminal. NO_COLOR (no-color.org): "when present and not an empty
/// string, prevents the addition of ANSI color" unless the user asks for it on the command line.
/// FORCE_COLOR (force-color.org): present and not empty forces colour; like Node.js
/// ("FORCE_COLOR ... overrides NO_COLOR", nodejs.org/api/cli.html) it wins over NO_COLOR, except
/// that `FORCE_COLOR=0` (Node's and chalk's "no colour") turns colour off.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    public func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let force = environment["FORCE_COLOR"], !force.isEmpty { return force != "0" && force.lowercased() != "false" }
            if let no = environment["NO_COLOR"], !no.isEmpty { return false }
            return isTerminal
        }
    }
}

/// Text from file names and messages as it may reach a terminal: control characters (C0 but
/// newline and tab, DEL, C1) written as `\u{1B}`, so a file or folder name cannot move the
/// cursor, clear the screen or set the window title of whoever reads the output.
public enum TerminalText {
    public static func visible(_ s: String) -> String {
        @inline(__always) func isControl(_ v: UInt32) -> Bool { (v < 0x20 && v != 0x0A && v != 0x09) || (v >= 0x7F && v <= 0x9F) }
        guard s.unicodeScalars.contains(where: { isControl($0.value) }) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            if isControl(u.value) { out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}
