// The setjmp boundary around libpng. See cpng.h for why this file exists.
#include "cpng.h"

#include <libdeflate.h>
#ifdef __linux__
#include <dirent.h>
#include <sys/mman.h>
#endif
#include <png.h>
#include <zlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <libdeflate.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int NR_COLOR_GRAY = PNG_COLOR_TYPE_GRAY;
const int NR_COLOR_RGB = PNG_COLOR_TYPE_RGB;
const int NR_COLOR_PALETTE = PNG_COLOR_TYPE_PALETTE;
const int NR_COLOR_GRAY_ALPHA = PNG_COLOR_TYPE_GRAY_ALPHA;
const int NR_COLOR_RGBA = PNG_COLOR_TYPE_RGB_ALPHA;

const int NR_FILTER_NONE = PNG_FILTER_NONE;
const int NR_FILTER_SUB = PNG_FILTER_SUB;
const int NR_FILTER_UP = PNG_FILTER_UP;
const int NR_FILTER_AVG = PNG_FILTER_AVG;
const int NR_FILTER_PAETH = PNG_FILTER_PAETH;
const int NR_FILTER_ALL = PNG_ALL_FILTERS;

const int NR_Z_DEFAULT_STRATEGY = Z_DEFAULT_STRATEGY;
const int NR_Z_FILTERED = Z_FILTERED;
const int NR_Z_HUFFMAN_ONLY = Z_HUFFMAN_ONLY;
const int NR_Z_RLE = Z_RLE;

/* Large buffers in 2 MiB pages where the kernel offers them on request (Linux transparent huge
 * pages in "madvise" mode): a 12 MB frame then costs a few page faults instead of 3,000, and the
 * comparison that reads it fewer TLB misses (phone frame decode 11 -> 8 ms). A hint only.
 *
 * Only buffers of 4 to 64 MiB: a 3x frame, a phone or desktop screenshot (12-15 MB), a 4K one
 * (33 MB). Larger ones stay in 4 KB pages: at that size the faults are a few percent of the work
 * every byte costs anyway, and 2 MiB pages for a few hundred megabytes drawn at once were the
 * slow runs measured below (the 37 MP pair re-encoded identical: 300-398 ms medians of 7-12
 * interleaved runs, slowest runs 0.7 s; 236-238 ms in 4 KB pages; odiff 449-454 ms).
 *
 * And none on a virtual machine that hands its free memory back to the host (virtio-balloon
 * free page reporting, nr_free_page_reporting below). The guest reports free blocks of 2 MiB
 * and more, the host drops what backs them, and a 2 MiB page is cut from exactly such a block:
 * its first touch then costs the host's faults for all of it. 4 KB pages come from smaller free
 * blocks, which are not reported. On the 2-core VM of issue 17, three 12 MB buffers written by a
 * new process 2.5 s after the last one: 66-146 ms in 2 MiB pages, 25-36 ms in 4 KB pages;
 * straight after another process freed its memory (not yet reported), 3.7 against 21 ms. So a
 * benchmark that runs diffs back to back saw huge pages win, while a diff run on its own, as a
 * user or CI runs it, lost: `navreel diff` of the phone pair re-encoded identical, each run after
 * 2.5 s idle, 54 ms with huge pages against odiff's 38.5 (30 ms without). */
int nr_huge_advice_range(const void *buffer, size_t length, uintptr_t *start, uintptr_t *end) {
    *start = *end = 0;
    if (buffer == NULL || length < ((size_t)4 << 20) || length > ((size_t)64 << 20)) return 0;
    uintptr_t from = ((uintptr_t)buffer + 4095) & ~(uintptr_t)4095, to = ((uintptr_t)buffer + length) & ~(uintptr_t)4095;
    if (to <= from) return 0;
    *start = from;
    *end = to;
    return 1;
}

#ifdef __linux__
/* Reads the first line of `path` into `out` (at most capacity - 1 bytes, no newline): 1, or 0 when
 * it cannot be read. */
static int read_line(const char *path, char *out, size_t capacity) {
    FILE *f = fopen(path, "re");
    if (!f) return 0;
    int ok = fgets(out, (int)capacity, f) != NULL;
    fclose(f);
    if (!ok) return 0;
    out[strcspn(out, "\n")] = 0;
    return 1;
}
#endif

int nr_free_page_reporting_in(const char *devices) {
#ifdef __linux__
    /* Each virtio device is a folder with `device` (the device ID, "0x0005" for the memory balloon,
     * virtio 1.2 section 5) and `features` (the negotiated feature bits as '0'/'1' characters,
     * bit 0 first; VIRTIO_BALLOON_F_REPORTING is bit 5, virtio 1.2 section 5.5.3). */
    DIR *dir = opendir(devices);
    if (!dir) return 0;
    int found = 0;
    struct dirent *entry;
    while (!found && (entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char path[4096], line[256];
        if (snprintf(path, sizeof path, "%s/%s/device", devices, entry->d_name) >= (int)sizeof path) continue;
        if (!read_line(path, line, sizeof line) || strcmp(line, "0x0005") != 0) continue;
        if (snprintf(path, sizeof path, "%s/%s/features", devices, entry->d_name) >= (int)sizeof path) continue;
        if (read_line(path, line, sizeof line) && strlen(line) > 5 && line[5] == '1') found = 1;
    }
    closedir(dir);
    return found;
#else
    (void)devices;
    return 0;
#endif
}

/* Asked once, on the first buffer that could take 2 MiB pages (a few system calls), and kept
 * in an atomic. The first answer stored stays: threads that ask at the same time read the same
 * files, and a test's nr_free_page_reporting_set is not undone by a read that started before it. */
static int free_page_reporting_known = -1;

int nr_free_page_reporting(void) {
    int answer = __atomic_load_n(&free_page_reporting_known, __ATOMIC_ACQUIRE);
    if (answer < 0) {
        int unknown = -1;
        answer = nr_free_page_reporting_in("/sys/bus/virtio/devices");
        if (!__atomic_compare_exchange_n(&free_page_reporting_known, &unknown, answer, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            answer = unknown;   /* another thread or the test hook stored first */
    }
    return answer;
}

int nr_free_page_reporting_set(int answer) {
    int before = nr_free_page_reporting();
    __atomic_store_n(&free_page_reporting_known, answer ? 1 : 0, __ATOMIC_RELEASE);
    return before;
}

void nr_advise_huge_pages(void *buffer, size_t length) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t start, end;
    if (nr_huge_advice_range(buffer, length, &start, &end) && !nr_free_page_reporting())
        madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)buffer;
    (void)length;
#endif
}

/* The calling thread's next `bytes` of allocations in 2 MiB pages, for buffers below the 4 MiB
 * that nr_advise_huge_pages takes (a 1x frame's pixels are 1.3 MB, its maps 0.3 MB a plane).
 * glibc serves them from the thread's arena once LargeBuffers has raised the mmap threshold,
 * cut from the arena's free top chunk. So: a block is taken and given back at once (it joins
 * the top chunk, untouched), the 2 MiB-aligned pages inside it are advised, and a pad block (never
 * touched but for its header; the caller frees it once its buffers are made, not before, or the
 * freed pad could hold them) moves the top chunk's start up to the first aligned address: a
 * 2 MiB page is only given where no 4 KB page of it was touched, and the pages before that
 * address are. Page faults cost 2.4 us a 4 KB page on the 2-core VM of
 * issue 17 and 0.14 us a 4 KB page as part of a 2 MiB one (4 MiB touched a page at a time, best
 * of 50): 1,300 faults were a fifth of a 1x diff's CPU. Reserved pages never touched cost
 * nothing; a 2 MiB page touched once is resident (a 1x diff's peak 15 -> 22 MiB). A hint: with
 * another allocator, or the threshold not raised, the blocks are ordinary ones. */
void *nr_reserve_huge_pages(size_t bytes) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (bytes < ((size_t)1 << 20) || nr_free_page_reporting()) return NULL;
    /* Blocks of 32 MiB and more are mmap'd (LargeBuffers' threshold, which the block with its
     * 4 MiB of alignment slack must stay under) and advised on their own. */
    if (bytes > ((size_t)27 << 20)) bytes = (size_t)27 << 20;
    size_t size = bytes + 2 * huge;
    uint8_t *block = (uint8_t *)malloc(size);
    if (!block) return NULL;
    uintptr_t start = ((uintptr_t)block + huge - 1) & ~(uintptr_t)(huge - 1);
    uintptr_t end = ((uintptr_t)block + size) & ~(uintptr_t)(huge - 1);
    madvise((void *)start, end - start, MADV_HUGEPAGE);
    free(block);
    /* glibc's chunk of malloc(n) is n + 8 rounded up to 16 bytes (at least 32), its header the
     * 16 bytes before the pointer: a chunk of `lead` bytes at block's puts the next pointer at
     * `start` (its header in the page before). */
    size_t lead = start - (uintptr_t)block;
    return lead >= 64 ? malloc(lead - 8) : NULL;
#else
    (void)bytes;
    return NULL;
#endif
}

static void copy_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text ? text : "unknown error");
}

/* State shared with the libpng callbacks of one call. */
typedef struct boundary {
    char message[256];
    int status;
    /* reading */
    const uint8_t *data;
    size_t size;
    size_t position;
    const nr_png_sink *sink;
    int warnings;
    /* writing */
    uint8_t *out;
    size_t out_length;
    size_t out_capacity;
} boundary;

static void on_error(png_structp png, png_const_charp text) {
    boundary *b = (boundary *)png_get_error_ptr(png);
    if (b->status == NR_OK) b->status = NR_ERR_LIBPNG;
    if (b->message[0] == 0) copy_message(b->message, sizeof b->message, text);
    longjmp(png_jmpbuf(png), 1);
}

/* Warnings (e.g. an sRGB profile libpng dislikes) are not failures: files from design tools carry
 * them routinely, and we never apply colour management anyway. */
static void on_warning(png_structp png, png_const_charp text) {
    (void)text;
    boundary *b = (boundary *)png_get_error_ptr(png);
    b->warnings++; /* counted: the caller proves the image data itself when any was raised */
}

static void read_bytes(png_structp png, png_bytep into, size_t length) {
    boundary *b = (boundary *)png_get_io_ptr(png);
    if (length > b->size - b->position) {
        b->status = NR_ERR_LIBPNG;
        copy_message(b->message, sizeof b->message, "truncated: the file ends before its image data does");
        png_error(png, b->message);
    }
    memcpy(into, b->data + b->position, length);
    b->position += length;
}

static int on_unknown_chunk(png_structp png, png_unknown_chunkp chunk) {
    boundary *b = (boundary *)png_get_user_chunk_ptr(png);
    if (b->sink && b->sink->chunk) {
        char name[5];
        memcpy(name, chunk->name, 4);
        name[4] = 0;
        b->sink->chunk(b->sink->context, name, chunk->data, chunk->size);
    }
    return 1; /* handled: libpng must not complain about it */
}

static void deliver_text(boundary *b, png_structp png, png_infop info) {
    if (!b->sink || !b->sink->text || !info) return;
    png_textp texts = NULL;
    int count = 0;
    png_get_text(png, info, &texts, &count);
    for (int i = 0; i < count; i++) {
        size_t length = texts[i].compression > 0 ? texts[i].itxt_length : texts[i].text_length;
        b->sink->text(b->sink->context, texts[i].key, texts[i].text, length);
    }
}

