import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// What `compare` does besides comparing: cropping, ignored rectangles, sampling, alignment and
/// recording. The defaults are the plain comparison of two folders.
public struct CaptureOptions: Sendable {
    /// Crops in the pixels of each input (applied before anything else).
    public var cropActual: PixelRect?
    public var cropExpected: PixelRect?
    /// Rectangles in the pixels of the expected input (before cropping), shown dimmed, never counted.
    public var ignore: [PixelRect] = []
    /// Sample animations and videos at this many frames per second (default: their own frames).
    public var fps: Double?
    /// Search frame offsets within ±align for the best match.
    public var align: Int?
    /// Write expected frames as PNGs (`never` only compares).
    public var record: RecordMode = .never
    public var mediaLimits: MediaLimits = .default
    public init() {}
}

/// One side of a comparison: a folder of PNGs, or the frames decoded from an animation or video.
public struct FrameSequence: Sendable {
    public let root: String
    public let isFolder: Bool
    /// Relative paths (folder) or index names 0000.png... (decoded).
    public let names: [String]
    /// Presentation times in seconds (decoded files only).
    public let times: [Double]?
    let decoded: [Image]?
    let crop: PixelRect?
    public let info: MediaReader.Info?
    /// The expected side: a file `--record` or `approve` wrote as this very crop
    /// (`cropStampKey`) is used as it is.
    var acceptsStampedCrops = false
    /// Matched with the other side frame by frame in order (not by relative path): a frame added
    /// by `--record` must then sort after every file there, or the positions would shift.
    var matchedByOrder = false

    public var count: Int { names.count }

    /// The text key `--record` and `approve` put in an expected frame written as the crop
    /// `X,Y,W,H` of the expected side (the compared pixels), so that the next compare with that
    /// crop takes the file as it is, and a moved crop of the same size is still an error.
    public static let cropStampKey = "navreel.crop"
    public static func cropStamp(_ r: PixelRect) -> String { "\(r.x),\(r.y),\(r.width),\(r.height)" }

    public static func open(_ path: String, crop: PixelRect?, fps: Double?, limits: MediaLimits, createIfMissing: Bool = false) throws -> FrameSequence {
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        if exists && isDir.boolValue {
            return FrameSequence(root: path, isFolder: true, names: try SequenceComparison.pngFiles(under: path), times: nil,
                                 decoded: nil, crop: crop, info: nil)
        }
        if !exists {
            if createIfMissing { return FrameSequence(root: path, isFolder: true, names: [], times: nil, decoded: nil, crop: crop, info: nil) }
            throw UsageError("\(path): no such folder or file")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        guard MediaReader.extensions.contains(ext) else {
            throw UsageError("\(path): not a folder of PNGs, a GIF, an APNG or a .mov/.mp4/.m4v video")
        }
        if ext == "png" || ext == "apng" {
            // NavReel's own checks of a PNG's signature, chunks and declared size first, as for a
            // folder's PNGs: FFmpeg said "Invalid data found when processing input (Invalid image
            // size)" for a file declaring 100000x100000 (an audit, 2026-11-29). Its first 64 KiB:
            // a file cut off past them is FFmpeg's to report, with the frame it stopped at.
            // (A file that cannot be opened is left to FFmpeg, which names the error: an empty
            // head would read as "the file is empty".)
            let want = 64 << 10
            let head = SuiteRunner.head(of: path, count: want)
            var info = stat()
            let empty = stat(path, &info) == 0 && info.st_size == 0
            if !head.isEmpty || empty {
                do {
                    _ = try PNGStructure.scan(head, source: path, limits: PNGLimits(maxSide: limits.maxSide, maxPixels: limits.maxPixels))
                } catch where !(error.kind == .truncated && head.count == want) {
                    throw error
                } catch {}
            }
        }
        let (frames, info) = try MediaReader.decode(path: path, fps: fps, crop: crop, limits: limits)
        return FrameSequence(root: path, isFolder: false, names: frames.indices.map { FrameRenderer.Job.frameName($0) },
                             times: frames.map(\.time), decoded: frames.map(\.image), crop: nil, info: info)
    }

    /// The file a frame came from, as the user named it.
    public func file(_ i: Int) -> String { isFolder ? root + "/" + names[i] : root }

    /// A video (H.264, HEVC), whose encoders keep even sizes for 4:2:0 chroma; not a GIF or APNG.
    var isChromaSubsampled: Bool { info.map { !["gif", "apng", "png"].contains($0.codec) } ?? false }

    /// A frame's pixels (cropped) and, for uncropped PNGs, its translucency and element maps.
    func load(_ i: Int, limits: PNGLimits) throws -> (image: Image, maps: FrameMaps?) {
        if let decoded { return (decoded[i], nil) }
        let png = try PNG.read(path: file(i), limits: limits)
        guard let crop else { return (png.image, try PairDiff.maps(of: png, source: file(i))) }
        // An expected frame `--record` or `approve` wrote as this crop (its stamp says which) is
        // that crop already; any other frame is cropped, and one the crop does not fit is an error.
        let stamp = png.metadata.text[Self.cropStampKey]
        if acceptsStampedCrops, png.image.width == crop.width, png.image.height == crop.height, stamp == Self.cropStamp(crop) {
            return (png.image, nil)
        }
        // A file recorded as another crop holds that crop's pixels, not the input's: cropping it
        // again at this crop's coordinates compared the wrong rows without a word (an audit,
        // 2026-11-27: recorded as 0,17,320,40 and compared with 0,10,320,20, every frame failed).
        if let stamp, stamp != Self.cropStamp(crop) {
            throw UsageError("\(file(i)): it was recorded as the crop \(stamp), not \(Self.cropStamp(crop)): compare with that crop, "
                             + "or record the frames again with this one")
        }
        guard let image = png.image.cropped(to: crop) else {
            let hint = png.image.width == crop.width && png.image.height == crop.height
                ? " (it seems cropped already: crop only the other side, with --crop-actual or --crop-expected)" : ""
            throw UsageError("\(file(i)): crop \(crop.x),\(crop.y),\(crop.width),\(crop.height) does not fit its \(png.image.width)x\(png.image.height) pixels\(hint)")
        }
        return (image, nil)
    }

    /// Whether the frames compared are not the files as they are (decoded or cropped), so that
    /// the report and the record step need their own copies.
    var transformed: Bool { !isFolder || crop != nil }
}

/// `navreel compare --actual A --expected E`: frames captured elsewhere (folders of PNGs,
/// animated GIF or PNG, video), compared with the same engine and rules as rendered frames.
/// Two folders are matched by relative path; anything else, or `--align`, by frame index.
public struct SequenceComparison: Sendable {
    public enum Status: Sendable, Equatable {
        case passed
        case failed
        /// A frame in the actual input with no expected frame.
        case missingExpected
        /// An expected frame with no frame in the actual input.
        case missingActual
        /// Outside the overlap of two aligned sequences: reported, not compared.
        case outside
        /// Written as an expected frame (`--record`); `changed` when one was replaced.
        case recorded(changed: Bool)
        /// An input could not be read; never a pass.
        case error(String)

