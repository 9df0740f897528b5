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

#endif
