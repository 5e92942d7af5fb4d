import CFontLibs
import CFreeType
import CHarfBuzz
import Foundation
import NavReelFonts

/// A font file read through FreeType. Glyphs are loaded unscaled (`FT_LOAD_NO_SCALE`, which
/// implies `FT_LOAD_NO_HINTING`), so outlines, advances and kerning are the font file's own units:
/// NavReel scales and rasterizes them itself, and the pixels depend on the font file only, not on
/// the FreeType version. Colour bitmap fonts (CBDT, Noto ScenarioColor Emoji) give BGRA bitmaps at their
/// strike, which NavReel scales itself. Thread-safe: FreeType and HarfBuzz calls happen under a
/// lock, glyphs are cached.
///
/// A typeface may carry fallbacks: characters it lacks are drawn, one by one, with the first
/// fallback that has them (see `layout`). Text it covers entirely, left to right, takes the
/// original path: its glyphs, GPOS pair kerning, no shaping.
public final class Typeface: @unchecked Sendable {
    public let path: String
    /// File name, e.g. "Inter-SemiBold.otf".
    public let name: String
    /// SHA-256 of the font file, hex. Computed on first use: a fallback that no drawn text needs
    /// is never hashed, which spares every process (a debug test run especially) most of the
    /// hashing of the shipped fonts.
    public var sha256: String {
        hashLock.lock()
        defer { hashLock.unlock() }
        if let hash = computedSHA256 { return hash }
        let hash = SHA256.hex(UnsafeRawBufferPointer(rebasing: file[0..<fileByteCount]))
        computedSHA256 = hash
        return hash
    }
    private var computedSHA256: String?
    private let hashLock = NSLock()
    private let fileByteCount: Int
    public let unitsPerEm: Double
    public let ascender: Double
    public let descender: Double
    /// Faces tried in order for the characters this one lacks.
    public let fallbacks: [Typeface]
    /// True for colour bitmap glyphs (CBDT) instead of outlines.
    public let hasColorBitmaps: Bool
    /// Pixels per em of the bitmap strike (colour bitmap fonts).
    let strikePPEM: Double

    private var library: FT_Library?
    private var face: FT_Face?
    /// The font file, owned for the typeface's lifetime: FreeType and HarfBuzz read it in place.
    private let file: UnsafeMutableRawBufferPointer
    private var shaper: OpaquePointer?
    private let lock = NSLock()
    private var glyphs: [UInt32: Glyph] = [:]
    private var indices: [Unicode.Scalar: UInt32] = [:]
    private var kerning: [UInt64: Double] = [:]
    private var resampled: [ResampleKey: Image] = [:]
    /// Layouts by text, size and tracking: a bar draws the same few strings on every frame
    /// (issue 17). Cleared when it reaches `layoutCapacity` entries.
    /// Glyphs are kept with their face as an index (0 this face, then the fallbacks), not a
    /// reference: the face holding a reference to itself would never be freed.
    private struct LayoutKey: Hashable { let text: String; let size: UInt64; let tracking: UInt64 }
    private struct CachedGlyph { let face: Int; let index: UInt32; let glyph: Glyph; let x: Double; let y: Double; let k: Double }
    private var layouts: [LayoutKey: (glyphs: [CachedGlyph], width: Double)] = [:]
    private static let layoutCapacity = 4096
    private let hasKerning: Bool
    /// GPOS pair kerning when the font has it; FreeType's `kern`-table kerning otherwise.
    private let gpos: GPOSKerning?

    struct Glyph {
        /// Outline in font units, y up.
        var path: Path {
            didSet { bounds = path.controlBounds }
        }
        /// The outline's control points' bounds (font units, y up): where it can draw.
        private(set) var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        var advance: Double
        /// Colour bitmap at the strike, straight RGBA, with its offset from the pen (pixels at
        /// the strike, y up to the top edge).
        var bitmap: (image: Image, left: Double, top: Double)?

        init(path: Path, advance: Double, bitmap: (image: Image, left: Double, top: Double)? = nil) {
            self.path = path
            self.bounds = path.controlBounds
            self.advance = advance
            self.bitmap = bitmap
        }
    }

