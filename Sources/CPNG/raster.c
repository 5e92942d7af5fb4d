// Canvas loops: see include/raster.h.
#include "raster.h"

#include <math.h>
#include <string.h>

// The coverage arithmetic must be Swift's, operation by operation: no fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

static inline uint32_t straight(uint32_t p) {
    uint32_t a = p >> 24;
    if (a == 255) return p;
    if (a == 0) return 0;
    uint32_t r = ((p & 0xFF) * 255 + a / 2) / a;
    uint32_t g = (((p >> 8) & 0xFF) * 255 + a / 2) / a;
    uint32_t b = (((p >> 16) & 0xFF) * 255 + a / 2) / a;
    if (r > 255) r = 255;
    if (g > 255) g = 255;
    if (b > 255) b = 255;
    return r | g << 8 | b << 16 | a << 24;
}

static inline void put(uint8_t *o, uint32_t v) {
    o[0] = (uint8_t)v;
    o[1] = (uint8_t)(v >> 8);
    o[2] = (uint8_t)(v >> 16);
    o[3] = (uint8_t)(v >> 24);
}

void nr_unpremultiply(const uint32_t *pixels, uint8_t *out, size_t count) {
    size_t i = 0;
    // Blocks of 16 pixels: when all are opaque (nearly every block of a frame, whose background
    // is opaque), the AND of their alphas is 255 and the block is copied as it is. One read and
    // one write of the frame instead of a scan for runs and then a copy of each.
    while (i + 16 <= count) {
        uint32_t all = 0xFFFFFFFFu;
        for (int k = 0; k < 16; k++) all &= pixels[i + k];
        if (all >= 0xFF000000u) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            // r, g, b, a in memory order is the little-endian word.
            memcpy(out + 4 * i, pixels + i, 64);
#else
            for (int k = 0; k < 16; k++) put(out + 4 * (i + k), pixels[i + k]);
#endif
        } else {
            for (int k = 0; k < 16; k++) put(out + 4 * (i + k), straight(pixels[i + k]));
        }
        i += 16;
    }
    for (; i < count; i++) put(out + 4 * i, straight(pixels[i]));
}

// One coverage byte, as Swift's `UInt8((min(1, abs(sum)) * 255).rounded())`: Swift's
// `min(1, a)` is `a < 1 ? a : 1`, so NaN gives 1; the product is then within 0...255, where
// rounding half away from zero adds one when the fraction is at least a half.
static inline uint8_t coverage_byte(float sum) {
    float a = fabsf(sum);
    float v = a < 1.0f ? a : 1.0f;
    float x = v * 255.0f;
    float t = (float)(int)x;
    return (uint8_t)(x - t >= 0.5f ? t + 1.0f : t);
}

void nr_coverage_rows(const float *areas, size_t stride, size_t width, size_t height, uint8_t *coverage) {
    for (size_t row = 0; row < height; row++) {
        const float *a = areas + row * stride;
        uint8_t *c = coverage + row * width;
        // Equal bits give equal sums: the straight middle of a rounded rectangle, where only the
        // vertical edges cross, repeats the row above.
        if (row > 0 && memcmp(a, a - stride, width * sizeof(float)) == 0) {
            memcpy(c, c - width, width);
            continue;
        }
        // A zero area leaves the sum as it was (the areas are never -0: each starts +0 and a sum
        // is -0 only of two -0s), so the byte repeats: runs of zeros, four floats a test, are
        // filled without the arithmetic.
        float sum = 0.0f;
        uint8_t last = 0;
        size_t i = 0;
        while (i < width) {
            if (i + 4 <= width) {
                uint64_t pair[2];
                memcpy(pair, a + i, 16);
                if ((pair[0] | pair[1]) == 0) {
                    memset(c + i, last, 4);
                    i += 4;
                    continue;
                }
            }
            float v = a[i];
            if (v != 0.0f) {
                sum += v;
                last = coverage_byte(sum);
            }
            c[i] = last;
            i++;
        }
    }
}

size_t nr_leading_equal(const uint8_t *bytes, size_t count, uint8_t value) {
    uint64_t pattern = 0x0101010101010101ull * value;
    size_t i = 0;
    while (i + 8 <= count) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        if (word != pattern) break;
        i += 8;
    }
    while (i < count && bytes[i] == value) i++;
    return i;
}

#if defined(__SSE2__)
#include <emmintrin.h>

// Four pixels through each source in turn, as Canvas.blendSpan blends a translucent premultiplied
// source over a destination whose channels its tables map one by one: each channel
// s + div255(d * (255 - sa)), at most 255. Sixteen-bit lanes hold every intermediate exactly
// (d * inv + 128 plus its high byte is at most 65,151; the sum at most 509), so this is the
// tables' arithmetic, not an approximation of it (checked for every alpha, source and
// destination channel). A fourth copy of the div255 blend (Canvas.blendSpan, Target.blend, the
// tables made by blendSpan): ReferenceTests holds the paths to blendSpan's bytes.
/* The per-source constants of blend4, made once a call: 255 - alpha and the channels, in 16-bit
 * lanes. */
typedef struct { __m128i inv, channels; } blend_source;

static inline __m128i blend4(__m128i d, const blend_source *sources, size_t source_count) {
    const __m128i zero = _mm_setzero_si128(), round = _mm_set1_epi16(128), top = _mm_set1_epi16(255);
    __m128i lo = _mm_unpacklo_epi8(d, zero), hi = _mm_unpackhi_epi8(d, zero);
    for (size_t i = 0; i < source_count; i++) {
        __m128i inv = sources[i].inv, channels = sources[i].channels;
        __m128i x = _mm_add_epi16(_mm_mullo_epi16(lo, inv), round);
        lo = _mm_min_epi16(_mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8), channels), top);
        x = _mm_add_epi16(_mm_mullo_epi16(hi, inv), round);
        hi = _mm_min_epi16(_mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8), channels), top);
    }
    return _mm_packus_epi16(lo, hi);
}
#endif

#if defined(__SSE2__) && defined(__x86_64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NR_AVX2 1
#include <cpuid.h>
#include <immintrin.h>

/* blend4 on eight pixels with AVX2: the same 16-bit arithmetic, each 128-bit half of the
 * registers holding what blend4's do (unpack and pack work within the halves). */
