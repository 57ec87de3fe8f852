// The C loop comet-server's cold path is compared with (`make loadtest`): reads the cold
// requests ("name width height" lines) from stdin, runs ref_jpeg_fill_encode (Benchmarks'
// CReference: decode at the DCT scale covering 1.5 × the fill, Lanczos3 resample, JPEG encode) on each against
// the images in the directory given as argv[1], and prints the CPU milliseconds per image.
#include "CReference.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: cold_reference IMAGES QUALITY < requests\n"); return 2; }
    int quality = atoi(argv[2]);
    static uint8_t buffer[8 << 20];
    char name[256];
    unsigned width, height;
    double total = 0;
    long count = 0;
    while (scanf("%255s %u %u", name, &width, &height) == 3) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], name);
        int64_t length = ref_read_file(path, buffer, sizeof buffer);
        if (length <= 0) { fprintf(stderr, "cannot read %s\n", path); return 1; }
        double start = cpu_seconds();
        if (ref_jpeg_fill_encode(buffer, (size_t)length, width, height, quality) == 0) { fprintf(stderr, "failed: %s\n", name); return 1; }
        total += cpu_seconds() - start;
        count++;
    }
    printf("%.4f %ld\n", count ? 1000 * total / count : 0, count);
    return 0;
}
