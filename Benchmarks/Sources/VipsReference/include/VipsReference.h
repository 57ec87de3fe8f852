// libvips, in process, as the thumbnail figures' outside reference: what imgproxy and sharp run.
#ifndef VIPS_REFERENCE_H
#define VIPS_REFERENCE_H
#include <stddef.h>
#include <stdint.h>

/// Starts libvips once (later calls do nothing) with one worker thread per call and its
/// operation cache off, so that every thumbnail is computed. Returns 0, or -1 if it fails.
int vips_reference_start(void);

/// `vips_thumbnail_buffer` of the JPEG in memory, filled and cropped to `side`² at the centre
/// (its shrink-on-load, then its Lanczos3 reduce), written out to memory as 8-bit pixels and
/// copied into `destination` (at most `capacity` bytes). Returns the pixel count, or 0 on error.
uint64_t vips_reference_thumbnail(const uint8_t *data, size_t length, uint32_t side, uint8_t *destination,
                                  size_t capacity);
#endif