        public var label: String {
            switch self {
            case .passed: return "passed"
            case .failed: return "failed"
            case .missingExpected: return "missing baseline"
            case .missingActual: return "missing frame"
            case .outside: return "not compared"
            case .recorded(let changed): return changed ? "updated" : "recorded"
            case .error: return "error"
            }
        }
    }

    public struct Frame: Sendable {
        /// The frame's name: the relative path in a folder, or its index name (0000.png).
        public var path: String
        public var status: Status
        public var comparison: Comparison?
        /// Where the diff image was written (failures only).
        public var diffPath: String?
        /// Why an aligned expected frame past the recording's ends is excused or missing.
        public var detail: String?
        /// Source file and time (seconds, decoded inputs only) of each side.
        public var expectedFile: String?
        public var actualFile: String?
        public var expectedTime: Double?
        public var actualTime: Double?
        /// Images of this frame in the report folder, when the compared pixels are not a file as it is.
        public var expectedImage: String?
        public var actualImage: String?
    }

    /// The frame offset chosen by `--align`: actual frame k + offset was compared with expected frame k.
    public struct Alignment: Sendable, Equatable {
        public var offset: Int
        public var searched: Int
        public var overlap: Int
        /// Why the alignment is doubtful, if it is.
        public var warning: String?

        /// What was aligned, for the console and the reports.
        public var sentence: String {
            "aligned: actual frame k\(offset >= 0 ? "+" : "")\(offset) is compared with expected frame k "
                + "(best offset within ±\(searched)); \(overlap) \(overlap == 1 ? "frame overlaps" : "frames overlap")"
        }
    }

    public var frames: [Frame]
    public var alignment: Alignment?
    public var expectedRoot: String = ""
    public var actualRoot: String = ""
    /// Ignored rectangles in the pixels of the compared (cropped) frames.
    public var ignored: [PixelRect] = []
    /// What the files of the inputs do not show about how they were compared: a video turned by
    /// its display matrix, the video track read, frames whose timestamps do not advance, colour
    /// profiles not applied, two folders with no names in common. Printed by `compare`, kept in
    /// `results.json` and the report, appended to `assertFrames`' failure message.
    public var notes: [String] = []
    /// The record mode the run used: under `missing`, writing a frame because none existed fails
    /// the run, as it fails `check` (`exitCode`).
    public var recordMode: RecordMode = .never

    public var passed: Int { frames.filter { $0.status == .passed }.count }
    public var failed: Int { frames.filter { $0.isFailure }.count }
    public var recorded: Int { frames.filter { if case .recorded = $0.status { return true } else { return false } }.count }
    /// Expected frames written because none existed (not replaced ones).
    public var added: Int { frames.filter { $0.status == .recorded(changed: false) }.count }
    public var errors: Int { frames.filter { if case .error = $0.status { return true } else { return false } }.count }
    /// Frames outside the overlap of aligned sequences (`--align`), neither passed nor failed.
    public var notCompared: Int { frames.filter { $0.status == .outside }.count }

    /// 0 when every frame passed, 2 when an input was unreadable, 1 otherwise (CLI.md); 1 also
    /// when `--record missing` wrote an expected frame because none existed, as `check` fails the
    /// run that writes a new baseline (`SuiteResult.exitCode`): a mistyped `--expected` folder
    /// would otherwise be recorded into and pass, run after run.
    public var exitCode: Int32 { errors > 0 ? 2 : (failed > 0 || (recordMode == .missing && added > 0) ? 1 : 0) }

    struct Pair {
        var name: String
        var e: Int?
        var a: Int?
        var outside = false
        /// With --align, for an expected frame past the recording's ends: the nearest compared
        /// expected frame it was checked against (`markOutside`).
        var nearest: Int?
    }