    struct ResampleKey: Hashable {
        var glyph: UInt32
        var width: Int
        var height: Int
    }

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String, fallbacks: [Typeface] = []) throws {
        self.path = path
        self.fallbacks = fallbacks
        name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(description: "\(path): cannot read the font file") }
        let bytes = Array(data)
        fileByteCount = bytes.count
        gpos = GPOSKerning(fontFile: bytes)
        file = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        file.copyBytes(from: bytes)
        guard FontLibraries.table != nil else {
            file.deallocate()
            throw LoadError(description: "\(path): " + FontLibraries.failure)
        }
        var lib: FT_Library?
        guard fonts.FT_Init_FreeType(&lib) == 0, let lib else {
            file.deallocate()
            throw LoadError(description: "FreeType could not start")
        }
        var f: FT_Face?
        guard fonts.FT_New_Memory_Face(lib, file.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count), 0, &f) == 0,
              let f else {
            _ = fonts.FT_Done_FreeType(lib)
            file.deallocate()
            throw LoadError(description: "\(path): FreeType cannot open this font")
        }
        library = lib
        face = f
        unitsPerEm = Double(f.pointee.units_per_EM == 0 ? 1000 : f.pointee.units_per_EM)
        ascender = Double(f.pointee.ascender)
        descender = Double(f.pointee.descender)
        hasKerning = (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
        let color = (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR)) != 0
        let scalable = (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE)) != 0
        if color, !scalable, f.pointee.num_fixed_sizes > 0, let sizes = f.pointee.available_sizes {
            // The largest strike: NavReel scales it down to the text size.
            var best = 0
            for i in 0..<Int(f.pointee.num_fixed_sizes) where sizes[i].y_ppem > sizes[best].y_ppem { best = i }
            _ = fonts.FT_Select_Size(f, FT_Int(best))
            hasColorBitmaps = true
            strikePPEM = Double(sizes[best].y_ppem) / 64
        } else {
            hasColorBitmaps = false
            strikePPEM = 0
        }
    }

    deinit {
        if let shaper { fonts.hb_font_destroy(shaper) }
        if let face { _ = fonts.FT_Done_Face(face) }
        if let library { _ = fonts.FT_Done_FreeType(library) }
        file.deallocate()
    }

    /// Runs `body` under this typeface's lock.
    func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The glyph for a character; 0 (the font's notdef) when the font has none.
    func glyphIndex(_ c: Unicode.Scalar) -> UInt32 {
        if let i = indices[c] { return i }
        let i = UInt32(fonts.FT_Get_Char_Index(face, FT_ULong(c.value)))
        indices[c] = i
        return i
    }

    /// True when the font has a glyph for the character.
    public func covers(_ c: Unicode.Scalar) -> Bool { locked { glyphIndex(c) != 0 } }

    func glyph(_ index: UInt32) -> Glyph {
        if let g = glyphs[index] { return g }
        var glyph = Glyph(path: Path(), advance: 0)
        if hasColorBitmaps {
            var advance: FT_Fixed = 0
            if fonts.FT_Get_Advance(face, index, FT_Int32(FT_LOAD_NO_SCALE), &advance) == 0 { glyph.advance = Double(advance) }
            if fonts.FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_COLOR)) == 0, let slot = face?.pointee.glyph {
                glyph.bitmap = Self.colorBitmap(slot)
            }
        } else if fonts.FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_BITMAP)) == 0, let slot = face?.pointee.glyph {
            glyph.advance = Double(slot.pointee.advance.x)
            glyph.path = Self.outline(&slot.pointee.outline)
        }
        glyphs[index] = glyph
        return glyph
    }

    /// A BGRA (premultiplied) glyph bitmap as a straight-alpha RGBA image, with its offsets.
    static func colorBitmap(_ slot: FT_GlyphSlot) -> (image: Image, left: Double, top: Double)? {
        let bm = slot.pointee.bitmap
        guard bm.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), bm.width > 0, bm.rows > 0, let buffer = bm.buffer else { return nil }
        let w = Int(bm.width), h = Int(bm.rows), pitch = Int(bm.pitch)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (h - 1 - y) * -pitch
            for x in 0..<w {
                let b = Int(row[x * 4]), g = Int(row[x * 4 + 1]), r = Int(row[x * 4 + 2]), a = Int(row[x * 4 + 3])
                let o = (y * w + x) * 4
                guard a > 0 else { continue }
                pixels[o] = UInt8(min(255, (r * 255 + a / 2) / a))
                pixels[o + 1] = UInt8(min(255, (g * 255 + a / 2) / a))
                pixels[o + 2] = UInt8(min(255, (b * 255 + a / 2) / a))
                pixels[o + 3] = UInt8(a)
            }
        }
        return (Image(width: w, height: h, pixels: pixels), Double(slot.pointee.bitmap_left), Double(slot.pointee.bitmap_top))
    }

    /// A colour bitmap glyph resampled to `width` x `height` device pixels by area averaging (in
    /// premultiplied alpha), so that scaling down does not alias; cached.
    func resampledBitmap(_ index: UInt32, width: Int, height: Int) -> Image? {
        let key = ResampleKey(glyph: index, width: width, height: height)
        if let image = resampled[key] { return image }
        guard let source = glyph(index).bitmap?.image else { return nil }
        let image = Self.resample(source, width: width, height: height)
        resampled[key] = image
        return image
    }

    static func resample(_ src: Image, width tw: Int, height th: Int) -> Image {
        let sw = src.width, sh = src.height
        let fx = Double(sw) / Double(tw), fy = Double(sh) / Double(th)
        /// Source pixels and their overlap with [i * f, (i + 1) * f).
        func spans(_ i: Int, _ f: Double, _ limit: Int) -> [(Int, Double)] {
            let lo = Double(i) * f, hi = Double(i + 1) * f
            var out: [(Int, Double)] = []
            var p = Int(lo.rounded(.down))
            while Double(p) < hi && p < limit {
                let w = min(hi, Double(p + 1)) - max(lo, Double(p))
                if w > 0 { out.append((p, w)) }
                p += 1
            }
            return out
        }
        let cols = (0..<tw).map { spans($0, fx, sw) }
        let rows = (0..<th).map { spans($0, fy, sh) }
        var out = [UInt8](repeating: 0, count: tw * th * 4)
        src.pixels.withUnsafeBufferPointer { p in
            for y in 0..<th {
                for x in 0..<tw {
                    var r = 0.0, g = 0.0, b = 0.0, a = 0.0, total = 0.0
                    for (sy, wy) in rows[y] {
                        for (sx, wx) in cols[x] {
                            let w = wx * wy
                            let i = (sy * sw + sx) * 4
                            let alpha = Double(p[i + 3]) / 255
                            r += Double(p[i]) * alpha * w
                            g += Double(p[i + 1]) * alpha * w
                            b += Double(p[i + 2]) * alpha * w
                            a += alpha * w
                            total += w
                        }
                    }
                    guard total > 0, a > 0 else { continue }
                    let o = (y * tw + x) * 4
                    out[o] = UInt8(min(255, (r / a).rounded()))
                    out[o + 1] = UInt8(min(255, (g / a).rounded()))
                    out[o + 2] = UInt8(min(255, (b / a).rounded()))
                    out[o + 3] = UInt8(min(255, (a / total * 255).rounded()))
                }
            }
        }
        return Image(width: tw, height: th, pixels: out)
    }

    func kern(_ a: UInt32, _ b: UInt32) -> Double {
        guard hasKerning || gpos != nil else { return 0 }
        let key = UInt64(a) << 32 | UInt64(b)
        if let k = kerning[key] { return k }
        if let gpos {
            let k = Double(gpos.adjustment(a, b))
            kerning[key] = k
            return k
        }
        var v = FT_Vector()
        let k = fonts.FT_Get_Kerning(face, a, b, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 ? Double(v.x) : 0
        kerning[key] = k
        return k
    }

    /// Converts a FreeType outline (font units) into a path through FT_Outline_Decompose.
    static func outline(_ outline: UnsafeMutablePointer<FT_Outline>) -> Path {
        final class Box { var path = Path() }
        let box = Box()
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                let b = Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue()
                b.path.close()
                b.path.move(to: Point(Double(to!.pointee.x), Double(to!.pointee.y)))
                return 0
            },
            line_to: { to, user in
                Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue().path.line(to: Point(Double(to!.pointee.x), Double(to!.pointee.y)))
                return 0
            },
            conic_to: { c, to, user in
                Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue().path.quad(
                    to: Point(Double(to!.pointee.x), Double(to!.pointee.y)), control: Point(Double(c!.pointee.x), Double(c!.pointee.y)))
                return 0
            },
            cubic_to: { c1, c2, to, user in
                Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue().path.cubic(
                    to: Point(Double(to!.pointee.x), Double(to!.pointee.y)),
                    control1: Point(Double(c1!.pointee.x), Double(c1!.pointee.y)),
                    control2: Point(Double(c2!.pointee.x), Double(c2!.pointee.y)))
                return 0
            },
            shift: 0, delta: 0)
        _ = withExtendedLifetime(box) {
            fonts.FT_Outline_Decompose(outline, &funcs, Unmanaged.passUnretained(box).toOpaque())
        }
        box.path.close()
        // Drop empty subpaths produced by the leading close().
        return box.path
    }

    // MARK: Shaping

    /// One glyph as HarfBuzz places it, in font units, in visual order.
    struct ShapedGlyph {
        var index: UInt32
        var cluster: UInt32
        var advance: Double
        var xOffset: Double
        var yOffset: Double
    }

    /// Shapes `range` of `scalars` (the rest is context, for joining) with HarfBuzz, unscaled:
    /// Arabic joining forms and ligatures, marks, right-to-left order. Call under the lock.
    func shape(_ scalars: [UInt32], _ range: Range<Int>, rightToLeft: Bool, script: Bidi.Script) -> [ShapedGlyph] {
        if shaper == nil {
            let blob = fonts.hb_blob_create(file.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(file.count),
                                      HB_MEMORY_MODE_READONLY, nil, nil)
            let hbFace = fonts.hb_face_create(blob, 0)
            let font = fonts.hb_font_create(hbFace)
            fonts.hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
            fonts.hb_face_destroy(hbFace)
            fonts.hb_blob_destroy(blob)
            shaper = font
        }
        let buffer = fonts.hb_buffer_create()
        defer { fonts.hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            fonts.hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        }
        fonts.hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        // A fixed language, never the process's locale, so that shaping is the same everywhere.
        fonts.hb_buffer_set_language(buffer, fonts.hb_language_from_string(script.language, -1))
        if let tag = script.hbScript { fonts.hb_buffer_set_script(buffer, tag) }
        fonts.hb_buffer_guess_segment_properties(buffer)
        fonts.hb_buffer_set_flags(buffer, HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES)
        fonts.hb_shape(shaper, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = fonts.hb_buffer_get_glyph_infos(buffer, &count), let positions = fonts.hb_buffer_get_glyph_positions(buffer, &count) else {
            return []
        }
        return (0..<Int(count)).map { i in
            ShapedGlyph(index: infos[i].codepoint, cluster: infos[i].cluster, advance: Double(positions[i].x_advance),
                        xOffset: Double(positions[i].x_offset), yOffset: Double(positions[i].y_offset))
        }
    }

    // MARK: Layout

    /// A glyph on the baseline: its face, pen position (points from the start), vertical offset
    /// (points, y up) and the face's points per font unit.
    struct Placed {
        var face: Typeface
        var index: UInt32
        var glyph: Glyph
        var x: Double
        var y: Double
        var k: Double
    }

    /// Characters that belong to the cluster before them: marks, joiners, variation selectors and
    /// emoji modifiers are drawn with the base character's face.
    static func attaches(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x1F3FB...0x1F3FF, 0x20E3: return true
        default: break
        }
        switch c.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }

    /// The face index (0: this one, then the fallbacks) for each scalar: the first face that has
    /// the character, emoji faces first for emoji presentation; characters no face has stay with
    /// this one (its notdef).
    func faceAssignment(_ scalars: [Unicode.Scalar]) -> [Int] {
        let faces = [self] + fallbacks
        func has(_ f: Int, _ c: Unicode.Scalar) -> Bool {
            f == 0 ? glyphIndex(c) != 0 : faces[f].covers(c)
        }
        var out = [Int](repeating: 0, count: scalars.count)
        for (i, c) in scalars.enumerated() {
            if i > 0, Self.attaches(c) {
                out[i] = out[i - 1]
                continue
            }
            let emoji = c.properties.isEmojiPresentation || (i + 1 < scalars.count && scalars[i + 1] == "\u{FE0F}")
            let order = emoji ? faces.indices.sorted { (faces[$0].hasColorBitmaps ? 0 : 1, $0) < (faces[$1].hasColorBitmaps ? 0 : 1, $1) }
                              : Array(faces.indices)
            out[i] = order.first { has($0, c) } ?? 0
        }
        return out
    }

    /// True when the text takes the original path: every character in this face, left to right,
    /// nothing to shape or hide.
    func isPlain(_ scalars: [Unicode.Scalar]) -> Bool {
        fallbacks.isEmpty || scalars.allSatisfy {
            glyphIndex($0) != 0 && !Bidi.isRightToLeft($0) && !$0.properties.isDefaultIgnorableCodePoint
                && !$0.properties.isEmojiPresentation && !Self.attaches($0)
        }
    }

    /// Glyphs of a string positioned along a baseline, in points from its start, and its width
    /// (advances and kerning, plus tracking between characters).
    ///
    /// Plain text (see `isPlain`) goes glyph by glyph with pair kerning, as NavReel always drew
    /// Latin text. Other text is split into runs of one face and one direction (`Bidi`), the
    /// runs put in visual order; runs of this face at a left-to-right level keep the plain
    /// path, the others are shaped by HarfBuzz.
    func layout(_ text: String, size: Double, tracking: Double) -> (glyphs: [Placed], width: Double) {
        lock.lock()
        defer { lock.unlock() }
        let key = LayoutKey(text: text, size: size.bitPattern, tracking: tracking.bitPattern)
        let faces = [self] + fallbacks
        if let done = layouts[key] {
            return (done.glyphs.map { Placed(face: faces[$0.face], index: $0.index, glyph: $0.glyph, x: $0.x, y: $0.y, k: $0.k) }, done.width)
        }
        let laid = layoutUncached(text, size: size, tracking: tracking)
        let cached = laid.glyphs.compactMap { p -> CachedGlyph? in
            guard let f = faces.firstIndex(where: { $0 === p.face }) else { return nil }
            return CachedGlyph(face: f, index: p.index, glyph: p.glyph, x: p.x, y: p.y, k: p.k)
        }
        if cached.count == laid.glyphs.count {
            if layouts.count >= Self.layoutCapacity { layouts.removeAll() }
            layouts[key] = (cached, laid.width)
        }
        return laid
    }

    /// `layout` without the cache. Call under the lock.
    private func layoutUncached(_ text: String, size: Double, tracking: Double) -> (glyphs: [Placed], width: Double) {
        let scalars = Array(text.unicodeScalars)
        let k = size / unitsPerEm
        var out: [Placed] = []
        if isPlain(scalars) {
            var x = 0.0
            plainRun(scalars[...], k: k, tracking: tracking, x: &x, end: nil, into: &out)
            guard let last = out.last else { return ([], 0) }
            return (out, last.x + last.glyph.advance * k)
        }
        let faceOf = faceAssignment(scalars)
        let levels = Bidi.levels(scalars)
        var runs: [(range: Range<Int>, face: Int, level: UInt8)] = []
        for i in scalars.indices {
            if let last = runs.last, last.face == faceOf[i], last.level == levels[i] {
                runs[runs.count - 1].range = last.range.lowerBound..<(i + 1)
            } else {
                runs.append((i..<(i + 1), faceOf[i], levels[i]))
            }
        }
        let faces = [self] + fallbacks
        let utf32 = scalars.map(\.value)
        var x = 0.0, end = 0.0
        for r in Bidi.visualOrder(runs.map(\.level)) {
            let run = runs[r]
            let rtl = run.level % 2 == 1
            if run.face == 0 && !rtl {
                plainRun(scalars[run.range].filter { !$0.properties.isDefaultIgnorableCodePoint }[...], k: k, tracking: tracking,
                         x: &x, end: &end, into: &out)
                continue
            }
            let face = faces[run.face]
            let script = Bidi.Script(scalars[run.range])
            let fk = size / face.unitsPerEm
            let shaped: [(ShapedGlyph, Glyph)] = run.face == 0
                ? shape(utf32, run.range, rightToLeft: rtl, script: script).map { ($0, glyph($0.index)) }
                : face.locked { face.shape(utf32, run.range, rightToLeft: rtl, script: script).map { ($0, face.glyph($0.index)) } }
            for (j, (s, g)) in shaped.enumerated() {
                out.append(Placed(face: face, index: s.index, glyph: g, x: x + s.xOffset * fk, y: s.yOffset * fk, k: fk))
                x += s.advance * fk
                end = x
                if j + 1 == shaped.count || shaped[j + 1].0.cluster != s.cluster { x += tracking }
            }
        }
        return (out, end)
    }

    /// This face's glyphs one character after another with pair kerning: NavReel's original
    /// text path. Call under the lock.
    private func plainRun(_ scalars: ArraySlice<Unicode.Scalar>, k: Double, tracking: Double, x: inout Double, end: UnsafeMutablePointer<Double>?,
                          into out: inout [Placed]) {
        var previous: UInt32?
        for scalar in scalars {
            let index = glyphIndex(scalar)
            if let p = previous { x += kern(p, index) * k }
            let g = glyph(index)
            out.append(Placed(face: self, index: index, glyph: g, x: x, y: 0, k: k))
            x += g.advance * k
            end?.pointee = x
            x += tracking
            previous = index
        }
    }

    /// The faces (this one and fallbacks) a string's characters are drawn with.
    public func faces(for text: String) -> [Typeface] {
        let scalars = Array(text.unicodeScalars)
        let used = Set(locked { faceAssignment(scalars) })
        return ([self] + fallbacks).enumerated().filter { used.contains($0.offset) }.map(\.element)
    }

    /// Characters of a string that neither this face nor any fallback has (ignoring invisible
    /// format characters and controls).
    public func uncovered(_ text: String) -> [Unicode.Scalar] {
        let faces = [self] + fallbacks
        return text.unicodeScalars.filter { c in
            if c.properties.isDefaultIgnorableCodePoint || c.properties.generalCategory == .control { return false }
            return !faces.contains { $0.covers(c) }
        }
    }

    /// Width of a string: the sum of advances and kerning, plus tracking between characters.
    public func width(of text: String, size: Double, tracking: Double = 0) -> Double {
        layout(text, size: size, tracking: tracking).width
    }

    /// The string shortened with an ellipsis to fit `maxWidth`, or itself when it fits.
    public func truncated(_ text: String, size: Double, maxWidth: Double, tracking: Double = 0) -> String {
        if width(of: text, size: size, tracking: tracking) <= maxWidth { return text }
        var chars = Array(text)
        while !chars.isEmpty {
            chars.removeLast()
            let candidate = String(chars).trimmingCharacters(in: .whitespaces) + "…"
            if width(of: candidate, size: size, tracking: tracking) <= maxWidth { return candidate }
        }
        return "…"
    }

    /// The outline of a string (points, y down) with its baseline's start at `origin`. Colour
    /// bitmap glyphs are not in it (`Canvas.text` draws them).
    public func path(_ text: String, size: Double, origin: Point, tracking: Double = 0) -> Path {
        Self.path(layout(text, size: size, tracking: tracking).glyphs, origin: origin)
    }

    /// The outline of laid-out glyphs (points, y down), the baseline's start at `origin`.
    static func path(_ glyphs: [Placed], origin: Point) -> Path {
        var out = Path()
        for p in glyphs where p.glyph.bitmap == nil {
            // Font units are y up; the canvas is y down.
            out.append(p.glyph.path.transformed(sx: p.k, sy: -p.k, dx: origin.x + p.x, dy: origin.y - p.y))
        }
        return out
    }
}

