import CFreeType
import Foundation
import NavReelFonts

/// A font file read through FreeType. Glyphs are loaded unscaled (`FT_LOAD_NO_SCALE`, which
/// implies `FT_LOAD_NO_HINTING`), so outlines, advances and kerning are the font file's own units:
/// NavReel scales and rasterizes them itself, and the pixels depend on the font file only, not on
/// the FreeType version. Thread-safe: FreeType calls happen under a lock, outlines are cached.
public final class Typeface: @unchecked Sendable {
    public let path: String
    /// File name, e.g. "Inter-SemiBold.otf".
    public let name: String
    /// SHA-256 of the font file, hex.
    public let sha256: String
    public let unitsPerEm: Double
    public let ascender: Double
    public let descender: Double

    private var library: FT_Library?
    private var face: FT_Face?
    private let lock = NSLock()
    private var glyphs: [UInt32: Glyph] = [:]
    private var indices: [Unicode.Scalar: UInt32] = [:]
    private var kerning: [UInt64: Double] = [:]
    private let hasKerning: Bool
    /// GPOS pair kerning when the font has it; FreeType's `kern`-table kerning otherwise.
    private let gpos: GPOSKerning?

    struct Glyph {
        /// Outline in font units, y up.
        var path: Path
        var advance: Double
    }

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String) throws {
        self.path = path
        name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(description: "\(path): cannot read the font file") }
        let bytes = Array(data)
        sha256 = SHA256.hex(bytes)
        gpos = GPOSKerning(fontFile: bytes)
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw LoadError(description: "FreeType could not start") }
        var f: FT_Face?
        guard FT_New_Face(lib, path, 0, &f) == 0, let f else {
            FT_Done_FreeType(lib)
            throw LoadError(description: "\(path): FreeType cannot open this font")
        }
        library = lib
        face = f
        unitsPerEm = Double(f.pointee.units_per_EM == 0 ? 1000 : f.pointee.units_per_EM)
        ascender = Double(f.pointee.ascender)
        descender = Double(f.pointee.descender)
        hasKerning = (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The glyph for a character; 0 (the font's notdef) when the font has none.
    func glyphIndex(_ c: Unicode.Scalar) -> UInt32 {
        if let i = indices[c] { return i }
        let i = UInt32(FT_Get_Char_Index(face, FT_ULong(c.value)))
        indices[c] = i
        return i
    }

    func glyph(_ index: UInt32) -> Glyph {
        if let g = glyphs[index] { return g }
        var glyph = Glyph(path: Path(), advance: 0)
        if FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_BITMAP)) == 0, let slot = face?.pointee.glyph {
            glyph.advance = Double(slot.pointee.advance.x)
            glyph.path = Self.outline(&slot.pointee.outline)
        }
        glyphs[index] = glyph
        return glyph
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
        let k = FT_Get_Kerning(face, a, b, FT_UInt(FT_KERNING_UNSCALED.rawValue), &v) == 0 ? Double(v.x) : 0
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
            FT_Outline_Decompose(outline, &funcs, Unmanaged.passUnretained(box).toOpaque())
        }
        box.path.close()
        // Drop empty subpaths produced by the leading close().
        return box.path
    }

    /// Glyphs of a string positioned along a baseline, in points from its start.
    func layout(_ text: String, size: Double, tracking: Double) -> [(glyph: Glyph, x: Double)] {
        lock.lock()
        defer { lock.unlock() }
        let k = size / unitsPerEm
        var x = 0.0
        var previous: UInt32?
        var out: [(Glyph, Double)] = []
        for scalar in text.unicodeScalars {
            let index = glyphIndex(scalar)
            if let p = previous { x += kern(p, index) * k }
            let g = glyph(index)
            out.append((g, x))
            x += g.advance * k + tracking
            previous = index
        }
        return out
    }

    /// Width of a string: the sum of advances and kerning, plus tracking between characters.
    public func width(of text: String, size: Double, tracking: Double = 0) -> Double {
        let glyphs = layout(text, size: size, tracking: tracking)
        guard let last = glyphs.last else { return 0 }
        return last.x + last.glyph.advance * size / unitsPerEm
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

    /// The outline of a string (points, y down) with its baseline's start at `origin`.
    public func path(_ text: String, size: Double, origin: Point, tracking: Double = 0) -> Path {
        let k = size / unitsPerEm
        var out = Path()
        for (glyph, x) in layout(text, size: size, tracking: tracking) {
            // Font units are y up; the canvas is y down.
            out.append(glyph.path.transformed(sx: k, sy: -k, dx: origin.x + x, dy: origin.y))
        }
        return out
    }
}

/// The three weights NavReel draws with. By default they are the Inter files shipped in
/// NavReel's resource bundle (`BundledFonts`), never the machine's fonts, so that a scenario gives
/// the same bytes on every machine; `NAVREEL_FONT_DIR` names another folder holding the same
/// file names.
public struct FontSet: Sendable {
    public let regular: Typeface
    public let semibold: Typeface
    public let bold: Typeface

    /// File names of the three weights, in the bundle and in a `NAVREEL_FONT_DIR` folder.
    public static let regularFile = "Inter-Regular.otf"
    public static let semiboldFile = "Inter-SemiBold.otf"
    public static let boldFile = "Inter-Bold.otf"

    public init(regular: String, semibold: String, bold: String) throws {
        self.regular = try Typeface(path: regular)
        self.semibold = semibold == regular ? self.regular : try Typeface(path: semibold)
        self.bold = bold == semibold ? self.semibold : try Typeface(path: bold)
    }

    /// The three weights from a folder holding Inter-Regular.otf, Inter-SemiBold.otf and
    /// Inter-Bold.otf. `origin` says in errors where the folder came from.
    public init(directory: String, origin: String = "font folder") throws {
        let names = [Self.regularFile, Self.semiboldFile, Self.boldFile]
        let missing = names.filter { !FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0)) }
        guard missing.isEmpty else {
            throw Typeface.LoadError(description: "\(directory): \(origin) has no \(missing.joined(separator: ", "))")
        }
        let path = { (directory as NSString).appendingPathComponent($0) }
        try self.init(regular: path(Self.regularFile), semibold: path(Self.semiboldFile), bold: path(Self.boldFile))
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
    /// version of Inter), the shipped fonts otherwise.
    public static func discover(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> FontSet {
        if let directory = environment["NAVREEL_FONT_DIR"], !directory.isEmpty {
            return try FontSet(directory: directory, origin: "NAVREEL_FONT_DIR")
        }
        return try bundled()
    }

    /// Name and SHA-256 of each file, for baseline metadata.
    public var fingerprint: String {
        [regular, semibold, bold].map { "\($0.name) \($0.sha256)" }.joined(separator: "; ")
    }
}

extension Canvas {
    /// Draws text with its left edge at x, vertically centred in a band (points). Returns the
    /// drawn width. Text wider than `maxWidth` is truncated with an ellipsis.
    @discardableResult
    public func text(_ string: String, font: Typeface, size: Double, color: RGBA8, x: Double, centerY: Double,
                     maxWidth: Double? = nil, tracking: Double = 0, element: UInt8) -> Double {
        let shown = maxWidth.map { font.truncated(string, size: size, maxWidth: $0, tracking: tracking) } ?? string
        // Centre the font's ascender-to-descender box on the band.
        let k = size / font.unitsPerEm
        let baseline = centerY + (font.ascender + font.descender) * k / 2
        fill(font.path(shown, size: size, origin: Point(x, baseline), tracking: tracking), .solid(color), element: element)
        return font.width(of: shown, size: size, tracking: tracking)
    }
}