int nr_png_decode(const uint8_t *data, size_t size, const nr_png_limits *limits,
                  uint8_t *dst, uint32_t width, uint32_t height,
                  const nr_png_sink *sink, nr_png_info *info_out,
                  char *message, size_t message_capacity) {
    boundary b;
    memset(&b, 0, sizeof b);
    b.data = data;
    b.size = size;
    b.sink = sink;

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &b, on_error, on_warning);
    if (!png) {
        copy_message(message, message_capacity, "out of memory creating the PNG reader");
        return NR_ERR_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    png_infop end_info = png_create_info_struct(png);
    /* Must be volatile: modified after setjmp and read after a longjmp. */
    png_bytep *volatile rows = NULL;

    if (!info || !end_info) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        copy_message(message, message_capacity, "out of memory creating the PNG reader");
        return NR_ERR_MEMORY;
    }

    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_read_struct(&png, &info, &end_info);
        copy_message(message, message_capacity, b.message);
        return b.status == NR_OK ? NR_ERR_LIBPNG : b.status;
    }

    png_set_read_fn(png, &b, read_bytes);
    png_set_user_limits(png, limits->max_width, limits->max_height);
    png_set_chunk_malloc_max(png, limits->max_chunk_bytes);
    /* A corrupt file is corrupt, whichever chunk the damage is in. */
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_read_user_chunk_fn(png, &b, on_unknown_chunk);

    png_read_info(png, info);

    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    if (info_out) {
        info_out->width = w;
        info_out->height = h;
        info_out->bit_depth = depth;
        info_out->color_type = color;
        info_out->interlaced = interlace != PNG_INTERLACE_NONE;
    }
    if (w != width || h != height) {
        b.status = NR_ERR_ARGUMENT;
        snprintf(b.message, sizeof b.message, "IHDR declares %ux%u, caller expected %ux%u",
                 (unsigned)w, (unsigned)h, (unsigned)width, (unsigned)height);
        png_error(png, b.message);
    }
    if ((uint64_t)w * (uint64_t)h > limits->max_pixels) {
        b.status = NR_ERR_LIMIT;
        snprintf(b.message, sizeof b.message, "image of %ux%u pixels is over the limit of %llu pixels",
                 (unsigned)w, (unsigned)h, (unsigned long long)limits->max_pixels);
        png_error(png, b.message);
    }

    /* Everything to RGBA8, sample values as stored: no png_set_gamma, no png_set_alpha_mode. */
    png_set_expand(png);                 /* palette -> RGB, grey < 8 bit -> 8 bit, tRNS -> alpha */
    png_set_scale_16(png);               /* 16 -> 8 bit, rounded: round(v * 255 / 65535) */
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER); /* no-op when alpha is present */
    int passes = png_set_interlace_handling(png);
    (void)passes;
    png_read_update_info(png, info);

    if (png_get_bit_depth(png, info) != 8 || png_get_channels(png, info) != 4 ||
        png_get_rowbytes(png, info) != (size_t)w * 4) {
        b.status = NR_ERR_LIBPNG;
        copy_message(b.message, sizeof b.message, "internal: conversion to RGBA8 failed");
        png_error(png, b.message);
    }

    rows = (png_bytep *)malloc(sizeof(png_bytep) * (h ? h : 1));
    if (!rows) {
        b.status = NR_ERR_MEMORY;
        copy_message(b.message, sizeof b.message, "out of memory for row pointers");
        png_error(png, b.message);
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = dst + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, end_info);

    deliver_text(&b, png, info);
    deliver_text(&b, png, end_info);
    if (info_out) info_out->warnings = b.warnings;

    free(rows);
    png_destroy_read_struct(&png, &info, &end_info);
    return NR_OK;
}

static void write_bytes(png_structp png, png_bytep data, size_t length) {
    boundary *b = (boundary *)png_get_io_ptr(png);
    if (length > b->out_capacity - b->out_length) {
        size_t capacity = b->out_capacity ? b->out_capacity : 65536;
        while (length > capacity - b->out_length) {
            if (capacity > SIZE_MAX / 2) {
                b->status = NR_ERR_MEMORY;
                png_error(png, "output too large");
            }
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(b->out, capacity);
        if (!grown) {
            b->status = NR_ERR_MEMORY;
            png_error(png, "out of memory for the encoded PNG");
        }
        b->out = grown;
        b->out_capacity = capacity;
    }
    memcpy(b->out + b->out_length, data, length);
    b->out_length += length;
}

static void flush_bytes(png_structp png) { (void)png; }

int nr_png_encode(const nr_png_encode_params *p, uint8_t **out, size_t *out_length,
                  char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (p->width == 0 || p->height == 0 || p->rows == NULL) {
        copy_message(message, message_capacity, "cannot encode an empty image");
        return NR_ERR_ARGUMENT;
    }
    if (p->color_type == PNG_COLOR_TYPE_PALETTE &&
        (p->palette_count < 1 || p->palette_count > 256 || p->trns_count > p->palette_count)) {
        copy_message(message, message_capacity, "palette must have 1 to 256 entries");
        return NR_ERR_ARGUMENT;
    }
    {
        size_t channels = p->color_type == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : p->color_type == PNG_COLOR_TYPE_RGB ? 3
                        : p->color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
        size_t row = (size_t)p->width * channels;
        if (row / channels != p->width || p->rows_filtered || p->stride < row || p->stride > (SIZE_MAX - row) / (size_t)p->height ||
            p->rows_length < (size_t)(p->height - 1) * p->stride + row) {
            copy_message(message, message_capacity, "the rows do not fit their buffer (or are given with filter bytes, which only the unfiltered writer takes)");
            return NR_ERR_ARGUMENT;
        }
    }

    boundary b;
    memset(&b, 0, sizeof b);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &b, on_error, on_warning);
    if (!png) {
        copy_message(message, message_capacity, "out of memory creating the PNG writer");
        return NR_ERR_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    png_text *volatile texts = NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        copy_message(message, message_capacity, "out of memory creating the PNG writer");
        return NR_ERR_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(texts);
        free(b.out);
        png_destroy_write_struct(&png, &info);
        copy_message(message, message_capacity, b.message);
        return b.status == NR_OK ? NR_ERR_LIBPNG : b.status;
    }

    png_set_write_fn(png, &b, write_bytes, flush_bytes);
    png_set_compression_level(png, p->compression_level);
    png_set_compression_strategy(png, p->strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, p->filters);
    png_set_IHDR(png, info, p->width, p->height, 8, p->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);

    if (p->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < p->palette_count; i++) {
            palette[i].red = p->palette_rgb[i * 3];
            palette[i].green = p->palette_rgb[i * 3 + 1];
            palette[i].blue = p->palette_rgb[i * 3 + 2];
        }
        png_set_PLTE(png, info, palette, p->palette_count);
        if (p->trns_count > 0 && p->palette_alpha)
            png_set_tRNS(png, info, p->palette_alpha, p->trns_count, NULL);
    }

    if (p->text_count > 0) {
        texts = (png_text *)calloc((size_t)p->text_count, sizeof(png_text));
        if (!texts) {
            b.status = NR_ERR_MEMORY;
            png_error(png, "out of memory for text chunks");
        }
        for (int i = 0; i < p->text_count; i++) {
            texts[i].compression = p->texts[i].utf8 ? PNG_ITXT_COMPRESSION_NONE : PNG_TEXT_COMPRESSION_NONE;
            texts[i].key = (png_charp)p->texts[i].key;
            texts[i].text = (png_charp)p->texts[i].value;
            if (p->texts[i].utf8)
                texts[i].itxt_length = p->texts[i].value_length;
            else
                texts[i].text_length = p->texts[i].value_length;
        }
        png_set_text(png, info, texts, p->text_count);
    }

    png_write_info(png, info);
    for (png_uint_32 y = 0; y < p->height; y++)
        png_write_row(png, (png_const_bytep)(p->rows + (size_t)y * p->stride));

    if (p->private_name && p->private_data) {
        png_unknown_chunk chunk;
        memset(&chunk, 0, sizeof chunk);
        memcpy(chunk.name, p->private_name, 4);
        chunk.name[4] = 0;
        chunk.data = (png_bytep)p->private_data;
        chunk.size = p->private_length;
        chunk.location = PNG_AFTER_IDAT;
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, chunk.name, 1);
        png_set_unknown_chunks(png, info, &chunk, 1);
    }
    png_write_end(png, info);

    free(texts);
    png_destroy_write_struct(&png, &info);
    *out = b.out;
    *out_length = b.out_length;
    return NR_OK;
}


/* ---- The unfiltered writer (nr_png_encode_unfiltered) ---- */

typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
    int failed;
} out_buffer;

