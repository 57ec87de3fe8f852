// JPEG XL decoding over libjxl.
#include "CImageCodecs.h"
#include "limits_internal.h"

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_jxl_decoder {
    JxlDecoder *decoder;
    void *runner;
    uint32_t width, height;
    uint8_t *icc;
    size_t icc_length;
};

static void free_decoder(cic_jxl_decoder *d) {
    if (d->decoder != NULL) JxlDecoderDestroy(d->decoder);
    if (d->runner != NULL) JxlThreadParallelRunnerDestroy(d->runner);
    free(d->icc);
    free(d);
}

/// What a status other than the expected event means, in words (libjxl has no messages).
static cic_status unexpected(JxlDecoderStatus status, const char *stage, char message[CIC_MESSAGE_CAPACITY]) {
    if (status == JXL_DEC_NEED_MORE_INPUT) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl: the data ends before %s", stage);
    } else if (status == JXL_DEC_ERROR) {
        // libjxl says no more than this, for a file cut short (its input is closed) as for damage.
        snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl: the data is invalid or cut short in %s", stage);
    } else {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl: unexpected event %d in %s", (int)status, stage);
    }
    return CIC_ERROR;
}

/// For a lossy (XYB) image whose original profile is an ICC profile, libjxl cannot convert to
/// that profile (it has no colour management) and would hand back linear sRGB, which loses the
/// shadows in 8 bits: ask for sRGB instead. An original libjxl can describe (sRGB, P3...) is
/// what it outputs anyway, so it is left alone.
static void prefer_srgb_when_needed(JxlDecoder *decoder, const JxlBasicInfo *basic) {
    if (basic->uses_original_profile) return;
    JxlColorEncoding original;
    if (JxlDecoderGetColorAsEncodedProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original) ==
        JXL_DEC_SUCCESS) {
        return;
    }
    JxlColorEncoding srgb;
    memset(&srgb, 0, sizeof srgb);
    srgb.color_space = basic->num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
    srgb.white_point = JXL_WHITE_POINT_D65;
    srgb.primaries = JXL_PRIMARIES_SRGB;
    srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
    srgb.rendering_intent = JXL_RENDERING_INTENT_RELATIVE;
    JxlDecoderSetPreferredColorProfile(decoder, &srgb);
}

/// What libjxl 0.7 allocates to decode the first frame, counted from the basic info. Its
/// JxlMemoryManager sees only the decoder's own struct (3,768 bytes in every measurement: the
/// image buffers are allocated beside it), and it has no memory limit, so the cost is estimated
/// before anything image-sized exists. Whether the frames are VarDCT or modular is not known
/// from the header, so an XYB (lossy) image is counted as modular: 20 B/px, 16 more a extra
/// channel; a non-XYB (modular) one 4 B a channel a pixel plus 2; an animation's coalesced
/// canvas 4 B a channel more; plus a fixed 16 MiB. Measured peaks (heap, all allocations, one
/// thread) at 3000x2000 and 1000x700 fit slope + base: VarDCT 2.7 B/px + 7.6 MB, modular lossy
/// 18.7 + 1.7 MB, lossy with alpha 35.6 + 5.3 MB, lossless RGB 12.5, RGBA 16.1, 16-bit RGB
/// 13.9; an animation's first frame about 12 B/px more.
static uint64_t working_memory(const JxlBasicInfo *basic) {
    uint64_t pixels = (uint64_t)basic->xsize * basic->ysize;
    uint64_t channels = (uint64_t)basic->num_color_channels + basic->num_extra_channels;
    uint64_t per_pixel = basic->uses_original_profile ? 4 * channels + 2 : 20 + 16 * (uint64_t)basic->num_extra_channels;
    if (basic->have_animation) per_pixel += 4 * channels;
    return pixels * per_pixel + (16u << 20);
}

