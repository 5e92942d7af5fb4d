/// Pair kerning from an OpenType font's GPOS table: the lookups of its `kern` feature, pair
/// adjustment (lookup type 2, formats 1 and 2), also behind extension lookups (type 9). Read
/// from the file's bytes per the OpenType specification ("GPOS — Glyph Positioning Table",
/// "Common Table Formats"), because FreeType's FT_Get_Kerning reads only the legacy `kern`
/// table, which OpenType fonts such as Inter do not have. Every read is bounds-checked: a damaged
/// table yields no kerning, never a crash.
struct GPOSKerning {
    private let data: [UInt8]
    /// Pair-adjustment subtables (absolute offsets), in lookup order.
    private var subtables: [Int] = []

    init?(fontFile bytes: [UInt8]) {
        data = bytes
        guard let gpos = Self.table("GPOS", in: bytes) else { return nil }
        let featureList = gpos + Int(u16(gpos + 6) ?? 0)
        let lookupList = gpos + Int(u16(gpos + 8) ?? 0)
        guard let featureCount = u16(featureList), let lookupCount = u16(lookupList) else { return nil }
        var lookupIndices = Set<Int>()
        for f in 0..<Int(featureCount) {
            let record = featureList + 2 + f * 6
            guard record + 6 <= bytes.count, String(decoding: bytes[record..<record + 4], as: UTF8.self) == "kern",
                  let offset = u16(record + 4) else { continue }
            let feature = featureList + Int(offset)
            guard let count = u16(feature + 2) else { continue }
            for i in 0..<Int(count) { if let index = u16(feature + 4 + i * 2) { lookupIndices.insert(Int(index)) } }
        }
        for index in lookupIndices.sorted() where index < Int(lookupCount) {
            guard let offset = u16(lookupList + 2 + index * 2) else { continue }
            let lookup = lookupList + Int(offset)
            guard let type = u16(lookup), let count = u16(lookup + 4) else { continue }
            for s in 0..<Int(count) {
                guard let so = u16(lookup + 6 + s * 2) else { continue }
                var subtable = lookup + Int(so)
                var subtype = type
                if type == 9 {   // extension: format, real lookup type, 32-bit offset
                    guard let t = u16(subtable + 2), let o = u32(subtable + 4) else { continue }
                    subtype = t
                    subtable += Int(o)
                }
                if subtype == 2 { subtables.append(subtable) }
            }
        }
        if subtables.isEmpty { return nil }
    }

    /// The horizontal advance adjustment, in font units, between two glyphs.
    func adjustment(_ left: UInt32, _ right: UInt32) -> Int {
        guard left <= 0xFFFF, right <= 0xFFFF else { return 0 }
        for subtable in subtables {
            if let v = pairAdjustment(subtable, UInt16(left), UInt16(right)) { return v }
        }
        return 0
    }

    private func pairAdjustment(_ t: Int, _ left: UInt16, _ right: UInt16) -> Int? {
        guard let format = u16(t), let coverageOffset = u16(t + 2), let vf1 = u16(t + 4), let vf2 = u16(t + 6) else { return nil }
        guard let coverageIndex = coverage(t + Int(coverageOffset), left) else { return nil }
        let size1 = Self.valueSize(vf1), size2 = Self.valueSize(vf2)
        switch format {
        case 1:
            guard let count = u16(t + 8), coverageIndex < Int(count), let setOffset = u16(t + 10 + coverageIndex * 2) else { return nil }
            let set = t + Int(setOffset)
            guard let pairs = u16(set) else { return nil }
            let recordSize = 2 + size1 + size2
            var lo = 0, hi = Int(pairs) - 1
            while lo <= hi {   // PairValueRecords are sorted by the second glyph
                let mid = (lo + hi) / 2
                let record = set + 2 + mid * recordSize
                guard let glyph = u16(record) else { return nil }
                if glyph == right { return xAdvance(record + 2, vf1) }
                if glyph < right { lo = mid + 1 } else { hi = mid - 1 }
            }
            return nil
        case 2:
            guard let cd1 = u16(t + 8), let cd2 = u16(t + 10), let class1Count = u16(t + 12), let class2Count = u16(t + 14) else { return nil }
            let c1 = classOf(t + Int(cd1), left), c2 = classOf(t + Int(cd2), right)
            guard c1 < Int(class1Count), c2 < Int(class2Count) else { return nil }
            let record = t + 16 + (c1 * Int(class2Count) + c2) * (size1 + size2)
            let v = xAdvance(record, vf1)
            return v == 0 ? nil : v
        default:
            return nil
        }
    }

