import Compare
import Foundation
import Raster

/// The thumbnails of a job's frames without full-size images (passing, added, changed), packed into
/// one PNG per `framesPerSheet` consecutive frames: `frames/<scenario>/<device>/thumbs.png`, then
/// `thumbs-0240.png` (named by its first frame) and so on. Creating a file costs more kernel time
/// on ext4 than checking a frame (issue 17); a job's dozens of thumbnails are one file instead.
///
/// Layout: cells in frame order, left to right in rows of `columns` cells (about as many rows as
/// columns), each row as tall as its tallest cell. Each thumbnail is surrounded by a `gutter` of its
/// own edge pixels repeated, so that a browser's filtering near the edge of a scaled rectangle
/// blends in the frame's own colours, never the neighbour's. The rectangle of a frame (`x, y, w, h`,
/// the thumbnail's pixels exactly as `ReportFiles.thumbnail` makes them) goes to results.json as
/// `thumbnailRect`. The layout depends on the cells' sizes in frame order only, so the bytes do
/// not depend on the number of jobs or on which worker made which cell.
///
/// Reuse: the sheet's text chunk `navreel.thumbnails` records each cell's frame index, the frame's
/// content hash and the thumbnail's size, under a first line naming the thumbnail width and the
/// version of the picture and layout. A cell whose frame has the same hash is not made again, and
/// a sheet whose cells all match is not written again.
public enum ThumbnailSheet {
    /// Frames of a job per sheet: a multiple of the runner's units of 12 frames, so a unit fills
    /// one sheet; bounds what a sheet holds in memory before it is written (240 thumbnails of a 3x
    /// full-screen frame are 45 MB) and the size of the image a browser decodes.
    public static let framesPerSheet = 240
    /// Edge pixels repeated around each thumbnail.
    public static let gutter = 2
    static let textKey = "navreel.thumbnails"
    /// Bump the version when the layout or the cells' pixels change (with `ReportFiles.thumbnail`).
    static var header: String { "navreel-thumbnails w\(ReportFiles.thumbnailWidth) v1 layout1 gutter\(gutter)" }

    /// The sheet holding frame `k` of a job, relative to the job's folder.
    public static func name(ofFrame k: Int) -> String {
        let first = k / framesPerSheet * framesPerSheet
        return first == 0 ? "thumbs.png" : "thumbs-" + String(format: "%04d", first) + ".png"
    }

