// ITU-T H.273's colour primaries and transfer characteristics: the one table of them. The CICP
// resolution (AVIF's and HEIC's nclx, colour_descriptions.c), PNG's default primaries and
// Imaging's named profiles (ColorProfile.swift) read it.
#include "colour_internal.h"

#include <string.h>

// White x, y, then red, green, blue x, y.
static const double bt709[8] = { 0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06 };
static const double bt470m[8] = { 0.310, 0.316, 0.67, 0.33, 0.21, 0.71, 0.14, 0.08 };
static const double bt470bg[8] = { 0.3127, 0.3290, 0.64, 0.33, 0.29, 0.60, 0.15, 0.06 };
static const double bt601[8] = { 0.3127, 0.3290, 0.630, 0.340, 0.310, 0.595, 0.155, 0.070 };
static const double film[8] = { 0.310, 0.316, 0.681, 0.319, 0.243, 0.692, 0.145, 0.049 };
static const double bt2020[8] = { 0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046 };
static const double dci_p3[8] = { 0.314, 0.351, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060 };
static const double display_p3[8] = { 0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060 };
static const double ebu3213[8] = { 0.3127, 0.3290, 0.630, 0.340, 0.295, 0.605, 0.155, 0.077 };

const double *cic_colour_h273_primaries(int code) {
    switch (code) {
    case CIC_H273_PRIMARIES_BT709: case 2: return bt709; // 2: unspecified, taken as BT.709 as browsers do
    case 4: return bt470m;
    case 5: return bt470bg;
    case 6: case 7: return bt601;
    case 8: return film;
    case 9: return bt2020;
    case 11: return dci_p3;
    case CIC_H273_PRIMARIES_DISPLAY_P3: return display_p3;
    case 22: return ebu3213;
    default: return NULL;
    }
}

// ICC parametric curves: type 1 is Y = X^g; type 4 is Y = (aX + b)^g from d up, cX below.
typedef struct { int type; double parameters[5]; } parametric_curve;

static const parametric_curve srgb_curve = { 4, { 2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045 } };
static const parametric_curve bt709_curve = { 4, { 1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081 } };
static const parametric_curve gamma_2_2 = { 1, { 2.2 } };
static const parametric_curve gamma_2_8 = { 1, { 2.8 } };
static const parametric_curve linear = { 1, { 1.0 } };

static const parametric_curve *transfer_curve(int code) {
    switch (code) {
    case 1: case 6: case 14: case 15: return &bt709_curve;
    case 4: return &gamma_2_2;
    case 5: return &gamma_2_8;
    case 8: return &linear;
    case 2: case CIC_H273_TRANSFER_SRGB: return &srgb_curve; // 2: unspecified, taken as sRGB
    default: return NULL;
    }
}

int cic_colour_h273_transfer(int code, double parameters[5]) {
    const parametric_curve *curve = transfer_curve(code);
    if (curve == NULL) return 0;
    memcpy(parameters, curve->parameters, sizeof curve->parameters);
    return curve->type;
}

cmsToneCurve *cic_colour_h273_tone_curve(int code) {
    const parametric_curve *curve = transfer_curve(code);
    return curve != NULL ? cmsBuildParametricToneCurve(NULL, curve->type, curve->parameters) : NULL;
}
