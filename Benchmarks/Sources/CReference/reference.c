#include "CReference.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <jpeglib.h>
#include <png.h>

typedef struct { struct jpeg_error_mgr manager; jmp_buf jump; } ref_errors;

static void ref_error_exit(j_common_ptr cinfo) { longjmp(((ref_errors *)cinfo->err)->jump, 1); }

/// The DCT scale denominator that covers `cover_width`×`cover_height` from `width`×`height` most
/// cheaply, on whole blocks: the largest of 8, 4 and 2 whose output still covers it, else 1.
/// libjpeg-turbo 2.1's reduced IDCTs are SIMD for 1/2, 1/4 and 1/8 and scalar for other M/8, so
/// those three are the cheap ones (3/8 costs more than 1/2 here); Comet's decoder follows the
/// same rule.
static int covering_denominator(uint32_t width, uint32_t height, uint32_t cover_width, uint32_t cover_height) {
    static const int candidates[] = {8, 4, 2};
    for (int i = 0; i < 3; i++) {
        int d = candidates[i];
        if (width / d >= cover_width && height / d >= cover_height) return d;
    }
    return 1;
}

/// What the Lanczos3 resize asks the decoder to cover for an output side: 1.5 times it,
/// rounded up (the filter's decoding headroom, as Comet asks).
static uint32_t headroom(uint32_t side) { return (uint32_t)ceil(side * 1.5); }

/// How much Comet's resize sharpens after a 1/`d` decode to undo the reduced IDCT's box-like
/// softness: (1 − 1/d²)/40, 0 at full size.
static double sharpening(int d) { return d > 1 ? (1 - 1.0 / ((double)d * d)) / 40 : 0; }

/// Decodes a JPEG in memory to RGBA8 into a malloc'd buffer (NULL on error): at
/// scale_num/scale_denom, or, when `cover_side` is not 0, at the cheapest scale that covers
/// `cover_side`² (the denominator in `*chosen`, the file's size in `*file_width`/`*file_height`).
static uint8_t *decode_rgba_covering(const uint8_t *data, size_t length, unsigned scale_num, unsigned scale_denom,
                                     uint32_t cover_side, uint32_t *width, uint32_t *height, int *chosen,
                                     uint32_t *file_width, uint32_t *file_height) {
    struct jpeg_decompress_struct cinfo;
    ref_errors errors;
    uint8_t *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = ref_error_exit;
    if (setjmp(errors.jump)) { jpeg_destroy_decompress(&cinfo); free(pixels); return NULL; }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.scale_num = cover_side ? 1 : scale_num;
    cinfo.scale_denom = cover_side ? (unsigned)covering_denominator(cinfo.image_width, cinfo.image_height, cover_side, cover_side) : scale_denom;
    *chosen = (int)cinfo.scale_denom;
    *file_width = cinfo.image_width;
    *file_height = cinfo.image_height;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    pixels = malloc(stride * cinfo.output_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return pixels;
}

static uint8_t *decode_rgba(const uint8_t *data, size_t length, unsigned scale_num, unsigned scale_denom,
                            uint32_t cover_side, uint32_t *width, uint32_t *height) {
    int chosen;
    uint32_t file_width, file_height;
    return decode_rgba_covering(data, length, scale_num, scale_denom, cover_side, width, height, &chosen, &file_width,
                                &file_height);
}

uint64_t ref_jpeg_fill_encode(const uint8_t *data, size_t length, uint32_t fill_width, uint32_t fill_height, int quality) {
    struct jpeg_decompress_struct probe;
    ref_errors errors;
    probe.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = ref_error_exit;
    if (setjmp(errors.jump)) { jpeg_destroy_decompress(&probe); return 0; }
    jpeg_create_decompress(&probe);
    jpeg_mem_src(&probe, data, (unsigned long)length);
    jpeg_read_header(&probe, TRUE);
    const int d = covering_denominator(probe.image_width, probe.image_height, headroom(fill_width), headroom(fill_height));
    // The file's sides in decoded pixels (fractional when they are not a multiple of d): the
    // fill is framed on them, and only whole blocks are read, as Comet does.
    const double exact_width = (double)probe.image_width / d, exact_height = (double)probe.image_height / d;
    jpeg_destroy_decompress(&probe);

    uint32_t width = 0, height = 0;
    uint8_t *pixels = decode_rgba(data, length, 1, (unsigned)d, 0, &width, &height);
    if (!pixels) return 0;
    const uint32_t whole_width = d > 1 && width > exact_width ? (uint32_t)exact_width : width;
    const uint32_t whole_height = d > 1 && height > exact_height ? (uint32_t)exact_height : height;
    // The centred region of the decoded image with the output's aspect ratio.
    const double scale = (double)fill_width / exact_width > (double)fill_height / exact_height
                             ? (double)fill_width / exact_width
                             : (double)fill_height / exact_height;
    const double crop_width = fill_width / scale, crop_height = fill_height / scale;
    uint8_t *thumbnail = malloc((size_t)fill_width * fill_height * 4);
    ref_lanczos_resample(pixels, (size_t)width * 4, whole_width, whole_height, (exact_width - crop_width) / 2,
                         (exact_height - crop_height) / 2, crop_width, crop_height, fill_width, fill_height,
                         sharpening(d), thumbnail);
    free(pixels);

    struct jpeg_compress_struct cinfo;
    unsigned char *volatile encoded = NULL;
    unsigned long encoded_size = 0;
    cinfo.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = ref_error_exit;
    if (setjmp(errors.jump)) { jpeg_destroy_compress(&cinfo); free(thumbnail); free(encoded); return 0; }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&encoded, &encoded_size);
    cinfo.image_width = fill_width;
    cinfo.image_height = fill_height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = thumbnail + (size_t)cinfo.next_scanline * fill_width * 4;
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(thumbnail);
    free(encoded);
    return encoded_size;
}

