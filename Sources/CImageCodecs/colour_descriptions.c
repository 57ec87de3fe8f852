// Colour descriptions → profiles → resolutions: an embedded ICC profile, PNG's gAMA/cHRM, or
// H.273 codes (AVIF's and HEIC's nclx). A description that is not an ICC profile becomes a
// matrix/TRC profile (colour_icc.c), saved as ICC bytes: that profile is what keep-the-numbers
// mode embeds. Each resolution is looked up in the cache first (colour_cache.c).
#include "colour_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Profiles larger than this are refused (JPEG allows 255 × 65519 bytes; real ones are < 1 MB).
#define MAX_PROFILE_BYTES (4u << 20)

// The kind of a description, part of its cache key.
enum { SOURCE_ICC = 1, SOURCE_CHROMATICITIES = 2, SOURCE_CICP = 3 };

void cic_colour_set_unusable(cic_colour_resolution *out, const char *message) {
    out->outcome = CIC_COLOUR_UNUSABLE;
    snprintf(out->message, sizeof out->message, "%s", message);
}

// Builds the result of `profile` (which this closes) into `out`.
static void build(cmsHPROFILE profile, cic_colour_input input, const uint8_t *icc, size_t icc_length,
                  cic_colour_resolution *out) {
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", out->name, sizeof out->name);
    int is_srgb = 0;
    char message[CIC_MESSAGE_CAPACITY] = "";
    cic_colour_transform *t = cic_colour_build(profile, input, icc, icc_length, &is_srgb, message);
    cmsCloseProfile(profile);
    if (is_srgb) {
        out->outcome = CIC_COLOUR_SRGB;
    } else if (t == NULL) {
        cic_colour_set_unusable(out, message);
    } else {
        out->outcome = CIC_COLOUR_CONVERT;
        out->transform = t;
    }
}

static void make_from_icc(const uint8_t *icc, size_t length, cic_colour_input input, cic_colour_resolution *out) {
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (profile == NULL) { cic_colour_set_unusable(out, "the colour profile is malformed (Little CMS could not read it)"); return; }
    build(profile, input, icc, length, out);
}

void cic_colour_resolve_icc(const uint8_t *icc, size_t length, cic_colour_input input, cic_colour_resolution *out) {
    if (length > MAX_PROFILE_BYTES) {
        memset(out, 0, sizeof *out);
        snprintf(out->message, sizeof out->message, "the colour profile is %zu bytes, over the limit of %u", length,
                 MAX_PROFILE_BYTES);
        out->outcome = CIC_COLOUR_UNUSABLE;
        return;
    }
    if (length < 132) {
        memset(out, 0, sizeof *out);
        cic_colour_set_unusable(out, "the colour profile is truncated (shorter than an ICC header)");
        return;
    }
    cic_colour_cache_resolve(input, SOURCE_ICC, icc, length, make_from_icc, out);
}

// Builds the matrix/TRC profile of `xy` (white, red, green, blue) and `curve` (which this
// frees), saves it as ICC bytes and resolves those: the built profile is then what
// keep-the-numbers mode embeds.
static void make_from_parts(const double xy[8], cmsToneCurve *curve, const char *name, cic_colour_input input,
                            cic_colour_resolution *out) {
    cmsHPROFILE profile = cic_colour_make_rgb_profile(xy, curve, name);
    if (curve != NULL) cmsFreeToneCurve(curve);
    size_t size = 0;
    uint8_t *icc = cic_colour_save_profile(profile, &size);
    if (icc != NULL) {
        build(profile, input, icc, size, out);
    } else {
        if (profile != NULL) cmsCloseProfile(profile);
        cic_colour_set_unusable(out, "the colour description does not make a valid profile");
    }
    free(icc);
}

typedef struct { double xy[8]; double gamma; int has_chromaticities; } chromaticity_description;

static void make_from_chromaticities(const uint8_t *bytes, size_t length, cic_colour_input input,
                                     cic_colour_resolution *out) {
    (void)length;
    chromaticity_description d;
    memcpy(&d, bytes, sizeof d);
    // gAMA alone: sRGB's primaries, which are BT.709's.
    const double *xy = d.has_chromaticities ? d.xy : cic_colour_h273_primaries(CIC_H273_PRIMARIES_BT709);
    char name[64];
    snprintf(name, sizeof name, "PNG gAMA %.5f%s", d.gamma, d.has_chromaticities ? " and cHRM" : "");
    make_from_parts(xy, cmsBuildGamma(NULL, 1.0 / d.gamma), name, input, out);
}

void cic_colour_resolve_chromaticities(const double *chromaticities, double file_gamma, cic_colour_input input,
                                       cic_colour_resolution *out) {
    memset(out, 0, sizeof *out);
    if (!(file_gamma > 0.01 && file_gamma < 10.0)) { cic_colour_set_unusable(out, "the PNG's gAMA value is out of range"); return; }
    chromaticity_description d;
    memset(&d, 0, sizeof d);
    d.gamma = file_gamma;
    d.has_chromaticities = chromaticities != NULL;
    if (chromaticities != NULL) {
        for (int i = 0; i < 8; i++) {
            if (!(chromaticities[i] > 0.0 && chromaticities[i] < 1.0)) { cic_colour_set_unusable(out, "the PNG's cHRM values are out of range"); return; }
            d.xy[i] = chromaticities[i];
        }
    }
    cic_colour_cache_resolve(input, SOURCE_CHROMATICITIES, (const uint8_t *)&d, sizeof d, make_from_chromaticities, out);
}

static void make_from_cicp(const uint8_t *bytes, size_t length, cic_colour_input input, cic_colour_resolution *out) {
    (void)length;
    int codes[2];
    memcpy(codes, bytes, sizeof codes);
    const double *xy = cic_colour_h273_primaries(codes[0]);
    char name[64];
    snprintf(name, sizeof name, "CICP %d/%d%s", codes[0], codes[1], codes[0] == CIC_H273_PRIMARIES_DISPLAY_P3 && codes[1] == CIC_H273_TRANSFER_SRGB ? " (Display P3)" : "");
    make_from_parts(xy, cic_colour_h273_tone_curve(codes[1]), name, input, out);
}

void cic_colour_resolve_cicp(int primaries, int transfer, cic_colour_input input, cic_colour_resolution *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "CICP %d/%d", primaries, transfer);
    if ((primaries == 1 || primaries == 2) && (transfer == 13 || transfer == 2)) {
        out->outcome = CIC_COLOUR_SRGB;
        return;
    }
    if (transfer == 16 || transfer == 18) {
        snprintf(out->message, sizeof out->message,
                 "the image is HDR (%s transfer); it is not tone-mapped, its numbers are shown as they are",
                 transfer == 16 ? "PQ" : "HLG");
        out->outcome = CIC_COLOUR_UNUSABLE;
        return;
    }
    double parameters[5];
    if (cic_colour_h273_primaries(primaries) == NULL || cic_colour_h273_transfer(transfer, parameters) == 0) {
        snprintf(out->message, sizeof out->message, "unsupported CICP colour primaries %d or transfer %d", primaries, transfer);
        out->outcome = CIC_COLOUR_UNUSABLE;
        return;
    }
    int codes[2] = { primaries, transfer };
    cic_colour_cache_resolve(input, SOURCE_CICP, (const uint8_t *)codes, sizeof codes, make_from_cicp, out);
}
