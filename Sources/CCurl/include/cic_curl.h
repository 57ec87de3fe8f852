// Typed entry points to libcurl's variadic setters and getters, which Swift cannot call.
#ifndef CIC_CURL_H
#define CIC_CURL_H

#include <curl/curl.h>

/// The write and header callbacks' type.
typedef size_t (*cic_curl_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode cic_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode cic_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
/// Strings (libcurl copies them), lists and opaque pointers.
CURLcode cic_curl_set_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode cic_curl_set_data_callback(CURL *handle, CURLoption option, cic_curl_data_callback callback);

/// How many new connections the handle's last transfer opened (0 when it reused one).
long cic_curl_num_connects(CURL *handle);
/// The handle's CURLOPT_PRIVATE pointer.
void *cic_curl_private(CURL *handle);

/// CURLAUTH_ANY and CURLAUTH_BASIC (macros Swift does not import).
long cic_curl_auth_any(void);
long cic_curl_auth_basic(void);
/// The version of the libcurl in use.
const char *cic_curl_version(void);

/// Names the calling thread (at most 15 characters), as `top` and debuggers show it.
void cic_name_current_thread(const char *name);

CURLMcode cic_curl_multi_set_long(CURLM *multi, CURLMoption option, long value);

/// The handle and result of a finished transfer, if `message` says one finished.
int cic_curl_message_done(const CURLMsg *message, CURL **handle, CURLcode *result);

#endif
