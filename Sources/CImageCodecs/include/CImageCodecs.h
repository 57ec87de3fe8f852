// CImageCodecs: the only place where libpng, libjpeg and giflib may longjmp or call back.
//
// Every function here establishes its own setjmp before calling into the library and returns a
// status code; no longjmp ever leaves this target, so no Swift frame is ever skipped. Decoders
// are opaque handles that live on the C heap: all state that must survive a longjmp lives there,
// never in locals.
#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes shared by every entry point.
typedef enum {
    CIC_OK = 0,
    /// More input is needed before this step can complete (incremental decoding only).
    CIC_NEED_MORE_DATA = 1,
    /// The library reported an error; the message is in the handle.
    CIC_ERROR = -1,
    /// The declared image exceeds a limit set on the handle.
    CIC_TOO_LARGE = -2,
    /// The decoder needs more working memory than its limit allows.
    CIC_MEMORY_LIMIT = -3,
    /// The call was made in the wrong state (a bug in the caller).
    CIC_BAD_STATE = -4,
    /// The file uses a feature this build of the library does not decode (e.g. 12-bit JPEG).
    CIC_UNSUPPORTED = -5,
} cic_status;

#define CIC_MESSAGE_CAPACITY 200

/// Limits checked before any image-sized allocation.
typedef struct {
    uint32_t max_dimension;        // either declared side
    uint64_t max_source_pixels;    // declared width * height
    uint64_t max_output_pixels;    // decoded bitmap width * height
    uint64_t max_decoder_memory;   // bytes of working memory (JPEG coefficient buffers; HEIF's and JPEG XL's, estimated)
    uint32_t max_scans;            // progressive JPEG scans
    uint32_t max_frames;           // frames of an animation
    uint64_t max_animation_pixels; // frames * canvas width * height of an animation
} cic_limits;

/// A growable byte buffer owned by C; release with cic_buffer_free.
typedef struct {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
} cic_buffer;

