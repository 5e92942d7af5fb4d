import Testing
import NavReel
import Raster

/// `ReportFiles.thumbnail` against the plain arithmetic it replaced (issue 17): each output pixel
/// the rounded mean of four samples of its block, sample positions clamped to the image.
@Suite("thumbnails")
struct ThumbnailTests {
    static func reference(_ image: Image, width: Int) -> Image {
        guard image.width > width, image.height > 0 else { return image }
        let factor = (image.width + width - 1) / width
        let ow = (image.width + factor - 1) / factor, oh = (image.height + factor - 1) / factor
        var out = [UInt8](repeating: 0, count: ow * oh * 4)
        let offsets = [factor / 4, factor * 3 / 4]
        for oy in 0..<oh {
            for ox in 0..<ow {
                var sum = [0, 0, 0, 0]
                for dy in offsets {
                    for dx in offsets {
                        let x = min(image.width - 1, ox * factor + dx), y = min(image.height - 1, oy * factor + dy)
                        for c in 0..<4 { sum[c] += Int(image.pixels[(y * image.width + x) * 4 + c]) }
                    }
                }
                for c in 0..<4 { out[(oy * ow + ox) * 4 + c] = UInt8((sum[c] + 2) / 4) }
            }
        }
        return Image(width: ow, height: oh, pixels: out)
    }

    @Test("the same pixels as the plain arithmetic, sizes that clamp at the right and bottom edges")
    func sameAsReference() {
        var seed: UInt32 = 7
        func next() -> UInt8 { seed = seed &* 1_103_515_245 &+ 12_345; return UInt8(truncatingIfNeeded: seed >> 16) }
        for (w, h, tw) in [(161, 1, 160), (1170, 2532, 160), (390, 107, 160), (781, 3, 160), (333, 77, 40), (100, 5, 160), (9, 9, 2)] {
            let image = Image(width: w, height: h, pixels: (0..<(w * h * 4)).map { _ in next() })
            let fast = ReportFiles.thumbnail(image, width: tw)
            let plain = Self.reference(image, width: tw)
            #expect(fast == plain, "\(w)x\(h) to \(tw)")
        }
        // Channels at the ends of their range: four samples of 255 sum to 1,020 in a 16-bit lane
        // of the fast path, whose rounding must not carry into the next channel.
        let extremes: [UInt8] = [0, 1, 2, 253, 254, 255]
        for pick in 0..<3 {
            let image = Image(width: 400, height: 9, pixels: (0..<(400 * 9 * 4)).map { i in
                pick == 0 ? 255 : extremes[Int(next()) % (pick == 1 ? 6 : 2) + (pick == 2 ? 4 : 0)]
            })
            #expect(ReportFiles.thumbnail(image) == Self.reference(image, width: ReportFiles.thumbnailWidth), "extremes \(pick)")
        }
    }
}
