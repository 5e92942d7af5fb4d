// The libpng decode floor for scripts/bench-diff: decodes each PNG named on the command line to
// RGBA8 with libpng's simplest full-image read (png_read_image into one buffer), one after the
// other, and does nothing else. A comparing tool that reads the same two files cannot take less
// time than this on one core, except by decoding them in parallel.
//
// Built by scripts/bench-diff: cc -O2 scripts/png-decode-floor.c -lpng
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

static int decode(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) { fclose(f); return 1; }
    png_bytep pixels = NULL;
    png_bytepp rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: libpng error\n", path);
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        free(pixels);
        fclose(f);
        return 1;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    // To RGBA8, as the comparing tools need it.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    size_t stride = png_get_rowbytes(png, info);
    pixels = malloc(stride * height);
    rows = malloc(sizeof *rows * height);
    if (!pixels || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + y * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    (void)width;
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    free(pixels);
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    int status = 0;
    for (int i = 1; i < argc; i++) status |= decode(argv[i]);
    return status;
}
