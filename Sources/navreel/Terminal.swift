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
        write("navreel: error: \(message)\n", to: 2)
        if let gh = getenv("GITHUB_ACTIONS"), String(cString: gh) == "true" {
            write("::error::\(message.replacingOccurrences(of: "\n", with: "%0A"))\n", to: 1)
        }
    }

    static var isTTY: Bool { isatty(2) == 1 }

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
