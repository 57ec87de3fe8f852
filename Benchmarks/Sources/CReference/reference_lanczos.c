#include "CReference.h"
#include <math.h>
#include <stdlib.h>

// The plain loop Comet's Lanczos3 resize is compared with: the same filter (taps of
// sinc(x)·sinc(x/3) stretched by the reduction, convolved with (−a, 1 + 2a, −a) after a reduced
// decode, taps beyond the edge dropped, 14-bit weights summing to 1 << 14), written as the obvious
// scalar C, horizontal pass first into a 16-bit buffer.
typedef struct { uint32_t first; uint32_t count; int32_t *weights; } ref_taps;

static double lanczos3(double x) {
    if (x == 0) return 1;
    if (fabs(x) >= 3) return 0;
    const double a = M_PI * x;
    return 3 * sin(a) * sin(a / 3) / (a * a);
}

// Taps of `count` outputs over [origin, origin + extent) of a `length`-pixel axis, each first
// index and weights; taps outside the axis are dropped and the rest renormalised.
static ref_taps *axis_taps(uint32_t length, double origin, double extent, uint32_t count, double a, int32_t *storage,
                           uint32_t capacity) {
    ref_taps *taps = malloc(sizeof(ref_taps) * count);
    const double step = extent / count, scale = step > 1 ? step : 1, radius = 3 * scale + (a > 0 ? 1 : 0);
    double *raw = malloc(sizeof(double) * capacity);
    for (uint32_t o = 0; o < count; o++) {
        const double centre = origin + (o + 0.5) * step - 0.5;
        const long lo = (long)ceil(centre - radius), hi = (long)floor(centre + radius);
        const long first = lo < 0 ? 0 : lo, last = hi > (long)length - 1 ? (long)length - 1 : hi;
        uint32_t n = (uint32_t)(last - first + 1);
        for (uint32_t i = 0; i < n; i++) raw[i] = 0;
        double total = 0;
        for (long j = first; j <= last; j++) {
            const double w = (1 + 2 * a) * lanczos3((j - centre) / scale) -
                             a * (lanczos3((j - 1 - centre) / scale) + lanczos3((j + 1 - centre) / scale));
            raw[j - first] = w;
            total += w;
        }
        int32_t *weights = storage + (size_t)o * capacity;
        int32_t sum = 0;
        uint32_t largest = 0;
        for (uint32_t i = 0; i < n; i++) {
            weights[i] = (int32_t)lround(raw[i] / total * 16384);
            sum += weights[i];
            if (weights[i] > weights[largest]) largest = i;
        }
        weights[largest] += 16384 - sum;
        taps[o] = (ref_taps){(uint32_t)first, n, weights};
    }
    free(raw);
    return taps;
}

static inline uint8_t clamp_byte(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

void ref_lanczos_resample(const uint8_t *source, size_t source_stride, uint32_t width, uint32_t height, double x0,
                          double y0, double source_width, double source_height, uint32_t out_width, uint32_t out_height,
                          double sharpening, uint8_t *destination) {
    const double sx = source_width / out_width > 1 ? source_width / out_width : 1;
    const double sy = source_height / out_height > 1 ? source_height / out_height : 1;
    const uint32_t cx = (uint32_t)(6 * sx) + 4, cy = (uint32_t)(6 * sy) + 4;
    int32_t *wx = malloc(sizeof(int32_t) * cx * out_width), *wy = malloc(sizeof(int32_t) * cy * out_height);
    ref_taps *columns = axis_taps(width, x0, source_width, out_width, sharpening, wx, cx);
    ref_taps *rows = axis_taps(height, y0, source_height, out_height, sharpening, wy, cy);
    // Only the source rows some output row reads go through the horizontal pass.
    const uint32_t top = rows[0].first, bottom = rows[out_height - 1].first + rows[out_height - 1].count;
    int16_t *horizontal = malloc(sizeof(int16_t) * (size_t)out_width * 4 * (bottom - top));
    for (uint32_t y = top; y < bottom; y++) {
        const uint8_t *row = source + (size_t)y * source_stride;
        int16_t *out = horizontal + (size_t)(y - top) * out_width * 4;
        for (uint32_t x = 0; x < out_width; x++) {
            int32_t sum[4] = {128, 128, 128, 128};
            const uint8_t *p = row + (size_t)columns[x].first * 4;
            for (uint32_t i = 0; i < columns[x].count; i++)
                for (int c = 0; c < 4; c++) sum[c] += p[i * 4 + c] * columns[x].weights[i];
            for (int c = 0; c < 4; c++) out[x * 4 + c] = (int16_t)(sum[c] >> 8);
        }
    }
    for (uint32_t y = 0; y < out_height; y++) {
        uint8_t *out = destination + (size_t)y * out_width * 4;
        for (size_t i = 0; i < (size_t)out_width * 4; i++) {
            int32_t sum = 1 << 19;
            for (uint32_t k = 0; k < rows[y].count; k++)
                sum += horizontal[(size_t)(rows[y].first - top + k) * out_width * 4 + i] * rows[y].weights[k];
            out[i] = clamp_byte(sum >> 20);
        }
    }
    free(horizontal); free(columns); free(rows); free(wx); free(wy);
}
