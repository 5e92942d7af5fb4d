#include "ccompare.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Every product and sum rounded on its own, as Swift and JavaScript do: a fused multiply-add
 * would round differently and change which deltas tie. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* pixelmatch's rgb2y coefficients (YIQ's Y). */
#define NR_YR 0.29889531
#define NR_YG 0.58662247
#define NR_YB 0.11448223

static inline uint32_t pixel_word(const uint8_t *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* Y of an opaque pixel: (r * YR + g * YG) + b * YB, the order pixelmatch and Swift evaluate. */
static inline double y_opaque(const uint8_t *p) {
    return (double)p[0] * NR_YR + (double)p[1] * NR_YG + (double)p[2] * NR_YB;
}

/* Y of a pixel blended over white when translucent (pixelmatch's blend: 255 + (c - 255) * a,
 * a = alpha / 255). */
static inline double y_blended(const uint8_t *p) {
    double r = p[0], g = p[1], b = p[2];
    if (p[3] < 255) {
        double a = (double)p[3] / 255;
        r = 255 + (r - 255) * a;
        g = 255 + (g - 255) * a;
        b = 255 + (b - 255) * a;
    }
    return r * NR_YR + g * NR_YG + b * NR_YB;
}

double nr_pixel_brightness(const uint8_t *pixel) {
    return pixel[3] == 255 ? y_opaque(pixel) : y_blended(pixel);
}

/* How many of the up to eight neighbours of a border pixel (x, y) have exactly its colour. */
static int border_identical_neighbors(const uint8_t *image, int64_t x, int64_t y, int64_t width, int64_t height) {
    uint32_t c = pixel_word(image + 4 * (y * width + x));
    int n = 0;
    for (int64_t yy = y > 0 ? y - 1 : 0; yy <= (y < height - 1 ? y + 1 : height - 1); yy++) {
        for (int64_t xx = x > 0 ? x - 1 : 0; xx <= (x < width - 1 ? x + 1 : width - 1); xx++) {
            if ((xx != x || yy != y) && pixel_word(image + 4 * (yy * width + xx)) == c) n++;
        }
    }
    return n;
}

/* pixelmatch's hasManySiblings: three or more neighbours of its colour, the image's border
 * counting as one. Interior pixels inline (up to four calls a test), border ones in a loop. */
__attribute__((always_inline)) static inline int has_many_siblings(const uint8_t *image, int64_t x, int64_t y,
                                                                   int64_t width, int64_t height) {
    if (x > 0 && y > 0 && x < width - 1 && y < height - 1) {
        int64_t i = y * width + x;
        const uint8_t *up = image + 4 * (i - width), *row = image + 4 * i, *down = image + 4 * (i + width);
        uint32_t c = pixel_word(row);
        int n = (pixel_word(up - 4) == c) + (pixel_word(up) == c) + (pixel_word(up + 4) == c)
              + (pixel_word(row - 4) == c) + (pixel_word(row + 4) == c)
              + (pixel_word(down - 4) == c) + (pixel_word(down) == c) + (pixel_word(down + 4) == c);
        return n > 2;
    }
    return border_identical_neighbors(image, x, y, width, height) + 1 > 2;
}

/* The zero, lowest and highest masks of eight deltas (bit k: neighbour k), and the extremes.
 * No delta is NaN or -0 (c - y is +0 when they are equal), so min and max do not depend on the
 * order of pairing. `vector`: SSE2 compares where the compiler has them, else the scalar form,
 * which machines without SSE2 (arm64) run and tests compare with it. */
__attribute__((always_inline)) static inline void delta_masks(const double *d, int vector, unsigned *zeros, unsigned *lowest_bits,
                               unsigned *highest_bits, double *lowest, double *highest) {
#if defined(__SSE2__)
    if (vector) {
        __m128d v0 = _mm_loadu_pd(d), v1 = _mm_loadu_pd(d + 2), v2 = _mm_loadu_pd(d + 4), v3 = _mm_loadu_pd(d + 6);
#define NR_MASK(t) ((unsigned)_mm_movemask_pd(_mm_cmpeq_pd(v0, t)) | (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(v1, t)) << 2 \
                    | (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(v2, t)) << 4 | (unsigned)_mm_movemask_pd(_mm_cmpeq_pd(v3, t)) << 6)
        __m128d zero = _mm_setzero_pd();
        *zeros = NR_MASK(zero);
        __m128d lo = _mm_min_pd(_mm_min_pd(v0, v1), _mm_min_pd(v2, v3));
        __m128d hi = _mm_max_pd(_mm_max_pd(v0, v1), _mm_max_pd(v2, v3));
        *lowest = _mm_cvtsd_f64(_mm_min_sd(lo, _mm_unpackhi_pd(lo, lo)));
        *highest = _mm_cvtsd_f64(_mm_max_sd(hi, _mm_unpackhi_pd(hi, hi)));
        __m128d lo2 = _mm_set1_pd(*lowest), hi2 = _mm_set1_pd(*highest);
        *lowest_bits = NR_MASK(lo2);
        *highest_bits = NR_MASK(hi2);
#undef NR_MASK
        return;
    }
#else
    (void)vector;
#endif
    double low = d[0], high = d[0];
    for (int k = 1; k < 8; k++) {
        low = d[k] < low ? d[k] : low;
        high = d[k] > high ? d[k] : high;
    }
    unsigned z = 0, l = 0, h = 0;
    for (int k = 0; k < 8; k++) {
        z |= (unsigned)(d[k] == 0) << k;
        l |= (unsigned)(d[k] == low) << k;
        h |= (unsigned)(d[k] == high) << k;
    }
    *zeros = z;
    *lowest_bits = l;
    *highest_bits = h;
    *lowest = low;
    *highest = high;
}

