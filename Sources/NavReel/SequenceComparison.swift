import Compare
import Foundation
import Raster

/// `navreel compare --actual DIR --expected DIR`: PNG sequences captured elsewhere, matched by
/// relative path, compared with the same rules as rendered frames.
public struct SequenceComparison: Sendable {
    public enum Status: Sendable, Equatable {
        case passed
        case failed
        /// A frame in the actual folder with no baseline.
        case missingExpected
        /// A baseline with no frame in the actual folder.
        case missingActual
        /// An input could not be read; never a pass.
        case error(String)

        public var label: String {
            switch self {
            case .passed: return "passed"
            case .failed: return "failed"
            case .missingExpected: return "missing baseline"
            case .missingActual: return "missing frame"
            case .error: return "error"
            }
        }
    }

    public struct Frame: Sendable {
        /// Path relative to both folders.
        public var path: String
        public var status: Status
        public var comparison: Comparison?
        /// Where the diff image was written (failures only).
        public var diffPath: String?
    }

    public var frames: [Frame]

    public var passed: Int { frames.filter { $0.status == .passed }.count }
    public var failed: Int { frames.filter { $0.status != .passed }.count }
    public var errors: Int { frames.filter { if case .error = $0.status { return true } else { return false } }.count }

    /// 0 when every frame passed, 2 when an input was unreadable, 1 otherwise (CLI.md).
    public var exitCode: Int32 { errors > 0 ? 2 : (failed > 0 ? 1 : 0) }

    public static func run(actual: String, expected: String, settings: ComparisonSettings, reportDirectory: String?,
                           filters: [String] = [], diffStyle: DiffStyle = .classic, limits: PNGLimits = .default,
                           jobs: Int = ImageComparator.defaultJobs,
                           progress: (@Sendable (Frame, Int, Int) -> Void)? = nil) throws -> SequenceComparison {
        for dir in [actual, expected] {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                throw UsageError("\(dir): no such folder")
            }
        }
        let actualFiles = Set(try pngFiles(under: actual))
        let expectedFiles = try pngFiles(under: expected)
        let all = Set(expectedFiles).union(actualFiles).sorted()
            .filter { path in filters.isEmpty || filters.contains { Glob.matches($0, path) } }
        let sortedExpected = expectedFiles.sorted()
        let expectedSet = Set(sortedExpected)

        // The baseline frames before and after each one in its folder, for the timing rule.
        var neighbors: [String: [String]] = [:]
        if settings.tolerance.temporal {
            let byFolder = Dictionary(grouping: sortedExpected) { ($0 as NSString).deletingLastPathComponent }
            for (_, files) in byFolder {
                for (k, file) in files.enumerated() {
                    neighbors[file] = [k > 0 ? files[k - 1] : nil, k + 1 < files.count ? files[k + 1] : nil].compactMap { $0 }
                }
            }
        }