    /// ValueRecord sizes: one 16-bit field per bit set in the value format.
    static func valueSize(_ format: UInt16) -> Int { format.nonzeroBitCount * 2 }

    /// XAdvance (bit 0x0004) of a ValueRecord: fields in bit order, XPlacement and YPlacement first.
    private func xAdvance(_ record: Int, _ format: UInt16) -> Int {
        guard format & 0x0004 != 0 else { return 0 }
        let before = (format & 0x0003).nonzeroBitCount
        return u16(record + before * 2).map { Int(Int16(bitPattern: $0)) } ?? 0
    }

    private func coverage(_ c: Int, _ glyph: UInt16) -> Int? {
        guard let format = u16(c), let count = u16(c + 2) else { return nil }
        var lo = 0, hi = Int(count) - 1
        if format == 1 {
            while lo <= hi {
                let mid = (lo + hi) / 2
                guard let g = u16(c + 4 + mid * 2) else { return nil }
                if g == glyph { return mid }
                if g < glyph { lo = mid + 1 } else { hi = mid - 1 }
            }
        } else if format == 2 {
            while lo <= hi {
                let mid = (lo + hi) / 2
                let r = c + 4 + mid * 6
                guard let start = u16(r), let end = u16(r + 2), let index = u16(r + 4) else { return nil }
                if glyph < start { hi = mid - 1 } else if glyph > end { lo = mid + 1 } else { return Int(index) + Int(glyph - start) }
            }
        }
        return nil
    }

    private func classOf(_ c: Int, _ glyph: UInt16) -> Int {
        guard let format = u16(c) else { return 0 }
        if format == 1 {
            guard let start = u16(c + 2), let count = u16(c + 4), glyph >= start, Int(glyph - start) < Int(count) else { return 0 }
            return Int(u16(c + 6 + Int(glyph - start) * 2) ?? 0)
        }
        if format == 2, let count = u16(c + 2) {
            var lo = 0, hi = Int(count) - 1
            while lo <= hi {
                let mid = (lo + hi) / 2
                let r = c + 4 + mid * 6
                guard let start = u16(r), let end = u16(r + 2), let cls = u16(r + 4) else { return 0 }
                if glyph < start { hi = mid - 1 } else if glyph > end { lo = mid + 1 } else { return Int(cls) }
            }
        }
        return 0
    }

    private func u16(_ at: Int) -> UInt16? { Self.u16(data, at) }
    private func u32(_ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= data.count else { return nil }
        return UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
    }
    static func u16(_ data: [UInt8], _ at: Int) -> UInt16? {
        guard at >= 0, at + 2 <= data.count else { return nil }
        return UInt16(data[at]) << 8 | UInt16(data[at + 1])
    }

    /// Offset of a table in an sfnt (TrueType or CFF OpenType) file's table directory.
    static func table(_ tag: String, in data: [UInt8]) -> Int? {
        guard let count = u16(data, 4) else { return nil }
        let want = Array(tag.utf8)
        for i in 0..<Int(count) {
            let record = 12 + i * 16
            guard record + 16 <= data.count else { return nil }
            if Array(data[record..<record + 4]) == want {
                let offset = Int(UInt32(data[record + 8]) << 24 | UInt32(data[record + 9]) << 16 | UInt32(data[record + 10]) << 8 | UInt32(data[record + 11]))
                return offset < data.count ? offset : nil
            }
        }
        return nil
    }
}