static void put(out_buffer *o, const void *bytes, size_t length) {
    if (o->failed) return;
    if (length > SIZE_MAX - o->length) { o->failed = 1; return; }
    if (o->length + length > o->capacity) {
        size_t capacity = o->capacity ? o->capacity : 4096;
        while (capacity < o->length + length) {
            if (capacity > SIZE_MAX / 2) { o->failed = 1; return; }
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(o->data, capacity);
        if (!grown) { o->failed = 1; return; }
        o->data = grown;
        o->capacity = capacity;
    }
    memcpy(o->data + o->length, bytes, length);
    o->length += length;
}

static void put_u32(out_buffer *o, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(o, b, 4);
}

/* One chunk: length, type, data given in up to three parts, CRC of type and data (PNG 5.3). */
static void put_chunk(out_buffer *o, const char *type, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                      const uint8_t *c, size_t cn) {
    size_t length = an + bn + cn;
    if (length < an || length > 0x7FFFFFFFu) { o->failed = 1; return; }
    put_u32(o, (uint32_t)length);
    put(o, type, 4);
    uLong crc = crc32(0, (const Bytef *)type, 4);
    if (an) { put(o, a, an); crc = crc32_z(crc, a, an); }
    if (bn) { put(o, b, bn); crc = crc32_z(crc, b, bn); }
    if (cn) { put(o, c, cn); crc = crc32_z(crc, c, cn); }
    put_u32(o, (uint32_t)crc);
}

int nr_png_encode_unfiltered(const nr_png_encode_params *p, uint8_t **out, size_t *out_length,
                             char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    int channels = p->color_type == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : p->color_type == PNG_COLOR_TYPE_RGB ? 3
                 : p->color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2 : 1;
    if (p->width == 0 || p->height == 0 || (p->rows == NULL && p->idat == NULL) || p->width > 0x7FFFFFFFu || p->height > 0x7FFFFFFFu) {
        copy_message(message, message_capacity, "cannot encode an empty image");
        return NR_ERR_ARGUMENT;
    }
    if (p->color_type != PNG_COLOR_TYPE_GRAY && p->color_type != PNG_COLOR_TYPE_RGB && p->color_type != PNG_COLOR_TYPE_PALETTE &&
        p->color_type != PNG_COLOR_TYPE_GRAY_ALPHA && p->color_type != PNG_COLOR_TYPE_RGB_ALPHA) {
        copy_message(message, message_capacity, "unknown colour type");
        return NR_ERR_ARGUMENT;
    }
    if (p->color_type == PNG_COLOR_TYPE_PALETTE &&
        (p->palette_count < 1 || p->palette_count > 256 || p->trns_count < 0 || p->trns_count > p->palette_count ||
         p->palette_rgb == NULL || (p->trns_count > 0 && p->palette_alpha == NULL))) {
        copy_message(message, message_capacity, "palette must have 1 to 256 entries");
        return NR_ERR_ARGUMENT;
    }
    if (p->filters != PNG_FILTER_NONE || p->strategy != Z_DEFAULT_STRATEGY || p->compression_level < 0 || p->compression_level > 12) {
        copy_message(message, message_capacity, "the unfiltered writer takes no filter, zlib's default strategy and a libdeflate level 0-12");
        return NR_ERR_ARGUMENT;
    }
    /* Rows with their filter byte (0), sizes checked before anything is allocated. */
    size_t row = (size_t)p->width * (size_t)channels;
    if (row / (size_t)channels != p->width || p->stride < row || row == SIZE_MAX ||
        (row + 1) > SIZE_MAX / (size_t)p->height) {
        copy_message(message, message_capacity, "image too large to encode");
        return NR_ERR_LIMIT;
    }
    if (p->rows && !p->idat) {
        size_t need = p->rows_filtered ? row + 1 : row;    /* the last row's bytes, after the others' strides */
        if ((p->rows_filtered && p->stride != row + 1) || p->stride > (SIZE_MAX - need) / (size_t)p->height ||
            p->rows_length < (size_t)(p->height - 1) * p->stride + need) {
            copy_message(message, message_capacity, "the rows do not fit their buffer (or filtered rows are not 1 + width * channels bytes apart)");
            return NR_ERR_ARGUMENT;
        }
    }
    const uint8_t *idat = p->idat;    /* made beforehand (nr_deflate_band), or compressed here into `owned` */
    uint8_t *owned = NULL;
    size_t idat_length = p->idat_length;
    if (idat) {
        if (idat_length == 0) {
            copy_message(message, message_capacity, "empty image data");
            return NR_ERR_ARGUMENT;
        }
    } else if (p->rows_filtered) {
        int status = nr_deflate_whole(p->rows, (row + 1) * (size_t)p->height, p->compression_level, &owned, &idat_length,
                                      message, message_capacity);
        if (status != NR_OK) return status;
        idat = owned;
    } else {
        size_t raw_length = (row + 1) * (size_t)p->height;
        uint8_t *raw = (uint8_t *)malloc(raw_length);
        if (!raw) {
            copy_message(message, message_capacity, "out of memory for the image rows");
            return NR_ERR_MEMORY;
        }
        for (uint32_t y = 0; y < p->height; y++) {
            raw[(size_t)y * (row + 1)] = 0;
            memcpy(raw + (size_t)y * (row + 1) + 1, p->rows + (size_t)y * p->stride, row);
        }
        int status = nr_deflate_whole(raw, raw_length, p->compression_level, &owned, &idat_length, message, message_capacity);
        free(raw);
        if (status != NR_OK) return status;
        idat = owned;
    }

    out_buffer o = {0};
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    put(&o, signature, 8);
    uint8_t ihdr[13] = {(uint8_t)(p->width >> 24), (uint8_t)(p->width >> 16), (uint8_t)(p->width >> 8), (uint8_t)p->width,
                        (uint8_t)(p->height >> 24), (uint8_t)(p->height >> 16), (uint8_t)(p->height >> 8), (uint8_t)p->height,
                        8, (uint8_t)p->color_type, 0, 0, 0};
    put_chunk(&o, "IHDR", ihdr, 13, NULL, 0, NULL, 0);
    if (p->color_type == PNG_COLOR_TYPE_PALETTE) {
        put_chunk(&o, "PLTE", p->palette_rgb, (size_t)p->palette_count * 3, NULL, 0, NULL, 0);
        if (p->trns_count > 0) put_chunk(&o, "tRNS", p->palette_alpha, (size_t)p->trns_count, NULL, 0, NULL, 0);
    }
    for (int i = 0; i < p->text_count; i++) {
        const nr_png_text *t = &p->texts[i];
        size_t key_length = strlen(t->key);
        if (key_length < 1 || key_length > 79) { o.failed = 1; break; }
        /* tEXt: key, NUL, Latin-1 text (PNG 11.3.4.3). iTXt: key, NUL, compression flag 0, method 0,
         * empty language tag and translated keyword (each NUL-terminated), UTF-8 text (11.3.4.5). */
        static const uint8_t itxt_fields[5] = {0, 0, 0, 0, 0};
        put_chunk(&o, t->utf8 ? "iTXt" : "tEXt", (const uint8_t *)t->key, key_length, itxt_fields, t->utf8 ? 5 : 1,
                  (const uint8_t *)t->value, t->value_length);
    }
    put_chunk(&o, "IDAT", idat, idat_length, NULL, 0, NULL, 0);
    free(owned);
    if (p->private_name && p->private_data)
        put_chunk(&o, p->private_name, p->private_data, p->private_length, NULL, 0, NULL, 0);
    put_chunk(&o, "IEND", NULL, 0, NULL, 0, NULL, 0);
    if (o.failed) {
        free(o.data);
        copy_message(message, message_capacity, "out of memory, or a chunk or text key of impossible length");
        return NR_ERR_MEMORY;
    }
    *out = o.data;
    *out_length = o.length;
    return NR_OK;
}

int nr_deflate_whole(const uint8_t *src, size_t length, int level, uint8_t **out, size_t *out_length,
                     char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (level < 0 || level > 12) {
        copy_message(message, message_capacity, "libdeflate levels are 0 to 12");
        return NR_ERR_ARGUMENT;
    }
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    if (!compressor) {
        copy_message(message, message_capacity, "out of memory for libdeflate");
        return NR_ERR_MEMORY;
    }
    size_t bound = libdeflate_zlib_compress_bound(compressor, length);
    uint8_t *buffer = bound >= length ? (uint8_t *)malloc(bound ? bound : 1) : NULL;
    if (!buffer) {
        libdeflate_free_compressor(compressor);
        copy_message(message, message_capacity, "out of memory for deflate");
        return NR_ERR_MEMORY;
    }
    size_t written = libdeflate_zlib_compress(compressor, src, length, buffer, bound);
    libdeflate_free_compressor(compressor);
    if (written == 0) {   /* cannot happen with the bound's room; refuse rather than write nothing */
        free(buffer);
        copy_message(message, message_capacity, "libdeflate: output bound too small");
        return NR_ERR_ZLIB;
    }
    *out = buffer;
    *out_length = written;
    return NR_OK;
}

/* One zlib deflate call over `length` bytes into a malloc'd *out: `window_bits` 15 for a zlib
 * stream, -15 for raw deflate; `finish` ends the stream, otherwise a sync flush ends the output
 * byte-aligned and not final (an empty stored block). Window 15 and memLevel 8 are compress2's:
 * the output depends only on the input and these. */
static int zlib_deflate(const uint8_t *src, size_t length, int level, int window_bits, int strategy, int finish,
                        uint8_t **out, size_t *out_length, char *message, size_t message_capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, level, Z_DEFLATED, window_bits, 8, strategy) != Z_OK) {
        copy_message(message, message_capacity, "zlib could not start");
        return NR_ERR_ZLIB;
    }
    /* deflateBound covers Z_FINISH; a sync flush adds an empty stored block (5 bytes) and the
     * bits pending before it. */
    uLong bound = deflateBound(&stream, (uLong)length) + 16;
    if (bound < length || bound > (uLong)0xFFFFFFFFu) {   /* avail_out is a uInt */
        deflateEnd(&stream);
        copy_message(message, message_capacity, "deflate: output bound over 4 GiB");
        return NR_ERR_LIMIT;
    }
    uint8_t *buffer = (uint8_t *)malloc(bound);
    if (!buffer) {
        deflateEnd(&stream);
        copy_message(message, message_capacity, "out of memory for deflate");
        return NR_ERR_MEMORY;
    }
    stream.next_in = (Bytef *)src;
    stream.avail_in = (uInt)length;
    stream.next_out = buffer;
    stream.avail_out = (uInt)bound;
    int z = deflate(&stream, finish ? Z_FINISH : Z_SYNC_FLUSH);
    int done = finish ? z == Z_STREAM_END : (z == Z_OK && stream.avail_in == 0 && stream.avail_out > 0);
    if (!done) {
        /* The bound leaves room for this one call; anything else is zlib's error. */
        free(buffer);
        deflateEnd(&stream);
        copy_message(message, message_capacity, z == Z_OK || z == Z_BUF_ERROR ? "deflate: output bound too small" : zError(z));
        return NR_ERR_ZLIB;
    }
    *out_length = (size_t)stream.total_out;
    deflateEnd(&stream);
    *out = buffer;
    return NR_OK;
}

/* The checks every band compressor makes, then the band's rows each after a filter byte 0 in a
 * malloc'd buffer; with `prefix`, the row before the band first (filtered the same way), which
 * the row-runs encoder refers to and which the caller leaves out of the Adler-32. */
static int band_rows(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row,
                     uint32_t row_count, int level, int prefix, uint8_t **raw, size_t *band_length, size_t *prefix_length,
                     char *message, size_t message_capacity) {
    if (!rows || row_count == 0 || row_bytes == 0 || stride < row_bytes) {
        copy_message(message, message_capacity, "deflate band: no rows, or a row longer than its stride");
        return NR_ERR_ARGUMENT;
    }
    if (level < 0 || level > 9) {   /* zlib's bands only: NavReel's encoders pass 1 */
        copy_message(message, message_capacity, "deflate band: a level outside 0-9");
        return NR_ERR_ARGUMENT;
    }
    /* The band's last row must end within the buffer: (first_row + row_count - 1) * stride + row_bytes. */
    size_t last_row = (size_t)first_row + (size_t)row_count - 1;
    if (stride != 0 && last_row > (SIZE_MAX - row_bytes) / stride) {
        copy_message(message, message_capacity, "deflate band: rows past any buffer");
        return NR_ERR_LIMIT;
    }
    if (last_row * stride + row_bytes > rows_length) {
        copy_message(message, message_capacity, "deflate band: rows past the end of the image");
        return NR_ERR_ARGUMENT;
    }
    /* One band's filtered rows at a time: at most 4 GiB in (zlib's uInt), checked before allocating. */
    size_t rows_held = (size_t)row_count + ((prefix && first_row > 0) ? 1 : 0);
    if (row_bytes + 1 < row_bytes || (row_bytes + 1) > ((size_t)0xFFFFFFFFu - 65536u) / rows_held) {
        copy_message(message, message_capacity, "deflate band: more than 4 GiB in one band");
        return NR_ERR_LIMIT;
    }
    size_t filtered = row_bytes + 1, before = (prefix && first_row > 0) ? filtered : 0;
    size_t length = filtered * (size_t)row_count;
    uint8_t *buffer = (uint8_t *)malloc(before + length);
    if (!buffer) {
        copy_message(message, message_capacity, "out of memory for a band of rows");
        return NR_ERR_MEMORY;
    }
    uint32_t from = before ? first_row - 1 : first_row;
    for (uint32_t y = 0; y < row_count + (before ? 1 : 0); y++) {
        buffer[(size_t)y * filtered] = 0;
        memcpy(buffer + (size_t)y * filtered + 1, rows + ((size_t)from + y) * stride, row_bytes);
    }
    *raw = buffer;
    *band_length = length;
    *prefix_length = before;
    return NR_OK;
}

int nr_deflate_band(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row,
                    uint32_t row_count, int level, int last, uint8_t **out, size_t *out_length, uint32_t *adler,
                    char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    *adler = 1;
    uint8_t *raw = NULL;
    size_t length = 0, before = 0;
    int status = band_rows(rows, rows_length, stride, row_bytes, first_row, row_count, level, 0, &raw, &length, &before,
                           message, message_capacity);
    if (status != NR_OK) return status;
    uint32_t a = (uint32_t)libdeflate_adler32(1, raw, length);
    status = zlib_deflate(raw, length, level, -15, Z_DEFAULT_STRATEGY, last, out, out_length, message, message_capacity);
    free(raw);
    if (status == NR_OK) *adler = a;
    return status;
}

/* MARK: The row-runs deflate of diff images
 *
 * A diff image is a few palette colours in long runs, and most rows repeat parts of the row above.
 * So its only matches are a run (distance 1) and the row above (distance: a filtered row), found
 * by comparing eight bytes at a time, with no hash table and no window to slide (zlib's level 1
 * spent two thirds of its time there on a 390x844 diff). The symbols are coded with Huffman codes
 * built for the band (one dynamic block, RFC 1951 3.2.7). Measured on the bench's diff images
 * against zlib level 1 in the same bands, one core: 0.27-0.47x the time; 0.5x the bytes of 3x
 * diffs, 0.6-0.7x of 1x, 0.9x of phone screenshots, 1.6x of desktop ones (text there repeats at
 * other distances). Any inflater reads it.
 * Baseline frames take the same encoder with a search (nr_deflate_band_search): 97.7 % of the
 * bundled frames' bytes equal the byte above or the pixel to the left, so runs of whole pixels and
 * the row above are tried first, eight bytes at a time, and a hash-chain search runs only where
 * they give less than 16 bytes. On the 790 frames' rows in bands of 512 KiB: 5,331,008 bytes
 * against libdeflate level 6's 5,332,354 for the whole rows.
 * The symbols depend only on the rows, so the bytes are the same on every run and thread count. */

typedef struct {
    uint8_t *data;
    size_t capacity, position;
    uint64_t bits;
    int count;
} bit_writer;

/* Up to 32 bits, least significant first; the buffer was sized for the worst case (checked). */
static inline void put_bits(bit_writer *w, uint32_t value, int n) {
    w->bits |= (uint64_t)value << w->count;
    w->count += n;
    if (w->count >= 32) {
        if (w->position + 4 <= w->capacity) {
            /* Least significant byte first on any host. */
            w->data[w->position] = (uint8_t)w->bits;
            w->data[w->position + 1] = (uint8_t)(w->bits >> 8);
            w->data[w->position + 2] = (uint8_t)(w->bits >> 16);
            w->data[w->position + 3] = (uint8_t)(w->bits >> 24);
        }
        w->position += 4;
        w->bits >>= 32;
        w->count -= 32;
    }
}

