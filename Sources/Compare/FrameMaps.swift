import Foundation
import Raster

/// Per-pixel side channels of a rendered frame: the translucency weight (0...255, the fraction of
/// the pixel's colour that comes from blurred backdrop) and the element on top (a small id), with
/// the names of the ids. Stored in a baseline's side-data chunk, so comparisons can use them.
public struct FrameMaps: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The planes as the comparison reads them (row by row; read from a baseline, a row that
    /// repeats the row above is kept once).
    var translucencyRows: MapPlane?
    var elementRows: MapPlane?
    /// Names of element ids (e.g. 3: "title").
    public var elementNames: [UInt8: String]

    /// `width * height` weights, or nil when the frame has none.
    public var translucency: [UInt8]? {
        get { translucencyRows?.values }
        set { translucencyRows = newValue.map { MapPlane(values: $0, width: width) } }
    }

    /// `width * height` element ids, or nil.
    public var elements: [UInt8]? {
        get { elementRows?.values }
        set { elementRows = newValue.map { MapPlane(values: $0, width: width) } }
    }

    public init(width: Int, height: Int, translucency: [UInt8]? = nil, elements: [UInt8]? = nil,
                elementNames: [UInt8: String] = [:]) {
        precondition(translucency.map { $0.count == width * height } ?? true, "translucency map size")
        precondition(elements.map { $0.count == width * height } ?? true, "element map size")
        self.init(width: width, height: height, translucencyRows: translucency.map { MapPlane(values: $0, width: width) },
                  elementRows: elements.map { MapPlane(values: $0, width: width) }, elementNames: elementNames)
    }

    init(width: Int, height: Int, translucencyRows: MapPlane?, elementRows: MapPlane?, elementNames: [UInt8: String]) {
        self.width = width
        self.height = height
        self.translucencyRows = translucencyRows
        self.elementRows = elementRows
        self.elementNames = elementNames
    }

    /// The same size, names and values, however the planes are stored.
    public static func == (a: FrameMaps, b: FrameMaps) -> Bool {
        a.width == b.width && a.height == b.height && a.elementNames == b.elementNames
            && a.translucency == b.translucency && a.elements == b.elements
    }

    // Layouts, all integers big-endian:
    //   "NRM1" (written before baseline format 4): width u32, height u32, flags u8 (1: translucency,
    //     2: elements), name count u16, then per name: id u8, length u16, UTF-8 bytes, then the
    //     translucency plane, then the element plane, each `width * height` bytes.
    //   "NRM2": the same header and names, then each plane row by row, a row as
    //     0: the same as the row above (not the first row),
    //     1: runs to the row's end, each a value u8 and its length - 1 as an unsigned LEB128 varint,
    //     2: the row's `width` bytes as they are (rows of many short runs, e.g. anti-aliased edges).
    // The planes are long runs and rows repeated from the row above (rectangles of one element,
    // one weight): NRM2 is about 3 % of NRM1's bytes for the bundled baselines, so the deflate
    // after it (PNG side data) has a thirtieth of the input and ends 15 % smaller (measured
    // 2026-11-23 on the 790 bundled baselines: NRM1 131.7 MB raw, 1.89 MB at zlib 6; NRM2
    // 4.1 MB raw, 1.60 MB at zlib 6).
    static let magic: [UInt8] = Array("NRM2".utf8)
    static let magicV1: [UInt8] = Array("NRM1".utf8)

    public func serialized() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(64 + (width + 8) * min(height, 64))
        writeHeader(into: &out)
        if let translucency { Self.appendRows(translucency, width: width, height: height, to: &out) }
        if let elements { Self.appendRows(elements, width: width, height: height, to: &out) }
        return out
    }

    /// The layout read before baseline format 4 (`NRM1`), planes as they are.
    public func serializedV1() -> [UInt8] {
        var out = Self.magicV1
        writeHeader(into: &out)
        if let translucency { out += translucency }
        if let elements { out += elements }
        return out
    }

    private func writeHeader(into out: inout [UInt8]) {
        func u32(_ v: Int) { out += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        u32(width)
        u32(height)
        out.append((translucency != nil ? 1 : 0) | (elements != nil ? 2 : 0))
        let names = elementNames.sorted { $0.key < $1.key }
        u16(names.count)
        for (id, name) in names {
            let bytes = Array(name.utf8.prefix(65535))
            out.append(id)
            u16(bytes.count)
            out += bytes
        }
    }

    /// One plane in NRM2 rows. A row's runs are written straight into `out`; when they come to
    /// more bytes than the row itself, they are dropped and the row is stored as it is.
    static func appendRows(_ plane: [UInt8], width: Int, height: Int, to out: inout [UInt8]) {
        // The planes are public and mutable: a plane of another size must not be read past its end.
        precondition(plane.count == width * height, "a \(plane.count)-value plane does not fit \(width)x\(height) maps")
        guard width > 0 else {
            // Rows of no pixels: nothing to repeat or run; each is an empty raw row.
            out += [UInt8](repeating: 2, count: height)
            return
        }
        plane.withUnsafeBufferPointer { p in
            let base = p.baseAddress!
            var runs = [UInt8](repeating: 0, count: width + 16)
            for y in 0..<height {
                let row = base + y * width
                if y > 0 && memcmp(row, row - width, width) == 0 {
                    out.append(0)
                    continue
                }
                var n = 0
                var x = 0
                let fits = runs.withUnsafeMutableBufferPointer { r -> Bool in
                    let r = r.baseAddress!
                    while x < width {
                        let v = row[x]
                        let e = Runs.end(row, x, width)
                        var length = e - x - 1
                        // The value byte and the varint must fit in the row's own size.
                        var varint = 1
                        while length >> (7 * varint) > 0 { varint += 1 }
                        guard n + 1 + varint <= width else { return false }
                        r[n] = v
                        n += 1
                        while length >= 0x80 {
                            r[n] = UInt8(length & 0x7F) | 0x80
                            n += 1
                            length >>= 7
                        }
                        r[n] = UInt8(length)
                        n += 1
                        x = e
                    }
                    return true
                }
                if fits {
                    out.append(1)
                    out += runs[0..<n]
                } else {
                    out.append(2)
                    out += UnsafeBufferPointer(start: row, count: width)
                }
            }
        }
    }

    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        public var description: String {
            switch self { case .malformed(let why): return "frame maps: \(why)" }
        }
    }

    /// Reads either layout. `maxPixels` bounds the planes an NRM2 header may declare (its bytes
    /// do not: a few bytes can describe any size), so a damaged or hostile file cannot make it
    /// allocate more than the image it belongs to: pass the image's width times height. No
    /// default, so that no caller forgets it.
    public init(serialized bytes: [UInt8], maxPixels: Int) throws(DecodeError) {
        try self.init(serialized: bytes, maxPixels: maxPixels, planes: true)
    }

    /// Reads serialized maps as `init(serialized:maxPixels:)` does, refusing the same damage with
    /// the same messages, but makes none of their planes, and gives only the size they declare
    /// (so that no caller mistakes the result for maps without planes). For a file compared with
    /// itself, where no pixel differs and the maps can change no verdict but a damaged file must
    /// still be an error (issue 16). A 1x frame's two planes are 0.66 MB that a diff of identical
    /// files wrote and never read (issue 17).
    public static func checked(serialized bytes: [UInt8], maxPixels: Int) throws(DecodeError) -> (width: Int, height: Int) {
        let maps = try FrameMaps(serialized: bytes, maxPixels: maxPixels, planes: false)
        return (maps.width, maps.height)
    }

    /// `planes`: false reads everything but stores no plane (the result has none).
    private init(serialized bytes: [UInt8], maxPixels: Int, planes: Bool) throws(DecodeError) {
        var p = 0
        func need(_ n: Int) throws(DecodeError) {
            guard bytes.count - p >= n else { throw .malformed("ends early at byte \(p)") }
        }
        func u32() throws(DecodeError) -> Int {
            try need(4)
            defer { p += 4 }
            return Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
        }
        func u16() throws(DecodeError) -> Int {
            try need(2)
            defer { p += 2 }
            return Int(bytes[p]) << 8 | Int(bytes[p + 1])
        }
        try need(4)
        let magic = Array(bytes[0..<4])
        guard magic == Self.magic || magic == Self.magicV1 else { throw .malformed("unknown layout (expected NRM1 or NRM2)") }
        let rows = magic == Self.magic
        p = 4
        let width = try u32(), height = try u32()
        try need(1)
        let flags = bytes[p]
        p += 1
        guard flags & ~3 == 0 else { throw .malformed("unknown plane flags \(flags)") }
        var names: [UInt8: String] = [:]
        for _ in 0..<(try u16()) {
            try need(1)
            let id = bytes[p]
            p += 1
            let length = try u16()
            try need(length)
            names[id] = String(decoding: bytes[p..<p + length], as: UTF8.self)
            p += length
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .malformed("absurd size \(width)x\(height)") }
        var translucency: MapPlane?
        var elements: MapPlane?
        if rows && flags != 0 && count > maxPixels {
            throw .malformed("declares \(width)x\(height) planes, more than the \(maxPixels) pixels allowed")
        }
        for (flag, name) in [(UInt8(1), "translucency"), (2, "element")] where flags & flag != 0 {
            let plane: MapPlane?
            if rows {
                plane = try Self.readRows(bytes, at: &p, width: width, height: height, plane: name, store: planes)
            } else {
                try need(count)
                plane = planes ? MapPlane(values: Array(bytes[p..<p + count]), width: width) : nil
                p += count
            }
            if flag == 1 { translucency = plane } else { elements = plane }
        }
        guard p == bytes.count else { throw .malformed("\(bytes.count - p) unexpected trailing bytes") }
        self.init(width: width, height: height, translucencyRows: translucency, elementRows: elements, elementNames: names)
    }

    /// One NRM2 plane from `bytes` at `p`; every row must fill exactly `width` values. A row
    /// coded as the row above shares its values (MapPlane). With `store` false every row is read
    /// and checked the same way, and nothing is kept (nil).
    static func readRows(_ bytes: [UInt8], at p: inout Int, width: Int, height: Int, plane name: String,
                         store: Bool = true) throws(DecodeError) -> MapPlane? {
        // Every row takes at least its tag byte: refused before anything is allocated.
        guard bytes.count - p >= height else { throw .malformed("\(name) plane ends early: \(height) rows in \(bytes.count - p) bytes") }
        var pool = [UInt8]()
        var starts = [Int]()
        if store { starts.reserveCapacity(height) }
        var failure: DecodeError?
        var at = p
        bytes.withUnsafeBufferPointer { src in
            let end = src.count
            for y in 0..<height {
                guard at < end else { failure = .malformed("\(name) plane ends early at row \(y)"); return }
                let tag = src[at]
                at += 1
                switch tag {
                case 0:
                    guard y > 0 else { failure = .malformed("\(name) plane: the first row repeats a row above it"); return }
                    if store { starts.append(starts[y - 1]) }
                case 1:
                    if store { starts.append(pool.count) }
                    var x = 0
                    while x < width {
                        guard at < end else { failure = .malformed("\(name) plane ends early in row \(y)"); return }
                        let v = src[at]
                        at += 1
                        var length = 0, shift = 0
                        while true {
                            guard at < end else { failure = .malformed("\(name) plane ends early in row \(y)"); return }
                            guard shift < 63 else { failure = .malformed("\(name) plane: bad run length in row \(y)"); return }
                            let b = src[at]
                            at += 1
                            length |= Int(b & 0x7F) << shift
                            if b < 0x80 { break }
                            shift += 7
                        }
                        guard length < width - x else { failure = .malformed("\(name) plane: a run overruns row \(y)"); return }
                        let n = length + 1
                        if store { pool.append(contentsOf: repeatElement(v, count: n)) }
                        x += n
                    }
                case 2:
                    guard end - at >= width else { failure = .malformed("\(name) plane ends early in row \(y)"); return }
                    if store {
                        starts.append(pool.count)
                        pool.append(contentsOf: UnsafeBufferPointer(start: src.baseAddress! + at, count: width))
                    }
                    at += width
                default:
                    failure = .malformed("\(name) plane: unknown row tag \(tag) in row \(y)")
                    return
                }
            }
        }
        if let failure { throw failure }
        p = at
        return store ? MapPlane(width: width, pool: pool, starts: starts) : nil
    }
}

