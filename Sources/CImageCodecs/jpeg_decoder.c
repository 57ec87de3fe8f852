// JPEG decoding over libjpeg-turbo: the decoder handle, error and source managers, and one-shot
// decoding from memory. Incremental decoding is in jpeg_incremental.c. Every entry point sets
// its own setjmp.
#include "CImageCodecs.h"
#include "jpeg_decoder_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

static void record_message(cic_jpeg_decoder *d, char *destination) {
    char buffer[JMSG_LENGTH_MAX];
    d->error_manager.format_message((j_common_ptr)&d->cinfo, buffer);
    snprintf(destination, CIC_MESSAGE_CAPACITY, "%s", buffer);
}

static void on_error_exit(j_common_ptr cinfo) {
    cic_jpeg_decoder *d = (cic_jpeg_decoder *)cinfo->client_data;
    record_message(d, d->message);
    if (cinfo->err->msg_code == JERR_NO_BACKING_STORE || cinfo->err->msg_code == JERR_OUT_OF_MEMORY) {
        d->failure = CIC_MEMORY_LIMIT;
        snprintf(d->message, sizeof d->message,
                 "decoding needs more than the working-memory limit of %llu bytes",
                 (unsigned long long)d->limits.max_decoder_memory);
    } else if (cinfo->err->msg_code == JERR_BAD_PRECISION || cinfo->err->msg_code == JERR_NOT_COMPILED) {
        d->failure = CIC_UNSUPPORTED;
    }
    longjmp(d->jump, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    cic_jpeg_decoder *d = (cic_jpeg_decoder *)cinfo->client_data;
    if (level >= 0) return; // trace messages
    d->warnings++;
    if (d->warnings == 1) record_message(d, d->warning);
    if (d->strict) {
        d->failure = CIC_ERROR;
        snprintf(d->message, sizeof d->message, "%s (strict decoding)", d->warning);
        longjmp(d->jump, 1);
    }
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

// Scan limit: libjpeg calls the progress monitor between passes and while consuming input.
void cic_jpeg_check_scan_limit(j_common_ptr cinfo) {
    cic_jpeg_decoder *d = (cic_jpeg_decoder *)cinfo->client_data;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->is_decompressor && dinfo->input_scan_number > (int)d->limits.max_scans) {
        d->failure = CIC_TOO_LARGE;
        snprintf(d->message, sizeof d->message, "the limit of %u scans", d->limits.max_scans);
        longjmp(d->jump, 1);
    }
}

// Suspending source over the accumulated bytes.
static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }
static boolean source_fill(j_decompress_ptr cinfo) {
    cic_jpeg_decoder *d = (cic_jpeg_decoder *)cinfo->client_data;
    if (!d->incremental) {
        // One-shot: the data ended early. Insert an EOI as libjpeg's own memory source does,
        // after a warning (concealment) that strict mode turns into an error.
        static const JOCTET eoi[2] = { 0xFF, JPEG_EOI };
        WARNMS(cinfo, JWRN_JPEG_EOF);
        cinfo->src->next_input_byte = eoi;
        cinfo->src->bytes_in_buffer = 2;
        return TRUE;
    }
    return FALSE; // suspend until more arrives
}
static void source_skip(j_decompress_ptr cinfo, long count) {
    cic_jpeg_decoder *d = (cic_jpeg_decoder *)cinfo->client_data;
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= src->bytes_in_buffer) {
        src->next_input_byte += count;
        src->bytes_in_buffer -= (size_t)count;
        return;
    }
    if (!d->incremental) {
        // One-shot: the skip runs past the end; conceal once (a warning) with an EOI.
        src->next_input_byte += src->bytes_in_buffer;
        src->bytes_in_buffer = 0;
        src->fill_input_buffer(cinfo);
        return;
    }
    // Incremental: remember where the skip ends; reading resumes there once it has arrived.
    d->consumed = (size_t)(src->next_input_byte - d->bytes) + (size_t)count;
    src->next_input_byte = d->bytes + d->length;
    src->bytes_in_buffer = 0;
}
static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

cic_jpeg_decoder *cic_jpeg_create(cic_limits limits, int strict) {
    cic_jpeg_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->limits = limits;
    d->strict = strict;
    d->cinfo.err = jpeg_std_error(&d->error_manager);
    d->error_manager.error_exit = on_error_exit;
    d->error_manager.emit_message = on_emit_message;
    d->error_manager.output_message = on_output_message;
    d->cinfo.client_data = d;
    d->failure = CIC_ERROR;
    if (setjmp(d->jump)) {
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    d->cinfo.mem->max_memory_to_use = (long)(limits.max_decoder_memory > 0x7fffffffL ? 0x7fffffffL : limits.max_decoder_memory);
    d->progress.progress_monitor = cic_jpeg_check_scan_limit;
    d->cinfo.progress = &d->progress;
    d->source.init_source = source_init;
    d->source.fill_input_buffer = source_fill;
    d->source.skip_input_data = source_skip;
    d->source.resync_to_restart = jpeg_resync_to_restart;
    d->source.term_source = source_term;
    d->cinfo.src = &d->source;
    // ICC profiles travel in APP2 segments: keep them (they count against the memory limit).
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 2, 0xFFFF);
    return d;
}

void cic_jpeg_destroy(cic_jpeg_decoder *d) {
    if (d == NULL) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    cic_colour_transform_release(d->colour);
    free(d->icc);
    free(d->bytes);
    free(d);
}

