// Incremental JPEG decoding: bytes are appended as they arrive; libjpeg's suspending source
// re-reads from where it stopped; progressive files are consumed in buffered-image mode so each
// completed scan can be rendered as a preview. Every entry point sets its own setjmp.
#include "CImageCodecs.h"
#include "jpeg_decoder_internal.h"

#include <stdlib.h>
#include <string.h>


// Points libjpeg's source at the unconsumed part of the accumulated bytes.
static void sync_source_in(cic_jpeg_decoder *d) {
    if (d->consumed > d->length) { // a pending skip beyond what had arrived
        d->source.next_input_byte = d->bytes + d->length;
        d->source.bytes_in_buffer = 0;
        return;
    }
    d->source.next_input_byte = d->bytes + d->consumed;
    d->source.bytes_in_buffer = d->length - d->consumed;
}

static void sync_source_out(cic_jpeg_decoder *d) {
    size_t position = (size_t)(d->source.next_input_byte - d->bytes);
    if (position > d->consumed || d->consumed <= d->length) d->consumed = position;
}

cic_status cic_jpeg_append(cic_jpeg_decoder *d, const uint8_t *data, size_t length) {
    if (d->header_read && !d->incremental) return CIC_BAD_STATE;
    d->incremental = 1;
    if (length == 0) return CIC_OK;
    if (d->length + length > d->capacity) {
        size_t capacity = d->capacity ? d->capacity : 65536;
        while (capacity < d->length + length) capacity *= 2;
        uint8_t *grown = realloc(d->bytes, capacity);
        if (grown == NULL) {
            snprintf(d->message, sizeof d->message, "out of memory buffering %zu bytes", d->length + length);
            return CIC_ERROR;
        }
        d->bytes = grown;
        d->capacity = capacity;
    }
    memcpy(d->bytes + d->length, data, length);
    d->length += length;
    return CIC_OK;
}

const uint8_t *cic_jpeg_buffered_bytes(const cic_jpeg_decoder *d, size_t *length) {
    *length = d->length;
    return d->bytes;
}

int cic_jpeg_is_multiscan(const cic_jpeg_decoder *d) { return d->buffered; }

cic_status cic_jpeg_incremental_header(cic_jpeg_decoder *d, cic_jpeg_info *info) {
    if (d->header_read) return CIC_BAD_STATE;
    d->incremental = 1;
    if (setjmp(d->jump)) return d->failure;
    sync_source_in(d);
    int result = jpeg_read_header(&d->cinfo, TRUE);
    sync_source_out(d);
    if (result == JPEG_SUSPENDED) return CIC_NEED_MORE_DATA;
    d->header_read = 1;
    // libjpeg's arithmetic decoder cannot suspend: such files are decoded once complete.
    d->buffered = jpeg_has_multiple_scans(&d->cinfo) && !d->cinfo.arith_code;
    return cic_jpeg_check_header(d, info);
}

cic_status cic_jpeg_consume(cic_jpeg_decoder *d, int *completed_scans, int *reached_end) {
    *completed_scans = 0;
    *reached_end = d->reached_end;
    if (!d->scaled) return CIC_BAD_STATE;
    if (setjmp(d->jump)) return d->failure;
    j_decompress_ptr cinfo = &d->cinfo;
    if (!d->buffered) {
        // Baseline: nothing to show before the end; find the end without decoding by scanning
        // for EOI from the tail of what arrived (the final render decodes everything).
        if (d->length >= 2 && d->bytes[d->length - 2] == 0xFF && d->bytes[d->length - 1] == JPEG_EOI) d->reached_end = 1;
        *reached_end = d->reached_end;
        return CIC_OK;
    }
    sync_source_in(d);
    if (!d->started) {
        cinfo->buffered_image = TRUE;
        if (!jpeg_start_decompress(cinfo)) { sync_source_out(d); return CIC_OK; }
        d->started = 1;
    }
    for (;;) {
        int result = jpeg_consume_input(cinfo);
        if (result == JPEG_SUSPENDED) break;
        if (result == JPEG_REACHED_EOI) { d->reached_end = 1; break; }
        if (result == JPEG_REACHED_SOS) cic_jpeg_check_scan_limit((j_common_ptr)cinfo);
    }
    sync_source_out(d);
    *reached_end = d->reached_end;
    // While a scan is being read, input_scan_number names it; the ones before are complete.
    *completed_scans = d->reached_end ? cinfo->input_scan_number : cinfo->input_scan_number - 1;
    if (*completed_scans < 0) *completed_scans = 0;
    return CIC_OK;
}

cic_status cic_jpeg_render_preview(cic_jpeg_decoder *d, uint8_t *pixels, size_t bytes_per_row) {
    if (!d->buffered || !d->started) return CIC_BAD_STATE;
    if (setjmp(d->jump)) return d->failure;
    j_decompress_ptr cinfo = &d->cinfo;
    int scan = d->reached_end ? cinfo->input_scan_number : cinfo->input_scan_number - 1;
    if (scan < 1) return CIC_NEED_MORE_DATA;
    jpeg_start_output(cinfo, scan);
    cic_status status = cic_jpeg_read_scanlines(d, pixels, bytes_per_row);
    if (status != CIC_OK) return status;
    jpeg_finish_output(cinfo);
    return CIC_OK;
}

cic_status cic_jpeg_render_final(cic_jpeg_decoder *d, uint8_t *pixels, size_t bytes_per_row) {
    if (!d->scaled) return CIC_BAD_STATE;
    if (setjmp(d->jump)) return d->failure;
    j_decompress_ptr cinfo = &d->cinfo;
    if (!d->buffered) {
        // Baseline: decode everything that arrived in one pass; a missing tail is concealed
        // (a warning) exactly as in a one-shot decode.
        d->incremental = 0;
        sync_source_in(d);
        jpeg_start_decompress(cinfo);
        cic_jpeg_read_scanlines(d, pixels, bytes_per_row);
        jpeg_finish_decompress(cinfo);
        return CIC_OK;
    }
    // Progressive: drain what is left, with end-of-data concealment like a one-shot decode.
    d->incremental = 0;
    sync_source_in(d);
    if (!d->started) {
        cinfo->buffered_image = TRUE;
        jpeg_start_decompress(cinfo);
        d->started = 1;
    }
    while (!d->reached_end) {
        int result = jpeg_consume_input(cinfo);
        if (result == JPEG_REACHED_EOI) d->reached_end = 1;
        if (result == JPEG_REACHED_SOS) cic_jpeg_check_scan_limit((j_common_ptr)cinfo);
    }
    jpeg_start_output(cinfo, cinfo->input_scan_number);
    cic_jpeg_read_scanlines(d, pixels, bytes_per_row);
    jpeg_finish_output(cinfo);
    jpeg_finish_decompress(cinfo);
    return CIC_OK;
}