static void flush_bits(bit_writer *w) {
    while (w->count > 0) {
        if (w->position < w->capacity) w->data[w->position] = (uint8_t)w->bits;
        w->position++;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
}

/* Huffman code lengths of at most `limit` bits for `n` symbols of the given frequencies, by
 * Huffman's merge over symbols sorted by (frequency, symbol) with two queues, then, when a length
 * passes the limit, the length counts adjusted as JPEG does it (ITU T.81 annex K.3: a pair of
 * the longest codes shortened, a shorter code split), the lengths given again by frequency. Fewer
 * than two symbols used: two codes of one bit (a complete code, which every inflater takes). */
static void code_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
    int order[320], spare[320], m = 0;
    memset(lengths, 0, (size_t)n);
    /* The symbols used, sorted by (frequency, symbol): taken in symbol order, then sorted by
     * frequency with a stable radix sort, a byte of the frequency a pass (least significant
     * first; passes past the largest frequency's top byte skipped: two for a band of 1x rows).
     * It replaced a merge sort of (frequency, symbol) keys, which was 5 % of the search encoder's
     * instructions on the 790 bundled frames' rows (73 M of 1,290 M, cachegrind), and before it
     * an insertion sort that was a tenth of a band's encoding (issue 17). */
    uint32_t largest = 0;
    for (int k = 0; k < n; k++) {
        if (!freq[k]) continue;
        order[m++] = k;
        if (freq[k] > largest) largest = freq[k];
    }
    if (m < 2) {
        int a = m ? order[0] : 0, b = a == 0 ? 1 : 0;
        lengths[a] = lengths[b] = 1;
        return;
    }
    int *from = order, *to = spare;
    for (int shift = 0; shift < 32 && (largest >> shift) != 0; shift += 8) {
        int start[257] = {0};
        for (int k = 0; k < m; k++) start[(freq[from[k]] >> shift & 0xFF) + 1]++;
        for (int b = 0; b < 256; b++) start[b + 1] += start[b];
        for (int k = 0; k < m; k++) to[start[freq[from[k]] >> shift & 0xFF]++] = from[k];
        int *t = from;
        from = to, to = t;
    }
    if (from != order) memcpy(order, from, (size_t)m * sizeof(int));
    uint64_t weight[640];
    int parent[640], depth[640];
    for (int k = 0; k < m; k++) weight[k] = freq[order[k]];
    int leaf = 0, inner = m, next = m;
    while (next < 2 * m - 1) {
        int pick[2];
        for (int t = 0; t < 2; t++) {
            if (leaf < m && (inner >= next || weight[leaf] <= weight[inner])) pick[t] = leaf++;
            else pick[t] = inner++;
        }
        weight[next] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = next;
        next++;
    }
    int root = 2 * m - 2, longest = 0;
    depth[root] = 0;
    for (int k = root - 1; k >= 0; k--) depth[k] = depth[parent[k]] + 1;
    int count[640] = {0};
    for (int k = 0; k < m; k++) {
        count[depth[k]]++;
        if (depth[k] > longest) longest = depth[k];
    }
    for (int i = longest; i > limit; i--) {
        while (count[i] > 0) {
            int j = i - 2;
            while (count[j] == 0) j--;
            count[i] -= 2;
            count[i - 1] += 1;
            count[j + 1] += 2;
            count[j] -= 1;
        }
    }
    /* The most frequent symbols (the end of `order`) take the shortest lengths. */
    int k = m - 1;
    for (int len = 1; len <= limit; len++) {
        for (int c = 0; c < count[len]; c++) lengths[order[k--]] = (uint8_t)len;
    }
}

int nr_zlib_uncompress(const uint8_t *src, size_t length, uint8_t *dst, size_t capacity, size_t *out_length) {
    uLongf made = (uLongf)capacity;
    int status = uncompress(dst, &made, src, (uLong)length);
    *out_length = (size_t)made;
    return status == Z_OK ? NR_OK : NR_ERR_ZLIB;
}

void nr_code_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
    if (n < 2 || n > 320 || limit < 1 || limit > 15) return;
    /* More symbols than codes of `limit` bits (never from the encoder: 286 and 30 under 2^15,
     * 19 under 2^7) would run the K.3 loop below length 1. */
    int used = 0;
    for (int k = 0; k < n; k++) used += freq[k] != 0;
    if (used > (1 << limit)) return;
    code_lengths(freq, n, limit, lengths);
}

/* Canonical codes for the lengths (RFC 1951 3.2.2), bit-reversed for the LSB-first stream. */
static void canonical_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int count[16] = {0}, next[16];
    for (int k = 0; k < n; k++) count[lengths[k]]++;
    count[0] = 0;
    int code = 0;
    for (int len = 1; len < 16; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    for (int k = 0; k < n; k++) {
        int len = lengths[k];
        codes[k] = 0;
        if (!len) continue;
        /* The code's 16 bits reversed (halves, bytes, nibbles, pairs, bits swapped), then its
         * `len` bits moved down: its last `16 - len` bits are 0, as c < 2^len. */
        uint32_t r = (uint32_t)next[len]++;
        r = (r >> 8 & 0x00FFu) | (r << 8 & 0xFF00u);
        r = (r >> 4 & 0x0F0Fu) | (r << 4 & 0xF0F0u);
        r = (r >> 2 & 0x3333u) | (r << 2 & 0xCCCCu);
        r = (r >> 1 & 0x5555u) | (r << 1 & 0xAAAAu);
        codes[k] = (uint16_t)(r >> (16 - len));
    }
}

/* Length 3-258: its symbol (257-285), extra bits and their value. */
static void length_symbol(uint32_t length, int *symbol, int *extra_bits, uint32_t *extra) {
    if (length == 258) {
        *symbol = 285, *extra_bits = 0, *extra = 0;
        return;
    }
    uint32_t v = length - 3;
    if (v < 8) {
        *symbol = 257 + (int)v, *extra_bits = 0, *extra = 0;
        return;
    }
    int msb = 31 - __builtin_clz(v), eb = msb - 2;
    *symbol = 257 + 4 * (msb - 1) + (int)((v >> eb) & 3);
    *extra_bits = eb;
    *extra = v & ((1u << eb) - 1);
}

/* Distance 1-32768: its code (0-29), extra bits and their value. */
static void distance_code(uint32_t distance, int *code, int *extra_bits, uint32_t *extra) {
    if (distance <= 4) {
        *code = (int)distance - 1, *extra_bits = 0, *extra = 0;
        return;
    }
    uint32_t v = distance - 1;
    int msb = 31 - __builtin_clz(v), eb = msb - 1;
    *code = 2 * msb + (int)((v >> eb) & 1);
    *extra_bits = eb;
    *extra = v & ((1u << eb) - 1);
}

/* How many bytes from `p` equal those `distance` before, at most `limit`. `from` is formed once:
 * `p[n - distance]` would wrap the unsigned index below zero while n < distance (the address
 * right, the arithmetic undefined: UBSan's pointer-overflow check). */
static inline size_t match_length(const uint8_t *p, size_t distance, size_t limit) {
    const uint8_t *from = p - distance;
    size_t n = 0;
#if defined(__SSE2__)
    /* Sixteen bytes at first (bit k of `differ`: byte k differs): most calls end there, a
     * literal's candidates. Then sixty-four a step, one branch for four compares: the row above
     * and runs, 258 bytes long, are most of a frame's bytes. Then sixteen, then eight, then one.
     * Sixteen a step instead of bytes: on the 790 bundled frames 7 % fewer instructions and 11 %
     * fewer mispredicted branches in the search, by cachegrind; sixty-four after the first
     * sixteen: 6 % less of the search's time (0.111 s against 0.118 s over their rows); the same
     * lengths. */
    if (limit >= 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)from);
        unsigned differ = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) ^ 0xFFFFu;
        if (differ) return (size_t)__builtin_ctz(differ);
        n = 16;
    }
    while (n + 64 <= limit) {
        __m128i e0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + n)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(from + n)));
        __m128i e1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + n + 16)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(from + n + 16)));
        __m128i e2 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + n + 32)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(from + n + 32)));
        __m128i e3 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + n + 48)),
                                    _mm_loadu_si128((const __m128i *)(const void *)(from + n + 48)));
        if (_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3))) != 0xFFFF) {
            uint64_t same = (uint64_t)(unsigned)_mm_movemask_epi8(e0) | (uint64_t)(unsigned)_mm_movemask_epi8(e1) << 16
                            | (uint64_t)(unsigned)_mm_movemask_epi8(e2) << 32 | (uint64_t)(unsigned)_mm_movemask_epi8(e3) << 48;
            return n + (size_t)__builtin_ctzll(~same);
        }
        n += 64;
    }
    while (n + 16 <= limit) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + n));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(from + n));
        unsigned differ = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) ^ 0xFFFFu;
        if (differ) return n + (size_t)__builtin_ctz(differ);
        n += 16;
    }
#endif
    while (n + 8 <= limit) {
        uint64_t a, b;
        memcpy(&a, p + n, 8);
        memcpy(&b, from + n, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        if (a != b) return n + (size_t)(__builtin_clzll(a ^ b) >> 3);   /* the first byte is the most significant */
#else
        if (a != b) return n + (size_t)(__builtin_ctzll(a ^ b) >> 3);
#endif
        n += 8;
    }
    while (n < limit && p[n] == from[n]) n++;
    return n;
}

/* A band's symbols, one 32-bit word each, in the form the Huffman pass writes them without
 * branching on what they are: bits 0-8 the literal/length symbol (0-285), bits 9-13 its extra
 * bits' value, bits 14-18 the distance code (0-29, or 30 for none: a literal), bits 19-31 the
 * distance's extra bits' value (at most 13 bits). Counting and writing them then takes no branch
 * that depends on the data: on the 790 bundled frames the literal-or-match and code-length tests
 * of the two passes over the symbols were 44 % of the encoder's mispredicted branches
 * (cachegrind's branch simulation), and each match's codes were worked out twice. */
#define NR_NO_DISTANCE 30u
#define NR_LITERAL(byte) ((uint32_t)(byte) | NR_NO_DISTANCE << 14)

/* Tables for a match's symbol: `length_table[length - 3]` holds its symbol | extra value << 9,
 * `distance_table` its distance code by (distance - 1) below 256 and by 256 + ((distance - 1) >> 7)
 * above (every code from 16 up starts on a multiple of 128: zlib's `_dist_code` does the same),
 * `distance_base[c]` the code's first distance - 1. Filled once, from length_symbol and
 * distance_code. */
static uint16_t length_table[256];
static uint8_t distance_table[512];
static uint16_t distance_base[30];
static pthread_once_t symbol_tables_once = PTHREAD_ONCE_INIT;

static void fill_symbol_tables(void) {
    for (uint32_t v = 0; v < 256; v++) {
        int symbol, extra_bits;
        uint32_t extra;
        length_symbol(v + 3, &symbol, &extra_bits, &extra);
        length_table[v] = (uint16_t)((uint32_t)symbol | extra << 9);
    }
    /* A code at a time (its first distance, then as many as its extra bits count): a few hundred
     * entries instead of a call for each of the 32,768 distances, which cost `navreel diff`
     * (whose diff image is the first thing it encodes) about half a millisecond at start. */
    for (uint32_t d = 1; d <= 32768;) {
        int code, extra_bits;
        uint32_t extra;
        distance_code(d, &code, &extra_bits, &extra);
        distance_base[code] = (uint16_t)(d - 1);
        uint32_t end = d + (1u << extra_bits);
        for (uint32_t v = d - 1; v < end - 1; v += v < 256 ? 1 : 128) {
            if (v < 256) distance_table[v] = (uint8_t)code;
            else distance_table[256 + (v >> 7)] = (uint8_t)code;
        }
        d = end;
    }
}

static inline uint32_t match_symbol(size_t length, size_t distance) {
    uint32_t d = (uint32_t)distance - 1;
    uint32_t code = distance_table[d < 256 ? d : 256 + (d >> 7)];
    return (uint32_t)length_table[length - 3] | code << 14 | (d - distance_base[code]) << 19;
}