uint64_t ref_jpeg_decode_scaled(const uint8_t *data, size_t length, unsigned scale_num, unsigned scale_denom) {
    uint32_t width = 0, height = 0;
    uint8_t *pixels = decode_rgba(data, length, scale_num, scale_denom, 0, &width, &height);
    if (!pixels) return 0;
    free(pixels);
    return (uint64_t)width * height;
}

uint64_t ref_jpeg_decode(const uint8_t *data, size_t length, int scale_denom) {
    return ref_jpeg_decode_scaled(data, length, 1, (unsigned)scale_denom);
}

uint64_t ref_jpeg_thumbnail(const uint8_t *data, size_t length, uint32_t side, uint8_t *destination) {
    uint32_t width = 0, height = 0, file_width = 0, file_height = 0;
    int d = 1;
    uint8_t *pixels = decode_rgba_covering(data, length, 1, 1, headroom(side), &width, &height, &d, &file_width,
                                           &file_height);
    if (!pixels) return 0;
    // Framed on the file's sides in decoded pixels, reading whole blocks only (as Comet).
    const double exact_width = (double)file_width / d, exact_height = (double)file_height / d;
    const uint32_t whole_width = d > 1 ? file_width / d : width, whole_height = d > 1 ? file_height / d : height;
    const double shorter = exact_width < exact_height ? exact_width : exact_height;
    uint64_t count = 0;
    if (shorter >= side) {
        ref_lanczos_resample(pixels, (size_t)width * 4, whole_width, whole_height, (exact_width - shorter) / 2.0,
                             (exact_height - shorter) / 2.0, shorter, shorter, side, side, sharpening(d), destination);
        count = (uint64_t)side * side;
    }
    free(pixels);
    return count;
}

/// The weights of one output pixel along one axis: the source pixels its box covers, each by
/// the fraction of it inside the box, in 16.16 fixed point (summing to 65536).
typedef struct { uint32_t first; uint32_t count; uint32_t weights[8]; } ref_span;