/// The three weights NavReel draws with, each with its fallbacks for the characters Inter lacks.
/// By default they are the files shipped in NavReel's resource bundle (`BundledFonts`), never the
/// machine's fonts, so that a scenario gives the same bytes on every machine; `NAVREEL_FONT_DIR`
/// names another folder holding the same file names.
public struct FontSet: Sendable {
    public let regular: Typeface
    public let semibold: Typeface
    public let bold: Typeface
    /// The fallback faces of all three weights, each once, in the order they are tried.
    public let fallbacks: [Typeface]

    /// File names of the three weights, in the bundle and in a `NAVREEL_FONT_DIR` folder.
    public static let regularFile = "Inter-Regular.otf"
    public static let semiboldFile = "Inter-SemiBold.otf"
    public static let boldFile = "Inter-Bold.otf"
    /// Fallbacks, tried in this order (emoji first for emoji presentation): regular text, then
    /// semibold and bold text. Subsets made by scripts/subset-fonts.
    public static let regularFallbackFiles = ["NotoSansCJKsc-Regular.subset.otf", "NotoSansArabic-Regular.subset.ttf",
                                              "NotoSansHebrew-Regular.subset.ttf", "NotoColorEmoji.subset.ttf"]
    public static let boldFallbackFiles = ["NotoSansCJKsc-Bold.subset.otf", "NotoSansArabic-Bold.subset.ttf",
                                           "NotoSansHebrew-Bold.subset.ttf", "NotoColorEmoji.subset.ttf"]