__attribute__((target("avx2")))
static void blend8_at(uint32_t *p, const blend_source *sources, size_t source_count) {
    const __m256i zero = _mm256_setzero_si256(), round = _mm256_set1_epi16(128), top = _mm256_set1_epi16(255);
    __m256i d = _mm256_loadu_si256((const __m256i *)p);
    __m256i lo = _mm256_unpacklo_epi8(d, zero), hi = _mm256_unpackhi_epi8(d, zero);
    for (size_t i = 0; i < source_count; i++) {
        __m256i inv = _mm256_broadcastsi128_si256(sources[i].inv), channels = _mm256_broadcastsi128_si256(sources[i].channels);
        __m256i x = _mm256_add_epi16(_mm256_mullo_epi16(lo, inv), round);
        lo = _mm256_min_epi16(_mm256_add_epi16(_mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8), channels), top);
        x = _mm256_add_epi16(_mm256_mullo_epi16(hi, inv), round);
        hi = _mm256_min_epi16(_mm256_add_epi16(_mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8), channels), top);
    }
    _mm256_storeu_si256((__m256i *)p, _mm256_packus_epi16(lo, hi));
}
#endif

int nr_simd_level(void) {
#if defined(NR_AVX2)
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        // AVX2 (CPUID leaf 7 EBX bit 5) and the OS saving the YMM registers (leaf 1 ECX bit 27,
        // OSXSAVE, then XCR0 bits 1 and 2), asked once; SSE2 is x86-64's baseline.
        unsigned a, b, c, d;
        answer = 1;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 27)) && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5))) {
            unsigned lo, hi;
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            if ((lo & 6u) == 6u) answer = 2;
        }
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
#elif defined(__SSE2__)
    return 1;
#else
    return 0;
#endif
}

#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Whether the tables cover `n` (4 or 8) pixels at once: full coverage, and no weights (content)
 * or all opaque (a material bar's backdrop: opaque, weight 255), else each pixel on its own terms. */
static inline int tables_cover(const uint32_t *pixels, const uint8_t *weights, const uint8_t *coverage, size_t n) {
    uint64_t cover = 0, weight = 0;
    memcpy(&cover, coverage, n);
    memcpy(&weight, weights, n);
    if (cover != (n == 8 ? ~(uint64_t)0 : 0xFFFFFFFFull)) return 0;
    if (weight == 0) return 1;
    uint32_t all = 0xFFFFFFFFu;
    for (size_t k = 0; k < n; k++) all &= pixels[k];
    if (all >> 24 == 255) return 1;
    int covered = 1;
    for (size_t k = 0; k < n; k++) covered &= weights[k] == 0 || pixels[k] >> 24 == 255;
    return covered;
}

/* The weights of `n` pixels the tables covered: each opaque pixel's weight through
 * `opaque_weights` (one lookup when all share one, 255 over a backdrop), zeros kept. */
static inline void weigh_opaque(uint8_t *weights, const uint8_t *opaque_weights, size_t n) {
    uint64_t weight = 0;
    memcpy(&weight, weights, n);
    if (weight == 0) return;
    uint64_t same = 0x0101010101010101ull * (weight & 0xFF);
    if (weight == (n == 8 ? same : same & 0xFFFFFFFFull)) {
        memset(weights, opaque_weights[weight & 0xFF], n);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        if (weights[k] != 0) weights[k] = opaque_weights[weights[k]];
    }
}

#endif

__attribute__((always_inline))
static inline size_t solid_blend_body(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint8_t *coverage, size_t count,
                                      const uint32_t *table, const uint8_t *opaque_weights, const uint32_t *sources, size_t source_count,
                                      int claims, uint8_t element, uint32_t *last_pixel, uint32_t *last_result, const int level) {
    uint32_t last = *last_pixel, result = *last_result;
    (void)level;
    (void)sources;
    (void)source_count;
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // The sources' constants once (a fill composes at most a few colours; more go one by one).
    blend_source prepared[8];
    size_t vector_sources = source_count <= 8 ? source_count : 0;
    for (size_t i = 0; i < vector_sources; i++) {
        prepared[i].inv = _mm_set1_epi16((short)(255 - (sources[i] >> 24)));
        prepared[i].channels = _mm_unpacklo_epi8(_mm_set1_epi32((int)sources[i]), _mm_setzero_si128());
    }
#endif
    size_t c = 0;
    while (c < count) {
        // Eight pixels at once where the fill is most of its time: full coverage, no weight, and
        // the destination the last one blended (a flat colour under a dimming layer or a tint).
        if (c + 8 <= count) {
            uint64_t cover, weight;
            memcpy(&cover, coverage + c, 8);
            memcpy(&weight, weights + c, 8);
            if (cover == ~(uint64_t)0 && weight == 0) {
                uint32_t differ = 0;
                for (int k = 0; k < 8; k++) differ |= pixels[c + k] ^ last;
                if (differ == 0) {
                    for (int k = 0; k < 8; k++) pixels[c + k] = result;
                    if (claims) memset(elements + c, element, 8);
                    c += 8;
                    continue;
                }
            }
        }
#if defined(NR_AVX2)
        // Eight such pixels (below) at once, where the CPU has AVX2.
        if (level >= 2 && vector_sources > 0 && c + 8 <= count && tables_cover(pixels + c, weights + c, coverage + c, 8)) {
            blend8_at(pixels + c, prepared, vector_sources);
            weigh_opaque(weights + c, opaque_weights, 8);
            if (claims) memset(elements + c, element, 8);
            c += 8;
            continue;
        }
#endif
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // Four pixels of full coverage that the tables cover (no weight, or opaque), computed
        // together: the destinations under a bar's tint are its blurred backdrop, all different.
        if (level >= 1 && vector_sources > 0 && c + 4 <= count && tables_cover(pixels + c, weights + c, coverage + c, 4)) {
            __m128i d = _mm_loadu_si128((const __m128i *)(pixels + c));
            _mm_storeu_si128((__m128i *)(pixels + c), blend4(d, prepared, vector_sources));
            weigh_opaque(weights + c, opaque_weights, 4);
            if (claims) memset(elements + c, element, 4);
            c += 4;
            continue;
        }
#endif
        uint8_t cov = coverage[c];
        if (cov == 255) {
            uint32_t d = pixels[c];
            uint8_t wd = weights[c];
            if (wd == 0 || d >> 24 == 255) {
                if (d != last) {
                    last = d;
                    result = table[d & 0xFF] | table[256 + ((d >> 8) & 0xFF)] | table[512 + ((d >> 16) & 0xFF)]
                        | table[768 + (d >> 24)];
                }
                pixels[c] = result;
                if (wd != 0) weights[c] = opaque_weights[wd];
                if (claims) elements[c] = element;
                c++;
                continue;
            }
        } else if (cov == 0) {
            c++;
            continue;
        }
        break;
    }
    *last_pixel = last;
    *last_result = result;
    return c;
}

#if defined(NR_AVX2)
__attribute__((target("avx2")))
static size_t solid_blend_avx2(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint8_t *coverage, size_t count,
                               const uint32_t *table, const uint8_t *opaque_weights, const uint32_t *sources, size_t source_count,
                               int claims, uint8_t element, uint32_t *last_pixel, uint32_t *last_result) {
    return solid_blend_body(pixels, weights, elements, coverage, count, table, opaque_weights, sources, source_count, claims,
                            element, last_pixel, last_result, 2);
}
#endif

size_t nr_solid_blend_level(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint8_t *coverage, size_t count,
                            const uint32_t *table, const uint8_t *opaque_weights, const uint32_t *sources, size_t source_count,
                            int claims, uint8_t element, uint32_t *last_pixel, uint32_t *last_result, int level) {
#if defined(NR_AVX2)
    if (level >= 2) {
        return solid_blend_avx2(pixels, weights, elements, coverage, count, table, opaque_weights, sources, source_count, claims,
                                element, last_pixel, last_result);
    }
#endif
    return solid_blend_body(pixels, weights, elements, coverage, count, table, opaque_weights, sources, source_count, claims,
                            element, last_pixel, last_result, level >= 1 ? 1 : 0);
}

size_t nr_solid_blend(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint8_t *coverage, size_t count,
                      const uint32_t *table, const uint8_t *opaque_weights, const uint32_t *sources, size_t source_count,
                      int claims, uint8_t element, uint32_t *last_pixel, uint32_t *last_result) {
    return nr_solid_blend_level(pixels, weights, elements, coverage, count, table, opaque_weights, sources, source_count,
                                claims, element, last_pixel, last_result, nr_simd_level());
}

#if defined(__SSE2__)
// One output channel of four pixels: the products of r and b as one 16-bit pair a lane and of g
// and alpha as another (_mm_madd_epi16 multiplies and adds the pairs into 32 bits), rounded and
// shifted as Swift's `>> 12` on Int, then clamped to 0...alpha.
static inline __m128i saturate_channel(__m128i rb, __m128i ga, __m128i alpha, int32_t mr, int32_t mg, int32_t mb) {
    __m128i c = _mm_add_epi32(_mm_madd_epi16(rb, _mm_set1_epi32((int32_t)((uint32_t)(uint16_t)mr | (uint32_t)(uint16_t)mb << 16))),
                              _mm_madd_epi16(ga, _mm_set1_epi32((int32_t)(uint32_t)(uint16_t)mg)));
    c = _mm_srai_epi32(_mm_add_epi32(c, _mm_set1_epi32(2048)), 12);
    c = _mm_andnot_si128(_mm_srai_epi32(c, 31), c);                        // below 0: 0
    __m128i over = _mm_cmpgt_epi32(c, alpha);                               // above alpha: alpha
    return _mm_or_si128(_mm_and_si128(over, alpha), _mm_andnot_si128(over, c));
}
#endif

#if defined(__SSE2__)
/* Each pixel's colour channels clamped to its alpha (nr_clamp_to_alpha's bytewise minimum). */
static inline __m128i clamp4(__m128i p) {
    __m128i a = _mm_srli_epi32(p, 24);
    a = _mm_or_si128(a, _mm_slli_epi32(a, 8));
    return _mm_min_epu8(p, _mm_or_si128(a, _mm_slli_epi32(a, 16)));
}
#endif

#if defined(NR_AVX2)
__attribute__((target("avx2")))
static inline __m256i saturate_channel8(__m256i rb, __m256i ga, __m256i alpha, int32_t mr, int32_t mg, int32_t mb) {
    __m256i c = _mm256_add_epi32(_mm256_madd_epi16(rb, _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)mr | (uint32_t)(uint16_t)mb << 16))),
                                 _mm256_madd_epi16(ga, _mm256_set1_epi32((int32_t)(uint32_t)(uint16_t)mg)));
    c = _mm256_srai_epi32(_mm256_add_epi32(c, _mm256_set1_epi32(2048)), 12);
    c = _mm256_andnot_si256(_mm256_srai_epi32(c, 31), c);
    __m256i over = _mm256_cmpgt_epi32(c, alpha);
    return _mm256_or_si256(_mm256_and_si256(over, alpha), _mm256_andnot_si256(over, c));
}