/* The hash of the four bytes at `p` for the match search: Knuth's multiplicative hash (TAOCP vol.
 * 3, 6.4), the top NR_HASH_BITS bits of the product. */
#define NR_HASH_BITS 15
/* Deflate's window: the farthest a match reaches back (RFC 1951 3.2.5). */
#define NR_WINDOW 32768
static inline uint32_t hash4(const uint8_t *p) {
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return (v * 2654435761u) >> (32 - NR_HASH_BITS);
}

/* The band's symbols. Without a search (`depth` 0, diff images): the longer of a run (distance 1)
 * and the row above, as before. With one (baselines): also a run of whole pixels (distance
 * `pixel_bytes`), and up to `depth` earlier positions of the band with the same four bytes,
 * found through a hash table and chains of earlier positions (as zlib's and libdeflate's match
 * finders do), taken only while the runs and the row above give less than 16 bytes; a match of
 * less than 32 is dropped for a literal when the next byte starts a longer one by two (one step
 * of lazy matching). Positions inside matches of 32 bytes or more are not hashed: such matches
 * are the row above or runs, found without the table. `head` holds 2^NR_HASH_BITS entries and
 * `chain` NR_WINDOW entries: a position's link goes to slot `position % NR_WINDOW`, as in zlib's
 * `prev` (128 KiB instead of four bytes a byte of the band, which evicted the painter's data from
 * the caches and faulted in fresh pages for every band). A slot is overwritten only by a position a
 * multiple of NR_WINDOW later; a candidate within reach is at most NR_WINDOW back, so the one slot that can
 * hold a later position's link is that of a candidate exactly NR_WINDOW back, overwritten by the
 * current position, whose own earlier positions are out of reach anyway: the walk stops when a
 * link does not go back, and finds what a link per byte found. The longest candidate wins; on a tie the first tried (run,
 * pixel run, row above, then the chain from the nearest). Returns the symbol count; each symbol is
 * counted in `litlen_freq` (286) and, a match, in `dist_freq` (31; slot NR_NO_DISTANCE stays 0) as it is made. */
static size_t band_symbols(const uint8_t *data, size_t length, size_t before, size_t row, size_t pixel_bytes, int depth,
                           int32_t *head, int32_t *chain, uint32_t *symbols, uint32_t *litlen_freq,
                           uint32_t *dist_freq) {
    int rows_above = row <= 32768;
    size_t count = 0, i = 0;
    while (i < length) {
        size_t limit = length - i < 258 ? length - i : 258;
        size_t best = 0, distance = 0;
        /* The next position's hash-table entry, fetched while this one is searched: in runs of
         * literals it is the next lookup, a load from a 128 KiB table that misses L1. */
        if (depth > 0 && i + 5 <= length) __builtin_prefetch(head + hash4(data + i + 1));
        if (limit >= 3) {
            if (before + i >= 1) {
                best = match_length(data + i, 1, limit);
                distance = 1;
            }
            if (depth > 0 && pixel_bytes > 1 && best < limit && before + i >= pixel_bytes) {
                size_t n = match_length(data + i, pixel_bytes, limit);
                if (n > best) best = n, distance = pixel_bytes;
            }
            if (rows_above && before + i >= row && best < limit) {
                size_t n = match_length(data + i, row, limit);
                if (n > best) best = n, distance = row;
            }
            if (depth > 0 && best < 16 && limit >= 4) {
                uint32_t h = hash4(data + i);
                int32_t candidate = head[h];
                head[h] = (int32_t)i;
                chain[i & (NR_WINDOW - 1)] = candidate;
                for (int k = 0; k < depth && candidate >= 0 && i - (size_t)candidate <= NR_WINDOW; k++) {
                    size_t d = i - (size_t)candidate;
                    if (d != distance) {
                        size_t n = match_length(data + i, d, limit);
                        if (n > best) best = n, distance = d;
                    }
                    int32_t earlier = chain[candidate & (NR_WINDOW - 1)];
                    if (earlier >= candidate) break;
                    candidate = earlier;
                }
                if (best >= 3 && best < 32 && length - i > 4) {
                    /* One step of lazy matching: the next byte's run, row above and nearest
                     * hashed position. */
                    size_t next_limit = length - i - 1 < 258 ? length - i - 1 : 258, next = 0;
                    if (before + i + 1 >= pixel_bytes) next = match_length(data + i + 1, pixel_bytes, next_limit);
                    if (rows_above && before + i + 1 >= row) {
                        size_t n = match_length(data + i + 1, row, next_limit);
                        if (n > next) next = n;
                    }
                    int32_t c = head[hash4(data + i + 1)];
                    if (c >= 0 && i + 1 - (size_t)c <= NR_WINDOW) {
                        size_t n = match_length(data + i + 1, i + 1 - (size_t)c, next_limit);
                        if (n > next) next = n;
                    }
                    if (next > best + 1) best = 0;
                }
            }
        }
        if (best >= 3) {
            uint32_t symbol = match_symbol(best, distance);
            symbols[count++] = symbol;
            litlen_freq[symbol & 511]++;
            dist_freq[symbol >> 14 & 31]++;
            if (depth > 0 && best < 32) {
                for (size_t k = i + 1; k < i + best && k + 4 <= length; k++) {
                    uint32_t h = hash4(data + k);
                    chain[k & (NR_WINDOW - 1)] = head[h];
                    head[h] = (int32_t)k;
                }
            }
            i += best;
        } else {
            symbols[count++] = NR_LITERAL(data[i]);
            litlen_freq[data[i]]++;
            i++;
        }
    }
    return count;
}

/* Distance code `c`'s extra bits (RFC 1951 3.2.5). */
static inline int distance_extra_bits(int c) { return c < 4 ? 0 : c / 2 - 1; }

/* The search encoder on a band's filtered rows as they are: `length` bytes at `data`, with the
 * `before` bytes ahead of them (0, or the row before the band) readable as the row above. */
static int band_search(const uint8_t *data, size_t length, size_t before, size_t row_bytes, size_t pixel_bytes, int depth,
                       int last, uint8_t **out, size_t *out_length, uint32_t *adler, char *message, size_t message_capacity);

int nr_deflate_band_search(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row,
                           uint32_t row_count, size_t pixel_bytes, int depth, int last, uint8_t **out,
                           size_t *out_length, uint32_t *adler, char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    *adler = 1;
    if (depth < 0 || depth > 4096 || pixel_bytes < 1 || pixel_bytes > 8) {
        copy_message(message, message_capacity, "deflate band: search depth outside 0-4096 or pixel size outside 1-8 bytes");
        return NR_ERR_ARGUMENT;
    }
    uint8_t *raw = NULL;
    size_t length = 0, before = 0;
    int status = band_rows(rows, rows_length, stride, row_bytes, first_row, row_count, 1, 1, &raw, &length, &before,
                           message, message_capacity);
    if (status != NR_OK) return status;
    status = band_search(raw + before, length, before, row_bytes, pixel_bytes, depth, last, out, out_length, adler,
                         message, message_capacity);
    free(raw);
    return status;
}

int nr_deflate_band_search_filtered(const uint8_t *filtered, size_t filtered_length, size_t row_bytes, uint32_t first_row,
                                    uint32_t row_count, size_t pixel_bytes, int depth, int last, uint8_t **out,
                                    size_t *out_length, uint32_t *adler, char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    *adler = 1;
    if (depth < 0 || depth > 4096 || pixel_bytes < 1 || pixel_bytes > 8) {
        copy_message(message, message_capacity, "deflate band: search depth outside 0-4096 or pixel size outside 1-8 bytes");
        return NR_ERR_ARGUMENT;
    }
    if (!filtered || row_count == 0 || row_bytes == 0) {
        copy_message(message, message_capacity, "deflate band: no rows");
        return NR_ERR_ARGUMENT;
    }
    size_t end_row = (size_t)first_row + (size_t)row_count;
    if (row_bytes == SIZE_MAX || end_row > SIZE_MAX / (row_bytes + 1)) {
        copy_message(message, message_capacity, "deflate band: rows past any buffer");
        return NR_ERR_LIMIT;
    }
    size_t row = row_bytes + 1;
    if (end_row * row > filtered_length) {
        copy_message(message, message_capacity, "deflate band: rows past the end of the image");
        return NR_ERR_ARGUMENT;
    }
    /* The same bound as band_rows (a symbol of 32 bits per byte; positions are int32_t, so a band
     * past 2 GiB, which no frame makes, would find no chain matches beyond that: fewer matches,
     * never a wrong one). */
    size_t length = row * (size_t)row_count, before = first_row > 0 ? row : 0;
    if (length + before > (size_t)0xFFFFFFFFu - 65536u) {
        copy_message(message, message_capacity, "deflate band: more than 4 GiB in one band");
        return NR_ERR_LIMIT;
    }
    return band_search(filtered + (size_t)first_row * row, length, before, row_bytes, pixel_bytes, depth, last, out,
                       out_length, adler, message, message_capacity);
}

