// PNG decoding over libpng's progressive reader, used for both one-shot and incremental
// decoding: a one-shot decode is one feed of the whole file. Output is always RGBA8 with
// straight alpha, no gamma correction (the sample values the file stores). The first eXIf
// chunk's bytes are kept for the Swift side, which reads the orientation from them.
#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_png_decoder {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    cic_limits limits;
    cic_status failure;
    int warnings;
    char message[CIC_MESSAGE_CAPACITY];

    uint32_t declared_width;  // from IHDR, recorded before the limit checks
    uint32_t declared_height;
    int header_ready;
    cic_png_info header;
    uint8_t *pixels;
    size_t bytes_per_row;
    int passes;              // 1, or 7 for Adam7
    int completed_passes;
    uint32_t completed_rows;
    int finished;

    // Colour: what the file's iCCP, sRGB or gAMA/cHRM chunks resolved to, and how rows use it.
    int keeps_rgb_numbers;         // keep an RGB source's numbers (the profile is reported, not applied)
    char colour_warning[CIC_MESSAGE_CAPACITY]; // libpng's first warning about a colour chunk
    cic_colour_resolution colour;
    int converts;                  // rows go through colour.transform
    int converts_16;               // ... from 16-bit rows (non-interlaced RGB only)

    // The first eXIf chunk (before or after the image data): an EXIF block, a TIFF header and
    // its IFDs. Copied as libpng hands it over, unparsed; NULL when there was none.
    uint8_t *exif;
    size_t exif_length;
    int saw_exif;       // an eXIf chunk was read: any later one is ignored, as PNG allows one
    int exif_damaged;   // libpng warned while reading the eXIf chunk (a CRC error): drop it
};

// PNG's gAMA of 1/2.2 (45455) without cHRM, or with sRGB's chromaticities, is what writers put
// for sRGB: taken as sRGB, as libpng's own sRGB detection and browsers do.
static int is_srgb_approximation(double gamma, const double *xy) {
    const double *srgb = cic_colour_h273_primaries(CIC_H273_PRIMARIES_BT709); // sRGB's are BT.709's
    if (gamma < 0.4500 || gamma > 0.4591) return 0;
    if (xy == NULL) return 1;
    for (int i = 0; i < 8; i++) if (xy[i] < srgb[i] - 0.0015 || xy[i] > srgb[i] + 0.0015) return 0;
    return 1;
}

// Resolves the colour chunks that arrived before the image data. Inside a setjmp scope.
static void resolve_colour(cic_png_decoder *d, png_structp png, png_infop info, int gray, int sixteen) {
    cic_colour_input input = gray ? CIC_COLOUR_INPUT_GRAY : CIC_COLOUR_INPUT_RGB;
    if (png_get_valid(png, info, PNG_INFO_sRGB)) {
        d->colour.outcome = CIC_COLOUR_SRGB; // the sRGB chunk wins over gAMA and cHRM
        snprintf(d->colour.name, sizeof d->colour.name, "sRGB");
        return;
    }
    if (png_get_valid(png, info, PNG_INFO_iCCP)) {
        png_charp name = NULL;
        int method = 0;
        png_bytep profile = NULL;
        png_uint_32 length = 0;
        if (png_get_iCCP(png, info, &name, &method, &profile, &length) && profile != NULL) {
            cic_colour_resolve_icc(profile, length, sixteen ? CIC_COLOUR_INPUT_RGBA16_BE : input, &d->colour);
            return;
        }
    }
    double gamma = 0;
    if (png_get_gAMA(png, info, &gamma)) {
        double xy[8];
        int has_chromaticities = png_get_cHRM(png, info, &xy[0], &xy[1], &xy[2], &xy[3], &xy[4], &xy[5], &xy[6], &xy[7]) != 0;
        if (is_srgb_approximation(gamma, has_chromaticities ? xy : NULL)) {
            d->colour.outcome = CIC_COLOUR_SRGB;
            snprintf(d->colour.name, sizeof d->colour.name, "PNG gAMA 1/2.2 (sRGB)");
            return;
        }
        cic_colour_resolve_chromaticities(has_chromaticities ? xy : NULL, gamma,
                                          sixteen ? CIC_COLOUR_INPUT_RGBA16_BE : input, &d->colour);
    }
}

// A palette whose every entry is a grey (red = green = blue): the image is grey.
static int is_gray_palette(png_structp png, png_infop info) {
    png_colorp palette = NULL;
    int count = 0;
    if (!png_get_PLTE(png, info, &palette, &count) || palette == NULL || count <= 0) return 0;
    for (int i = 0; i < count; i++) {
        if (palette[i].red != palette[i].green || palette[i].green != palette[i].blue) return 0;
    }
    return 1;
}

static void on_error(png_structp png, png_const_charp message) {
    cic_png_decoder *d = png_get_error_ptr(png);
    if (d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", message);
    longjmp(d->jump, 1);
}

// libpng's warnings about the colour chunks ("gAMA: gamma value does not match sRGB", an iCCP
// profile it refuses) say nothing against the pixels: they are colour warnings.
static int is_colour_chunk_warning(png_const_charp message) {
    static const char *const chunks[] = { "gAMA:", "cHRM:", "iCCP:", "sRGB:", "sBIT:" };
    for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
        if (strncmp(message, chunks[i], strlen(chunks[i])) == 0) return 1;
    }
    return 0;
}

