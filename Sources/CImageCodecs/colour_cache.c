// Colour descriptions → transforms, cached. A description is resolved by content: the same
// profile bytes (or chromaticities, or CICP codes) for the same kind of pixels give the same
// entry, whatever the file. Building a transform costs milliseconds; a lookup hashes the
// description and takes a mutex for a few instructions.
#include "colour_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Profiles larger than this are refused (JPEG allows 255 × 65519 bytes; real ones are < 1 MB).
#define MAX_PROFILE_BYTES (4u << 20)

enum { SOURCE_ICC = 1, SOURCE_CHROMATICITIES = 2, SOURCE_CICP = 3 };

typedef struct {
    uint8_t *key;              // input kind, source kind, description bytes
    size_t key_length;
    uint64_t hash;
    uint64_t last_use;
    cic_colour_outcome outcome;
    cic_colour_transform *transform; // CONVERT: the cache's reference
    char name[64];
    char message[CIC_MESSAGE_CAPACITY];
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry cache[CIC_COLOUR_CACHE_CAPACITY];
static int cache_count;
static uint64_t cache_clock;

static uint64_t hash_bytes(const uint8_t *bytes, size_t length) {
    // FNV-1a over 8-byte words (a profile is hashed on every decode that carries it).
    uint64_t h = 0xcbf29ce484222325ull ^ length;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        h = (h ^ word) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < length; i++) h = (h ^ bytes[i]) * 0x100000001b3ull;
    return h;
}

// Copies the entry's result into `out` (a new reference to its transform). Under the lock.
static void answer(const cache_entry *e, cic_colour_resolution *out) {
    out->outcome = e->outcome;
    out->transform = e->transform;
    cic_colour_transform_retain(e->transform);
    memcpy(out->name, e->name, sizeof out->name);
    memcpy(out->message, e->message, sizeof out->message);
}

