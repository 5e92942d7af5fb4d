// CFontLibs: FreeType and HarfBuzz behind a table of function pointers, loaded on first use.
//
// On Linux the libraries are opened with dlopen when the first Typeface is made, not linked:
// linked, the dynamic loader maps and relocates HarfBuzz, FreeType and what they pull in (glib,
// graphite2, brotli, pcre2, libstdc++: seven more libraries) at every start of `navreel`, about
// 1.2 ms of the 6 ms a `navreel --version` or a small `navreel diff` took (issue 17, start-up
// at most 2x odiff's), though only rendering needs them. The headers still give every type, so
// the calls are checked by the compiler as before. On macOS the libraries are linked and the
// table points at them (loading a dylib there is cheap).
#ifndef NAVREEL_FONTLIBS_H
#define NAVREEL_FONTLIBS_H

#include <stddef.h>
#include <hb.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_ADVANCES_H

// Every FreeType and HarfBuzz function Raster calls.
#define NR_FONT_FUNCTIONS(X) \
    X(freetype, FT_Init_FreeType) X(freetype, FT_Done_FreeType) X(freetype, FT_New_Memory_Face) \
    X(freetype, FT_Done_Face) X(freetype, FT_Select_Size) X(freetype, FT_Get_Char_Index) \
    X(freetype, FT_Get_Advance) X(freetype, FT_Load_Glyph) X(freetype, FT_Get_Kerning) \
    X(freetype, FT_Outline_Decompose) \
    X(harfbuzz, hb_blob_create) X(harfbuzz, hb_blob_destroy) X(harfbuzz, hb_face_create) \
    X(harfbuzz, hb_face_destroy) X(harfbuzz, hb_font_create) X(harfbuzz, hb_font_destroy) \
    X(harfbuzz, hb_font_set_scale) X(harfbuzz, hb_buffer_create) X(harfbuzz, hb_buffer_destroy) \
    X(harfbuzz, hb_buffer_add_utf32) X(harfbuzz, hb_buffer_set_direction) X(harfbuzz, hb_buffer_set_language) \
    X(harfbuzz, hb_buffer_set_script) X(harfbuzz, hb_buffer_guess_segment_properties) \
    X(harfbuzz, hb_buffer_set_flags) X(harfbuzz, hb_shape) X(harfbuzz, hb_buffer_get_glyph_infos) \
    X(harfbuzz, hb_buffer_get_glyph_positions) X(harfbuzz, hb_language_from_string)

typedef struct nr_font_api {
#define NR_FONT_FIELD(lib, name) __typeof__(name) *_Nonnull name;
    NR_FONT_FUNCTIONS(NR_FONT_FIELD)
#undef NR_FONT_FIELD
} nr_font_api;

/// The table, loading the libraries on the first call (thread-safe; later calls return the same
/// table or the same failure). NULL when a library or a function is missing; `error` (of `size`
/// bytes) then says which, naming the file.
const nr_font_api *_Nullable nr_font_api_load(char *_Nonnull error, size_t size);

#endif