    public static func run(actual: String, expected: String, settings: ComparisonSettings, capture: CaptureOptions = CaptureOptions(),
                           reportDirectory: String?, filters: [String] = [], diffStyle: DiffStyle = .classic,
                           limits: PNGLimits = .default, jobs: Int = ImageComparator.defaultJobs,
                           willWrite: (() throws -> Void)? = nil,
                           progress: (@Sendable (Frame, Int, Int) -> Void)? = nil) throws -> SequenceComparison {
        let recording = capture.record != .never
        let actualSeq = try FrameSequence.open(actual, crop: capture.cropActual, fps: capture.fps, limits: capture.mediaLimits)
        // No frames to check is a broken capture, not a pass: with nothing approved either, the
        // run had nothing to compare and nothing to record, and passed on every later run too.
        if actualSeq.isFolder && actualSeq.names.isEmpty {
            throw UsageError("\(actual): no frames to compare: the folder holds no PNG files" + nonPNGHint(actual))
        }
        var expectedSeq = try FrameSequence.open(expected, crop: capture.cropExpected, fps: capture.fps, limits: capture.mediaLimits,
                                                 createIfMissing: recording)
        expectedSeq.acceptsStampedCrops = true
        if recording && !expectedSeq.isFolder {
            throw UsageError("\(expected): --record writes PNG frames into a folder, and this is a \(expectedSeq.info?.codec ?? "media") file")
        }
        // Frames NavReel rendered are `record`'s to rewrite: refused, every file of the folder
        // looked at before anything is written, when this record could replace frames (a folder
        // whose first file was captured and the rest rendered had its first one rewritten; a
        // review, 2026-11-27).
        if [.all, .failed].contains(capture.record) {
            for i in expectedSeq.names.indices { try refuseRendered(expectedSeq.file(i), by: "--record \(capture.record.rawValue)") }
        }
        var settings = settings
        // Ignored rectangles are given in the expected input's pixels; move them with its crop.
        let origin = capture.cropExpected.map { ($0.x, $0.y) } ?? (0, 0)
        settings.regions += capture.ignore.map {
            Region(rect: PixelRect(x: $0.x - origin.0, y: $0.y - origin.1, width: $0.width, height: $0.height), rule: .ignored)
        }
        // One comparator for the run: alignment's excuses and the frames themselves are judged alike.
        let comparator = ImageComparator(settings: settings, jobs: 1)

        // Frames held in memory: decoded inputs always, folders too when aligning.
        var cache: (expected: [Image]?, actual: [Image]?) = (expectedSeq.decoded, actualSeq.decoded)
        var pairs: [Pair]
        var alignment: Alignment?
        var notes: [String] = []
        if expectedSeq.isFolder && actualSeq.isFolder && capture.align == nil {
            let actualIndex = Dictionary(uniqueKeysWithValues: actualSeq.names.enumerated().map { ($1, $0) })
            let expectedIndex = Dictionary(uniqueKeysWithValues: expectedSeq.names.enumerated().map { ($1, $0) })
            pairs = Set(expectedSeq.names).union(actualSeq.names).sorted(by: PathText.naturallyBefore).map { Pair(name: $0, e: expectedIndex[$0], a: actualIndex[$0]) }
            if !actualSeq.names.isEmpty, !expectedSeq.names.isEmpty, !pairs.contains(where: { $0.e != nil && $0.a != nil }) {
                // Screenshots named by the device (IMG_0001.PNG) against frames named 0000.png:
                // every frame "missing" on both sides says nothing about why.
                notes.append("no file names are in common between \(actual) and \(expected) (two folders are matched by "
                             + "relative path): --align 0 matches them in order instead")
            }
        } else {
            expectedSeq.matchedByOrder = true
            if let note = orderNote(expectedSeq, against: actual) { notes.append(note) }
            var offset = 0
            if capture.align != nil && recording && expectedSeq.count == 0 {
                // Nothing approved yet: nothing to align with. Recording the first frames failed
                // with "no offset makes the sequences overlap" (an audit, 2026-11-27).
                notes.append("\(expected) holds no expected frames yet, so there was nothing to align with: "
                             + "frames were recorded from the first one, and the next compare aligns against them")
            } else if let n = capture.align {
                let e = try cache.expected ?? preload(expectedSeq, limits: limits, budget: capture.mediaLimits.maxTotalBytes)
                let a = try cache.actual ?? preload(actualSeq, limits: limits, budget: capture.mediaLimits.maxTotalBytes)
                cache = (e, a)
                guard let best = bestOffset(expected: e, actual: a, within: n) else {
                    throw UsageError("\(actual) and \(expected): no offset within ±\(n) frames makes the sequences overlap")
                }
                offset = best
                alignment = Alignment(offset: best, searched: n, overlap: min(e.count, a.count - best) - max(0, -best))
            }
            pairs = []
            let existing = Set(expectedSeq.names)
            let lo = min(0, -offset), hi = max(expectedSeq.count, actualSeq.count - offset)
            for i in lo..<hi {
                let j = i + offset
                let e = (0..<expectedSeq.count).contains(i) ? i : nil, a = (0..<actualSeq.count).contains(j) ? j : nil
                var name = e.map { expectedSeq.names[$0] } ?? (i >= 0 ? FrameRenderer.Job.frameName(i) : "before/" + FrameRenderer.Job.frameName(j))
                // A frame past the folder's files named like one of them (numbered from 0001 by
                // ffmpeg, say): a name of its own, or the report held two frames of one name.
                if e == nil, i >= 0, existing.contains(name) { name = "after/" + name }
                pairs.append(Pair(name: name, e: e, a: a))
            }
            if alignment != nil, let images = cache.expected, let recorded = cache.actual {
                markOutside(&pairs, expected: images, actual: recorded, offset: offset, comparator: comparator,
                            temporal: settings.tolerance.temporal)
            }
        }
        pairs = pairs.filter { p in filters.isEmpty || filters.contains { Glob.matches($0, p.name) } }
        // Frames a record would add to a folder matched by order must not take a file's name nor
        // sort among its files, or every frame after would shift by one. Checked for all of them
        // before anything is written: per frame, the later frames were still written one place
        // off (a review, 2026-11-27).
        if recording && expectedSeq.matchedByOrder && expectedSeq.isFolder, let last = expectedSeq.names.last {
            let adding = pairs.filter { $0.e == nil && $0.a != nil && !$0.outside && !$0.name.hasPrefix("before/") }
            if let clash = adding.first(where: { $0.name.hasPrefix("after/") || !PathText.naturallyBefore(last, $0.name) }) {
                let name = clash.name.hasPrefix("after/") ? String(clash.name.dropFirst(6)) : clash.name
                throw UsageError("\(expected): --record would add \(adding.count) \(adding.count == 1 ? "frame" : "frames") from \(name) on, "
                                 + "but the folder is matched by order and \(name) \(FileManager.default.fileExists(atPath: expected + "/" + name) ? "is already one of its files" : "would sort among its files (its last is \(last))"): "
                                 + "nothing was written; record into an empty folder")
            }
        }
        if pairs.isEmpty && !filters.isEmpty {
            throw UsageError("--filter \(filters.joined(separator: ", ")) matches no frame of \(actual) or \(expected)")
        }

        // The expected frames before and after each one, for the timing rule: neighbours in the
        // same folder, or in the decoded sequence.
        var neighbors: [Int: [Int]] = [:]
        if settings.tolerance.temporal {
            let byFolder = Dictionary(grouping: expectedSeq.names.indices) { expectedSeq.isFolder ? PathText.parent(expectedSeq.names[$0]) : "" }
            for (_, indices) in byFolder {
                let sorted = indices.sorted()
                for (k, index) in sorted.enumerated() {
                    neighbors[index] = [k > 0 ? sorted[k - 1] : nil, k + 1 < sorted.count ? sorted[k + 1] : nil].compactMap { $0 }
                }
            }
        }

        // Everything that refuses the run (inputs, crops, alignment, filters) is behind us: the
        // report folder may change from here (`ReportFiles.Claim.begin`).
        try willWrite?()
        var frames = [Frame?](repeating: nil, count: pairs.count)
        let done = Counter()
        let cached = cache
        // Runs of consecutive frames over `jobs` workers; each keeps its last few expected frames
        // so that with --temporal a frame serves as frame and as neighbour without a second decode.
        let run = 16
        let units = stride(from: 0, to: pairs.count, by: run).map { $0..<min(pairs.count, $0 + run) }
        frames.withUnsafeMutableBufferPointer { out in
            Parallel.forEach(units.count, workers: jobs) { u in
                var recent: [(index: Int, frame: (image: Image, maps: FrameMaps?))] = []
                let expectedFrame = { (i: Int) throws -> (image: Image, maps: FrameMaps?) in
                    if let images = cached.expected { return (images[i], nil) }
                    if let hit = recent.first(where: { $0.index == i }) { return hit.frame }
                    let f = try expectedSeq.load(i, limits: limits)
                    recent.append((i, f))
                    if recent.count > 3 { recent.removeFirst() }
                    return f
                }
                let actualFrame = { (j: Int) throws -> (image: Image, maps: FrameMaps?) in
                    if let images = cached.actual { return (images[j], nil) }
                    return try actualSeq.load(j, limits: limits)
                }
                for index in units[u] {
                    let frame = compareOne(pairs[index], expectedSeq: expectedSeq, actualSeq: actualSeq, neighbors: neighbors,
                                           comparator: comparator, capture: capture, reportDirectory: reportDirectory,
                                           diffStyle: diffStyle, expectedFrame: expectedFrame, actualFrame: actualFrame)
                    out[index] = frame
                    progress?(frame, done.increment(), pairs.count)
                }
            }
        }
        var result = SequenceComparison(frames: frames.map { $0! }, alignment: alignment, expectedRoot: expected, actualRoot: actual,
                                        ignored: settings.regions.filter { $0.rule.ignore == true }.map(\.rect))
        // Only frames compared and failed: frames missing past the recording's ends are not
        // helped by a wider search.
        if var a = result.alignment, a.offset.magnitude == a.searched, result.frames.contains(where: { $0.status == .failed }) {
            a.warning = "the best offset (\(a.offset > 0 ? "+" : "")\(a.offset)) is at the edge of the search (±\(a.searched)) and frames still differ: "
                + "the recordings may be further apart; try --align \(a.searched * 2)"
            result.alignment = a
        }
        let someFailed = result.frames.contains(where: { $0.status == .failed })
        if capture.cropExpected == nil, someFailed, expectedSeq.isFolder, !expectedSeq.names.isEmpty,
           let stamp = (try? PNG.read(path: expectedSeq.file(0), limits: limits))?.metadata.text[FrameSequence.cropStampKey],
           capture.cropActual.map(FrameSequence.cropStamp) != stamp {
            // Frames recorded with a crop compared without one fail on their size alone.
            notes.append("\(expectedSeq.file(0)) was recorded as the crop \(stamp) of its input: compare with --crop \(stamp) "
                         + "(or crop: in \(expected)/navreel-compare.yaml)")
        }
        if let crop = capture.cropExpected ?? capture.cropActual, someFailed {
            notes.append("positions in the frames' messages (mismatches in x..., y...) are pixels of the cropped frames, whose "
                         + "top-left is the crop's \(crop.x),\(crop.y) in the input; --ignore and ignore: take the expected input's pixels")
        }
        // A video of an odd-sized frame: 4:2:0 encoders (the simulator's, ffmpeg's) need even sizes
        // and drop the last row or column, so every frame fails on its size alone.
        if let m = result.frames.lazy.compactMap({ $0.comparison?.sizeMismatch }).first,
           actualSeq.isChromaSubsampled || expectedSeq.isChromaSubsampled,
           abs(m.expected.width - m.actual.width) <= 1, abs(m.expected.height - m.actual.height) <= 1 {
            let (video, own, other) = actualSeq.isChromaSubsampled ? (actualSeq.root, m.actual, m.expected) : (expectedSeq.root, m.expected, m.actual)
            notes.append("\(video) is \(own.width)x\(own.height) where the other side is \(other.width)x\(other.height): video with "
                         + "4:2:0 chroma has even sizes, so an odd-sized frame lost its last row or column when it was encoded; "
                         + "compare both sides cropped to what the video kept (--crop 0,0,\(min(own.width, other.width)),"
                         + "\(min(own.height, other.height)), or a crop that leaves the edge out) rather than approving the video's frames")
        }
        result.notes = notes
        result.recordMode = capture.record
        if let note = colourNote(actualSeq, expectedSeq) { result.notes.append(note) }
        for (side, seq) in [("actual", actualSeq), ("expected", expectedSeq)] {
            if let info = seq.info, info.videoTracks > 1 {
                let size = seq.decoded?.first.map { " (\($0.width)x\($0.height) after any crop)" } ?? ""
                result.notes.append("\(side) \(seq.root): has \(info.videoTracks) video tracks; NavReel read track \(info.track) of them\(size), "
                                    + "the one marked default or else the one FFmpeg picks; to compare another, keep only it "
                                    + "(`ffmpeg -i IN -map 0:v:N -c copy OUT`, N counting from 0: this one is 0:v:\(info.mapIndex))")
            }
            if let info = seq.info, info.untimedFrames > 0 {
                result.notes.append("\(side) \(seq.root): \(info.untimedFrames) of its frames have a timestamp no later than the "
                                    + "frame before, so --fps sampling never shows them (its timing is broken); compare without --fps "
                                    + "to take every frame in order")
            }
            if let turn = seq.info?.turn {
                result.notes.append("\(side) \(seq.root): \(turn), as its display matrix asks and players show it (crops are in the turned picture's pixels)")
            }
        }
        return result
    }

