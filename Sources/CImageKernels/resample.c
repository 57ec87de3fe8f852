#include "cik_resample.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Vertical pass for one output row: row[i] = (sum over taps of source_k[i] * w_k + 32) >> 6,
// for the `bytes` bytes of the source rows (at most 255 << 8, so it fits 16 bits).
static void vertical_pass(const uint8_t *first_row, size_t stride, intptr_t taps, const int32_t *w,
                          size_t bytes, uint16_t *row) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i rounding = _mm_set1_epi32(32);
    const __m128i bias32 = _mm_set1_epi32(32768);
    const __m128i bias16 = _mm_set1_epi16((short)0x8000);
    for (; i + 16 <= bytes; i += 16) {
        __m128i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
        intptr_t k = 0;
        // Two taps at a time: interleave the two rows' samples as 16-bit pairs and let
        // pmaddwd multiply each pair by (w_k, w_k+1) and add them, exactly, into 32 bits.
        for (; k < taps; k += 2) {
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
        acc0 = _mm_srai_epi32(_mm_add_epi32(acc0, rounding), 6);
        acc1 = _mm_srai_epi32(_mm_add_epi32(acc1, rounding), 6);
        acc2 = _mm_srai_epi32(_mm_add_epi32(acc2, rounding), 6);
        acc3 = _mm_srai_epi32(_mm_add_epi32(acc3, rounding), 6);
        // SSE2 packs 32 → 16 bits signed only: shift into the signed range and back.
        __m128i low = _mm_packs_epi32(_mm_sub_epi32(acc0, bias32), _mm_sub_epi32(acc1, bias32));
        __m128i high = _mm_packs_epi32(_mm_sub_epi32(acc2, bias32), _mm_sub_epi32(acc3, bias32));
        _mm_storeu_si128((__m128i *)(row + i), _mm_xor_si128(low, bias16));
        _mm_storeu_si128((__m128i *)(row + i + 8), _mm_xor_si128(high, bias16));
    }
#endif
    for (; i < bytes; i++) {
        int32_t sum = 0;
        for (intptr_t k = 0; k < taps; k++) sum += (int32_t)first_row[(size_t)k * stride + i] * w[k];
        row[i] = (uint16_t)((sum + 32) >> 6);
    }
}

static inline uint8_t clamp_byte(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

// Horizontal pass: each output pixel is (1 << 21 + sum over its taps of row pixel * w) >> 22,
// per channel.
static void horizontal_pass(const uint16_t *row, cik_axis_taps x, uint32_t output_width, uint8_t *out) {
    for (uint32_t ox = 0; ox < output_width; ox++) {
        const uint16_t *p = row + x.starts[ox] * 4;
        const int32_t *w = x.weights + (size_t)ox * (size_t)x.max_taps;
        const intptr_t count = x.counts[ox];
        intptr_t t = 0;
#if defined(__SSE2__)
        // Two pixels (8 channels) a step; the products of 16-bit unsigned values, exact in
        // 32 bits, from their low and high halves.
        __m128i acc = _mm_set1_epi32(1 << 21);
        for (; t + 1 < count; t += 2) {
            const __m128i pixels = _mm_loadu_si128((const __m128i *)(p + t * 4));
            const __m128i weights = _mm_set_epi16((short)w[t + 1], (short)w[t + 1], (short)w[t + 1], (short)w[t + 1],
                                                  (short)w[t], (short)w[t], (short)w[t], (short)w[t]);
            const __m128i low = _mm_mullo_epi16(pixels, weights), high = _mm_mulhi_epu16(pixels, weights);
            acc = _mm_add_epi32(acc, _mm_unpacklo_epi16(low, high));
            acc = _mm_add_epi32(acc, _mm_unpackhi_epi16(low, high));
        }
        if (t < count) {
            const __m128i pixel = _mm_loadl_epi64((const __m128i *)(p + t * 4));
            const __m128i weight = _mm_set1_epi16((short)w[t]);
            acc = _mm_add_epi32(acc, _mm_unpacklo_epi16(_mm_mullo_epi16(pixel, weight), _mm_mulhi_epu16(pixel, weight)));
        }
        const __m128i shifted = _mm_srai_epi32(acc, 22);
        const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(shifted, shifted), _mm_setzero_si128());
        const int32_t packed = _mm_cvtsi128_si32(bytes);
        memcpy(out + (size_t)ox * 4, &packed, 4);
#else
        int32_t r = 1 << 21, g = 1 << 21, b = 1 << 21, a = 1 << 21;
        for (; t < count; t++) {
            const uint16_t *q = p + t * 4;
            r += (int32_t)q[0] * w[t];
            g += (int32_t)q[1] * w[t];
            b += (int32_t)q[2] * w[t];
            a += (int32_t)q[3] * w[t];
        }
        out[(size_t)ox * 4] = clamp_byte(r >> 22);
        out[(size_t)ox * 4 + 1] = clamp_byte(g >> 22);
        out[(size_t)ox * 4 + 2] = clamp_byte(b >> 22);
        out[(size_t)ox * 4 + 3] = clamp_byte(a >> 22);
#endif
    }
}

int cik_resample_rgba8(const uint8_t *source, size_t source_bytes_per_row, uint32_t source_width,
                       cik_axis_taps x, cik_axis_taps y,
                       uint8_t *output, size_t output_bytes_per_row, uint32_t output_width, uint32_t output_height) {
    const size_t bytes = (size_t)source_width * 4;
    uint16_t *row = malloc(bytes * sizeof(uint16_t) + 16);
    if (row == NULL) return -1;
    for (uint32_t oy = 0; oy < output_height; oy++) {
        const uint8_t *first = source + (size_t)y.starts[oy] * source_bytes_per_row;
        vertical_pass(first, source_bytes_per_row, y.counts[oy], y.weights + (size_t)oy * (size_t)y.max_taps, bytes, row);
        horizontal_pass(row, x, output_width, output + (size_t)oy * output_bytes_per_row);
    }
    free(row);
    return 0;
}
