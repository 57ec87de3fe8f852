#include "cik_resample.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>
// AVX2 functions are compiled for that target alone and called only when the CPU has it.
#define CIK_AVX2 1
#define AVX2_FUNCTION __attribute__((target("avx2")))
#endif

// The row between the passes keeps 6 fractional bits: 255 << 6 plus a Lanczos kernel's
// overshoot (its taps' absolute values sum to under 1.3) stays well inside 16 signed bits.
enum { row_shift = 14 - 6, output_shift = 14 + 6 };

// Pixels read past a row's end by the horizontal pass's last step of four taps (their weights are 0).
enum { row_padding_pixels = 4 };

// Two signed 16-bit weights in one 32-bit word, the first in the low half: the operand pmaddwd
// multiplies an interleaved pair of samples by.
static inline int32_t weight_pair(int32_t first, int32_t second) {
    return (int32_t)((uint32_t)second << 16 | ((uint32_t)first & 0xffff));
}

// Each output sample's weights as pairs, `stride` pairs apart, padded with zero weights to a
// whole number of `stride` (an even number, so the AVX2 steps of four taps never need a tail).
static int32_t *pair_table(cik_axis_taps axis, uint32_t length, intptr_t *stride) {
    *stride = ((axis.max_taps + 3) / 4) * 2;
    int32_t *pairs = calloc((size_t)length * (size_t)*stride, sizeof(int32_t));
    if (pairs == NULL) return NULL;
    for (uint32_t i = 0; i < length; i++) {
        const int32_t *w = axis.weights + (size_t)i * (size_t)axis.max_taps;
        const intptr_t count = axis.counts[i];
        for (intptr_t t = 0; t < count; t += 2) {
            pairs[(size_t)i * (size_t)*stride + (size_t)(t / 2)] = weight_pair(w[t], t + 1 < count ? w[t + 1] : 0);
        }
    }
    return pairs;
}

// MARK: Vertical pass: row[i] = (sum over taps of source_k[i] * w_k + 128) >> 8

static void vertical_pass_portable(const uint8_t *first_row, size_t stride, intptr_t taps, const int32_t *w,
                                   size_t from, size_t bytes, int16_t *row) {
    for (size_t i = from; i < bytes; i++) {
        int32_t sum = 1 << (row_shift - 1);
        for (intptr_t k = 0; k < taps; k++) sum += (int32_t)first_row[(size_t)k * stride + i] * w[k];
        row[i] = (int16_t)(sum >> row_shift);
    }
}

#if defined(__SSE2__)
// 16 bytes a step, two taps at a time: the two rows' samples interleaved as 16-bit pairs, which
// pmaddwd multiplies by the signed pair (w_k, w_k+1) and adds, exactly, into 32 bits.
static size_t vertical_pass_sse2(const uint8_t *first_row, size_t stride, intptr_t taps, const int32_t *pairs,
                                 size_t bytes, int16_t *row) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i rounding = _mm_set1_epi32(1 << (row_shift - 1));
    size_t i = 0;
    for (; i + 16 <= bytes; i += 16) {
        __m128i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
        for (intptr_t k = 0; k < taps; k += 2) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(first_row + (size_t)k * stride + i));
            const __m128i b = k + 1 < taps ? _mm_loadu_si128((const __m128i *)(first_row + (size_t)(k + 1) * stride + i)) : zero;
            const __m128i pair = _mm_set1_epi32(pairs[k / 2]);
            const __m128i lo = _mm_unpacklo_epi8(a, b), hi = _mm_unpackhi_epi8(a, b);
            acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero), pair));
            acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero), pair));
            acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero), pair));
            acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero), pair));
        }
        acc0 = _mm_srai_epi32(_mm_add_epi32(acc0, rounding), row_shift);
        acc1 = _mm_srai_epi32(_mm_add_epi32(acc1, rounding), row_shift);
        acc2 = _mm_srai_epi32(_mm_add_epi32(acc2, rounding), row_shift);
        acc3 = _mm_srai_epi32(_mm_add_epi32(acc3, rounding), row_shift);
        _mm_storeu_si128((__m128i *)(row + i), _mm_packs_epi32(acc0, acc1));
        _mm_storeu_si128((__m128i *)(row + i + 8), _mm_packs_epi32(acc2, acc3));
    }
    return i;
}
#endif

