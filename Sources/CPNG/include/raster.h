// Per-pixel loops of Raster's canvas that a debug build of Swift runs far too slowly and a release
// build does not vectorise (issue 17). Plain C that any compiler and CPU run, written so that
// clang turns it into vector code for the target's baseline; nr_solid_blend adds SSE2
// intrinsics where the target has them (x86-64's baseline) and runs the same tables without.
#ifndef NAVREEL_RASTER_H
#define NAVREEL_RASTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Premultiplied pixels (r | g << 8 | b << 16 | a << 24) to straight RGBA bytes, `count` pixels:
/// opaque pixels as they are, transparent ones as 0, the rest divided by alpha rounded to nearest
/// (`(c * 255 + a / 2) / a`, at most 255). `out` holds 4 * count bytes; the two do not overlap.
void nr_unpremultiply(const uint32_t *pixels, uint8_t *out, size_t count);

/// Coverage bytes from accumulated signed areas (Raster's `CoverageMask.rasterize`): for each of
/// `height` rows of `stride` floats, the running sum of its first `width` values, as
/// min(1, |sum|) * 255 rounded half up (`roundedByte`), in Float arithmetic in the order
/// written (what `(min(1, abs(sum)) * 255).rounded()` gives in Swift). A row whose floats equal the
/// row above's bit for bit has its coverage. `coverage`
/// holds width * height bytes, every one written.
void nr_coverage_rows(const float *areas, size_t stride, size_t width, size_t height, uint8_t *coverage);

/// How many of the first `count` bytes at `bytes` equal `value`.
size_t nr_leading_equal(const uint8_t *bytes, size_t count, uint8_t value);

/// The table-driven loop of Raster's `SolidBlend.blend` (a fill of one translucent colour) from
/// the first of `count` pixels: a pixel of coverage 255 whose weight is 0 or whose alpha is 255
/// becomes `table[r] | table[256 + g] | table[512 + b] | table[768 + a]` (the last destination
/// and its result kept in `*last_pixel` and `*last_result`), a nonzero weight becomes
/// `opaque_weights[weight]`, the element `element` when `claims`; a pixel of coverage 0 is left.
/// Stops at the first pixel that is neither and returns its index (`count` when none): the
/// caller blends it one by one and calls again after it. `sources` are the premultiplied colours
/// the tables were made of, in order (translucent: alpha 1-254): with SSE2, runs of different
/// destinations are computed from them four at a time, with the same arithmetic.
size_t nr_solid_blend(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint8_t *coverage, size_t count,
                      const uint32_t *table, const uint8_t *opaque_weights, const uint32_t *sources, size_t source_count,
                      int claims, uint8_t element, uint32_t *last_pixel, uint32_t *last_result);

/// Raster's `Saturation.apply` on the first pixels of `count`, four at a time with SSE2: each
/// channel `(m[3c] r + m[3c+1] g + m[3c+2] b + 2048) >> 12` (arithmetic shift), then clamped to
/// 0...alpha, alpha kept; `matrix` is the 3 x 3 from `Saturation.matrix`, row by row, each entry
/// within +-32767. Returns how many pixels it wrote (a multiple of four; 0 without SSE2): the
/// caller converts the rest.
size_t nr_saturate(const uint32_t *pixels, uint32_t *out, size_t count, const int32_t *matrix);

/// `nr_saturate` at a given SIMD level (eight pixels a step with AVX2, four with SSE2, none
/// at 0), with `clamp` first clamping each input pixel's colour to its alpha as
/// `nr_clamp_to_alpha` does (a blurred backdrop's row in one pass). Returns how many pixels it
/// wrote, as `nr_saturate` does.
size_t nr_saturate_level(const uint32_t *pixels, uint32_t *out, size_t count, const int32_t *matrix, int clamp, int level);

/// Raster's `Blur.clampToAlpha`: each pixel with no colour channel above its alpha (channels
/// above it become it), `count` pixels from `pixels` to `out` (which may be the same).
void nr_clamp_to_alpha(const uint32_t *pixels, uint32_t *out, size_t count);

/// Whether `count` words at `a` and `b` are equal (memcmp).
int nr_words_equal(const uint32_t *a, const uint32_t *b, size_t count);

/// Raster's `Blur.transpose`: the `width` x `height` plane of words at `src` into `out` as
/// `height` x `width` (out[x * height + y] = src[y * width + x]); the two do not overlap.
void nr_transpose(const uint32_t *src, size_t width, size_t height, uint32_t *out);

