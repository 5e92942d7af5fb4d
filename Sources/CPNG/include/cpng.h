// CPNG: the only code in NavReel that calls libpng (and zlib).
//
// libpng reports errors by longjmp. Swift frames must never be crossed by a longjmp, so every
// libpng call lives in cpng.c behind a setjmp boundary, and each entry point here returns a status
// code plus a message instead. Callbacks into Swift (the sinks) are only ever invoked from code
// that does not longjmp past them: they run to completion and return before libpng continues.
#ifndef NAVREEL_CPNG_H
#define NAVREEL_CPNG_H

#include <stddef.h>
#include <stdint.h>

#include "team.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes. NR_OK is success; everything else comes with a message.
enum {
    NR_OK = 0,
    NR_ERR_LIBPNG = 1,     ///< libpng refused the data (message is libpng's)
    NR_ERR_LIMIT = 2,      ///< a size limit was exceeded
    NR_ERR_MEMORY = 3,     ///< allocation failed
    NR_ERR_ZLIB = 4,       ///< zlib refused the data
    NR_ERR_ARGUMENT = 5,   ///< the caller passed something inconsistent
};

/// Colour types the encoder writes (values are libpng's, re-exported because its macros do not
/// import into Swift).
extern const int NR_COLOR_GRAY;
extern const int NR_COLOR_RGB;
extern const int NR_COLOR_PALETTE;
extern const int NR_COLOR_GRAY_ALPHA;
extern const int NR_COLOR_RGBA;

/// Row filter masks (libpng's PNG_FILTER_*), combinable.
extern const int NR_FILTER_NONE;
extern const int NR_FILTER_SUB;
extern const int NR_FILTER_UP;
extern const int NR_FILTER_AVG;
extern const int NR_FILTER_PAETH;
extern const int NR_FILTER_ALL;

/// zlib strategies (zlib's Z_*), re-exported for the same reason.
extern const int NR_Z_DEFAULT_STRATEGY;
extern const int NR_Z_FILTERED;
extern const int NR_Z_HUFFMAN_ONLY;
extern const int NR_Z_RLE;

typedef struct nr_png_limits {
    uint32_t max_width;
    uint32_t max_height;
    uint64_t max_pixels;
    uint32_t max_chunk_bytes;   ///< largest ancillary chunk libpng may buffer
} nr_png_limits;

/// What the file declared, before conversion to RGBA8.
typedef struct nr_png_info {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    int warnings;   ///< how many warnings or benign errors libpng raised (e.g. data after the last row)
} nr_png_info;

/// Receivers for metadata met while decoding. Any of the function pointers may be NULL.
typedef struct nr_png_sink {
    void *context;
    /// A tEXt, zTXt or iTXt chunk; `value` is not NUL-terminated, use `length`.
    void (*text)(void *context, const char *key, const char *value, size_t length);
    /// A chunk libpng does not know (e.g. NavReel's private side-data chunk), CRC already checked.
    void (*chunk)(void *context, const char *name, const uint8_t *data, size_t length);
} nr_png_sink;

/// Decodes a whole PNG held in memory into RGBA8 (stored sample values kept: no gamma or
/// colour-profile conversion; 16-bit samples rounded to 8 bits). `dst` must hold
/// width * height * 4 bytes for the width and height the caller read from IHDR; a file whose
/// IHDR disagrees is refused.
int nr_png_decode(const uint8_t *data, size_t size, const nr_png_limits *limits,
                  uint8_t *dst, uint32_t width, uint32_t height,
                  const nr_png_sink *sink, nr_png_info *info,
                  char *message, size_t message_capacity);

typedef struct nr_png_text {
    const char *key;      ///< 1-79 Latin-1 characters
    const char *value;
    size_t value_length;
    int utf8;             ///< write as iTXt (UTF-8) instead of tEXt (Latin-1)
} nr_png_text;

