#include "arkivator_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct source {
    const uint8_t *data;
    size_t size;
    size_t position;
};

static void read_bytes(png_structp png, png_bytep out, size_t count) {
    struct source *source = png_get_io_ptr(png);
    if (count > source->size - source->position) png_error(png, "cut off");
    memcpy(out, source->data + source->position, count);
    source->position += count;
}

static void fail(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void ignore(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int arkivator_png_read_rows(const uint8_t *data, size_t size, void *context,
                            arkivator_png_begin_fn begin, arkivator_png_row_fn row) {
    struct source source = {data, size, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail, ignore);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return -1;
    }
    /* Changed after setjmp and read after a long jump: volatile. */
    png_bytep volatile buffer = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(buffer);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &source, read_bytes);
    png_read_info(png, info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, colour = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &colour, &interlace, NULL, NULL);
    if (interlace != PNG_INTERLACE_NONE) {
        png_destroy_read_struct(&png, &info, NULL);
        return 1;
    }
    if (depth == 16) png_set_strip_16(png);
    if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    /* Alpha, and the transparency a palette or gray image may carry (which expanding makes alpha). */
    if ((colour & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS)) png_set_strip_alpha(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    int dpi = 0;
    png_uint_32 x = 0, y = 0;
    int unit = 0;
    if (png_get_pHYs(png, info, &x, &y, &unit) && unit == PNG_RESOLUTION_METER) dpi = (int)(x * 0.0254 + 0.5);
    if (channels != 1 && channels != 3) {
        /* Anything else is left to the whole-image reader. */
        png_destroy_read_struct(&png, &info, NULL);
        return 1;
    }
    if (begin(context, width, height, channels, dpi) != 0) {
        png_destroy_read_struct(&png, &info, NULL);
        return 2;
    }
    buffer = malloc(png_get_rowbytes(png, info));
    if (!buffer) png_error(png, "out of memory");
    for (png_uint_32 line = 0; line < height; line++) {
        png_read_row(png, buffer, NULL);
        if (row(context, buffer, line) != 0) {
            free(buffer);
            png_destroy_read_struct(&png, &info, NULL);
            return 2;
        }
    }
    free(buffer);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
