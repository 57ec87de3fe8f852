// Shared by the colour files, private to the C target: colour_descriptions.c (descriptions →
// profiles → resolutions), colour_cache.c (the cache of resolutions), colour_h273.c (H.273's
// primaries and curves), colour_icc.c (profiles made and written as ICC bytes) and
// colour_transform.c (building and running transforms).
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

/// Makes the resolution of a description's bytes (a miss of the cache).
typedef void (*cic_colour_maker)(const uint8_t *description, size_t length, cic_colour_input input,
                                 cic_colour_resolution *out);
/// Resolves `description` (of kind `source`, for pixels of kind `input`) from the cache, or makes
/// it with `make` and caches the result. Thread-safe.
void cic_colour_cache_resolve(cic_colour_input input, int source, const uint8_t *description, size_t length,
                              cic_colour_maker make, cic_colour_resolution *out);
/// Marks `out` unusable, with `message`.
void cic_colour_set_unusable(cic_colour_resolution *out, const char *message);

/// The tone curve of H.273 transfer `code`, NULL when unknown; the caller frees it.
cmsToneCurve *cic_colour_h273_tone_curve(int code);
/// A matrix/TRC profile of `xy` (white, red, green, blue x, y) with `curve` on each channel,
/// described as `name`; NULL when `curve` is NULL or Little CMS cannot make it. The curve is
/// copied; the caller closes the profile.
cmsHPROFILE cic_colour_make_rgb_profile(const double xy[8], cmsToneCurve *curve, const char *name);
/// `profile` as ICC bytes (malloc'd, `*length` of them), NULL when it cannot be written. The
/// profile stays open.
uint8_t *cic_colour_save_profile(cmsHPROFILE profile, size_t *length);

#endif
