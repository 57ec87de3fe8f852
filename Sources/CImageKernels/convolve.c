#include "cik_resample.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The row between the passes keeps 6 fractional bits: 255 << 6 plus a Lanczos kernel's
// overshoot (its taps' absolute values sum to under 1.3) stays well inside 16 signed bits.
enum { row_shift = 14 - 6, output_shift = 14 + 6 };

// Vertical pass for one output row: row[i] = (sum over taps of source_k[i] * w_k + 128) >> 8.
static void vertical_pass(const uint8_t *first_row, size_t stride, intptr_t taps, const int32_t *w,
                          size_t bytes, int16_t *row) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i rounding = _mm_set1_epi32(1 << (row_shift - 1));
    for (; i + 16 <= bytes; i += 16) {
        __m128i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
        // Two taps at a time: the two rows' samples interleaved as 16-bit pairs, which pmaddwd
        // multiplies by the signed pair (w_k, w_k+1) and adds, exactly, into 32 bits.
        for (intptr_t k = 0; k < taps; k += 2) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(first_row + (size_t)k * stride + i));
            const __m128i b = k + 1 < taps ? _mm_loadu_si128((const __m128i *)(first_row + (size_t)(k + 1) * stride + i)) : zero;
            const int32_t w1 = k + 1 < taps ? w[k + 1] : 0;
            const __m128i pair = _mm_set1_epi32((int32_t)((uint32_t)w1 << 16 | ((uint32_t)w[k] & 0xffff)));
            const __m128i alo = _mm_unpacklo_epi8(a, zero), ahi = _mm_unpackhi_epi8(a, zero);
            const __m128i blo = _mm_unpacklo_epi8(b, zero), bhi = _mm_unpackhi_epi8(b, zero);
            acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(alo, blo), pair));
            acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(alo, blo), pair));
            acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(ahi, bhi), pair));
            acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(ahi, bhi), pair));
        }
        acc0 = _mm_srai_epi32(_mm_add_epi32(acc0, rounding), row_shift);
        acc1 = _mm_srai_epi32(_mm_add_epi32(acc1, rounding), row_shift);
        acc2 = _mm_srai_epi32(_mm_add_epi32(acc2, rounding), row_shift);
        acc3 = _mm_srai_epi32(_mm_add_epi32(acc3, rounding), row_shift);
        _mm_storeu_si128((__m128i *)(row + i), _mm_packs_epi32(acc0, acc1));
        _mm_storeu_si128((__m128i *)(row + i + 8), _mm_packs_epi32(acc2, acc3));
    }
#endif
    for (; i < bytes; i++) {
        int32_t sum = 1 << (row_shift - 1);
        for (intptr_t k = 0; k < taps; k++) sum += (int32_t)first_row[(size_t)k * stride + i] * w[k];
        row[i] = (int16_t)(sum >> row_shift);
    }
}

static inline uint8_t clamp_byte(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

// Horizontal pass: each output channel is (1 << 19 + sum over its taps of row value * w) >> 20,
// clamped to 0...255 (and to the pixel's alpha when premultiplied).
static void horizontal_pass(const int16_t *row, cik_axis_taps x, uint32_t output_width, int premultiplied,
                            uint8_t *out) {
    for (uint32_t ox = 0; ox < output_width; ox++) {
        const int16_t *p = row + x.starts[ox] * 4;
        const int32_t *w = x.weights + (size_t)ox * (size_t)x.max_taps;
        const intptr_t count = x.counts[ox];
        uint8_t pixel[4];
#if defined(__SSE2__)
        // Two pixels a step: (r0 g0 b0 a0 r1 g1 b1 a1) rearranged as (r0 r1 g0 g1 b0 b1 a0 a1),
        // so that pmaddwd gives each channel's two products, added, in one 32-bit lane.
        __m128i acc = _mm_set1_epi32(1 << (output_shift - 1));
        intptr_t t = 0;
        for (; t + 1 < count; t += 2) {
            const __m128i two = _mm_loadu_si128((const __m128i *)(p + t * 4));
            const __m128i pairs = _mm_unpacklo_epi16(two, _mm_srli_si128(two, 8));
            const __m128i weights = _mm_set1_epi32((int32_t)((uint32_t)w[t + 1] << 16 | ((uint32_t)w[t] & 0xffff)));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(pairs, weights));
        }
        if (t < count) {
            const __m128i one = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(p + t * 4)), _mm_setzero_si128());
            acc = _mm_add_epi32(acc, _mm_madd_epi16(one, _mm_set1_epi32((int32_t)((uint32_t)w[t] & 0xffff))));
        }
        const __m128i shifted = _mm_srai_epi32(acc, output_shift);
        const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(shifted, shifted), _mm_setzero_si128());
        const int32_t packed = _mm_cvtsi128_si32(bytes);
        memcpy(pixel, &packed, 4);
#else
        int32_t sum[4] = {1 << (output_shift - 1), 1 << (output_shift - 1), 1 << (output_shift - 1),
                          1 << (output_shift - 1)};
        for (intptr_t t = 0; t < count; t++) {
            for (int c = 0; c < 4; c++) sum[c] += (int32_t)p[t * 4 + c] * w[t];
        }
        for (int c = 0; c < 4; c++) pixel[c] = clamp_byte(sum[c] >> output_shift);
#endif
        if (premultiplied) {
            for (int c = 0; c < 3; c++) {
                if (pixel[c] > pixel[3]) pixel[c] = pixel[3];
            }
        }
        memcpy(out + (size_t)ox * 4, pixel, 4);
    }
}

int cik_convolve_rgba8(const uint8_t *source, size_t source_bytes_per_row, uint32_t source_width,
                       cik_axis_taps x, cik_axis_taps y, int premultiplied,
                       uint8_t *output, size_t output_bytes_per_row, uint32_t output_width, uint32_t output_height) {
    const size_t bytes = (size_t)source_width * 4;
    int16_t *row = malloc(bytes * sizeof(int16_t) + 16);
    if (row == NULL) return -1;
    for (uint32_t oy = 0; oy < output_height; oy++) {
        const uint8_t *first = source + (size_t)y.starts[oy] * source_bytes_per_row;
        vertical_pass(first, source_bytes_per_row, y.counts[oy], y.weights + (size_t)oy * (size_t)y.max_taps, bytes, row);
        horizontal_pass(row, x, output_width, premultiplied, output + (size_t)oy * output_bytes_per_row);
    }
    free(row);
    return 0;
}
