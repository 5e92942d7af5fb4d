import CCompare
import Testing
@testable import Compare

/// The faded-grey indices of unchanged pixels come from C (`nr_fade_run`, vectorised, issue 17):
/// they must be `DiffPalette.step` of every pixel, for any colour, run length and alignment, and
/// touch nothing outside the run.
@Suite("faded-grey runs of the diff image")
struct FadeRunTests {
    /// Edge channel values crossed with every alpha, then seeded random words.
    static let words: [UInt32] = {
        var words: [UInt32] = []
        let edges: [UInt32] = [0, 1, 2, 28, 29, 127, 128, 200, 254, 255]
        for r in edges {
            for g in edges {
                for b in edges {
                    for a in [0, 1, 2, 127, 128, 253, 254, 255] as [UInt32] { words.append(r | g << 8 | b << 16 | a << 24) }
                }
            }
        }
        for a in 0...255 as ClosedRange<UInt32> {
            for grey in stride(from: 0, through: 255, by: 17) as StrideThrough<UInt32> {
                words.append(grey | grey << 8 | grey << 16 | a << 24)
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words.append(UInt32(truncatingIfNeeded: state >> 32))
        }
        return words
    }()

    @Test("every pixel's index is DiffPalette.step of it, dispatched and baseline loops alike")
    func sameAsStep() {
        let expected = Self.words.map { DiffPalette.step($0) }
        for run in [nr_fade_run, nr_fade_run_baseline] {
            var out = [UInt8](repeating: 0xAA, count: Self.words.count)
            Self.words.withUnsafeBytes { raw in
                out.withUnsafeMutableBufferPointer { o in
                    run(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), o.baseAddress!, Int64(Self.words.count))
                }
            }
            #expect(out == expected)
        }
    }

    @Test("runs of every length up to 70 at every alignment write exactly their own indices")
    func lengthsAndAlignment() {
        let words = Array(Self.words.suffix(80))
        for start in 0..<4 {
            for count in 0...70 {
                var out = [UInt8](repeating: 0xAA, count: 80)
                words.withUnsafeBufferPointer { w in
                    out.withUnsafeMutableBufferPointer { o in
                        DiffPalette.fadeRun(w.baseAddress!, o.baseAddress!, start..<(start + count))
                    }
                }
                let want = (0..<80).map { k in (start..<(start + count)).contains(k) ? DiffPalette.step(words[k]) : 0xAA }
                #expect(out == want, "start \(start), count \(count)")
            }
        }
    }

    /// nr_fade_run_packed reads a plain PNG's own rows (issue 17: the diff image of a file
    /// compared with itself): RGB and grey pixels must fade as the opaque RGBA8 pixel they
    /// decode to, for every length around the eight-a-step loop and its 11-pixel margin, and
    /// read and write nothing outside the run.
    @Test("RGB, grey and RGBA rows fade as their opaque RGBA8 pixels, every length, nothing outside written")
    func packedRows() {
        let bytes = Self.words.prefix(2_000).flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (8 * $0)) } }
        for channels in [1, 3, 4] {
            for count in Array(0...40) + [255, 256, 257, 1_999] {
                // The pixels as the file holds them, then what decoding makes of them.
                let packed = (0..<count).flatMap { k in Array(bytes[(4 * k)..<(4 * k + channels)]) }
                let widened: [UInt32] = (0..<count).map { k in
                    let p = Array(packed[(channels * k)..<(channels * k + channels)])
                    let (r, g, b, a) = channels == 1 ? (p[0], p[0], p[0], UInt8(255))
                        : (p[0], p[1], p[2], channels == 4 ? p[3] : 255)
                    return UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
                }
                var out = [UInt8](repeating: 0xAA, count: count + 8)
                // Exactly `count` pixels in their own buffer, so reading past the run would be caught by ASan.
                let exact = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, packed.count))
                exact.initialize(from: packed, count: packed.count)
                out.withUnsafeMutableBufferPointer { o in nr_fade_run_packed(exact, Int32(channels), o.baseAddress! + 4, Int64(count)) }
                exact.deallocate()
                let want = [UInt8](repeating: 0xAA, count: 4) + widened.map { DiffPalette.step($0) } + [UInt8](repeating: 0xAA, count: 4)
                #expect(out == want, "\(channels) channels, \(count) pixels")
            }
        }
    }
}