typedef struct nr_png_encode_params {
    uint32_t width;
    uint32_t height;
    int color_type;               ///< NR_COLOR_RGBA, NR_COLOR_RGB, NR_COLOR_GRAY or NR_COLOR_PALETTE
    const uint8_t *rows;          ///< packed 8-bit samples for that colour type, `stride` bytes a row
    size_t stride;
    size_t rows_length;           ///< bytes at `rows` (checked: the last row must end within them)
    /// nr_png_encode_unfiltered only: each row of `rows` begins with its filter byte, 0 (filter
    /// type None), and `stride` is 1 + the row's bytes: the rows are deflated as they are, without
    /// being copied first.
    int rows_filtered;
    const uint8_t *palette_rgb;   ///< palette_count * 3 bytes (palette only)
    const uint8_t *palette_alpha; ///< trns_count bytes (palette only; may be NULL)
    int palette_count;
    int trns_count;
    int compression_level;        ///< zlib level 0-9
    int filters;                  ///< NR_FILTER_* mask
    int strategy;                 ///< NR_Z_* strategy
    const nr_png_text *texts;     ///< written before the image data
    int text_count;
    const char *private_name;     ///< 4-letter ancillary chunk name, or NULL
    const uint8_t *private_data;  ///< written after the image data
    size_t private_length;
    /// nr_png_encode_unfiltered only: a zlib stream of the unfiltered rows made beforehand (by
    /// nr_deflate_band), written as the IDAT chunk instead of compressing `rows` (which may then
    /// be NULL). NULL: compress `rows` with libdeflate.
    const uint8_t *idat;
    size_t idat_length;
} nr_png_encode_params;

/// Encodes to a malloc'd buffer (free it with nr_free). Writes no tIME chunk and nothing else
/// that varies between runs: the same parameters give the same bytes.
int nr_png_encode(const nr_png_encode_params *params, uint8_t **out, size_t *out_length,
                  char *message, size_t message_capacity);

/// Encodes like nr_png_encode, writing the file itself: rows without filters (filter type 0, so
/// `filters` and `strategy` must be NR_FILTER_NONE and NR_Z_DEFAULT_STRATEGY), the image data
/// compressed in one call of libdeflate at `compression_level` (0-12) as one IDAT chunk, then the
/// private chunk, then IEND. Chunk order as libpng's: IHDR, PLTE, tRNS, text, IDAT, private, IEND.
/// About twice as fast as zlib for the same size on NavReel's frames (PNGEncodeOptions.baseline).
int nr_png_encode_unfiltered(const nr_png_encode_params *params, uint8_t **out, size_t *out_length,
                             char *message, size_t message_capacity);

/// Rows `first_row ..< first_row + row_count` of an image (`row_bytes` bytes each, `stride` apart,
/// all within the `rows_length` bytes at `rows`, which is checked),
/// each after a filter byte 0, compressed as raw deflate (RFC 1951, no header or check value)
/// into a malloc'd buffer by zlib at `level` (0-9). The band ends byte-aligned and not final
/// (zlib's sync flush) unless `last`, so that bands compressed apart, concatenated in order
/// between a zlib header and the Adler-32 of all the rows, are one valid zlib stream (as pigz
/// writes them). `*adler` receives the Adler-32 of this band's filtered rows (nr_adler32_combine
/// joins them).
int nr_deflate_band(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row, uint32_t row_count,
                    int level, int last, uint8_t **out, size_t *out_length, uint32_t *adler,
                    char *message, size_t message_capacity);

/// nr_deflate_band's arguments, checks, sync flush, `last` and `*adler`, with NavReel's row-runs
/// encoder instead of zlib: matches are runs and the row above only, coded with Huffman codes
/// built for the band (cpng.c says why and what it measured). For palette diff images. Unlike
/// zlib's bands, a band after the first refers to the last row of the band before it: the
/// bands inflate only joined in order (as PNG.bandedStream joins them).
int nr_deflate_band_runs(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row,
                         uint32_t row_count, int last, uint8_t **out, size_t *out_length, uint32_t *adler,
                         char *message, size_t message_capacity);

/// nr_deflate_band_runs with a search for other matches too (cpng.c, band_symbols): runs of whole
/// pixels of `pixel_bytes` (1-8) bytes and up to `depth` (0-4096; 0 is nr_deflate_band_runs)
/// earlier positions with the same four bytes, through a hash table. For baseline frames:
/// libdeflate level 6's bytes in 0.72x its time on the bundled frames (issue 17).
int nr_deflate_band_search(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row,
                           uint32_t row_count, size_t pixel_bytes, int depth, int last, uint8_t **out,
                           size_t *out_length, uint32_t *adler, char *message, size_t message_capacity);

