// WebP decoded while it arrives, over libwebp's incremental decoder.
#include "CImageCodecs.h"
#include "webp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <webp/decode.h>

struct cic_webp_incremental {
    WebPDecoderConfig config;
    WebPIDecoder *idec;
};

cic_webp_incremental *cic_webp_incremental_create(const uint8_t *data, size_t length, uint32_t output_width,
                                                  uint32_t output_height, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    cic_webp_incremental *d = calloc(1, sizeof *d);
    if (d == NULL || !WebPInitDecoderConfig(&d->config)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebp could not start");
        free(d);
        return NULL;
    }
    if (WebPGetFeatures(data, length, &d->config.input) != VP8_STATUS_OK || d->config.input.has_animation) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebp found no still image header");
        free(d);
        return NULL;
    }
    if ((int)output_width != d->config.input.width || (int)output_height != d->config.input.height) {
        d->config.options.use_scaling = 1;
        d->config.options.scaled_width = (int)output_width;
        d->config.options.scaled_height = (int)output_height;
    }
    d->config.output.colorspace = MODE_RGBA;
    d->idec = WebPIDecode(NULL, 0, &d->config);
    if (d->idec == NULL) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libwebp could not start its incremental decoder");
        free(d);
        return NULL;
    }
    return d;
}

void cic_webp_incremental_destroy(cic_webp_incremental *d) {
    if (d == NULL) return;
    WebPIDelete(d->idec);
    WebPFreeDecBuffer(&d->config.output);
    free(d);
}

cic_status cic_webp_incremental_append(cic_webp_incremental *d, const uint8_t *data, size_t length,
                                       char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    VP8StatusCode status = WebPIAppend(d->idec, data, length);
    if (status == VP8_STATUS_OK) return CIC_OK;
    if (status == VP8_STATUS_SUSPENDED) return CIC_NEED_MORE_DATA;
    snprintf(message, CIC_MESSAGE_CAPACITY, "%s", cic_webp_status_text(status));
    return status == VP8_STATUS_UNSUPPORTED_FEATURE ? CIC_UNSUPPORTED : CIC_ERROR;
}

const uint8_t *cic_webp_incremental_rows(const cic_webp_incremental *d, uint32_t *rows, size_t *stride) {
    int last_y = 0, width = 0, height = 0, row_stride = 0;
    const uint8_t *pixels = WebPIDecGetRGB(d->idec, &last_y, &width, &height, &row_stride);
    *rows = pixels != NULL && last_y > 0 ? (uint32_t)last_y : 0;
    *stride = (size_t)row_stride;
    return pixels;
}
