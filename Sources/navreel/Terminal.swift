import NavReel
import Compare
import Navigation
import Raster
import Scenario
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard error, written unbuffered.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { Terminal.write(string, to: 2) }
}

enum Terminal {
    static func write(_ string: String, to fd: Int32) {
        var bytes = Array(string.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = sysWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
    }

    static func error(_ message: String) {
        write("navreel: error: \(TerminalText.visible(message))\n", to: 2)
        if let gh = getenv("GITHUB_ACTIONS"), String(cString: gh) == "true" {
            // (escapeData: a carriage return or % in a file name cannot end the command early.)
            write("::error::\(GitHubActions.escapeData(TerminalText.visible(message)))\n", to: 1)
        }
    }

    static var isTTY: Bool { isatty(2) == 1 }

    static func exit(_ code: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(code)
        #else
        Darwin.exit(code)
        #endif
    }

    /// The stream lines for people go to: 1, or 2 when JSON takes standard output.
    static func humanStream(json: String?) -> Int32 { json == "-" ? 2 : 1 }

    /// Whether to colour what goes to `fd` (ColorChoice has the rules).
    static func color(_ choice: ColorChoice, fd: Int32) -> Bool {
        var env: [String: String] = [:]
        for name in ["FORCE_COLOR", "NO_COLOR"] { env[name] = environment(name) }
        return choice.enabled(isTerminal: isatty(fd) == 1, environment: env)
    }

    /// Where lines for people go: standard output, or standard error when JSON takes standard
    /// output (`--json -`), so the JSON stays parseable.
    static func humanOutput(json: String?) -> (String) -> Void {
        json == "-" ? { write($0 + "\n", to: 2) } : { print($0) }
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

private func sysWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
