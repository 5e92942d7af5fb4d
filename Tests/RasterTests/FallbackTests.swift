import Foundation
import Testing
@testable import Raster

/// Fallback fonts, shaping and right-to-left order, measured in glyphs and pixels.
@Suite("Text beyond Inter")
struct FallbackTests {
    static let fonts: FontSet = try! FontSet.bundled()
    /// Inter alone: characters it lacks draw as its notdef box.
    static let interOnly: FontSet = {
        let dir = FontSet.bundledDirectory!
        return try! FontSet(regular: dir + "/" + FontSet.regularFile, semibold: dir + "/" + FontSet.semiboldFile, bold: dir + "/" + FontSet.boldFile)
    }()

    static func draw(_ text: String, _ font: Typeface, size: Double = 17) -> Image {
        let c = Canvas(width: 150 * 3, height: 30 * 3, scale: 3, background: RGBA8(255, 255, 255))
        c.text(text, font: font, size: size, color: RGBA8(0, 0, 0), x: 4, centerY: 15, element: 1)
        return c.makeImage()
    }

    static func differing(_ a: Image, _ b: Image) -> Int {
        var n = 0
        for i in 0..<a.pixelCount {
            let o = i * 4
            if a.pixels[o] != b.pixels[o] || a.pixels[o + 1] != b.pixels[o + 1] || a.pixels[o + 2] != b.pixels[o + 2] { n += 1 }
        }
        return n
    }

    static func inked(_ image: Image) -> Int {
        (0..<image.pixelCount).filter { image.pixels[$0 * 4] < 128 || image.pixels[$0 * 4 + 1] < 128 || image.pixels[$0 * 4 + 2] < 128 }.count
    }