static void on_warning(png_structp png, png_const_charp message) {
    cic_png_decoder *d = png_get_error_ptr(png);
    // libpng names the chunk it warns about: a damaged eXIf chunk reaches on_unknown_chunk
    // right after this, which then drops it. The warning still counts (the file is damaged).
    if (strncmp(message, "eXIf:", 5) == 0) d->exif_damaged = 1;
    if (is_colour_chunk_warning(message)) {
        if (d->colour_warning[0] == 0) snprintf(d->colour_warning, sizeof d->colour_warning, "%s", message);
        return;
    }
    d->warnings++;
    if (d->warnings == 1 && d->message[0] == 0) snprintf(d->message, sizeof d->message, "%s", message);
}

static void fail(cic_png_decoder *d, cic_status status, const char *message) {
    d->failure = status;
    snprintf(d->message, sizeof d->message, "%s", message);
    longjmp(d->jump, 1);
}

// Every chunk libpng does not handle itself, and eXIf, which it is told to pass here (libpng
// 1.6's progressive reader does not read eXIf at all; later ones might, and would then keep it
// from us). Returning 1 discards a chunk, as libpng does with unknown ancillary chunks when no
// callback is set; an unknown critical chunk fails as it would then.
static int on_unknown_chunk(png_structp png, png_unknown_chunkp chunk) {
    cic_png_decoder *d = png_get_user_chunk_ptr(png);
    if (memcmp(chunk->name, "eXIf", 4) == 0) {
        int damaged = d->exif_damaged;
        d->exif_damaged = 0;
        if (d->saw_exif) return 1;
        d->saw_exif = 1;
        // At most libpng's chunk limit (png_set_chunk_malloc_max): a larger chunk never gets here.
        if (damaged || chunk->data == NULL || chunk->size == 0) return 1;
        d->exif = malloc(chunk->size);
        if (d->exif == NULL) return 1; // no memory for it: as if there were no orientation
        memcpy(d->exif, chunk->data, chunk->size);
        d->exif_length = chunk->size;
        return 1;
    }
    if ((chunk->name[0] & 0x20) == 0) png_chunk_error(png, "unhandled critical chunk");
    return 1;
}

static void on_info(png_structp png, png_infop info) {
    cic_png_decoder *d = png_get_progressive_ptr(png);
    // libpng's progressive reader calls this again for some damaged files (image data, another
    // chunk, image data again): the image was set up the first time (its colour transform
    // resolved, its bitmap allocated), and doing it again would leak both.
    if (d->header_ready) return;
    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    char text[CIC_MESSAGE_CAPACITY];
    // The declared size is recorded first so that a rejection can name it.
    d->declared_width = width;
    d->declared_height = height;
    if (width > d->limits.max_dimension || height > d->limits.max_dimension) {
        snprintf(text, sizeof text, "the maximum width or height of %u", d->limits.max_dimension);
        fail(d, CIC_TOO_LARGE, text);
    }
    uint64_t pixels = (uint64_t)width * height;
    if (pixels > d->limits.max_source_pixels || pixels > d->limits.max_output_pixels) {
        uint64_t limit = d->limits.max_source_pixels < d->limits.max_output_pixels ? d->limits.max_source_pixels : d->limits.max_output_pixels;
        snprintf(text, sizeof text, "the maximum decoded pixel count of %llu", (unsigned long long)limit);
        fail(d, CIC_TOO_LARGE, text);
    }
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    d->header.width = width;
    d->header.height = height;
    d->header.bit_depth = bit_depth;
    d->header.color_type = color_type;
    d->header.is_interlaced = interlace != PNG_INTERLACE_NONE;
    d->header.has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;

    int gray = (color_type & PNG_COLOR_MASK_COLOR) == 0;
    d->header.is_gray = gray || is_gray_palette(png, info);
    // 16-bit colour converts from its 16 bits (non-interlaced files: interlaced rows are put
    // together pass by pass, so they are converted at the end, from 8 bits).
    int sixteen = bit_depth == 16 && !gray && interlace == PNG_INTERLACE_NONE;
    resolve_colour(d, png, info, gray, sixteen);
    if (d->colour.outcome == CIC_COLOUR_CONVERT
        && !(d->keeps_rgb_numbers && cic_colour_transform_is_rgb(d->colour.transform))) {
        d->converts = 1;
        d->converts_16 = sixteen;
    }
    png_set_expand(png);       // palette → RGB, gray < 8 bits → 8 bits, tRNS → alpha
    if (!d->converts_16) png_set_scale_16(png); // 16 → 8 bits, rounded
    png_set_gray_to_rgb(png);
    if (!d->header.has_alpha) png_set_add_alpha(png, d->converts_16 ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    d->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * (d->converts_16 ? 8 : 4)) {
        fail(d, CIC_ERROR, "unexpected row layout after conversion to RGBA");
    }

    d->bytes_per_row = (size_t)width * 4;
    // Zeroed: previews of interlaced images show only completed passes, never stale memory.
    void *buffer = NULL;
    if (posix_memalign(&buffer, 64, d->bytes_per_row * height) != 0 || buffer == NULL) {
        fail(d, CIC_ERROR, "out of memory for the image");
    }
    memset(buffer, 0, d->bytes_per_row * height);
    d->pixels = buffer;
    d->header_ready = 1;
}

