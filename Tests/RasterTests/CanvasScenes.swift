import Foundation
@testable import Raster

/// Small scenes, one per canvas feature, drawn for golden tests and for the determinism test.
enum CanvasScenes {
    static let fonts: FontSet = try! FontSet.discover()

    static func checker(_ w: Int, _ h: Int) -> Image {
        var img = Image(width: w, height: h)
        for y in 0..<h { for x in 0..<w { img[x, y] = (x / 4 + y / 4) % 2 == 0 ? RGBA8(255, 149, 0) : RGBA8(88, 86, 214) } }
        return img
    }

    /// A stretchable back-button image: rounded ends, a darker middle.
    static func button() -> Image {
        let c = Canvas(width: 30, height: 20, scale: 1)
        c.fill(Path.roundedRect(Rect(x: 0, y: 0, width: 30, height: 20), radius: 8), .solid(RGBA8(52, 199, 89)), element: 1)
        c.fill(Rect(x: 12, y: 4, width: 6, height: 12), .solid(RGBA8(20, 120, 50)), element: 1)
        return c.makeImage()
    }

    static let all: [(name: String, draw: @Sendable () -> Canvas)] = [
        ("shapes", shapes), ("paths", paths), ("gradients", gradients), ("images", images),
        ("material", material), ("text", text), ("groups", groups),
    ]

    static func shapes() -> Canvas {
        let c = Canvas(width: 80 * 2, height: 48 * 2, scale: 2, background: RGBA8(255, 255, 255))
        c.fill(Rect(x: 1.25, y: 1.5, width: 10.3, height: 6.6), .solid(RGBA8(0, 122, 255)), element: 1)
        c.fill(Path.roundedRect(Rect(x: 14.5, y: 2, width: 22, height: 12), radius: 4), .solid(RGBA8(255, 59, 48)), element: 2)
        c.fill(Path.ellipse(Rect(x: 2, y: 11, width: 12, height: 12)), .solid(RGBA8(52, 199, 89, 200)), element: 3)
        c.hairline(bottom: 24, from: 0, to: 40, color: RGBA8(0, 0, 0, 77), element: 4)
        return c
    }

    static func paths() -> Canvas {
        let c = Canvas(width: 44 * 3, height: 11 * 3, scale: 3, background: RGBA8(247, 247, 247))
        // Back chevron (12.5 x 21 pt at 17 pt type, stroked 3 pt with round ends).
        c.stroke([Point(8, 1.5), Point(2, 5), Point(8, 8.5)], width: 1.2, .solid(RGBA8(0, 122, 255)), element: 7)
        // Signal bars, Wi-Fi arcs, battery.
        for i in 0..<4 {
            let h = 2.0 + Double(i) * 1.3
            c.fill(Path.roundedRect(Rect(x: 12 + Double(i) * 2.2, y: 8 - h, width: 1.6, height: h), radius: 0.5), .solid(.black), element: 2)
        }
        var wifi = Path()
        wifi.move(to: Point(23, 4)); wifi.cubic(to: Point(29, 4), control1: Point(24.5, 1.5), control2: Point(27.5, 1.5))
        wifi.line(to: Point(28, 5)); wifi.cubic(to: Point(24, 5), control1: Point(27, 3.5), control2: Point(25, 3.5)); wifi.close()
        c.fill(wifi, .solid(.black), element: 2)
        c.fill(Path.ellipse(Rect(x: 25.3, y: 5.5, width: 1.4, height: 1.4)), .solid(.black), element: 2)
        c.stroke([Point(1, 9.5), Point(40, 9.5)], width: 0.1, .solid(RGBA8(255, 0, 0)), element: 2)   // thinner than a pixel
        // Battery: an outline with a hole (the inner contour wound the other way), a level bar and a cap.
        var battery = Path.roundedRect(Rect(x: 31, y: 2, width: 9, height: 4.5), radius: 1.3)
        battery.segments += Path.roundedRect(Rect(x: 31.7, y: 2.7, width: 7.6, height: 3.1), radius: 0.8).reversed().segments
        c.fill(battery, .solid(.black), element: 2)
        c.fill(Path.roundedRect(Rect(x: 32.2, y: 3.2, width: 5, height: 2.1), radius: 0.5), .solid(.black), element: 2)
        c.translated(40.4, 3.3) { c.fill(Path.roundedRect(Rect(x: 0, y: 0, width: 0.8, height: 1.9), radius: 0.3), .solid(.black), element: 2) }
        return c
    }

    static func gradients() -> Canvas {
        let c = Canvas(width: 120 * 2, height: 60 * 2, scale: 2)
        // Seed "gradient background": green to blue, left to right, under the status bar too.
        c.fill(Rect(x: 0, y: 0, width: 60, height: 15), .linearGradient(LinearGradient(start: Point(0, 0), end: Point(60, 0),
               colors: [RGBA8(0, 255, 0), RGBA8(0, 0, 255)])), element: 3)
        c.fill(Rect(x: 0, y: 15, width: 60, height: 15), .linearGradient(LinearGradient(start: Point(0, 15), end: Point(60, 30),
               stops: [(0, RGBA8(255, 45, 85)), (0.3, RGBA8(255, 204, 0)), (0.7, RGBA8(90, 200, 250, 128)), (1, RGBA8(88, 86, 214))])), element: 3)
        return c
    }

