#include "arkivator_png.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/* Undoes PNG's filter `kind` on `line` (`length` bytes) given the row above. */
static int unfilter(uint8_t kind, uint8_t *line, const uint8_t *above, uint32_t length, uint32_t bpp) {
    uint32_t x;
    switch (kind) {
    case 0: return 0;
    case 1: for (x = bpp; x < length; x++) line[x] = (uint8_t)(line[x] + line[x - bpp]); return 0;
    case 2: for (x = 0; x < length; x++) line[x] = (uint8_t)(line[x] + above[x]); return 0;
    case 3:
        for (x = 0; x < length; x++) {
            unsigned left = x >= bpp ? line[x - bpp] : 0;
            line[x] = (uint8_t)(line[x] + ((left + above[x]) >> 1));
        }
        return 0;
    case 4:
        for (x = 0; x < length; x++) {
            uint8_t left = x >= bpp ? line[x - bpp] : 0, corner = x >= bpp ? above[x - bpp] : 0;
            line[x] = (uint8_t)(line[x] + paeth(left, above[x], corner));
        }
        return 0;
    default: return -1;
    }
}

int arkivator_flate_read_rows(const uint8_t *data, size_t size, uint32_t rows, uint32_t row_bytes,
                              int png_predictors, uint32_t pixel_bytes, void *context, arkivator_png_row_fn row) {
    if (row_bytes == 0 || pixel_bytes == 0) return -1;
    size_t stored = (size_t)row_bytes + (png_predictors ? 1 : 0);
    uint8_t *buffer = calloc(stored + row_bytes, 1);
    if (!buffer) return -1;
    uint8_t *current = buffer, *above = buffer + stored;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) { free(buffer); return -1; }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)(size > 0x7fffffff ? 0x7fffffff : size);
    int result = 0;
    for (uint32_t y = 0; y < rows && result == 0; y++) {
        z.next_out = current;
        z.avail_out = (uInt)stored;
        while (z.avail_out > 0) {
            int status = inflate(&z, Z_SYNC_FLUSH);
            if (status == Z_STREAM_END && z.avail_out > 0) { result = -1; break; }
            if (status != Z_OK && status != Z_STREAM_END) { result = -1; break; }
            if (status == Z_OK && z.avail_in == 0 && z.avail_out > 0) { result = -1; break; }
        }
        if (result != 0) break;
        uint8_t *line = current;
        if (png_predictors) {
            line = current + 1;
            if (unfilter(current[0], line, above, row_bytes, pixel_bytes) != 0) { result = -1; break; }
        }
        if (row(context, line, y) != 0) { result = 2; break; }
        memcpy(above, line, row_bytes);
    }
    inflateEnd(&z);
    free(buffer);
    return result;
}

int arkivator_inflate(const uint8_t *data, size_t size, size_t limit, uint8_t **out, size_t *out_size) {
    size_t capacity = size * 4 + 1024;
    if (capacity > limit) capacity = limit;
    if (capacity == 0) return -1;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) return -1;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) { free(buffer); return -1; }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)(size > 0x7fffffff ? 0x7fffffff : size);
    size_t used = 0;
    int status = Z_OK;
    while (status != Z_STREAM_END) {
        if (used == capacity) {
            if (capacity >= limit) { inflateEnd(&z); free(buffer); return -1; }
            size_t bigger = capacity * 2 > limit ? limit : capacity * 2;
            uint8_t *grown = realloc(buffer, bigger);
            if (!grown) { inflateEnd(&z); free(buffer); return -1; }
            buffer = grown;
            capacity = bigger;
        }
        z.next_out = buffer + used;
        z.avail_out = (uInt)(capacity - used);
        status = inflate(&z, Z_NO_FLUSH);
        used = capacity - z.avail_out;
        if (status != Z_OK && status != Z_STREAM_END) {
            /* A stream cut short after its data is still its data (some writers leave off the end). */
            if (status == Z_BUF_ERROR && z.avail_in == 0 && used > 0) break;
            inflateEnd(&z); free(buffer); return -1;
        }
    }
    inflateEnd(&z);
    *out = buffer;
    *out_size = used;
    return 0;
}
