// Shared between jpeg_decoder.c (handle, managers, one-shot) and jpeg_incremental.c. Private to
// the C target: not part of CImageCodecs.h.
#ifndef CIC_JPEG_DECODER_INTERNAL_H
#define CIC_JPEG_DECODER_INTERNAL_H

#include "CImageCodecs.h"
#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

struct cic_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error_manager;
    struct jpeg_source_mgr source;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    cic_limits limits;
    int strict;
    int created;
    int warnings;
    int scans_seen;
    cic_status failure; // what a longjmp means: CIC_ERROR, CIC_TOO_LARGE or CIC_MEMORY_LIMIT
    char message[CIC_MESSAGE_CAPACITY];  // the error that ended decoding
    char warning[CIC_MESSAGE_CAPACITY];  // the first warning

    // Incremental state: all bytes received so far (libjpeg's suspending source re-reads from
    // the point it suspended, so unconsumed bytes must stay available).
    int incremental;
    uint8_t *bytes;
    size_t length, capacity;
    size_t consumed;            // bytes libjpeg has taken from `bytes`
    int header_read;
    int scaled;                 // output colour space and scale chosen
    int started;                // jpeg_start_decompress done (buffered mode)
    int buffered;               // progressive file decoded in buffered-image mode
    int reached_end;

    // Colour: the transform rows go through as they are read (NULL: none), and the reassembled
    // ICC profile of the APP2 chunks.
    cic_colour_transform *colour;
    uint8_t *icc;
    size_t icc_length;
};

/// Fills `info` with the declared facts and checks the source limits. Inside a setjmp scope.
cic_status cic_jpeg_check_header(cic_jpeg_decoder *d, cic_jpeg_info *info);
/// Reads all output scanlines of the current pass into `pixels` (CMYK converted to RGBA).
/// Inside a setjmp scope. CIC_NEED_MORE_DATA if a suspending source ran dry.
cic_status cic_jpeg_read_scanlines(cic_jpeg_decoder *d, uint8_t *pixels, size_t bytes_per_row);
/// The progress monitor: fails (longjmp) once the file has more scans than the limit.
void cic_jpeg_check_scan_limit(j_common_ptr cinfo);

#endif