cic_jxl_decoder *cic_jxl_open(const uint8_t *data, size_t length, cic_limits limits, int threads, cic_jxl_info *info,
                              cic_status *status, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    memset(info, 0, sizeof *info);
    info->orientation = 1;
    cic_jxl_decoder *d = calloc(1, sizeof *d);
    if (d != NULL) d->decoder = JxlDecoderCreate(NULL);
    if (d != NULL && d->decoder != NULL && threads > 1) {
        d->runner = JxlThreadParallelRunnerCreate(NULL, (size_t)threads);
        if (d->runner == NULL ||
            JxlDecoderSetParallelRunner(d->decoder, JxlThreadParallelRunner, d->runner) != JXL_DEC_SUCCESS) {
            free_decoder(d);
            d = NULL;
        }
    }
    if (d == NULL || d->decoder == NULL) {
        if (d != NULL) free_decoder(d);
        snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl could not start");
        *status = CIC_MEMORY_LIMIT;
        return NULL;
    }
    JxlDecoder *decoder = d->decoder;
    // The orientation is applied (or not) by the caller, like every other format's.
    JxlDecoderSetKeepOrientation(decoder, JXL_TRUE);
    JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE);
    if (JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE) !=
            JXL_DEC_SUCCESS ||
        JxlDecoderSetInput(decoder, data, length) != JXL_DEC_SUCCESS) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl refused its settings");
        *status = CIC_ERROR;
        free_decoder(d);
        return NULL;
    }
    JxlDecoderCloseInput(decoder);

    JxlDecoderStatus event = JxlDecoderProcessInput(decoder);
    if (event != JXL_DEC_BASIC_INFO) {
        *status = unexpected(event, "the image header", message);
        free_decoder(d);
        return NULL;
    }
    JxlBasicInfo basic;
    if (JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS) {
        *status = unexpected(JXL_DEC_ERROR, "the image header", message);
        free_decoder(d);
        return NULL;
    }
    info->width = basic.xsize;
    info->height = basic.ysize;
    info->bits_per_sample = basic.bits_per_sample;
    info->has_alpha = basic.alpha_bits > 0 ? 1 : 0;
    info->is_gray = basic.num_color_channels == 1 ? 1 : 0;
    info->orientation = basic.orientation >= 1 && basic.orientation <= 8 ? (int)basic.orientation : 1;
    info->has_animation = basic.have_animation ? 1 : 0;
    info->is_xyb = basic.uses_original_profile ? 0 : 1;
    // Nothing image-sized exists yet: libjxl has read the size header and the image metadata.
    *status = cic_check_declared_size(limits, info->width, info->height, message);
    if (*status == CIC_OK) *status = cic_check_output_size(limits, info->width, info->height, message);
    if (*status == CIC_OK) *status = cic_check_decoder_memory(limits, working_memory(&basic), message);
    if (*status != CIC_OK) {
        free_decoder(d);
        return NULL;
    }

    event = JxlDecoderProcessInput(decoder);
    if (event != JXL_DEC_COLOR_ENCODING) {
        *status = unexpected(event, "the colour encoding", message);
        free_decoder(d);
        return NULL;
    }
    prefer_srgb_when_needed(decoder, &basic);
    // The profile of the numbers libjxl returns (for XYB images, the space it converts to), so
    // that a colour transform built from it fits them.
    size_t icc_length = 0;
    if (JxlDecoderGetICCProfileSize(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &icc_length) == JXL_DEC_SUCCESS &&
        icc_length > 0) {
        d->icc = malloc(icc_length);
        if (d->icc != NULL &&
            JxlDecoderGetColorAsICCProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, d->icc, icc_length) ==
                JXL_DEC_SUCCESS) {
            d->icc_length = icc_length;
        } else {
            free(d->icc);
            d->icc = NULL;
        }
    }
    d->width = info->width;
    d->height = info->height;
    *status = CIC_OK;
    return d;
}

void cic_jxl_destroy(cic_jxl_decoder *d) {
    if (d != NULL) free_decoder(d);
}

void cic_jxl_colour(const cic_jxl_decoder *d, const uint8_t **icc, size_t *icc_length) {
    *icc = d->icc;
    *icc_length = d->icc_length;
}

cic_status cic_jxl_decode_first(cic_jxl_decoder *d, uint8_t *pixels, size_t bytes_per_row,
                                char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    // RGBA8 rows of exactly bytes_per_row: libjxl pads each row to a multiple of `align`, and
    // bytes_per_row is at least width * 4. Grey comes out replicated to R, G and B.
    JxlPixelFormat format = { 4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, bytes_per_row };
    for (;;) {
        JxlDecoderStatus event = JxlDecoderProcessInput(d->decoder);
        switch (event) {
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER: {
            size_t needed = 0;
            if (JxlDecoderImageOutBufferSize(d->decoder, &format, &needed) != JXL_DEC_SUCCESS) {
                return unexpected(JXL_DEC_ERROR, "the first frame", message);
            }
            if (needed > bytes_per_row * d->height) {
                snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl needs %zu bytes for a %ux%u image", needed, d->width,
                         d->height);
                return CIC_ERROR;
            }
            if (JxlDecoderSetImageOutBuffer(d->decoder, &format, pixels, bytes_per_row * d->height) !=
                JXL_DEC_SUCCESS) {
                return unexpected(JXL_DEC_ERROR, "the first frame", message);
            }
            break;
        }
        case JXL_DEC_FULL_IMAGE:
            // The first frame (with coalescing, the first whole image of an animation): done.
            return CIC_OK;
        case JXL_DEC_SUCCESS:
            snprintf(message, CIC_MESSAGE_CAPACITY, "libjxl: the file has no frame");
            return CIC_ERROR;
        default:
            return unexpected(event, "the first frame", message);
        }
    }
}