/* nr_saturate_level's loop, eight pixels at a time. */
__attribute__((target("avx2")))
static size_t saturate_avx2(const uint32_t *pixels, uint32_t *out, size_t count, const int32_t *m, int clamp) {
    const __m256i low = _mm256_set1_epi32(0x00FF00FF);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(pixels + i));
        if (clamp) {
            __m256i a = _mm256_srli_epi32(p, 24);
            a = _mm256_or_si256(a, _mm256_slli_epi32(a, 8));
            p = _mm256_min_epu8(p, _mm256_or_si256(a, _mm256_slli_epi32(a, 16)));
        }
        __m256i rb = _mm256_and_si256(p, low), ga = _mm256_and_si256(_mm256_srli_epi32(p, 8), low);
        __m256i alpha = _mm256_srli_epi32(p, 24);
        __m256i r = saturate_channel8(rb, ga, alpha, m[0], m[1], m[2]);
        __m256i g = saturate_channel8(rb, ga, alpha, m[3], m[4], m[5]);
        __m256i b = saturate_channel8(rb, ga, alpha, m[6], m[7], m[8]);
        __m256i v = _mm256_or_si256(_mm256_or_si256(r, _mm256_slli_epi32(g, 8)),
                                    _mm256_or_si256(_mm256_slli_epi32(b, 16), _mm256_slli_epi32(alpha, 24)));
        _mm256_storeu_si256((__m256i *)(out + i), v);
    }
    return i;
}
#endif

