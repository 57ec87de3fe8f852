// HEIC/HEIF still-image decoding over libheif.
#include "CImageCodecs.h"
#include "limits_internal.h"

#include <libheif/heif.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_heif_decoder {
    struct heif_context *context;
    struct heif_image_handle *handle;
    uint32_t width, height;
    int has_alpha;
    uint8_t *icc;
    size_t icc_length;
    int primaries, transfer;
};

// libheif asks for heif_init before use (it loads its codec plugins there). Called once for the
// process and never undone: decoders come and go on any thread.
static pthread_once_t heif_once = PTHREAD_ONCE_INIT;
static void heif_start(void) { heif_init(NULL); }

static void describe(struct heif_error error, char message[CIC_MESSAGE_CAPACITY]) {
    snprintf(message, CIC_MESSAGE_CAPACITY, "libheif: %s",
             error.message != NULL && error.message[0] != 0 ? error.message : "unknown error");
    // Some of libheif's messages end with a line break.
    size_t end = strlen(message);
    while (end > 0 && (message[end - 1] == '\n' || message[end - 1] == ' ')) message[--end] = 0;
}

static cic_status status_code(struct heif_error error) {
    switch (error.code) {
    case heif_error_Ok: return CIC_OK;
    case heif_error_Memory_allocation_error:
        return error.subcode == heif_suberror_Security_limit_exceeded ? CIC_TOO_LARGE : CIC_MEMORY_LIMIT;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature: return CIC_UNSUPPORTED;
    default: return CIC_ERROR;
    }
}

static void free_decoder(cic_heif_decoder *d) {
    if (d->handle != NULL) heif_image_handle_release(d->handle);
    if (d->context != NULL) heif_context_free(d->context);
    free(d->icc);
    free(d);
}

