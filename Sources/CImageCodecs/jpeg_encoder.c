// JPEG encoding over libjpeg-turbo into a memory buffer (jpeg_mem_dest).
#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
} jpeg_encode_errors;

static void on_encode_error(j_common_ptr cinfo) {
    jpeg_encode_errors *errors = (jpeg_encode_errors *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    errors->manager.format_message(cinfo, buffer);
    snprintf(errors->message, CIC_MESSAGE_CAPACITY, "%s", buffer);
    longjmp(errors->jump, 1);
}

static void on_encode_output(j_common_ptr cinfo) { (void)cinfo; }

cic_status cic_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                           int quality, int progressive, const uint8_t *icc, size_t icc_length,
                           cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    struct jpeg_compress_struct cinfo;
    jpeg_encode_errors errors;
    unsigned char *bytes = NULL;
    unsigned long size = 0;
    message[0] = 0;
    cinfo.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = on_encode_error;
    errors.manager.output_message = on_encode_output;
    errors.message = message;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(bytes);
        return CIC_ERROR;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &bytes, &size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    // APP2 ICC_PROFILE chunks, split as the ICC specification says (libjpeg-turbo does it).
    if (icc != NULL && icc_length > 0) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_length);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * bytes_per_row);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    out->bytes = bytes;
    out->length = size;
    out->capacity = size;
    return CIC_OK;
}