const char *cic_jpeg_message(const cic_jpeg_decoder *d) { return d->message; }
const char *cic_jpeg_warning(const cic_jpeg_decoder *d) { return d->warning; }
int cic_jpeg_warning_count(const cic_jpeg_decoder *d) { return d->warnings; }

// Fills the declared facts and checks the source limits. Inside a setjmp scope.
cic_status cic_jpeg_check_header(cic_jpeg_decoder *d, cic_jpeg_info *info) {
    j_decompress_ptr cinfo = &d->cinfo;
    uint64_t w = cinfo->image_width, h = cinfo->image_height;
    memset(info, 0, sizeof *info);
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->components = cinfo->num_components;
    info->jpeg_color_space = cinfo->jpeg_color_space;
    info->is_progressive = cinfo->progressive_mode;
    info->saw_adobe_marker = cinfo->saw_Adobe_marker;
    if (w == 0 || h == 0) {
        snprintf(d->message, sizeof d->message, "the image declares an empty size (%llux%llu)",
                 (unsigned long long)w, (unsigned long long)h);
        return CIC_ERROR;
    }
    if (w > d->limits.max_dimension || h > d->limits.max_dimension) {
        snprintf(d->message, sizeof d->message, "the maximum width or height of %u", d->limits.max_dimension);
        return CIC_TOO_LARGE;
    }
    if (w * h > d->limits.max_source_pixels) {
        snprintf(d->message, sizeof d->message, "the maximum source pixel count of %llu",
                 (unsigned long long)d->limits.max_source_pixels);
        return CIC_TOO_LARGE;
    }
    return CIC_OK;
}

cic_status cic_jpeg_set_scale(cic_jpeg_decoder *d, int scale_denom, cic_jpeg_info *info) {
    if (!d->header_read || d->started) return CIC_BAD_STATE;
    if (setjmp(d->jump)) return d->failure;
    j_decompress_ptr cinfo = &d->cinfo;
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        cinfo->out_color_space = JCS_CMYK; // converted to RGBA row by row
    } else {
        cinfo->out_color_space = JCS_EXT_RGBA;
    }
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
    jpeg_calc_output_dimensions(cinfo);
    info->output_width = cinfo->output_width;
    info->output_height = cinfo->output_height;
    if ((uint64_t)cinfo->output_width * cinfo->output_height > d->limits.max_output_pixels) {
        snprintf(d->message, sizeof d->message, "the maximum decoded pixel count of %llu",
                 (unsigned long long)d->limits.max_output_pixels);
        return CIC_TOO_LARGE;
    }
    d->scaled = 1;
    return CIC_OK;
}

// Converts one row of CMYK (as libjpeg outputs it) to RGBA in place-compatible order.
// Adobe files store inverted CMYK (0 = full ink), which is what Photoshop writes.
static void cmyk_row_to_rgba(const uint8_t *cmyk, uint8_t *rgba, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        rgba[4 * x] = (uint8_t)((c * k + 127) / 255);
        rgba[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgba[4 * x + 2] = (uint8_t)((y * k + 127) / 255);
        rgba[4 * x + 3] = 255;
    }
}

// Reads all output scanlines of the current pass into `pixels`. Inside a setjmp scope.
// Returns CIC_NEED_MORE_DATA if a suspending source ran dry (incremental baseline only).
cic_status cic_jpeg_read_scanlines(cic_jpeg_decoder *d, uint8_t *pixels, size_t bytes_per_row) {
    j_decompress_ptr cinfo = &d->cinfo;
    int cmyk = cinfo->out_color_space == JCS_CMYK;
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[4];
        JDIMENSION first = cinfo->output_scanline;
        int count = 0;
        while (count < 4 && first + (JDIMENSION)count < cinfo->output_height) {
            rows[count] = pixels + (size_t)(first + (JDIMENSION)count) * bytes_per_row;
            count++;
        }
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, (JDIMENSION)count);
        if (read == 0) return CIC_NEED_MORE_DATA;
        if (d->colour != NULL) {
            // Through the profile while the rows are still in the cache (CMYK too: 4 bytes a pixel).
            for (JDIMENSION r = 0; r < read; r++) cic_colour_convert(d->colour, rows[r], bytes_per_row, cinfo->output_width, 1);
        } else if (cmyk) {
            // CMYK and RGBA are both 4 bytes a pixel: convert each row in place.
            for (JDIMENSION r = 0; r < read; r++) cmyk_row_to_rgba(rows[r], rows[r], cinfo->output_width, cinfo->saw_Adobe_marker);
        }
    }
    return CIC_OK;
}

cic_status cic_jpeg_read_header(cic_jpeg_decoder *d, const uint8_t *data, size_t length, cic_jpeg_info *info) {
    if (d->header_read || d->incremental) return CIC_BAD_STATE;
    if (setjmp(d->jump)) return d->failure;
    d->source.next_input_byte = data;
    d->source.bytes_in_buffer = length;
    jpeg_read_header(&d->cinfo, TRUE);
    d->header_read = 1;
    return cic_jpeg_check_header(d, info);
}

cic_status cic_jpeg_decode(cic_jpeg_decoder *d, uint8_t *pixels, size_t bytes_per_row) {
    if (!d->scaled || d->incremental) return CIC_BAD_STATE;
    if (setjmp(d->jump)) return d->failure;
    jpeg_start_decompress(&d->cinfo);
    cic_jpeg_read_scanlines(d, pixels, bytes_per_row);
    jpeg_finish_decompress(&d->cinfo);
    return CIC_OK;
}
