// AVIF decoding over libavif.
#include "CImageCodecs.h"
#include "limits_internal.h"

#include <avif/avif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_avif_decoder {
    avifDecoder *decoder;
    uint32_t width, height;
};

/// libavif's result in words, with its diagnostic detail when it gave one.
static void describe(avifDecoder *decoder, avifResult result, char message[CIC_MESSAGE_CAPACITY]) {
    const char *detail = decoder != NULL ? decoder->diag.error : "";
    if (detail[0] != 0) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libavif: %s (%s)", avifResultToString(result), detail);
    } else {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libavif: %s", avifResultToString(result));
    }
}

static cic_status status_code(avifResult result) {
    switch (result) {
    case AVIF_RESULT_OK: return CIC_OK;
    case AVIF_RESULT_OUT_OF_MEMORY: return CIC_MEMORY_LIMIT;
    case AVIF_RESULT_NO_CODEC_AVAILABLE: return CIC_UNSUPPORTED;
    default: return CIC_ERROR;
    }
}

cic_avif_decoder *cic_avif_open(const uint8_t *data, size_t length, cic_limits limits, int threads,
                                cic_avif_info *info, cic_status *status, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    memset(info, 0, sizeof *info);
    info->mirror = -1;
    avifDecoder *decoder = avifDecoderCreate();
    if (decoder == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "libavif could not start"); *status = CIC_MEMORY_LIMIT; return NULL; }
    decoder->maxThreads = threads < 1 ? 1 : threads;
    decoder->strictFlags = AVIF_STRICT_DISABLED; // decode what browsers decode (files without pixi, ...)
    // libavif's own guards, in case its container walk finds more than the header declared.
    // (libavif refuses a size limit of 0 or over its default, 16384 x 16384.)
    uint64_t size_limit = limits.max_source_pixels < AVIF_DEFAULT_IMAGE_SIZE_LIMIT ? limits.max_source_pixels : AVIF_DEFAULT_IMAGE_SIZE_LIMIT;
    decoder->imageSizeLimit = size_limit > 0 ? (uint32_t)size_limit : 1;
    decoder->imageDimensionLimit = limits.max_dimension;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    avifResult result = avifDecoderSetIOMemory(decoder, data, length);
    if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    if (result != AVIF_RESULT_OK) {
        // A declared size over libavif's own limits (set from ours; it caps them at 16384²) comes
        // back as a parse failure whose diagnostic names the size: reported as too large.
        describe(decoder, result, message);
        *status = status_code(result);
        const char *size = strstr(decoder->diag.error, "too large [");
        if (size != NULL) {
            *status = CIC_TOO_LARGE;
            sscanf(size, "too large [%ux%u]", &info->width, &info->height);
        }
        avifDecoderDestroy(decoder);
        return NULL;
    }
    avifImage *image = decoder->image;
    info->width = image->width;
    info->height = image->height;
    info->depth = image->depth;
    info->yuv_format = image->yuvFormat;
    info->has_alpha = decoder->alphaPresent ? 1 : 0;
    info->frame_count = decoder->imageCount > 0 ? (uint32_t)decoder->imageCount : 1;
    if (image->transformFlags & AVIF_TRANSFORM_IROT) info->rotation = image->irot.angle & 3;
    if (image->transformFlags & AVIF_TRANSFORM_IMIR) info->mirror = image->imir.mode & 1;
    if (image->transformFlags & AVIF_TRANSFORM_CLAP) {
        avifCropRect rect = { 0, 0, 0, 0 };
        avifDiagnostics diag;
        diag.error[0] = 0;
        int valid = avifCropRectConvertCleanApertureBox(&rect, &image->clap, image->width, image->height, image->yuvFormat, &diag);
        // libavif also refuses a rectangle whose odd origin or size does not fit the chroma
        // subsampling: a rule for cropping YUV planes that does not matter for RGB output.
        if (!valid && strstr(diag.error, "subsampling") != NULL) valid = 1;
        if (valid && rect.width > 0 && rect.height > 0 && rect.x + rect.width <= image->width && rect.y + rect.height <= image->height) {
            info->has_crop = 1;
            info->crop_x = rect.x; info->crop_y = rect.y;
            info->crop_width = rect.width; info->crop_height = rect.height;
        }
    }
    *status = cic_check_declared_size(limits, info->width, info->height, message);
    if (*status == CIC_OK) *status = cic_check_output_size(limits, info->width, info->height, message);
    if (*status != CIC_OK) { avifDecoderDestroy(decoder); return NULL; }
    cic_avif_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) { avifDecoderDestroy(decoder); snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory"); *status = CIC_MEMORY_LIMIT; return NULL; }
    d->decoder = decoder;
    d->width = info->width;
    d->height = info->height;
    return d;
}

void cic_avif_destroy(cic_avif_decoder *d) {
    if (d == NULL) return;
    avifDecoderDestroy(d->decoder);
    free(d);
}

void cic_avif_colour(const cic_avif_decoder *d, const uint8_t **icc, size_t *icc_length, int *primaries,
                     int *transfer) {
    const avifImage *image = d->decoder->image;
    *icc = image->icc.size > 0 ? image->icc.data : NULL;
    *icc_length = image->icc.size;
    *primaries = (int)image->colorPrimaries;
    *transfer = (int)image->transferCharacteristics;
}

cic_status cic_avif_decode_first(cic_avif_decoder *d, uint8_t *pixels, size_t bytes_per_row,
                                 char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    avifResult result = avifDecoderNextImage(d->decoder);
    if (result != AVIF_RESULT_OK) { describe(d->decoder, result, message); return status_code(result); }
    avifImage *image = d->decoder->image;
    if (image->width != d->width || image->height != d->height) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the AV1 image is %ux%u but the container declares %ux%u",
                 image->width, image->height, d->width, d->height);
        return CIC_ERROR;
    }
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.pixels = pixels;
    rgb.rowBytes = (uint32_t)bytes_per_row;
    result = avifImageYUVToRGB(image, &rgb);
    if (result != AVIF_RESULT_OK) { describe(NULL, result, message); return status_code(result); }
    return CIC_OK;
}
