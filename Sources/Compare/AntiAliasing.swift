/// Anti-aliased pixel detection after V. Vyšniauskas, "Anti-aliased Pixel and Intensity Slope
/// Detector" (2009), as pixelmatch applies it: a pixel is anti-aliasing when it has at most two
/// equal neighbours, both darker and brighter neighbours, and its darkest or brightest neighbour
/// has three or more equal siblings in both images (so it lies on a real edge, not in noise).
enum AntiAliasing {
    /// Whether pixel (x1, y1) of `image` looks anti-aliased, with `other` the image it is compared to.
    static func isAntialiased(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                              _ other: UnsafePointer<UInt8>) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let center = image + (y1 * width + x1) * 4
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        // Column-major like pixelmatch: which neighbour wins a tie depends on the visiting order.
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let delta = YIQ.brightnessDelta(center, image + (y * width + x) * 4)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(image, minX, minY, width, height) && hasManySiblings(other, minX, minY, width, height))
            || (hasManySiblings(image, maxX, maxY, width, height) && hasManySiblings(other, maxX, maxY, width, height))
    }

    /// Whether a pixel has three or more neighbours of exactly its colour (image borders count as one).
    static func hasManySiblings(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        let words = UnsafeRawPointer(image).assumingMemoryBound(to: UInt32.self)
        let center = words[y1 * width + x1]
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if words[y * width + x] == center { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }
}