/// nr_deflate_band_search on rows that already hold their filter bytes: `filtered` is the image
/// data before deflate, rows of `1 + row_bytes` bytes back to back (`filtered_length` bytes, checked),
/// deflated as they are, without the copy nr_deflate_band_search makes of each band. Rows
/// `first_row ..< first_row + row_count` are the band; row `first_row - 1`, when there is one, is
/// read as the row above; `*adler` is the Adler-32 of the band's bytes alone. With filter bytes 0
/// the output is nr_deflate_band_search's for the same rows without them (other filter bytes are
/// deflated as given). For baseline frames, whose rows are packed with their filter bytes
/// (`ColorReduction.packFiltered`). Sizes past any buffer: NR_ERR_LIMIT; past `filtered_length`
/// or no rows: NR_ERR_ARGUMENT.
int nr_deflate_band_search_filtered(const uint8_t *filtered, size_t filtered_length, size_t row_bytes, uint32_t first_row,
                                    uint32_t row_count, size_t pixel_bytes, int depth, int last, uint8_t **out,
                                    size_t *out_length, uint32_t *adler, char *message, size_t message_capacity);

/// zlib's `uncompress` of a zlib stream into `dst` (`*out_length` bytes made): for tests, which
/// hold streams to zlib's own reader as well as to libdeflate's.
int nr_zlib_uncompress(const uint8_t *src, size_t length, uint8_t *dst, size_t capacity, size_t *out_length);

/// The row-runs encoder's Huffman code lengths (at most `limit`, 1-15) for `n` (2-320) symbol
/// frequencies: for tests.
void nr_code_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths);

/// zlib's adler32_combine: the Adler-32 of A followed by B from those of A and of B (`length_b` bytes).
uint32_t nr_adler32_combine(uint32_t adler_a, uint32_t adler_b, size_t length_b);

/// A zlib stream (RFC 1950) of a buffer from libdeflate at `level` (0-12) into a malloc'd buffer.
int nr_deflate_whole(const uint8_t *src, size_t length, int level, uint8_t **out, size_t *out_length,
                     char *message, size_t message_capacity);

/// Asks for transparent huge pages for a buffer of 4 to 64 MiB (Linux; a hint, nothing elsewhere),
/// unless `nr_free_page_reporting()`.
void nr_advise_huge_pages(void *buffer, size_t length);
/// 1 when this machine is a virtual machine whose memory balloon reports free memory to its host
/// (virtio-balloon with VIRTIO_BALLOON_F_REPORTING, read from /sys/bus/virtio/devices once): fresh
/// 2 MiB pages are then slower than 4 KB ones (cpng.c says why), so none are asked for.
int nr_free_page_reporting(void);
/// The same answer for a folder laid out as /sys/bus/virtio/devices (for tests).
int nr_free_page_reporting_in(const char *devices);
/// For tests only: replaces the process's answer (to check the advice given either way) and
/// returns the one before. It applies to the whole process; only speed depends on it.
int nr_free_page_reporting_set(int answer);
/// The page-aligned range `nr_advise_huge_pages` advises for `buffer` (1), or none (0, both 0):
/// buffers under 4 MiB or over 64 MiB are left in the system's pages.
int nr_huge_advice_range(const void *buffer, size_t length, uintptr_t *start, uintptr_t *end);

/// Puts the calling thread's next `bytes` (1-27 MiB) of heap allocations in huge pages where
/// the kernel offers them (glibc with its mmap threshold raised; see cpng.c). Returns a pad
/// block (or NULL) for the caller to `free` once those allocations are made. Nothing (NULL) when
/// `nr_free_page_reporting()`.
void *nr_reserve_huge_pages(size_t bytes);

/// zlib deflate of a buffer at `level` into a malloc'd buffer.
int nr_deflate(const uint8_t *src, size_t length, int level, uint8_t **out, size_t *out_length,
               char *message, size_t message_capacity);

/// zlib deflate of a buffer at `level` (0-9) with a zlib `strategy` (NR_Z_*) into a malloc'd
/// buffer. Refuses input larger than zlib can take in one call (4 GiB) instead of truncating it.
int nr_deflate_strategy(const uint8_t *src, size_t length, int level, int strategy, uint8_t **out,
                        size_t *out_length, char *message, size_t message_capacity);

/// zlib inflate straight into the caller's buffer of `capacity` bytes (no growing, no copy): the
/// stream must end within it, else NR_ERR_LIMIT ("larger than the limit of `capacity` bytes").
int nr_inflate_into(const uint8_t *src, size_t length, uint8_t *dst, size_t capacity, size_t *out_length,
                    char *message, size_t message_capacity);

