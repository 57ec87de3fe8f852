// PNG decoding over libpng's progressive reader, used for both one-shot and incremental
// decoding: a one-shot decode is one feed of the whole file. Output is always RGBA8 with
// straight alpha, no gamma correction (the sample values the file stores).
#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_png_decoder {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    cic_limits limits;
    cic_status failure;
    int warnings;
    char message[CIC_MESSAGE_CAPACITY];

    uint32_t declared_width;  // from IHDR, recorded before the limit checks
    uint32_t declared_height;
    int header_ready;
    cic_png_info header;
    uint8_t *pixels;
    size_t bytes_per_row;
    int passes;              // 1, or 7 for Adam7
    int completed_passes;
    uint32_t completed_rows;
    int finished;
};

static void on_error(png_structp png, png_const_charp message) {
    cic_png_decoder *d = png_get_error_ptr(png);
    if (d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", message);
    longjmp(d->jump, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    cic_png_decoder *d = png_get_error_ptr(png);
    d->warnings++;
    if (d->warnings == 1 && d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", message);
}

static void fail(cic_png_decoder *d, cic_status status, const char *message) {
    d->failure = status;
    snprintf(d->message, sizeof d->message, "%s", message);
    longjmp(d->jump, 1);
}

static void on_info(png_structp png, png_infop info) {
    cic_png_decoder *d = png_get_progressive_ptr(png);
    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    char text[CIC_MESSAGE_CAPACITY];
    // The declared size is recorded first so that a rejection can name it.
    d->declared_width = width;
    d->declared_height = height;
    if (width > d->limits.max_dimension || height > d->limits.max_dimension) {
        snprintf(text, sizeof text, "the maximum width or height of %u", d->limits.max_dimension);
        fail(d, CIC_TOO_LARGE, text);
    }
    uint64_t pixels = (uint64_t)width * height;
    if (pixels > d->limits.max_source_pixels || pixels > d->limits.max_output_pixels) {
        uint64_t limit = d->limits.max_source_pixels < d->limits.max_output_pixels ? d->limits.max_source_pixels : d->limits.max_output_pixels;
        snprintf(text, sizeof text, "the maximum decoded pixel count of %llu", (unsigned long long)limit);
        fail(d, CIC_TOO_LARGE, text);
    }
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    d->header.width = width;
    d->header.height = height;
    d->header.bit_depth = bit_depth;
    d->header.color_type = color_type;
    d->header.is_interlaced = interlace != PNG_INTERLACE_NONE;
    d->header.has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;

    png_set_expand(png);       // palette → RGB, gray < 8 bits → 8 bits, tRNS → alpha
    png_set_scale_16(png);     // 16 → 8 bits, rounded
    png_set_gray_to_rgb(png);
    if (!d->header.has_alpha) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    d->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) fail(d, CIC_ERROR, "unexpected row layout after conversion to RGBA");

    d->bytes_per_row = (size_t)width * 4;
    // Zeroed: previews of interlaced images show only completed passes, never stale memory.
    void *buffer = NULL;
    if (posix_memalign(&buffer, 64, d->bytes_per_row * height) != 0 || buffer == NULL) {
        fail(d, CIC_ERROR, "out of memory for the image");
    }
    memset(buffer, 0, d->bytes_per_row * height);
    d->pixels = buffer;
    d->header_ready = 1;
}

static void on_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    cic_png_decoder *d = png_get_progressive_ptr(png);
    if (row >= d->header.height) return;
    if (pass > d->completed_passes) d->completed_passes = pass; // passes before this one are done
    if (new_row != NULL) png_progressive_combine_row(png, d->pixels + (size_t)row * d->bytes_per_row, new_row);
    if (d->passes == 1) d->completed_rows = row + 1;
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    cic_png_decoder *d = png_get_progressive_ptr(png);
    d->finished = 1;
    d->completed_passes = d->passes == 1 ? 0 : 7;
    d->completed_rows = d->header.height;
}

cic_png_decoder *cic_png_create(cic_limits limits) {
    cic_png_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->limits = limits;
    d->failure = CIC_ERROR;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_error, on_warning);
    if (d->png == NULL) { free(d); return NULL; }
    if (setjmp(d->jump)) {
        png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
        free(d);
        return NULL;
    }
    d->info = png_create_info_struct(d->png);
    if (d->info == NULL) {
        png_destroy_read_struct(&d->png, NULL, NULL);
        free(d);
        return NULL;
    }
    // The limits are checked in on_info, with a clear "too large" status; libpng's own
    // user limits would report the same thing as a generic error.
    png_set_user_limits(d->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    // Ancillary chunks (text, ICC profiles) are not used: cap what they may allocate, and
    // what their zlib streams may expand to.
    png_set_chunk_malloc_max(d->png, 8 << 20);
    png_set_chunk_cache_max(d->png, 1000);
    png_set_progressive_read_fn(d->png, d, on_info, on_row, on_end);
    return d;
}

void cic_png_destroy(cic_png_decoder *d) {
    if (d == NULL) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d->pixels);
    free(d);
}

const char *cic_png_message(const cic_png_decoder *d) { return d->message; }
int cic_png_warning_count(const cic_png_decoder *d) { return d->warnings; }

cic_status cic_png_feed(cic_png_decoder *d, const uint8_t *data, size_t length) {
    if (d->finished || length == 0) return CIC_OK;
    if (setjmp(d->jump)) return d->failure;
    png_process_data(d->png, d->info, (png_bytep)data, length);
    return CIC_OK;
}

void cic_png_declared_size(const cic_png_decoder *d, uint32_t *width, uint32_t *height) {
    *width = d->declared_width;
    *height = d->declared_height;
}

int cic_png_header_ready(const cic_png_decoder *d, cic_png_info *info) {
    if (!d->header_ready) return 0;
    *info = d->header;
    return 1;
}

const uint8_t *cic_png_pixels(const cic_png_decoder *d) { return d->pixels; }

uint8_t *cic_png_take_pixels(cic_png_decoder *d) {
    uint8_t *pixels = d->pixels;
    d->pixels = NULL;
    return pixels;
}

int cic_png_completed_passes(const cic_png_decoder *d) { return d->completed_passes; }
uint32_t cic_png_completed_rows(const cic_png_decoder *d) { return d->completed_rows; }
int cic_png_finished(const cic_png_decoder *d) { return d->finished; }
