// WebP over libwebp and libwebpdemux (included by CImageCodecs.h). libwebp reports status
// codes, never jumps; its callbacks (the memory writer) stay in this target like every other.
#ifndef CIC_WEBP_H
#define CIC_WEBP_H

#include "CImageCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t width, height;   // the canvas (the image of a still file)
    int has_alpha;
    int has_animation;
    int format;               // 0: mixed or unknown, 1: lossy (VP8), 2: lossless (VP8L)
    uint32_t frame_count;     // 1 for a still image
    uint32_t loop_count;      // animations: 0 loops forever
} cic_webp_info;

/// Reads the header of a complete in-memory file (VP8, VP8L or VP8X, animated or not) and checks
/// the declared size against `limits` (dimension, source pixels). CIC_NEED_MORE_DATA when the
/// header is cut short. Animations' frame counts are checked by cic_webp_animation_create.
cic_status cic_webp_read_info(const uint8_t *data, size_t length, cic_limits limits,
                              cic_webp_info *info, char message[CIC_MESSAGE_CAPACITY]);

/// The ICC profile of an extended file's ICCP chunk (a pointer into `data`), or NULL with
/// `*icc_length` 0 when there is none. Needs the chunks before the image data only: when the
/// flags promise a profile that `data` does not hold whole yet, `*incomplete` is set to 1.
const uint8_t *cic_webp_icc_profile(const uint8_t *data, size_t length, size_t *icc_length, int *incomplete);
/// Decodes a still file to straight-alpha RGBA8 at `output_width`×`output_height` (libwebp's
/// area-averaging scaler when smaller than the file) into `pixels`.
cic_status cic_webp_decode(const uint8_t *data, size_t length, uint32_t output_width, uint32_t output_height,
                           uint8_t *pixels, size_t bytes_per_row, char message[CIC_MESSAGE_CAPACITY]);

/// An animated file's frames, composited on the canvas (libwebpdemux's animation decoder).
typedef struct cic_webp_animation cic_webp_animation;

/// Opens an animation after checking its canvas, frame count and frames × canvas pixels against
/// `limits`; the bytes must stay valid until it is destroyed. NULL on error (`status`, message set).
cic_webp_animation *cic_webp_animation_create(const uint8_t *data, size_t length, cic_limits limits,
                                              cic_status *status, char message[CIC_MESSAGE_CAPACITY]);
void cic_webp_animation_destroy(cic_webp_animation *animation);
/// Renders the next frame of the canvas (straight-alpha RGBA8) into `pixels` and its end time
/// in milliseconds since the start into `end_ms`.
cic_status cic_webp_animation_next(cic_webp_animation *animation, uint8_t *pixels, size_t bytes_per_row,
                                   int *end_ms, char message[CIC_MESSAGE_CAPACITY]);

/// A still WebP decoded while it arrives (libwebp's incremental decoder, WebPIDecode): rows
/// become available top to bottom.
typedef struct cic_webp_incremental cic_webp_incremental;

/// Starts decoding from the first bytes of a file, whose header (WebPGetFeatures) must be
/// complete, at `output_width`×`output_height` (scaled when smaller than the file). NULL on
/// error (message set).
cic_webp_incremental *cic_webp_incremental_create(const uint8_t *data, size_t length, uint32_t output_width,
                                                  uint32_t output_height, char message[CIC_MESSAGE_CAPACITY]);
void cic_webp_incremental_destroy(cic_webp_incremental *decoder);
/// Appends bytes (copied). CIC_OK when the image is complete, CIC_NEED_MORE_DATA while rows are
/// missing, an error for corrupt data.
cic_status cic_webp_incremental_append(cic_webp_incremental *decoder, const uint8_t *data, size_t length,
                                       char message[CIC_MESSAGE_CAPACITY]);
/// The decoded bitmap so far (straight-alpha RGBA8, `stride` bytes a row) and how many rows of
/// it are complete; NULL before the first row.
const uint8_t *cic_webp_incremental_rows(const cic_webp_incremental *decoder, uint32_t *rows, size_t *stride);

/// Encodes straight-alpha RGBA8 pixels as WebP: lossy at `quality` 0...100 or lossless
/// (`quality` is then the compression effort); alpha is kept unless `opaque`; an ICCP chunk
/// (extended format) when `icc` is not NULL.
cic_status cic_webp_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                           int opaque, float quality, int lossless, const uint8_t *icc, size_t icc_length,
                           cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]);

/// Encodes an animation of `count` straight-alpha RGBA8 frames of `width`×`height` (frame i at
/// `frames[i]`, rows `bytes_per_row` apart, shown `durations_ms[i]`), looping `loop_count` times
/// (0: forever), lossy at `quality` 0...100 or lossless, with libwebpmux's animation encoder.
cic_status cic_webp_animation_encode(const uint8_t *const *frames, const int *durations_ms, int count,
                                     uint32_t width, uint32_t height, size_t bytes_per_row, int loop_count,
                                     float quality, int lossless, cic_buffer *out,
                                     char message[CIC_MESSAGE_CAPACITY]);

#ifdef __cplusplus
}
#endif

#endif