size_t nr_saturate_level(const uint32_t *pixels, uint32_t *out, size_t count, const int32_t *m, int clamp, int level) {
    size_t i = 0;
#if defined(NR_AVX2)
    if (level >= 2) i = saturate_avx2(pixels, out, count, m, clamp);
#endif
#if defined(__SSE2__)
    if (level >= 1) {
        const __m128i low = _mm_set1_epi32(0x00FF00FF);
        for (; i + 4 <= count; i += 4) {
            __m128i p = _mm_loadu_si128((const __m128i *)(pixels + i));
            if (clamp) p = clamp4(p);
            __m128i rb = _mm_and_si128(p, low), ga = _mm_and_si128(_mm_srli_epi32(p, 8), low);
            __m128i alpha = _mm_srli_epi32(p, 24);
            __m128i r = saturate_channel(rb, ga, alpha, m[0], m[1], m[2]);
            __m128i g = saturate_channel(rb, ga, alpha, m[3], m[4], m[5]);
            __m128i b = saturate_channel(rb, ga, alpha, m[6], m[7], m[8]);
            __m128i v = _mm_or_si128(_mm_or_si128(r, _mm_slli_epi32(g, 8)), _mm_or_si128(_mm_slli_epi32(b, 16), _mm_slli_epi32(alpha, 24)));
            _mm_storeu_si128((__m128i *)(out + i), v);
        }
    }
#else
    (void)pixels; (void)out; (void)count; (void)m; (void)clamp;
#endif
    (void)level;
    return i;
}

size_t nr_saturate(const uint32_t *pixels, uint32_t *out, size_t count, const int32_t *m) {
    return nr_saturate_level(pixels, out, count, m, 0, nr_simd_level());
}

void nr_clamp_to_alpha(const uint32_t *pixels, uint32_t *out, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    // Alpha spread to every byte of its pixel, then the bytewise minimum: alpha stays alpha.
    for (; i + 4 <= count; i += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(pixels + i));
        __m128i a = _mm_srli_epi32(p, 24);
        a = _mm_or_si128(a, _mm_slli_epi32(a, 8));
        a = _mm_or_si128(a, _mm_slli_epi32(a, 16));
        _mm_storeu_si128((__m128i *)(out + i), _mm_min_epu8(p, a));
    }
#endif
    for (; i < count; i++) {
        uint32_t p = pixels[i], a = p >> 24;
        uint32_t r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF;
        if (a < r) r = a;
        if (a < g) g = a;
        if (a < b) b = a;
        out[i] = r | g << 8 | b << 16 | a << 24;
    }
}

int nr_words_equal(const uint32_t *a, const uint32_t *b, size_t count) {
    return memcmp(a, b, count * sizeof(uint32_t)) == 0;
}

#if defined(NR_AVX2)
/* nr_transpose with 8 x 8 blocks: eight rows loaded, transposed by unpacks within the 128-bit
 * halves and a swap of halves, eight columns stored; the edges of each tile a word at a time. */
__attribute__((target("avx2")))
static void transpose_avx2(const uint32_t *src, size_t width, size_t height, uint32_t *out) {
    const size_t tile = 32;
    for (size_t y0 = 0; y0 < height; y0 += tile) {
        size_t y_end = height < y0 + tile ? height : y0 + tile;
        for (size_t x0 = 0; x0 < width; x0 += tile) {
            size_t x_end = width < x0 + tile ? width : x0 + tile;
            size_t x = x0;
            for (; x + 8 <= x_end; x += 8) {
                size_t y = y0;
                for (; y + 8 <= y_end; y += 8) {
                    const uint32_t *in = src + y * width + x;
                    __m256i r0 = _mm256_loadu_si256((const __m256i *)in), r1 = _mm256_loadu_si256((const __m256i *)(in + width));
                    __m256i r2 = _mm256_loadu_si256((const __m256i *)(in + 2 * width)), r3 = _mm256_loadu_si256((const __m256i *)(in + 3 * width));
                    __m256i r4 = _mm256_loadu_si256((const __m256i *)(in + 4 * width)), r5 = _mm256_loadu_si256((const __m256i *)(in + 5 * width));
                    __m256i r6 = _mm256_loadu_si256((const __m256i *)(in + 6 * width)), r7 = _mm256_loadu_si256((const __m256i *)(in + 7 * width));
                    __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
                    __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
                    __m256i t4 = _mm256_unpacklo_epi32(r4, r5), t5 = _mm256_unpackhi_epi32(r4, r5);
                    __m256i t6 = _mm256_unpacklo_epi32(r6, r7), t7 = _mm256_unpackhi_epi32(r6, r7);
                    __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
                    __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
                    __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
                    __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
                    uint32_t *o = out + x * height + y;
                    _mm256_storeu_si256((__m256i *)o, _mm256_permute2x128_si256(u0, u4, 0x20));
                    _mm256_storeu_si256((__m256i *)(o + height), _mm256_permute2x128_si256(u1, u5, 0x20));
                    _mm256_storeu_si256((__m256i *)(o + 2 * height), _mm256_permute2x128_si256(u2, u6, 0x20));
                    _mm256_storeu_si256((__m256i *)(o + 3 * height), _mm256_permute2x128_si256(u3, u7, 0x20));
                    _mm256_storeu_si256((__m256i *)(o + 4 * height), _mm256_permute2x128_si256(u0, u4, 0x31));
                    _mm256_storeu_si256((__m256i *)(o + 5 * height), _mm256_permute2x128_si256(u1, u5, 0x31));
                    _mm256_storeu_si256((__m256i *)(o + 6 * height), _mm256_permute2x128_si256(u2, u6, 0x31));
                    _mm256_storeu_si256((__m256i *)(o + 7 * height), _mm256_permute2x128_si256(u3, u7, 0x31));
                }
                for (; y < y_end; y++) {
                    for (size_t k = 0; k < 8; k++) out[(x + k) * height + y] = src[y * width + x + k];
                }
            }
            for (; x < x_end; x++) {
                for (size_t y = y0; y < y_end; y++) out[x * height + y] = src[y * width + x];
            }
        }
    }
}
#endif

void nr_transpose(const uint32_t *src, size_t width, size_t height, uint32_t *out) {
    nr_transpose_level(src, width, height, out, nr_simd_level());
}

