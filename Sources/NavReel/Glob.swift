#if canImport(Glibc)
import Compare
import Foundation
import Navigation
import Raster
import Scenario
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--filter` patterns on names: a pattern with a shell wildcard (`*`, `?`, `[...]`, or a `\`
/// escape) matches the whole name as a glob; plain text matches any name containing it (as
/// Playwright's and Jest's filters do), so `--filter wechat` selects wechat-pop and wechat-pop-zh.
public enum Glob {
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        if pattern.contains(where: { "*?[\\".contains($0) }) { return fnmatch(pattern, name, 0) == 0 }
        return name.contains(pattern)
    }

    /// The `--filter` value that selects `name` alone among `names`: the name as it is when that
    /// is plain text no other name contains, else `exact(name)` (the report's approve commands
    /// and the missing-baseline hint).
    public static func selecting(_ name: String, among names: [String]) -> String {
        let plain = !name.contains(where: { "*?[\\".contains($0) }) && !names.contains { $0 != name && $0.contains(name) }
        return plain ? name : exact(name)
    }

    /// A pattern matching exactly `name` (each wildcard character escaped; the first character in
    /// brackets so that the pattern is a glob, not a substring).
    public static func exact(_ name: String) -> String {
        guard let first = name.first else { return name }
        func esc(_ c: Character) -> String { "*?[]\\".contains(c) ? "\\" + String(c) : String(c) }
        let head = "*?[]\\!^-".contains(first) ? esc(first) : "[" + String(first) + "]"
        return head + name.dropFirst().map(esc).joined()
    }
}
