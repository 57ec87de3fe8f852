#include "CReference.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <png.h>

typedef struct { struct jpeg_error_mgr manager; jmp_buf jump; } ref_errors;

static void ref_error_exit(j_common_ptr cinfo) { longjmp(((ref_errors *)cinfo->err)->jump, 1); }

uint64_t ref_jpeg_decode(const uint8_t *data, size_t length, int scale_denom) {
    struct jpeg_decompress_struct cinfo;
    ref_errors errors;
    uint8_t *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = ref_error_exit;
    if (setjmp(errors.jump)) { jpeg_destroy_decompress(&cinfo); free(pixels); return 0; }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned)scale_denom;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    pixels = malloc(stride * cinfo.output_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    uint64_t count = (uint64_t)cinfo.output_width * cinfo.output_height;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(pixels);
    return count;
}

uint64_t ref_png_decode(const uint8_t *data, size_t length) {
    png_image image = { .version = PNG_IMAGE_VERSION };
    if (!png_image_begin_read_from_memory(&image, data, length)) return 0;
    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *pixels = malloc(size);
    int ok = png_image_finish_read(&image, NULL, pixels, 0, NULL);
    uint64_t count = ok ? (uint64_t)image.width * image.height : 0;
    png_image_free(&image);
    free(pixels);
    return count;
}
