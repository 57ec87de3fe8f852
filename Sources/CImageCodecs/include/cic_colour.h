// Colour management over Little CMS 2 (included by CImageCodecs.h): turns a file's colour
// description (an ICC profile, PNG's gAMA/cHRM, AVIF's CICP codes) into a transform to sRGB,
// built once per distinct description and cached, and converts decoded rows with it.
#ifndef CIC_COLOUR_H
#define CIC_COLOUR_H

#include "CImageCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What the pixels handed to a transform hold. All are 4 bytes a pixel except RGBA16_BE.
typedef enum {
    /// RGBA8, straight alpha (alpha is kept).
    CIC_COLOUR_INPUT_RGB = 0,
    /// Grey decoded as RGBA8 with R = G = B (alpha is kept).
    CIC_COLOUR_INPUT_GRAY = 1,
    /// CMYK8 as libjpeg outputs it (0 = no ink); the output is RGBA8, alpha 255.
    CIC_COLOUR_INPUT_CMYK = 2,
    /// CMYK8 stored inverted (0 = full ink), as Adobe's files are; the output is RGBA8, alpha 255.
    CIC_COLOUR_INPUT_CMYK_INVERTED = 3,
    /// RGBA16 big-endian (PNG's 16-bit samples); the output is RGBA8, alpha rounded.
    CIC_COLOUR_INPUT_RGBA16_BE = 4,
} cic_colour_input;

/// What a colour description means for decoding.
typedef enum {
    /// No colour description: the numbers are sRGB by convention; nothing to do.
    CIC_COLOUR_UNTAGGED = 0,
    /// The description is sRGB (judged by what it does, not its name): nothing to do.
    CIC_COLOUR_SRGB = 1,
    /// The description differs from sRGB: `transform` converts to sRGB.
    CIC_COLOUR_CONVERT = 2,
    /// The description is malformed or does not fit the pixels: nothing is done, `message` says why.
    CIC_COLOUR_UNUSABLE = 3,
} cic_colour_outcome;

typedef struct cic_colour_transform cic_colour_transform;

typedef struct {
    cic_colour_outcome outcome;
    /// CIC_COLOUR_CONVERT only: a reference the caller owns (cic_colour_transform_release).
    cic_colour_transform *transform;
    /// The profile's description ("Display P3", ...), or a made-up one ("CICP 12/13"); may be "".
    char name[64];
    /// CIC_COLOUR_UNUSABLE: why the description was not used.
    char message[CIC_MESSAGE_CAPACITY];
} cic_colour_resolution;

/// Resolves an embedded ICC profile for pixels of kind `input`. Never fails: a profile that
/// cannot be used is CIC_COLOUR_UNUSABLE with a message. Thread-safe; results are cached.
void cic_colour_resolve_icc(const uint8_t *icc, size_t length, cic_colour_input input, cic_colour_resolution *out);
/// Resolves PNG's cHRM and gAMA: `chromaticities` holds white x, y, then red, green and blue x, y;
/// `file_gamma` is gAMA's value (the encoding exponent, 1/2.2 for most files). A NULL
/// `chromaticities` means sRGB's primaries (gAMA alone).
void cic_colour_resolve_chromaticities(const double *chromaticities, double file_gamma, cic_colour_input input,
                                       cic_colour_resolution *out);
/// Resolves ITU-T H.273 codes (AVIF's nclx): colour primaries and transfer characteristics.
/// Unknown codes, and the HDR transfers (PQ 16, HLG 18: no tone mapping here), are unusable.
void cic_colour_resolve_cicp(int primaries, int transfer, cic_colour_input input, cic_colour_resolution *out);

void cic_colour_transform_retain(cic_colour_transform *transform);
void cic_colour_transform_release(cic_colour_transform *transform);

/// Converts `rows` rows of `width` 4-byte pixels in place to sRGB RGBA8. Thread-safe.
void cic_colour_convert(const cic_colour_transform *transform, uint8_t *pixels, size_t bytes_per_row,
                        uint32_t width, uint32_t rows);
/// Converts `rows` rows of RGBA16 big-endian (`in`) to sRGB RGBA8 (`out`): a transform resolved
/// for CIC_COLOUR_INPUT_RGBA16_BE only. Thread-safe.
void cic_colour_convert_16(const cic_colour_transform *transform, const uint8_t *in, size_t in_bytes_per_row,
                           uint8_t *out, size_t out_bytes_per_row, uint32_t width, uint32_t rows);
/// 1 when the source is an RGB space (its numbers can be kept and the profile embedded), 0 for
/// grey and CMYK sources, which always convert.
int cic_colour_transform_is_rgb(const cic_colour_transform *transform);
/// The source's description as ICC bytes (the embedded profile, or one built from the
/// chromaticities or CICP codes); valid while the transform is referenced.
const uint8_t *cic_colour_transform_icc(const cic_colour_transform *transform, size_t *length);

/// The transform cache: how many descriptions it holds (tests watch it). Bounded at
/// CIC_COLOUR_CACHE_CAPACITY entries.
#define CIC_COLOUR_CACHE_CAPACITY 32
int cic_colour_cache_count(void);

/// ITU-T H.273 codes that Imaging names: BT.709's primaries (sRGB's), Display P3's, and the
/// sRGB transfer.
#define CIC_H273_PRIMARIES_BT709 1
#define CIC_H273_PRIMARIES_DISPLAY_P3 12
#define CIC_H273_TRANSFER_SRGB 13
/// The white point and primaries of H.273 colour primaries `code` (white x, y, then red, green
/// and blue x, y), NULL for a code not in the table: the one table of them.
const double *cic_colour_h273_primaries(int code);
/// The ICC parametric curve of H.273 transfer characteristics `code` into `parameters`: its type
/// (1: Y = X^g, parameters[0] = g; 4: g, a, b, c, d), or 0 for a code not in the table (then
/// `parameters` is untouched). The HDR transfers (PQ, HLG) are not in it.
int cic_colour_h273_transfer(int code, double parameters[5]);

/// A compact profile for sRGB (Little CMS's built-in one) as ICC bytes, for tests and tools.
cic_status cic_colour_srgb_icc(cic_buffer *out);
/// A matrix/TRC profile built from primaries, a white point and a parametric transfer (ICC type 4:
/// gamma, a, b, c, d), as ICC bytes named `name`: for tests and for tagging generated images.
cic_status cic_colour_build_rgb_icc(const double chromaticities[8], const double curve[5], const char *name,
                                    cic_buffer *out);

#ifdef __cplusplus
}
#endif

#endif
