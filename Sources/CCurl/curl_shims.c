#define _GNU_SOURCE
#include <pthread.h>
#include "cic_curl.h"

CURLcode cic_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cic_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cic_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode cic_curl_set_data_callback(CURL *handle, CURLoption option, cic_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

void *cic_curl_private(CURL *handle) {
    char *value = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_PRIVATE, &value) != CURLE_OK) return NULL;
    return value;
}

CURLMcode cic_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

int cic_curl_message_done(const CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

long cic_curl_auth_any(void) { return (long)CURLAUTH_ANY; }

long cic_curl_auth_basic(void) { return (long)CURLAUTH_BASIC; }

const char *cic_curl_version(void) { return curl_version_info(CURLVERSION_NOW)->version; }

void cic_name_current_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

long cic_curl_num_connects(CURL *handle) {
    long value = 0;
    curl_easy_getinfo(handle, CURLINFO_NUM_CONNECTS, &value);
    return value;
}
