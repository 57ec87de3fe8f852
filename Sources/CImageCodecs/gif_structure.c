// A walk over a GIF's blocks that counts frames and reads the loop count without decoding any
// pixels: what the limits are checked against before giflib allocates anything.
#include "gif_internal.h"

#include <string.h>

/// Skips data sub-blocks from `*at`; 0 when the data ends first.
static int skip_sub_blocks(const uint8_t *data, size_t length, size_t *at) {
    while (*at < length) {
        uint8_t size = data[(*at)++];
        if (size == 0) return 1;
        *at += size;
    }
    return 0;
}

void cic_gif_walk(const uint8_t *data, size_t length, uint32_t stop_after, cic_gif_info *info) {
    info->frame_count = 0;
    info->loop_count = -1;
    if (length < 13) return;
    size_t at = 13;
    if (data[10] & 0x80) at += 3u * (1u << ((data[10] & 7) + 1));
    while (at < length && info->frame_count <= stop_after) {
        uint8_t introducer = data[at++];
        if (introducer == 0x2C) { // image descriptor
            if (at + 9 > length) return;
            uint8_t packed = data[at + 8];
            at += 9;
            if (packed & 0x80) at += 3u * (1u << ((packed & 7) + 1));
            at += 1; // LZW minimum code size
            info->frame_count++;
            if (!skip_sub_blocks(data, length, &at)) return;
        } else if (introducer == 0x21) { // extension
            if (at >= length) return;
            uint8_t label = data[at++];
            if (label == 0xFF && at + 12 <= length && data[at] == 11 && memcmp(data + at + 1, "NETSCAPE2.0", 11) == 0) {
                size_t sub = at + 12;
                if (sub + 4 <= length && data[sub] == 3 && data[sub + 1] == 1) {
                    info->loop_count = data[sub + 2] | data[sub + 3] << 8;
                }
            }
            if (!skip_sub_blocks(data, length, &at)) return;
        } else {
            return; // the trailer (0x3B) or garbage: giflib reports the latter when decoding
        }
    }
}
