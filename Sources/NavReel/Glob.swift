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

/// Shell-style patterns (`*`, `?`, `[...]`) on names, as `--filter` takes them.
public enum Glob {
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}
