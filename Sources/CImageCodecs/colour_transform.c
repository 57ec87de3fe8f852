// Building and running colour transforms to sRGB.
//
// Little CMS converts 8-bit RGBA at about 15 ns a pixel, several times what decoding the pixel
// costs. Most embedded profiles (Display P3, Adobe RGB, ProPhoto, Apple RGB, and every profile
// built from PNG's cHRM/gAMA or AVIF's CICP codes) are matrix/TRC profiles, whose conversion is
// three curves, a 3×3 matrix and sRGB's inverse curve: the fast path does exactly that in fixed
// point, with each input curve and matrix column folded into one table of three packed sums.
// It is checked against Little CMS's own transform over a grid of colours when it is built, and
// Little CMS runs instead whenever the two differ by more than one step.
#include "colour_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void silent_error_handler(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context; (void)code; (void)text;
}

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static void install_handler(void) { cmsSetLogErrorHandler(silent_error_handler); }
void cic_colour_install_error_handler(void) { pthread_once(&handler_once, install_handler); }

// The colours every new transform is checked on: a 9×9×9 grid and the grey ramp.
#define GRID_STEPS 9
#define CHECK_COUNT (GRID_STEPS * GRID_STEPS * GRID_STEPS + 256)

static void fill_check_colours(uint8_t *rgba) {
    size_t n = 0;
    for (int r = 0; r < GRID_STEPS; r++)
        for (int g = 0; g < GRID_STEPS; g++)
            for (int b = 0; b < GRID_STEPS; b++, n++) {
                rgba[4 * n] = (uint8_t)(r * 255 / (GRID_STEPS - 1));
                rgba[4 * n + 1] = (uint8_t)(g * 255 / (GRID_STEPS - 1));
                rgba[4 * n + 2] = (uint8_t)(b * 255 / (GRID_STEPS - 1));
                rgba[4 * n + 3] = (uint8_t)n;
            }
    for (int v = 0; v < 256; v++, n++) {
        rgba[4 * n] = rgba[4 * n + 1] = rgba[4 * n + 2] = (uint8_t)v;
        rgba[4 * n + 3] = 255;
    }
}

static int largest_difference(const uint8_t *a, const uint8_t *b, size_t pixels) {
    int worst = 0;
    for (size_t i = 0; i < pixels * 4; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        if (d > worst) worst = d;
    }
    return worst;
}

