import CPNG
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chooses the smallest lossless PNG colour layout for an image: grey or RGB when it is opaque,
/// a palette when it has at most 256 colours, RGBA otherwise. Decoding gives the same RGBA8
/// pixels whatever the layout.
///
/// Both steps run on every recorded frame, so they are written for UI frames (issue 17: they were
/// a seventh of what `record` adds to `check`): a row equal to the row above is compared with one
/// `memcmp` and then skipped (choosing) or copied (packing); within a row the end of a run of one
/// colour is found four pixels a step (`Runs.end`) and the colour looked up once; colours go in a
/// small open-addressed table instead of a `Dictionary` (whose SipHash was most of the lookup);
/// opacity is read from the colours seen, and for a frame of over 256 colours from the
/// pass that packs its RGB rows (`packFiltered(checking:)`), not from a pass of its own;
/// RGB rows are packed four pixels a byte shuffle (`nr_pack_rgb`). The layout, the palette's order and every byte are those of the plain
/// per-pixel loop this replaced: the 790 bundled baselines re-record byte-identical, and tests
/// hold it against a reference written from the rules above on random and UI-like images.
struct ColorReduction {
    var colorType: Int32
    var channels: Int
    /// Palette entries, 3 bytes each, in first-seen order (deterministic).
    var palette: [UInt8] = []
    /// tRNS entries: alpha of palette entries 0..<count (trailing opaque entries omitted).
    var paletteAlpha: [UInt8] = []
    /// The palette's colours (RGBA8 words) by index, for packing.
    var colors: [UInt32] = []
    /// False for an RGB layout chosen from the first 257 colours alone (`choose(for:deferringOpacity:)`):
    /// the rest of the pixels are still to be found opaque, which `packFiltered(checking:)` does
    /// as it packs them.
    var opacityKnown = true

    static let rgba = ColorReduction(colorType: NR_COLOR_RGBA, channels: 4)

    /// A table of at most 256 colours: 512 slots (at most half full), Fibonacci hashing
    /// (Knuth, TAOCP vol. 3, 6.4: multiply by 2^32/phi, keep the top bits), linear probing.
    /// `slots[i]` is 0 when empty, else the colour's index + 1 in its low 9 bits and the colour
    /// above them.
    struct Table {
        static let bits = 9
        var slots: UnsafeMutablePointer<UInt64>
        init(_ slots: UnsafeMutablePointer<UInt64>) {
            self.slots = slots
            slots.initialize(repeating: 0, count: 1 << Self.bits)
        }
        /// The colour's index, or -1 when it is not in the table.
        @inline(__always) func index(of word: UInt32) -> Int {
            var i = Int((word &* 0x9E37_79B1) >> UInt32(32 - Self.bits))
            while true {
                let slot = slots[i]
                if slot == 0 { return -1 }
                if UInt32(truncatingIfNeeded: slot >> 9) == word { return Int(slot & 0x1FF) - 1 }
                i = (i + 1) & ((1 << Self.bits) - 1)
            }
        }
        /// Adds a colour known not to be in the table.
        @inline(__always) func insert(_ word: UInt32, index: Int) {
            var i = Int((word &* 0x9E37_79B1) >> UInt32(32 - Self.bits))
            while slots[i] != 0 { i = (i + 1) & ((1 << Self.bits) - 1) }
            slots[i] = UInt64(word) << 9 | UInt64(index + 1)
        }
    }

    /// The layout for `image`, every pixel looked at.
    static func choose(for image: Image) -> ColorReduction {
        var layout = choose(for: image, deferringOpacity: true)
        if !layout.opacityKnown {
            layout.opacityKnown = true
            if !isOpaque(image) { layout = .rgba }
        }
        return layout
    }

