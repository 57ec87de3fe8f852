// WebP decoding over libwebp (still images, with its scaler) and libwebpdemux (animations).
#include "CImageCodecs.h"
#include "limits_internal.h"
#include "webp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

const char *cic_webp_status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OK: return "no error";
    case VP8_STATUS_OUT_OF_MEMORY: return "libwebp ran out of memory";
    case VP8_STATUS_INVALID_PARAM: return "libwebp was given an invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "libwebp found a bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "libwebp does not support a feature of the file";
    case VP8_STATUS_SUSPENDED: return "libwebp suspended decoding";
    case VP8_STATUS_USER_ABORT: return "decoding was aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "libwebp needs more data (the file is truncated)";
    }
    return "libwebp failed";
}

static cic_status status_code(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OK: return CIC_OK;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return CIC_UNSUPPORTED;
    case VP8_STATUS_OUT_OF_MEMORY: return CIC_MEMORY_LIMIT;
    default: return CIC_ERROR;
    }
}

cic_status cic_webp_read_info(const uint8_t *data, size_t length, cic_limits limits,
                              cic_webp_info *info, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    memset(info, 0, sizeof *info);
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(data, length, &features);
    if (status == VP8_STATUS_NOT_ENOUGH_DATA) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s while reading the header", cic_webp_status_text(status));
        return CIC_NEED_MORE_DATA;
    }
    if (status != VP8_STATUS_OK) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s while reading the header", cic_webp_status_text(status));
        return status_code(status);
    }
    info->width = (uint32_t)features.width;
    info->height = (uint32_t)features.height;
    info->has_alpha = features.has_alpha;
    info->has_animation = features.has_animation;
    info->format = features.format;
    info->frame_count = 1;
    if (features.has_animation) {
        // The canvas and frame count come from the container (a header-only walk of the chunks).
        WebPData bytes = { data, length };
        WebPDemuxState state;
        WebPDemuxer *demux = WebPDemuxPartial(&bytes, &state);
        if (demux == NULL || state < WEBP_DEMUX_PARSED_HEADER) {
            WebPDemuxDelete(demux);
            snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpdemux could not parse the animation's header");
            return CIC_ERROR;
        }
        info->width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
        info->height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
        info->frame_count = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
        info->loop_count = WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT);
        WebPDemuxDelete(demux);
    }
    return cic_check_declared_size(limits, info->width, info->height, message);
}

// A walk of the RIFF chunks (no demuxer: it also works on the first bytes of a file, which is
// what the incremental decoder has when the header is complete).
static uint32_t read_le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

const uint8_t *cic_webp_icc_profile(const uint8_t *data, size_t length, size_t *icc_length, int *incomplete) {
    *icc_length = 0;
    *incomplete = 0;
    if (length < 30 || memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) return NULL;
    if (memcmp(data + 12, "VP8X", 4) != 0 || !(data[20] & ICCP_FLAG)) return NULL;
    size_t at = 12;
    while (at + 8 <= length) {
        uint32_t size = read_le32(data + at + 4);
        if (memcmp(data + at, "ICCP", 4) == 0) {
            if (size > length - at - 8) {
                *incomplete = 1; // not all here yet
                return NULL;
            }
            *icc_length = size;
            return data + at + 8;
        }
        // The image data comes after every chunk that may carry the profile.
        if (memcmp(data + at, "VP8 ", 4) == 0 || memcmp(data + at, "VP8L", 4) == 0
            || memcmp(data + at, "ANMF", 4) == 0) {
            return NULL;
        }
        at += 8 + (size_t)size + (size & 1);
    }
    *incomplete = 1; // the flag promises a profile that has not arrived
    return NULL;
}

cic_status cic_webp_decode(const uint8_t *data, size_t length, uint32_t output_width, uint32_t output_height,
                           uint8_t *pixels, size_t bytes_per_row, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebp's version does not match its header");
        return CIC_ERROR;
    }
    VP8StatusCode status = WebPGetFeatures(data, length, &config.input);
    if (status == VP8_STATUS_OK && config.input.has_animation) status = VP8_STATUS_UNSUPPORTED_FEATURE;
    if (status != VP8_STATUS_OK) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s", cic_webp_status_text(status));
        return status_code(status);
    }
    if ((int)output_width != config.input.width || (int)output_height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)output_width;
        config.options.scaled_height = (int)output_height;
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)bytes_per_row;
    config.output.u.RGBA.size = bytes_per_row * output_height;
    status = WebPDecode(data, length, &config);
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "%s", cic_webp_status_text(status));
        return status_code(status);
    }
    return CIC_OK;
}

struct cic_webp_animation {
    WebPAnimDecoder *decoder;
    uint32_t width, height;
};

cic_webp_animation *cic_webp_animation_create(const uint8_t *data, size_t length, cic_limits limits,
                                              cic_status *status, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    cic_webp_info info;
    *status = cic_webp_read_info(data, length, limits, &info, message);
    if (*status == CIC_OK) *status = cic_check_output_size(limits, info.width, info.height, message);
    if (*status == CIC_OK) *status = cic_check_animation(limits, info.frame_count, info.width, info.height, message);
    if (*status != CIC_OK) return NULL;
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpdemux's version does not match its header");
        *status = CIC_ERROR;
        return NULL;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData bytes = { data, length };
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&bytes, &options);
    if (decoder == NULL) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpdemux could not parse the animation");
        *status = CIC_ERROR;
        return NULL;
    }
    cic_webp_animation *animation = calloc(1, sizeof *animation);
    if (animation == NULL) {
        WebPAnimDecoderDelete(decoder);
        snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory");
        *status = CIC_MEMORY_LIMIT;
        return NULL;
    }
    animation->decoder = decoder;
    animation->width = info.width;
    animation->height = info.height;
    return animation;
}

void cic_webp_animation_destroy(cic_webp_animation *animation) {
    if (animation == NULL) return;
    WebPAnimDecoderDelete(animation->decoder);
    free(animation);
}

cic_status cic_webp_animation_next(cic_webp_animation *animation, uint8_t *pixels, size_t bytes_per_row,
                                   int *end_ms, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    if (!WebPAnimDecoderHasMoreFrames(animation->decoder)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the animation has no more frames");
        return CIC_BAD_STATE;
    }
    uint8_t *canvas = NULL;
    if (!WebPAnimDecoderGetNext(animation->decoder, &canvas, end_ms) || canvas == NULL) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebpdemux could not decode a frame (the data is corrupt or truncated)");
        return CIC_ERROR;
    }
    size_t row = (size_t)animation->width * 4;
    for (uint32_t y = 0; y < animation->height; y++) {
        memcpy(pixels + y * bytes_per_row, canvas + y * row, row);
    }
    return CIC_OK;
}