void nr_transpose_level(const uint32_t *src, size_t width, size_t height, uint32_t *out, int level) {
    (void)level;
#if defined(NR_AVX2)
    if (level >= 2) {
        transpose_avx2(src, width, height, out);
        return;
    }
#endif
    // Tiles of 32 x 32; inside them blocks of 4 x 4 with SSE2 (four loads, the 4 x 4 transpose
    // by unpacks, four stores), and the edges a word at a time.
    const size_t tile = 32;
    for (size_t y0 = 0; y0 < height; y0 += tile) {
        size_t y_end = height < y0 + tile ? height : y0 + tile;
        for (size_t x0 = 0; x0 < width; x0 += tile) {
            size_t x_end = width < x0 + tile ? width : x0 + tile;
            size_t x = x0;
#if defined(__SSE2__)
            for (; level >= 1 && x + 4 <= x_end; x += 4) {
                size_t y = y0;
                for (; y + 4 <= y_end; y += 4) {
                    const uint32_t *in = src + y * width + x;
                    __m128i r0 = _mm_loadu_si128((const __m128i *)in);
                    __m128i r1 = _mm_loadu_si128((const __m128i *)(in + width));
                    __m128i r2 = _mm_loadu_si128((const __m128i *)(in + 2 * width));
                    __m128i r3 = _mm_loadu_si128((const __m128i *)(in + 3 * width));
                    __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
                    __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
                    uint32_t *o = out + x * height + y;
                    _mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi64(t0, t1));
                    _mm_storeu_si128((__m128i *)(o + height), _mm_unpackhi_epi64(t0, t1));
                    _mm_storeu_si128((__m128i *)(o + 2 * height), _mm_unpacklo_epi64(t2, t3));
                    _mm_storeu_si128((__m128i *)(o + 3 * height), _mm_unpackhi_epi64(t2, t3));
                }
                for (; y < y_end; y++) {
                    for (size_t k = 0; k < 4; k++) out[(x + k) * height + y] = src[y * width + x + k];
                }
            }
#endif
            for (; x < x_end; x++) {
                for (size_t y = y0; y < y_end; y++) out[x * height + y] = src[y * width + x];
            }
        }
    }
}

void nr_bilinear_row(const uint32_t *row0, const uint32_t *row1, const intptr_t *columns, uint32_t ay,
                     uint32_t *out, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    // Per channel, top = p00 (256 - ax) + p10 ax by one multiply-add of 16-bit pairs (at most
    // 65,280), bottom likewise; then top (256 - ay) + bottom ay + 32,768 in single floats, whose
    // every value here is an integer below 2^24 (at most 16,744,448) and so exact: the same
    // integers as the scalar loop, shifted right by 16.
    const __m128i zero = _mm_setzero_si128();
    const __m128 wy0 = _mm_set1_ps((float)(256 - ay)), wy1 = _mm_set1_ps((float)ay), half = _mm_set1_ps(32768.0f);
    for (; i < count; i++) {
        const intptr_t *c = columns + 3 * i;
        uint32_t ax = (uint32_t)c[2];
        __m128i wx = _mm_set1_epi32((int)(ax << 16 | (256 - ax)));
        __m128i t = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)row0[c[0]]), _mm_cvtsi32_si128((int)row0[c[1]])), zero);
        __m128i b = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)row1[c[0]]), _mm_cvtsi32_si128((int)row1[c[1]])), zero);
        __m128 top = _mm_cvtepi32_ps(_mm_madd_epi16(t, wx)), bottom = _mm_cvtepi32_ps(_mm_madd_epi16(b, wx));
        __m128 v = _mm_add_ps(_mm_add_ps(_mm_mul_ps(top, wy0), _mm_mul_ps(bottom, wy1)), half);
        __m128i q = _mm_srli_epi32(_mm_cvttps_epi32(v), 16);
        q = _mm_packs_epi32(q, q);
        out[i] = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(q, q));
    }
#endif
    for (; i < count; i++) {
        const intptr_t *c = columns + 3 * i;
        uint32_t ax = (uint32_t)c[2];
        uint32_t p00 = row0[c[0]], p10 = row0[c[1]], p01 = row1[c[0]], p11 = row1[c[1]], v = 0;
        for (uint32_t s = 0; s < 32; s += 8) {
            uint32_t top = ((p00 >> s) & 0xFF) * (256 - ax) + ((p10 >> s) & 0xFF) * ax;
            uint32_t bottom = ((p01 >> s) & 0xFF) * (256 - ax) + ((p11 >> s) & 0xFF) * ax;
            uint32_t x = (top * (256 - ay) + bottom * ay + 32768) >> 16;
            v |= (x < 255 ? x : 255) << s;
        }
        out[i] = v;
    }
}

static inline uint64_t hash_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t nr_hash2(const uint8_t *bytes, size_t count, uint64_t seed) {
    const uint64_t k = 0x9E3779B97F4A7C15ull;
    uint64_t h0 = seed ^ k, h1 = seed ^ 0xBF58476D1CE4E5B9ull, h2 = seed ^ 0x94D049BB133111EBull, h3 = seed ^ (uint64_t)count;
    size_t blocks = count / 32;
    for (size_t b = 0; b < blocks; b++) {
        uint64_t w[4];
        memcpy(w, bytes + 32 * b, 32);
        h0 = (h0 ^ w[0]) * k; h0 ^= h0 >> 29;
        h1 = (h1 ^ w[1]) * k; h1 ^= h1 >> 29;
        h2 = (h2 ^ w[2]) * k; h2 ^= h2 >> 29;
        h3 = (h3 ^ w[3]) * k; h3 ^= h3 >> 29;
    }
    uint64_t tail = 0xCBF29CE484222325ull;
    for (size_t i = blocks * 32; i < count; i++) tail = (tail ^ bytes[i]) * 0x100000001B3ull;
    return hash_mix(hash_mix(hash_mix(hash_mix(hash_mix(h0 ^ tail) ^ h1) ^ h2) ^ h3) ^ (uint64_t)count);
}

#if defined(__SSE2__)
/* One box pass of Raster's `Blur.boxPass` over `count` outputs, a pixel's four channels in the
 * four 32-bit lanes of one register: the window's sum, then (sum R + 2^23) >> 24 per lane (the
 * 64-bit products of two lanes at a time; each is below 2^32, as Blur.box3 argues) masked to a
 * byte, then the sum moved along one pixel. */
static inline void box_pass_sse2(const __m128i *ext, __m128i *out, size_t count, size_t d, uint32_t reciprocal) {
    const __m128i r = _mm_set1_epi32((int)reciprocal), half = _mm_set1_epi64x(1 << 23), byte = _mm_set1_epi32(0xFF);
    __m128i s = _mm_setzero_si128();
    for (size_t i = 0; i < d; i++) s = _mm_add_epi32(s, _mm_loadu_si128(ext + i));
    for (size_t i = 0; i < count; i++) {
        __m128i even = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epu32(s, r), half), 24);
        __m128i odd = _mm_srli_epi64(_mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64(s, 32), r), half), 24);
        _mm_storeu_si128(out + i, _mm_and_si128(_mm_or_si128(even, _mm_slli_epi64(odd, 32)), byte));
        s = _mm_add_epi32(s, _mm_sub_epi32(_mm_loadu_si128(ext + i + d), _mm_loadu_si128(ext + i)));
    }
}

