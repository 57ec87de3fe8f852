#ifndef CIC_GIF_INTERNAL_H
#define CIC_GIF_INTERNAL_H

#include "CImageCodecs.h"

/// Counts frames (stopping once more than `stop_after` were seen) and reads the loop count into
/// `info` by walking the blocks; a truncated or malformed file counts what precedes the damage.
void cic_gif_walk(const uint8_t *data, size_t length, uint32_t stop_after, cic_gif_info *info);

#endif
