// JPEG XL over libjxl (included by CImageCodecs.h).
#ifndef CIC_JXL_H
#define CIC_JXL_H

#include "CImageCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t width, height;     // the stored frame, before the orientation
    uint32_t bits_per_sample;   // of the original image (8, 10, 16, 32 float...)
    int has_alpha;
    int is_gray;                // one colour channel
    int orientation;            // the codestream's orientation, EXIF values 1...8
    int has_animation;          // frames beyond the first are not decoded
    int is_xyb;                 // lossy XYB: libjxl chose the output colour space (see cic_jxl_colour)
} cic_jxl_info;

typedef struct cic_jxl_decoder cic_jxl_decoder;

/// Reads the header of a complete in-memory file (bare codestream or container) up to its
/// colour encoding, and checks the declared size against `limits` as soon as libjxl reports
/// it, before anything image-sized is allocated. The orientation is kept (not applied). The
/// bytes must stay valid until the decoder is destroyed. NULL on error (`status` and a message
/// set; for CIC_TOO_LARGE, `info` holds the declared size). `threads` > 1 decodes with libjxl's
/// thread pool of that size.
cic_jxl_decoder *cic_jxl_open(const uint8_t *data, size_t length, cic_limits limits, int threads, cic_jxl_info *info,
                              cic_status *status, char message[CIC_MESSAGE_CAPACITY]);
void cic_jxl_destroy(cic_jxl_decoder *decoder);
/// The ICC profile of the pixels libjxl returns (JXL_COLOR_PROFILE_TARGET_DATA: the original
/// profile, or for an XYB image the space libjxl converts to; sRGB when the original is an ICC
/// profile libjxl cannot convert to), valid while the decoder lives; NULL when libjxl gives none.
void cic_jxl_colour(const cic_jxl_decoder *decoder, const uint8_t **icc, size_t *icc_length);
/// Decodes the first frame to straight-alpha RGBA8 (grey replicated, alpha 255 when none) into
/// `pixels`, `info.width` × `info.height`: the stored frame, orientation not applied.
cic_status cic_jxl_decode_first(cic_jxl_decoder *decoder, uint8_t *pixels, size_t bytes_per_row,
                                char message[CIC_MESSAGE_CAPACITY]);

#ifdef __cplusplus
}
#endif

#endif