static inline void box_extend_sse2(__m128i *e, size_t r, size_t count, size_t extended) {
    __m128i first = _mm_loadu_si128(e + r), last = _mm_loadu_si128(e + r + count - 1);
    for (size_t i = 0; i < r; i++) _mm_storeu_si128(e + i, first);
    for (size_t i = r + count; i < extended; i++) _mm_storeu_si128(e + i, last);
}
#endif

int nr_box3(const uint32_t *line, uint32_t *out, size_t count, size_t d, uint32_t reciprocal, void *scratch) {
#if defined(__SSE2__)
    if (count == 0 || d == 0) return 1;
    const size_t r = d / 2, extended = count + d;
    __m128i *a = (__m128i *)scratch, *b = a + extended;
    const __m128i zero = _mm_setzero_si128();
    __m128i first = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)line[0]), zero), zero);
    __m128i last = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)line[count - 1]), zero), zero);
    for (size_t i = 0; i < r; i++) _mm_storeu_si128(a + i, first);
    for (size_t i = 0; i < count; i++)
        _mm_storeu_si128(a + r + i, _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)line[i]), zero), zero));
    for (size_t i = r + count; i < extended; i++) _mm_storeu_si128(a + i, last);
    box_pass_sse2(a, b + r, count, d, reciprocal);
    box_extend_sse2(b, r, count, extended);
    box_pass_sse2(b, a + r, count, d, reciprocal);
    box_extend_sse2(a, r, count, extended);
    box_pass_sse2(a, b, count, d, reciprocal);
    for (size_t i = 0; i < count; i++) {
        __m128i q = _mm_loadu_si128(b + i);
        q = _mm_packs_epi32(q, q);
        out[i] = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(q, q));
    }
    return 1;
#else
    (void)line; (void)out; (void)count; (void)d; (void)reciprocal; (void)scratch;
    return 0;
#endif
}

#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* blendSpan for four pixels of a fill whose destinations and sources carry no weight (the
 * weights stay 0): each source scaled by its coverage, div255 of each channel times it (255
 * leaves it as it is); where the scaled alpha is 0 the destination stays (blendSpan skips it);
 * elsewhere, per channel, alpha included, s + div255(d (255 - sa)) at most 255. Sixteen-bit
 * lanes hold every intermediate, as in blend4; a pixel's coverage and 255 - alpha are spread
 * over its four lanes. The scaled sources go to `scaled`, for the weights and claims. */
static inline void over4_at(uint32_t *p, const uint32_t *src, const uint8_t *coverage, uint32_t *scaled) {
    const __m128i zero = _mm_setzero_si128(), round = _mm_set1_epi16(128), top = _mm_set1_epi16(255);
    uint32_t c4;
    memcpy(&c4, coverage, 4);
    __m128i cov = _mm_cvtsi32_si128((int)c4);
    cov = _mm_unpacklo_epi8(cov, cov);
    cov = _mm_unpacklo_epi16(cov, cov);
    __m128i s = _mm_loadu_si128((const __m128i *)src), d = _mm_loadu_si128((const __m128i *)p);
    __m128i x = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(s, zero), _mm_unpacklo_epi8(cov, zero)), round);
    __m128i sl = _mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8);
    x = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(s, zero), _mm_unpackhi_epi8(cov, zero)), round);
    __m128i sh = _mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8);
    __m128i il = _mm_sub_epi16(top, _mm_shufflehi_epi16(_mm_shufflelo_epi16(sl, 0xFF), 0xFF));
    __m128i ih = _mm_sub_epi16(top, _mm_shufflehi_epi16(_mm_shufflelo_epi16(sh, 0xFF), 0xFF));
    x = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(d, zero), il), round);
    __m128i lo = _mm_min_epi16(_mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8), sl), top);
    x = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(d, zero), ih), round);
    __m128i hi = _mm_min_epi16(_mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(x, _mm_srli_epi16(x, 8)), 8), sh), top);
    __m128i sc = _mm_packus_epi16(sl, sh);
    __m128i skip = _mm_cmpeq_epi32(_mm_srli_epi32(sc, 24), zero);
    __m128i out = _mm_or_si128(_mm_and_si128(skip, d), _mm_andnot_si128(skip, _mm_packus_epi16(lo, hi)));
    _mm_storeu_si128((__m128i *)p, out);
    _mm_storeu_si128((__m128i *)scaled, sc);
}
#endif

#if defined(NR_AVX2)
/* over4_at on eight pixels (each 128-bit half of the registers as over4_at's). */
__attribute__((target("avx2")))
static void over8_at(uint32_t *p, const uint32_t *src, const uint8_t *coverage, uint32_t *scaled) {
    const __m256i zero = _mm256_setzero_si256(), round = _mm256_set1_epi16(128), top = _mm256_set1_epi16(255);
    __m128i c8 = _mm_loadl_epi64((const __m128i *)coverage);
    c8 = _mm_unpacklo_epi8(c8, c8);
    __m256i cov = _mm256_set_m128i(_mm_unpackhi_epi16(c8, c8), _mm_unpacklo_epi16(c8, c8));
    __m256i s = _mm256_loadu_si256((const __m256i *)src), d = _mm256_loadu_si256((const __m256i *)p);
    __m256i x = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(s, zero), _mm256_unpacklo_epi8(cov, zero)), round);
    __m256i sl = _mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8);
    x = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(s, zero), _mm256_unpackhi_epi8(cov, zero)), round);
    __m256i sh = _mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8);
    __m256i il = _mm256_sub_epi16(top, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(sl, 0xFF), 0xFF));
    __m256i ih = _mm256_sub_epi16(top, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(sh, 0xFF), 0xFF));
    x = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d, zero), il), round);
    __m256i lo = _mm256_min_epi16(_mm256_add_epi16(_mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8), sl), top);
    x = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d, zero), ih), round);
    __m256i hi = _mm256_min_epi16(_mm256_add_epi16(_mm256_srli_epi16(_mm256_add_epi16(x, _mm256_srli_epi16(x, 8)), 8), sh), top);
    __m256i sc = _mm256_packus_epi16(sl, sh);
    __m256i skip = _mm256_cmpeq_epi32(_mm256_srli_epi32(sc, 24), zero);
    __m256i out = _mm256_or_si256(_mm256_and_si256(skip, d), _mm256_andnot_si256(skip, _mm256_packus_epi16(lo, hi)));
    _mm256_storeu_si256((__m256i *)p, out);
    _mm256_storeu_si256((__m256i *)scaled, sc);
}
#endif

