import Raster

/// The first, exact form of comparison: how many pixels differ in any channel. The comparison
/// engine (per-rule tolerances, anti-aliasing, translucency) grows from here.
public struct PixelDifference: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Pixels whose RGBA bytes are not identical.
    public let differing: Int
    /// The largest absolute difference of any channel of any pixel.
    public let maxChannelDelta: Int

    public var identical: Bool { differing == 0 }

    /// Compares two images of the same size. Whole machine words are compared first, so identical
    /// regions cost one word comparison per pixel.
    public init(_ a: Image, _ b: Image) {
        precondition(a.width == b.width && a.height == b.height, "sizes differ")
        width = a.width
        height = a.height
        var differing = 0
        var maxDelta = 0
        a.pixels.withUnsafeBytes { ra in
            b.pixels.withUnsafeBytes { rb in
                let wa = ra.bindMemory(to: UInt32.self)
                let wb = rb.bindMemory(to: UInt32.self)
                for i in 0..<wa.count where wa[i] != wb[i] {
                    differing += 1
                    for c in 0..<4 {
                        let d = abs(Int(ra[i * 4 + c]) - Int(rb[i * 4 + c]))
                        if d > maxDelta { maxDelta = d }
                    }
                }
            }
        }
        self.differing = differing
        self.maxChannelDelta = maxDelta
    }
}