static void area_spans(uint32_t source, uint32_t output, ref_span *spans) {
    double scale = (double)source / output;
    for (uint32_t o = 0; o < output; o++) {
        double start = o * scale, end = (o + 1) * scale;
        uint32_t first = (uint32_t)start, last = (uint32_t)(end - 1e-9);
        if (last >= source) last = source - 1;
        uint32_t n = last - first + 1;
        if (n > 8) n = 8;
        uint32_t total = 0;
        for (uint32_t i = 0; i < n; i++) {
            double lo = first + i > start ? first + i : start, hi = first + i + 1 < end ? first + i + 1 : end;
            uint32_t w = (uint32_t)((hi - lo) / scale * 65536.0 + 0.5);
            spans[o].weights[i] = w;
            total += w;
        }
        spans[o].weights[n - 1] += 65536 - total;
        spans[o].first = first;
        spans[o].count = n;
    }
}

void ref_area_resample(const uint8_t *source, size_t source_stride, uint32_t x0, uint32_t y0, uint32_t source_width,
                       uint32_t source_height, uint32_t out_width, uint32_t out_height, uint8_t *destination) {
    ref_span *columns = malloc(sizeof(ref_span) * out_width), *rows = malloc(sizeof(ref_span) * out_height);
    uint32_t *line = malloc(sizeof(uint32_t) * (size_t)out_width * 4);
    uint8_t *horizontal = malloc((size_t)out_width * 4 * source_height);
    area_spans(source_width, out_width, columns);
    area_spans(source_height, out_height, rows);
    for (uint32_t y = 0; y < source_height; y++) {
        const uint8_t *row = source + (size_t)(y0 + y) * source_stride + (size_t)x0 * 4;
        uint8_t *out = horizontal + (size_t)y * out_width * 4;
        for (uint32_t x = 0; x < out_width; x++) {
            uint32_t sum[4] = {0, 0, 0, 0};
            const uint8_t *p = row + (size_t)columns[x].first * 4;
            for (uint32_t i = 0; i < columns[x].count; i++)
                for (int c = 0; c < 4; c++) sum[c] += p[i * 4 + c] * columns[x].weights[i];
            for (int c = 0; c < 4; c++) out[x * 4 + c] = (uint8_t)((sum[c] + 32768) >> 16);
        }
    }
    for (uint32_t y = 0; y < out_height; y++) {
        for (size_t i = 0; i < (size_t)out_width * 4; i++) line[i] = 0;
        for (uint32_t k = 0; k < rows[y].count; k++) {
            const uint8_t *in = horizontal + (size_t)(rows[y].first + k) * out_width * 4;
            uint32_t w = rows[y].weights[k];
            for (size_t i = 0; i < (size_t)out_width * 4; i++) line[i] += in[i] * w;
        }
        uint8_t *out = destination + (size_t)y * out_width * 4;
        for (size_t i = 0; i < (size_t)out_width * 4; i++) out[i] = (uint8_t)((line[i] + 32768) >> 16);
    }
    free(columns); free(rows); free(line); free(horizontal);
}

uint64_t ref_png_decode(const uint8_t *data, size_t length) {
    png_image image = { .version = PNG_IMAGE_VERSION };
    if (!png_image_begin_read_from_memory(&image, data, length)) return 0;
    image.format = PNG_FORMAT_RGBA;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *pixels = malloc(size);
    int ok = png_image_finish_read(&image, NULL, pixels, 0, NULL);
    uint64_t count = ok ? (uint64_t)image.width * image.height : 0;
    png_image_free(&image);
    free(pixels);
    return count;
}

void ref_area_average(const uint8_t *source, size_t source_stride, uint32_t x0, uint32_t y0,
                      uint32_t out_width, uint32_t out_height, uint32_t factor, uint8_t *destination) {
    uint32_t area = factor * factor;
    for (uint32_t y = 0; y < out_height; y++) {
        for (uint32_t x = 0; x < out_width; x++) {
            uint32_t sum[4] = {0, 0, 0, 0};
            for (uint32_t dy = 0; dy < factor; dy++) {
                const uint8_t *row = source + (size_t)(y0 + y * factor + dy) * source_stride + (size_t)(x0 + x * factor) * 4;
                for (uint32_t dx = 0; dx < factor; dx++) {
                    for (int c = 0; c < 4; c++) sum[c] += row[dx * 4 + c];
                }
            }
            uint8_t *out = destination + ((size_t)y * out_width + x) * 4;
            for (int c = 0; c < 4; c++) out[c] = (uint8_t)((sum[c] + area / 2) / area);
        }
    }
}