/// One plane of a frame's maps, row by row: row y's values are `pool[starts[y] ..< starts[y] + width]`,
/// or, without `starts`, `pool[y * width ..< (y + 1) * width]` (a plane made in memory, kept as
/// it is). Read from a baseline, a row that NRM2 codes as the row above shares its values: a 1x
/// frame's planes are 33-37 distinct rows of 844, 14 KB instead of 330 KB each (issue 17: a diff
/// of two frames made four full planes, a quarter of the memory it touched).
struct MapPlane: Sendable {
    let width: Int
    let pool: [UInt8]
    let starts: [Int]?

    /// A plane as it is (`values.count` should be a multiple of `width`; FrameMaps checks it).
    init(values: [UInt8], width: Int) {
        self.width = width
        pool = values
        starts = nil
    }

    init(width: Int, pool: [UInt8], starts: [Int]) {
        self.width = width
        self.pool = pool
        self.starts = starts
    }

    /// Rows the plane holds.
    var height: Int { starts?.count ?? (width > 0 ? pool.count / width : 0) }

    /// Whether it has `width * height` values laid out for a `width`-wide, `height`-high frame.
    func fits(width w: Int, height h: Int) -> Bool {
        guard w == width else { return false }
        if let starts { return starts.count == h }
        return pool.count == w * h
    }

    /// Every value, row after row.
    var values: [UInt8] {
        guard let starts else { return pool }
        var out = [UInt8]()
        out.reserveCapacity(width * starts.count)
        for start in starts { out += pool[start..<start + width] }
        return out
    }

    /// The value at (x, y).
    @inline(__always)
    func value(_ x: Int, _ y: Int) -> UInt8 {
        pool[(starts?[y] ?? y * width) + x]
    }

    /// `body` with pointers to the rows (nil for a plane of no values).
    @inline(__always)
    func withRows<R>(_ body: (MapRows?) -> R) -> R {
        pool.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return body(nil) }
            guard let starts else { return body(MapRows(pool: base, starts: nil, width: width)) }
            return starts.withUnsafeBufferPointer { s in body(MapRows(pool: base, starts: s.baseAddress, width: width)) }
        }
    }
}

/// A MapPlane's rows as pointers, for the comparison's inner loops.
struct MapRows {
    let pool: UnsafePointer<UInt8>
    let starts: UnsafePointer<Int>?
    let width: Int

    @inline(__always)
    func row(_ y: Int) -> UnsafePointer<UInt8> {
        pool + (starts.map { $0[y] } ?? y * width)
    }
}
