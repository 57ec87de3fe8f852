// AVIF encoding over libavif (the library's default AV1 encoder: aom on Debian).
#include "CImageCodecs.h"

#include <avif/avif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cic_status cic_avif_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                           int opaque, int quality, int speed, int threads, const uint8_t *icc,
                           size_t icc_length, cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    avifImage *image = avifImageCreate(width, height, 8, AVIF_PIXEL_FORMAT_YUV420);
    avifEncoder *encoder = avifEncoderCreate();
    avifRWData output = AVIF_DATA_EMPTY;
    cic_status status = CIC_OK;
    if (image == NULL || encoder == NULL) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libavif could not start");
        status = CIC_ERROR;
        goto done;
    }
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.ignoreAlpha = opaque ? AVIF_TRUE : AVIF_FALSE;
    rgb.pixels = (uint8_t *)pixels;
    rgb.rowBytes = (uint32_t)bytes_per_row;
    // An ICC profile goes in a colr box (libavif then writes no nclx for the colour).
    if (icc != NULL && icc_length > 0) avifImageSetProfileICC(image, icc, icc_length);
    avifResult result = avifImageRGBToYUV(image, &rgb);
    if (result == AVIF_RESULT_OK) {
        // Quality 100 is quantizer 0 (near lossless), quality 0 the coarsest quantizer (63).
        int q = quality < 0 ? 0 : (quality > 100 ? 100 : quality);
        int quantizer = (100 - q) * AVIF_QUANTIZER_WORST_QUALITY / 100;
        encoder->minQuantizer = quantizer > 4 ? quantizer - 4 : 0;
        encoder->maxQuantizer = quantizer;
        encoder->minQuantizerAlpha = encoder->minQuantizer;
        encoder->maxQuantizerAlpha = encoder->maxQuantizer;
        encoder->speed = speed < 0 ? 0 : (speed > 10 ? 10 : speed);
        encoder->maxThreads = threads < 1 ? 1 : threads;
        result = avifEncoderWrite(encoder, image, &output);
    }
    if (result != AVIF_RESULT_OK) {
        if (encoder->diag.error[0] != 0) {
            snprintf(message, CIC_MESSAGE_CAPACITY, "libavif: %s (%s)", avifResultToString(result), encoder->diag.error);
        } else {
            snprintf(message, CIC_MESSAGE_CAPACITY, "libavif: %s", avifResultToString(result));
        }
        status = CIC_ERROR;
        goto done;
    }
    out->bytes = malloc(output.size > 0 ? output.size : 1);
    if (out->bytes == NULL) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory for the encoded AVIF");
        status = CIC_ERROR;
        goto done;
    }
    memcpy(out->bytes, output.data, output.size);
    out->length = out->capacity = output.size;
done:
    avifRWDataFree(&output);
    if (encoder) avifEncoderDestroy(encoder);
    if (image) avifImageDestroy(image);
    return status;
}