    /// When a folder of frames NavReel wrote (`--record`, `approve`: they carry `navreel.format`)
    /// is matched by order and its numbered names are not the positions they are matched at (a
    /// `0000.png` deleted), which file met which frame: the names alone said otherwise. Folders
    /// numbered by other tools (ffmpeg's `%04d.png` starts at 0001) are matched by order as the
    /// guide says, without a note on every run.
    static func orderNote(_ seq: FrameSequence, against other: String, limits: PNGLimits = .default) -> String? {
        guard seq.isFolder, !seq.names.isEmpty else { return nil }
        let numbers = seq.names.map { name -> Int? in
            guard name.hasSuffix(".png"), !name.contains("/") else { return nil }
            let stem = name.dropLast(4)
            return !stem.isEmpty && stem.count <= 9 && stem.allSatisfy(\.isASCII) && stem.allSatisfy(\.isNumber) ? Int(stem) : nil
        }
        guard numbers.allSatisfy({ $0 != nil }),
              let p = numbers.indices.first(where: { numbers[$0] != $0 }),
              (try? PNG.read(path: seq.file(p), limits: limits))?.metadata.text["navreel.format"] != nil else { return nil }
        return "\(seq.root) is matched with \(other) frame by frame in order, so its \(seq.names[p]) is its frame \(p) "
            + "(a file before it is missing): names do not choose the frame; record the folder again"
    }