static int band_search(const uint8_t *data, size_t length, size_t before, size_t row_bytes, size_t pixel_bytes, int depth,
                       int last, uint8_t **out, size_t *out_length, uint32_t *adler, char *message, size_t message_capacity) {
    /* A symbol per input byte at most. Both callers keep a band under 4 GiB. */
    uint32_t *symbols = (uint32_t *)malloc(length * sizeof(uint32_t));
    int32_t *head = NULL, *chain = NULL;
    if (depth > 0) {
        head = (int32_t *)malloc(((size_t)1 << NR_HASH_BITS) * sizeof(int32_t));
        chain = (int32_t *)malloc(NR_WINDOW * sizeof(int32_t));
    }
    if (!symbols || (depth > 0 && (!head || !chain))) {
        free(symbols), free(head), free(chain);
        copy_message(message, message_capacity, "out of memory for a band of rows");
        return NR_ERR_MEMORY;
    }
    if (head) memset(head, 0xFF, ((size_t)1 << NR_HASH_BITS) * sizeof(int32_t));   /* -1: no position yet */
    pthread_once(&symbol_tables_once, fill_symbol_tables);
    size_t row = row_bytes + 1;
    /* dist_freq[NR_NO_DISTANCE]: the literals' empty distance slot, never counted; no code is made for it. */
    uint32_t litlen_freq[286] = {0}, dist_freq[31] = {0};
    size_t count = band_symbols(data, length, before, row, pixel_bytes, depth, head, chain, symbols, litlen_freq,
                                dist_freq);
    free(head);
    free(chain);
    litlen_freq[256] = 1;
    /* Slot NR_NO_DISTANCE of the distance tables: the literals' empty distance, no bits. */
    uint8_t litlen_lengths[286], dist_lengths[31];
    code_lengths(litlen_freq, 286, 15, litlen_lengths);
    code_lengths(dist_freq, 30, 15, dist_lengths);
    int hlit = 286, hdist = 30;
    while (hlit > 257 && litlen_lengths[hlit - 1] == 0) hlit--;
    while (hdist > 1 && dist_lengths[hdist - 1] == 0) hdist--;

    /* The code lengths of both tables as one sequence, run-length coded with 16, 17 and 18. */
    uint8_t all[316];
    memcpy(all, litlen_lengths, (size_t)hlit);
    memcpy(all + hlit, dist_lengths, (size_t)hdist);
    int total = hlit + hdist;
    uint8_t cl_symbols[316], cl_extra[316];
    int cl_count = 0;
    uint32_t cl_freq[19] = {0};
    for (int k = 0; k < total;) {
        int v = all[k], run = 1;
        while (k + run < total && all[k + run] == v) run++;
        k += run;
        if (v == 0) {
            while (run >= 11) {
                int r = run < 138 ? run : 138;
                cl_symbols[cl_count] = 18, cl_extra[cl_count++] = (uint8_t)(r - 11);
                run -= r;
            }
            if (run >= 3) {
                cl_symbols[cl_count] = 17, cl_extra[cl_count++] = (uint8_t)(run - 3);
                run = 0;
            }
        } else {
            cl_symbols[cl_count] = (uint8_t)v, cl_extra[cl_count++] = 0;
            run--;
            while (run >= 3) {
                int r = run < 6 ? run : 6;
                cl_symbols[cl_count] = 16, cl_extra[cl_count++] = (uint8_t)(r - 3);
                run -= r;
            }
        }
        while (run-- > 0) cl_symbols[cl_count] = (uint8_t)v, cl_extra[cl_count++] = 0;
    }
    for (int k = 0; k < cl_count; k++) cl_freq[cl_symbols[k]]++;
    uint8_t cl_lengths[19];
    code_lengths(cl_freq, 19, 7, cl_lengths);
    static const uint8_t cl_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    int hclen = 19;
    while (hclen > 4 && cl_lengths[cl_order[hclen - 1]] == 0) hclen--;

    uint16_t litlen_codes[286], dist_codes[31], cl_codes[19];
    canonical_codes(litlen_lengths, 286, litlen_codes);
    canonical_codes(dist_lengths, 30, dist_codes);
    dist_lengths[NR_NO_DISTANCE] = 0, dist_codes[NR_NO_DISTANCE] = 0;
    canonical_codes(cl_lengths, 19, cl_codes);

    /* Each symbol's bits with its extra bits (RFC 1951 3.2.5): the block's size below and the
     * writer's step after each symbol. */
    uint8_t litlen_bits[286], dist_bits[31];
    for (int sym = 0; sym < 286; sym++)
        litlen_bits[sym] = (uint8_t)(litlen_lengths[sym] + (sym >= 265 && sym < 285 ? (sym - 261) / 4 : 0));
    for (int c = 0; c < 30; c++) dist_bits[c] = (uint8_t)(dist_lengths[c] + distance_extra_bits(c));
    dist_bits[NR_NO_DISTANCE] = 0;

    /* The block's exact size from the codes (the header, every symbol with its extra bits, the
     * end of block), plus 16 bytes for the sync flush's five and the writer's 8-byte stores: not a worst case. */
    static const int cl_extra_bits[19] = {[16] = 2, [17] = 3, [18] = 7};
    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen + litlen_lengths[256];
    for (int k = 0; k < cl_count; k++) bits += cl_lengths[cl_symbols[k]] + (uint64_t)cl_extra_bits[cl_symbols[k]];
    for (int sym = 0; sym < 286; sym++) bits += (uint64_t)litlen_freq[sym] * litlen_bits[sym] * (sym != 256);
    for (int c = 0; c < 30; c++) bits += (uint64_t)dist_freq[c] * dist_bits[c];
    size_t capacity = (size_t)(bits / 8) + 16;
    uint8_t *buffer = (uint8_t *)malloc(capacity);
    if (!buffer) {
        free(symbols);
        copy_message(message, message_capacity, "out of memory for a band of rows");
        return NR_ERR_MEMORY;
    }
    bit_writer w = {buffer, capacity, 0, 0, 0};
    put_bits(&w, last ? 1u : 0u, 1);
    put_bits(&w, 2, 2);   /* dynamic Huffman codes */
    put_bits(&w, (uint32_t)(hlit - 257), 5);
    put_bits(&w, (uint32_t)(hdist - 1), 5);
    put_bits(&w, (uint32_t)(hclen - 4), 4);
    for (int k = 0; k < hclen; k++) put_bits(&w, cl_lengths[cl_order[k]], 3);
    for (int k = 0; k < cl_count; k++) {
        int sym = cl_symbols[k];
        put_bits(&w, cl_codes[sym], cl_lengths[sym]);
        if (cl_extra_bits[sym]) put_bits(&w, cl_extra[k], cl_extra_bits[sym]);
    }
    /* The symbols: per symbol the literal/length code with its extra bits after it (at most 15 +
     * 5 bits) and the distance code with its extra bits (at most 15 + 13; none for a literal,
     * whose distance slot has no bits), into a 64-bit accumulator that holds fewer than 8 bits
     * between symbols, then eight bytes stored and the whole ones kept: no branch on the data.
     * The buffer's 16 bytes of slack (above) take the store past the last whole byte. */
    while (w.count >= 8) {   /* whole bytes of the header out, so fewer than 8 bits are held */
        if (w.position < w.capacity) w.data[w.position] = (uint8_t)w.bits;
        w.position++;
        w.bits >>= 8;
        w.count -= 8;
    }
    uint64_t acc = w.bits;
    unsigned held = (unsigned)w.count;
    size_t at = w.position;
    size_t k = 0;
    for (; k < count && at + 8 <= capacity; k++) {
        uint32_t s = symbols[k], sym = s & 511, code = s >> 14 & 31;
        acc |= ((uint64_t)litlen_codes[sym] | (uint64_t)(s >> 9 & 31) << litlen_lengths[sym]) << held;
        held += litlen_bits[sym];
        acc |= ((uint64_t)dist_codes[code] | (uint64_t)(s >> 19) << dist_lengths[code]) << held;
        held += dist_bits[code];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        uint64_t bytes = __builtin_bswap64(acc);   /* least significant byte first on any host */
#else
        uint64_t bytes = acc;
#endif
        memcpy(buffer + at, &bytes, 8);
        at += held >> 3;
        acc >>= held & ~7u;
        held &= 7;
    }
    if (k < count) {   /* the sizing above is exact, with 16 bytes to spare; never, but checked */
        free(buffer);
        free(symbols);
        copy_message(message, message_capacity, "deflate band: the encoder's output outgrew its buffer");
        return NR_ERR_LIMIT;
    }
    w.bits = acc, w.count = (int)held, w.position = at;
    put_bits(&w, litlen_codes[256], litlen_lengths[256]);
    if (!last) {
        /* zlib's sync flush: an empty stored block, so the band ends on a byte. */
        put_bits(&w, 0, 3);
        flush_bits(&w);
        put_bits(&w, 0xFFFF0000u, 32);
    }
    flush_bits(&w);
    free(symbols);
    uint32_t a = (uint32_t)libdeflate_adler32(1, data, length);
    if (w.position > capacity) {   /* the sizing above is exact; never, but checked */
        free(buffer);
        copy_message(message, message_capacity, "deflate band: the encoder's output outgrew its buffer");
        return NR_ERR_LIMIT;
    }
    *out = buffer;
    *out_length = w.position;
    *adler = a;
    return NR_OK;
}

/* The diff images' encoder: the search encoder without a search, pixels of one byte. */
int nr_deflate_band_runs(const uint8_t *rows, size_t rows_length, size_t stride, size_t row_bytes, uint32_t first_row,
                         uint32_t row_count, int last, uint8_t **out, size_t *out_length, uint32_t *adler,
                         char *message, size_t message_capacity) {
    return nr_deflate_band_search(rows, rows_length, stride, row_bytes, first_row, row_count, 1, 0, last, out, out_length,
                                  adler, message, message_capacity);
}

uint32_t nr_adler32_combine(uint32_t adler_a, uint32_t adler_b, size_t length_b) {
    return (uint32_t)adler32_combine(adler_a, adler_b, (z_off_t)length_b);
}

int nr_deflate(const uint8_t *src, size_t length, int level, uint8_t **out, size_t *out_length,
               char *message, size_t message_capacity) {
    return nr_deflate_strategy(src, length, level, Z_DEFAULT_STRATEGY, out, out_length, message, message_capacity);
}

int nr_deflate_strategy(const uint8_t *src, size_t length, int level, int strategy, uint8_t **out,
                        size_t *out_length, char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (level < 0 || level > 9 || (strategy != Z_DEFAULT_STRATEGY && strategy != Z_FILTERED &&
                                   strategy != Z_HUFFMAN_ONLY && strategy != Z_RLE && strategy != Z_FIXED)) {
        copy_message(message, message_capacity, "deflate: level must be 0-9 and the strategy one of zlib's");
        return NR_ERR_ARGUMENT;
    }
    /* avail_in and avail_out are uInt: one call takes at most 4 GiB in and out. */
    if (length > (size_t)0xFFFFFFFFu - 65536u) {
        copy_message(message, message_capacity, "deflate: more than 4 GiB in one buffer");
        return NR_ERR_LIMIT;
    }
    return zlib_deflate(src, length, level, 15, strategy, 1, out, out_length, message, message_capacity);
}

int nr_inflate_into(const uint8_t *src, size_t length, uint8_t *dst, size_t capacity, size_t *out_length,
                    char *message, size_t message_capacity) {
    *out_length = 0;
    /* libdeflate first (two to three times zlib's speed); zlib below when it refuses the data,
     * for zlib's message. */
    nr_advise_huge_pages(dst, capacity);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (d) {
        size_t used = 0, made = 0;
        enum libdeflate_result r = libdeflate_zlib_decompress_ex(d, src, length, dst, capacity, &used, &made);
        libdeflate_free_decompressor(d);
        if (r == LIBDEFLATE_SUCCESS) {
            *out_length = made;
            return NR_OK;
        }
        if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
            snprintf(message, message_capacity, "inflated data is larger than the limit of %zu bytes", capacity);
            return NR_ERR_LIMIT;
        }
    }
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) {
        copy_message(message, message_capacity, "zlib could not start");
        return NR_ERR_ZLIB;
    }
    stream.next_in = (Bytef *)src;
    size_t in_left = length, produced = 0;
    uint8_t spare; /* one byte past the buffer: output that reaches it is over the limit */
    int z = Z_OK;
    for (;;) {
        uInt in = in_left > 0x40000000u ? 0x40000000u : (uInt)in_left;
        stream.avail_in = in;
        size_t room = capacity - produced;
        int over = room == 0;
        stream.next_out = over ? &spare : dst + produced;
        stream.avail_out = over ? 1 : (room > 0x40000000u ? 0x40000000u : (uInt)room);
        uInt out_before = stream.avail_out;
        z = inflate(&stream, Z_NO_FLUSH);
        in_left -= in - stream.avail_in;
        size_t made = out_before - stream.avail_out;
        if (over && made > 0) {
            inflateEnd(&stream);
            snprintf(message, message_capacity, "inflated data is larger than the limit of %zu bytes", capacity);
            return NR_ERR_LIMIT;
        }
        produced += made;
        if (z == Z_STREAM_END) break;
        if (z == Z_OK) continue;
        if (z == Z_BUF_ERROR && stream.avail_out == 0) continue; /* full: the next turn tests one more byte */
        const char *why = stream.msg ? stream.msg : zError(z);
        if (z == Z_BUF_ERROR) why = "compressed data ends early";
        snprintf(message, message_capacity, "bad zlib data: %s", why);
        inflateEnd(&stream);
        return NR_ERR_ZLIB;
    }
    inflateEnd(&stream);
    *out_length = produced;
    return NR_OK;
}

int nr_inflate_measure(const uint8_t *data, const nr_span *spans, size_t span_count, size_t expected,
                       size_t *produced, int *ended, char *message, size_t message_capacity) {
    *produced = 0;
    *ended = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) {
        copy_message(message, message_capacity, "zlib could not start");
        return NR_ERR_ZLIB;
    }
    uint8_t scratch[65536];
    size_t total = 0;
    const size_t stop = expected + 1; /* one byte past the image proves there is more */
    for (size_t i = 0; i < span_count && total < stop; i++) {
        const uint8_t *next = data + spans[i].offset;
        size_t left = spans[i].length;
        while (left > 0 && total < stop) {
            uInt in = left > 0x40000000u ? 0x40000000u : (uInt)left;
            stream.next_in = (Bytef *)next;
            stream.avail_in = in;
            size_t room = stop - total;
            if (room > sizeof scratch) room = sizeof scratch;
            stream.next_out = scratch;
            stream.avail_out = (uInt)room;
            int z = inflate(&stream, Z_NO_FLUSH);
            size_t used = in - stream.avail_in;
            next += used;
            left -= used;
            total += room - stream.avail_out;
            if (z == Z_STREAM_END) {
                *ended = 1;
                inflateEnd(&stream);
                *produced = total;
                return NR_OK;
            }
            if (z != Z_OK && z != Z_BUF_ERROR) {
                snprintf(message, message_capacity, "%s", stream.msg ? stream.msg : zError(z));
                inflateEnd(&stream);
                *produced = total;
                return NR_ERR_ZLIB;
            }
            if (z == Z_BUF_ERROR && used == 0 && stream.avail_out > 0) break; /* needs the next span */
        }
    }
    inflateEnd(&stream);
    *produced = total;
    return NR_OK;
}

uint32_t nr_crc32(uint32_t crc, const uint8_t *data, size_t length) {
    return (uint32_t)crc32((uLong)crc, data, (uInt)length);
}

