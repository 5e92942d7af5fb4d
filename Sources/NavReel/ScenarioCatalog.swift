import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// The scenario files of a suite: `Fixtures/scenarios/*.yaml` (and .yml, .json), with image
/// paths relative to the folder above (`Fixtures/`).
public struct ScenarioCatalog: Sendable {
    public let directory: String
    public let fixturesRoot: String
    /// Every file, sorted by path, with its parse result.
    public let entries: [(path: String, result: Result<Scenario, ScenarioErrors>)]

    /// Loads the files of `directory`, or only `selection` (file paths, or scenario names).
    static func isFile(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue
    }

    /// The file name extensions read as scenarios (directly in the scenarios folder).
    public static let extensions = ["yaml", "yml", "json"]

    /// Whether `path` is a folder (through links).
    public static func isFolder(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
    }

    /// `imageCheck`: a deeper look at each image a scenario names (`ScenarioParser.ImageCheck`;
    /// `lint` passes `ScenarioCatalog.readableImage`).
    public init(directory: String, selection: [String] = [], filters: [String] = [],
                imageCheck: ScenarioParser.ImageCheck? = nil) throws {
        self.directory = directory
        var isDir: ObjCBool = false
        let files: [String]
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue {
            fixturesRoot = Self.parent(of: directory)
            files = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { Self.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
                .map { (directory as NSString).appendingPathComponent($0) }
        } else if let first = selection.first, selection.allSatisfy({ Self.isFile($0) }) {
            // Only files named (`navreel lint a.yaml` outside a project): no folder needed; their
            // images are relative to the parent of the first file's folder, as for a folder of scenarios.
            let folder = PathText.parent(first)
            fixturesRoot = Self.parent(of: folder.isEmpty ? "." : folder)
            files = []
        } else {
            throw UsageError("\(directory): no such folder (set --scenarios)")
        }
        var chosen = files
        if !selection.isEmpty {
            chosen = []
            for item in selection {
                if FileManager.default.fileExists(atPath: item) { chosen.append(item); continue }
                let byName = files.filter { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension == item }
                guard !byName.isEmpty else {
                    let names = files.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
                    throw UsageError("no scenario `\(item)` in \(directory)\(Suggestion.hint(item, names))")
                }
                chosen += byName
            }
            // A file named twice (by name and by path, or twice): once, not a second scenario of
            // its own name (an audit, 2026-11-29: `render wechat-pop wechat-pop` failed the file
            // as "already used by" itself).
            var seen = Set<String>()
            chosen = chosen.filter { seen.insert(FileOutput.resolvedPath($0)).inserted }
        }
        let root = fixturesRoot
        // Each image is decoded once, however many scenarios name it (a shared background);
        // the parser's signature test still reads its first bytes at every mention.
        let check = imageCheck.map { check in
            let seen = ImageCheckMemo()
            return { @Sendable (path: String) in seen.answer(path, check) } as ScenarioParser.ImageCheck
        }
        var entries = chosen.map { path in (path: path, result: ScenarioParser.load(path: path, fixturesRoot: root, imageCheck: check)) }
        if !filters.isEmpty {
            entries = entries.filter { entry in
                let name = (try? entry.result.get().name) ?? ((entry.path as NSString).lastPathComponent as NSString).deletingPathExtension
                return filters.contains { Glob.matches($0, name) }
            }
        }
        // Two files must not claim the same scenario name: their baselines would collide.
        // The error goes to the file whose `name:` takes another file's name, at that line, when
        // one of the two named itself (an audit, 2026-11-29: it landed on ok.yaml, whose name is
        // its file's, for `name: ok` in another file); else to the later file.
        var seen: [String: Int] = [:]
        func stem(_ path: String) -> String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
        for (i, entry) in entries.enumerated() {
            guard case .success(let s) = entry.result else { continue }
            if let j = seen[s.name] {
                let guilty = stem(entry.path) == s.name && stem(entries[j].path) != s.name ? j : i
                let other = guilty == i ? entries[j].path : entry.path
                let at = Self.nameLine(entries[guilty].path) ?? (1, 1)
                entries[guilty].result = .failure(ScenarioErrors([ScenarioIssue(ScenarioLocation(file: entries[guilty].path, line: at.line, column: at.column),
                                                                                 "scenario name `\(s.name)` is already used by \(other)")]))
                if guilty == j { seen[s.name] = i }
            } else {
                seen[s.name] = i
            }
        }
        self.entries = entries
    }

    /// Where a scenario file's top-level `name:` value starts (line, column), or nil.
    static func nameLine(_ path: String) -> (line: Int, column: Int)? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return nil }
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("name:") {
            let value = line.dropFirst(5).prefix { $0 == " " }.count
            return (k + 1, 6 + value)
        }
        return nil
    }

    /// Why a catalog read from a folder is no suite at all, or nil: the folder holds no scenario
    /// file (a wrong `--scenarios`, or files one folder down, which are not read). A check of
    /// nothing passed with exit 0, so a wrong path in CI was silently green. With a filter the
    /// filter's own error says more (`SuiteRunner.validate`).
    public func emptyProblem(filters: [String] = []) -> String? {
        guard entries.isEmpty, filters.isEmpty else { return nil }
        var below: [String] = []
        if let walker = FileManager.default.enumerator(atPath: directory) {
            while let item = walker.nextObject() as? String, below.count < 3 {
                if Self.extensions.contains((item as NSString).pathExtension.lowercased()) && item.contains("/") { below.append(item) }
            }
        }
        let hint = below.isEmpty ? "check --scenarios (or navreel.yaml's scenarios)"
            : "files in subfolders are not read (found \(below.map { directory + "/" + $0 }.joined(separator: ", "))); move them up or point --scenarios at their folder"
        return "no scenario files in \(directory) (*.yaml, *.yml or *.json directly in it): \(hint)"
    }

    /// Scenarios made in code (or parsed from text) rather than read from a folder: images are
    /// found under `fixturesRoot`.
    public init(scenarios: [Scenario], fixturesRoot: String) {
        directory = (fixturesRoot as NSString).appendingPathComponent("scenarios")
        self.fixturesRoot = fixturesRoot
        entries = scenarios.map { (path: $0.file, result: .success($0)) }
    }

    /// The folder above `directory`, as a path. Plain string work: Foundation's
    /// `deletingLastPathComponent` traps on "." on Linux (issue 16), and "." or ".." need a
    /// real parent ("./..") rather than the empty string.
    static func parent(of directory: String) -> String {
        var d = directory
        while d.count > 1 && d.hasSuffix("/") { d.removeLast() }
        if d == "/" { return "/" }
        let parts = d.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.last, last != ".", last != "..", !last.isEmpty else { return d + "/.." }
        if parts.count == 1 { return "." }
        let head = parts.dropLast().joined(separator: "/")
        return head.isEmpty ? "/" : head
    }

    public var scenarios: [Scenario] { entries.compactMap { try? $0.result.get() } }

    /// Answers of an image check by path, for one catalog.
    final class ImageCheckMemo: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String: String?] = [:]
        func answer(_ path: String, _ check: ScenarioParser.ImageCheck) -> String? {
            if let known = lock.withLock({ answers[path] }) { return known }
            let found = check(path)
            lock.withLock { answers[path] = .some(found) }
            return found
        }
    }

    /// `lint`'s look at an image: the whole file read and checked as drawing it reads it
    /// (`PNG.read` with the default limits: chunks, CRCs, the image data inflated, sizes), so
    /// that a truncated or damaged image is an error at the line that names it rather than the
    /// same error for every frame of `check`. A file the parser's signature test already named
    /// (a JPEG, an empty file) never gets here.
    public static let readableImage: ScenarioParser.ImageCheck = { path in
        do throws(PNGError) {
            _ = try PNG.read(path: path)
            return nil
        } catch {
            return "is not a readable PNG image: \(error.kind.rawValue): \(error.message)"
        }
    }
    public var errors: [ScenarioErrors] {
        entries.compactMap { if case .failure(let e) = $0.result { return e } else { return nil } }
    }

    /// The files whose scenarios have errors.
    public var brokenFiles: [String] {
        entries.compactMap { if case .failure = $0.result { return $0.path } else { return nil } }
    }
}
