// Limit checks shared by the WebP, GIF, AVIF, HEIF and JPEG XL decoders: run on the declared sizes, before
// anything image-sized is allocated. Each fills `message` with the limit that was exceeded.
#ifndef CIC_LIMITS_INTERNAL_H
#define CIC_LIMITS_INTERNAL_H

#include "CImageCodecs.h"

/// An empty size is an error; a side over max_dimension or an area over max_source_pixels is
/// CIC_TOO_LARGE.
cic_status cic_check_declared_size(cic_limits limits, uint64_t width, uint64_t height, char message[CIC_MESSAGE_CAPACITY]);
/// A decoded bitmap over max_output_pixels is CIC_TOO_LARGE.
cic_status cic_check_output_size(cic_limits limits, uint64_t width, uint64_t height, char message[CIC_MESSAGE_CAPACITY]);
/// More than max_frames frames, or frames × canvas pixels over max_animation_pixels, is CIC_TOO_LARGE.
cic_status cic_check_animation(cic_limits limits, uint64_t frames, uint64_t width, uint64_t height, char message[CIC_MESSAGE_CAPACITY]);
/// Working memory a decoder would need (an estimate from the declared image, made before the
/// library allocates it) over max_decoder_memory is CIC_MEMORY_LIMIT, naming the limit.
cic_status cic_check_decoder_memory(cic_limits limits, uint64_t bytes, char message[CIC_MESSAGE_CAPACITY]);

#endif