static int lookup(const uint8_t *key, size_t length, uint64_t hash, cic_colour_resolution *out) {
    int found = 0;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < cache_count; i++) {
        cache_entry *e = &cache[i];
        if (e->hash == hash && e->key_length == length && memcmp(e->key, key, length) == 0) {
            e->last_use = ++cache_clock;
            answer(e, out);
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    return found;
}

// Stores a result, evicting the least recently used entry when full. The transform's release
// happens after the lock is left.
static void store(uint8_t *key, size_t length, uint64_t hash, const cic_colour_resolution *result) {
    cic_colour_transform *evicted = NULL;
    uint8_t *evicted_key = NULL;
    pthread_mutex_lock(&cache_lock);
    int slot = -1;
    for (int i = 0; i < cache_count && slot < 0; i++) {
        // Another thread built the same description meanwhile: keep theirs.
        if (cache[i].hash == hash && cache[i].key_length == length && memcmp(cache[i].key, key, length) == 0) slot = -2;
    }
    if (slot == -2) {
        pthread_mutex_unlock(&cache_lock);
        free(key);
        return;
    }
    if (cache_count < CIC_COLOUR_CACHE_CAPACITY) {
        slot = cache_count++;
    } else {
        slot = 0;
        for (int i = 1; i < cache_count; i++) if (cache[i].last_use < cache[slot].last_use) slot = i;
        evicted = cache[slot].transform;
        evicted_key = cache[slot].key;
    }
    cache_entry *e = &cache[slot];
    e->key = key;
    e->key_length = length;
    e->hash = hash;
    e->last_use = ++cache_clock;
    e->outcome = result->outcome;
    e->transform = result->transform;
    cic_colour_transform_retain(result->transform);
    memcpy(e->name, result->name, sizeof e->name);
    memcpy(e->message, result->message, sizeof e->message);
    pthread_mutex_unlock(&cache_lock);
    cic_colour_transform_release(evicted);
    free(evicted_key);
}

static uint8_t *make_key(cic_colour_input input, int source, const uint8_t *bytes, size_t length, size_t *key_length) {
    uint8_t *key = malloc(length + 2);
    if (key == NULL) return NULL;
    key[0] = (uint8_t)input;
    key[1] = (uint8_t)source;
    memcpy(key + 2, bytes, length);
    *key_length = length + 2;
    return key;
}

static void set_unusable(cic_colour_resolution *out, const char *message) {
    out->outcome = CIC_COLOUR_UNUSABLE;
    snprintf(out->message, sizeof out->message, "%s", message);
}

// Builds the result of `profile` (which this closes) into `out`.
static void build(cmsHPROFILE profile, cic_colour_input input, const uint8_t *icc, size_t icc_length,
                  cic_colour_resolution *out) {
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", out->name, sizeof out->name);
    int is_srgb = 0;
    char message[CIC_MESSAGE_CAPACITY] = "";
    cic_colour_transform *t = cic_colour_build(profile, input, icc, icc_length, &is_srgb, message);
    cmsCloseProfile(profile);
    if (is_srgb) {
        out->outcome = CIC_COLOUR_SRGB;
    } else if (t == NULL) {
        set_unusable(out, message);
    } else {
        out->outcome = CIC_COLOUR_CONVERT;
        out->transform = t;
    }
}

// Looks `description` up, or builds it with `make` and caches the result.
static void resolve(cic_colour_input input, int source, const uint8_t *description, size_t length,
                    void (*make)(const uint8_t *, size_t, cic_colour_input, cic_colour_resolution *),
                    cic_colour_resolution *out) {
    memset(out, 0, sizeof *out);
    size_t key_length = 0;
    uint8_t *key = make_key(input, source, description, length, &key_length);
    if (key == NULL) { set_unusable(out, "out of memory"); return; }
    uint64_t hash = hash_bytes(key, key_length);
    if (lookup(key, key_length, hash, out)) { free(key); return; }
    cic_colour_install_error_handler();
    make(description, length, input, out);
    store(key, key_length, hash, out);
}

static void make_from_icc(const uint8_t *icc, size_t length, cic_colour_input input, cic_colour_resolution *out) {
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (profile == NULL) { set_unusable(out, "the colour profile is malformed (Little CMS could not read it)"); return; }
    build(profile, input, icc, length, out);
}

void cic_colour_resolve_icc(const uint8_t *icc, size_t length, cic_colour_input input, cic_colour_resolution *out) {
    if (length > MAX_PROFILE_BYTES) {
        memset(out, 0, sizeof *out);
        snprintf(out->message, sizeof out->message, "the colour profile is %zu bytes, over the limit of %u", length,
                 MAX_PROFILE_BYTES);
        out->outcome = CIC_COLOUR_UNUSABLE;
        return;
    }
    if (length < 132) {
        memset(out, 0, sizeof *out);
        set_unusable(out, "the colour profile is truncated (shorter than an ICC header)");
        return;
    }
    resolve(input, SOURCE_ICC, icc, length, make_from_icc, out);
}

// Builds a matrix/TRC profile, saves it as ICC bytes and resolves those: the built profile is
// then what keep-the-numbers mode embeds.
static void make_from_parts(const cmsCIExyY *white, const cmsCIExyYTRIPLE *primaries, cmsToneCurve *curve,
                            const char *name, cic_colour_input input, cic_colour_resolution *out) {
    cmsToneCurve *curves[3] = { curve, curve, curve };
    cmsHPROFILE profile = curve != NULL ? cmsCreateRGBProfile(white, primaries, curves) : NULL;
    if (curve != NULL) cmsFreeToneCurve(curve);
    if (profile == NULL) { set_unusable(out, "the colour description does not make a valid profile"); return; }
    cmsMLU *description = cmsMLUalloc(NULL, 1);
    if (description != NULL) {
        cmsMLUsetASCII(description, "en", "US", name);
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
        cmsMLUfree(description);
    }
    cmsUInt32Number size = 0;
    uint8_t *icc = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (icc = malloc(size)) != NULL
        && cmsSaveProfileToMem(profile, icc, &size)) {
        build(profile, input, icc, size, out);
    } else {
        cmsCloseProfile(profile);
        set_unusable(out, "the colour description does not make a valid profile");
    }
    free(icc);
}

typedef struct { double xy[8]; double gamma; int has_chromaticities; } chromaticity_description;

