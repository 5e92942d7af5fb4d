import CPNG
/// A fast 64-bit non-cryptographic hash of bytes (8 bytes at a time, multiply-xorshift mixing
/// with the constants of SplitMix64 / Stafford's Mix13). For recognising unchanged pixels, not
/// for security: accidental collisions are about 2^-64 likely.
public enum FastHash {
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ seed ^ UInt64(bytes.count)
        let words = bytes.count / 8
        // Words are copied in blocks into aligned scratch and read from there: the same values as
        // unaligned loads, without a generic call per word in an unoptimised build. The mixing
        // (`mix`) is written out for the same reason.
        let block = 512
        let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: block)
        defer { scratch.deallocate() }
        var i = 0
        while i < words {
            let n = words - i < block ? words - i : block
            UnsafeMutableRawPointer(scratch).copyMemory(from: bytes.baseAddress! + i * 8, byteCount: n * 8)
            var j = 0
            while j < n {
                var z = h ^ scratch[j]
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                h = (z ^ (z >> 31)) &+ 0x9E37_79B9_7F4A_7C15
                j += 1
            }
            i += n
        }
        var tail: UInt64 = 0
        for i in (words * 8)..<bytes.count { tail = tail << 8 | UInt64(bytes[i]) }
        return mix(h ^ tail ^ 0xA5A5_A5A5)
    }

    /// Version 2 (issue 17): four independent lanes over 32-byte blocks, each word folded in
    /// with one multiply by an odd constant and one xorshift (both invertible, so for a given
    /// lane state distinct words give distinct states), the lanes joined by `mix` at the end.
    /// The lanes do not wait for each other, so it runs about four times as fast as `hash`,
    /// whose every word waits for the one before. Same purpose, same caveat: accidental
    /// collisions only.
    ///
    /// In C (CPNG raster.c `nr_hash2`, issue 17): the same value, read straight from `bytes`;
    /// the tests hold it to the Swift loop it replaced (`hash2Swift`, in RasterTests).
    public static func hash2(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        guard let base = bytes.baseAddress else { return nr_hash2(nil, 0, seed) }
        return nr_hash2(base.assumingMemoryBound(to: UInt8.self), bytes.count, seed)
    }

    public static func hash2(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash2($0, seed: seed) }
    }

    public static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
