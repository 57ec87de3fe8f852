// WebP encoding over libwebp into a cic_buffer.
#include "CImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>
#include <webp/mux.h>

static const char *encoding_error_text(WebPEncodingError error) {
    switch (error) {
    case VP8_ENC_OK: return "no error";
    case VP8_ENC_ERROR_OUT_OF_MEMORY: return "libwebp ran out of memory";
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "libwebp ran out of memory for the bitstream";
    case VP8_ENC_ERROR_NULL_PARAMETER: return "libwebp was given a null parameter";
    case VP8_ENC_ERROR_INVALID_CONFIGURATION: return "libwebp rejected the configuration";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the image is too large for WebP (at most 16383 pixels a side)";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "libwebp's partition 0 overflowed";
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "libwebp's partition overflowed";
    case VP8_ENC_ERROR_BAD_WRITE: return "libwebp could not write the output";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be larger than 4 GiB";
    case VP8_ENC_ERROR_USER_ABORT: return "encoding was aborted";
    case VP8_ENC_ERROR_LAST: break;
    }
    return "libwebp failed";
}

/// libwebp's writer callback: appends to the cic_buffer in picture->custom_ptr.
static int on_write(const uint8_t *data, size_t size, const WebPPicture *picture) {
    return cic_buffer_append(picture->custom_ptr, data, size);
}

// Wraps a simple-format file in the extended format with an ICCP chunk (libwebpmux).
static cic_status add_icc_chunk(cic_buffer *out, const uint8_t *icc, size_t icc_length,
                                char message[CIC_MESSAGE_CAPACITY]) {
    WebPData image = { out->bytes, out->length };
    WebPData profile = { icc, icc_length };
    WebPData assembled = { NULL, 0 };
    WebPMux *mux = WebPMuxCreate(&image, 0);
    int ok = mux != NULL && WebPMuxSetChunk(mux, "ICCP", &profile, 0) == WEBP_MUX_OK
          && WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    cic_buffer_free(out);
    if (!ok || !cic_buffer_append(out, assembled.bytes, assembled.size)) {
        WebPDataClear(&assembled);
        cic_buffer_free(out);
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpmux could not add the ICC profile");
        return CIC_ERROR;
    }
    WebPDataClear(&assembled);
    return CIC_OK;
}

cic_status cic_webp_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                           int opaque, float quality, int lossless, const uint8_t *icc, size_t icc_length,
                           cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s", encoding_error_text(VP8_ENC_ERROR_BAD_DIMENSION));
        return CIC_ERROR;
    }
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebp's version does not match its header");
        return CIC_ERROR;
    }
    config.quality = quality < 0 ? 0 : (quality > 100 ? 100 : quality);
    if (lossless) {
        config.lossless = 1;
        config.exact = 1; // keep the colour of transparent pixels: decoding gives the input back
    }
    config.method = lossless ? 1 : 4;
    picture.use_argb = lossless ? 1 : 0;
    picture.width = (int)width;
    picture.height = (int)height;
    picture.writer = on_write;
    picture.custom_ptr = out;
    int imported = opaque ? WebPPictureImportRGBX(&picture, pixels, (int)bytes_per_row)
                          : WebPPictureImportRGBA(&picture, pixels, (int)bytes_per_row);
    if (!imported) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s", encoding_error_text(picture.error_code));
        WebPPictureFree(&picture);
        return CIC_ERROR;
    }
    int ok = WebPEncode(&config, &picture);
    WebPEncodingError error = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s", encoding_error_text(error));
        cic_buffer_free(out);
        return CIC_ERROR;
    }
    if (icc != NULL && icc_length > 0) return add_icc_chunk(out, icc, icc_length, message);
    return CIC_OK;
}
