#include "arkivator_codecs.h"
#include <dlfcn.h>
#include <stddef.h>

enum library { HEIF, POPPLER, GLIB, GOBJECT, CAIRO, LIBRARY_COUNT };

// The shared library's name with its ABI version, then the development link as a fallback.
static const char *const names[LIBRARY_COUNT][2] = {
    {"libheif.so.1", "libheif.so"},
    {"libpoppler-glib.so.8", "libpoppler-glib.so"},
    {"libglib-2.0.so.0", "libglib-2.0.so"},
    {"libgobject-2.0.so.0", "libgobject-2.0.so"},
    {"libcairo.so.2", "libcairo.so"},
};

static void *handles[LIBRARY_COUNT];

// The library, loaded on first use (dlopen is thread-safe; two threads racing load it once).
static void *library(enum library which) {
    void *handle = __atomic_load_n(&handles[which], __ATOMIC_ACQUIRE);
    if (handle) return handle;
    // poppler-glib's own GLib and cairo: loading it first makes them the same copies.
    if (which != HEIF && which != POPPLER && !library(POPPLER)) return NULL;
    for (int i = 0; i < 2 && !handle; i++) handle = dlopen(names[which][i], RTLD_NOW | RTLD_LOCAL);
    if (handle) __atomic_store_n(&handles[which], handle, __ATOMIC_RELEASE);
    return handle;
}

static void *symbol(enum library which, const char *name) {
    void *handle = library(which);
    return handle ? dlsym(handle, name) : NULL;
}

int lazy_heif_available(void) { return library(HEIF) != NULL; }

int lazy_poppler_available(void) {
    return library(POPPLER) && library(GLIB) && library(GOBJECT) && library(CAIRO);
}

// `f`: the library function `name` (its address looked up once), or return `fail`.
#define LOAD(which, name, fail)                                                          \
    static __typeof__(&name) cached;                                                     \
    __typeof__(&name) f = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                    \
    if (!f) {                                                                            \
        f = (__typeof__(&name))symbol(which, #name);                                     \
        if (!f) return fail;                                                             \
        __atomic_store_n(&cached, f, __ATOMIC_RELEASE);                                  \
    }
#define NOTHING

static const struct heif_error missing = {heif_error_Unsupported_feature, heif_suberror_Unspecified,
                                          "libheif could not be loaded"};

struct heif_context *lazy_heif_context_alloc(void) { LOAD(HEIF, heif_context_alloc, NULL) return f(); }
void lazy_heif_context_free(struct heif_context *c) { LOAD(HEIF, heif_context_free, NOTHING) f(c); }
void lazy_heif_context_set_max_decoding_threads(struct heif_context *c, int n) {
    LOAD(HEIF, heif_context_set_max_decoding_threads, NOTHING) f(c, n);
}
struct heif_error lazy_heif_context_read_from_memory_without_copy(struct heif_context *c, const void *m, size_t s,
                                                                 const struct heif_reading_options *o) {
    LOAD(HEIF, heif_context_read_from_memory_without_copy, missing) return f(c, m, s, o);
}
struct heif_error lazy_heif_context_get_primary_image_handle(struct heif_context *c, struct heif_image_handle **h) {
    LOAD(HEIF, heif_context_get_primary_image_handle, missing) return f(c, h);
}
void lazy_heif_image_handle_release(const struct heif_image_handle *h) { LOAD(HEIF, heif_image_handle_release, NOTHING) f(h); }
int lazy_heif_image_handle_get_width(const struct heif_image_handle *h) { LOAD(HEIF, heif_image_handle_get_width, 0) return f(h); }
int lazy_heif_image_handle_get_height(const struct heif_image_handle *h) { LOAD(HEIF, heif_image_handle_get_height, 0) return f(h); }
int lazy_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *h) {
    LOAD(HEIF, heif_image_handle_get_luma_bits_per_pixel, -1) return f(h);
}
int lazy_heif_image_handle_get_chroma_bits_per_pixel(const struct heif_image_handle *h) {
    LOAD(HEIF, heif_image_handle_get_chroma_bits_per_pixel, -1) return f(h);
}
struct heif_error lazy_heif_decode_image(const struct heif_image_handle *h, struct heif_image **i, enum heif_colorspace s,
                                         enum heif_chroma c, const struct heif_decoding_options *o) {
    LOAD(HEIF, heif_decode_image, missing) return f(h, i, s, c, o);
}
void lazy_heif_image_release(const struct heif_image *i) { LOAD(HEIF, heif_image_release, NOTHING) f(i); }
int lazy_heif_image_get_bits_per_pixel_range(const struct heif_image *i, enum heif_channel c) {
    LOAD(HEIF, heif_image_get_bits_per_pixel_range, -1) return f(i, c);
}
const uint8_t *lazy_heif_image_get_plane_readonly(const struct heif_image *i, enum heif_channel c, int *s) {
    LOAD(HEIF, heif_image_get_plane_readonly, NULL) return f(i, c, s);
}
int lazy_heif_image_get_width(const struct heif_image *i, enum heif_channel c) { LOAD(HEIF, heif_image_get_width, -1) return f(i, c); }
int lazy_heif_image_get_height(const struct heif_image *i, enum heif_channel c) { LOAD(HEIF, heif_image_get_height, -1) return f(i, c); }
struct heif_error lazy_heif_image_get_nclx_color_profile(const struct heif_image *i, struct heif_color_profile_nclx **p) {
    LOAD(HEIF, heif_image_get_nclx_color_profile, missing) return f(i, p);
}
void lazy_heif_nclx_color_profile_free(struct heif_color_profile_nclx *p) { LOAD(HEIF, heif_nclx_color_profile_free, NOTHING) f(p); }

