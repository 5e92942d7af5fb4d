import Raster

/// The diff image as palette indices: a few colours over the baseline faded to grey, so it
/// encodes as a small palette PNG at a fast zlib level.
public struct DiffImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let indices: [UInt8]

    public var palette: [RGBA8] { DiffPalette.colors }

    public func encoded(options: PNGEncodeOptions = .fast) throws(PNGError) -> [UInt8] {
        try PNG.encodeIndexed(width: width, height: height, indices: indices, palette: palette, options: options)
    }

    /// The diff as RGBA8 (for tests and reports that composite it).
    public var image: Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let colors = palette
        for (i, index) in indices.enumerated() {
            let c = colors[Int(index)]
            pixels[i * 4] = c.r
            pixels[i * 4 + 1] = c.g
            pixels[i * 4 + 2] = c.b
            pixels[i * 4 + 3] = c.a
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}

/// Palette of diff images. Unchanged pixels: the baseline's brightness (over white) in 32 steps,
/// faded to 10% as pixelmatch draws them; ignored pixels: the same steps, dimmed to a mid grey.
enum DiffPalette {
    static let fadedBase: UInt8 = 0
    static let dimmedBase: UInt8 = 32
    static let mismatch: UInt8 = 64
    static let antialiasing: UInt8 = 65
    static let translucency: UInt8 = 66
    static let timing: UInt8 = 67
    static let heatBase: UInt8 = 68
    static let heatSteps = 32

    static let colors: [RGBA8] = {
        var c: [RGBA8] = []
        for k in 0..<32 {
            let y = Double(k * 8 + 4)
            let v = UInt8((255 + (y - 255) * 0.1).rounded())   // pixelmatch's alpha 0.1 fade
            c.append(RGBA8(v, v, v))
        }
        for k in 0..<32 {
            let v = UInt8(120 + k * 2)                           // dimmed: 120...182
            c.append(RGBA8(v, v, v))
        }
        c.append(RGBA8(255, 0, 0))      // mismatch: red
        c.append(RGBA8(255, 255, 0))    // anti-aliasing: yellow
        c.append(RGBA8(0, 90, 255))     // translucency: blue
        c.append(RGBA8(0, 190, 0))      // timing: green
        for k in 0..<heatSteps {        // heat map: orange (small difference) to dark red (large)
            let t = Double(k) / Double(heatSteps - 1)
            c.append(RGBA8(UInt8(255 - 115 * t), UInt8(190 * (1 - t)), 0))
        }
        return c
    }()

    /// Brightness of a pixel blended over white, 0...255 (Rec. 601 weights in fixed point).
    @inline(__always)
    static func brightness(_ p: UnsafePointer<UInt8>) -> Int {
        let a = Int(p[3])
        let r = 255 - (255 - Int(p[0])) * a / 255
        let g = 255 - (255 - Int(p[1])) * a / 255
        let b = 255 - (255 - Int(p[2])) * a / 255
        return (r * 77 + g * 150 + b * 29) >> 8
    }

    @inline(__always)
    static func faded(_ p: UnsafePointer<UInt8>) -> UInt8 { fadedBase + UInt8(brightness(p) >> 3) }

    @inline(__always)
    static func index(for verdict: Plan.Verdict, expected p: UnsafePointer<UInt8>, delta: Int, heatmap: Bool) -> UInt8 {
        switch verdict {
        case .equal, .perceptual: return faded(p)
        case .ignored: return dimmedBase + UInt8(brightness(p) >> 3)
        case .antialiasing: return antialiasing
        case .translucency: return translucency
        case .timing: return timing
        case .mismatched:
            return heatmap ? heatBase + UInt8(min(heatSteps - 1, (delta - 1) * heatSteps / 255)) : mismatch
        }
    }
}