/// A run of bytes inside a larger buffer (e.g. one IDAT chunk's data).
typedef struct nr_span {
    size_t offset;
    size_t length;
} nr_span;

/// Decodes the image data of a plain PNG (8-bit RGB or RGBA, not interlaced) without libpng:
/// the IDAT data is inflated at once with libdeflate (two to three times zlib's speed) into the
/// tail of `dst`, then unfiltered in place into RGBA8 at its start (PNG specification, 9.2-9.4).
/// `dst` must hold width * height * 4 + height bytes. Returns NR_OK, or NR_PLAIN_FALLBACK when
/// the data is anything but exactly the declared rows with valid filter types: the caller then
/// decodes with nr_png_decode, whose errors say what is wrong. `channels` is 3 or 4.
int nr_png_decode_plain(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width, uint32_t height,
                        int channels, uint8_t *dst, size_t dst_capacity);
enum { NR_PLAIN_FALLBACK = 100 };

/// The same for 8-bit palette and 8-bit grey images (one byte a pixel): each unfiltered byte is
/// an index into `table` (RGBA8 words as they lie in memory; `table_count` entries, 1 to 256: a
/// palette with its tRNS alpha, or 256 greys), and an index past the table falls back to libpng.
int nr_png_decode_plain_indexed(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width,
                                uint32_t height, const uint32_t *table, int table_count, uint8_t *dst, size_t dst_capacity);


/// Whether nr_png_decode_plain (`channels` 3 or 4) or nr_png_decode_plain_indexed with the 256
/// greys of an 8-bit grey image (`channels` 1) would decode this image data, without decoding
/// it: NR_OK when the data inflates to exactly the declared rows and every filter type is valid,
/// else NR_PLAIN_FALLBACK (the caller then decodes, whose errors say what is wrong). Allocates
/// only the filtered rows, for a file compared with itself (issue 17). Palette images need their
/// indices checked against the palette, so they are not taken.
int nr_png_check_plain(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width, uint32_t height,
                       int channels);

/// The same image data as nr_png_check_plain takes, decoded into its own rows: `rows` (at least
/// height * (1 + width * channels) bytes) gets each row's filter byte and then its pixels, 1, 3
/// or 4 bytes each as the file has them, unfiltered in place; no RGBA copy. NR_OK, or
/// NR_PLAIN_FALLBACK when the data is anything but exactly the declared rows with valid filter
/// types (the caller then decodes, whose errors say what is wrong). For the diff image of a file
/// compared with itself (issue 17).
int nr_png_rows_plain(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width, uint32_t height,
                      int channels, uint8_t *rows, size_t capacity);

/// Inflates the zlib stream split over `spans` of `data` into a small scratch buffer, keeping
/// nothing: counts the output, stopping once it exceeds `expected`. `produced` gets the count
/// (at most `expected` + 1), `ended` whether the stream ended. For checking that image data
/// fills the declared image, and no more, before allocating for it.
int nr_inflate_measure(const uint8_t *data, const nr_span *spans, size_t span_count, size_t expected,
                       size_t *produced, int *ended, char *message, size_t message_capacity);

/// zlib's CRC-32 (as PNG chunks use) of a buffer, continuing from `crc` (start with 0).
uint32_t nr_crc32(uint32_t crc, const uint8_t *data, size_t length);

/// The libpng version in use, e.g. "1.6.39".
const char *nr_png_version(void);

/// 1 when RGB rows of the None and Up filters are expanded with SSSE3 (the CPU has it), else 0:
/// for tests.
int nr_png_ssse3(void);

/// `width` RGBA8 pixels (`4 * width` bytes at `rgba`) as RGB (`3 * width` bytes at `rgb`, alpha
/// dropped): the rows of an opaque baseline frame. Four pixels a byte shuffle when `use_ssse3` and
/// the CPU has SSSE3, else a byte at a time (tests run both). The buffers must not overlap.
/// Returns the AND of the pixels' alpha bytes (0xFF when every pixel is opaque, and for no pixels),
/// so that the encoder learns a frame's opacity in the pass that packs it.
uint8_t nr_pack_rgb(const uint8_t *rgba, uint8_t *rgb, size_t width, int use_ssse3);

void nr_free(void *pointer);

#ifdef __cplusplus
}
#endif
#endif