#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Whether `n` (4 or 8) pixels of a fill can go through over4_at/over8_at: sources without
 * weight, over destinations without weight (content, text, a gradient or image over content) or
 * all opaque (text or a tint over a material bar's backdrop, whose weight is 255). */
static inline int vector_run(const uint32_t *pixels, const uint8_t *weights, const uint8_t *source_weights, size_t n) {
    uint64_t w = 0, ws = 0;
    memcpy(&w, weights, n);
    memcpy(&ws, source_weights, n);
    if (ws != 0) return 0;
    if (w == 0) return 1;
    uint32_t all = 0xFFFFFFFFu;
    for (size_t k = 0; k < n; k++) all &= pixels[k];
    return all >> 24 == 255;
}

/* The weights and elements of such pixels, as blendSpan gives them, from the scaled sources:
 * nothing changed where the scaled alpha is 0; weight 0 (the source's) and the element when
 * `claim_opaque` where it is 255; else a destination weight of 0 stays, another (over an opaque
 * destination: output alpha sa + (255 - sa) = 255) becomes (255 (255 - sa) wd + 65,025 / 2) /
 * 65,025, and the element is claimed at `claim_min_alpha`. */
static inline void weigh_run(uint8_t *weights, uint8_t *elements, const uint32_t *scaled, size_t n, uint8_t element,
                             int claim_opaque, uint32_t claim_min_alpha) {
    for (size_t k = 0; k < n; k++) {
        uint32_t sa = scaled[k] >> 24;
        if (sa == 0) continue;
        if (sa == 255) {
            weights[k] = 0;
            if (claim_opaque) elements[k] = element;
            continue;
        }
        uint32_t wd = weights[k];
        if (wd != 0) {
            uint32_t q = (255 * (255 - sa) * wd + 65025 / 2) / 65025;
            weights[k] = (uint8_t)(q < 255 ? q : 255);
        }
        if (sa >= claim_min_alpha) elements[k] = element;
    }
}

#endif

__attribute__((always_inline))
static inline void blend_span_body(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint32_t *src, const uint8_t *coverage,
                                   const uint8_t *source_weights, size_t count, int from_group, uint8_t element, int claim_opaque,
                                   uint32_t claim_min_alpha, const int level) {
    uint32_t last_s = 0, last_d = 0, last_ws = 0, last_wd = 0, last_pixel = 0;
    uint8_t last_weight = 0;
    int remembered = 0;
    size_t c = 0;
    (void)level;
    while (c < count) {
        // A fill's pixels that vector_run admits, several at a time; runs of zero coverage are
        // skipped below.
#if defined(NR_AVX2)
        if (level >= 2 && !from_group && c + 8 <= count && coverage[c] != 0
            && vector_run(pixels + c, weights + c, source_weights + c, 8)) {
            uint32_t scaled[8];
            over8_at(pixels + c, src + c, coverage + c, scaled);
            weigh_run(weights + c, elements + c, scaled, 8, element, claim_opaque, claim_min_alpha);
            c += 8;
            continue;
        }
#endif
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (level >= 1 && !from_group && c + 4 <= count && coverage[c] != 0
            && vector_run(pixels + c, weights + c, source_weights + c, 4)) {
            uint32_t scaled[4];
            over4_at(pixels + c, src + c, coverage + c, scaled);
            weigh_run(weights + c, elements + c, scaled, 4, element, claim_opaque, claim_min_alpha);
            c += 4;
            continue;
        }
#endif
        uint32_t s = src[c];
        uint32_t cov = coverage[c];
        if (from_group ? s == 0 : cov == 0) {
            // A fill's run of zero coverage is skipped whole.
            if (from_group) {
                c++;
                while (c < count && src[c] == 0) c++;
            } else {
                c += nr_leading_equal(coverage + c, count - c, 0);
            }
            continue;
        }
        if (cov < 255) {
            uint32_t x = (s & 0xFF) * cov + 128;
            uint32_t r0 = (x + (x >> 8)) >> 8;
            x = ((s >> 8) & 0xFF) * cov + 128;
            uint32_t g0 = (x + (x >> 8)) >> 8;
            x = ((s >> 16) & 0xFF) * cov + 128;
            uint32_t b0 = (x + (x >> 8)) >> 8;
            x = (s >> 24) * cov + 128;
            uint32_t a0 = (x + (x >> 8)) >> 8;
            s = r0 | g0 << 8 | b0 << 16 | a0 << 24;
        }
        uint32_t sa = s >> 24;
        if (!from_group && sa == 0) { c++; continue; }
        uint32_t ws = source_weights[c];
        if (sa == 255) {
            pixels[c] = s;
            weights[c] = (uint8_t)ws;
            if (claim_opaque) elements[c] = element;
            c++;
            continue;
        }
        uint32_t d = pixels[c];
        uint32_t wd = weights[c];
        if (remembered && s == last_s && d == last_d && ws == last_ws && wd == last_wd) {
            pixels[c] = last_pixel;
            weights[c] = last_weight;
            if (sa >= claim_min_alpha) elements[c] = element;
            c++;
            continue;
        }
        uint32_t inv = 255 - sa;
        uint32_t x = (d & 0xFF) * inv + 128;
        uint32_t r = (s & 0xFF) + ((x + (x >> 8)) >> 8);
        x = ((d >> 8) & 0xFF) * inv + 128;
        uint32_t g = ((s >> 8) & 0xFF) + ((x + (x >> 8)) >> 8);
        x = ((d >> 16) & 0xFF) * inv + 128;
        uint32_t b = ((s >> 16) & 0xFF) + ((x + (x >> 8)) >> 8);
        uint32_t da = d >> 24;
        x = da * inv + 128;
        uint32_t oa = sa + ((x + (x >> 8)) >> 8);
        if (r > 255) r = 255;
        if (g > 255) g = 255;
        if (b > 255) b = 255;
        uint32_t denominator = 255 * oa;
        if (oa > 255) oa = 255;
        uint32_t out = r | g << 8 | b << 16 | oa << 24;
        pixels[c] = out;
        uint8_t weight = (uint8_t)wd;
        if (ws != 0 || wd != 0) {
            if (denominator == 0) {
                weight = 0;
            } else {
                // An opaque result (the usual case) divides by a constant, which compiles to a
                // multiplication; the same quotient.
                uint32_t n = sa * ws * 255 + da * inv * wd;
                uint32_t q = denominator == 65025 ? (n + 65025 / 2) / 65025 : (n + denominator / 2) / denominator;
                weight = (uint8_t)(q < 255 ? q : 255);
            }
            weights[c] = weight;
        }
        if (sa >= claim_min_alpha) elements[c] = element;
        last_s = s; last_d = d; last_ws = ws; last_wd = wd;
        last_pixel = out; last_weight = weight; remembered = 1;
        c++;
    }
}

#if defined(NR_AVX2)
__attribute__((target("avx2")))
static void blend_span_avx2(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint32_t *src, const uint8_t *coverage,
                            const uint8_t *source_weights, size_t count, int from_group, uint8_t element, int claim_opaque,
                            uint32_t claim_min_alpha) {
    blend_span_body(pixels, weights, elements, src, coverage, source_weights, count, from_group, element, claim_opaque,
                    claim_min_alpha, 2);
}
#endif

void nr_blend_span_level(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint32_t *src, const uint8_t *coverage,
                         const uint8_t *source_weights, size_t count, int from_group, uint8_t element, int claim_opaque,
                         uint32_t claim_min_alpha, int level) {
#if defined(NR_AVX2)
    if (level >= 2) {
        blend_span_avx2(pixels, weights, elements, src, coverage, source_weights, count, from_group, element, claim_opaque,
                        claim_min_alpha);
        return;
    }
#endif
    blend_span_body(pixels, weights, elements, src, coverage, source_weights, count, from_group, element, claim_opaque,
                    claim_min_alpha, level >= 1 ? 1 : 0);
}

void nr_blend_span(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint32_t *src, const uint8_t *coverage,
                   const uint8_t *source_weights, size_t count, int from_group, uint8_t element, int claim_opaque,
                   uint32_t claim_min_alpha) {
    nr_blend_span_level(pixels, weights, elements, src, coverage, source_weights, count, from_group, element, claim_opaque,
                        claim_min_alpha, nr_simd_level());
}

size_t nr_alpha_run(const uint32_t *pixels, size_t count, int opaque) {
    size_t i = 0;
#if defined(__SSE2__)
    // Four pixels a step: their alphas compared with 255 at once.
    const __m128i full = _mm_set1_epi32(255);
    const int want = opaque ? 0xFFFF : 0;
    for (; i + 4 <= count; i += 4) {
        __m128i a = _mm_srli_epi32(_mm_loadu_si128((const __m128i *)(pixels + i)), 24);
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(a, full)) != want) break;
    }
