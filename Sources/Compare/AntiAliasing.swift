import CCompare

/// Anti-aliased pixel detection after V. Vyšniauskas, "Anti-aliased Pixel and Intensity Slope
/// Detector" (2009), as pixelmatch applies it: a pixel is anti-aliasing when it has at most two
/// equal neighbours, both darker and brighter neighbours, and its darkest or brightest neighbour
/// has three or more equal siblings in both images (so it lies on a real edge, not in noise).
enum AntiAliasing {
    /// Whether pixel (x1, y1) of `image` looks anti-aliased, with `other` the image it is compared to.
    @inline(__always)
    static func isAntialiased(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                              _ other: UnsafePointer<UInt8>) -> Bool {
        // Interior pixels: the branch-free form, which counts identical neighbours as zero deltas
        // (the callers have already left on three of them, hasThreeIdenticalNeighbors).
        if x1 > 0 && y1 > 0 && x1 < width - 1 && y1 < height - 1 {
            return interiorIsAntialiased(image, x1, y1, width, height, other)
        }
        return borderIsAntialiased(image, x1, y1, width, height, other)
    }

    /// isAntialiased for a pixel on the image's border: pixelmatch's loop as written.
    static func borderIsAntialiased(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                                    _ other: UnsafePointer<UInt8>) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let border = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        // Exact shortcut: identical neighbours have a brightness delta of 0, so with three of them
        // (border counting as one) pixelmatch's loop below would return false.
        if identicalNeighbors(image, x1, y1, width, height) + border > 2 { return false }

        let (cr, cg, cb) = YIQ.blended(image + (y1 * width + x1) * 4)
        let center = YIQ.y(cr, cg, cb)
        var zeroes = border
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        // Column-major like pixelmatch: which neighbour wins a tie depends on the visiting order.
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                // pixelmatch's yOnly delta; identical pixels give exactly 0 here as there.
                let (r, g, b) = YIQ.blended(image + (y * width + x) * 4)
                let delta = center - YIQ.y(r, g, b)
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

    /// isAntialiased for a pixel with all eight neighbours, with one branch on the deltas (the
    /// verdict) instead of a decision a neighbour: the loop above decides each neighbour with two
    /// or three comparisons of brightness deltas that go either way (on two fully different
    /// frames, 88 % of all the branch mispredictions of a diff were there). The same answer:
    /// pixelmatch's loop keeps the most negative delta and the most positive one, each at its
    /// first neighbour in visiting order, and returns false once three deltas are 0; here all
    /// eight deltas are taken, the zeros counted, the extremes found with min and max, and the
    /// first neighbour holding each is the lowest set bit of a mask of the neighbours equal to it.
    /// In C (`nr_interior_antialiased`), where the masks are vector compares: written in Swift,
    /// the compiler made them a tree of branches, 385 instructions a call (callgrind, two fully
    /// different 1x frames).
    @inline(__always)
    static func interiorIsAntialiased(_ image: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                                      _ other: UnsafePointer<UInt8>) -> Bool {
        nr_interior_antialiased(image, other, Int64(x1), Int64(y1), Int64(width), Int64(height)) != 0
    }

    /// How many of the up to eight neighbours have exactly the pixel's colour (the border test's
    /// shortcut; interior pixels' siblings are counted in C).
    @inline(__always)
    static func identicalNeighbors(_ image: UnsafePointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Int {
        let words = UnsafeRawPointer(image).assumingMemoryBound(to: UInt32.self)
        let i = y * width + x
        let c = words[i]
        if x > 0 && y > 0 && x < width - 1 && y < height - 1 {
            let up = i - width, down = i + width
            var n = 0
            n &+= words[up - 1] == c ? 1 : 0
            n &+= words[up] == c ? 1 : 0
            n &+= words[up + 1] == c ? 1 : 0
            n &+= words[i - 1] == c ? 1 : 0
            n &+= words[i + 1] == c ? 1 : 0
            n &+= words[down - 1] == c ? 1 : 0
            n &+= words[down] == c ? 1 : 0
            n &+= words[down + 1] == c ? 1 : 0
            return n
        }
        var n = 0
        for yy in max(y - 1, 0)...min(y + 1, height - 1) {
            for xx in max(x - 1, 0)...min(x + 1, width - 1) where (xx != x || yy != y) && words[yy * width + xx] == c {
                n += 1
            }
        }
        return n
    }

    /// Whether an interior pixel has at least three neighbours of exactly its colour, in which
    /// case isAntialiased returns false (its shortcut). Stops at the third; false at the border
    /// (isAntialiased then decides).
    @inline(__always)
    static func hasThreeIdenticalNeighbors(_ image: UnsafePointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Bool {
        guard x > 0 && y > 0 && x < width - 1 && y < height - 1 else { return false }
        let words = UnsafeRawPointer(image).assumingMemoryBound(to: UInt32.self)
        let i = y * width + x
        let c = words[i]
        var n = (words[i - 1] == c ? 1 : 0) &+ (words[i + 1] == c ? 1 : 0) &+ (words[i - width] == c ? 1 : 0)
        if n == 3 { return true }
        n &+= words[i + width] == c ? 1 : 0
        if n == 3 { return true }
        n &+= (words[i - width - 1] == c ? 1 : 0) &+ (words[i - width + 1] == c ? 1 : 0)
        if n >= 3 { return true }
        n &+= (words[i + width - 1] == c ? 1 : 0) &+ (words[i + width + 1] == c ? 1 : 0)
        return n >= 3
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
