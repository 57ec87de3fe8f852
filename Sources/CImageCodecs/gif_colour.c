// GIF colour: the ICC profile of an `ICCRGBG1` application extension (rare, but defined), found
// by a walk over the blocks that decodes no pixels.
#include "CImageCodecs.h"

#include <string.h>

// Appends sub-blocks from `*at` to `out` (when not NULL); 0 when the data ends first.
static int read_sub_blocks(const uint8_t *data, size_t length, size_t *at, cic_buffer *out) {
    while (*at < length) {
        uint8_t size = data[(*at)++];
        if (size == 0) return 1;
        if (*at + size > length) return 0;
        if (out != NULL && !cic_buffer_append(out, data + *at, size)) return 0;
        *at += size;
    }
    return 0;
}

cic_status cic_gif_icc_profile(const uint8_t *data, size_t length, cic_buffer *out) {
    if (length < 13) return CIC_OK;
    size_t at = 13;
    if (data[10] & 0x80) at += 3u * (1u << ((data[10] & 7) + 1));
    while (at < length) {
        uint8_t introducer = data[at++];
        if (introducer == 0x2C) { // image descriptor: skip its table and pixel data
            if (at + 9 > length) return CIC_OK;
            uint8_t packed = data[at + 8];
            at += 9;
            if (packed & 0x80) at += 3u * (1u << ((packed & 7) + 1));
            at += 1;
            if (!read_sub_blocks(data, length, &at, NULL)) return CIC_OK;
        } else if (introducer == 0x21) {
            if (at >= length) return CIC_OK;
            uint8_t label = data[at++];
            if (label == 0xFF && at + 12 <= length && data[at] == 11 && memcmp(data + at + 1, "ICCRGBG1012", 11) == 0) {
                at += 12;
                out->length = 0;
                return read_sub_blocks(data, length, &at, out) ? CIC_OK : CIC_ERROR;
            }
            if (!read_sub_blocks(data, length, &at, NULL)) return CIC_OK;
        } else {
            return CIC_OK;
        }
    }
    return CIC_OK;
}