    /// Every frame of a folder in memory (for alignment), within a budget of bytes.
    static func preload(_ seq: FrameSequence, limits: PNGLimits, budget: Int) throws -> [Image] {
        var bytes = 0
        return try seq.names.indices.map { i in
            let image = try seq.load(i, limits: limits).image
            bytes += image.pixels.count
            guard bytes <= budget else { throw UsageError("\(seq.root): its frames need more than \(budget >> 20) MiB to align; crop with --crop") }
            return image
        }
    }

    /// A note when the two folders' first PNGs are tagged with different colour spaces and one of
    /// them is not sRGB (an iPhone screenshot tagged Display P3 against frames written without a
    /// profile): NavReel compares the stored values and applies no profile, so saturated colours
    /// differ (46 levels a channel in an audit's P3 copy of the bundled frames) or, under a loose
    /// perceptual threshold, pass unnoticed.
    static func colourNote(_ actual: FrameSequence, _ expected: FrameSequence) -> String? {
        func tag(_ seq: FrameSequence) -> (name: String, file: String)? {
            guard seq.isFolder, let first = seq.names.first else { return nil }
            let file = seq.file(0)
            return colourTag(ofPNG: file).map { ($0, first) }
        }
        let a = tag(actual), e = tag(expected)
        func isSRGB(_ t: (name: String, file: String)?) -> Bool { t == nil || t!.name.lowercased().contains("srgb") }
        guard actual.isFolder, expected.isFolder, !(isSRGB(a) && isSRGB(e)), a?.name != e?.name else { return nil }
        func say(_ t: (name: String, file: String)?) -> String { t.map { "tagged \($0.name) (\($0.file))" } ?? "not tagged (sRGB)" }
        return "actual frames are \(say(a)) and expected frames \(say(e)): NavReel compares the stored values and converts no "
            + "colour profile, so saturated colours differ; capture both sides the same way"
    }

