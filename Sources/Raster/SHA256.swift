import CPNG

/// SHA-256 (FIPS 180-4), for fingerprints of font files recorded in baselines.
public enum SHA256 {
    /// The round constants, from CPNG's table (one copy for both paths).
    static let k: [UInt32] = Array(UnsafeBufferPointer(start: nr_sha256_round_constants(), count: 64))

    public static func hex(_ data: [UInt8]) -> String {
        data.withUnsafeBytes { hex($0) }
    }

    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        digest(bytes).map { b in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }

    public static func digest(_ data: [UInt8]) -> [UInt8] {
        data.withUnsafeBytes { digest($0) }
    }

    /// With the CPU's SHA extensions where it has them (CPNG sha256.c: the fonts a check
    /// fingerprints at every start, 2-3 MB, took 37 ms here; issue 17), else `software`.
    public static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let done = out.withUnsafeMutableBufferPointer { o in
            nr_sha256_hardware(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, o.baseAddress!)
        }
        return done == 1 ? out : software(Array(bytes))
    }

    /// Written with raw pointers, plain loops and the rotations spelt out, so that an unoptimised
    /// build (fonts are fingerprinted at every start) hashes at a usable speed.
    static func software(_ data: [UInt8]) -> [UInt8] {
        var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
        var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
        // The message, 0x80, zeros up to 56 mod 64, then the length in bits (big-endian).
        let n = data.count
        let padded = (n + 9 + 63) / 64 * 64
        var message = [UInt8](repeating: 0, count: padded)
        var w = [UInt32](repeating: 0, count: 64)
        message.withUnsafeMutableBufferPointer { mb in
            let m = mb.baseAddress!
            data.withUnsafeBufferPointer { db in
                if n > 0 { m.update(from: db.baseAddress!, count: n) }
            }
            m[n] = 0x80
            let bitLength = UInt64(n) * 8
            var i = 0
            while i < 8 {
                m[padded - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))
                i += 1
            }
            w.withUnsafeMutableBufferPointer { wb in
                k.withUnsafeBufferPointer { kb in
                    let w = wb.baseAddress!, k = kb.baseAddress!
                    var chunk = 0
                    while chunk < padded {
                        let c = m + chunk
                        var i = 0
                        while i < 16 {
                            let j = i * 4
                            w[i] = UInt32(c[j]) << 24 | UInt32(c[j + 1]) << 16 | UInt32(c[j + 2]) << 8 | UInt32(c[j + 3])
                            i += 1
                        }
                        while i < 64 {
                            let x = w[i - 15], y = w[i - 2]
                            let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
                            let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
                            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                            i += 1
                        }
                        var a = h0, b = h1, c2 = h2, d = h3, e = h4, f = h5, g = h6, hh = h7
                        i = 0
                        while i < 64 {
                            let s1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
                            let ch = (e & f) ^ (~e & g)
                            let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                            let s0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
                            let maj = (a & b) ^ (a & c2) ^ (b & c2)
                            let t2 = s0 &+ maj
                            hh = g; g = f; f = e; e = d &+ t1; d = c2; c2 = b; b = a; a = t1 &+ t2
                            i += 1
                        }
                        h0 &+= a; h1 &+= b; h2 &+= c2; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= hh
                        chunk += 64
                    }
                }
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
            out.append(UInt8(word >> 24)); out.append(UInt8((word >> 16) & 0xFF))
            out.append(UInt8((word >> 8) & 0xFF)); out.append(UInt8(word & 0xFF))
        }
        return out
    }
}
