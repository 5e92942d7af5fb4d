import Testing
@testable import Raster

@Suite("image scale")
struct ImageScaleTests {
    @Test("the scale comes from the file name as UIKit reads it", arguments: [
        ("images/wood.png", 1.0), ("images/wood@2x.png", 2), ("images/wood@3x.png", 3), ("a/b@3x/c.png", 1),
        ("pill@1x.png", 1), ("odd@10x.png", 1), ("me@x.png", 1), ("@3x.png", 3), ("name@3x.tar.png", 3),
    ])
    func fileName(_ path: String, _ scale: Double) {
        #expect(ImageScale.fromFileName(path) == scale)
    }

    /// A noisy image: every pixel differs from its neighbours, so any resampling would show.
    static func noise(_ w: Int, _ h: Int) -> Image {
        var img = Image(width: w, height: h)
        var state: UInt32 = 12345
        for y in 0..<h {
            for x in 0..<w {
                state = state &* 1_103_515_245 &+ 12345
                img[x, y] = RGBA8(UInt8(truncatingIfNeeded: state >> 8), UInt8(truncatingIfNeeded: state >> 16), UInt8(truncatingIfNeeded: state >> 24))
            }
        }
        return img
    }

    @Test("drawn at its own scale, a tiled image is pixel-exact", arguments: [1.0, 2, 3])
    func exactTile(_ scale: Double) {
        let image = Self.noise(Int(8 * scale), Int(6 * scale))   // 8 x 6 points
        let canvas = Canvas(width: Int(20 * scale), height: Int(10 * scale), scale: scale, background: .white)
        canvas.fill(Rect(x: 0, y: 0, width: 20, height: 10), .image(ImagePaint(image: image, rect: Rect(x: 0, y: 0, width: 20, height: 10),
                                                                               mode: .tile, scale: scale)), element: 1)
        let out = canvas.makeImage()
        var differing = 0
        for y in 0..<out.height { for x in 0..<out.width where out[x, y] != image[x % image.width, y % image.height] { differing += 1 } }
        #expect(differing == 0)
    }

    @Test("cap insets are in points: the caps of a @3x image keep their pixels at 3x")
    func capInsets() {
        let image = Self.noise(30, 12)   // 10 x 4 points
        let canvas = Canvas(width: 60, height: 12, scale: 3, background: .white)
        let rect = Rect(x: 0, y: 0, width: 20, height: 4)
        canvas.fill(rect, .image(ImagePaint(image: image, rect: rect, mode: .capInsets(0, 3, 0, 3), scale: 3)), element: 1)
        let out = canvas.makeImage()
        for y in 0..<12 {
            for x in 0..<9 { #expect(out[x, y] == image[x, y], "left cap \(x),\(y)") }
            for x in 0..<9 { #expect(out[51 + x, y] == image[21 + x, y], "right cap \(x),\(y)") }
        }
    }

    @Test("reducing by a whole factor averages blocks; a fine checkerboard becomes flat grey", arguments: [2, 3])
    func reduced(_ factor: Int) {
        var board = Image(width: 6 * factor, height: 6 * factor)
        for y in 0..<board.height { for x in 0..<board.width { board[x, y] = (x + y) % 2 == 0 ? .black : .white } }
        let r = board.reduced(by: factor)
        #expect(r.width == 6 && r.height == 6)
        let expected: UInt8 = factor == 2 ? 128 : 113   // 2x2: 2 of 4 white; 3x3: 4 or 5 of 9 white
        for y in 0..<6 {
            for x in 0..<6 {
                let p = r[x, y]
                #expect(p.a == 255 && p.r == p.g && p.g == p.b)
                if factor == 2 { #expect(p.r == expected) } else { #expect(p.r == 113 || p.r == 142) }
            }
        }
        // Transparent pixels do not darken their opaque neighbours.
        var half = Image(width: 2, height: 1)
        half[0, 0] = RGBA8(255, 0, 0, 255)
        #expect(half.reduced(by: 2)[0, 0] == RGBA8(255, 0, 0, 128))
    }
}
