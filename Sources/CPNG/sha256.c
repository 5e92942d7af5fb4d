// SHA-256 with the SHA extensions: see include/nrsha256.h. The rounds follow Intel's description
// of SHA256RNDS2, SHA256MSG1 and SHA256MSG2 ("Intel SHA Extensions", Gulley et al., 2013): the
// state as ABEF and CDGH, two rounds an instruction, the message schedule four words at a time.
#include "nrsha256.h"

#include <string.h>

/* FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64
 * primes. */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *nr_sha256_round_constants(void) { return round_constants; }

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

/* CPUID leaf 7 EBX bit 29 (SHA), leaf 1 ECX bits 9 (SSSE3) and 19 (SSE4.1); asked once and kept in a
 * relaxed atomic, as cpng.c does for SSSE3 (no __builtin_cpu_supports and its constructor). */
static int has_sha(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        unsigned a, b, c, d;
        answer = 0;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 9)) && (c & (1u << 19))
            && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29))) {
            answer = 1;
        }
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

/* `blocks` 64-byte blocks into the state, kept as ABEF and CDGH. */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress(__m128i *abef, __m128i *cdgh, const uint8_t *data, size_t blocks) {
    // Each 32-bit word of the message is big-endian.
    const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    __m128i state0 = *abef, state1 = *cdgh;
    for (size_t block = 0; block < blocks; block++) {
        const uint8_t *p = data + 64 * block;
        __m128i saved0 = state0, saved1 = state1;
        __m128i w[4];
        for (int i = 0; i < 16; i++) {
            __m128i words;
            if (i < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), swap);
            } else {
                // W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four at a time: MSG1 adds s0
                // to the words 16 back, then the words 7 back are added, then MSG2 adds s1.
                words = _mm_sha256msg1_epu32(w[i & 3], w[(i + 1) & 3]);
                words = _mm_add_epi32(words, _mm_alignr_epi8(w[(i + 3) & 3], w[(i + 2) & 3], 4));
                words = _mm_sha256msg2_epu32(words, w[(i + 3) & 3]);
            }
            w[i & 3] = words;
            __m128i wk = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)(round_constants + 4 * i)));
            state1 = _mm_sha256rnds2_epu32(state1, state0, wk);
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(wk, 0x0E));
        }
        state0 = _mm_add_epi32(state0, saved0);
        state1 = _mm_add_epi32(state1, saved1);
    }
    *abef = state0;
    *cdgh = state1;
}

__attribute__((target("sha,sse4.1,ssse3")))
static void sha256(const uint8_t *data, size_t length, uint8_t *digest) {
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    // h0..h3 as DCBA and h4..h7 as HGFE in the registers' lanes, then rearranged as ABEF, CDGH.
    __m128i dcba = _mm_loadu_si128((const __m128i *)initial), hgfe = _mm_loadu_si128((const __m128i *)(initial + 4));
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1), efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8), cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    size_t whole = length / 64;
    compress(&abef, &cdgh, data, whole);
    // The rest, 0x80, zeros up to 56 mod 64, and the length in bits, big-endian: one or two blocks.
    uint8_t tail[128];
    size_t rest = length - 64 * whole;
    memset(tail, 0, sizeof tail);
    if (rest > 0) memcpy(tail, data + 64 * whole, rest);
    tail[rest] = 0x80;
    size_t tail_blocks = rest + 9 <= 64 ? 1 : 2;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[64 * tail_blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(&abef, &cdgh, tail, tail_blocks);
    // Back to h0..h7, each big-endian.
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B), dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    __m128i h03 = _mm_blend_epi16(feba, dchg, 0xF0), h47 = _mm_alignr_epi8(dchg, feba, 8);
    uint32_t h[8];
    _mm_storeu_si128((__m128i *)h, h03);
    _mm_storeu_si128((__m128i *)(h + 4), h47);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h[i];
    }
}

int nr_sha256_hardware(const uint8_t *data, size_t length, uint8_t *digest) {
    if (!has_sha()) return 0;
    sha256(data, length, digest);
    return 1;
}
#else
int nr_sha256_hardware(const uint8_t *data, size_t length, uint8_t *digest) {
    (void)data; (void)length; (void)digest;
    return 0;
}
#endif
