// JPEG colour: the ICC profile of the APP2 `ICC_PROFILE` segments, reassembled and checked here
// (rather than with jpeg_read_icc_profile, which reports a malformed set as a libjpeg warning:
// that would fail strict decoding and mark the pixels as made up, when only the colour is lost).
#include "jpeg_decoder_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ICC_MARKER (JPEG_APP0 + 2)
#define ICC_HEADER_LENGTH 14 // "ICC_PROFILE\0", sequence number, count

static int is_icc_marker(jpeg_saved_marker_ptr m) {
    return m->marker == ICC_MARKER && m->data_length >= ICC_HEADER_LENGTH
        && memcmp(m->data, "ICC_PROFILE", 12) == 0;
}

cic_status cic_jpeg_icc_profile(cic_jpeg_decoder *d, const uint8_t **icc, size_t *length,
                                char reason[CIC_MESSAGE_CAPACITY]) {
    *icc = NULL;
    *length = 0;
    reason[0] = 0;
    if (!d->header_read) return CIC_BAD_STATE;
    if (d->icc != NULL) {
        *icc = d->icc;
        *length = d->icc_length;
        return CIC_OK;
    }
    // First pass: the count every chunk must agree on, and where each sequence number is.
    jpeg_saved_marker_ptr chunks[256] = { 0 };
    int count = 0, seen = 0;
    for (jpeg_saved_marker_ptr m = d->cinfo.marker_list; m != NULL; m = m->next) {
        if (!is_icc_marker(m)) continue;
        int sequence = m->data[12], declared = m->data[13];
        seen++;
        if (declared == 0) { snprintf(reason, CIC_MESSAGE_CAPACITY, "an ICC_PROFILE chunk declares a count of 0"); return CIC_ERROR; }
        if (count == 0) count = declared;
        if (declared != count) {
            snprintf(reason, CIC_MESSAGE_CAPACITY, "the ICC_PROFILE chunks disagree on their count (%d and %d)", count, declared);
            return CIC_ERROR;
        }
        if (sequence == 0 || sequence > count) {
            snprintf(reason, CIC_MESSAGE_CAPACITY, "an ICC_PROFILE chunk has sequence number %d of %d", sequence, count);
            return CIC_ERROR;
        }
        if (chunks[sequence] != NULL) {
            snprintf(reason, CIC_MESSAGE_CAPACITY, "the ICC_PROFILE chunk %d of %d appears twice", sequence, count);
            return CIC_ERROR;
        }
        chunks[sequence] = m;
    }
    if (seen == 0) return CIC_OK;
    size_t total = 0;
    for (int i = 1; i <= count; i++) {
        if (chunks[i] == NULL) {
            snprintf(reason, CIC_MESSAGE_CAPACITY, "the ICC_PROFILE chunk %d of %d is missing", i, count);
            return CIC_ERROR;
        }
        total += chunks[i]->data_length - ICC_HEADER_LENGTH;
    }
    if (total == 0) { snprintf(reason, CIC_MESSAGE_CAPACITY, "the ICC_PROFILE chunks are empty"); return CIC_ERROR; }
    // Chunks are joined in sequence order, whatever order the segments came in.
    uint8_t *profile = malloc(total);
    if (profile == NULL) { snprintf(reason, CIC_MESSAGE_CAPACITY, "out of memory for the ICC profile"); return CIC_ERROR; }
    size_t offset = 0;
    for (int i = 1; i <= count; i++) {
        size_t part = chunks[i]->data_length - ICC_HEADER_LENGTH;
        memcpy(profile + offset, chunks[i]->data + ICC_HEADER_LENGTH, part);
        offset += part;
    }
    d->icc = profile;
    d->icc_length = total;
    *icc = profile;
    *length = total;
    return CIC_OK;
}

cic_colour_input cic_jpeg_colour_input(const cic_jpeg_decoder *d) {
    switch (d->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: return CIC_COLOUR_INPUT_GRAY;
    case JCS_CMYK: case JCS_YCCK:
        // Adobe's files store inverted CMYK (0 = full ink), which is what Photoshop writes.
        return d->cinfo.saw_Adobe_marker ? CIC_COLOUR_INPUT_CMYK_INVERTED : CIC_COLOUR_INPUT_CMYK;
    default: return CIC_COLOUR_INPUT_RGB;
    }
}

cic_status cic_jpeg_set_colour(cic_jpeg_decoder *d, cic_colour_transform *transform) {
    if (!d->header_read || d->started) return CIC_BAD_STATE;
    cic_colour_transform_retain(transform);
    cic_colour_transform_release(d->colour);
    d->colour = transform;
    return CIC_OK;
}