    static func images() -> Canvas {
        let c = Canvas(width: 100 * 2, height: 40 * 2, scale: 2, background: RGBA8(255, 255, 255))
        let checker = checker(8, 8), button = button()
        c.fill(Rect(x: 1, y: 1, width: 20, height: 12), .image(ImagePaint(image: checker, rect: Rect(x: 1, y: 1, width: 20, height: 12), mode: .stretch)), element: 1)
        c.fill(Rect(x: 23, y: 1, width: 24, height: 12), .image(ImagePaint(image: checker, rect: Rect(x: 23, y: 1, width: 24, height: 12), mode: .tile)), element: 1)
        // Variable-width stretchable back buttons (seed: custom back buttons): caps keep their size.
        let placements = [Rect(x: 1, y: 15, width: 30, height: 10), Rect(x: 33, y: 15, width: 45, height: 10),
                          Rect(x: 1, y: 27, width: 60, height: 12)]
        for placed in placements {
            c.fill(placed, .image(ImagePaint(image: button, rect: placed, mode: .capInsets(0, 10, 0, 10))), element: 7)
        }
        return c
    }

    static func material() -> Canvas {
        let c = Canvas(width: 120 * 2, height: 60 * 2, scale: 2, background: RGBA8(255, 255, 255))
        let colors = [RGBA8(255, 59, 48), RGBA8(255, 149, 0), RGBA8(52, 199, 89), RGBA8(0, 122, 255), RGBA8(175, 82, 222)]
        for y in 0..<12 { for x in 0..<24 {
            c.fill(Rect(x: Double(x) * 5 + 0.5, y: Double(y) * 5 + 0.5, width: 4, height: 4), .solid(colors[(x + y * 3) % 5]), element: 1)
        } }
        // Light material: blur sigma 3 pt (small scene), saturation 1.8, white @ 0.3, bar tint.
        c.group(alpha: 1) {
            c.backdrop(Rect(x: 0, y: 0, width: 60, height: 14), sigma: 3, saturation: 1.8, element: 3)
            c.fill(Rect(x: 0, y: 0, width: 60, height: 14), .solid(RGBA8(255, 255, 255, 77)), element: 3)
            c.fill(Rect(x: 0, y: 0, width: 60, height: 14), .solid(RGBA8(247, 247, 247, 204)), element: 3)
            c.hairline(bottom: 14, from: 0, to: 60, color: RGBA8(0, 0, 0, 77), element: 4)
        }
        c.group(alpha: 0.5) {
            c.backdrop(Rect(x: 0, y: 30, width: 120, height: 14), sigma: 3, saturation: 1.8, element: 3)
            c.fill(Rect(x: 0, y: 30, width: 120, height: 14), .solid(RGBA8(28, 28, 28, 186)), element: 3)
        }
        return c
    }

    static func text() -> Canvas {
        let c = Canvas(width: 150 * 2, height: 60 * 2, scale: 2, background: RGBA8(255, 255, 255))
        c.text("Favorites", font: fonts.semibold, size: 17, color: .black, x: 2, centerY: 9, element: 5)
        c.text("Settings", font: fonts.bold, size: 20, color: RGBA8(0, 0, 0), x: 2, centerY: 24, element: 6)
        c.text("Back", font: fonts.regular, size: 17, color: RGBA8(0, 122, 255), x: 90, centerY: 9, element: 7)
        c.text("A title much too long", font: fonts.semibold, size: 12, color: .black, x: 2, centerY: 40, maxWidth: 70, element: 5)
        c.text("Row 7 \u{E000}\u{10FFFD}", font: fonts.regular, size: 12, color: RGBA8(60, 60, 67), x: 2, centerY: 52, tracking: 0.5, element: 1)
        return c
    }

    static func groups() -> Canvas {
        let c = Canvas(width: 80 * 2, height: 40 * 2, scale: 2, background: RGBA8(255, 255, 255))
        c.group(alpha: 0.5) {
            c.fill(Rect(x: 2, y: 2, width: 20, height: 10), .solid(RGBA8(255, 0, 0)), element: 1)
            c.fill(Rect(x: 12, y: 6, width: 20, height: 10), .solid(RGBA8(0, 0, 255)), element: 2)
        }
        c.clipped(to: Rect(x: 0, y: 0, width: 40, height: 20)) {
            c.translated(20, 5) {
                c.fill(Path.ellipse(Rect(x: 10, y: 5, width: 20, height: 20)), .solid(RGBA8(52, 199, 89)), element: 3)
            }
        }
        return c
    }
}

extension RGBA8 {
    static let black = RGBA8(0, 0, 0)
    static let white = RGBA8(255, 255, 255)
}
