#ifndef ARKIVATOR_PNG_H
#define ARKIVATOR_PNG_H

#include <stddef.h>
#include <stdint.h>

/* Called once before the first row: the size, 1 (gray) or 3 (RGB) bytes a pixel, and the
 * resolution the file records in pixels per inch (0 when it records none). Non-zero stops. */
typedef int (*arkivator_png_begin_fn)(void *context, uint32_t width, uint32_t height, int channels, int dpi);
/* Called for each row, top to bottom. Non-zero stops. */
typedef int (*arkivator_png_row_fn)(void *context, const uint8_t *row, uint32_t y);

/*
 * Reads the PNG in `data` one row at a time, so that only one row of it is ever held here: rows
 * come as 8-bit gray or 8-bit RGB (palettes expanded, 16 bits cut to 8, small gray depths widened,
 * alpha left out). libpng reports errors by a long jump, which only C can catch: this is that C.
 * Returns 0 when every row was read, 1 for a PNG to decode whole instead (interlaced: its rows
 * come in passes; or in a layout not foreseen here), 2 when a callback stopped it, -1 for a
 * damaged or cut-off PNG.
 */
int arkivator_png_read_rows(const uint8_t *data, size_t size, void *context,
                            arkivator_png_begin_fn begin, arkivator_png_row_fn row);

/*
 * Reads a zlib (Flate) stream of `rows` rows of `row_bytes` bytes each, one row at a time, so
 * that only two rows are ever held here: a PDF picture's pixels, stored as PNG stores its own.
 * `png_predictors` non-zero: each row starts with a PNG filter byte (PDF's /Predictor 10 to 15),
 * undone with `pixel_bytes` bytes a pixel; zero: rows are stored as they are (/Predictor 1).
 * Returns 0 when every row was read, 2 when the callback stopped it, -1 for a damaged or short
 * stream.
 */
int arkivator_flate_read_rows(const uint8_t *data, size_t size, uint32_t rows, uint32_t row_bytes,
                              int png_predictors, uint32_t pixel_bytes, void *context, arkivator_png_row_fn row);

/*
 * Inflates a whole zlib (Flate) stream of at most `limit` bytes into a buffer it allocates
 * (free it with free()). Returns 0 and sets `*out` and `*out_size`, or -1 for a damaged stream
 * or one that inflates past `limit`.
 */
int arkivator_inflate(const uint8_t *data, size_t size, size_t limit, uint8_t **out, size_t *out_size);

/*
 * Between these two calls, PNGs written on this thread (through libpng, by any library) are
 * stored uncompressed and unfiltered: for the throwaway PNG Tesseract makes of every line it
 * reads. Calls nest; every other PNG is written as libpng would.
 */
void arkivator_png_quick_begin(void);
void arkivator_png_quick_end(void);

#endif
