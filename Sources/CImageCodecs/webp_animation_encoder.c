// Animated WebP encoding over libwebpmux's WebPAnimEncoder.
#include "CImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>
#include <webp/mux.h>

cic_status cic_webp_animation_encode(const uint8_t *const *frames, const int *durations_ms, int count,
                                     uint32_t width, uint32_t height, size_t bytes_per_row, int loop_count,
                                     float quality, int lossless, cic_buffer *out,
                                     char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    if (count < 1 || width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "an animated WebP needs at least one frame of 1...16383 pixels a side");
        return CIC_ERROR;
    }
    WebPAnimEncoderOptions options;
    WebPConfig config;
    if (!WebPAnimEncoderOptionsInit(&options) || !WebPConfigInit(&config)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpmux's version does not match its header");
        return CIC_ERROR;
    }
    options.anim_params.loop_count = loop_count;
    config.quality = quality < 0 ? 0 : (quality > 100 ? 100 : quality);
    config.lossless = lossless ? 1 : 0;
    WebPAnimEncoder *encoder = WebPAnimEncoderNew((int)width, (int)height, &options);
    if (encoder == NULL) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpmux could not start the animation encoder");
        return CIC_ERROR;
    }
    cic_status status = CIC_OK;
    int timestamp = 0;
    for (int i = 0; i < count && status == CIC_OK; i++) {
        WebPPicture picture;
        WebPPictureInit(&picture);
        picture.use_argb = 1;
        picture.width = (int)width;
        picture.height = (int)height;
        if (!WebPPictureImportRGBA(&picture, frames[i], (int)bytes_per_row)
            || !WebPAnimEncoderAdd(encoder, &picture, timestamp, &config)) {
            snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpmux: %s", WebPAnimEncoderGetError(encoder));
            status = CIC_ERROR;
        }
        WebPPictureFree(&picture);
        timestamp += durations_ms[i];
    }
    WebPData assembled = { NULL, 0 };
    if (status == CIC_OK && (!WebPAnimEncoderAdd(encoder, NULL, timestamp, NULL) || !WebPAnimEncoderAssemble(encoder, &assembled))) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpmux: %s", WebPAnimEncoderGetError(encoder));
        status = CIC_ERROR;
    }
    if (status == CIC_OK) {
        out->bytes = malloc(assembled.size > 0 ? assembled.size : 1);
        if (out->bytes == NULL) {
            snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory for the encoded WebP");
            status = CIC_ERROR;
        } else {
            memcpy(out->bytes, assembled.bytes, assembled.size);
            out->length = out->capacity = assembled.size;
        }
    }
    WebPDataClear(&assembled);
    WebPAnimEncoderDelete(encoder);
    return status;
}