static void box_pass(const uint8_t *in, uint8_t *out, uint32_t count, uint32_t lines, size_t step, size_t line_step, uint32_t radius) {
    uint32_t window = 2 * radius + 1;
    for (uint32_t line = 0; line < lines; line++) {
        const uint8_t *src = in + line * line_step;
        uint8_t *dst = out + line * line_step;
        for (int c = 0; c < 4; c++) {
            uint32_t sum = 0;
            for (int32_t i = -(int32_t)radius; i <= (int32_t)radius; i++) {
                int32_t k = i < 0 ? 0 : (i >= (int32_t)count ? (int32_t)count - 1 : i);
                sum += src[k * step + c];
            }
            for (uint32_t i = 0; i < count; i++) {
                dst[i * step + c] = (uint8_t)((sum + window / 2) / window);
                int32_t add = (int32_t)i + (int32_t)radius + 1, sub = (int32_t)i - (int32_t)radius;
                if (add >= (int32_t)count) add = (int32_t)count - 1;
                if (sub < 0) sub = 0;
                sum += src[add * step + c];
                sum -= src[sub * step + c];
            }
        }
    }
}

void ref_box_blur(uint8_t *pixels, uint32_t width, uint32_t height, uint32_t radius, uint8_t *scratch) {
    box_pass(pixels, scratch, width, height, 4, (size_t)width * 4, radius);
    box_pass(scratch, pixels, height, width, (size_t)width * 4, 4, radius);
}

void ref_unsharp_mask(const uint8_t *pixels, uint32_t width, uint32_t height, float sigma, float amount,
                      float *scratch, uint8_t *output) {
    int reach = (int)ceilf(3 * sigma), taps = 2 * reach + 1;
    float kernel[2 * 48 + 1], total = 0;
    for (int t = 0; t < taps; t++) {
        float d = (float)(t - reach);
        kernel[t] = expf(-d * d / (2 * sigma * sigma));
        total += kernel[t];
    }
    for (int t = 0; t < taps; t++) kernel[t] /= total;
    int w = (int)width, h = (int)height;
    for (int y = 0; y < h; y++) {
        const uint8_t *row = pixels + (size_t)y * w * 4;
        float *out = scratch + (size_t)y * w * 4;
        for (int x = 0; x < w; x++) {
            for (int c = 0; c < 4; c++) {
                float sum = 0;
                for (int t = 0; t < taps; t++) {
                    int sx = x + t - reach;
                    sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
                    sum += kernel[t] * row[sx * 4 + c];
                }
                out[x * 4 + c] = sum;
            }
        }
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *row = pixels + (size_t)y * w * 4;
        uint8_t *out = output + (size_t)y * w * 4;
        for (int i = 0; i < w * 4; i++) {
            float blurred = 0;
            for (int t = 0; t < taps; t++) {
                int sy = y + t - reach;
                sy = sy < 0 ? 0 : sy >= h ? h - 1 : sy;
                blurred += kernel[t] * scratch[(size_t)sy * w * 4 + i];
            }
            float v = row[i], s = v + amount * (v - blurred) + 0.5f;
            out[i] = (i & 3) == 3 ? row[i] : (uint8_t)(s < 0 ? 0 : s > 255 ? 255 : s);
        }
    }
}

int ref_write_file(const char *path, const uint8_t *data, size_t length) {
    FILE *file = fopen(path, "wb");
    if (!file) return -1;
    size_t written = fwrite(data, 1, length, file);
    int closed = fclose(file);
    return written == length && closed == 0 ? 0 : -1;
}

int64_t ref_read_file(const char *path, uint8_t *buffer, size_t capacity) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    size_t count = fread(buffer, 1, capacity, file);
    fclose(file);
    return (int64_t)count;
}
