// GIF encoding over giflib into a cic_buffer (its output callback stays here).
#include "CImageCodecs.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CUBE_LEVELS = 6, TRANSPARENT_INDEX = 255 };

/// giflib's output callback: appends to the cic_buffer in UserData.
static int write_bytes(GifFileType *gif, const GifByteType *bytes, int count) {
    return cic_buffer_append(gif->UserData, bytes, (size_t)count) ? count : 0;
}

/// The cube index of one pixel, with a 4×4 Bayer threshold so gradients do not band.
static GifPixelType quantize(const uint8_t *p, uint32_t x, uint32_t y) {
    static const int bayer[4][4] = { { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 } };
    if (p[3] < 128) return TRANSPARENT_INDEX;
    int threshold = (bayer[y & 3][x & 3] * 51) / 16 - 25; // about ±half a cube step (51)
    int index = 0;
    for (int c = 0; c < 3; c++) {
        int v = p[c] + threshold;
        int level = v <= 0 ? 0 : (v >= 255 ? CUBE_LEVELS - 1 : (v * (CUBE_LEVELS - 1) + 127) / 255);
        index = index * CUBE_LEVELS + level;
    }
    return (GifPixelType)index;
}

static cic_status failed(GifFileType *gif, int error, cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    const char *text = GifErrorString(error);
    snprintf(message, CIC_MESSAGE_CAPACITY, "giflib: %s", text ? text : "unknown error");
    if (gif != NULL) { int ignored; EGifCloseFile(gif, &ignored); }
    cic_buffer_free(out);
    return CIC_ERROR;
}

cic_status cic_gif_encode(const uint8_t *const *frames, const int *delays_cs, int count,
                          uint32_t width, uint32_t height, size_t bytes_per_row, int loop_count,
                          cic_buffer *out, char message[CIC_MESSAGE_CAPACITY]) {
    message[0] = 0;
    if (count < 1 || width == 0 || height == 0 || width > 65535 || height > 65535) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "a GIF needs at least one frame of 1...65535 pixels a side");
        return CIC_ERROR;
    }
    int error = 0;
    GifFileType *gif = EGifOpen(out, write_bytes, &error);
    if (gif == NULL) return failed(NULL, error, out, message);
    ColorMapObject *map = GifMakeMapObject(256, NULL);
    if (map == NULL) return failed(gif, E_GIF_ERR_NOT_ENOUGH_MEM, out, message);
    for (int i = 0; i < 256; i++) {
        int r = i / 36, g = (i / 6) % 6, b = i % 6;
        GifColorType c = { 0, 0, 0 };
        if (i < 216) { c.Red = (GifByteType)(r * 51); c.Green = (GifByteType)(g * 51); c.Blue = (GifByteType)(b * 51); }
        map->Colors[i] = c;
    }
    EGifSetGifVersion(gif, true);
    int status = EGifPutScreenDesc(gif, (int)width, (int)height, 8, 0, map);
    GifFreeMapObject(map);
    if (status == GIF_ERROR) return failed(gif, gif->Error, out, message);
    if (loop_count >= 0) {
        GifByteType loop[3] = { 1, (GifByteType)(loop_count & 0xFF), (GifByteType)((loop_count >> 8) & 0xFF) };
        if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR
            || EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR
            || EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR
            || EGifPutExtensionTrailer(gif) == GIF_ERROR) return failed(gif, gif->Error, out, message);
    }
    GifPixelType *line = malloc(width);
    if (line == NULL) return failed(gif, E_GIF_ERR_NOT_ENOUGH_MEM, out, message);
    for (int f = 0; f < count; f++) {
        // Disposal 2 (restore to background) so transparent pixels of a frame show through.
        int delay = delays_cs[f] < 0 ? 0 : (delays_cs[f] > 65535 ? 65535 : delays_cs[f]);
        GifByteType control[4] = { (2 << 2) | 1, (GifByteType)(delay & 0xFF), (GifByteType)(delay >> 8), TRANSPARENT_INDEX };
        if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control) == GIF_ERROR
            || EGifPutImageDesc(gif, 0, 0, (int)width, (int)height, false, NULL) == GIF_ERROR) {
            free(line);
            return failed(gif, gif->Error, out, message);
        }
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *row = frames[f] + y * bytes_per_row;
            for (uint32_t x = 0; x < width; x++) line[x] = quantize(row + x * 4, x, y);
            if (EGifPutLine(gif, line, (int)width) == GIF_ERROR) {
                free(line);
                return failed(gif, gif->Error, out, message);
            }
        }
    }
    free(line);
    if (EGifCloseFile(gif, &error) == GIF_ERROR) {
        snprintf(message, CIC_MESSAGE_CAPACITY, "giflib: %s", GifErrorString(error));
        cic_buffer_free(out);
        return CIC_ERROR;
    }
    return CIC_OK;
}
