// GIF over giflib (included by CImageCodecs.h). giflib's read callback and its error codes stay
// in this target; frames are composited here (disposal, transparency, interlace, palettes).
#ifndef CIC_GIF_H
#define CIC_GIF_H

#include "CImageCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t width, height;   // the logical screen (canvas)
    uint32_t frame_count;     // image descriptors found by a walk of the blocks (no pixels decoded)
    int loop_count;           // NETSCAPE2.0 loop count; -1 when the file has none
} cic_gif_info;

typedef struct cic_gif_decoder cic_gif_decoder;

/// Opens a complete in-memory file: walks its blocks to count frames (without decoding pixels),
/// checks the canvas against `limits` (dimension, source and output pixels) and, when
/// `all_frames`, the frame count and frames × canvas pixels too. The bytes must stay valid until
/// the decoder is destroyed. NULL on error (`status` and message set).
cic_gif_decoder *cic_gif_open(const uint8_t *data, size_t length, cic_limits limits, int all_frames,
                              cic_gif_info *info, cic_status *status, char message[CIC_MESSAGE_CAPACITY]);
void cic_gif_destroy(cic_gif_decoder *decoder);
/// Decodes the next frame and writes the composited canvas (straight-alpha RGBA8; transparent
/// where nothing was drawn) into `pixels`; `delay_cs` gets its delay in hundredths of a second.
/// CIC_BAD_STATE after the last frame.
cic_status cic_gif_next_frame(cic_gif_decoder *decoder, uint8_t *pixels, size_t bytes_per_row,
                              uint32_t *delay_cs, char message[CIC_MESSAGE_CAPACITY]);

/// The ICC profile of an `ICCRGBG1` application extension, appended to `out` (left empty when
/// the file has none). CIC_ERROR when the extension is cut short.
cic_status cic_gif_icc_profile(const uint8_t *data, size_t length, cic_buffer *out);
/// Encodes `count` straight-alpha RGBA8 frames of `width`×`height` (frame i at `frames[i]`,
/// rows `bytes_per_row` apart, shown `delays_cs[i]` hundredths of a second) as a GIF89a with
/// giflib: colours mapped to a fixed 6×6×6 cube with ordered dithering, alpha below 128
/// transparent; `loop_count` < 0 writes no loop extension, else NETSCAPE2.0 with that count.
cic_status cic_gif_encode(const uint8_t *const *frames, const int *delays_cs, int count,
                          uint32_t width, uint32_t height, size_t bytes_per_row, int loop_count,
                          cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]);

#ifdef __cplusplus
}
#endif

#endif