static int invert_3x3(const double m[9], double out[9]) {
    double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
               + m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (fabs(det) < 1e-9) return 0;
    out[0] = (m[4] * m[8] - m[5] * m[7]) / det; out[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    out[2] = (m[1] * m[5] - m[2] * m[4]) / det; out[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    out[4] = (m[0] * m[8] - m[2] * m[6]) / det; out[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    out[6] = (m[3] * m[7] - m[4] * m[6]) / det; out[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    out[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    return 1;
}

// The colorant matrix (columns: red, green, blue XYZ, adapted to D50) of a matrix/TRC profile.
static int colorants(cmsHPROFILE profile, double m[9]) {
    static const cmsTagSignature tags[3] = { cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag };
    for (int c = 0; c < 3; c++) {
        const cmsCIEXYZ *xyz = cmsReadTag(profile, tags[c]);
        if (xyz == NULL) return 0;
        m[c] = xyz->X; m[3 + c] = xyz->Y; m[6 + c] = xyz->Z;
    }
    return 1;
}

// The sums of a row of products reach from the negative coefficients' total to the positive
// ones' (each linear value is within 0...1), plus a margin for rounding.
static void sum_range(const double matrix[9], int32_t *first, int32_t *last) {
    double low = 0, high = 0;
    for (int row = 0; row < 3; row++) {
        double negative = 0, positive = 0;
        for (int c = 0; c < 3; c++) {
            if (matrix[3 * row + c] < 0) negative += matrix[3 * row + c]; else positive += matrix[3 * row + c];
        }
        if (negative < low) low = negative;
        if (positive > high) high = positive;
    }
    *first = (int32_t)floor(low * CIC_LINEAR_ONE) - 4;
    *last = (int32_t)ceil(high * CIC_LINEAR_ONE) + 4;
}

// Fills the fast path's tables from a matrix/TRC profile. 0 when the profile does not fit it.
static int build_fast_matrix(cic_colour_transform *t, cmsHPROFILE source, cmsHPROFILE srgb) {
    static const cmsTagSignature curves[3] = { cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag };
    double from[9], to[9], to_inverse[9], matrix[9];
    if (!colorants(source, from) || !colorants(srgb, to) || !invert_3x3(to, to_inverse)) return 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            matrix[3 * r + c] = 0;
            for (int k = 0; k < 3; k++) matrix[3 * r + c] += to_inverse[3 * r + k] * from[3 * k + c];
            if (!isfinite(matrix[3 * r + c])) return 0; // a hostile profile's colorants
        }
    int32_t first, last;
    sum_range(matrix, &first, &last);
    // Each packed field holds a product within ±CIC_FIELD_BIAS, and three of them must not carry
    // into the next field.
    if (first < -CIC_FIELD_BIAS || last >= CIC_FIELD_BIAS) return 0;
    // The smallest and largest product each channel puts in each row's sum: the sums must stay
    // inside the output table, whatever the profile's curves do.
    long lowest[3][3], highest[3][3];
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *curve = cmsReadTag(source, curves[c]);
        if (curve == NULL) return 0;
        for (int row = 0; row < 3; row++) lowest[c][row] = highest[c][row] = 0;
        for (int v = 0; v < 256; v++) {
            double linear = cmsEvalToneCurveFloat(curve, (cmsFloat32Number)(v / 255.0));
            // A curve maps 0...1 to 0...1; a hostile profile's may not (or give NaN).
            linear = linear > 0 ? (linear < 1 ? linear : 1) : 0;
            uint64_t packed = 0;
            for (int row = 0; row < 3; row++) {
                long product = lround(matrix[3 * row + c] * linear * CIC_LINEAR_ONE);
                if (product < lowest[c][row]) lowest[c][row] = product;
                if (product > highest[c][row]) highest[c][row] = product;
                packed |= (uint64_t)(product + CIC_FIELD_BIAS) << (CIC_FIELD_BITS * row);
            }
            t->packed[c][v] = packed;
        }
    }
    for (int row = 0; row < 3; row++) {
        long low = lowest[0][row] + lowest[1][row] + lowest[2][row];
        long high = highest[0][row] + highest[1][row] + highest[2][row];
        if (low < first || high > last) return 0;
    }
    const cmsToneCurve *srgb_curve = cmsReadTag(srgb, cmsSigRedTRCTag);
    cmsToneCurve *inverse = srgb_curve != NULL ? cmsReverseToneCurve(srgb_curve) : NULL;
    if (inverse == NULL) return 0;
    uint8_t codes[CIC_LINEAR_ONE + 1];
    for (int i = 0; i <= CIC_LINEAR_ONE; i++) {
        double encoded = cmsEvalToneCurveFloat(inverse, (cmsFloat32Number)((double)i / CIC_LINEAR_ONE));
        long code = lround(encoded * 255.0);
        codes[i] = (uint8_t)(code < 0 ? 0 : code > 255 ? 255 : code);
    }
    cmsFreeToneCurve(inverse);
    t->encode_count = (uint32_t)(last - first + 1);
    t->encode_first = first;
    t->encode = malloc(t->encode_count);
    if (t->encode == NULL) return 0;
    for (uint32_t i = 0; i < t->encode_count; i++) {
        int32_t value = (int32_t)i + first;
        t->encode[i] = codes[value < 0 ? 0 : value > CIC_LINEAR_ONE ? CIC_LINEAR_ONE : value];
    }
    return 1;
}

// The sRGB code of one field of a sum: the field's value less the three biases and the table's
// first value indexes the table (in range: sum_range bounds every sum the tables can make).
static inline uint32_t encode_field(const uint8_t *encode, uint32_t origin, uint64_t sum, int field) {
    return encode[((uint32_t)(sum >> (CIC_FIELD_BITS * field)) & ((1u << CIC_FIELD_BITS) - 1)) - origin];
}

static void convert_fast_row(const cic_colour_transform *t, uint8_t *row, uint32_t width) {
    const uint64_t *restrict red = t->packed[0], *restrict green = t->packed[1], *restrict blue = t->packed[2];
    const uint8_t *restrict encode = t->encode;
    const uint32_t origin = (uint32_t)(3 * CIC_FIELD_BIAS + t->encode_first);
    for (uint32_t x = 0; x < width; x++) {
        uint32_t pixel;
        memcpy(&pixel, row + 4 * (size_t)x, 4);
        uint64_t sum = red[pixel & 255] + green[(pixel >> 8) & 255] + blue[(pixel >> 16) & 255];
        pixel = (pixel & 0xFF000000u) | encode_field(encode, origin, sum, 0) | encode_field(encode, origin, sum, 1) << 8
              | encode_field(encode, origin, sum, 2) << 16;
        memcpy(row + 4 * (size_t)x, &pixel, 4);
    }
}

void cic_colour_convert(const cic_colour_transform *t, uint8_t *pixels, size_t bytes_per_row, uint32_t width,
                        uint32_t rows) {
    for (uint32_t y = 0; y < rows; y++) {
        uint8_t *row = pixels + (size_t)y * bytes_per_row;
        switch (t->path) {
        case CIC_PATH_FAST_MATRIX:
            convert_fast_row(t, row, width);
            break;
        case CIC_PATH_GRAY_TABLE:
            for (uint32_t x = 0; x < width; x++) {
                uint8_t v = row[4 * x];
                row[4 * x] = t->gray[0][v]; row[4 * x + 1] = t->gray[1][v]; row[4 * x + 2] = t->gray[2][v];
            }
            break;
        case CIC_PATH_LCMS:
            // In place: both sides are 4 bytes a pixel, and each pixel is read before it is written.
            cmsDoTransform(t->lcms, row, row, width);
            if (t->input == CIC_COLOUR_INPUT_CMYK || t->input == CIC_COLOUR_INPUT_CMYK_INVERTED) {
                for (uint32_t x = 0; x < width; x++) row[4 * x + 3] = 255;
            }
            break;
        }
    }
}

void cic_colour_convert_16(const cic_colour_transform *t, const uint8_t *in, size_t in_bytes_per_row, uint8_t *out,
                           size_t out_bytes_per_row, uint32_t width, uint32_t rows) {
    if (t->path != CIC_PATH_LCMS || t->input != CIC_COLOUR_INPUT_RGBA16_BE) return;
    for (uint32_t y = 0; y < rows; y++) {
        cmsDoTransform(t->lcms, in + (size_t)y * in_bytes_per_row, out + (size_t)y * out_bytes_per_row, width);
    }
}

// Little CMS's transform for `input`, to sRGB RGBA8 (perceptual: equal to relative colorimetric
// for matrix/TRC profiles, the usual viewers' choice for LUT profiles).
static cmsHTRANSFORM lcms_transform(cmsHPROFILE source, cmsHPROFILE srgb, cic_colour_input input, int gray_source) {
    cmsUInt32Number format;
    // NOOPTIMIZE where Little CMS's precalculated 8-bit tables are off by several steps (grey ramps
    // near black, 16-bit input): those transforms run on 256 values once, or on rare files.
    cmsUInt32Number flags = cmsFLAGS_COPY_ALPHA;
    switch (input) {
    case CIC_COLOUR_INPUT_CMYK: format = TYPE_CMYK_8; flags = cmsFLAGS_HIGHRESPRECALC; break;
    case CIC_COLOUR_INPUT_CMYK_INVERTED: format = TYPE_CMYK_8_REV; flags = cmsFLAGS_HIGHRESPRECALC; break;
    case CIC_COLOUR_INPUT_RGBA16_BE: format = TYPE_RGBA_16_SE; flags |= cmsFLAGS_NOOPTIMIZE; break;
    default: format = gray_source ? TYPE_GRAY_8 : TYPE_RGBA_8; break;
    }
    if (gray_source) return cmsCreateTransform(source, TYPE_GRAY_8, srgb, TYPE_RGB_8, INTENT_PERCEPTUAL, cmsFLAGS_NOOPTIMIZE);
    return cmsCreateTransform(source, format, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL, flags);
}

cic_colour_transform *cic_colour_build(cmsHPROFILE profile, cic_colour_input input, const uint8_t *icc,
                                       size_t icc_length, int *is_srgb, char message[CIC_MESSAGE_CAPACITY]) {
    *is_srgb = 0;
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    int cmyk_input = input == CIC_COLOUR_INPUT_CMYK || input == CIC_COLOUR_INPUT_CMYK_INVERTED;
    int gray_source = space == cmsSigGrayData;
    if (cmyk_input ? space != cmsSigCmykData
                   : !(space == cmsSigRgbData || (gray_source && input == CIC_COLOUR_INPUT_GRAY))) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the colour profile describes %s data, but the image is %s",
                 space == cmsSigCmykData ? "CMYK" : space == cmsSigGrayData ? "grey" : space == cmsSigRgbData ? "RGB" : "other",
                 cmyk_input ? "CMYK" : input == CIC_COLOUR_INPUT_GRAY ? "grey" : "RGB");
        return NULL;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    if (srgb == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "Little CMS could not build sRGB"); return NULL; }
    cic_colour_transform *t = calloc(1, sizeof *t);
    if (t == NULL) { cmsCloseProfile(srgb); snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory"); return NULL; }
    atomic_init(&t->references, 1);
    t->input = input;
    t->is_rgb_source = space == cmsSigRgbData;
    t->lcms = lcms_transform(profile, srgb, input, gray_source);
    // The 8-bit RGBA transform that judges "is this sRGB" and checks the fast path.
    cmsHTRANSFORM check = NULL;
    if (t->lcms != NULL && !gray_source && !cmyk_input) {
        check = input == CIC_COLOUR_INPUT_RGBA16_BE
                  ? cmsCreateTransform(profile, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL, cmsFLAGS_COPY_ALPHA)
                  : t->lcms;
    }
    if (t->lcms == NULL || (!gray_source && !cmyk_input && check == NULL)) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "Little CMS could not build a transform from the colour profile");
        if (check != NULL && check != t->lcms) cmsDeleteTransform(check);
        cic_colour_transform_release(t);
        cmsCloseProfile(srgb);
        return NULL;
    }
    if (gray_source) {
        uint8_t ramp[256], rgb[256 * 3];
        for (int v = 0; v < 256; v++) ramp[v] = (uint8_t)v;
        cmsDoTransform(t->lcms, ramp, rgb, 256);
        int worst = 0;
        for (int v = 0; v < 256; v++)
            for (int c = 0; c < 3; c++) {
                t->gray[c][v] = rgb[3 * v + c];
                int d = abs((int)rgb[3 * v + c] - v);
                if (d > worst) worst = d;
            }
        t->path = CIC_PATH_GRAY_TABLE;
        *is_srgb = worst <= 1;
    } else if (!cmyk_input) {
        uint8_t colours[CHECK_COUNT * 4], expected[CHECK_COUNT * 4];
        fill_check_colours(colours);
        cmsDoTransform(check, colours, expected, CHECK_COUNT);
        *is_srgb = largest_difference(colours, expected, CHECK_COUNT) <= 1;
        t->path = CIC_PATH_LCMS;
        if (!*is_srgb && input != CIC_COLOUR_INPUT_RGBA16_BE && cmsIsMatrixShaper(profile)
            && build_fast_matrix(t, profile, srgb)) {
            uint8_t fast[CHECK_COUNT * 4];
            memcpy(fast, colours, sizeof fast);
            t->path = CIC_PATH_FAST_MATRIX;
            convert_fast_row(t, fast, CHECK_COUNT);
            if (largest_difference(fast, expected, CHECK_COUNT) > 1) t->path = CIC_PATH_LCMS;
        }
    } else {
        t->path = CIC_PATH_LCMS;
    }
    if (check != NULL && check != t->lcms) cmsDeleteTransform(check);
    cmsCloseProfile(srgb);
    if (t->path != CIC_PATH_LCMS) {
        cmsDeleteTransform(t->lcms);
        t->lcms = NULL;
    }
    if (*is_srgb) {
        cic_colour_transform_release(t);
        return NULL;
    }
    t->icc = malloc(icc_length > 0 ? icc_length : 1);
    if (t->icc == NULL) {
        cic_colour_transform_release(t);
        snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    memcpy(t->icc, icc, icc_length);
    t->icc_length = icc_length;
    return t;
}

void cic_colour_transform_retain(cic_colour_transform *t) {
    if (t != NULL) atomic_fetch_add_explicit(&t->references, 1, memory_order_relaxed);
}

void cic_colour_transform_release(cic_colour_transform *t) {
    if (t == NULL) return;
    if (atomic_fetch_sub_explicit(&t->references, 1, memory_order_acq_rel) != 1) return;
    if (t->lcms != NULL) cmsDeleteTransform(t->lcms);
    free(t->encode);
    free(t->icc);
    free(t);
}

int cic_colour_transform_is_rgb(const cic_colour_transform *t) { return t->is_rgb_source; }

const uint8_t *cic_colour_transform_icc(const cic_colour_transform *t, size_t *length) {
    *length = t->icc_length;
    return t->icc;
}