    /// The colour space a PNG's chunks before its image data name: an `iCCP` profile's name or
    /// `sRGB`; nil for none (`gAMA` and `cHRM` alone are left out: tools write sRGB's values in
    /// them). Reads at most the first 64 KiB (PNG specification 5.6: these chunks precede IDAT),
    /// never the image data, and nil on anything unexpected.
    public static func colourTag(ofPNG path: String) -> String? {
        let bytes = SuiteRunner.head(of: path, count: 1 << 16)
        guard bytes.starts(with: PNGStructure.signature) else { return nil }
        var at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" || length > 1 << 24 { break }
            let data = at + 8
            switch type {
            case "iCCP":
                // The profile's name: 1-79 Latin-1 bytes, then a zero byte.
                let end = min(bytes.count, data + min(length, 80))
                if data < end, let zero = bytes[data..<end].firstIndex(of: 0) {
                    let name = String(bytes[data..<zero].map { Character(Unicode.Scalar($0)) })
                    return name + " (an ICC profile)"
                }
                return "an ICC profile"
            case "sRGB": return "sRGB"
            default: break
            }
            at = data + length + 4
        }
        return nil
    }

    /// Which aligned pairs are left uncompared rather than judged. An actual frame with no expected
    /// frame is: the recording started earlier or ran on. An expected frame with no actual frame
    /// (before the recording started, or after it stopped) is only when it shows what the nearest
    /// compared expected frame shows, by the run's own rules: a still lead-in or tail that the
    /// recording caught less of. Any other is missing, a failure. Excusing every frame past the
    /// recording's ends passed a recording of one frame, and one cut before its last screen
    /// (found by an audit and a review, 2026-11-27); excusing only the |offset| frames the shift
    /// moves past the ends still passed one that started early and stopped early.
    /// Both tests use the run's settings, with --temporal's neighbours of the skipped frame: it
    /// must look like the nearest compared expected frame, and the recording's frame compared
    /// with that one must look like it too (so a recording is never more than one tolerance from
    /// a frame it skipped; a review showed two steps of tolerance otherwise, 2026-11-27).
    static func markOutside(_ pairs: inout [Pair], expected: [Image], actual: [Image], offset d: Int,
                            comparator: ImageComparator, temporal: Bool) {
        let compared = pairs.compactMap { $0.e != nil && $0.a != nil ? $0.e : nil }
        guard let first = compared.min(), let last = compared.max() else {
            for i in pairs.indices where pairs[i].e == nil { pairs[i].outside = true }
            return
        }
        for i in pairs.indices {
            guard let e = pairs[i].e else { pairs[i].outside = true; continue }
            guard pairs[i].a == nil else { continue }
            let nearest = e < first ? first : last
            let around = temporal ? [e - 1, e + 1].filter { expected.indices.contains($0) }.map { expected[$0] } : []
            let still = comparator.compare(ComparisonInput(expected: expected[e], actual: expected[nearest], expectedNeighbors: around)).0.passed
            let reached = still && comparator.compare(ComparisonInput(expected: expected[e], actual: actual[nearest + d],
                                                                      expectedNeighbors: around)).0.passed
            pairs[i].outside = reached
            pairs[i].nearest = nearest
        }
    }

    /// The offset d in -n...n for which actual frame k + d looks most like expected frame k, on
    /// average over every expected frame (mean absolute channel difference on a grid of samples).
    /// An expected frame the shifted recording does not reach is scored against the recording's
    /// first or last frame, as `markOutside` judges it: a still lead-in or tail costs nothing,
    /// motion the recording would miss costs what it differs. Averaged over the overlap alone, a
    /// wide search chose shifts that left four still frames of 34 overlapping, and an identical
    /// recording failed (an audit, 2026-11-27: `--align 30` chose -30 where 0 matched every frame).
    /// Ties go to the smaller |d|, then to the negative one; nil when no offset overlaps.
    static func bestOffset(expected: [Image], actual: [Image], within n: Int) -> Int? {
        var best: (d: Int, score: Double)?
        // No offset past the longer sequence overlaps anything (and 2n must not overflow).
        let n = min(max(0, n), max(expected.count, actual.count))
        for step in 0...(2 * n) {
            let d = step == 0 ? 0 : (step % 2 == 1 ? -(step + 1) / 2 : step / 2)
            // Frames k of expected and k + d of actual that both exist; none when the offset is
            // as long as either sequence (a Range whose bounds cross would trap).
            let lower = max(0, -d), upper = min(expected.count, actual.count - d)
            guard lower < upper else { continue }
            let score = expected.indices.reduce(0.0) { $0 + distance(expected[$1], actual[min(actual.count - 1, max(0, $1 + d))]) }
                / Double(expected.count)
            if best == nil || score < best!.score { best = (d, score) }
        }
        return best?.d
    }

