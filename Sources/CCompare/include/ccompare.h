#ifndef NAVREEL_CCOMPARE_H
#define NAVREEL_CCOMPARE_H

#include <stdint.h>

/* pixelmatch's anti-aliasing test (mapbox/pixelmatch `antialiased`, after V. Vyšniauskas 2009)
 * for a pixel with all eight neighbours: 0 < x < width - 1, 0 < y < height - 1, in RGBA8
 * images of width x height pixels, rows packed. `other` is the image compared with, for the
 * sibling test. Returns 1 when the pixel of `image` looks anti-aliased, else 0.
 *
 * The same answers as pixelmatch's loop (Compare/AntiAliasing.swift explains the form: all eight
 * brightness deltas, zeros counted, the extremes by min and max, the first neighbour holding each
 * by bit masks), in C so that the masks are vector compares instead of a tree of branches. */
int nr_interior_antialiased(const uint8_t *image, const uint8_t *other, int64_t x, int64_t y,
                            int64_t width, int64_t height);

/* The same with the scalar masks (what machines without SSE2 run): for tests. */
int nr_interior_antialiased_scalar(const uint8_t *image, const uint8_t *other, int64_t x, int64_t y,
                                   int64_t width, int64_t height);

/* The Y pixelmatch gives an RGBA8 pixel (blended over white when translucent), as the test
 * above computes it: exposed for tests. */
double nr_pixel_brightness(const uint8_t *pixel);

/* The faded-grey diff palette index (DiffPalette.step) of `count` RGBA8 pixels into `out`:
 * AVX2 where the CPU has it, else the baseline loop. */
void nr_fade_run(const uint8_t *pixels, uint8_t *out, int64_t count);

/* The same for `count` pixels of `channels` bytes: 4 (RGBA8, as nr_fade_run), 3 (RGB8, opaque:
 * eight a step spread to RGBA8 in AVX2 registers) or 1 (grey, opaque), read as the RGBA8 pixel
 * with alpha 255 (widened a few hundred at a time in a buffer on the stack without AVX2). For a
 * plain PNG's own rows: the diff image of a file compared with itself (issue 17). */
void nr_fade_run_packed(const uint8_t *pixels, int channels, uint8_t *out, int64_t count);

/* 1 when nr_fade_run takes the AVX2 loop, 0 when the baseline one: for tests. */
int nr_fade_run_vectorised(void);

/* The baseline loop alone: for tests. */
void nr_fade_run_baseline(const uint8_t *pixels, uint8_t *out, int64_t count);

#endif