static void make_from_chromaticities(const uint8_t *bytes, size_t length, cic_colour_input input,
                                     cic_colour_resolution *out) {
    (void)length;
    chromaticity_description d;
    memcpy(&d, bytes, sizeof d);
    static const double srgb[8] = { 0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06 };
    const double *xy = d.has_chromaticities ? d.xy : srgb;
    cmsCIExyY white = { xy[0], xy[1], 1.0 };
    cmsCIExyYTRIPLE primaries = { { xy[2], xy[3], 1.0 }, { xy[4], xy[5], 1.0 }, { xy[6], xy[7], 1.0 } };
    char name[64];
    snprintf(name, sizeof name, "PNG gAMA %.5f%s", d.gamma, d.has_chromaticities ? " and cHRM" : "");
    make_from_parts(&white, &primaries, cmsBuildGamma(NULL, 1.0 / d.gamma), name, input, out);
}

void cic_colour_resolve_chromaticities(const double *chromaticities, double file_gamma, cic_colour_input input,
                                       cic_colour_resolution *out) {
    memset(out, 0, sizeof *out);
    if (!(file_gamma > 0.01 && file_gamma < 10.0)) { set_unusable(out, "the PNG's gAMA value is out of range"); return; }
    chromaticity_description d;
    memset(&d, 0, sizeof d);
    d.gamma = file_gamma;
    d.has_chromaticities = chromaticities != NULL;
    if (chromaticities != NULL) {
        for (int i = 0; i < 8; i++) {
            if (!(chromaticities[i] > 0.0 && chromaticities[i] < 1.0)) { set_unusable(out, "the PNG's cHRM values are out of range"); return; }
            d.xy[i] = chromaticities[i];
        }
    }
    resolve(input, SOURCE_CHROMATICITIES, (const uint8_t *)&d, sizeof d, make_from_chromaticities, out);
}

// ITU-T H.273 colour primaries (white x, y, then red, green, blue x, y). NULL when unknown.
static const double *cicp_primaries(int code) {
    static const double bt709[8] = { 0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06 };
    static const double bt470m[8] = { 0.310, 0.316, 0.67, 0.33, 0.21, 0.71, 0.14, 0.08 };
    static const double bt470bg[8] = { 0.3127, 0.3290, 0.64, 0.33, 0.29, 0.60, 0.15, 0.06 };
    static const double bt601[8] = { 0.3127, 0.3290, 0.630, 0.340, 0.310, 0.595, 0.155, 0.070 };
    static const double film[8] = { 0.310, 0.316, 0.681, 0.319, 0.243, 0.692, 0.145, 0.049 };
    static const double bt2020[8] = { 0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046 };
    static const double dci_p3[8] = { 0.314, 0.351, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060 };
    static const double display_p3[8] = { 0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060 };
    static const double ebu3213[8] = { 0.3127, 0.3290, 0.630, 0.340, 0.295, 0.605, 0.155, 0.077 };
    switch (code) {
    case 1: case 2: return bt709;          // 2: unspecified, taken as BT.709 as browsers do
    case 4: return bt470m;
    case 5: return bt470bg;
    case 6: case 7: return bt601;
    case 8: return film;
    case 9: return bt2020;
    case 11: return dci_p3;
    case 12: return display_p3;
    case 22: return ebu3213;
    default: return NULL;
    }
}

static void make_from_cicp(const uint8_t *bytes, size_t length, cic_colour_input input, cic_colour_resolution *out) {
    (void)length;
    int codes[2];
    memcpy(codes, bytes, sizeof codes);
    const double *xy = cicp_primaries(codes[0]);
    static const double srgb_curve[5] = { 2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045 };
    static const double bt709_curve[5] = { 1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081 };
    cmsToneCurve *curve;
    switch (codes[1]) {
    case 1: case 6: case 14: case 15: curve = cmsBuildParametricToneCurve(NULL, 4, bt709_curve); break;
    case 4: curve = cmsBuildGamma(NULL, 2.2); break;
    case 5: curve = cmsBuildGamma(NULL, 2.8); break;
    case 8: curve = cmsBuildGamma(NULL, 1.0); break;
    default: curve = cmsBuildParametricToneCurve(NULL, 4, srgb_curve); break; // 2, 13: sRGB
    }
    cmsCIExyY white = { xy[0], xy[1], 1.0 };
    cmsCIExyYTRIPLE primaries = { { xy[2], xy[3], 1.0 }, { xy[4], xy[5], 1.0 }, { xy[6], xy[7], 1.0 } };
    char name[64];
    snprintf(name, sizeof name, "CICP %d/%d%s", codes[0], codes[1], codes[0] == 12 && codes[1] == 13 ? " (Display P3)" : "");
    make_from_parts(&white, &primaries, curve, name, input, out);
}

