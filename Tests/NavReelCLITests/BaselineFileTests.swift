import Testing
import Raster
@testable import NavReel

@Suite("baseline files")
struct BaselineFileTests {
    func key(_ image: Image, _ text: [String: String], side: [UInt8]? = [1, 2, 3]) throws -> UInt64 {
        let bytes = try BaselineFile.encode(image, text: text, side: side)
        let structure = try PNGStructure.scan(bytes, source: "test")
        return BaselineFile.imageKey(bytes, structure)
    }

    @Test("frames with the same pixels and maps share the decode key whatever their text; others do not")
    func imageKey() throws {
        var image = Image(width: 30, height: 20, fill: RGBA8(10, 20, 30))
        let frame3 = try key(image, ["navreel.frame": "3", "navreel.time": "0.1000"])
        let frame4 = try key(image, ["navreel.frame": "4", "navreel.time": "0.1333"])
        #expect(frame3 == frame4, "consecutive identical frames reuse the decode")
        #expect(try key(image, ["navreel.frame": "4"], side: [1, 2, 4]) != frame4, "other maps")
        image[5, 5] = RGBA8(0, 0, 0)
        #expect(try key(image, ["navreel.frame": "4", "navreel.time": "0.1333"]) != frame4, "other pixels")
    }
}