    /// Mean absolute difference of the colour channels on about 64×64 sampled pixels; images of
    /// different sizes are as far apart as can be.
    static func distance(_ a: Image, _ b: Image) -> Double {
        guard a.width == b.width, a.height == b.height, a.width > 0, a.height > 0 else { return 255 }
        let sx = max(1, a.width / 64), sy = max(1, a.height / 64)
        var total = 0, count = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for y in stride(from: 0, to: a.height, by: sy) {
                    for x in stride(from: 0, to: a.width, by: sx) {
                        let o = (y * a.width + x) * 4
                        // Fully transparent pixels are alike whatever their hidden channels hold.
                        if p[o + 3] != 0 || q[o + 3] != 0 {
                            for c in 0..<4 { total += abs(Int(p[o + c]) - Int(q[o + c])) }
                        }
                        count += 4
                    }
                }
            }
        }
        return Double(total) / Double(count)
    }

    static func compareOne(_ pair: Pair, expectedSeq: FrameSequence, actualSeq: FrameSequence, neighbors: [Int: [Int]],
                           comparator: ImageComparator, capture: CaptureOptions, reportDirectory: String?, diffStyle: DiffStyle,
                           expectedFrame: (Int) throws -> (image: Image, maps: FrameMaps?),
                           actualFrame: (Int) throws -> (image: Image, maps: FrameMaps?)) -> Frame {
        var frame = Frame(path: pair.name, status: .passed)
        if let n = pair.nearest {
            frame.detail = pair.outside
                ? "the recording did not reach it, and it shows what \(expectedSeq.names[n]) shows (a still lead-in or tail)"
                : "the recording did not reach it, and it differs from \(expectedSeq.names[n]), the nearest frame compared"
        }
        if let e = pair.e { frame.expectedFile = expectedSeq.file(e); frame.expectedTime = expectedSeq.times?[e] }
        if let a = pair.a { frame.actualFile = actualSeq.file(a); frame.actualTime = actualSeq.times?[a] }
        do {
            // Copies in the report of frames that are not a file as it is (decoded, cropped), and
            // always of a failing actual frame, so that `approve` finds it inside the report.
            func artifact(_ image: Image, _ side: String) throws -> String? {
                guard let reportDirectory else { return nil }
                let target = reportDirectory + "/captured/" + side + "/" + pair.name
                // An actual frame compared with a cropped expected side is what approve would
                // write there: stamped with that crop.
                let text = side == "actual" ? capture.cropExpected.map { [FrameSequence.cropStampKey: FrameSequence.cropStamp($0)] } ?? [:] : [:]
                try FileOutput.write(PNG.encode(image, metadata: PNGMetadata(text: text), options: .fast), to: target, durable: false)
                return target
            }
            let a = try pair.a.map(actualFrame)
            if pair.outside {
                frame.status = .outside
                if let a, let j = pair.a { frame.actualImage = actualSeq.transformed ? try artifact(a.image, "actual") : actualSeq.file(j) }
                if let e = pair.e { frame.expectedImage = expectedSeq.transformed ? try artifact(expectedFrame(e).image, "expected") : expectedSeq.file(e) }
                return frame
            }
            guard let e = pair.e else {
                frame.status = .missingExpected
                if let a { frame.actualImage = try artifact(a.image, "actual") }
                return try record(frame, a?.image, previous: nil, expectedSeq: expectedSeq, capture: capture)
            }
            let ef = try expectedFrame(e)
            frame.expectedImage = expectedSeq.transformed ? try artifact(ef.image, "expected") : expectedSeq.file(e)
            // A record that replaced the expected file keeps its old pixels in the report, so the
            // page's "expected" is what was there, not the file just written over it.
            func keepReplaced(_ f: Frame) throws -> Frame {
                guard case .recorded(true) = f.status, !expectedSeq.transformed else { return f }
                var out = f
                out.expectedImage = try artifact(ef.image, "expected") ?? f.expectedImage
                return out
            }
            guard let a else { frame.status = .missingActual; return frame }
            let around = try (neighbors[e] ?? []).map { try expectedFrame($0).image }
            let input = ComparisonInput(expected: ef.image, actual: a.image, expectedMaps: ef.maps, actualMaps: a.maps,
                                        expectedNeighbors: around)
            let (first, _) = comparator.compare(input)
            frame.comparison = first
            frame.actualImage = actualSeq.transformed || !first.passed ? try artifact(a.image, "actual") : actualSeq.file(pair.a!)
            if first.passed {
                if capture.record == .all && ef.image != a.image {
                    return try keepReplaced(record(frame, a.image, previous: ef.image, expectedSeq: expectedSeq, capture: capture))
                }
                return frame
            }
            frame.status = .failed
            // Failures only: draw and write the diff image.
            if let reportDirectory {
                let (_, diff) = comparator.compare(input, diff: diffStyle)
                if let diff {
                    let target = reportDirectory + "/diff/" + pair.name
                    try FileOutput.write(diff.encoded(), to: target, durable: false)
                    frame.diffPath = target
                }
            }
            return try keepReplaced(record(frame, a.image, previous: ef.image, expectedSeq: expectedSeq, capture: capture))
        } catch let error as PNGError {
            frame.status = .error(error.description)
        } catch {
            frame.status = .error("\(error)")
        }
        return frame
    }

    /// A frame NavReel rendered (`record`'s baselines, `render`'s frames: they carry the renderer's
    /// stamp) is never replaced by a captured one: that would drop its maps and leave `check` to
    /// fail on a recording's pixels, a crop's size or a video's lost column (an audit, 2026-11-27,
    /// approved a compare report into a copy of its baselines).
    static func refuseRendered(_ path: String, by command: String) throws {
        guard let stamp = BaselineFile.text(path: path)?["navreel.renderer"] else { return }
        throw UsageError("\(path): a frame NavReel rendered (renderer \(stamp)); \(command) would replace it with a captured "
                         + "frame's pixels and drop its maps, and `navreel check` would then fail on it. Nothing was written: keep "
                         + "captured frames you approve in a folder of their own (such as --expected approved/), and let "
                         + "`navreel record` rewrite rendered baselines")
    }

    /// Writes the actual frame as the expected one when the record mode asks for it.
    static func record(_ frame: Frame, _ image: Image?, previous: Image?, expectedSeq: FrameSequence, capture: CaptureOptions) throws -> Frame {
        guard let image, expectedSeq.isFolder else { return frame }
        let write: Bool
        switch capture.record {
        case .never: write = false
        case .missing: write = previous == nil
        case .failed: write = previous == nil || frame.status == .failed
        case .all: write = previous != image
        }
        guard write else { return frame }
        if previous == nil {
            // A frame added, never a file replaced. `run` refuses a record whose new frames would
            // take a name or sort among the files of a folder matched by order (an audit found
            // 0033.png overwritten, 2026-11-27); this guards any other way here, such as a file
            // the folder listing skips (a symbolic link, a hidden file).
            let target = expectedSeq.root + "/" + frame.path
            if FileManager.default.fileExists(atPath: target) {
                throw UsageError("\(target): not recorded: this file is already there and is not the frame compared "
                                 + (expectedSeq.matchedByOrder ? "(the folder is matched by order): record into an empty folder"
                                    : "(NavReel does not read it as a frame: a symbolic link or a hidden file?): move it away first"))
            }
        }
        let text = capture.cropExpected.map { [FrameSequence.cropStampKey: FrameSequence.cropStamp($0)] } ?? [:]
        try FileOutput.write(BaselineFile.encode(image, text: text, side: nil), to: expectedSeq.root + "/" + frame.path)
        var out = frame
        out.status = .recorded(changed: previous != nil)
        return out
    }

    /// For an empty frame folder's error: the files it holds that are not frames (JPEG or HEIC
    /// screenshots, say), or nothing.
    static func nonPNGHint(_ folder: String) -> String {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return "" }
        var count = 0, links = 0, kinds = Set<String>()
        while let item = walker.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            let ext = (name as NSString).pathExtension.lowercased()
            if type == .typeSymbolicLink && ext == "png" { links += 1; continue }
            guard !name.hasPrefix("."), type == .typeRegular else { continue }
            count += 1
            if !ext.isEmpty && kinds.count < 4 { kinds.insert("." + ext) }
        }
        if links > 0 {
            return " (its \(links) PNG \(links == 1 ? "name is a symbolic link" : "names are symbolic links"), which are not followed: copy the frames in)"
        }
        guard count > 0 else { return "" }
        return " (it holds \(count) other \(count == 1 ? "file" : "files")\(kinds.isEmpty ? "" : ": " + kinds.sorted().joined(separator: ", ")); "
            + "compare reads PNG frames, an animated GIF or PNG, or a video)"
    }

    /// PNG files below a folder, as relative paths in natural order (`2.png` before `10.png`,
    /// `PathText.naturallyBefore`; symbolic links are not followed).
    static func pngFiles(under root: String) throws -> [String] {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: root) else { throw UsageError("\(root): cannot list") }
        var out: [String] = []
        while let item = walker.nextObject() as? String {
            // Hidden files and folders are never frames: macOS writes `._name.png` beside every
            // file it copies to FAT, SMB or a zip (and `__MACOSX/` into zips), and one such file
            // in a folder matched by order shifted every frame after it.
            let name = (item as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "__MACOSX" {
                if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { walker.skipDescendants() }
                continue
            }
            guard item.lowercased().hasSuffix(".png") else { continue }
            let attributes = walker.fileAttributes
            if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular { continue }
            out.append(item)
        }
        return out.sorted(by: PathText.naturallyBefore)
    }

    /// The same results as a suite run, so that `compare` writes the same reports as `check`:
    /// one run per folder of frames, image paths relative to the report folder.
    public func suiteResult(report: String) -> SuiteResult {
        let byFolder = Dictionary(grouping: frames) { PathText.parent($0.path) }
        let jobs = byFolder.keys.sorted(by: PathText.naturallyBefore).map { folder -> JobResult in
            let outcomes = byFolder[folder]!.enumerated().map { index, f -> FrameOutcome in
                var o = FrameOutcome(index: index, time: f.actualTime ?? f.expectedTime ?? 0, status: .passed, comparison: f.comparison)
                o.source = f.path
                o.expectedFile = f.expectedFile
                o.actualFile = f.actualFile
                o.expectedTime = f.expectedTime
                o.actualTime = f.actualTime
                switch f.status {
                case .passed: o.status = .passed
                case .failed: o.status = .failed
                case .missingExpected:
                    o.status = .missing
                    o.message = "no expected frame for \(f.actualFile ?? f.path)"
                case .missingActual:
                    o.status = .failed
                    o.message = "no actual frame for \(f.expectedFile ?? f.path)" + (f.detail.map { ": " + $0 } ?? "")
                case .outside:
                    o.status = .skipped
                    o.message = "outside the overlap of the aligned sequences" + (f.expectedFile == nil ? " (actual frame only)" : " (expected frame only)")
                        + (f.detail.map { ": " + $0 } ?? "")
                case .recorded(let changed):
                    o.status = changed ? .changed : .added
                case .error(let m):
                    o.status = .error
                    o.message = m
                }
                if let p = f.expectedImage { o.expected = HTMLReport.relativePath(from: report, to: p) }
                if let p = f.actualImage { o.actual = HTMLReport.relativePath(from: report, to: p) }
                if let d = f.diffPath { o.diff = HTMLReport.relativePath(from: report, to: d) }
                return o
            }
            var job = JobResult(scenario: folder.isEmpty ? "." : folder, device: "captured",
                                file: expectedRoot + (folder.isEmpty ? "" : "/" + folder), frames: outcomes)
            job.expectedFolder = expectedRoot
            job.ignored = ignored
            return job
        }
        var suite = SuiteResult(jobs: jobs, scenarioErrors: [], shard: (1, 1), recordMode: recordMode)
        // The offset is in the reports too: a CI artifact without the console lost it (an audit, 2026-11-27).
        suite.notes = (alignment.map { [$0.sentence] + ($0.warning.map { ["align: " + $0] } ?? []) } ?? []) + notes
        return suite
    }
}

extension SequenceComparison.Frame {
    /// Failed, missing on either side, or unreadable.
    public var isFailure: Bool {
        switch status {
        case .failed, .missingExpected, .missingActual, .error: return true
        case .passed, .outside, .recorded: return false
        }
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