void cic_colour_resolve_cicp(int primaries, int transfer, cic_colour_input input, cic_colour_resolution *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "CICP %d/%d", primaries, transfer);
    if ((primaries == 1 || primaries == 2) && (transfer == 13 || transfer == 2)) {
        out->outcome = CIC_COLOUR_SRGB;
        return;
    }
    if (transfer == 16 || transfer == 18) {
        snprintf(out->message, sizeof out->message,
                 "the image is HDR (%s transfer); it is not tone-mapped, its numbers are shown as they are",
                 transfer == 16 ? "PQ" : "HLG");
        out->outcome = CIC_COLOUR_UNUSABLE;
        return;
    }
    int known_transfer = transfer == 1 || transfer == 2 || transfer == 4 || transfer == 5 || transfer == 6
                      || transfer == 8 || transfer == 13 || transfer == 14 || transfer == 15;
    if (cicp_primaries(primaries) == NULL || !known_transfer) {
        snprintf(out->message, sizeof out->message, "unsupported CICP colour primaries %d or transfer %d", primaries, transfer);
        out->outcome = CIC_COLOUR_UNUSABLE;
        return;
    }
    int codes[2] = { primaries, transfer };
    resolve(input, SOURCE_CICP, (const uint8_t *)codes, sizeof codes, make_from_cicp, out);
}

int cic_colour_cache_count(void) {
    pthread_mutex_lock(&cache_lock);
    int count = cache_count;
    pthread_mutex_unlock(&cache_lock);
    return count;
}

static cic_status save(cmsHPROFILE profile, cic_buffer *out) {
    cmsUInt32Number size = 0;
    if (profile == NULL || !cmsSaveProfileToMem(profile, NULL, &size)) {
        if (profile != NULL) cmsCloseProfile(profile);
        return CIC_ERROR;
    }
    uint8_t *bytes = malloc(size);
    cic_status status = CIC_ERROR;
    if (bytes != NULL && cmsSaveProfileToMem(profile, bytes, &size) && cic_buffer_append(out, bytes, size)) status = CIC_OK;
    free(bytes);
    cmsCloseProfile(profile);
    return status;
}

cic_status cic_colour_srgb_icc(cic_buffer *out) {
    cic_colour_install_error_handler();
    return save(cmsCreate_sRGBProfile(), out);
}

cic_status cic_colour_build_rgb_icc(const double chromaticities[8], const double curve[5], const char *name,
                                    cic_buffer *out) {
    cic_colour_install_error_handler();
    cmsCIExyY white = { chromaticities[0], chromaticities[1], 1.0 };
    cmsCIExyYTRIPLE primaries = { { chromaticities[2], chromaticities[3], 1.0 }, { chromaticities[4], chromaticities[5], 1.0 },
                                  { chromaticities[6], chromaticities[7], 1.0 } };
    cmsFloat64Number parameters[5] = { curve[0], curve[1], curve[2], curve[3], curve[4] };
    cmsToneCurve *tone = cmsBuildParametricToneCurve(NULL, 4, parameters);
    if (tone == NULL) return CIC_ERROR;
    cmsToneCurve *curves[3] = { tone, tone, tone };
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(tone);
    if (profile == NULL) return CIC_ERROR;
    cmsMLU *description = cmsMLUalloc(NULL, 1);
    if (description != NULL) {
        cmsMLUsetASCII(description, "en", "US", name);
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
        cmsMLUfree(description);
    }
    return save(profile, out);
}