    /// The three weights from these files, without fallbacks.
    public init(regular: String, semibold: String, bold: String) throws {
        try self.init(regular: regular, semibold: semibold, bold: bold, regularFallbacks: [], boldFallbacks: [])
    }

    /// The three weights with fallback files (paths) for regular, and for semibold and bold text.
    public init(regular: String, semibold: String, bold: String, regularFallbacks: [String], boldFallbacks: [String]) throws {
        var loaded: [String: Typeface] = [:]
        var order: [Typeface] = []
        for path in regularFallbacks + boldFallbacks where loaded[path] == nil {
            let face = try Typeface(path: path)
            loaded[path] = face
            order.append(face)
        }
        let light = regularFallbacks.compactMap { loaded[$0] }, heavy = boldFallbacks.compactMap { loaded[$0] }
        self.regular = try Typeface(path: regular, fallbacks: light)
        self.semibold = semibold == regular ? self.regular : try Typeface(path: semibold, fallbacks: heavy)
        self.bold = bold == semibold ? self.semibold : try Typeface(path: bold, fallbacks: heavy)
        fallbacks = order
    }

    /// The three weights from a folder holding Inter-Regular.otf, Inter-SemiBold.otf and
    /// Inter-Bold.otf, with the fallback files found there or, failing that, in
    /// `fallbackDirectory`. `origin` says in errors where the folder came from.
    public init(directory: String, fallbackDirectory: String? = nil, origin: String = "font folder") throws {
        let names = [Self.regularFile, Self.semiboldFile, Self.boldFile]
        let missing = names.filter { !FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }
        guard missing.isEmpty else {
            throw Typeface.LoadError(description: "\(directory): \(origin) has no \(missing.joined(separator: ", "))")
        }
        let path = { (directory as NSString).appendingPathComponent($0) }
        func fallback(_ name: String) -> String? {
            for dir in [directory, fallbackDirectory].compactMap({ $0 }) {
                let p = (dir as NSString).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: p) { return p }
            }
            return nil
        }
        try self.init(regular: path(Self.regularFile), semibold: path(Self.semiboldFile), bold: path(Self.boldFile),
                      regularFallbacks: Self.regularFallbackFiles.compactMap(fallback),
                      boldFallbacks: Self.boldFallbackFiles.compactMap(fallback))
    }

    /// The folder of the fonts shipped with NavReel (in its SwiftPM resource bundle).
    public static var bundledDirectory: String? { BundledFonts.directory }

    /// The fonts shipped with NavReel, whatever the machine has installed.
    public static func bundled() throws -> FontSet {
        guard let directory = bundledDirectory else {
            throw Typeface.LoadError(description: "NavReel's font bundle (NavReel_NavReelFonts.resources, or .bundle on macOS) "
                                     + "is not next to the executable; keep it beside the binary, or set NAVREEL_FONT_DIR")
        }
        return try FontSet(directory: directory, origin: "NavReel's font bundle")
    }

    /// The folder `NAVREEL_FONT_DIR` names when it is set (an override, e.g. to try another
    /// version of Inter; fallbacks it lacks come from the bundle), the shipped fonts otherwise.
    public static func discover(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> FontSet {
        if let directory = environment["NAVREEL_FONT_DIR"], !directory.isEmpty {
            return try FontSet(directory: directory, fallbackDirectory: bundledDirectory, origin: "NAVREEL_FONT_DIR")
        }
        return try bundled()
    }

    /// Name and SHA-256 of each of the three weights' files, for baseline metadata.
    public var fingerprint: String {
        [regular, semibold, bold].map { "\($0.name) \($0.sha256)" }.joined(separator: "; ")
    }

    /// The fingerprint of the three weights, then of each fallback that some of these texts are
    /// drawn with (in any weight): what a scenario's frames depend on. Texts drawn with Inter
    /// alone give `fingerprint`.
    public func fingerprint(covering texts: [String]) -> String {
        var used = Set<ObjectIdentifier>()
        for text in texts {
            for weight in [regular, semibold, bold] {
                for face in weight.faces(for: text) where face !== weight { used.insert(ObjectIdentifier(face)) }
            }
        }
        let extra = fallbacks.filter { used.contains(ObjectIdentifier($0)) }.map { "\($0.name) \($0.sha256)" }
        return ([fingerprint] + extra).joined(separator: "; ")
    }

    /// Characters of a text no shipped font has (they would draw as Inter's notdef box).
    public func uncovered(_ text: String) -> [Unicode.Scalar] {
        regular.uncovered(text)
    }
}

