// Plain C decode loops: the near-physical limit that Comet's figures are compared against.
#ifndef CREFERENCE_H
#define CREFERENCE_H
#include <stddef.h>
#include <stdint.h>

/// Decodes a JPEG in memory to RGBA8 at 1/scale_denom with libjpeg-turbo's defaults
/// (into a malloc'd buffer that is freed before returning). Returns width * height of the
/// output, or 0 on error.
uint64_t ref_jpeg_decode(const uint8_t *data, size_t length, int scale_denom);

/// Decodes a PNG in memory to RGBA8 with libpng's simplified API. Returns width * height, or 0.
uint64_t ref_png_decode(const uint8_t *data, size_t length);

#endif