        var frames = [Frame?](repeating: nil, count: all.count)
        let done = Counter()
        // Frames in parallel over `jobs` workers, each image split no further. Workers take runs
        // of consecutive frames and keep the last few decoded baselines, so that with --temporal
        // a baseline serves as frame and as neighbour without being decoded again. Memory stays
        // at a few frames per worker.
        let comparator = ImageComparator(settings: settings, jobs: 1)
        let run = 16
        let units = stride(from: 0, to: all.count, by: run).map { $0..<min(all.count, $0 + run) }
        frames.withUnsafeMutableBufferPointer { out in
            Parallel.forEach(units.count, workers: jobs) { u in
                var recent: [(path: String, png: DecodedPNG)] = []
                let baseline = { (path: String) throws -> DecodedPNG in
                    if let hit = recent.first(where: { $0.path == path }) { return hit.png }
                    let png = try PNG.read(path: expected + "/" + path, limits: limits)
                    recent.append((path, png))
                    if recent.count > 3 { recent.removeFirst() }
                    return png
                }
                for index in units[u] {
                    let path = all[index]
                    let frame = compareOne(path, actual: actual, expected: expected, hasActual: actualFiles.contains(path),
                                           hasExpected: expectedSet.contains(path), neighbors: neighbors[path] ?? [],
                                           comparator: comparator, reportDirectory: reportDirectory, diffStyle: diffStyle,
                                           limits: limits, baseline: baseline)
                    out[index] = frame
                    progress?(frame, done.increment(), all.count)
                }
            }
        }
        return SequenceComparison(frames: frames.map { $0! })
    }

    static func compareOne(_ path: String, actual: String, expected: String, hasActual: Bool, hasExpected: Bool,
                           neighbors: [String], comparator: ImageComparator, reportDirectory: String?, diffStyle: DiffStyle,
                           limits: PNGLimits, baseline: (String) throws -> DecodedPNG) -> Frame {
        guard hasExpected else { return Frame(path: path, status: .missingExpected) }
        guard hasActual else { return Frame(path: path, status: .missingActual) }
        do {
            let e = try baseline(path)
            let a = try PNG.read(path: actual + "/" + path, limits: limits)
            let around = try neighbors.map { try baseline($0).image }
            let input = ComparisonInput(expected: e.image, actual: a.image,
                                        expectedMaps: try PairDiff.maps(of: e, source: expected + "/" + path),
                                        actualMaps: try PairDiff.maps(of: a, source: actual + "/" + path),
                                        expectedNeighbors: around)
            let (first, _) = comparator.compare(input)
            if first.passed { return Frame(path: path, status: .passed, comparison: first) }
            // Failures only: draw and write the diff image.
            var diffPath: String?
            if let reportDirectory {
                let (_, diff) = comparator.compare(input, diff: diffStyle)
                if let diff {
                    let target = reportDirectory + "/diff/" + path
                    try FileOutput.write(diff.encoded(), to: target)
                    diffPath = target
                }
            }
            return Frame(path: path, status: .failed, comparison: first, diffPath: diffPath)
        } catch let error as PNGError {
            return Frame(path: path, status: .error(error.description))
        } catch {
            return Frame(path: path, status: .error("\(path): \(error)"))
        }
    }

    /// PNG files below a folder, as sorted relative paths (symbolic links are not followed).
    static func pngFiles(under root: String) throws -> [String] {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: root) else { throw UsageError("\(root): cannot list") }
        var out: [String] = []
        while let item = walker.nextObject() as? String {
            guard item.lowercased().hasSuffix(".png") else { continue }
            let attributes = walker.fileAttributes
            if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular { continue }
            out.append(item)
        }
        return out.sorted()
    }

    /// The same results as a suite run, so that `compare` writes the same reports as `check`:
    /// one run per folder of captured frames, frame paths relative to the report folder.
    public func suiteResult(actual: String, expected: String, report: String) -> SuiteResult {
        let byFolder = Dictionary(grouping: frames) { ($0.path as NSString).deletingLastPathComponent }
        let jobs = byFolder.keys.sorted().map { folder -> JobResult in
            let outcomes = byFolder[folder]!.sorted { $0.path < $1.path }.enumerated().map { index, f -> FrameOutcome in
                var o = FrameOutcome(index: index, time: 0, status: .passed, comparison: f.comparison)
                o.source = f.path
                switch f.status {
                case .passed: o.status = .passed
                case .failed: o.status = .failed
                case .missingExpected:
                    o.status = .missing
                    o.message = "no baseline at \(expected)/\(f.path)"
                case .missingActual:
                    o.status = .failed
                    o.message = "no frame at \(actual)/\(f.path)"
                case .error(let m):
                    o.status = .error
                    o.message = m
                }
                if f.status != .missingExpected { o.expected = HTMLReport.relativePath(from: report, to: expected + "/" + f.path) }
                if f.status != .missingActual { o.actual = HTMLReport.relativePath(from: report, to: actual + "/" + f.path) }
                if let d = f.diffPath { o.diff = HTMLReport.relativePath(from: report, to: d) }
                return o
            }
            return JobResult(scenario: folder.isEmpty ? "." : folder, device: "captured", file: expected + (folder.isEmpty ? "" : "/" + folder),
                             frames: outcomes)
        }
        return SuiteResult(jobs: jobs, scenarioErrors: [], shard: (1, 1), recordMode: .never)
    }
}

/// A thread-safe counter for progress reports.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    public init() {}
    public func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
    /// Raises the value to `v` if it is higher; true when it did (so each step is reported once).
    public func raise(to v: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard v > value else { return false }
        value = v
        return true
    }
}

/// A mistake in how NavReel was called (exit status 2).
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
