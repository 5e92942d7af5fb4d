import Foundation
import Raster

/// Files of the report folder besides the page and results.json: thumbnails of frames without
/// full-size images (gathered into sheets, `ThumbnailSheet`), and the removal of what an earlier
/// run left in `frames/`.
public enum ReportFiles {
    /// Thumbnail width in pixels: sharp at the filmstrip's 48 CSS px on a 3x screen, and readable
    /// in the player of a passing run.
    public static let thumbnailWidth = 160

    /// Names NavReel writes below `frames/` (nothing else is removed). `path` is relative to
    /// `frames/`: thumbnail sheets are NavReel's only two folders down, where it writes them
    /// (`<scenario>/<device>/`, `_linked/<n>/`), so a user's `thumbs.png` elsewhere is left alone.
    /// `sheetDepth` is the number of path components a sheet has there (3 below `frames/`, 2
    /// below `frames/_linked/`).
    static func isOwn(_ path: String, sheetDepth: Int = 3) -> Bool {
        let file = (path as NSString).lastPathComponent
        if ThumbnailSheet.isSheet(file) { return path.split(separator: "/", omittingEmptySubsequences: false).count == sheetDepth }
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber) else { return false }
        return (parts[2] == "png" && ["actual", "expected", "diff", "thumb"].contains(parts[1])) || (parts[1] == "pixels" && parts[2] == "js")
    }

    /// Removes the frames an earlier run wrote into `report/frames` (files with NavReel's names
    /// only, then the folders left empty), so that the report and `merge-reports` never show a
    /// stale failure. `sparing` keeps files by their path below `report` (a run keeps its
    /// thumbnail sheets until it knows which it kept or wrote again: a sheet whose frames did not
    /// change is not written again, issue 17).
    public static func clearFrames(in report: String, root sub: String = "/frames", sheetDepth: Int = 3,
                                   sparing: (String) -> Bool = { _ in false }) {
        let fm = FileManager.default
        let root = report + sub
        guard let walker = fm.enumerator(atPath: root) else { return }
        var folders: [String] = []
        while let item = walker.nextObject() as? String {
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            if type == .typeDirectory { folders.append(item); continue }
            guard type == .typeRegular, isOwn(item, sheetDepth: sheetDepth), !sparing(String(sub.dropFirst()) + (sub.isEmpty ? "" : "/") + item) else { continue }
            try? fm.removeItem(atPath: root + "/" + item)
        }
        // Deepest first; a folder still holding someone else's file stays.
        for folder in folders.sorted(by: { $0.count > $1.count }) + [""] {
            let path = folder.isEmpty ? root : root + "/" + folder
            if (try? fm.contentsOfDirectory(atPath: path))?.isEmpty == true { try? fm.removeItem(atPath: path) }
        }
    }

    /// Why `report` is not a folder a report may be written into: it holds a page or results a
    /// report would replace that no NavReel wrote, or (never a report's: no lock file) a
    /// `captured/` folder, where `compare` copies frames as `NNNN.png` over what is there. An
    /// audit (2026-11-29) ran `compare --report .` beside the user's own `captured/` folder and
    /// `check --report` into a folder of other files: a report's `index.html` would replace a web
    /// page's. nil for a new, empty or earlier report's folder.
    static func foreignProblem(_ report: String) -> String? {
        let fm = FileManager.default
        func head(_ name: String) -> String? {
            guard let h = FileHandle(forReadingAtPath: report + "/" + name) else { return nil }
            defer { try? h.close() }
            return String(decoding: (try? h.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        }
        var isFolder: ObjCBool = false
        if let page = head("index.html"), !page.contains("<title>NavReel") {
            return "the report folder \(report) holds an index.html that NavReel did not write, which a report replaces; give the report a folder of its own"
        }
        if let results = head("results.json"), !results.contains("\"navreel-results\"") {
            return "the report folder \(report) holds a results.json that NavReel did not write, which a report replaces; give the report a folder of its own"
        }
        if !fm.fileExists(atPath: report + "/" + lockName), fm.fileExists(atPath: report + "/captured", isDirectory: &isFolder), isFolder.boolValue {
            return "the report folder \(report) holds a captured/ folder that no NavReel report made, where compare copies frames as NNNN.png; give the report a folder of its own"
        }
        return nil
    }

    /// A report folder held by this process while a run writes it (`claim`); released when the
    /// process ends, or when this is deinitialised.
    public final class Claim: @unchecked Sendable {
        let fd: Int32
        let report: String
        init(fd: Int32, report: String) { self.fd = fd; self.report = report }
        deinit { if fd >= 0 { close(fd) } }

        /// Called just before the run writes into the folder, after everything that can still
        /// refuse the run (a missing input, a filter matching nothing): the last run's
        /// `results.json` goes and `index.html` says a run is under way, so that an interrupted
        /// run leaves no page or results describing the old run with half its images gone. The
        /// finished run writes both again. A usage error before this leaves the old report whole.
        public func begin(command: String) throws {
            // Kept aside, not deleted: `--last-failed` after an interrupted run reads the failed
            // scenarios of the run before it from there (its images are gone, so nothing else does).
            if rename(report + "/results.json", report + "/" + ReportFiles.previousResultsName) != 0 && errno != ENOENT {
                throw UsageError("\(report)/results.json: cannot move the last run's results aside: \(String(cString: strerror(errno)))")
            }
            try FileOutput.write(Array(ReportFiles.runningPage(command: command).utf8), to: report + "/index.html", durable: false)
        }
    }

    /// The name of the lock file in a report folder (it holds the writer's process id).
    public static let lockName = ".navreel-lock"
    /// Where a run moves the last run's results.json when it starts (`Claim.begin`).
    public static let previousResultsName = ".navreel-previous-results.json"

    /// Takes `report` for a run before anything is written into it: another navreel writing the
    /// same folder (a second check started beside the first) is a usage error naming it, instead
    /// of two runs deleting each other's images (a walkthrough found a results.json whose
    /// thumbnail sheets the other run had removed). An advisory `flock` on
    /// `report/.navreel-lock`, released by the kernel when the process ends however it ends. On a
    /// file system without locks (some network and shared-folder mounts) the run goes on without
    /// one. Nothing in the folder changes until `Claim.begin`.
    public static func claim(_ report: String) throws -> Claim {
        if let problem = foreignProblem(report) { throw UsageError(problem) }
        try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
        let path = report + "/" + lockName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw UsageError("\(path): cannot open: \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            if !busy && (errno == ENOLCK || errno == EOPNOTSUPP || errno == ENOTSUP || errno == EINVAL) {
                return Claim(fd: fd, report: report)   // no locks here: held by nobody, checked by nobody
            }
            var owner = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &owner, owner.count, 0)
            close(fd)
            let pid = n > 0 ? String(decoding: owner[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            if busy {
                throw UsageError("the report folder \(report) is being written by another navreel\(pid.isEmpty ? "" : " (process \(pid))"); "
                                 + "wait for it to finish, or give this run another --report")
            }
            throw UsageError("\(path): cannot lock: \(String(cString: strerror(errno)))")
        }
        let claim = Claim(fd: fd, report: report)
        let me = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = me.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return claim
    }

    /// The page a report folder shows while a run writes it, and after an interrupted one.
    static func runningPage(command: String) -> String {
        let started = ISO8601DateFormatter().string(from: Date())
        return """
        <!doctype html>
        <meta charset="utf-8">
        <title>NavReel: run not finished</title>
        <style>body{font:15px system-ui,sans-serif;margin:3em;max-width:40em}</style>
        <h1>This report is not finished</h1>
        <p><code>navreel \(command)</code> started writing it at \(started) (process \(getpid())).
        If that run is still going, reload this page when it ends. If it was interrupted, run it again:
        the results of the run before it were put aside so that no page shows them with half their images.</p>

        """
    }

    /// The size `thumbnail` makes from a frame of this size, without making it.
    public static func thumbnailSize(width: Int, height: Int, thumbnailWidth: Int = thumbnailWidth) -> (width: Int, height: Int) {
        guard width > thumbnailWidth, height > 0 else { return (width, height) }
        let factor = (width + thumbnailWidth - 1) / thumbnailWidth
        return ((width + factor - 1) / factor, (height + factor - 1) / factor)
    }

    /// A small copy of the image: each pixel the average of four samples of its block (cheap
    /// enough for every frame of a run; it is only looked at, never compared).
    public static func thumbnail(_ image: Image, width: Int = thumbnailWidth) -> Image {
        guard image.width > width, image.height > 0 else { return image }
        let factor = (image.width + width - 1) / width
        let (ow, oh) = thumbnailSize(width: image.width, height: image.height, thumbnailWidth: width)
        // The two sample columns of each output column and rows of each output row, clamped to
        // the image, worked out once (the loop below was a tenth of a check into a new report
        // folder with `min` and array indexing per sample; the same bytes, ThumbnailTests).
        let offsets = (factor / 4, factor * 3 / 4)
        // Each pixel's four channels are summed at once, two to a 32-bit word in 16-bit lanes
        // (red and blue, green and alpha): four samples sum to at most 1,020, so no lane carries
        // into the next, and (sum + 2) >> 2 comes out of each lane exactly (a third of what the
        // per-channel loop cost, issue 17; the same bytes, ThumbnailTests).
        let columns = (0..<ow).map { ox in (4 * min(image.width - 1, ox * factor + offsets.0), 4 * min(image.width - 1, ox * factor + offsets.1)) }
        let rowStride = image.width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: ow * oh * 4) { out, count in
            image.pixels.withUnsafeBytes { src in
                let base = src.baseAddress!
                let target = UnsafeMutableRawPointer(out.baseAddress!)
                @inline(__always) func word(_ p: UnsafeRawPointer, _ offset: Int) -> UInt32 {
                    UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                }
                var o = 0
                for oy in 0..<oh {
                    let r0 = base + min(image.height - 1, oy * factor + offsets.0) * rowStride
                    let r1 = base + min(image.height - 1, oy * factor + offsets.1) * rowStride
                    for (c0, c1) in columns {
                        let a = word(r0, c0), b = word(r0, c1), c = word(r1, c0), d = word(r1, c1)
                        let low = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF) &+ (c & 0x00FF_00FF) &+ (d & 0x00FF_00FF)
                        let high = (a >> 8 & 0x00FF_00FF) &+ (b >> 8 & 0x00FF_00FF) &+ (c >> 8 & 0x00FF_00FF) &+ (d >> 8 & 0x00FF_00FF)
                        let mean = ((low &+ 0x0002_0002) >> 2 & 0x00FF_00FF) | ((high &+ 0x0002_0002) >> 2 & 0x00FF_00FF) << 8
                        target.storeBytes(of: mean.littleEndian, toByteOffset: o, as: UInt32.self)
                        o += 4
                    }
                }
            }
            count = ow * oh * 4
        }
        return Image(width: ow, height: oh, pixels: pixels)
    }
}
