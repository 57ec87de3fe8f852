#ifndef COMET_CLIBCRYPTO_SHIM_H
#define COMET_CLIBCRYPTO_SHIM_H

// OpenSSL 3 marks the one-shot digest functions (SHA256_Init/Update/Final) deprecated in favour
// of EVP, whose contexts are opaque heap objects. A signature check copies a precomputed HMAC
// state per request, which needs the state as a plain value: SHA256_CTX is one, and the
// functions remain in every OpenSSL 3 release. They use the CPU's SHA extensions when present.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>

#endif
