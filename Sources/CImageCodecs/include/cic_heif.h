// HEIC/HEIF still images over libheif (libde265 behind it; included by CImageCodecs.h).
#ifndef CIC_HEIF_H
#define CIC_HEIF_H

#include "CImageCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t width, height;               // the primary image as shown: after libheif's clap, irot and imir
    uint32_t coded_width, coded_height;   // its ispe, before those transformations
    uint32_t depth;                       // luma bits a sample (8, 10, 12...)
    int has_alpha;
} cic_heif_info;

typedef struct cic_heif_decoder cic_heif_decoder;

/// Parses the boxes of a complete in-memory file (no HEVC decoding), finds the primary image
/// and checks its declared size against `limits` before anything image-sized is allocated;
/// libheif also refuses any item with a side over `limits.max_dimension` while it reads. The
/// bytes must stay valid until the decoder is destroyed. NULL on error (`status` and libheif's
/// message set; for CIC_TOO_LARGE, `info` holds the declared size).
cic_heif_decoder *cic_heif_open(const uint8_t *data, size_t length, cic_limits limits, int threads,
                                cic_heif_info *info, cic_status *status, char message[CIC_MESSAGE_CAPACITY]);
void cic_heif_destroy(cic_heif_decoder *decoder);
/// The primary image's colour description: an ICC profile (`prof` or `rICC`; a pointer valid
/// while the decoder lives, NULL when none) and the nclx CICP codes (2, unspecified, when none).
/// libheif reports the ICC profile when a file has both.
void cic_heif_colour(const cic_heif_decoder *decoder, const uint8_t **icc, size_t *icc_length, int *primaries,
                     int *transfer);
/// Decodes the primary image to straight-alpha RGBA8 into `pixels` (width × height as `info`
/// says: libheif applies clap, irot and imir; the EXIF orientation is not applied, as HEIF
/// says). Higher depths are reduced to 8 bits by libheif. `strict`: libheif's strict decoding
/// (what it would otherwise warn about is an error). Non-strict warnings are counted in
/// `warnings`, the first one's text in `warning`.
cic_status cic_heif_decode(cic_heif_decoder *decoder, uint8_t *pixels, size_t bytes_per_row, int strict,
                           int *warnings, char warning[CIC_MESSAGE_CAPACITY], char message[CIC_MESSAGE_CAPACITY]);

#ifdef __cplusplus
}
#endif

#endif
