#include "VipsReference.h"
#include <string.h>
#include <vips/vips.h>

int vips_reference_start(void) {
    static int status = 1;
    if (status == 1) {
        status = VIPS_INIT("comet-benchmarks") ? -1 : 0;
        vips_concurrency_set(1);
        vips_cache_set_max(0);
    }
    return status;
}

uint64_t vips_reference_thumbnail(const uint8_t *data, size_t length, uint32_t side, uint8_t *destination,
                                  size_t capacity) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer((void *)data, length, &thumbnail, (int)side, "height", (int)side, "crop",
                              VIPS_INTERESTING_CENTRE, NULL))
        return 0;
    size_t size = 0;
    void *pixels = vips_image_write_to_memory(thumbnail, &size);
    const uint64_t count = (uint64_t)vips_image_get_width(thumbnail) * (uint64_t)vips_image_get_height(thumbnail);
    g_object_unref(thumbnail);
    if (!pixels) return 0;
    memcpy(destination, pixels, size < capacity ? size : capacity);
    g_free(pixels);
    return count;
}
