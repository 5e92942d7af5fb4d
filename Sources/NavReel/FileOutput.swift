import Compare
import CSignals
import Foundation
import Navigation
import Raster
import Scenario

/// Writes files atomically: a temporary file in the same folder, flushed to disk, then renamed
/// over the target, so a reader (or a crash) never sees half a file. `durable: false` skips the
/// flush, for report artefacts the next run writes again.
public enum FileOutput {
    /// Folders this process has made or found, so that a record of 790 frames into a dozen
    /// folders asks the file system for each folder once, not before every file: creating the
    /// folder path each time took 4.7 `stat` calls a file and Foundation's path handling (issue
    /// 17). A folder removed since is made again when the file cannot be created in it.
    private static let knownFolders = KnownFolders()

    final class KnownFolders: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = []
        func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
        func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    }

    /// The file `write` fills beside `name` before it renames it into place:
    /// `.NAME.<pid>.<number>.tmp`, the number one more for each file from a random start.
    /// (A random number for each file and `getpid` each time were two system calls a file:
    /// 2,000 of a record's 10,000, issue 17. A name another process left, whose id this process
    /// now has, is skipped: `write` creates with O_EXCL and takes the next number.)
    static func temporaryName(for name: String, numbers: TemporaryNumbers = .shared) -> String {
        ".\(name).\(processID).\(numbers.next()).tmp"
    }
    private static let processID = getpid()

    final class TemporaryNumbers: @unchecked Sendable {
        static let shared = TemporaryNumbers()
        private let lock = NSLock()
        private var number: UInt32
        init(start: UInt32 = UInt32.random(in: 0...UInt32.max)) { number = start }
        func next() -> UInt32 { lock.withLock { number &+= 1; return number } }
        /// The last number given (tests).
        var last: UInt32 { lock.withLock { number } }
    }

    /// For a file name `temporaryName` made: the name it was written for and the writer's process;
    /// nil for any other name. (A killed writer leaves one behind: `SuiteRunner.orphans`.)
    public static func temporaryOwner(_ file: String) -> (name: String, pid: Int32)? {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[0].isEmpty, parts.last == "tmp", let pid = Int32(parts[parts.count - 3]), pid > 0,
              UInt32(parts[parts.count - 2]) != nil else { return nil }
        let name = parts[1..<(parts.count - 3)].joined(separator: ".")
        return name.isEmpty ? nil : (name, pid)
    }

    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        try write(bytes, to: path, durable: durable, numbers: .shared)
    }

    /// `numbers`: where temporary names take their numbers (tests give their own).
    static func write(_ bytes: [UInt8], to path: String, durable: Bool, numbers: TemporaryNumbers) throws {
        // The folder and the file's name taken from the path as text, and a folder already there
        // found with one `stat`: Foundation's URL and FileManager took 0.25-0.4 ms of the first
        // write of a process (timed inside it); a 1x `diff -o` 7.31 -> 7.21 ms (81 interleaved
        // runs, issue 17).
        let (folder, name) = try Self.split(path)
        func makeFolder() throws {
            // Several threads may make the same folder at once: only a failure is looked into.
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                if let problem = folderProblem(folder) { throw UsageError("\(path): cannot write: \(problem)") }
                throw UsageError("\(path): cannot make its folder \(folder): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
            }
            knownFolders.insert(folder)
        }
        if !knownFolders.contains(folder) {
            var info = stat()
            if stat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { knownFolders.insert(folder) } else { try makeFolder() }
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var temporary = prefix + temporaryName(for: name, numbers: numbers)
        // Removed by the command line's SIGINT/SIGTERM/SIGHUP handler if the process is stopped
        // before the rename (Sources/CSignals); noted before the file exists. (Another thread
        // creating its file while the handler runs, or SIGKILL, can still leave one behind.)
        var slot = nr_temp_register(temporary)
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT {
            // The folder was removed after this process last wrote into it: make it again.
            do { try makeFolder() } catch {
                nr_temp_release(slot)
                throw error
            }
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        // The name is taken (left by a killed process that had this id): the next numbers. While
        // a taken name is registered, a signal would have the handler remove that file: a
        // temporary file of a dead process, which `prune` removes too.
        var tries = 0
        while fd < 0 && errno == EEXIST && tries < 16 {
            tries += 1
            nr_temp_release(slot)
            temporary = prefix + temporaryName(for: name, numbers: numbers)
            slot = nr_temp_register(temporary)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            let message = String(cString: strerror(errno))
            nr_temp_release(slot)
            throw UsageError("\(temporary): cannot create: \(message)")
        }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
            nr_temp_release(slot)
        }
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    let message = String(cString: strerror(errno))
                    close(fd)
                    throw UsageError("\(path): cannot write: \(message)")
                }
                offset += n
            }
        }
        guard !durable || fsync(fd) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw UsageError("\(path): cannot flush: \(message)")
        }
        // Without a flush, a full disk or quota (NFS especially) may show only here.
        guard close(fd) == 0 else {
            throw UsageError("\(path): cannot write: \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            throw UsageError("\(path): cannot rename into place: \(String(cString: strerror(errno)))")
        }
        ok = true
    }

    /// Why files cannot be written into `folder` (made with its parents when missing), or nil
    /// when nothing is in the way: the nearest part of the path that exists is a file, or a
    /// folder this process may not write into. Commands ask before rendering, so that a wrong
    /// `--report` is one error naming it, not an error per frame after the whole run.
    /// Not `writable`: the folder is only read, so only a file in its place is a problem.
    public static func folderProblem(_ folder: String, writable: Bool = true) -> String? {
        // An empty path names no folder: `--out ""` joined to a frame's path wrote under / (an
        // audit, 2026-11-29: `render --out ""` wrote /wechat-pop/iphone-14/, exit 0).
        guard !folder.isEmpty else { return "an empty path names no folder" }
        var part = folder
        var looks = 0
        while true {
            var info = stat()
            if stat(part, &info) == 0 {
                if info.st_mode & S_IFMT != S_IFDIR { return "\(part) is a file, not a folder" }
                return !writable || access(part, W_OK | X_OK) == 0 ? nil : "\(part): \(String(cString: strerror(errno)))"
            }
            guard errno == ENOENT || errno == ENOTDIR else { return "\(part): \(String(cString: strerror(errno)))" }
            if errno == ENOENT && lstat(part, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK { return "\(part) is a symbolic link to nothing" }
                // Made between the two calls (another thread writing into it): look again.
                looks += 1
                if looks < 4 { continue }
            }
            if part == "." || part == "/" { return "\(part): \(String(cString: strerror(errno)))" }   // the working folder is gone
            // "." for a bare name (PathText.parent answers "", as Foundation does).
            let parent = PathText.parent(part)
            part = parent.isEmpty ? "." : parent
        }
    }

    /// `path` made absolute with its links resolved, as far as it exists: the part that does not
    /// exist yet (an output about to be written) is appended to its nearest existing folder's
    /// real path, so that two names of one place compare equal before either is written. `..`
    /// is resolved by the file system where the path exists (`lnk/..` is the folder above the
    /// link's target, not the folder holding the link: a review, 2026-11-29, found the check of
    /// outputs over inputs passed that way) and by its text only in the part that does not.
    public static func resolvedPath(_ path: String) -> String {
        var absolute = path.isEmpty ? "." : path
        if !absolute.hasPrefix("/") {
            let cwd = FileManager.default.currentDirectoryPath
            absolute = (cwd == "/" ? "" : cwd) + "/" + absolute
        }
        var head = absolute, tail: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                var parts = String(cString: real).split(separator: "/").map(String.init)
                for part in tail.reversed() {
                    if part == "." || part.isEmpty { continue }
                    if part == ".." { if !parts.isEmpty { parts.removeLast() } } else { parts.append(part) }
                }
                return "/" + parts.joined(separator: "/")
            }
            let parent = PathText.parent(head)
            guard !parent.isEmpty, parent != head else { return absolute }
            var last = Substring(head)
            while last.count > 1 && last.hasSuffix("/") { last = last.dropLast() }
            tail.append(String(last.split(separator: "/").last ?? ""))
            head = parent
        }
    }

    /// Why a file cannot be written at `path`, or nil: a folder is there, or its folder is in
    /// the way (`folderProblem`).
    public static func fileProblem(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return "\(path) is a folder, not a file" }
        guard let (folder, _) = try? split(path) else { return "\(path) names no file" }
        return folderProblem(folder)
    }

    /// The folder a file path names ("." for a bare name, "/" at the root) and the file's name.
    /// A path that ends in "/" (or is empty) names no file.
    static func split(_ path: String) throws -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else {
            guard !path.isEmpty else { throw UsageError("an empty path names no file") }
            return (".", path)
        }
        let name = String(path[path.index(after: slash)...])
        guard !name.isEmpty else { throw UsageError("\(path): names a folder, not a file") }
        let folder = path[..<slash]
        return (folder.isEmpty ? "/" : String(folder), name)
    }

    public static func write(_ text: String, to path: String, durable: Bool = true) throws {
        try write(Array(text.utf8), to: path, durable: durable)
    }
}

