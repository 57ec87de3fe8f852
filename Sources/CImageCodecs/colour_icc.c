// Profiles made and written as ICC bytes: the matrix/TRC profiles a PNG's gAMA/cHRM or a CICP
// description stands for (what keep-the-numbers mode embeds), and the ones Imaging builds
// (sRGB, Display P3, the tests' odd ones).
#include "colour_internal.h"

#include <stdlib.h>

cmsHPROFILE cic_colour_make_rgb_profile(const double xy[8], cmsToneCurve *curve, const char *name) {
    if (curve == NULL) return NULL;
    cmsCIExyY white = { xy[0], xy[1], 1.0 };
    cmsCIExyYTRIPLE primaries = { { xy[2], xy[3], 1.0 }, { xy[4], xy[5], 1.0 }, { xy[6], xy[7], 1.0 } };
    cmsToneCurve *curves[3] = { curve, curve, curve };
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    if (profile == NULL) return NULL;
    cmsMLU *description = cmsMLUalloc(NULL, 1);
    if (description != NULL) {
        cmsMLUsetASCII(description, "en", "US", name);
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
        cmsMLUfree(description);
    }
    return profile;
}

uint8_t *cic_colour_save_profile(cmsHPROFILE profile, size_t *length) {
    cmsUInt32Number size = 0;
    if (profile == NULL || !cmsSaveProfileToMem(profile, NULL, &size) || size == 0) return NULL;
    uint8_t *bytes = malloc(size);
    if (bytes == NULL) return NULL;
    if (!cmsSaveProfileToMem(profile, bytes, &size)) {
        free(bytes);
        return NULL;
    }
    *length = size;
    return bytes;
}

// Appends `profile`'s ICC bytes to `out` and closes it.
static cic_status export(cmsHPROFILE profile, cic_buffer *out) {
    size_t length = 0;
    uint8_t *bytes = cic_colour_save_profile(profile, &length);
    cic_status status = bytes != NULL && cic_buffer_append(out, bytes, length) ? CIC_OK : CIC_ERROR;
    free(bytes);
    if (profile != NULL) cmsCloseProfile(profile);
    return status;
}

cic_status cic_colour_srgb_icc(cic_buffer *out) {
    cic_colour_install_error_handler();
    return export(cmsCreate_sRGBProfile(), out);
}

cic_status cic_colour_build_rgb_icc(const double chromaticities[8], const double curve[5], const char *name,
                                    cic_buffer *out) {
    cic_colour_install_error_handler();
    cmsFloat64Number parameters[5] = { curve[0], curve[1], curve[2], curve[3], curve[4] };
    cmsToneCurve *tone = cmsBuildParametricToneCurve(NULL, 4, parameters);
    cmsHPROFILE profile = cic_colour_make_rgb_profile(chromaticities, tone, name);
    if (tone != NULL) cmsFreeToneCurve(tone);
    if (profile == NULL) return CIC_ERROR;
    return export(profile, out);
}