const char *nr_png_version(void) { return png_get_libpng_ver(NULL); }

void nr_free(void *pointer) { free(pointer); }

/* MARK: plain PNGs without libpng */

/* Paeth predictor (PNG specification, 9.4). */
static inline uint8_t paeth(int a, int b, int c) {
    int pa = b - c, pb = a - c, pc;
    pc = pa + pb;
    if (pa < 0) pa = -pa;
    if (pb < 0) pb = -pb;
    if (pc < 0) pc = -pc;
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

/* Bytewise addition modulo 256 of the lanes of two words (SWAR): the low seven bits add without
 * carrying into the next lane, and the top bit of each lane is the XOR of the two top bits and
 * that carry. */
static inline uint32_t add_lanes32(uint32_t a, uint32_t b) {
    return ((a & 0x7F7F7F7Fu) + (b & 0x7F7F7F7Fu)) ^ ((a ^ b) & 0x80808080u);
}
static inline uint64_t add_lanes64(uint64_t a, uint64_t b) {
    return ((a & 0x7F7F7F7F7F7F7F7Full) + (b & 0x7F7F7F7F7F7F7F7Full)) ^ ((a ^ b) & 0x8080808080808080ull);
}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NR_ALPHA_LANE 0x000000FFu
#else
#define NR_ALPHA_LANE 0xFF000000u
#endif
static inline uint32_t load32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void store32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void store64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

#if defined(__SSE2__)
#include <emmintrin.h>
/* The Average and Paeth filters (PNG specification, 9.3 and 9.4) depend on the pixel to the left,
 * so a row is decoded a pixel at a time; but the channels of one pixel are independent, so they go
 * through together, widened to 16-bit lanes, and Paeth's choice is made with compares and masks
 * instead of the branches that mispredicted on every other pixel of a screenshot (a phone pair
 * from Pillow: Paeth rows were most of the decode, issue 17). The same lane arithmetic as libpng's
 * filter_sse2_intrinsics.c, written from the specification. */
static inline __m128i nr_pixel16(uint32_t bytes) { return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)bytes), _mm_setzero_si128()); }
static inline uint32_t nr_pixel8(__m128i lanes) { return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(lanes, lanes)); }
static inline __m128i nr_abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }
/* Paeth's predictor for lanes a (left), b (above), c (above left): with p = a + b - c,
 * pa = |p - a| = |b - c|, pb = |p - b| = |a - c|, pc = |p - c| = |(b - c) + (a - c)|; a when
 * pa <= pb and pa <= pc, else b when pb <= pc, else c (the specification's order for ties). */
static inline __m128i nr_paeth16(__m128i a, __m128i b, __m128i c) {
    __m128i bc = _mm_sub_epi16(b, c), ac = _mm_sub_epi16(a, c);
    __m128i pa = nr_abs16(bc), pb = nr_abs16(ac), pc = nr_abs16(_mm_add_epi16(bc, ac));
    __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i not_b = _mm_cmpgt_epi16(pb, pc);
    __m128i b_or_c = _mm_or_si128(_mm_and_si128(not_b, c), _mm_andnot_si128(not_b, b));
    return _mm_or_si128(_mm_and_si128(not_a, b_or_c), _mm_andnot_si128(not_a, a));
}
/* One pixel of an Average (filter 3) or Paeth (4) row: the filtered bytes x, the left pixel a and
 * the pixels above, b and c, all as 16-bit lanes; the result as 16-bit lanes (the next a). */
static inline __m128i nr_unfilter16(int filter, __m128i x, __m128i a, __m128i b, __m128i c) {
    __m128i predictor = filter == 3 ? _mm_srli_epi16(_mm_add_epi16(a, b), 1) : nr_paeth16(a, b, c);
    return _mm_and_si128(_mm_add_epi16(x, predictor), _mm_set1_epi16(0xFF));
}
/* An Average or Paeth row of RGBA (channels 4) or RGB (3) into RGBA8. RGB pixels are loaded as
 * the word at in[3x] (the fourth byte, the next pixel's, only reaches a lane whose result is
 * replaced by the alpha); the row's last pixel is loaded byte by byte (its word would read past
 * the row). Each pixel's input is read before its output is written, which ends before the next
 * pixel's input (as in unfilter_row). */
static void nr_unfilter_row_sse2(int filter, const uint8_t *in, uint8_t *out, const uint8_t *up, uint32_t width, int channels) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (uint32_t x = 0; x < width; x++) {
        uint32_t raw;
        if (channels == 4) raw = load32(in + 4 * (size_t)x);
        else if (x + 1 < width) raw = load32(in + 3 * (size_t)x);
        else raw = (uint32_t)in[3 * (size_t)x] | (uint32_t)in[3 * (size_t)x + 1] << 8 | (uint32_t)in[3 * (size_t)x + 2] << 16;
        __m128i b = nr_pixel16(load32(up + 4 * (size_t)x));
        a = nr_unfilter16(filter, nr_pixel16(raw), a, b, c);
        c = b;
        uint32_t pixel = nr_pixel8(a);
        if (channels == 3) pixel |= NR_ALPHA_LANE;
        store32(out + 4 * (size_t)x, pixel);
    }
}
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <tmmintrin.h>
/* RGB rows of the None (0) and Up (2) filters, four pixels at a time: twelve bytes spread to
 * sixteen by one byte shuffle (SSSE3, checked at run time: every x86-64 CPU since about 2006
 * has it), the row above added bytewise for Up, the alpha set. Most rows of screenshots from
 * Pillow and of NavReel's own frames are these two; the word-at-a-time loop spent a third of a
 * phone pair's decode there (issue 17). Stops six pixels before the row's end, so the sixteen-byte
 * load stays inside the row; returns how many pixels it wrote. Each load is made before the store
 * that follows it, and a store ends before the next load's bytes (the input lies at least
 * width + 1 bytes after the output, nr_png_decode_plain). */
__attribute__((target("ssse3")))
static uint32_t nr_expand_rgb_ssse3(int filter, const uint8_t *in, uint8_t *out, const uint8_t *up, uint32_t width) {
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i alpha = _mm_set1_epi32((int)NR_ALPHA_LANE);
    uint32_t x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i v = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 3 * (size_t)x)), spread);
        if (filter == 2) v = _mm_add_epi8(v, _mm_loadu_si128((const __m128i *)(up + 4 * (size_t)x)));
        _mm_storeu_si128((__m128i *)(out + 4 * (size_t)x), _mm_or_si128(v, alpha));
    }
    return x;
}
/* The other way, for baselines: RGBA8 to RGB, four pixels a shuffle (sixteen bytes in, twelve
 * kept). Stops six pixels before the row's end, so each sixteen-byte store (four bytes past the
 * twelve, rewritten by the next one) stays inside the `3 * width` bytes of `rgb`; returns how many
 * pixels it packed. */
__attribute__((target("ssse3")))
static size_t nr_pack_rgb_ssse3(const uint8_t *rgba, uint8_t *rgb, size_t width, uint8_t *alphas) {
    const __m128i gather = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    __m128i all = _mm_set1_epi8(-1);
    size_t x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(rgba + 4 * x));
        all = _mm_and_si128(all, v);
        _mm_storeu_si128((__m128i *)(rgb + 3 * x), _mm_shuffle_epi8(v, gather));
    }
    /* The AND of the four lanes' alpha bytes (bytes 3, 7, 11, 15). */
    uint8_t lanes[16];
    _mm_storeu_si128((__m128i *)lanes, all);
    *alphas = (uint8_t)(lanes[3] & lanes[7] & lanes[11] & lanes[15]);
    return x;
}
#include <cpuid.h>
/* CPUID leaf 1, ECX bit 9 (Intel SDM vol. 2A, CPUID). Asked once, on the first RGB row, and kept in
 * a relaxed atomic (threads would all store the same answer). Not __builtin_cpu_supports: that
 * links libgcc's __cpu_indicator_init, a constructor that runs a dozen CPUID instructions at every
 * start, and each traps to the hypervisor on a virtual machine (5-6 us each on the benchmark
 * machine; issue 17, start-up). */
int nr_png_ssse3(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        unsigned a, b, c, d;
        answer = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 9)) ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}
#else
int nr_png_ssse3(void) { return 0; }
#endif

uint8_t nr_pack_rgb(const uint8_t *rgba, uint8_t *rgb, size_t width, int use_ssse3) {
    size_t x = 0;
    uint8_t alphas = 0xFF;
#if defined(__x86_64__) || defined(__i386__)
    if (use_ssse3 && nr_png_ssse3()) x = nr_pack_rgb_ssse3(rgba, rgb, width, &alphas);
#else
    (void)use_ssse3;
#endif
    for (; x < width; x++) {
        rgb[3 * x] = rgba[4 * x];
        rgb[3 * x + 1] = rgba[4 * x + 1];
        rgb[3 * x + 2] = rgba[4 * x + 2];
        alphas &= rgba[4 * x + 3];
    }
    return alphas;
}

/* One row of `channels` (3 or 4) bytes a pixel, filter `filter`, into RGBA8 at `out`; `up` is the
 * previous output row (RGBA8) or a row of zeros. `in` may lie inside `out`'s memory, after it:
 * each input byte is read before any output byte at or past it is written. */
static int unfilter_row(int filter, const uint8_t *in, uint8_t *out, const uint8_t *up, uint32_t width, int channels) {
#if defined(__SSE2__)
    if (filter == 3 || filter == 4) {
        nr_unfilter_row_sse2(filter, in, out, up, width, channels);
        return 0;
    }
#endif
    if (channels == 4) {
        size_t n = (size_t)width * 4;
        switch (filter) {
        case 0: memmove(out, in, n); return 0;
        case 1: {
            uint32_t left = 0;
            for (size_t i = 0; i < n; i += 4) {
                left = add_lanes32(load32(in + i), left);
                store32(out + i, left);
            }
            return 0;
        }
        case 2: {
            /* Eight bytes at a time: each store ends before the next load's input (in > out). */
            size_t i = 0;
            for (; i + 8 <= n; i += 8) store64(out + i, add_lanes64(load64(in + i), load64(up + i)));
            for (; i < n; i++) out[i] = (uint8_t)(in[i] + up[i]);
            return 0;
        }
        case 3:
            for (size_t i = 0; i < 4 && i < n; i++) out[i] = (uint8_t)(in[i] + (up[i] >> 1));
            for (size_t i = 4; i < n; i++) out[i] = (uint8_t)(in[i] + ((out[i - 4] + up[i]) >> 1));
            return 0;
        case 4:
            for (size_t i = 0; i < 4 && i < n; i++) out[i] = (uint8_t)(in[i] + up[i]);
            for (size_t i = 4; i < n; i++) out[i] = (uint8_t)(in[i] + paeth(out[i - 4], up[i], up[i - 4]));
            return 0;
        default: return -1;
        }
    }
    /* RGB: input pixel x at in[3x], output at out[4x], alpha 255. A pixel is loaded as the word
     * at in[3x] (its fourth byte, the next pixel's, is replaced by the alpha) and stored as one
     * word at out[4x], which ends before the next pixel's input; the last pixel of the row is
     * done byte by byte, its word would read past the row. */
    uint32_t x = 0, last = width - 1;
#if defined(__x86_64__) || defined(__i386__)
    if ((filter == 0 || filter == 2) && nr_png_ssse3()) x = nr_expand_rgb_ssse3(filter, in, out, up, width);
#endif
    switch (filter) {
    case 0:
        for (; x < last; x++) store32(out + 4 * x, load32(in + 3 * x) | NR_ALPHA_LANE);
        for (; x < width; x++) {
            uint8_t r = in[3 * x], g = in[3 * x + 1], b = in[3 * x + 2];
            out[4 * x] = r; out[4 * x + 1] = g; out[4 * x + 2] = b; out[4 * x + 3] = 255;
        }
        return 0;
    case 1: {
        uint32_t left = 0;
        for (; x < last; x++) {
            left = add_lanes32(load32(in + 3 * x), left);
            store32(out + 4 * x, left | NR_ALPHA_LANE);
        }
        uint8_t r = out[4 * x - 4 * (x > 0)] , g = out[4 * x + 1 - 4 * (x > 0)], b = out[4 * x + 2 - 4 * (x > 0)];
        if (x == 0) r = g = b = 0;
        for (; x < width; x++) {
            r = (uint8_t)(in[3 * x] + r); g = (uint8_t)(in[3 * x + 1] + g); b = (uint8_t)(in[3 * x + 2] + b);
            out[4 * x] = r; out[4 * x + 1] = g; out[4 * x + 2] = b; out[4 * x + 3] = 255;
        }
        return 0;
    }
    case 2:
        for (; x < last; x++) store32(out + 4 * x, add_lanes32(load32(in + 3 * x), load32(up + 4 * x)) | NR_ALPHA_LANE);
        for (; x < width; x++) {
            uint8_t r = (uint8_t)(in[3 * x] + up[4 * x]), g = (uint8_t)(in[3 * x + 1] + up[4 * x + 1]),
                    b = (uint8_t)(in[3 * x + 2] + up[4 * x + 2]);
            out[4 * x] = r; out[4 * x + 1] = g; out[4 * x + 2] = b; out[4 * x + 3] = 255;
        }
        return 0;
    case 3: {
        int r = 0, g = 0, b = 0;
        for (; x < width; x++) {
            r = (uint8_t)(in[3 * x] + ((r + up[4 * x]) >> 1));
            g = (uint8_t)(in[3 * x + 1] + ((g + up[4 * x + 1]) >> 1));
            b = (uint8_t)(in[3 * x + 2] + ((b + up[4 * x + 2]) >> 1));
            out[4 * x] = (uint8_t)r; out[4 * x + 1] = (uint8_t)g; out[4 * x + 2] = (uint8_t)b; out[4 * x + 3] = 255;
        }
        return 0;
    }
    case 4: {
        int r = 0, g = 0, b = 0, ur = 0, ug = 0, ub = 0; /* left, and above-left */
        for (; x < width; x++) {
            int ar = up[4 * x], ag = up[4 * x + 1], ab = up[4 * x + 2];
            r = (uint8_t)(in[3 * x] + paeth(r, ar, ur));
            g = (uint8_t)(in[3 * x + 1] + paeth(g, ag, ug));
            b = (uint8_t)(in[3 * x + 2] + paeth(b, ab, ub));
            ur = ar; ug = ag; ub = ab;
            out[4 * x] = (uint8_t)r; out[4 * x + 1] = (uint8_t)g; out[4 * x + 2] = (uint8_t)b; out[4 * x + 3] = 255;
        }
        return 0;
    }
    default: return -1;
    }
}