__attribute__((always_inline)) static inline int interior_antialiased(const uint8_t *image, const uint8_t *other, int64_t x, int64_t y,
                                       int64_t width, int64_t height, int vector) {
    int64_t i = y * width + x;
    const uint8_t *up = image + 4 * (i - width), *row = image + 4 * i, *down = image + 4 * (i + width);
    /* Column-major, as pixelmatch visits them: (x-1, y-1), (x-1, y), (x-1, y+1), (x, y-1), ... */
    const uint8_t *n[8] = {up - 4, row - 4, down - 4, up, down, up + 4, row + 4, down + 4};
    double d[8];
    unsigned alpha = row[3];
    for (int k = 0; k < 8; k++) alpha &= n[k][3];
    if (alpha == 255) {
        double c = y_opaque(row);
        for (int k = 0; k < 8; k++) d[k] = c - y_opaque(n[k]);
    } else {
        double c = y_blended(row);
        for (int k = 0; k < 8; k++) d[k] = c - y_blended(n[k]);
    }
    unsigned zeros, lowest_bits, highest_bits;
    double lowest, highest;
    delta_masks(d, vector, &zeros, &lowest_bits, &highest_bits, &lowest, &highest);
    /* Three equal neighbours, or no darker or no brighter one (pixelmatch's min or max still 0). */
    if (__builtin_popcount(zeros) > 2 || !(lowest < 0) || !(highest > 0)) return 0;
    static const int8_t dx[8] = {-1, -1, -1, 0, 0, 1, 1, 1}, dy[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int low = __builtin_ctz(lowest_bits), high = __builtin_ctz(highest_bits);
    int64_t lx = x + dx[low], ly = y + dy[low], hx = x + dx[high], hy = y + dy[high];
    return (has_many_siblings(image, lx, ly, width, height) && has_many_siblings(other, lx, ly, width, height))
        || (has_many_siblings(image, hx, hy, width, height) && has_many_siblings(other, hx, hy, width, height));
}

int nr_interior_antialiased(const uint8_t *image, const uint8_t *other, int64_t x, int64_t y,
                            int64_t width, int64_t height) {
    return interior_antialiased(image, other, x, y, width, height, 1);
}

int nr_interior_antialiased_scalar(const uint8_t *image, const uint8_t *other, int64_t x, int64_t y,
                                   int64_t width, int64_t height) {
    return interior_antialiased(image, other, x, y, width, height, 0);
}

/* DiffPalette.step (Compare/DiffImage.swift) over a run of pixels: the faded-grey index of each,
 * Rec. 601 luminance in 8.8 fixed point blended over white, 32 steps. The same integer arithmetic
 * (no product passes 4,278,124,800, so 32 bits hold it): with AVX2's 32-bit multiplies eight
 * pixels a step where the CPU has them (checked once), else a plain loop the compiler may
 * vectorise. Swift's loop took 10 instructions a pixel (callgrind), a tenth of an identical 1x
 * diff with a diff image. */
static inline uint8_t fade_step(uint32_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint32_t r = w >> 24, g = (w >> 16) & 0xFF, b = (w >> 8) & 0xFF, a = w & 0xFF;
#else
    uint32_t r = w & 0xFF, g = (w >> 8) & 0xFF, b = (w >> 16) & 0xFF, a = w >> 24;
#endif
    uint32_t y = r * 77 + g * 150 + b * 29;
    uint32_t blended = 65280 - (((65280 - y) * a * 257) >> 16);
    return (uint8_t)(blended >> 11);
}

static void fade_run_baseline(const uint8_t *pixels, uint8_t *out, int64_t count) {
    for (int64_t j = 0; j < count; j++) {
        uint32_t w;
        memcpy(&w, pixels + 4 * j, 4);
        out[j] = fade_step(w);
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
/* Eight pixels a step in AVX2 intrinsics, written out rather than left to the vectoriser so that
 * a debug build (-O0, what the tests run) executes the same vector code as the release build;
 * the tail goes through fade_step. (65280 - y) * a fits 24 bits and times 257, as t + (t << 8),
 * 32 bits unsigned; the logical shifts read the lanes as unsigned. */
/* The fade of eight RGBA8 words into eight bytes at `out`. */
__attribute__((target("avx2"))) static inline void fade8_avx2(__m256i w, uint8_t *out) {
    const __m256i low = _mm256_set1_epi32(0xFF), top = _mm256_set1_epi32(65280);
    const __m256i kr = _mm256_set1_epi32(77), kg = _mm256_set1_epi32(150), kb = _mm256_set1_epi32(29);
    /* Byte 0 of each 32-bit lane to the lane's first four bytes, then lanes 0 and 4 together. */
    const __m256i gather = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                            0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
    __m256i r = _mm256_and_si256(w, low), g = _mm256_and_si256(_mm256_srli_epi32(w, 8), low);
    __m256i b = _mm256_and_si256(_mm256_srli_epi32(w, 16), low), a = _mm256_srli_epi32(w, 24);
    __m256i y = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(r, kr), _mm256_mullo_epi32(g, kg)),
                                 _mm256_mullo_epi32(b, kb));
    __m256i t = _mm256_mullo_epi32(_mm256_sub_epi32(top, y), a);
    t = _mm256_add_epi32(t, _mm256_slli_epi32(t, 8));
    __m256i blended = _mm256_sub_epi32(top, _mm256_srli_epi32(t, 16));
    __m256i index = _mm256_srli_epi32(blended, 11);
    __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(index, gather), join);
    _mm_storel_epi64((__m128i *)out, _mm256_castsi256_si128(bytes));
}