void cic_buffer_free(cic_buffer *buffer);
/// Appends `length` bytes, growing the buffer by doubling. Returns 0 when out of memory.
int cic_buffer_append(cic_buffer *buffer, const uint8_t *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#include "cic_colour.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: JPEG

typedef struct cic_jpeg_decoder cic_jpeg_decoder;

typedef struct {
    uint32_t width, height;              // declared (full-size) dimensions
    uint32_t output_width, output_height; // after DCT scaling
    int components;
    int jpeg_color_space;                // J_COLOR_SPACE of the file
    int is_progressive;
    int saw_adobe_marker;
} cic_jpeg_info;

/// Creates a decoder. `strict`: the first libjpeg warning (corrupt data, premature end) is an error.
cic_jpeg_decoder *cic_jpeg_create(cic_limits limits, int strict);
void cic_jpeg_destroy(cic_jpeg_decoder *decoder);
/// The error that ended decoding (after a failed call).
const char *cic_jpeg_message(const cic_jpeg_decoder *decoder);
/// The first warning (corrupt data that was concealed), or "".
const char *cic_jpeg_warning(const cic_jpeg_decoder *decoder);
int cic_jpeg_warning_count(const cic_jpeg_decoder *decoder);

/// One-shot: reads the header of a complete in-memory file and checks the source limits. The
/// bytes must stay valid and unchanged until the decoder is destroyed.
cic_status cic_jpeg_read_header(cic_jpeg_decoder *decoder, const uint8_t *data, size_t length, cic_jpeg_info *info);
/// After the header: sets the DCT scale (`scale_denom` 1, 2, 4 or 8), fills the output size
/// and checks the output pixel limit. Required before decoding or consuming.
cic_status cic_jpeg_set_scale(cic_jpeg_decoder *decoder, int scale_denom, cic_jpeg_info *info);
/// One-shot: decodes to RGBA8 (alpha 255) into `pixels` (output_height rows of `bytes_per_row`).
cic_status cic_jpeg_decode(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t bytes_per_row);

/// Incremental: appends bytes (copied). Returns CIC_OK.
cic_status cic_jpeg_append(cic_jpeg_decoder *decoder, const uint8_t *data, size_t length);
/// Incremental: the bytes appended so far (valid until the next append).
const uint8_t *cic_jpeg_buffered_bytes(const cic_jpeg_decoder *decoder, size_t *length);
/// Incremental: 1 when the file has several scans (progressive) and previews are possible.
int cic_jpeg_is_multiscan(const cic_jpeg_decoder *decoder);
/// Incremental: tries to read the header from what has arrived. CIC_NEED_MORE_DATA until it can;
/// then checks the source limits. Call cic_jpeg_set_scale next.
cic_status cic_jpeg_incremental_header(cic_jpeg_decoder *decoder, cic_jpeg_info *info);
/// Incremental: consumes what has arrived. Sets `*completed_scans` to the number of scans whose
/// data is complete (progressive files only; baseline files report 0 until the end) and
/// `*reached_end` when the end of image was read.
cic_status cic_jpeg_consume(cic_jpeg_decoder *decoder, int *completed_scans, int *reached_end);
/// Incremental: renders the coefficients read so far (progressive files only) into `pixels`.
cic_status cic_jpeg_render_preview(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t bytes_per_row);
/// Incremental: once the end was reached, renders the final image. For baseline files this
/// decodes the buffered bytes in one pass.
cic_status cic_jpeg_render_final(cic_jpeg_decoder *decoder, uint8_t *pixels, size_t bytes_per_row);

/// After the header: the ICC profile of the APP2 chunks, reassembled (owned by the decoder), or
/// NULL with CIC_OK when there is none. CIC_ERROR with `reason` when the chunks are malformed
/// (a count of 0 or disagreeing counts, a sequence number of 0 or beyond the count, a chunk
/// twice or missing); decoding goes on either way.
cic_status cic_jpeg_icc_profile(cic_jpeg_decoder *decoder, const uint8_t **icc, size_t *length,
                                char reason[CIC_MESSAGE_CAPACITY]);
/// After the header: what the decoded pixels hold, for resolving a profile (grey, CMYK, Adobe's
/// inverted CMYK, or RGB).
cic_colour_input cic_jpeg_colour_input(const cic_jpeg_decoder *decoder);
/// Before decoding: rows go through `transform` as they are read (previews too); NULL for none.
/// The decoder keeps its own reference.
cic_status cic_jpeg_set_colour(cic_jpeg_decoder *decoder, cic_colour_transform *transform);

// MARK: PNG

typedef struct cic_png_decoder cic_png_decoder;

typedef struct {
    uint32_t width, height;
    int bit_depth;
    int color_type;     // PNG_COLOR_TYPE_*
    int is_interlaced;
    int has_alpha;      // alpha channel or tRNS
    int is_gray;        // grey samples: colour type 0 or 4, or a palette of greys only
} cic_png_info;

/// Creates a decoder (libpng's progressive reader, used for one-shot and incremental decoding).
/// Rows are converted to sRGB through the file's iCCP, or gAMA and cHRM (an sRGB chunk means
/// sRGB); with `keeps_rgb_numbers`, an RGB source's numbers are kept (grey ones still convert).
cic_png_decoder *cic_png_create(cic_limits limits, int keeps_rgb_numbers);
/// After the header: what the colour chunks resolved to (NULL before), and in `converts`
/// whether the rows go through its transform. Valid until the decoder is destroyed.
const cic_colour_resolution *cic_png_colour(const cic_png_decoder *decoder, int *converts);
/// libpng's first warning about a colour chunk (gAMA, cHRM, iCCP, sRGB, sBIT), or "": these are
/// not counted by cic_png_warning_count, since the pixels are whole.
const char *cic_png_colour_warning(const cic_png_decoder *decoder);
void cic_png_destroy(cic_png_decoder *decoder);
const char *cic_png_message(const cic_png_decoder *decoder);
int cic_png_warning_count(const cic_png_decoder *decoder);

/// Feeds bytes (all of them are consumed). Once the header has been read, the decoder owns a
/// zeroed RGBA8 bitmap (width * 4 bytes a row, 64-byte aligned) that rows are written into.
cic_status cic_png_feed(cic_png_decoder *decoder, const uint8_t *data, size_t length);
/// The width and height the IHDR chunk declared (0 before it was read), even when the limits
/// rejected them.
void cic_png_declared_size(const cic_png_decoder *decoder, uint32_t *width, uint32_t *height);
/// 1 once the header was read (and `info` is filled), else 0.
int cic_png_header_ready(const cic_png_decoder *decoder, cic_png_info *info);
/// The bitmap being written (NULL before the header); valid until taken or destroyed.
const uint8_t *cic_png_pixels(const cic_png_decoder *decoder);
/// Hands the bitmap to the caller, who must release it with free().
uint8_t *cic_png_take_pixels(cic_png_decoder *decoder);
/// Number of Adam7 passes completed (interlaced images: 0...7), or 0.
int cic_png_completed_passes(const cic_png_decoder *decoder);
/// Number of rows of the final image complete so far (non-interlaced images).
uint32_t cic_png_completed_rows(const cic_png_decoder *decoder);
/// 1 once the image end (IEND) was read.
int cic_png_finished(const cic_png_decoder *decoder);
/// The data of the first eXIf chunk read so far (an EXIF block: a TIFF header and its IFDs,
/// unchecked), or NULL when none has arrived, it was damaged (a CRC error), or it was empty.
/// An eXIf chunk may come before or after the image data. Valid until the decoder is destroyed.
const uint8_t *cic_png_exif(const cic_png_decoder *decoder, size_t *length);

// MARK: Encoding


/// Encodes straight-alpha RGBA8 pixels as PNG (RGBA, or RGB when `opaque`), with an iCCP
/// chunk when `icc` is not NULL. With `gray`, the pixels are checked first (stopping after the
/// first row with a pixel whose red, green and blue differ) and, when they are all grey,
/// written as grey (grey + alpha, or grey when `opaque`); `icc` must then be a grey profile.
cic_status cic_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                          int opaque, int gray, int compression_level, const uint8_t *icc, size_t icc_length,
                          cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]);
/// Encodes RGBA8 pixels as a baseline JPEG (alpha ignored); quality 1...100; with APP2 ICC
/// chunks when `icc` is not NULL.
cic_status cic_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                           int quality, int progressive, const uint8_t *icc, size_t icc_length,
                           cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]);

#ifdef __cplusplus
}
#endif

#include "cic_webp.h"
#include "cic_gif.h"
#include "cic_avif.h"
#include "cic_heif.h"
#include "cic_jxl.h"

#endif
