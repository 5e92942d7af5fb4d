import CPNG

/// Chooses the smallest lossless PNG colour layout for an image: grey or RGB when it is opaque,
/// a palette when it has at most 256 colours, RGBA otherwise. Decoding gives the same RGBA8
/// pixels whatever the layout.
struct ColorReduction {
    var colorType: Int32
    var channels: Int
    /// Palette entries, 3 bytes each, in first-seen order (deterministic).
    var palette: [UInt8] = []
    /// tRNS entries: alpha of palette entries 0..<count (trailing opaque entries omitted).
    var paletteAlpha: [UInt8] = []
    var indexOf: [UInt32: UInt8] = [:]

    static let rgba = ColorReduction(colorType: NR_COLOR_RGBA, channels: 4)

    static func choose(for image: Image) -> ColorReduction {
        var colors: [UInt32: UInt8] = [:]
        var order: [UInt32] = []
        var opaque = true
        var grey = true
        var tooMany = false
        image.pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            var last: UInt32? = nil
            for i in 0..<words.count {
                let w = words[i]
                if w == last { continue }
                last = w
                let p = i * 4
                if raw[p + 3] != 255 { opaque = false }
                if raw[p] != raw[p + 1] || raw[p] != raw[p + 2] { grey = false }
                if !tooMany && colors[w] == nil {
                    if colors.count == 256 {
                        tooMany = true
                    } else {
                        colors[w] = UInt8(colors.count)
                        order.append(w)
                    }
                }
            }
        }
        if opaque && grey { return ColorReduction(colorType: NR_COLOR_GRAY, channels: 1) }
        if !tooMany && (colors.count <= 16 || !opaque || image.pixelCount > 4 * 256) {
            var reduction = ColorReduction(colorType: NR_COLOR_PALETTE, channels: 1)
            reduction.indexOf = colors
            var lastTranslucent = -1
            for (index, word) in order.enumerated() {
                let c = withUnsafeBytes(of: word) { Array($0) }
                reduction.palette += c[0..<3]
                reduction.paletteAlpha.append(c[3])
                if c[3] != 255 { lastTranslucent = index }
            }
            reduction.paletteAlpha = Array(reduction.paletteAlpha.prefix(lastTranslucent + 1))
            return reduction
        }
        if opaque { return ColorReduction(colorType: NR_COLOR_RGB, channels: 3) }
        return .rgba
    }

    /// The image's rows in this layout.
    func pack(_ image: Image) -> (bytes: [UInt8], stride: Int) {
        let stride = image.width * channels
        if channels == 4 { return (image.pixels, stride) }
        var out = [UInt8](repeating: 0, count: stride * image.height)
        image.pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            out.withUnsafeMutableBufferPointer { dst in
                switch channels {
                case 3:
                    for i in 0..<image.pixelCount {
                        dst[i * 3] = raw[i * 4]
                        dst[i * 3 + 1] = raw[i * 4 + 1]
                        dst[i * 3 + 2] = raw[i * 4 + 2]
                    }
                default:
                    if colorType == NR_COLOR_PALETTE {
                        // Runs of one colour are the rule in UI frames: look a colour up once a run.
                        var last = words[0], index = indexOf[last]!
                        for i in 0..<image.pixelCount {
                            let w = words[i]
                            if w != last { last = w; index = indexOf[w]! }
                            dst[i] = index
                        }
                    } else {
                        for i in 0..<image.pixelCount { dst[i] = raw[i * 4] }
                    }
                }
            }
        }
        return (out, stride)
    }
}
