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
