#define _GNU_SOURCE
#include "arkivator_png.h"

#include <dlfcn.h>
#include <png.h>
#include <stddef.h>

/*
 * Tesseract 5.0 hands every line it reads to its line recogniser as a PNG made in memory and read
 * back at once (ImageData::SetPixInternal, then GetPix): a file no one keeps, made with libpng's
 * default compression and filter search. That is a twentieth of a page's reading time. While this
 * thread reads a page (`arkivator_png_quick_begin`), PNGs it writes are stored, not compressed:
 * the same pixels, made and read back in a fraction of the time. Every other PNG, on this thread
 * outside a reading and on every other thread, is written as libpng would.
 *
 * libleptonica calls png_set_compression_level through its own link to libpng, so the program's
 * definition below is the one it reaches; this one passes the call on to libpng's.
 */

static _Thread_local int quick_writes = 0;

void arkivator_png_quick_begin(void) { quick_writes += 1; }

void arkivator_png_quick_end(void) {
    if (quick_writes > 0) quick_writes -= 1;
}

void png_set_compression_level(png_structrp png, int level) {
    static void (*libpng_set_level)(png_structrp, int) = NULL;
    static int looked_up = 0;
    if (!__atomic_load_n(&looked_up, __ATOMIC_ACQUIRE)) {
        void (*found)(png_structrp, int) = (void (*)(png_structrp, int))dlsym(RTLD_NEXT, "png_set_compression_level");
        __atomic_store_n(&libpng_set_level, found, __ATOMIC_RELAXED);
        __atomic_store_n(&looked_up, 1, __ATOMIC_RELEASE);
    }
    void (*set_level)(png_structrp, int) = __atomic_load_n(&libpng_set_level, __ATOMIC_RELAXED);
    if (quick_writes > 0) {
        if (set_level) set_level(png, 0);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    } else if (set_level) {
        set_level(png, level);
    }
}