#if defined(CIK_AVX2)
// The SSE2 step on 32 bytes, one pair of source rows at a time into 32-bit sums in `sums`, so that
// only two rows are read at once: reading every tap's row for each 32 bytes, as the SSE2 step
// does, thrashes the L1 cache when the rows are a power of two apart (all in one cache set:
// 768² → 256² from rows of 4096 bytes took 1.9 ms instead of 0.65). AVX2's unpacks and packs work
// within each 128-bit half, so each 32 bytes' sums hold bytes {0-3 | 16-19}, {4-7 | 20-23},
// {8-11 | 24-27}, {12-15 | 28-31}; the packed halves are put back in order by a cross-lane permute.
AVX2_FUNCTION
static size_t vertical_pass_avx2(const uint8_t *first_row, size_t stride, intptr_t taps, const int32_t *pairs,
                                 size_t bytes, int16_t *row, int32_t *sums) {
    const size_t whole = bytes & ~(size_t)31;
    const __m256i zero = _mm256_setzero_si256();
    const __m256i rounding = _mm256_set1_epi32(1 << (row_shift - 1));
    for (intptr_t k = 0; k < taps; k += 2) {
        const uint8_t *a_row = first_row + (size_t)k * stride;
        const uint8_t *b_row = k + 1 < taps ? a_row + stride : NULL;
        const __m256i pair = _mm256_set1_epi32(pairs[k / 2]);
        for (size_t i = 0; i < whole; i += 32) {
            const __m256i a = _mm256_loadu_si256((const __m256i *)(a_row + i));
            const __m256i b = b_row ? _mm256_loadu_si256((const __m256i *)(b_row + i)) : zero;
            const __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
            __m256i *sum = (__m256i *)(sums + i);
            const __m256i start0 = k == 0 ? rounding : _mm256_loadu_si256(sum);
            const __m256i start1 = k == 0 ? rounding : _mm256_loadu_si256(sum + 1);
            const __m256i start2 = k == 0 ? rounding : _mm256_loadu_si256(sum + 2);
            const __m256i start3 = k == 0 ? rounding : _mm256_loadu_si256(sum + 3);
            _mm256_storeu_si256(sum, _mm256_add_epi32(start0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), pair)));
            _mm256_storeu_si256(sum + 1, _mm256_add_epi32(start1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), pair)));
            _mm256_storeu_si256(sum + 2, _mm256_add_epi32(start2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), pair)));
            _mm256_storeu_si256(sum + 3, _mm256_add_epi32(start3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), pair)));
        }
    }
    for (size_t i = 0; i < whole; i += 32) {
        const __m256i *sum = (const __m256i *)(sums + i);
        const __m256i acc0 = _mm256_srai_epi32(_mm256_loadu_si256(sum), row_shift);
        const __m256i acc1 = _mm256_srai_epi32(_mm256_loadu_si256(sum + 1), row_shift);
        const __m256i acc2 = _mm256_srai_epi32(_mm256_loadu_si256(sum + 2), row_shift);
        const __m256i acc3 = _mm256_srai_epi32(_mm256_loadu_si256(sum + 3), row_shift);
        const __m256i first = _mm256_packs_epi32(acc0, acc1), second = _mm256_packs_epi32(acc2, acc3);
        _mm256_storeu_si256((__m256i *)(row + i), _mm256_permute2x128_si256(first, second, 0x20));
        _mm256_storeu_si256((__m256i *)(row + i + 16), _mm256_permute2x128_si256(first, second, 0x31));
    }
    return whole;
}
#endif

// MARK: Horizontal pass: each output channel is (1 << 19 + sum over its taps of row value * w) >> 20,
// clamped to 0...255 (and to the pixel's alpha when premultiplied)