static void on_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    cic_png_decoder *d = png_get_progressive_ptr(png);
    if (row >= d->header.height) return;
    if (pass > d->completed_passes) d->completed_passes = pass; // passes before this one are done
    uint8_t *target = d->pixels + (size_t)row * d->bytes_per_row;
    if (d->converts_16) {
        // Non-interlaced: each row arrives once, whole: straight from 16 bits to sRGB RGBA8.
        if (new_row != NULL) cic_colour_convert_16(d->colour.transform, new_row, 0, target, 0, d->header.width, 1);
    } else {
        if (new_row != NULL) png_progressive_combine_row(png, target, new_row);
        if (new_row != NULL && d->converts && d->passes == 1) cic_colour_convert(d->colour.transform, target, d->bytes_per_row, d->header.width, 1);
    }
    if (d->passes == 1) d->completed_rows = row + 1;
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    cic_png_decoder *d = png_get_progressive_ptr(png);
    if (d->converts && d->passes > 1) {
        cic_colour_convert(d->colour.transform, d->pixels, d->bytes_per_row, d->header.width, d->header.height);
    }
    d->finished = 1;
    d->completed_passes = d->passes == 1 ? 0 : 7;
    d->completed_rows = d->header.height;
}

cic_png_decoder *cic_png_create(cic_limits limits, int keeps_rgb_numbers) {
    cic_png_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->limits = limits;
    d->keeps_rgb_numbers = keeps_rgb_numbers;
    d->failure = CIC_ERROR;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, on_error, on_warning);
    if (d->png == NULL) { free(d); return NULL; }
    if (setjmp(d->jump)) {
        png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
        free(d);
        return NULL;
    }
    d->info = png_create_info_struct(d->png);
    if (d->info == NULL) {
        png_destroy_read_struct(&d->png, NULL, NULL);
        free(d);
        return NULL;
    }
    // The limits are checked in on_info, with a clear "too large" status; libpng's own
    // user limits would report the same thing as a generic error.
    png_set_user_limits(d->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    // Cap what ancillary chunks (text, ICC profiles) may allocate, and what their zlib streams
    // may expand to.
    png_set_chunk_malloc_max(d->png, 8 << 20);
    png_set_chunk_cache_max(d->png, 1000);
    png_set_progressive_read_fn(d->png, d, on_info, on_row, on_end);
    static const png_byte exif_chunk[] = { 'e', 'X', 'I', 'f', 0 };
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_ALWAYS, exif_chunk, 1);
    png_set_read_user_chunk_fn(d->png, d, on_unknown_chunk);
    return d;
}

void cic_png_destroy(cic_png_decoder *d) {
    if (d == NULL) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    cic_colour_transform_release(d->colour.transform);
    free(d->pixels);
    free(d->exif);
    free(d);
}

const uint8_t *cic_png_exif(const cic_png_decoder *d, size_t *length) {
    *length = d->exif_length;
    return d->exif;
}

const char *cic_png_colour_warning(const cic_png_decoder *d) { return d->colour_warning; }

const cic_colour_resolution *cic_png_colour(const cic_png_decoder *d, int *converts) {
    *converts = d->converts;
    return d->header_ready ? &d->colour : NULL;
}

const char *cic_png_message(const cic_png_decoder *d) { return d->message; }
int cic_png_warning_count(const cic_png_decoder *d) { return d->warnings; }

cic_status cic_png_feed(cic_png_decoder *d, const uint8_t *data, size_t length) {
    if (d->finished || length == 0) return CIC_OK;
    if (setjmp(d->jump)) return d->failure;
    png_process_data(d->png, d->info, (png_bytep)data, length);
    return CIC_OK;
}

void cic_png_declared_size(const cic_png_decoder *d, uint32_t *width, uint32_t *height) {
    *width = d->declared_width;
    *height = d->declared_height;
}

int cic_png_header_ready(const cic_png_decoder *d, cic_png_info *info) {
    if (!d->header_ready) return 0;
    *info = d->header;
    return 1;
}

const uint8_t *cic_png_pixels(const cic_png_decoder *d) { return d->pixels; }

uint8_t *cic_png_take_pixels(cic_png_decoder *d) {
    uint8_t *pixels = d->pixels;
    d->pixels = NULL;
    return pixels;
}

int cic_png_completed_passes(const cic_png_decoder *d) { return d->completed_passes; }
uint32_t cic_png_completed_rows(const cic_png_decoder *d) { return d->completed_rows; }
int cic_png_finished(const cic_png_decoder *d) { return d->finished; }
