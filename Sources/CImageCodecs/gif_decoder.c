// GIF decoding over giflib's record-level API, compositing each frame onto the canvas.
#include "gif_internal.h"
#include "limits_internal.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cic_gif_decoder {
    GifFileType *gif;
    const uint8_t *data;
    size_t length, offset;
    uint32_t width, height;
    uint8_t *canvas;          // width * height * 4, straight alpha
    uint8_t *saved;           // the canvas before a frame with disposal 3 (restore previous)
    uint8_t *line;            // one row of colour indices
    // The previous frame, whose disposal applies before the next one is drawn.
    int previous_disposal;
    int previous_left, previous_top, previous_width, previous_height;
    int finished;
    uint64_t max_frame_pixels;
    // Pixels all frames may still decode (their rectangles, inside the canvas or not): bounds
    // the work of frames larger than the canvas, which the canvas-based limits do not see.
    uint64_t pixel_budget;
};

/// giflib's input callback: reads from the in-memory file.
static int read_bytes(GifFileType *gif, GifByteType *buffer, int count) {
    cic_gif_decoder *d = gif->UserData;
    size_t available = d->length - d->offset;
    size_t n = (size_t)count < available ? (size_t)count : available;
    memcpy(buffer, d->data + d->offset, n);
    d->offset += n;
    return (int)n;
}

static cic_status gif_failure(int error, char message[CIC_MESSAGE_CAPACITY]) {
    const char *text = GifErrorString(error);
    snprintf(message, CIC_MESSAGE_CAPACITY, "giflib: %s", text ? text : "unknown error");
    return error == D_GIF_ERR_NOT_ENOUGH_MEM ? CIC_MEMORY_LIMIT : CIC_ERROR;
}

cic_gif_decoder *cic_gif_open(const uint8_t *data, size_t length, cic_limits limits, int all_frames,
                              cic_gif_info *info, cic_status *status, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    memset(info, 0, sizeof *info);
    cic_gif_walk(data, length, all_frames ? limits.max_frames : UINT32_MAX, info);
    cic_gif_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) { *status = CIC_MEMORY_LIMIT; snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory"); return NULL; }
    d->data = data;
    d->length = length;
    d->max_frame_pixels = limits.max_source_pixels;
    d->pixel_budget = all_frames ? limits.max_animation_pixels : limits.max_source_pixels;
    int error = 0;
    d->gif = DGifOpen(d, read_bytes, &error);
    if (d->gif == NULL) {
        *status = gif_failure(error, message);
        free(d);
        return NULL;
    }
    info->width = d->width = (uint32_t)d->gif->SWidth;
    info->height = d->height = (uint32_t)d->gif->SHeight;
    *status = cic_check_declared_size(limits, d->width, d->height, message);
    if (*status == CIC_OK) *status = cic_check_output_size(limits, d->width, d->height, message);
    if (*status == CIC_OK && all_frames) *status = cic_check_animation(limits, info->frame_count, d->width, d->height, message);
    if (*status == CIC_OK && info->frame_count == 0) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the file has no image");
        *status = CIC_ERROR;
    }
    if (*status == CIC_OK) {
        size_t bytes = (size_t)d->width * d->height * 4;
        d->canvas = calloc(bytes, 1);
        if (d->canvas == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory for the canvas"); *status = CIC_MEMORY_LIMIT; }
    }
    if (*status != CIC_OK) { cic_gif_destroy(d); return NULL; }
    return d;
}

void cic_gif_destroy(cic_gif_decoder *d) {
    if (d == NULL) return;
    int error = 0;
    if (d->gif) DGifCloseFile(d->gif, &error);
    free(d->canvas);
    free(d->saved);
    free(d->line);
    free(d);
}

/// Clears a rectangle of the canvas to transparent (disposal 2: what browsers do for "restore
/// to background").
static void clear_rect(cic_gif_decoder *d, int left, int top, int width, int height) {
    for (int y = top; y < top + height; y++) {
        if (y < 0 || (uint32_t)y >= d->height) continue;
        int x0 = left < 0 ? 0 : left;
        int x1 = left + width > (int)d->width ? (int)d->width : left + width;
        if (x1 > x0) memset(d->canvas + ((size_t)y * d->width + (size_t)x0) * 4, 0, (size_t)(x1 - x0) * 4);
    }
}

static void dispose_previous(cic_gif_decoder *d) {
    if (d->previous_disposal == 2) {
        clear_rect(d, d->previous_left, d->previous_top, d->previous_width, d->previous_height);
    } else if (d->previous_disposal == 3 && d->saved != NULL) {
        memcpy(d->canvas, d->saved, (size_t)d->width * d->height * 4);
    }
}

