#ifndef CIK_RESAMPLE_H
#define CIK_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/// The taps of one axis: output sample i reads `counts[i]` source samples from `starts[i]`,
/// weighted by `weights[i * max_taps ...]` (non-negative, 14-bit fixed point, summing to 1 << 14).
typedef struct {
    const intptr_t *starts;
    const intptr_t *counts;
    const int32_t *weights;
    intptr_t max_taps;
} cik_axis_taps;

/// Separable resampling of 4-byte pixels (RGBA8, straight or premultiplied: the channels are
/// treated alike): a vertical pass per output row into a 16-bit row (8 extra bits of
/// precision), then a horizontal pass into the output row. Integer arithmetic only, so the
/// SSE2 path and the portable one give the same bytes. Returns 0, or -1 when the row buffer
/// cannot be allocated.
int cik_resample_rgba8(const uint8_t *source, size_t source_bytes_per_row, uint32_t source_width,
                       cik_axis_taps x, cik_axis_taps y,
                       uint8_t *output, size_t output_bytes_per_row, uint32_t output_width, uint32_t output_height);

/// Which vector instructions a kernel may use: it uses the best of them the CPU has, up to this.
/// Every level gives the same bytes (integer arithmetic only); the lower ones are for tests.
typedef enum {
    CIK_SIMD_NONE = 0,  ///< Portable C.
    CIK_SIMD_SSE2 = 1,  ///< SSE2 (every x86-64 CPU).
    CIK_SIMD_AVX2 = 2,  ///< AVX2, when the CPU reports it at run time.
    CIK_SIMD_BEST = 3,  ///< The best the CPU has.
} cik_simd;

/// Separable convolution of 4-byte pixels with signed taps (a Lanczos kernel: `weights` are
/// 14-bit fixed point, each within ±(1 << 15), summing to 1 << 14): a vertical pass per output
/// row into a signed 16-bit row with 6 fractional bits, then a horizontal pass into the output
/// row, rounded and clamped to 0...255. With `premultiplied` non-zero, each colour channel is
/// also clamped to its pixel's alpha, which a kernel's overshoot could exceed. Integer
/// arithmetic only, so the AVX2 and SSE2 paths and the portable one give the same bytes (`simd`
/// caps the level used). Returns 0, or -1 when the row or the weight tables cannot be allocated.
int cik_convolve_rgba8(const uint8_t *source, size_t source_bytes_per_row, uint32_t source_width,
                       cik_axis_taps x, cik_axis_taps y, int premultiplied,
                       uint8_t *output, size_t output_bytes_per_row, uint32_t output_width, uint32_t output_height,
                       cik_simd simd);

#endif