static inline uint8_t clamp_byte(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

static inline void store_pixel(uint8_t pixel[4], int premultiplied, uint8_t *out) {
    if (premultiplied) {
        for (int c = 0; c < 3; c++) {
            if (pixel[c] > pixel[3]) pixel[c] = pixel[3];
        }
    }
    memcpy(out, pixel, 4);
}

static void horizontal_pass_portable(const int16_t *row, cik_axis_taps x, uint32_t output_width, int premultiplied,
                                     uint8_t *out) {
    for (uint32_t ox = 0; ox < output_width; ox++) {
        const int16_t *p = row + x.starts[ox] * 4;
        const int32_t *w = x.weights + (size_t)ox * (size_t)x.max_taps;
        int32_t sum[4] = {1 << (output_shift - 1), 1 << (output_shift - 1), 1 << (output_shift - 1),
                          1 << (output_shift - 1)};
        for (intptr_t t = 0; t < x.counts[ox]; t++) {
            for (int c = 0; c < 4; c++) sum[c] += (int32_t)p[t * 4 + c] * w[t];
        }
        uint8_t pixel[4];
        for (int c = 0; c < 4; c++) pixel[c] = clamp_byte(sum[c] >> output_shift);
        store_pixel(pixel, premultiplied, out + (size_t)ox * 4);
    }
}

#if defined(__SSE2__)
// One output pixel from its four rounded 32-bit channel sums: shifted down, saturated to bytes,
// then stored as store_pixel does.
static inline void store_sums(__m128i sums, int premultiplied, uint8_t *out) {
    const __m128i shifted = _mm_srai_epi32(sums, output_shift);
    const int32_t packed = _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(shifted, shifted), shifted));
    uint8_t pixel[4];
    memcpy(pixel, &packed, 4);
    store_pixel(pixel, premultiplied, out);
}
#endif

#if defined(__SSE2__)
// Two pixels a step: (r0 g0 b0 a0 r1 g1 b1 a1) rearranged as (r0 r1 g0 g1 b0 b1 a0 a1), so that
// pmaddwd gives each channel's two products, added, in one 32-bit lane. An odd tap count's last
// step reads one pixel more, whose weight is 0.
static void horizontal_pass_sse2(const int16_t *row, cik_axis_taps x, const int32_t *pairs, intptr_t pair_stride,
                                 uint32_t output_width, int premultiplied, uint8_t *out) {
    for (uint32_t ox = 0; ox < output_width; ox++) {
        const int16_t *p = row + x.starts[ox] * 4;
        const int32_t *w = pairs + (size_t)ox * (size_t)pair_stride;
        const intptr_t steps = (x.counts[ox] + 1) / 2;
        __m128i acc = _mm_set1_epi32(1 << (output_shift - 1));
        for (intptr_t s = 0; s < steps; s++) {
            const __m128i two = _mm_loadu_si128((const __m128i *)(p + s * 8));
            const __m128i channels = _mm_unpacklo_epi16(two, _mm_srli_si128(two, 8));
            acc = _mm_add_epi32(acc, _mm_madd_epi16(channels, _mm_set1_epi32(w[s])));
        }
        store_sums(acc, premultiplied, out + (size_t)ox * 4);
    }
}
#endif

#if defined(CIK_AVX2)
// Four pixels a step, two in each 128-bit half rearranged as in the SSE2 step; the low half
// takes the first weight pair, the high half the second, and the halves are added at the end.
AVX2_FUNCTION
static void horizontal_pass_avx2(const int16_t *row, cik_axis_taps x, const int32_t *pairs, intptr_t pair_stride,
                                 uint32_t output_width, int premultiplied, uint8_t *out) {
    const __m256i channels = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                              0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    const __m256i halves = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    for (uint32_t ox = 0; ox < output_width; ox++) {
        const int16_t *p = row + x.starts[ox] * 4;
        const int32_t *w = pairs + (size_t)ox * (size_t)pair_stride;
        const intptr_t steps = (x.counts[ox] + 3) / 4;
        __m256i acc = _mm256_setzero_si256();
        for (intptr_t s = 0; s < steps; s++) {
            const __m256i four = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(p + s * 16)), channels);
            const __m256i weights =
                _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(w + 2 * s))), halves);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(four, weights));
        }
        __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        sum = _mm_add_epi32(sum, _mm_set1_epi32(1 << (output_shift - 1)));
        store_sums(sum, premultiplied, out + (size_t)ox * 4);
    }
}
#endif

