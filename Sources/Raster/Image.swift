/// An RGBA8 image: `width * height` pixels, row-major, four bytes per pixel in the order red,
/// green, blue, alpha, with straight (not premultiplied) alpha, as PNG stores them.
public struct Image: Sendable, Equatable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// A new image filled with one colour (default: transparent black).
    public init(width: Int, height: Int, fill: RGBA8 = RGBA8(0, 0, 0, 0)) {
        precondition(width >= 0 && height >= 0, "image size must not be negative")
        self.width = width
        self.height = height
        let count = width * height
        var bytes = [UInt8](repeating: 0, count: count * 4)
        if fill != RGBA8(0, 0, 0, 0) {
            bytes.withUnsafeMutableBytes { raw in
                let words = raw.bindMemory(to: UInt32.self)
                let word = fill.word
                for i in 0..<count { words[i] = word }
            }
        }
        self.pixels = bytes
    }

    /// Wraps existing RGBA8 bytes; `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "pixel buffer of \(pixels.count) bytes does not fit \(width)x\(height) RGBA8")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public var pixelCount: Int { width * height }

    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            return RGBA8(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }
}

/// One RGBA8 colour with straight alpha.
public struct RGBA8: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The four bytes as one word in memory order (r first), whatever the machine's endianness.
    public var word: UInt32 {
        var w: UInt32 = 0
        withUnsafeMutableBytes(of: &w) { raw in
            raw[0] = r
            raw[1] = g
            raw[2] = b
            raw[3] = a
        }
        return w
    }

    public var description: String {
        let hex = [r, g, b, a].map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        return "#" + hex.joined()
    }
}
