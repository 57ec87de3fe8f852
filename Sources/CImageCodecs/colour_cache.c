// The cache of colour descriptions → transforms. A description is resolved by content: the
// same profile bytes (or chromaticities, or CICP codes) for the same kind of pixels give the
// same entry, whatever the file. Building a transform costs milliseconds; a lookup hashes the
// description and takes a mutex for a few instructions. What a description means is
// colour_descriptions.c's.
#include "colour_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

void cic_colour_cache_resolve(cic_colour_input input, int source, const uint8_t *description, size_t length,
                              cic_colour_maker make, cic_colour_resolution *out) {
    memset(out, 0, sizeof *out);
    size_t key_length = 0;
    uint8_t *key = make_key(input, source, description, length, &key_length);
    if (key == NULL) { cic_colour_set_unusable(out, "out of memory"); return; }
    uint64_t hash = hash_bytes(key, key_length);
    if (lookup(key, key_length, hash, out)) { free(key); return; }
    cic_colour_install_error_handler();
    make(description, length, input, out);
    store(key, key_length, hash, out);
}

int cic_colour_cache_count(void) {
    pthread_mutex_lock(&cache_lock);
    int count = cache_count;
    pthread_mutex_unlock(&cache_lock);
    return count;
}