GBytes *lazy_g_bytes_new(gconstpointer d, gsize s) { LOAD(GLIB, g_bytes_new, NULL) return f(d, s); }
void lazy_g_bytes_unref(GBytes *b) { LOAD(GLIB, g_bytes_unref, NOTHING) f(b); }
void lazy_g_error_free(GError *e) { LOAD(GLIB, g_error_free, NOTHING) f(e); }
void lazy_g_free(gpointer m) { LOAD(GLIB, g_free, NOTHING) f(m); }
void lazy_g_object_unref(gpointer o) { LOAD(GOBJECT, g_object_unref, NOTHING) f(o); }
PopplerDocument *lazy_poppler_document_new_from_bytes(GBytes *b, const char *p, GError **e) {
    LOAD(POPPLER, poppler_document_new_from_bytes, NULL) return f(b, p, e);
}
int lazy_poppler_document_get_n_pages(PopplerDocument *d) { LOAD(POPPLER, poppler_document_get_n_pages, 0) return f(d); }
PopplerPage *lazy_poppler_document_get_page(PopplerDocument *d, int i) { LOAD(POPPLER, poppler_document_get_page, NULL) return f(d, i); }
void lazy_poppler_page_get_size(PopplerPage *p, double *w, double *h) { LOAD(POPPLER, poppler_page_get_size, NOTHING) f(p, w, h); }
void lazy_poppler_page_get_crop_box(PopplerPage *p, PopplerRectangle *r) { LOAD(POPPLER, poppler_page_get_crop_box, NOTHING) f(p, r); }
GList *lazy_poppler_page_get_image_mapping(PopplerPage *p) { LOAD(POPPLER, poppler_page_get_image_mapping, NULL) return f(p); }
void lazy_poppler_page_free_image_mapping(GList *l) { LOAD(POPPLER, poppler_page_free_image_mapping, NOTHING) f(l); }
char *lazy_poppler_page_get_text(PopplerPage *p) { LOAD(POPPLER, poppler_page_get_text, NULL) return f(p); }
gboolean lazy_poppler_page_get_text_layout(PopplerPage *p, PopplerRectangle **r, guint *n) {
    LOAD(POPPLER, poppler_page_get_text_layout, FALSE) return f(p, r, n);
}
void lazy_poppler_page_render_for_printing(PopplerPage *p, cairo_t *c) { LOAD(POPPLER, poppler_page_render_for_printing, NOTHING) f(p, c); }
int lazy_cairo_format_stride_for_width(cairo_format_t t, int w) { LOAD(CAIRO, cairo_format_stride_for_width, -1) return f(t, w); }
cairo_surface_t *lazy_cairo_image_surface_create_for_data(unsigned char *d, cairo_format_t t, int w, int h, int s) {
    LOAD(CAIRO, cairo_image_surface_create_for_data, NULL) return f(d, t, w, h, s);
}
cairo_status_t lazy_cairo_surface_status(cairo_surface_t *s) { LOAD(CAIRO, cairo_surface_status, CAIRO_STATUS_NULL_POINTER) return f(s); }
void lazy_cairo_surface_flush(cairo_surface_t *s) { LOAD(CAIRO, cairo_surface_flush, NOTHING) f(s); }
void lazy_cairo_surface_destroy(cairo_surface_t *s) { LOAD(CAIRO, cairo_surface_destroy, NOTHING) f(s); }
cairo_t *lazy_cairo_create(cairo_surface_t *s) { LOAD(CAIRO, cairo_create, NULL) return f(s); }
void lazy_cairo_destroy(cairo_t *c) { LOAD(CAIRO, cairo_destroy, NOTHING) f(c); }
void lazy_cairo_set_source_rgb(cairo_t *c, double r, double g, double b) { LOAD(CAIRO, cairo_set_source_rgb, NOTHING) f(c, r, g, b); }
void lazy_cairo_translate(cairo_t *c, double x, double y) { LOAD(CAIRO, cairo_translate, NOTHING) f(c, x, y); }
void lazy_cairo_scale(cairo_t *c, double x, double y) { LOAD(CAIRO, cairo_scale, NOTHING) f(c, x, y); }
void lazy_cairo_paint(cairo_t *c) { LOAD(CAIRO, cairo_paint, NOTHING) f(c); }