/// Decodes one frame's rows onto the canvas.
static cic_status draw_frame(cic_gif_decoder *d, int transparent_index, char message[CIC_MESSAGE_CAPACITY]) {
    GifImageDesc *desc = &d->gif->Image;
    ColorMapObject *map = desc->ColorMap ? desc->ColorMap : d->gif->SColorMap;
    if (map == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "giflib: the frame has no colour map"); return CIC_ERROR; }
    if (desc->Width <= 0 || desc->Height <= 0) return CIC_OK;
    uint64_t area = (uint64_t)desc->Width * (uint64_t)desc->Height;
    if (area > d->max_frame_pixels) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum source pixel count of %llu (a frame declares %dx%d)",
                 (unsigned long long)d->max_frame_pixels, desc->Width, desc->Height);
        return CIC_TOO_LARGE;
    }
    if (area > d->pixel_budget) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "the maximum animation pixel count of the frames' rectangles together");
        return CIC_TOO_LARGE;
    }
    d->pixel_budget -= area;
    free(d->line);
    d->line = malloc((size_t)desc->Width);
    if (d->line == NULL) { snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory for a row"); return CIC_MEMORY_LIMIT; }
    static const int interlaced_start[4] = { 0, 4, 2, 1 }, interlaced_step[4] = { 8, 8, 4, 2 };
    int passes = desc->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = desc->Interlace ? interlaced_start[pass] : 0, step = desc->Interlace ? interlaced_step[pass] : 1;
        for (int row = start; row < desc->Height; row += step) {
            if (DGifGetLine(d->gif, d->line, desc->Width) == GIF_ERROR) return gif_failure(d->gif->Error, message);
            int y = desc->Top + row;
            if (y < 0 || (uint32_t)y >= d->height) continue;
            uint8_t *out = d->canvas + (size_t)y * d->width * 4;
            for (int column = 0; column < desc->Width; column++) {
                int x = desc->Left + column;
                if (x < 0 || (uint32_t)x >= d->width) continue;
                int index = d->line[column];
                if (index == transparent_index) continue;
                uint8_t *p = out + (size_t)x * 4;
                if (index < map->ColorCount) {
                    GifColorType c = map->Colors[index];
                    p[0] = c.Red; p[1] = c.Green; p[2] = c.Blue; p[3] = 255;
                } else { // an index past the palette: black, as browsers draw it
                    p[0] = p[1] = p[2] = 0; p[3] = 255;
                }
            }
        }
    }
    return CIC_OK;
}

cic_status cic_gif_next_frame(cic_gif_decoder *d, uint8_t *pixels, size_t bytes_per_row,
                              uint32_t *delay_cs, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    int disposal = 0, transparent_index = -1;
    *delay_cs = 0;
    while (!d->finished) {
        GifRecordType type;
        if (DGifGetRecordType(d->gif, &type) == GIF_ERROR) return gif_failure(d->gif->Error, message);
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(d->gif, &code, &block) == GIF_ERROR) return gif_failure(d->gif->Error, message);
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4) {
                disposal = (block[1] >> 2) & 7;
                *delay_cs = (uint32_t)(block[2] | block[3] << 8);
                transparent_index = (block[1] & 1) ? block[4] : -1;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(d->gif, &block) == GIF_ERROR) return gif_failure(d->gif->Error, message);
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(d->gif) == GIF_ERROR) return gif_failure(d->gif->Error, message);
            dispose_previous(d);
            size_t bytes = (size_t)d->width * d->height * 4;
            if (disposal == 3) {
                if (d->saved == NULL && (d->saved = malloc(bytes)) == NULL) {
                    snprintf(message, CIC_MESSAGE_CAPACITY, "out of memory for the canvas");
                    return CIC_MEMORY_LIMIT;
                }
                memcpy(d->saved, d->canvas, bytes);
            }
            cic_status status = draw_frame(d, transparent_index, message);
            if (status != CIC_OK) return status;
            GifImageDesc *desc = &d->gif->Image;
            d->previous_disposal = disposal;
            d->previous_left = desc->Left; d->previous_top = desc->Top;
            d->previous_width = desc->Width; d->previous_height = desc->Height;
            for (uint32_t y = 0; y < d->height; y++) {
                memcpy(pixels + y * bytes_per_row, d->canvas + (size_t)y * d->width * 4, (size_t)d->width * 4);
            }
            return CIC_OK;
        } else if (type == TERMINATE_RECORD_TYPE) {
            d->finished = 1;
        } else {
            snprintf(message, CIC_MESSAGE_CAPACITY, "giflib: unexpected record type");
            return CIC_ERROR;
        }
    }
    snprintf(message, CIC_MESSAGE_CAPACITY, "the animation has no more frames");
    return CIC_BAD_STATE;
}
