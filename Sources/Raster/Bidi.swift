import CHarfBuzz

/// Visual order for mixed left-to-right and right-to-left text: a reduced Unicode Bidirectional
/// Algorithm (UAX #9) for one line without explicit embeddings. It classifies characters (Hebrew
/// and Arabic letters, numbers, separators, neutrals), resolves weak types (W1-W7), neutrals
/// (N1-N2) and implicit levels (I1-I2), and trailing whitespace (L1). Enough for titles; isolates,
/// embeddings and overrides are treated as neutrals.
enum Bidi {
    enum Class: UInt8 { case l, r, al, en, an, es, et, cs, nsm, bn, ws, on }

    static func classify(_ c: Unicode.Scalar) -> Class {
        let v = c.value
        switch c.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return .nsm
        default: break
        }
        switch v {
        case 0x30...0x39, 0x6F0...0x6F9, 0xFF10...0xFF19: return .en
        case 0x660...0x669, 0x66B, 0x66C, 0x600...0x605, 0x6DD, 0x8E2: return .an
        case 0x2B, 0x2D, 0x207A, 0x207B, 0xFB29, 0xFE62, 0xFE63, 0xFF0B, 0xFF0D: return .es
        case 0x23...0x25, 0xA2...0xA5, 0xB0, 0xB1, 0x66A, 0x2030...0x2034, 0x20A0...0x20CF: return .et
        case 0x2C, 0x2E, 0x2F, 0x3A, 0xA0, 0x60C, 0x202F, 0x2044, 0xFE50, 0xFE52, 0xFE55, 0xFF0C, 0xFF0E, 0xFF0F, 0xFF1A: return .cs
        case 0x20, 0x9, 0xC, 0x1680, 0x2000...0x200A, 0x2028, 0x205F, 0x3000: return .ws
        case 0x200E: return .l
        case 0x200F: return .r
        case 0x61C: return .al
        case 0x590...0x5FF, 0x7C0...0x89F, 0xFB1D...0xFB4F, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return .r
        case 0x600...0x7BF, 0x8A0...0x8FF, 0xFB50...0xFDCF, 0xFDF0...0xFDFF, 0xFE70...0xFEFF: return .al
        default: break
        }
        if c.properties.isDefaultIgnorableCodePoint { return .bn }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark,
             .letterNumber, .privateUse:
            return .l
        case .decimalNumber: return .l
        default: return .on
        }
    }

    static func isRightToLeft(_ c: Unicode.Scalar) -> Bool {
        let k = classify(c)
        return k == .r || k == .al || k == .an
    }

    /// The paragraph level (0: left to right, 1: right to left) from the first strong character.
    static func paragraphLevel(_ classes: [Class]) -> UInt8 {
        for k in classes {
            if k == .l { return 0 }
            if k == .r || k == .al { return 1 }
        }
        return 0
    }

    /// The embedding level of each scalar.
    static func levels(_ scalars: [Unicode.Scalar]) -> [UInt8] {
        var t = scalars.map(classify)
        let n = t.count
        let para = paragraphLevel(t)
        let sos: Class = para == 1 ? .r : .l
        // W1: marks (and format characters) take the type of what precedes them.
        for i in 0..<n where t[i] == .nsm || t[i] == .bn {
            t[i] = i == 0 ? sos : t[i - 1]
        }
        // W2: European numbers after Arabic letters are Arabic numbers. W3: AL is R.
        var lastStrong = sos
        for i in 0..<n {
            switch t[i] {
            case .l, .r, .al: lastStrong = t[i]
            case .en where lastStrong == .al: t[i] = .an
            default: break
            }
        }
        for i in 0..<n where t[i] == .al { t[i] = .r }
        // W4: one separator between two numbers of the same kind joins them.
        if n >= 3 {
            for i in 1..<(n - 1) {
                if t[i] == .es, t[i - 1] == .en, t[i + 1] == .en { t[i] = .en }
                if t[i] == .cs, t[i - 1] == t[i + 1], t[i - 1] == .en || t[i - 1] == .an { t[i] = t[i - 1] }
            }
        }
        // W5: terminators next to European numbers are European numbers.
        var i = 0
        while i < n {
            guard t[i] == .et else { i += 1; continue }
            var j = i
            while j < n && t[j] == .et { j += 1 }
            if (i > 0 && t[i - 1] == .en) || (j < n && t[j] == .en) {
                for x in i..<j { t[x] = .en }
            }
            i = j
        }
        // W6: other separators and terminators are neutral.
        for i in 0..<n where t[i] == .es || t[i] == .et || t[i] == .cs { t[i] = .on }
        // W7: European numbers after a left-to-right letter are L.
        lastStrong = sos
        for i in 0..<n {
            if t[i] == .l || t[i] == .r { lastStrong = t[i] }
            if t[i] == .en && lastStrong == .l { t[i] = .l }
        }
        // N1, N2: neutrals between two strong types of the same direction take it (numbers count
        // as R); others take the paragraph's.
        func direction(_ k: Class) -> Class? {
            switch k {
            case .l: return .l
            case .r, .en, .an: return .r
            default: return nil
            }
        }
        i = 0
        while i < n {
            guard t[i] == .on || t[i] == .ws else { i += 1; continue }
            var j = i
            while j < n && (t[j] == .on || t[j] == .ws) { j += 1 }
            let before = i > 0 ? direction(t[i - 1]) ?? sos : sos
            let after = j < n ? direction(t[j]) ?? sos : sos
            let resolved: Class = before == after ? before : sos
            for x in i..<j { t[x] = resolved }
            i = j
        }
        // I1, I2: implicit levels.
        var levels = t.map { k -> UInt8 in
            if para == 0 {
                switch k {
                case .r: return 1
                case .an, .en: return 2
                default: return 0
                }
            }
            return k == .l || k == .en || k == .an ? 2 : 1
        }
        // L1: whitespace at the end of the line returns to the paragraph level.
        var e = n - 1
        while e >= 0, classify(scalars[e]) == .ws || classify(scalars[e]) == .bn {
            levels[e] = para
            e -= 1
        }
        return levels
    }

    /// L2: the visual order of runs with these levels (indices into `levels`).
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let top = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
        var level = top
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }

    /// The script and language a run is shaped with: fixed per script, never the locale's.
    struct Script {
        var language: String
        var hbScript: hb_script_t?

        init<S: Sequence>(_ scalars: S) where S.Element == Unicode.Scalar {
            for c in scalars {
                switch c.value {
                case 0x590...0x5FF, 0xFB1D...0xFB4F:
                    self.init(language: "he", hbScript: HB_SCRIPT_HEBREW)
                    return
                case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
                    self.init(language: "ar", hbScript: HB_SCRIPT_ARABIC)
                    return
                default: continue
                }
            }
            self.init(language: "und", hbScript: nil)
        }

        init(language: String, hbScript: hb_script_t?) {
            self.language = language
            self.hbScript = hbScript
        }
    }
}