__attribute__((target("avx2"))) static void fade_run_avx2(const uint8_t *pixels, uint8_t *out, int64_t count) {
    int64_t j = 0;
    for (; j + 8 <= count; j += 8) fade8_avx2(_mm256_loadu_si256((const __m256i *)(pixels + 4 * j)), out + j);
    fade_run_baseline(pixels + 4 * j, out + j, count - j);
}

/* Eight RGB8 pixels a step: 32 bytes loaded (24 used, so the loop stops 11 pixels before the
 * end and the tail goes one pixel at a time), dwords 0-3 to the low lane and 3-6 to the high
 * one, then each lane's twelve bytes spread to four RGBA words with alpha 255. */
__attribute__((target("avx2"))) static void fade_run_rgb_avx2(const uint8_t *pixels, uint8_t *out, int64_t count) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6);
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    int64_t j = 0;
    for (; j + 11 <= count; j += 8) {
        __m256i raw = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(pixels + 3 * j)), lanes);
        fade8_avx2(_mm256_or_si256(_mm256_shuffle_epi8(raw, spread), alpha), out + j);
    }
    for (; j < count; j++) {
        const uint8_t *p = pixels + 3 * j;
        uint8_t word[4] = {p[0], p[1], p[2], 255};
        uint32_t w;
        memcpy(&w, word, 4);
        out[j] = fade_step(w);
    }
}

#include <cpuid.h>
/* AVX2 usable: the CPU has it (CPUID leaf 7, EBX bit 5) and the OS saves the YMM registers
 * (leaf 1, ECX bits 27 OSXSAVE and 28 AVX; XCR0 bits 1 and 2, read with XGETBV). Intel SDM
 * vol. 1, 14.3 "Detection of Intel AVX instructions". Not __builtin_cpu_supports: that links
 * libgcc's __cpu_indicator_init, a constructor running a dozen CPUID instructions at every start
 * of the program, each a trap to the hypervisor on a virtual machine (issue 17, start-up). */
static int has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || (c & (3u << 27)) != (3u << 27)) return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6u) != 6u) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) ? 1 : 0;
}
#endif

int nr_fade_run_vectorised(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    /* Threads may ask at once: a relaxed atomic (they would all store the same answer). */
    static int avx2 = -1;
    int known = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
    if (known < 0) {
        known = has_avx2();
        __atomic_store_n(&avx2, known, __ATOMIC_RELAXED);
    }
    return known;
#else
    return 0;
#endif
}

void nr_fade_run(const uint8_t *pixels, uint8_t *out, int64_t count) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (nr_fade_run_vectorised()) {
        fade_run_avx2(pixels, out, count);
        return;
    }
#endif
    fade_run_baseline(pixels, out, count);
}

void nr_fade_run_packed(const uint8_t *pixels, int channels, uint8_t *out, int64_t count) {
    if (channels == 4) {
        nr_fade_run(pixels, out, count);
        return;
    }
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (channels == 3 && nr_fade_run_vectorised()) {
        fade_run_rgb_avx2(pixels, out, count);
        return;
    }
#endif
    uint8_t wide[4 * 256];
    for (int64_t j = 0; j < count; j += 256) {
        int64_t n = count - j < 256 ? count - j : 256;
        const uint8_t *p = pixels + j * channels;
        if (channels == 3) {
            for (int64_t k = 0; k < n; k++) {
                wide[4 * k] = p[3 * k];
                wide[4 * k + 1] = p[3 * k + 1];
                wide[4 * k + 2] = p[3 * k + 2];
                wide[4 * k + 3] = 255;
            }
        } else {
            for (int64_t k = 0; k < n; k++) {
                wide[4 * k] = wide[4 * k + 1] = wide[4 * k + 2] = p[k];
                wide[4 * k + 3] = 255;
            }
        }
        nr_fade_run(wide, out + j, n);
    }
}

void nr_fade_run_baseline(const uint8_t *pixels, uint8_t *out, int64_t count) {
    fade_run_baseline(pixels, out, count);
}