/* Inflates the IDAT data (split over `idat`) into exactly `filtered` bytes at `rows`: 0, or -1
 * when the stream is bad or holds any other number of bytes. */
static int inflate_rows(const uint8_t *data, const nr_span *idat, size_t idat_count, uint8_t *rows, size_t filtered) {
    const uint8_t *in = data + idat[0].offset;
    size_t in_length = idat[0].length;
    uint8_t *joined = NULL;
    if (idat_count > 1) {
        size_t total = 0;
        for (size_t i = 0; i < idat_count; i++) total += idat[i].length;
        joined = (uint8_t *)malloc(total ? total : 1);
        if (!joined) return -1;
        size_t at = 0;
        for (size_t i = 0; i < idat_count; i++) {
            memcpy(joined + at, data + idat[i].offset, idat[i].length);
            at += idat[i].length;
        }
        in = joined;
        in_length = total;
    }
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!d) { free(joined); return -1; }
    size_t used = 0, produced = 0;
    enum libdeflate_result r = libdeflate_zlib_decompress_ex(d, in, in_length, rows, filtered, &used, &produced);
    libdeflate_free_decompressor(d);
    free(joined);
    return (r == LIBDEFLATE_SUCCESS && produced == filtered) ? 0 : -1;
}

int nr_png_decode_plain(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width, uint32_t height,
                        int channels, uint8_t *dst, size_t dst_capacity) {
    if ((channels != 3 && channels != 4) || width == 0 || height == 0 || idat_count == 0) return NR_PLAIN_FALLBACK;
    size_t in_stride = 1 + (size_t)width * (size_t)channels, out_stride = (size_t)width * 4;
    size_t filtered = in_stride * height, needed = out_stride * height + height;
    if (dst_capacity < needed || filtered > needed) return NR_PLAIN_FALLBACK;
    /* The filtered rows go at the end of dst: row y's output never reaches row y's unread input
     * (RGB: row y's input starts width * (height - y) + y + 1 bytes after its output, at least
     * width + height; RGBA: y + 1 bytes). */
    uint8_t *rows = dst + (needed - filtered);
    nr_advise_huge_pages(dst, needed);
    if (inflate_rows(data, idat, idat_count, rows, filtered) != 0) return NR_PLAIN_FALLBACK;

    uint8_t *zero = (uint8_t *)calloc(out_stride, 1);
    if (!zero) return NR_PLAIN_FALLBACK;
    int status = NR_OK;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = rows + (size_t)y * in_stride;
        uint8_t *out = dst + (size_t)y * out_stride;
        const uint8_t *up = y ? out - out_stride : zero;
        if (unfilter_row(row[0], row + 1, out, up, width, channels) != 0) { status = NR_PLAIN_FALLBACK; break; }
    }
    free(zero);
    return status;
}

/* The bytes of a plain image's filtered rows (a filter byte and width * channels bytes each,
 * the row's length in `stride`), or 0 when the plain paths do not take the image (channels
 * other than 1, 3 or 4, an empty image or no data) or the size overflows a size_t. */
static size_t plain_rows_bytes(size_t idat_count, uint32_t width, uint32_t height, int channels, size_t *stride) {
    size_t filtered;
    if ((channels != 1 && channels != 3 && channels != 4) || width == 0 || height == 0 || idat_count == 0
        || __builtin_mul_overflow((size_t)width, (size_t)channels, stride) || __builtin_add_overflow(*stride, 1, stride)
        || __builtin_mul_overflow(*stride, (size_t)height, &filtered))
        return 0;
    return filtered;
}

int nr_png_check_plain(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width, uint32_t height,
                       int channels) {
    size_t in_stride, filtered = plain_rows_bytes(idat_count, width, height, channels, &in_stride);
    if (!filtered) return NR_PLAIN_FALLBACK;
    /* Only the filtered rows: the decoders' output (a third more for RGB, four times for grey)
     * and its page faults are what this saves. */
    uint8_t *rows = (uint8_t *)malloc(filtered);
    if (!rows) return NR_PLAIN_FALLBACK;
    int status = inflate_rows(data, idat, idat_count, rows, filtered) == 0 ? NR_OK : NR_PLAIN_FALLBACK;
    /* The decoders' one other failure: a filter type past 4 (PNG specification 9.2). */
    for (uint32_t y = 0; y < height && status == NR_OK; y++)
        if (rows[(size_t)y * in_stride] > 4) status = NR_PLAIN_FALLBACK;
    free(rows);
    return status;
}

/* Row `row` (n bytes, bpp bytes a pixel) of filter type `filter`, unfiltered in place given the
 * row above unfiltered (`up`, NULL for the first row: zeros). PNG specification 9.2-9.4: each
 * byte reads only bytes before it in its row, already unfiltered, and the row above. 0, or -1
 * for a filter type past 4. */
static int unfilter_in_place(uint8_t *row, const uint8_t *up, size_t n, size_t bpp, int filter) {
    size_t i;
    switch (filter) {
    case 0: return 0;
    case 1:
        for (i = bpp; i < n; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 0;
    case 2:
        if (up) for (i = 0; i < n; i++) row[i] = (uint8_t)(row[i] + up[i]);
        return 0;
    case 3:
        for (i = 0; i < n; i++) {
            int left = i >= bpp ? row[i - bpp] : 0, above = up ? up[i] : 0;
            row[i] = (uint8_t)(row[i] + ((left + above) >> 1));
        }
        return 0;
    case 4:
        for (i = 0; i < n; i++) {
            int left = i >= bpp ? row[i - bpp] : 0, above = up ? up[i] : 0, upleft = up && i >= bpp ? up[i - bpp] : 0;
            row[i] = (uint8_t)(row[i] + paeth(left, above, upleft));
        }
        return 0;
    default: return -1;
    }
}

int nr_png_rows_plain(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width, uint32_t height,
                      int channels, uint8_t *rows, size_t capacity) {
    size_t in_stride, filtered = plain_rows_bytes(idat_count, width, height, channels, &in_stride);
    if (!filtered || capacity < filtered) return NR_PLAIN_FALLBACK;
    nr_advise_huge_pages(rows, filtered);
    if (inflate_rows(data, idat, idat_count, rows, filtered) != 0) return NR_PLAIN_FALLBACK;
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *row = rows + (size_t)y * in_stride;
        if (unfilter_in_place(row + 1, y ? row - in_stride + 1 : NULL, in_stride - 1, (size_t)channels, row[0]) != 0)
            return NR_PLAIN_FALLBACK;
    }
    return NR_OK;
}

/* One row of one byte a pixel, filter `filter` (PNG specification 9.2-9.4 with bpp = 1), from
 * `in` into `out`; `up` is the previous unfiltered row or zeros. The three buffers are distinct. */
static int unfilter_row1(int filter, const uint8_t *in, uint8_t *out, const uint8_t *up, uint32_t width) {
    size_t n = width;
    switch (filter) {
    case 0: memcpy(out, in, n); return 0;
    case 1: {
        uint8_t left = 0;
        for (size_t i = 0; i < n; i++) out[i] = left = (uint8_t)(in[i] + left);
        return 0;
    }
    case 2:
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(in[i] + up[i]);
        return 0;
    case 3: {
        int left = 0;
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(left = (uint8_t)(in[i] + ((left + up[i]) >> 1)));
        return 0;
    }
    case 4: {
        int left = 0, upleft = 0;
        for (size_t i = 0; i < n; i++) {
            left = (uint8_t)(in[i] + paeth(left, up[i], upleft));
            upleft = up[i];
            out[i] = (uint8_t)left;
        }
        return 0;
    }
    default: return -1;
    }
}

int nr_png_decode_plain_indexed(const uint8_t *data, const nr_span *idat, size_t idat_count, uint32_t width,
                                uint32_t height, const uint32_t *table, int table_count, uint8_t *dst, size_t dst_capacity) {
    if (width == 0 || height == 0 || idat_count == 0 || table_count < 1 || table_count > 256) return NR_PLAIN_FALLBACK;
    size_t in_stride = 1 + (size_t)width, out_stride = (size_t)width * 4;
    size_t filtered = in_stride * height, needed = out_stride * height + height;
    if (dst_capacity < needed || filtered > needed) return NR_PLAIN_FALLBACK;
    /* The filtered rows go at the end of dst. Row y is unfiltered into a scratch row before its
     * output is written, and that output ends at 4w(y + 1) <= 3wh + (y + 1)(w + 1), where row
     * y + 1's input starts: (y + 1)(3w - 1) <= 3wh. */
    uint8_t *rows = dst + (needed - filtered);
    nr_advise_huge_pages(dst, needed);
    if (inflate_rows(data, idat, idat_count, rows, filtered) != 0) return NR_PLAIN_FALLBACK;

    uint8_t *scratch = (uint8_t *)calloc(2 * (size_t)width, 1);
    if (!scratch) return NR_PLAIN_FALLBACK;
    uint8_t *previous = scratch, *current = scratch + width; /* previous starts as the row of zeros */
    int status = NR_OK;
    for (uint32_t y = 0; y < height && status == NR_OK; y++) {
        const uint8_t *row = rows + (size_t)y * in_stride;
        if (unfilter_row1(row[0], row + 1, current, previous, width) != 0) { status = NR_PLAIN_FALLBACK; break; }
        uint8_t *out = dst + (size_t)y * out_stride;
        /* An index past the palette is an error by the PNG specification (11.2.3); libpng
         * decodes such a file with a warning (a benign error): leave the file to it. */
        for (uint32_t x = 0; x < width; x++) {
            uint8_t index = current[x];
            if (index >= table_count) { status = NR_PLAIN_FALLBACK; break; }
            memcpy(out + 4 * (size_t)x, &table[index], 4);
        }
        uint8_t *t = previous; previous = current; current = t;
    }
    free(scratch);
    return status;
}