/// `nr_transpose` at a given SIMD level (8 x 8 blocks with AVX2, 4 x 4 with SSE2, words at 0).
void nr_transpose_level(const uint32_t *src, size_t width, size_t height, uint32_t *out, int level);

/// One row of Raster's image shader (`ImageMapping.sample`): for each of `count` pixels, a
/// bilinear sample of the premultiplied rows `row0` and `row1` (the two source rows, the second
/// weighted `ay` of 256) at the columns `columns[3i]` and `columns[3i + 1]` (the second weighted
/// `columns[3i + 2]` of 256, 0...255). SSE2 where the target has it; the same integers either way.
void nr_bilinear_row(const uint32_t *row0, const uint32_t *row1, const intptr_t *columns, uint32_t ay,
                     uint32_t *out, size_t count);

/// Raster's `FastHash.hash2` (four lanes over 32-byte blocks, words in the machine's byte order,
/// an FNV-1a tail, SplitMix64's finaliser to join them): the same value, without the Swift
/// version's copy into scratch.
uint64_t nr_hash2(const uint8_t *bytes, size_t count, uint64_t seed);

/// Raster's `Blur.box3`: three centred box blurs of odd size `d` along `count` packed pixels
/// from `line` into `out` (which may be `line`), edges extended before each pass, each division
/// by d a multiplication by `reciprocal` (round(2^24 / d)) with rounding; a pixel's four
/// channels a register with SSE2. `scratch` holds 32 (count + d) bytes. Returns 0 (and does
/// nothing) without SSE2: the caller blurs.
int nr_box3(const uint32_t *line, uint32_t *out, size_t count, size_t d, uint32_t reciprocal, void *scratch);

/// Raster's `Canvas.blendSpan`: source-over of `count` premultiplied pixels, each first scaled
/// by its coverage, onto pixels carrying translucency weights and element ids, with the same
/// integer arithmetic and the same skips (a fill skips zero coverage and zero scaled alpha, a
/// group only sources that are zero). Canvas.swift says what each step means. All `count`
/// entries of `pixels`, `weights`, `source_weights`, `src` and `coverage` must be readable: the
/// vector paths read blocks of four or eight whole, skipped pixels included.
void nr_blend_span(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint32_t *src, const uint8_t *coverage,
                   const uint8_t *source_weights, size_t count, int from_group, uint8_t element, int claim_opaque,
                   uint32_t claim_min_alpha);

/// `nr_blend_span` at a given SIMD level: a fill's pixels whose sources carry no weight, over
/// destinations without weight or all opaque, blend eight a step with AVX2 (level 2) and four
/// with SSE2 (level 1), any coverage, by the same integers; level 0 is the plain loop.
void nr_blend_span_level(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint32_t *src, const uint8_t *coverage,
                         const uint8_t *source_weights, size_t count, int from_group, uint8_t element, int claim_opaque,
                         uint32_t claim_min_alpha, int level);

/// The vector instructions the per-pixel loops here use on this CPU: 2 for AVX2 (asked of CPUID
/// and XGETBV once), 1 for SSE2 (x86-64's baseline), 0 for plain C. Every level gives the same
/// bytes; the `_level` variants below take it as an argument (at most this) so tests can run
/// each, level 0 being the plain C loops.
int nr_simd_level(void);

/// `nr_solid_blend` at a given level (at most `nr_simd_level()`).
size_t nr_solid_blend_level(uint32_t *pixels, uint8_t *weights, uint8_t *elements, const uint8_t *coverage, size_t count,
                            const uint32_t *table, const uint8_t *opaque_weights, const uint32_t *sources, size_t source_count,
                            int claims, uint8_t element, uint32_t *last_pixel, uint32_t *last_result, int level);

/// How many of the first `count` pixels are opaque (alpha 255; `opaque` 1) or not (`opaque` 0):
/// the runs a group's composite copies or blends.
size_t nr_alpha_run(const uint32_t *pixels, size_t count, int opaque);

/// `nr_box3` of two lines of the same length at once, a pixel of each in one AVX2 register
/// (level 2): the same bytes as two calls. `scratch` holds 64 (count + d) bytes. Returns 0 (and
/// does nothing) below level 2.
int nr_box3_pair(const uint32_t *a_in, uint32_t *a_out, const uint32_t *b_in, uint32_t *b_out, size_t count, size_t d,
                 uint32_t reciprocal, void *scratch, int level);

#ifdef __cplusplus
}
#endif

#endif