/// The colr boxes of the primary image, copied while the handle is at hand.
static cic_status read_colour(cic_heif_decoder *d, char message[CIC_MESSAGE_CAPACITY]) {
    d->primaries = 2;
    d->transfer = 2;
    enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(d->handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        size_t length = heif_image_handle_get_raw_color_profile_size(d->handle);
        if (length > 0) {
            d->icc = malloc(length);
            if (d->icc == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory"); return CIC_MEMORY_LIMIT; }
            struct heif_error error = heif_image_handle_get_raw_color_profile(d->handle, d->icc);
            if (error.code == heif_error_Ok) {
                d->icc_length = length;
            } else {
                free(d->icc);
                d->icc = NULL;
            }
        }
    }
    // libheif names the ICC profile when a file has both boxes; the nclx one is read either way
    // (it may be the only description).
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_error error = heif_image_handle_get_nclx_color_profile(d->handle, &nclx);
    if (error.code == heif_error_Ok && nclx != NULL) {
        d->primaries = (int)nclx->color_primaries;
        d->transfer = (int)nclx->transfer_characteristics;
    }
    if (nclx != NULL) heif_nclx_color_profile_free(nclx);
    return CIC_OK;
}

/// What libheif 1.15 and libde265 allocate to decode the primary image, counted from the boxes:
/// it has neither security limits nor a memory-limit setting (1.19's heif_security_limits),
/// and its allocations do not go through a hook. Per pixel of the larger of the coded and
/// shown sizes: the YCbCr planes twice (libde265's picture and libheif's copy), as 4:4:4
/// since libheif 1.15 does not say the chroma format before decoding, then the interleaved
/// RGB(A)8 conversion; plus the compressed data libheif copies and a fixed 8 MiB. Measured
/// peaks at 3000x2000 (heap, all allocations): 6.0 B/px for 8-bit 4:2:0, 8.1 for 8-bit 4:4:4,
/// 8.0 with alpha, 12.0 and 14.4 for 10-bit 4:2:0 and 4:4:4; this estimate is 9, 9, 12, 15, 15.
static uint64_t working_memory(const cic_heif_info *info, size_t file_length) {
    uint64_t shown = (uint64_t)info->width * info->height;
    uint64_t coded = (uint64_t)info->coded_width * info->coded_height;
    uint64_t pixels = shown > coded ? shown : coded;
    uint64_t sample = info->depth > 8 ? 2 : 1;
    uint64_t planes = 3 + (info->has_alpha ? 1 : 0);
    uint64_t per_pixel = 2 * sample * planes + (info->has_alpha ? 4 : 3);
    return pixels * per_pixel + file_length + (8u << 20);
}

cic_heif_decoder *cic_heif_open(const uint8_t *data, size_t length, cic_limits limits, int threads,
                                cic_heif_info *info, cic_status *status, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    memset(info, 0, sizeof *info);
    pthread_once(&heif_once, heif_start);
    cic_heif_decoder *d = calloc(1, sizeof *d);
    if (d != NULL) d->context = heif_context_alloc();
    if (d == NULL || d->context == NULL) {
        if (d != NULL) free_decoder(d);
        snprintf(message, CIC_MESSAGE_CAPACITY, "libheif could not start");
        *status = CIC_MEMORY_LIMIT;
        return NULL;
    }
    // libheif's own guard, checked on every item's ispe as it reads the boxes (thumbnails and
    // alpha planes too, which our check below does not see).
    heif_context_set_maximum_image_size_limit(d->context,
                                              limits.max_dimension > INT_MAX ? INT_MAX : (int)limits.max_dimension);
    // 0: grid tiles decode on this thread (the pipeline decodes several images at once).
    heif_context_set_max_decoding_threads(d->context, threads > 1 ? threads : 0);
    struct heif_error error = heif_context_read_from_memory_without_copy(d->context, data, length, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(d->context, &d->handle);
    if (error.code != heif_error_Ok) {
        describe(error, message);
        *status = status_code(error);
        // "Image size 100000x100000 exceeds the maximum image size 65535x65535"
        const char *size = error.message != NULL ? strstr(error.message, "Image size ") : NULL;
        if (*status == CIC_TOO_LARGE && size != NULL) sscanf(size, "Image size %ux%u", &info->width, &info->height);
        free_decoder(d);
        return NULL;
    }
    int width = heif_image_handle_get_width(d->handle), height = heif_image_handle_get_height(d->handle);
    int coded_width = heif_image_handle_get_ispe_width(d->handle);
    int coded_height = heif_image_handle_get_ispe_height(d->handle);
    if (coded_width <= 0 || coded_height <= 0) { coded_width = width; coded_height = height; }
    info->width = width > 0 ? (uint32_t)width : 0;
    info->height = height > 0 ? (uint32_t)height : 0;
    info->coded_width = (uint32_t)coded_width;
    info->coded_height = (uint32_t)coded_height;
    int depth = heif_image_handle_get_luma_bits_per_pixel(d->handle);
    info->depth = depth > 0 ? (uint32_t)depth : 8;
    info->has_alpha = heif_image_handle_has_alpha_channel(d->handle) ? 1 : 0;
    *status = cic_check_declared_size(limits, info->coded_width, info->coded_height, message);
    if (*status == CIC_OK) *status = cic_check_declared_size(limits, info->width, info->height, message);
    if (*status == CIC_OK) *status = cic_check_output_size(limits, info->width, info->height, message);
    if (*status == CIC_OK) *status = cic_check_decoder_memory(limits, working_memory(info, length), message);
    if (*status == CIC_OK) *status = read_colour(d, message);
    if (*status != CIC_OK) {
        // The size in errors is the one the file declares (as sourceWidth and sourceHeight are).
        info->width = info->coded_width;
        info->height = info->coded_height;
        free_decoder(d);
        return NULL;
    }
    d->width = info->width;
    d->height = info->height;
    d->has_alpha = info->has_alpha;
    return d;
}

void cic_heif_destroy(cic_heif_decoder *d) {
    if (d != NULL) free_decoder(d);
}

void cic_heif_colour(const cic_heif_decoder *d, const uint8_t **icc, size_t *icc_length, int *primaries,
                     int *transfer) {
    *icc = d->icc;
    *icc_length = d->icc_length;
    *primaries = d->primaries;
    *transfer = d->transfer;
}

/// libheif hands back premultiplied colour when the file says so (auxC alpha with prem).
static void unpremultiply(uint8_t *pixels, size_t bytes_per_row, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *p = pixels + y * bytes_per_row;
        for (uint32_t x = 0; x < width; x++, p += 4) {
            unsigned a = p[3];
            if (a == 0 || a == 255) continue;
            for (int c = 0; c < 3; c++) {
                unsigned v = (p[c] * 255u + a / 2) / a;
                p[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
}

cic_status cic_heif_decode(cic_heif_decoder *d, uint8_t *pixels, size_t bytes_per_row, int strict,
                           int *warnings, char warning[CIC_MESSAGE_CAPACITY], char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    warning[0] = 0;
    *warnings = 0;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory"); return CIC_MEMORY_LIMIT; }
    // libheif applies clap, irot and imir (never the EXIF orientation): the image comes out as
    // the file says to show it, once.
    options->ignore_transformations = 0;
    options->convert_hdr_to_8bit = 1;
    options->strict_decoding = strict ? 1 : 0;
    struct heif_image *image = NULL;
    enum heif_chroma chroma = d->has_alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB;
    struct heif_error error = heif_decode_image(d->handle, &image, heif_colorspace_RGB, chroma, options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        describe(error, message);
        if (image != NULL) heif_image_release(image);
        cic_status status = status_code(error);
        return status == CIC_OK ? CIC_ERROR : status;
    }
    cic_status status = CIC_OK;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int width = heif_image_get_width(image, heif_channel_interleaved);
    int height = heif_image_get_height(image, heif_channel_interleaved);
    int bits = heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved);
    if (plane == NULL || stride <= 0 || bits != 8) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "libheif gave no 8-bit interleaved RGB image");
        status = CIC_ERROR;
    } else if (width != (int)d->width || height != (int)d->height) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the decoded image is %dx%d but the file declares %ux%u", width,
                 height, d->width, d->height);
        status = CIC_ERROR;
    } else {
        for (uint32_t y = 0; y < d->height; y++) {
            const uint8_t *in = plane + (size_t)y * (size_t)stride;
            uint8_t *out = pixels + (size_t)y * bytes_per_row;
            if (d->has_alpha) {
                memcpy(out, in, (size_t)d->width * 4);
            } else {
                for (uint32_t x = 0; x < d->width; x++, in += 3, out += 4) {
                    out[0] = in[0];
                    out[1] = in[1];
                    out[2] = in[2];
                    out[3] = 255;
                }
            }
        }
        if (d->has_alpha && heif_image_is_premultiplied_alpha(image)) {
            unpremultiply(pixels, bytes_per_row, d->width, d->height);
        }
        struct heif_error first;
        *warnings = heif_image_get_decoding_warnings(image, 0, NULL, 0);
        if (*warnings > 0 && heif_image_get_decoding_warnings(image, 0, &first, 1) == 1) describe(first, warning);
    }
    heif_image_release(image);
    return status;
}
