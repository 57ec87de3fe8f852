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

cic_status cic_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                          int opaque, int compression_level, const uint8_t *icc, size_t icc_length,
                          cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    png_write_context context = { .out = out, .message = message };
    message[0] = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_write_error, on_write_warning);
    if (png == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "libpng could not start"); return CIC_ERROR; }
    png_infop info = png_create_info_struct(png);
    uint8_t *row = NULL;
    if (info == NULL || setjmp(context.jump)) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(row);
        cic_buffer_free(out);
        if (message[0] == 0) snprintf(message, CIC_MESSAGE_CAPACITY, "libpng failed");
        return CIC_ERROR;
    }
    png_set_write_fn(png, &context, on_write, on_flush);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc != NULL && icc_length > 0) {
        // libpng checks the profile (an RGB profile of a sane size) and warns, not fails, on a bad one.
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    }
    png_write_info(png, info);
    if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER); // drop the alpha byte of each pixel
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * bytes_per_row));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return CIC_OK;
}
