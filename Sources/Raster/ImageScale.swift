/// How many image pixels make one point, read from a file name as UIKit reads it:
/// `name@2x.png` is 2, `name@3x.png` is 3, anything else 1.
public enum ImageScale {
    public static func fromFileName(_ path: String) -> Double {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        guard let at = stem.lastIndex(of: "@"), stem.hasSuffix("x") else { return 1 }
        let digits = stem[stem.index(after: at)..<stem.index(before: stem.endIndex)]
        guard let n = Int(digits), (1...4).contains(n) else { return 1 }
        return Double(n)
    }
}

extension Image {
    /// The image shrunk by a whole factor with a box filter: each output pixel is the average of
    /// a `factor` x `factor` block (premultiplied, so transparent pixels do not darken their
    /// neighbours; integer arithmetic, rounded). Edge blocks average what they cover. Drawing a
    /// @3x image at 1x without this would sample one pixel of every nine and alias.
    public func reduced(by factor: Int) -> Image {
        guard factor > 1, width > 0, height > 0 else { return self }
        let ow = (width + factor - 1) / factor, oh = (height + factor - 1) / factor
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        pixels.withUnsafeBufferPointer { src in
            for oy in 0..<oh {
                for ox in 0..<ow {
                    var r = 0, g = 0, b = 0, a = 0, n = 0
                    for y in (oy * factor)..<min(height, oy * factor + factor) {
                        for x in (ox * factor)..<min(width, ox * factor + factor) {
                            let i = (y * width + x) * 4
                            let pa = Int(src[i + 3])
                            r += Int(src[i]) * pa; g += Int(src[i + 1]) * pa; b += Int(src[i + 2]) * pa; a += pa
                            n += 1
                        }
                    }
                    let o = (oy * ow + ox) * 4
                    out[o + 3] = UInt8((a + n / 2) / n)
                    if a > 0 {
                        out[o] = UInt8(min(255, (r + a / 2) / a))
                        out[o + 1] = UInt8(min(255, (g + a / 2) / a))
                        out[o + 2] = UInt8(min(255, (b + a / 2) / a))
                    }
                }
            }
        }
        return Image(width: ow, height: oh, pixels: out)
    }
}
