// Plain C loops over libwebp and libavif: the references of the WebP and AVIF figures.
#include "CReference.h"
#include <avif/avif.h>
#include <stdlib.h>
#include <webp/decode.h>
#include <webp/encode.h>

uint64_t ref_webp_decode(const uint8_t *data, size_t length) {
    int width = 0, height = 0;
    if (!WebPGetInfo(data, length, &width, &height)) return 0;
    size_t stride = (size_t)width * 4;
    uint8_t *pixels = malloc(stride * (size_t)height);
    if (!pixels) return 0;
    uint8_t *ok = WebPDecodeRGBAInto(data, length, pixels, stride * (size_t)height, (int)stride);
    free(pixels);
    return ok ? (uint64_t)width * (uint64_t)height : 0;
}

uint64_t ref_webp_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, float quality) {
    uint8_t *output = NULL;
    size_t size = WebPEncodeRGBA(pixels, (int)width, (int)height, (int)stride, quality, &output);
    WebPFree(output);
    return size;
}

uint64_t ref_avif_decode(const uint8_t *data, size_t length) {
    avifDecoder *decoder = avifDecoderCreate();
    if (!decoder) return 0;
    decoder->maxThreads = 1;
    avifImage *image = avifImageCreateEmpty();
    uint64_t count = 0;
    if (image && avifDecoderReadMemory(decoder, image, data, length) == AVIF_RESULT_OK) {
        avifRGBImage rgb;
        avifRGBImageSetDefaults(&rgb, image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        avifRGBImageAllocatePixels(&rgb);
        if (avifImageYUVToRGB(image, &rgb) == AVIF_RESULT_OK) count = (uint64_t)image->width * image->height;
        avifRGBImageFreePixels(&rgb);
    }
    if (image) avifImageDestroy(image);
    avifDecoderDestroy(decoder);
    return count;
}