    /// A name `name(ofFrame:)` gives.
    static func isSheet(_ file: String) -> Bool {
        if file == "thumbs.png" { return true }
        guard file.hasPrefix("thumbs-"), file.hasSuffix(".png") else { return false }
        let digits = file.dropFirst(7).dropLast(4)
        return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// A thumbnail file NavReel writes: a sheet, or the one-frame `NNNN.thumb.png` of earlier versions.
    public static func isThumbnail(_ path: String) -> Bool {
        path.hasSuffix(".thumb.png") || isSheet((path as NSString).lastPathComponent)
    }

    /// One frame's place in a sheet: what it was made from, its size, and its pixels when this run
    /// made them (nil: the sheet on disk has them, made from the same frame).
    public struct Cell: Sendable {
        public var index: Int
        /// The frame's content hash (nil: unknown, never reused).
        public var source: String?
        public var width: Int
        public var height: Int
        public var image: Image?

        public init(index: Int, source: String?, image: Image) {
            self.index = index
            self.source = source
            width = image.width
            height = image.height
            self.image = image
        }

        init(index: Int, source: String?, width: Int, height: Int) {
            self.index = index
            self.source = source
            self.width = width
            self.height = height
        }

        var record: String { "\(index) \(source ?? "-") \(width)x\(height)" }
    }

    public struct Layout: Equatable, Sendable {
        public var rects: [PixelRect]
        public var width: Int
        public var height: Int
    }

    /// Cells of these sizes, in order: rows of about the square root of the count, each cell in a
    /// slot of its size plus the gutter on every side.
    public static func layout(_ sizes: [(width: Int, height: Int)]) -> Layout {
        guard !sizes.isEmpty else { return Layout(rects: [], width: 0, height: 0) }
        let slotW = sizes.map { $0.width + 2 * gutter }.max()!, slotH = sizes.map { $0.height + 2 * gutter }.max()!
        // About square: columns × slotW ≈ rows × slotH.
        let columns = max(1, min(sizes.count, Int((Double(sizes.count * slotH) / Double(slotW)).squareRoot().rounded(.up))))
        var rects: [PixelRect] = []
        var width = 0, y = 0
        for start in stride(from: 0, to: sizes.count, by: columns) {
            let row = sizes[start..<min(sizes.count, start + columns)]
            var x = 0
            for s in row {
                rects.append(PixelRect(x: x + gutter, y: y + gutter, width: s.width, height: s.height))
                x += s.width + 2 * gutter
            }
            width = max(width, x)
            y += row.map { $0.height + 2 * gutter }.max()!
        }
        return Layout(rects: rects, width: width, height: y)
    }

    /// What a sheet on disk was made from.
    public struct Existing: Sendable {
        /// Its cells in order, without pixels.
        var cells: [Cell]
        var width: Int
        var height: Int
        /// Frame index to the cell's record.
        var records: [Int: String]

        /// Frame `k`'s cell when the sheet holds it made from `source` at this size.
        func cell(_ k: Int, source: String, width: Int, height: Int) -> Cell? {
            let c = Cell(index: k, source: source, width: width, height: height)
            return records[k] == c.record ? c : nil
        }
    }

    /// The record of the sheet at `path`, when it is one this version wrote (else nil: nothing reused).
    public static func existing(at path: String) -> Existing? {
        // Every chunk's CRC is checked too (sheets are written without a flush, so a crash can
        // leave one damaged): a sheet whose cells all match is kept without being decoded.
        guard let bytes = try? FileBytes.read(path: path, limit: PNGLimits.default.maxFileBytes),
              let structure = try? PNGStructure.scan(bytes, source: path),
              bytes.withUnsafeBytes({ structure.firstBadCRC(in: $0) }) == nil,
              let text = BaselineFile.header(bytes, structure).text[textKey] else { return nil }
        var lines = text.split(separator: "\n")
        guard lines.first.map(String.init) == header else { return nil }
        lines.removeFirst()
        var cells: [Cell] = []
        var records: [Int: String] = [:]
        for line in lines {
            let parts = line.split(separator: " ")
            let size = parts.count == 3 ? parts[2].split(separator: "x") : []
            guard parts.count == 3, let k = Int(parts[0]), size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0,
                  records[k] == nil, cells.last.map({ $0.index < k }) ?? true else { return nil }
            let source = parts[1] == "-" ? nil : String(parts[1])
            let c = Cell(index: k, source: source, width: w, height: h)
            cells.append(c)
            records[k] = c.record
        }
        return Existing(cells: cells, width: structure.width, height: structure.height, records: records)
    }

    /// Writes the sheet of these cells (in frame order) to `report/path`, unless the sheet there
    /// (`existing`) already holds exactly these cells. Returns each frame's rectangle, or nil when
    /// nothing could be written (the page then says the frames have no picture). Cells without
    /// pixels are copied from the existing sheet; if it cannot be decoded, they are left out.
    /// Not flushed to disk: a report is rewritten by the next run, unlike a baseline.
    public static func write(_ cells: [Cell], to report: String, path: String, existing: Existing?) -> [Int: PixelRect]? {
        var cells = cells.sorted { $0.index < $1.index }
        func rects(_ layout: Layout) -> [Int: PixelRect] {
            Dictionary(uniqueKeysWithValues: zip(cells.map(\.index), layout.rects))
        }
        let full = report + "/" + path
        if let existing, !cells.isEmpty, cells.map(\.record) == existing.cells.map(\.record), cells.allSatisfy({ $0.source != nil }) {
            let layout = self.layout(cells.map { ($0.width, $0.height) })
            if layout.width == existing.width && layout.height == existing.height { return rects(layout) }
        }
        if cells.contains(where: { $0.image == nil }) {
            // Copied from the sheet on disk, where the same frame's thumbnail already is.
            let old = existing.flatMap { e in (try? PNG.read(path: full)).map { (e, $0.image) } }
            var oldRects: [Int: PixelRect] = [:]
            if let (e, image) = old {
                let layout = self.layout(e.cells.map { ($0.width, $0.height) })
                if layout.width == image.width && layout.height == image.height {
                    oldRects = Dictionary(uniqueKeysWithValues: zip(e.cells.map(\.index), layout.rects))
                }
            }
            cells = cells.compactMap { c in
                if c.image != nil { return c }
                guard let r = oldRects[c.index], let (_, image) = old else { return nil }
                var out = c
                out.image = crop(image, r)
                return out
            }
        }
        guard !cells.isEmpty else { return nil }
        let layout = self.layout(cells.map { ($0.width, $0.height) })
        guard layout.width <= PNGLimits.default.maxSide, layout.height <= PNGLimits.default.maxSide,
              layout.width * layout.height <= PNGLimits.default.maxPixels else { return nil }
        let sheet = compose(cells.map { $0.image! }, layout)
        let text = ([header] + cells.map(\.record)).joined(separator: "\n")
        // Fast rather than small: most of a sheet is new whenever anything in its frames changes.
        // The baselines' own search encoder without filters: on the bundled suite's 12 sheets
        // 1,019,730 bytes in the CPU of libdeflate's level 1 (1,169,149 bytes; 0.04-0.07 s for
        // both, one core, 2026-11-26), which had replaced zlib level 1 with the Up filter
        // (1,391,706 bytes, what one-frame thumbnails used).
        let options = PNGEncodeOptions(compressionLevel: 1, filter: .none, strategy: .default, reduceColors: false,
                                       sideDataLevel: 1, sideDataStrategy: .default, deflater: .search)
        guard let bytes = try? PNG.encode(sheet, metadata: PNGMetadata(text: [textKey: text]), options: options),
              (try? FileOutput.write(bytes, to: full, durable: false)) != nil else { return nil }
        return rects(layout)
    }

    /// The pixels of `r` in `image`.
    public static func crop(_ image: Image, _ r: PixelRect) -> Image {
        var out = [UInt8](repeating: 0, count: r.width * r.height * 4)
        for y in 0..<r.height {
            let from = ((r.y + y) * image.width + r.x) * 4
            out.replaceSubrange(y * r.width * 4..<(y + 1) * r.width * 4, with: image.pixels[from..<from + r.width * 4])
        }
        return Image(width: r.width, height: r.height, pixels: out)
    }

    /// The sheet: each image at its rectangle, its edge rows and columns repeated into the gutter
    /// around it; the rest transparent.
    static func compose(_ images: [Image], _ layout: Layout) -> Image {
        let w = layout.width
        var out = [UInt8](repeating: 0, count: w * layout.height * 4)
        let g = gutter
        for (image, r) in zip(images, layout.rects) {
            let iw = image.width
            for y in -g..<(r.height + g) {
                let sy = min(max(y, 0), r.height - 1)
                let row = sy * iw * 4
                let o = ((r.y + y) * w + r.x) * 4
                out.replaceSubrange(o..<o + iw * 4, with: image.pixels[row..<row + iw * 4])
                for x in 1...g {
                    let l = o - x * 4, rr = o + (iw - 1 + x) * 4
                    out.replaceSubrange(l..<l + 4, with: image.pixels[row..<row + 4])
                    out.replaceSubrange(rr..<rr + 4, with: image.pixels[row + (iw - 1) * 4..<row + iw * 4])
                }
            }
        }
        return Image(width: w, height: layout.height, pixels: out)
    }
}
