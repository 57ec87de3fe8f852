#include "CImageCodecs.h"
#include <stdlib.h>

void cic_buffer_free(cic_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}
