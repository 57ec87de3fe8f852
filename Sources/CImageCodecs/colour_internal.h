// Shared by colour_cache.c (resolution, the cache) and colour_transform.c (building and running
// transforms). Private to the C target.
#ifndef CIC_COLOUR_INTERNAL_H
#define CIC_COLOUR_INTERNAL_H

#include "CImageCodecs.h"

#include <lcms2.h>
#include <stdatomic.h>

/// Fixed-point scale of the fast path's linear values (Q14: 1.0 = 16384).
#define CIC_LINEAR_ONE 16384
/// Each packed field of the fast path's tables carries this bias so that three summed fields
/// never borrow from their neighbour (a product is within ±2 × CIC_LINEAR_ONE).
#define CIC_FIELD_BIAS (1 << 17)
#define CIC_FIELD_BITS 21

typedef enum {
    /// Matrix/TRC source: three packed tables (curve × matrix column) and one output curve.
    CIC_PATH_FAST_MATRIX,
    /// Grey source on grey pixels: one table from the grey value to sRGB R, G, B.
    CIC_PATH_GRAY_TABLE,
    /// Anything else (LUT profiles, CMYK, 16-bit input): Little CMS runs it.
    CIC_PATH_LCMS,
} cic_colour_path;

struct cic_colour_transform {
    atomic_int references;
    cic_colour_path path;
    cic_colour_input input;
    int is_rgb_source;
    uint64_t packed[3][256];                 // FAST_MATRIX
    // FAST_MATRIX: sRGB codes for every sum a field can hold, clamping included: entry i is
    // the code of the linear value (i + encode_first) / CIC_LINEAR_ONE, clamped to 0...1. A
    // table lookup instead of two compares per channel halves the cost of a pixel.
    uint8_t *encode;
    int32_t encode_first;                    // the linear value (Q14) of entry 0
    uint32_t encode_count;
    uint8_t gray[3][256];                    // GRAY_TABLE
    cmsHTRANSFORM lcms;                      // LCMS
    uint8_t *icc;                            // the source's description as ICC bytes
    size_t icc_length;
};

/// Builds the transform of `profile` (the source) for `input`, or returns NULL with `message`
/// set. Sets `*is_srgb` when the profile does what sRGB does (then no transform is returned).
/// Takes ownership of nothing; `icc` is copied into the transform.
cic_colour_transform *cic_colour_build(cmsHPROFILE profile, cic_colour_input input, const uint8_t *icc,
                                       size_t icc_length, int *is_srgb, char message[CIC_MESSAGE_CAPACITY]);
/// Installs the silent error handler once (Little CMS prints to stderr otherwise).
void cic_colour_install_error_handler(void);

#endif
