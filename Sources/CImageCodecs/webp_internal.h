#ifndef CIC_WEBP_INTERNAL_H
#define CIC_WEBP_INTERNAL_H

#include <webp/decode.h>

/// libwebp's status codes in words (it has no message strings of its own).
const char *cic_webp_status_text(VP8StatusCode status);

#endif