    /// Every alpha 255: one AND over every pixel (alpha is the top byte of the little-endian word).
    static func isOpaque(_ image: Image) -> Bool {
        image.pixels.withUnsafeBytes { raw in
            var alphas: UInt32 = 0xFFFF_FFFF
            for w in raw.bindMemory(to: UInt32.self).prefix(image.width * image.height) { alphas &= w }
            return UInt32(littleEndian: alphas) >> 24 == 0xFF
        }
    }

    /// The layout, with opacity learnt from the colours seen: all of them when there are at most
    /// 256, and then the layout is final. Past 256 the scan stops (the layout is RGB or RGBA),
    /// and an opaque start gives RGB with `opacityKnown` false when `deferringOpacity`, for
    /// `packFiltered(checking:)` to settle in the pass that packs the rows (a whole pass over
    /// every RGB frame's pixels less, issue 17); otherwise one AND pass settles it here.
    static func choose(for image: Image, deferringOpacity: Bool) -> ColorReduction {
        let width = image.width, height = image.height
        guard width > 0, height > 0, image.pixels.count >= width * height * 4 else { return .rgba }
        var order: [UInt32] = []
        var grey = true
        image.pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            let all = UnsafeBufferPointer(rebasing: words[0..<width * height])
            // Colours in first-seen order, up to 257 (one more than a palette holds); greyness on
            // the way, as every distinct run passes here until then.
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1 << Table.bits) { slots in
                let table = Table(slots.baseAddress!)
                var y = 0
                scan: while y < height {
                    let row = all.baseAddress! + y * width
                    if y > 0 && memcmp(row - width, row, width * 4) == 0 { y += 1; continue }
                    var x = 0
                    while x < width {
                        let w = row[x]
                        if grey && !isGrey(w) { grey = false }
                        if table.index(of: w) < 0 {
                            if order.count == 256 { order.append(w); break scan }
                            table.insert(w, index: order.count)
                            order.append(w)
                        }
                        x = Runs.end(row, x, width)
                    }
                    y += 1
                }
                // Stopped at the 257th colour: the rest need no greyness test, as an opaque image
                // has at most 256 greys, so one of the 257 colours seen was not grey.
            }
        }
        let tooMany = order.count > 256
        // Alpha is the top byte of the little-endian word. With at most 256 colours every colour
        // was seen; past 256, only the first 257.
        var opaque = order.allSatisfy { UInt32(littleEndian: $0) >> 24 == 0xFF }
        if tooMany && opaque {
            if deferringOpacity { return ColorReduction(colorType: NR_COLOR_RGB, channels: 3, opacityKnown: false) }
            opaque = isOpaque(image)
        }
        if opaque && grey { return ColorReduction(colorType: NR_COLOR_GRAY, channels: 1) }
        if !tooMany && (order.count <= 16 || !opaque || image.pixelCount > 4 * 256) {
            var reduction = ColorReduction(colorType: NR_COLOR_PALETTE, channels: 1)
            reduction.colors = order
            var lastTranslucent = -1
            reduction.palette.reserveCapacity(order.count * 3)
            for (index, word) in order.enumerated() {
                let w = UInt32(littleEndian: word)
                reduction.palette += [UInt8(truncatingIfNeeded: w), UInt8(truncatingIfNeeded: w >> 8), UInt8(truncatingIfNeeded: w >> 16)]
                reduction.paletteAlpha.append(UInt8(truncatingIfNeeded: w >> 24))
                if w >> 24 != 0xFF { lastTranslucent = index }
            }
            reduction.paletteAlpha = Array(reduction.paletteAlpha.prefix(lastTranslucent + 1))
            return reduction
        }
        if opaque { return ColorReduction(colorType: NR_COLOR_RGB, channels: 3) }
        return .rgba
    }

    /// Red, green and blue equal (the word's three low bytes, little-endian RGBA8).
    @inline(__always) static func isGrey(_ word: UInt32) -> Bool {
        let w = UInt32(littleEndian: word)
        return (w ^ (w >> 8)) & 0xFFFF == 0
    }

    /// The image's rows in this layout, `stride` bytes apart.
    func pack(_ image: Image) -> (bytes: [UInt8], stride: Int) {
        if channels == 4 { return (image.pixels, image.width * 4) }
        return (rows(image, filterBytes: false), image.width * channels)
    }

    /// The image's rows in this layout, each after its PNG filter byte 0 (filter type None): the
    /// image data before deflate, `1 + width * channels` bytes a row.
    func packFiltered(_ image: Image) -> [UInt8] {
        rows(image, filterBytes: true)
    }

    /// `packFiltered` for a layout whose opacity may not be known yet: an RGB layout learns it
    /// from the rows it packs, and becomes RGBA (its rows packed again) when a pixel is not
    /// opaque. The layout is then the one `choose(for:)` gives. A frame of over 256 colours
    /// whose first 257 are opaque and a later pixel is not is packed twice, which costs more
    /// than the AND pass it saves elsewhere; NavReel's frames are opaque (a rendered screen).
    mutating func packFiltered(checking image: Image) -> [UInt8] {
        var alphas: UInt8 = 0xFF
        let rows = rows(image, filterBytes: true, alphas: &alphas)
        guard !opacityKnown else { return rows }
        opacityKnown = true
        if alphas == 0xFF { return rows }
        self = .rgba
        return self.rows(image, filterBytes: true)
    }

    private func rows(_ image: Image, filterBytes: Bool) -> [UInt8] {
        var alphas: UInt8 = 0xFF
        return rows(image, filterBytes: filterBytes, alphas: &alphas)
    }

    /// `alphas`: the AND of the alpha bytes of the pixels packed as RGB (rows equal to the row
    /// above are copied, and their alphas are the row above's); untouched in other layouts.
    private func rows(_ image: Image, filterBytes: Bool, alphas: inout UInt8) -> [UInt8] {
        let width = image.width, height = image.height
        let lead = filterBytes ? 1 : 0
        let stride = lead + width * channels
        precondition(width > 0 && height > 0 && image.pixels.count >= width * height * 4, "an image's pixels are width x height RGBA8 words")
        // Every byte is written below (filter bytes, then each row packed or copied): no zeroing first.
        let out = [UInt8](unsafeUninitializedCapacity: stride * height) { dst, count in
            count = stride * height
            if filterBytes { for y in 0..<height { dst[y * stride] = 0 } }
            image.pixels.withUnsafeBytes { raw in
                let words = raw.bindMemory(to: UInt32.self).baseAddress!
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1 << Table.bits) { slots in
                    let table = Table(slots.baseAddress!)
                    if colorType == NR_COLOR_PALETTE {
                        for (index, w) in colors.enumerated() { table.insert(w, index: index) }
                    }
                    for y in 0..<height {
                        let row = words + y * width
                        let target = dst.baseAddress! + y * stride + lead
                        // A row equal to the one above packs to the same bytes.
                        if y > 0 && memcmp(row - width, row, width * 4) == 0 {
                            (target).update(from: target - stride, count: stride - lead)
                            continue
                        }
                        switch (colorType, channels) {
                        case (_, 4):
                            UnsafeMutableRawPointer(target).copyMemory(from: row, byteCount: width * 4)
                        case (_, 3):
                            alphas &= nr_pack_rgb(UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self), target, width, 1)
                        case (NR_COLOR_PALETTE, _):
                            // Runs of one colour are the rule in UI frames: look a colour up once a
                            // run and fill the run's indices at once.
                            var x = 0
                            while x < width {
                                let i = table.index(of: row[x])
                                precondition(i >= 0, "a colour missing from the palette")
                                let end = Runs.end(row, x, width)
                                (target + x).update(repeating: UInt8(truncatingIfNeeded: i), count: end - x)
                                x = end
                            }
                        default:
                            for x in 0..<width { target[x] = UInt8(truncatingIfNeeded: UInt32(littleEndian: row[x])) }
                        }
                    }
                }
            }
        }
        return out
    }
}
