// PNG encoding over libpng into a growable memory buffer.
#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jump;
    cic_buffer *out;
    char *message;
    int out_of_memory;
} png_write_context;

static void on_write_error(png_structp png, png_const_charp message) {
    png_write_context *c = png_get_error_ptr(png);
    snprintf(c->message, CIC_MESSAGE_CAPACITY, "%s", message);
    longjmp(c->jump, 1);
}

static void on_write_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void on_write(png_structp png, png_bytep data, size_t length) {
    png_write_context *c = png_get_io_ptr(png);
    cic_buffer *out = c->out;
    if (out->length + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 16384;
        while (capacity < out->length + length) capacity *= 2;
        uint8_t *grown = realloc(out->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory for the encoded PNG");
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->length, data, length);
    out->length += length;
}

static void on_flush(png_structp png) { (void)png; }

// 1 when every pixel's red, green and blue are equal. Row by row, so the inner loop has no
// branch to vectorise around; it stops after the first row with a pixel that is not grey.
static int is_gray(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row) {
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *p = pixels + (size_t)y * bytes_per_row;
        unsigned difference = 0;
        for (uint32_t x = 0; x < width; x++) difference |= (p[4 * x] ^ p[4 * x + 1]) | (p[4 * x + 1] ^ p[4 * x + 2]);
        if (difference != 0) return 0;
    }
    return 1;
}

cic_status cic_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                          int opaque, int gray, int compression_level, const uint8_t *icc, size_t icc_length,
                          cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    png_write_context context = { .out = out, .message = message };
    message[0] = 0;
    // Checked before libpng starts: a colour image with the hint costs this scan, nothing else.
    int writes_gray = gray && is_gray(pixels, width, height, bytes_per_row);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_write_error, on_write_warning);
    if (png == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "libpng could not start"); return CIC_ERROR; }
    png_infop info = png_create_info_struct(png);
    // Volatile: set after setjmp and freed after a longjmp.
    uint8_t *volatile row = NULL;
    if (info == NULL || setjmp(context.jump)) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(row);
        cic_buffer_free(out);
        if (message[0] == 0) snprintf(message, CIC_MESSAGE_CAPACITY, "libpng failed");
        return CIC_ERROR;
    }
    png_set_write_fn(png, &context, on_write, on_flush);
    png_set_compression_level(png, compression_level);
    int color_type = writes_gray ? (opaque ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_GRAY_ALPHA)
                                 : (opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA);
    png_set_IHDR(png, info, width, height, 8, color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc != NULL && icc_length > 0) {
        // libpng checks the profile (an RGB profile of a sane size) and warns, not fails, on a bad one.
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    }
    png_write_info(png, info);
    if (writes_gray) {
        // Grey rows are packed here (libpng has no RGB-to-grey transform for writing): the
        // red sample of each pixel, and its alpha unless opaque.
        size_t samples = opaque ? 1 : 2;
        row = malloc((size_t)width * samples);
        if (row == NULL) png_error(png, "out of memory for a row");
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *p = pixels + (size_t)y * bytes_per_row;
            uint8_t *packed = row;
            if (opaque) {
                for (uint32_t x = 0; x < width; x++) packed[x] = p[4 * x];
            } else {
                for (uint32_t x = 0; x < width; x++) { packed[2 * x] = p[4 * x]; packed[2 * x + 1] = p[4 * x + 3]; }
            }
            png_write_row(png, packed);
        }
    } else {
        if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER); // drop the alpha byte of each pixel
        for (uint32_t y = 0; y < height; y++) {
            png_write_row(png, (png_const_bytep)(pixels + (size_t)y * bytes_per_row));
        }
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return CIC_OK;
}
