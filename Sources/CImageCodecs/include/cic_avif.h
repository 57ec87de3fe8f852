// AVIF over libavif (dav1d or aom behind it; included by CImageCodecs.h).
#ifndef CIC_AVIF_H
#define CIC_AVIF_H

#include "CImageCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t width, height;   // the coded image (ispe), before the clean aperture and rotation
    uint32_t depth;           // 8, 10 or 12 bits a sample
    int yuv_format;           // avifPixelFormat: 1 4:4:4, 2 4:2:2, 3 4:2:0, 4 4:0:0 (monochrome)
    int has_alpha;
    uint32_t frame_count;     // 1 unless an image sequence
    int rotation;             // irot: anticlockwise quarter turns (0...3)
    int mirror;               // imir: -1 none, 0 top and bottom exchanged, 1 left and right exchanged
    int has_crop;             // clap: the crop rectangle below applies
    uint32_t crop_x, crop_y, crop_width, crop_height;
} cic_avif_info;

typedef struct cic_avif_decoder cic_avif_decoder;

/// Parses the container of a complete in-memory file (no AV1 decoding) and checks the declared
/// size against `limits` before anything image-sized is allocated. The bytes must stay valid
/// until the decoder is destroyed. NULL on error (`status` and libavif's message set).
cic_avif_decoder *cic_avif_open(const uint8_t *data, size_t length, cic_limits limits, int threads,
                                cic_avif_info *info, cic_status *status, char message[CIC_MESSAGE_CAPACITY]);
void cic_avif_destroy(cic_avif_decoder *decoder);
/// The colour description of the container's `colr` boxes: an ICC profile (a pointer valid while
/// the decoder lives, NULL when none) and the nclx CICP codes (2, unspecified, when none).
void cic_avif_colour(const cic_avif_decoder *decoder, const uint8_t **icc, size_t *icc_length, int *primaries,
                     int *transfer);
/// Decodes the first (or only) image and converts it to straight-alpha RGBA8 (higher depths
/// rounded to 8 bits, chroma upsampled, monochrome as gray) into `pixels` (width × height).
cic_status cic_avif_decode_first(cic_avif_decoder *decoder, uint8_t *pixels, size_t bytes_per_row,
                                 char message[CIC_MESSAGE_CAPACITY]);

/// Encodes straight-alpha RGBA8 as an 8-bit 4:2:0 AVIF (with a colr ICC box when `icc` is not NULL) (alpha kept unless `opaque`) with the
/// library's default AV1 encoder. `quality` 0...100 (mapped to quantizers), `speed` 0...10.
cic_status cic_avif_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                           int opaque, int quality, int speed, int threads, const uint8_t *icc,
                           size_t icc_length, cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]);

#ifdef __cplusplus
}
#endif

#endif
