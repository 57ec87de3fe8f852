// Plain C decode loops: the near-physical limit that Comet's figures are compared against.
#ifndef CREFERENCE_H
#define CREFERENCE_H
#include <stddef.h>
#include <stdint.h>

/// Decodes a JPEG in memory to RGBA8 at 1/scale_denom with libjpeg-turbo's defaults
/// (into a malloc'd buffer that is freed before returning). Returns width * height of the
/// output, or 0 on error.
uint64_t ref_jpeg_decode(const uint8_t *data, size_t length, int scale_denom);

/// The thumbnail an aspect-fill + crop to `side`² makes, the way Comet's pipeline makes it:
/// decodes the JPEG in memory to RGBA8 at the cheapest DCT scale that still covers 1.5 × side²
/// (1/2, 1/4 or 1/8, else full size: the Lanczos3 resize's headroom), then resamples the
/// centred square, framed on the file's exact sides, to `side`×`side` with `ref_lanczos_resample`
/// (sharpened after a reduced decode, as Comet) into `destination`
/// (side * side * 4 bytes). Returns side * side, or 0 on error.
uint64_t ref_jpeg_thumbnail(const uint8_t *data, size_t length, uint32_t side, uint8_t *destination);

/// What comet-server does for a cold `rs:fill:{w}:{h},q:{quality}` JPEG, in memory: decodes at
/// the cheapest DCT scale that covers 1.5 × the fill (1/8, 1/4 or 1/2, else full size),
/// resamples with `ref_lanczos_resample` the centred region of the output's aspect ratio to `fill_width`×`fill_height`, and encodes it
/// as baseline JPEG at `quality` with libjpeg-turbo's defaults (4:2:0). Returns the encoded
/// size, or 0 on error.
uint64_t ref_jpeg_fill_encode(const uint8_t *data, size_t length, uint32_t fill_width, uint32_t fill_height, int quality);

/// Area resampling (a box filter with fractional coverage, separable, 16.16 fixed point) of the
/// `source_width`×`source_height` RGBA8 rectangle at (`x0`, `y0`) to `out_width`×`out_height`,
/// for reductions of at most 7× per axis.
void ref_area_resample(const uint8_t *source, size_t source_stride, uint32_t x0, uint32_t y0, uint32_t source_width,
                       uint32_t source_height, uint32_t out_width, uint32_t out_height, uint8_t *destination);

/// Lanczos3 resampling (separable, 14-bit fixed point, plain scalar C; taps beyond the edge dropped)
/// of the region at (`x0`, `y0`) of `source_width`×`source_height` source pixels (fractional) of
/// the `width`×`height` RGBA8 image to `out_width`×`out_height`: the same filter as Comet's
/// default resize, written the obvious way. `sharpening` is Comet's after a reduced decode
/// ((1 − 1/d²)/40 after a 1/d decode, 0 after a full-size one).
void ref_lanczos_resample(const uint8_t *source, size_t source_stride, uint32_t width, uint32_t height, double x0,
                          double y0, double source_width, double source_height, uint32_t out_width, uint32_t out_height,
                          double sharpening, uint8_t *destination);

/// Decodes a JPEG in memory to RGBA8 at scale_num/scale_denom (libjpeg-turbo accepts M/8).
/// Returns width * height of the output, or 0 on error.
uint64_t ref_jpeg_decode_scaled(const uint8_t *data, size_t length, unsigned scale_num, unsigned scale_denom);

/// Decodes a PNG in memory to RGBA8 with libpng's simplified API. Returns width * height, or 0.
uint64_t ref_png_decode(const uint8_t *data, size_t length);

/// Area average of `factor`×`factor` blocks of an RGBA8 image (the plain loop a 1024×768 →
/// 256×256 aspect-fill resize reduces to: the central 768×768 averaged in 3×3 blocks).
void ref_area_average(const uint8_t *source, size_t source_stride, uint32_t x0, uint32_t y0,
                      uint32_t out_width, uint32_t out_height, uint32_t factor, uint8_t *destination);

/// One horizontal and one vertical box-blur pass of radius `radius` over RGBA8 (edges clamped),
/// with a sliding window sum: the plain C loop a blur is compared with.
void ref_box_blur(uint8_t *pixels, uint32_t width, uint32_t height, uint32_t radius, uint8_t *scratch);

/// An unsharp mask over opaque RGBA8: a separable Gaussian of standard deviation `sigma` (±⌈3σ⌉
/// taps, edges clamped, in float), then `out = in + amount × (in − blur)` rounded and clamped,
/// alpha copied. `scratch` holds width × height × 4 floats. The plain C loop a sharpen is
/// compared with.
void ref_unsharp_mask(const uint8_t *pixels, uint32_t width, uint32_t height, float sigma, float amount,
                      float *scratch, uint8_t *output);

/// Decodes a WebP in memory to RGBA8 with WebPDecodeRGBAInto (into a malloc'd buffer freed
/// before returning). Returns width * height, or 0 on error.
uint64_t ref_webp_decode(const uint8_t *data, size_t length);

/// Encodes RGBA8 pixels as lossy WebP at `quality` (0...100) with WebPEncodeRGBA. Returns the
/// encoded size, or 0 on error.
uint64_t ref_webp_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, float quality);

/// Decodes an AVIF in memory to RGBA8 with libavif (avifDecoderRead + avifImageYUVToRGB, one
/// thread). Returns width * height, or 0 on error.
uint64_t ref_avif_decode(const uint8_t *data, size_t length);

/// Writes `length` bytes to `path` with fopen/fwrite/fclose. Returns 0 on success, -1 on error.
int ref_write_file(const char *path, const uint8_t *data, size_t length);

/// Reads up to `capacity` bytes of `path` with fopen/fread into `buffer`. Returns the count, or -1.
int64_t ref_read_file(const char *path, uint8_t *buffer, size_t capacity);

#endif
