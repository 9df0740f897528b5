#pragma once
// libheif and poppler-glib (with cairo and GLib), loaded the first time a HEIC photo or a PDF is
// read rather than when the program starts: together they bring about forty shared libraries,
// which every command would otherwise load and link at start (`arkivator search` among them).
// Each `lazy_` function has the signature of the library function it calls; when the library
// cannot be loaded it returns a failure (NULL, 0, an error) and `lazy_*_available` says so.
#include <libheif/heif.h>
#include <poppler.h>
#include <cairo.h>

/// 1 when libheif is loaded (now or before), else 0.
int lazy_heif_available(void);
/// 1 when poppler-glib (with GLib and cairo) is loaded, else 0.
int lazy_poppler_available(void);

struct heif_context *lazy_heif_context_alloc(void);
void lazy_heif_context_free(struct heif_context *context);
void lazy_heif_context_set_max_decoding_threads(struct heif_context *context, int threads);
struct heif_error lazy_heif_context_read_from_memory_without_copy(struct heif_context *context, const void *memory,
                                                                 size_t size, const struct heif_reading_options *options);
struct heif_error lazy_heif_context_get_primary_image_handle(struct heif_context *context, struct heif_image_handle **handle);
void lazy_heif_image_handle_release(const struct heif_image_handle *handle);
int lazy_heif_image_handle_get_width(const struct heif_image_handle *handle);
int lazy_heif_image_handle_get_height(const struct heif_image_handle *handle);
int lazy_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *handle);
int lazy_heif_image_handle_get_chroma_bits_per_pixel(const struct heif_image_handle *handle);
struct heif_error lazy_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **image,
                                         enum heif_colorspace colorspace, enum heif_chroma chroma,
                                         const struct heif_decoding_options *options);
void lazy_heif_image_release(const struct heif_image *image);
int lazy_heif_image_get_bits_per_pixel_range(const struct heif_image *image, enum heif_channel channel);
const uint8_t *lazy_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel, int *stride);
int lazy_heif_image_get_width(const struct heif_image *image, enum heif_channel channel);
int lazy_heif_image_get_height(const struct heif_image *image, enum heif_channel channel);
struct heif_error lazy_heif_image_get_nclx_color_profile(const struct heif_image *image, struct heif_color_profile_nclx **profile);
void lazy_heif_nclx_color_profile_free(struct heif_color_profile_nclx *profile);

GBytes *lazy_g_bytes_new(gconstpointer data, gsize size);
void lazy_g_bytes_unref(GBytes *bytes);
void lazy_g_error_free(GError *error);
void lazy_g_free(gpointer memory);
void lazy_g_object_unref(gpointer object);
PopplerDocument *lazy_poppler_document_new_from_bytes(GBytes *bytes, const char *password, GError **error);
int lazy_poppler_document_get_n_pages(PopplerDocument *document);
PopplerPage *lazy_poppler_document_get_page(PopplerDocument *document, int index);
void lazy_poppler_page_get_size(PopplerPage *page, double *width, double *height);
void lazy_poppler_page_get_crop_box(PopplerPage *page, PopplerRectangle *rectangle);
GList *lazy_poppler_page_get_image_mapping(PopplerPage *page);
void lazy_poppler_page_free_image_mapping(GList *list);
char *lazy_poppler_page_get_text(PopplerPage *page);
gboolean lazy_poppler_page_get_text_layout(PopplerPage *page, PopplerRectangle **rectangles, guint *count);
void lazy_poppler_page_render_for_printing(PopplerPage *page, cairo_t *cairo);
int lazy_cairo_format_stride_for_width(cairo_format_t format, int width);
cairo_surface_t *lazy_cairo_image_surface_create_for_data(unsigned char *data, cairo_format_t format, int width, int height,
                                                         int stride);
cairo_status_t lazy_cairo_surface_status(cairo_surface_t *surface);
void lazy_cairo_surface_flush(cairo_surface_t *surface);
void lazy_cairo_surface_destroy(cairo_surface_t *surface);
cairo_t *lazy_cairo_create(cairo_surface_t *surface);
void lazy_cairo_destroy(cairo_t *cairo);
void lazy_cairo_set_source_rgb(cairo_t *cairo, double red, double green, double blue);
void lazy_cairo_translate(cairo_t *cairo, double x, double y);
void lazy_cairo_scale(cairo_t *cairo, double x, double y);
void lazy_cairo_paint(cairo_t *cairo);
