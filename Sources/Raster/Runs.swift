/// Runs of one value in a row, for the two loops that walk them on every recorded frame (issue
/// 17): the colour reduction's, over pixels, and the maps' NRM2 rows (`FrameMaps`), over bytes.
public enum Runs {
    /// Where the run of `row[x]`'s value that starts at `x` ends: the first later index with
    /// another value, or `width`. Sixteen bytes a step, as two 8-byte words XORed with the value
    /// repeated across a word (sixteen map values or four pixels), then one value at a time. The
    /// value loops this replaced were most of `FrameMaps.appendRows` and over half of
    /// `ColorReduction.choose`.
    @inlinable @inline(__always)
    public static func end<T: FixedWidthInteger & UnsignedInteger>(_ row: UnsafePointer<T>, _ x: Int, _ width: Int) -> Int {
        let size = MemoryLayout<T>.size
        precondition(size <= 8 && 8 % size == 0, "values of 1, 2, 4 or 8 bytes")
        let v = row[x]
        // Read little-endian, a word's first value is its lowest bits; the value repeated the
        // same way XORs to zero exactly where the word holds `v` throughout.
        var pattern = UInt64(truncatingIfNeeded: T(littleEndian: v))
        var bits = size * 8
        while bits < 64 { pattern |= pattern << UInt64(bits); bits *= 2 }
        let perWord = 8 / size, toIndex = 3 + size.trailingZeroBitCount   // bit number -> index
        let raw = UnsafeRawPointer(row)
        var e = x + 1
        while e + 2 * perWord <= width {
            let a = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: e * size, as: UInt64.self)) ^ pattern
            if a != 0 { return e + a.trailingZeroBitCount >> toIndex }
            let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: (e + perWord) * size, as: UInt64.self)) ^ pattern
            if b != 0 { return e + perWord + b.trailingZeroBitCount >> toIndex }
            e += 2 * perWord
        }
        while e < width && row[e] == v { e += 1 }
        return e
    }
}
