#include "limits_internal.h"

#include <stdio.h>

cic_status cic_check_declared_size(cic_limits limits, uint64_t width, uint64_t height, char message[CIC_MESSAGE_CAPACITY]) {
    if (width == 0 || height == 0) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the image declares an empty size (%llux%llu)",
                 (unsigned long long)width, (unsigned long long)height);
        return CIC_ERROR;
    }
    if (width > limits.max_dimension || height > limits.max_dimension) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum width or height of %u", limits.max_dimension);
        return CIC_TOO_LARGE;
    }
    if (width * height > limits.max_source_pixels) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum source pixel count of %llu",
                 (unsigned long long)limits.max_source_pixels);
        return CIC_TOO_LARGE;
    }
    return CIC_OK;
}

cic_status cic_check_output_size(cic_limits limits, uint64_t width, uint64_t height, char message[CIC_MESSAGE_CAPACITY]) {
    if (width * height > limits.max_output_pixels) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum decoded pixel count of %llu",
                 (unsigned long long)limits.max_output_pixels);
        return CIC_TOO_LARGE;
    }
    return CIC_OK;
}

cic_status cic_check_animation(cic_limits limits, uint64_t frames, uint64_t width, uint64_t height, char message[CIC_MESSAGE_CAPACITY]) {
    if (frames > limits.max_frames) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum frame count of %u (the animation has %llu)",
                 limits.max_frames, (unsigned long long)frames);
        return CIC_TOO_LARGE;
    }
    if (frames * width * height > limits.max_animation_pixels) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum animation pixel count (frames x width x height) of %llu",
                 (unsigned long long)limits.max_animation_pixels);
        return CIC_TOO_LARGE;
    }
    return CIC_OK;
}

cic_status cic_check_decoder_memory(cic_limits limits, uint64_t bytes, char message[CIC_MESSAGE_CAPACITY]) {
    if (bytes > limits.max_decoder_memory) {
        snprintf(message, CIC_MESSAGE_CAPACITY,
                 "decoding needs about %llu bytes of working memory, over the working-memory limit of %llu bytes",
                 (unsigned long long)bytes, (unsigned long long)limits.max_decoder_memory);
        return CIC_MEMORY_LIMIT;
    }
    return CIC_OK;
}