extension Canvas {
    /// Draws text with its left edge at x, vertically centred in a band (points). Returns the
    /// drawn width. Text wider than `maxWidth` is truncated with an ellipsis. Outline glyphs are
    /// filled with `color`; colour bitmap glyphs (emoji) keep their colours, at `color`'s alpha.
    @discardableResult
    public func text(_ string: String, font: Typeface, size: Double, color: RGBA8, x: Double, centerY: Double,
                     maxWidth: Double? = nil, tracking: Double = 0, element: UInt8) -> Double {
        let shown = maxWidth.map { font.truncated(string, size: size, maxWidth: $0, tracking: tracking) } ?? string
        // Centre the font's ascender-to-descender box on the band.
        let k = size / font.unitsPerEm
        let baseline = centerY + (font.ascender + font.descender) * k / 2
        let laid = font.layout(shown, size: size, tracking: tracking)
        // Text wholly above or below the clip (the rows of a list under a bar-sized capture)
        // draws nothing: its glyphs' outlines and bitmaps are not built, moved and flattened.
        // (Either end of each product, so a negative size, drawn upside down, is bounded too.)
        var top = Double.infinity, bottom = -Double.infinity, bounded = true
        for p in laid.glyphs {
            if p.glyph.bitmap == nil {
                if !p.glyph.path.startsWithMove { bounded = false }
                if let b = p.glyph.bounds {
                    let y0 = baseline - p.y - b.maxY * p.k, y1 = baseline - p.y - b.minY * p.k
                    top = min(top, min(y0, y1))
                    bottom = max(bottom, max(y0, y1))
                }
            }
            if let bitmap = p.glyph.bitmap, p.face.strikePPEM > 0 {
                let unit = size / p.face.strikePPEM
                let y0 = baseline - p.y - bitmap.top * unit, y1 = y0 + Double(bitmap.image.height) * unit
                top = min(top, min(y0, y1))
                bottom = max(bottom, max(y0, y1))
            }
        }
        // In pixels, with a pixel to spare for rounding on either side.
        let c = clip
        guard !bounded || top <= bottom && (bottom + offset.y) * scale > Double(c.1) - 1 && (top + offset.y) * scale < Double(c.3) + 1 else {
            return laid.width
        }
        fill(Typeface.path(laid.glyphs, origin: Point(x, baseline)), .solid(color), element: element)
        for p in laid.glyphs {
            guard let bitmap = p.glyph.bitmap, p.face.strikePPEM > 0 else { continue }
            let unit = size / p.face.strikePPEM
            let rect = Rect(x: x + p.x + bitmap.left * unit, y: baseline - p.y - bitmap.top * unit,
                            width: Double(bitmap.image.width) * unit, height: Double(bitmap.image.height) * unit)
            let tw = max(1, Int((rect.width * scale).rounded())), th = max(1, Int((rect.height * scale).rounded()))
            guard var image = p.face.locked({ p.face.resampledBitmap(p.index, width: tw, height: th) }) else { continue }
            if color.a < 255 {
                let a = UInt32(color.a)
                for i in stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = UInt8(div255(UInt32(image.pixels[i]) * a)) }
            }
            fill(rect, .image(ImagePaint(image: image, rect: rect, mode: .stretch)), element: element)
        }
        return laid.width
    }
}

/// FreeType and HarfBuzz through CFontLibs, which loads them on first use (on Linux with dlopen:
/// commands that draw no text start without them).
enum FontLibraries {
    /// The function table, nil when a library could not be loaded (`failure` says why). Written
    /// once, before any read, by `nr_font_api_load` (pthread_once), then only read.
    static let table: nr_font_api? = {
        var message = [CChar](repeating: 0, count: 512)
        guard let api = nr_font_api_load(&message, message.count) else {
            failureText = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        return api.pointee
    }()
    nonisolated(unsafe) private static var failureText = ""

    /// Why the libraries could not be loaded (empty when they were).
    static var failure: String {
        _ = table
        return failureText
    }
}

/// The libraries' functions. Only used by a Typeface, whose init has checked that they loaded.
private var fonts: nr_font_api { FontLibraries.table! }