/// Path text without Foundation's path methods where they trap.
public enum PathText {
    /// The path without its last component, as `NSString.deletingLastPathComponent` answers ("a/b"
    /// -> "a", "/a" -> "/", "a" -> ""), which on Linux traps on any one-character path ("a", ".",
    /// "a/"): swift-corelibs-foundation's `_startOfLastPathComponent` (found 2026-11-27 by
    /// `navreel compare --expected e`, exit 132).
    public static func parent(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var head = p[..<slash]
        while head.count > 1 && head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }

    /// Whether `a` sorts before `b` when numbers in names count as numbers: `frame2.png` before
    /// `frame10.png`, `9/0000.png` before `10/0000.png`. Runs of ASCII digits compare by value
    /// (leading zeros ignored), except the digits after a decimal point (a `.` between digits),
    /// which compare digit by digit as a fraction's do (`shot-0.05.png` before `shot-0.1.png`,
    /// timestamps as `time.time()` writes them); everything else compares byte by byte. Names
    /// equal that way (`01` and `1`) fall back to plain byte order, so the order is total and the
    /// same on every machine. Zero-padded names (`0000.png`...) keep the order plain sorting gives
    /// them. Captured frames are often numbered without padding (`frame1.png`... `frame10.png`,
    /// FFmpeg's `%d.png`), and a folder matched against a video frame by frame must take them in
    /// the order they were taken. The dot before a file's extension sorts before any other
    /// character, so a name comes before its longer variants: macOS's `Screenshot ... 10.10.00.png`
    /// before `Screenshot ... 10.10.00 (2).png`, taken after it (a space sorts before a dot).
    public static func naturallyBefore(_ a: String, _ b: String) -> Bool {
        let x = extensionDotLowest(a), y = extensionDotLowest(b)
        var i = 0, j = 0
        @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        // Digits right after a `.` that follows a digit: a fraction's.
        @inline(__always) func fraction(_ s: [UInt8], _ k: Int) -> Bool { k >= 2 && s[k - 1] == 0x2E && isDigit(s[k - 2]) }
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var i1 = i, j1 = j
                while i1 < x.count && isDigit(x[i1]) { i1 += 1 }
                while j1 < y.count && isDigit(y[j1]) { j1 += 1 }
                if fraction(x, i) && fraction(y, j) {
                    // Digit by digit; a run that is the other's beginning is the smaller.
                    while i < i1 && j < j1 {
                        if x[i] != y[j] { return x[i] < y[j] }
                        i += 1; j += 1
                    }
                    if (i == i1) != (j == j1) { return i == i1 }
                    continue
                }
                var i0 = i, j0 = j
                while i0 < i1 - 1 && x[i0] == 0x30 { i0 += 1 }
                while j0 < j1 - 1 && y[j0] == 0x30 { j0 += 1 }
                // More significant digits is the larger number; equal lengths compare digit by digit.
                if i1 - i0 != j1 - j0 { return i1 - i0 < j1 - j0 }
                while i0 < i1 {
                    if x[i0] != y[j0] { return x[i0] < y[j0] }
                    i0 += 1; j0 += 1
                }
                i = i1; j = j1
            } else {
                if x[i] != y[j] { return x[i] < y[j] }
                i += 1; j += 1
            }
        }
        // One name ran out: the shorter comes first; both did (`01` and `1`): byte order decides.
        if i < x.count || j < y.count { return i == x.count }
        return x.lexicographicallyPrecedes(y)
    }

    /// The name's bytes with the dot before its extension (the last dot of the last path
    /// component, not its first byte, followed by at least one byte that is not a digit) as 0,
    /// a byte no file name holds: replacing one byte by another no name has keeps the order total.
    /// Digits after a last dot are a fraction's (`shot-0.05`), not an extension.
    static func extensionDotLowest(_ name: String) -> [UInt8] {
        var bytes = Array(name.utf8)
        guard let dot = bytes.lastIndex(of: 0x2E), dot + 1 < bytes.count else { return bytes }
        let componentStart = (bytes[..<dot].lastIndex(of: 0x2F) ?? -1) + 1
        guard dot > componentStart, !bytes[(dot + 1)...].contains(0x2F),
              bytes[(dot + 1)...].contains(where: { $0 < 0x30 || $0 > 0x39 }) else { return bytes }
        bytes[dot] = 0
        return bytes
    }
}