    @Test("every fallback comes from NavReel's bundle, each file once", arguments: [false, true])
    func bundledFallbacks(_ viaDiscover: Bool) throws {
        let fonts = viaDiscover ? try FontSet.discover(environment: [:]) : try FontSet.bundled()
        let dir = try #require(FontSet.bundledDirectory)
        #expect(fonts.fallbacks.map(\.name) == ["NotoSansCJKsc-Regular.subset.otf", "NotoSansArabic-Regular.subset.ttf",
                                                "NotoSansHebrew-Regular.subset.ttf", "NotoColorEmoji.subset.ttf",
                                                "NotoSansCJKsc-Bold.subset.otf", "NotoSansArabic-Bold.subset.ttf",
                                                "NotoSansHebrew-Bold.subset.ttf"])
        for face in fonts.fallbacks { #expect(face.path.hasPrefix(dir), "\(face.path)") }
        #expect(fonts.regular.fallbacks.map(\.name).first == "NotoSansCJKsc-Regular.subset.otf")
        #expect(fonts.semibold.fallbacks.map(\.name).first == "NotoSansCJKsc-Bold.subset.otf")
        #expect(FileManager.default.fileExists(atPath: dir + "/LICENSE-Noto.txt"))
    }

    static let scripts: [(text: String, face: String)] = [
        ("我的收藏", "NotoSansCJKsc"), ("ひらがなカタカナ", "NotoSansCJKsc"), ("مرحبا بالعالم", "NotoSansArabic"),
        ("שלום עולם", "NotoSansHebrew"), ("😀👍🎉", "NotoColorEmoji"), ("❤️", "NotoColorEmoji"),
    ]

    @Test("CJK, Arabic, Hebrew and emoji draw real glyphs from their fallback, not notdef boxes", arguments: scripts)
    func realGlyphs(_ text: String, _ faceName: String) throws {
        for weight in [Self.fonts.regular, Self.fonts.semibold] {
            let laid = weight.layout(text, size: 17, tracking: 0)
            #expect(laid.glyphs.allSatisfy { $0.index != 0 }, "no notdef in \(text)")
            #expect(laid.glyphs.contains { $0.face.name.hasPrefix(faceName) })
            #expect(laid.width > 10)
            let drawn = Self.draw(text, weight)
            let boxes = Self.draw(text, Self.interOnly.regular)
            #expect(Self.differing(drawn, boxes) > 300, "\(text) looks like notdef boxes")
            #expect(Self.inked(drawn) > 100, "\(text) draws something")
            #expect(weight.uncovered(text).isEmpty)
        }
    }

    @Test("emoji keep their colours; text colour applies only to outlines")
    func emojiColour() {
        let image = Self.draw("😀", Self.fonts.regular)
        let coloured = (0..<image.pixelCount).filter { i in
            let r = Int(image.pixels[i * 4]), g = Int(image.pixels[i * 4 + 1]), b = Int(image.pixels[i * 4 + 2])
            return abs(r - b) > 60 || abs(g - b) > 60
        }.count
        #expect(coloured > 200, "a yellow face, not black ink: \(coloured)")
        // Drawn at half alpha, the same emoji is paler.
        let c = Canvas(width: 150 * 3, height: 30 * 3, scale: 3, background: RGBA8(255, 255, 255))
        c.text("😀", font: Self.fonts.regular, size: 17, color: RGBA8(0, 0, 0, 128), x: 4, centerY: 15, element: 1)
        #expect(Self.differing(c.makeImage(), image) > 200)
    }

    @Test("Arabic letters join: medial and final forms, not the isolated glyph", arguments: ["ببب", "سلام", "محمد"])
    func arabicJoining(_ word: String) throws {
        let font = Self.fonts.regular
        let joined = font.layout(word, size: 17, tracking: 0).glyphs.map(\.index)
        let isolated = word.unicodeScalars.map { font.layout(String($0), size: 17, tracking: 0).glyphs.map(\.index) }.flatMap { $0 }
        #expect(joined.count >= 2)
        // Drawn right to left, the logical first letter is the rightmost glyph; its joined form
        // differs from the isolated one, and so does the whole sequence.
        #expect(Set(joined) != Set(isolated) || joined != isolated.reversed(), "\(word): \(joined) vs \(isolated)")
        #expect(joined.last != isolated.first, "\(word): the initial form is not the isolated letter")
        // Pixels too: the joined word differs from its letters drawn apart.
        let spaced = word.unicodeScalars.map(String.init).joined(separator: " ")
        #expect(Self.differing(Self.draw(word, font), Self.draw(spaced, font)) > 100)
    }

    /// Pen positions of the glyphs for each of `chars`, in the order given.
    static func positions(_ text: String, _ chars: [Unicode.Scalar], _ font: Typeface) throws -> [Double] {
        let laid = font.layout(text, size: 17, tracking: 0)
        return try chars.map { c in
            let placed = try #require(laid.glyphs.first { p in p.face.covers(c) && p.index == p.face.locked { p.face.glyphIndex(c) } })
            return placed.x
        }
    }

    @Test("right-to-left runs are drawn right to left, numbers and Latin inside them left to right",
          arguments: [
              // (text, characters in the order they must appear from left to right)
              ("אבג", ["ג", "ב", "א"]),
              ("abc אבג", ["a", "c", "ג", "א"]),
              ("אבג abc", ["a", "c", "ג", "א"]),
              ("שלום 123", ["1", "3", "ם", "ש"]),
              ("שלום abc עולם", ["ע", "a", "c", "ש"]),
          ] as [(String, [Unicode.Scalar])])
    func rightToLeft(_ text: String, _ leftToRight: [Unicode.Scalar]) throws {
        let xs = try Self.positions(text, leftToRight, Self.fonts.regular)
        #expect(xs == xs.sorted() && Set(xs).count == xs.count, "\(text): \(xs)")
    }

    static let latin = ["Favorites", "Settings", "A title much too long", "Row 7 \u{E000}\u{10FFFD}", "Back", "9:41", "AV To Wa"]

    @Test("Latin text is laid out exactly as with Inter alone: same glyphs, positions, widths and outline", arguments: latin)
    func latinUnchanged(_ text: String) {
        for (with, without) in [(Self.fonts.regular, Self.interOnly.regular), (Self.fonts.semibold, Self.interOnly.semibold),
                                (Self.fonts.bold, Self.interOnly.bold)] {
            let a = with.layout(text, size: 17, tracking: 0.5), b = without.layout(text, size: 17, tracking: 0.5)
            #expect(a.glyphs.map(\.index) == b.glyphs.map(\.index))
            #expect(a.glyphs.map(\.x) == b.glyphs.map(\.x))
            #expect(a.width == b.width)
            #expect(with.width(of: text, size: 17) == without.width(of: text, size: 17))
            #expect(Self.draw(text, with) == Self.draw(text, without))
        }
    }

    @Test("width is what is drawn: mixed scripts measure the same as they lay out", arguments: ["我的 Profile", "Hi 👋🏽 שלום", "收藏 ❤️"])
    func measuredAsDrawn(_ text: String) {
        let font = Self.fonts.semibold
        let c = Canvas(width: 300, height: 30, scale: 1, background: RGBA8(255, 255, 255))
        let drawn = c.text(text, font: font, size: 17, color: RGBA8(0, 0, 0), x: 0, centerY: 15, element: 1)
        #expect(drawn == font.width(of: text, size: 17))
        let image = c.makeImage()
        var rightmost = 0
        for i in 0..<image.pixelCount where image.pixels[i * 4] < 200 || image.pixels[i * 4 + 1] < 200 || image.pixels[i * 4 + 2] < 200 { rightmost = max(rightmost, i % image.width) }
        let right = Double(rightmost)
        #expect(right <= drawn + 1)
        #expect(right > drawn * 0.8)
    }

    @Test("characters no shipped font has are reported; what is covered is not",
          arguments: [("Me", ""), ("我", ""), ("\u{10FFFD}x", "\u{10FFFD}"), ("한국어", "한국어"), ("a\u{200D}b\u{FE0F}", "")])
    func uncovered(_ text: String, _ missing: String) {
        var got = String.UnicodeScalarView()
        got.append(contentsOf: Self.fonts.uncovered(text))
        #expect(String(got) == missing)
    }

    @Test("the fingerprint names the fallbacks a scenario's texts use, and only those")
    func fingerprint() {
        let fonts = Self.fonts
        #expect(fonts.fingerprint(covering: ["Favorites", "Me", "Back"]) == fonts.fingerprint)
        let cjk = fonts.fingerprint(covering: ["我", "收藏"])
        #expect(cjk.hasPrefix(fonts.fingerprint + "; "))
        #expect(cjk.contains("NotoSansCJKsc-Regular.subset.otf") && cjk.contains("NotoSansCJKsc-Bold.subset.otf"))
        #expect(!cjk.contains("Arabic") && !cjk.contains("Emoji"))
        #expect(fonts.fingerprint(covering: ["😀"]).hasSuffix("NotoColorEmoji.subset.ttf " + fonts.fallbacks[3].sha256))
    }

    @Test("text with fallbacks draws the same bytes every time and on any thread")
    func deterministic() async {
        let text = "我的 مرحبا 😀 שלום"
        let first = Self.draw(text, Self.fonts.semibold)
        let others = await withTaskGroup(of: Image.self) { group in
            for _ in 0..<4 { group.addTask { Self.draw(text, Self.fonts.semibold) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(others.allSatisfy { $0 == first })
    }
}

/// Measured pixels: what tofu looks like and what real glyphs, joined Arabic and colour emoji do.
@Suite("Text beyond Inter, measured")
struct FallbackPixelTests {
    static let fonts = FallbackTests.fonts

    /// The bounding box of dark pixels (any channel below 128).
    static func inkBox(_ image: Image) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let o = (y * image.width + x) * 4
                if image.pixels[o] < 128 || image.pixels[o + 1] < 128 || image.pixels[o + 2] < 128 {
                    x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
                }
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1, y1)
    }

    /// The share of the ink box's outline (its four edges, 2 px deep) that is inked: near 1 for
    /// a notdef box, which is a hollow rectangle; lower for real glyphs.
    static func boxness(_ image: Image) -> Double {
        guard let b = inkBox(image) else { return 0 }
        func inked(_ x: Int, _ y: Int) -> Bool {
            let o = (y * image.width + x) * 4
            return image.pixels[o] < 128 || image.pixels[o + 1] < 128 || image.pixels[o + 2] < 128
        }
        var hit = 0, total = 0
        for x in b.x0...b.x1 {
            total += 2
            if inked(x, b.y0) || inked(x, b.y0 + 1) { hit += 1 }
            if inked(x, b.y1) || inked(x, b.y1 - 1) { hit += 1 }
        }
        for y in b.y0...b.y1 {
            total += 2
            if inked(b.x0, y) || inked(b.x0 + 1, y) { hit += 1 }
            if inked(b.x1, y) || inked(b.x1 - 1, y) { hit += 1 }
        }
        return Double(hit) / Double(total)
    }

    /// Semibold at 17 pt, 3x (measured with this file's `draw`; Inter's notdef box measures
    /// 0.86 with 1,976 inked pixels, whatever the character).
    @Test("a fallback glyph draws its own ink where Inter alone draws the same notdef box for every character",
          arguments: [("我", 0.5), ("收", 0.5), ("藏", 0.5), ("あ", 0.5), ("ש", 0.7), ("ب", 0.5)])
    func inkNotTofu(_ c: String, _ maxBoxness: Double) throws {
        let real = FallbackTests.draw(c, Self.fonts.semibold)
        let tofu = FallbackTests.draw(c, FallbackTests.interOnly.semibold)
        #expect(Self.boxness(tofu) > 0.85, "Inter alone: a hollow box")
        #expect(tofu == FallbackTests.draw("\u{10FFFD}", FallbackTests.interOnly.semibold), "every missing character is the same box")
        #expect(Self.boxness(real) < maxBoxness, "\(c): \(Self.boxness(real))")
        let realBox = try #require(Self.inkBox(real)), tofuBox = try #require(Self.inkBox(tofu))
        #expect(realBox.x0 != tofuBox.x0 || realBox.y0 != tofuBox.y0 || realBox.y1 != tofuBox.y1)
        #expect(FallbackTests.inked(real) > 400 && FallbackTests.inked(real) != FallbackTests.inked(tofu))
    }

    /// The same letters with a zero-width non-joiner (U+200C) between them: HarfBuzz gives each
    /// its isolated form, and the ZWNJ itself draws nothing. The pixels then differ only by
    /// joining.
    @Test("Arabic shaped (joined) differs from the same letters unjoined; Hebrew, which does not join, does not",
          arguments: [("سلام", true), ("محمد", true), ("ببب", true), ("שלום", false)])
    func joining(_ word: String, _ joins: Bool) {
        let font = Self.fonts.regular
        let unjoined = word.unicodeScalars.map(String.init).joined(separator: "\u{200C}")
        let a = FallbackTests.draw(word, font), b = FallbackTests.draw(unjoined, font)
        if joins {
            #expect(FallbackTests.differing(a, b) > 300, "\(word)")
            #expect(font.layout(word, size: 17, tracking: 0).glyphs.map(\.index) != font.layout(unjoined, size: 17, tracking: 0).glyphs.map(\.index))
        } else {
            #expect(a == b, "\(word)")
        }
    }

    /// The pixel at the centre of the emoji's ink box, drawn with black text colour (measured:
    /// 😀 253,224,48; ❤️ 244,67,54; 👍 255,202,40).
    @Test("emoji draw in their own colours, not the text colour",
          arguments: [("😀", "yellow"), ("❤️", "red"), ("👍", "yellow")])
    func emojiColour(_ emoji: String, _ colour: String) throws {
        let image = FallbackTests.draw(emoji, Self.fonts.regular)
        let b = try #require(Self.inkBox(image))
        let o = (((b.y0 + b.y1) / 2) * image.width + (b.x0 + b.x1) / 2) * 4
        let (r, g, bl) = (image.pixels[o], image.pixels[o + 1], image.pixels[o + 2])
        switch colour {
        case "yellow": #expect(r > 230 && g > 180 && bl < 100, "\(emoji): \(r),\(g),\(bl)")
        default: #expect(r > 200 && g < 110 && bl < 110, "\(emoji): \(r),\(g),\(bl)")
        }
        // About a square em: 17 pt at 3x is 51 px; Noto's emoji are a little wider than tall.
        #expect((45...60).contains(b.x1 - b.x0 + 1) && (45...60).contains(b.y1 - b.y0 + 1), "\(b)")
    }
}