#endif
    if (opaque) {
        while (i < count && pixels[i] >= 0xFF000000u) i++;
    } else {
        while (i < count && pixels[i] < 0xFF000000u) i++;
    }
    return i;
}

#if defined(NR_AVX2)
/* One box pass on two lines at once: each entry holds a pixel of the first line in its low four
 * 32-bit lanes and the same pixel of the second line in its high four. The products sum R +
 * 2^23 stay below 2^32 (Blur.box3), so the low 32 bits of the multiply are the product. */
__attribute__((target("avx2")))
static inline void box_pass_avx2(const __m256i *ext, __m256i *out, size_t count, size_t d, uint32_t reciprocal) {
    const __m256i r = _mm256_set1_epi32((int)reciprocal), half = _mm256_set1_epi32(1 << 23), byte = _mm256_set1_epi32(0xFF);
    __m256i s = _mm256_setzero_si256();
    for (size_t i = 0; i < d; i++) s = _mm256_add_epi32(s, _mm256_loadu_si256(ext + i));
    for (size_t i = 0; i < count; i++) {
        __m256i v = _mm256_srli_epi32(_mm256_add_epi32(_mm256_mullo_epi32(s, r), half), 24);
        _mm256_storeu_si256(out + i, _mm256_and_si256(v, byte));
        s = _mm256_add_epi32(s, _mm256_sub_epi32(_mm256_loadu_si256(ext + i + d), _mm256_loadu_si256(ext + i)));
    }
}

__attribute__((target("avx2")))
static inline void box_extend_avx2(__m256i *e, size_t r, size_t count, size_t extended) {
    __m256i first = _mm256_loadu_si256(e + r), last = _mm256_loadu_si256(e + r + count - 1);
    for (size_t i = 0; i < r; i++) _mm256_storeu_si256(e + i, first);
    for (size_t i = r + count; i < extended; i++) _mm256_storeu_si256(e + i, last);
}

__attribute__((target("avx2")))
static void box3_pair_avx2(const uint32_t *a_in, uint32_t *a_out, const uint32_t *b_in, uint32_t *b_out, size_t count, size_t d,
                           uint32_t reciprocal, void *scratch) {
    const size_t r = d / 2, extended = count + d;
    __m256i *a = (__m256i *)scratch, *b = a + extended;
#define NR_UNPACK2(i) _mm256_cvtepu8_epi32(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a_in[i]), _mm_cvtsi32_si128((int)b_in[i])))
    __m256i first = NR_UNPACK2(0), last = NR_UNPACK2(count - 1);
    for (size_t i = 0; i < r; i++) _mm256_storeu_si256(a + i, first);
    for (size_t i = 0; i < count; i++) _mm256_storeu_si256(a + r + i, NR_UNPACK2(i));
    for (size_t i = r + count; i < extended; i++) _mm256_storeu_si256(a + i, last);
#undef NR_UNPACK2
    box_pass_avx2(a, b + r, count, d, reciprocal);
    box_extend_avx2(b, r, count, extended);
    box_pass_avx2(b, a + r, count, d, reciprocal);
    box_extend_avx2(a, r, count, extended);
    box_pass_avx2(a, b, count, d, reciprocal);
    for (size_t i = 0; i < count; i++) {
        __m256i q = _mm256_loadu_si256(b + i);
        q = _mm256_packus_epi16(_mm256_packus_epi32(q, q), _mm256_setzero_si256());
        a_out[i] = (uint32_t)_mm256_cvtsi256_si32(q);
        b_out[i] = (uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(q, 1));
    }
}
#endif

int nr_box3_pair(const uint32_t *a_in, uint32_t *a_out, const uint32_t *b_in, uint32_t *b_out, size_t count, size_t d,
                 uint32_t reciprocal, void *scratch, int level) {
#if defined(NR_AVX2)
    if (level >= 2 && count > 0 && d > 0) {
        box3_pair_avx2(a_in, a_out, b_in, b_out, count, d, reciprocal, scratch);
        return 1;
    }
#endif
    (void)a_in; (void)a_out; (void)b_in; (void)b_out; (void)count; (void)d; (void)reciprocal; (void)scratch; (void)level;
    return 0;
}