// MARK: Entry point

#if defined(CIK_AVX2)
// AVX2 in the CPU (CPUID leaf 7, EBX bit 5) and its 256-bit registers saved by the OS (OSXSAVE,
// then XCR0's SSE and AVX state bits).
static int cpu_has_avx2(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27)) || !(ecx & (1u << 28))) return 0;
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (1u << 5)) != 0;
}
#endif

static cik_simd available_simd(void) {
#if defined(CIK_AVX2)
    static int avx2 = -1;  // a benign race: every thread computes the same value
    if (avx2 < 0) avx2 = cpu_has_avx2();
    if (avx2) return CIK_SIMD_AVX2;
#endif
#if defined(__SSE2__)
    return CIK_SIMD_SSE2;
#else
    return CIK_SIMD_NONE;
#endif
}

int cik_convolve_rgba8(const uint8_t *source, size_t source_bytes_per_row, uint32_t source_width,
                       cik_axis_taps x, cik_axis_taps y, int premultiplied,
                       uint8_t *output, size_t output_bytes_per_row, uint32_t output_width, uint32_t output_height,
                       cik_simd simd) {
    const cik_simd available = available_simd();
    if (simd > available) simd = available;
    const size_t bytes = (size_t)source_width * 4;
    // The tail past the row's end stays zero: the SIMD horizontal steps read it with weight 0.
    int16_t *row = calloc(bytes + row_padding_pixels * 4, sizeof(int16_t));
    int32_t *sums = simd == CIK_SIMD_AVX2 ? malloc(bytes * sizeof(int32_t) + 32) : NULL;
    intptr_t x_stride = 0, y_stride = 0;
    int32_t *x_pairs = simd == CIK_SIMD_NONE ? NULL : pair_table(x, output_width, &x_stride);
    int32_t *y_pairs = simd == CIK_SIMD_NONE ? NULL : pair_table(y, output_height, &y_stride);
    if (row == NULL || (simd != CIK_SIMD_NONE && (x_pairs == NULL || y_pairs == NULL)) ||
        (simd == CIK_SIMD_AVX2 && sums == NULL)) {
        free(row);
        free(sums);
        free(x_pairs);
        free(y_pairs);
        return -1;
    }
    for (uint32_t oy = 0; oy < output_height; oy++) {
        const uint8_t *first = source + (size_t)y.starts[oy] * source_bytes_per_row;
        const intptr_t taps = y.counts[oy];
        const int32_t *w = y.weights + (size_t)oy * (size_t)y.max_taps;
        uint8_t *out = output + (size_t)oy * output_bytes_per_row;
        size_t done = 0;
        switch (simd) {
#if defined(CIK_AVX2)
        case CIK_SIMD_AVX2:
            done = vertical_pass_avx2(first, source_bytes_per_row, taps, y_pairs + (size_t)oy * (size_t)y_stride,
                                      bytes, row, sums);
            done += vertical_pass_sse2(first + done, source_bytes_per_row, taps,
                                       y_pairs + (size_t)oy * (size_t)y_stride, bytes - done, row + done);
            vertical_pass_portable(first, source_bytes_per_row, taps, w, done, bytes, row);
            horizontal_pass_avx2(row, x, x_pairs, x_stride, output_width, premultiplied, out);
            break;
#endif
#if defined(__SSE2__)
        case CIK_SIMD_SSE2:
            done = vertical_pass_sse2(first, source_bytes_per_row, taps, y_pairs + (size_t)oy * (size_t)y_stride,
                                      bytes, row);
            vertical_pass_portable(first, source_bytes_per_row, taps, w, done, bytes, row);
            horizontal_pass_sse2(row, x, x_pairs, x_stride, output_width, premultiplied, out);
            break;
#endif
        default:
            vertical_pass_portable(first, source_bytes_per_row, taps, w, 0, bytes, row);
            horizontal_pass_portable(row, x, output_width, premultiplied, out);
            break;
        }
    }
    free(row);
    free(sums);
    free(x_pairs);
    free(y_pairs);
    return 0;
}
