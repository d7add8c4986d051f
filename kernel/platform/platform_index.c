/* Name index: open addressing with linear probing; the table doubles when it is half
 * full. Nothing is ever removed. */
#include "platform_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct PlatformSlot {
    const char *key; /* NULL = empty */
    size_t pos;
} PlatformSlot;

struct PlatformIndex {
    PlatformSlot *slots;
    size_t cap; /* power of two */
    size_t used;
};

static uint64_t platform_index_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    }
    return h;
}

PlatformIndex *platform_index_new(void)
{
    PlatformIndex *ix = calloc(1, sizeof *ix);
    if (!ix) {
        return NULL;
    }
    ix->cap = 64;
    ix->slots = calloc(ix->cap, sizeof *ix->slots);
    if (!ix->slots) {
        free(ix);
        return NULL;
    }
    return ix;
}

void platform_index_free(PlatformIndex *ix)
{
    if (ix) {
        free(ix->slots);
        free(ix);
    }
}

/* The slot holding key, or the empty slot where it would go. */
static size_t platform_index_find(const PlatformIndex *ix, const char *key)
{
    size_t i = (size_t)platform_index_hash(key) & (ix->cap - 1);
    while (ix->slots[i].key && strcmp(ix->slots[i].key, key) != 0) {
        i = (i + 1) & (ix->cap - 1);
    }
    return i;
}

static bool platform_index_grow(PlatformIndex *ix)
{
    PlatformIndex bigger = {calloc(ix->cap * 2, sizeof(PlatformSlot)), ix->cap * 2, 0};
    if (!bigger.slots) {
        return false;
    }
    for (size_t i = 0; i < ix->cap; i++) {
        if (ix->slots[i].key) {
            bigger.slots[platform_index_find(&bigger, ix->slots[i].key)] = ix->slots[i];
        }
    }
    free(ix->slots);
    ix->slots = bigger.slots;
    ix->cap = bigger.cap;
    return true;
}

bool platform_index_put(PlatformIndex *ix, const char *key, size_t pos)
{
    if (2 * (ix->used + 1) > ix->cap && !platform_index_grow(ix)) {
        return false;
    }
    size_t i = platform_index_find(ix, key);
    if (!ix->slots[i].key) {
        ix->used++;
    }
    ix->slots[i].key = key;
    ix->slots[i].pos = pos;
    return true;
}

bool platform_index_get(const PlatformIndex *ix, const char *key, size_t *pos)
{
    if (!ix) {
        return false;
    }
    size_t i = platform_index_find(ix, key);
    if (!ix->slots[i].key) {
        return false;
    }
    *pos = ix->slots[i].pos;
    return true;
}
