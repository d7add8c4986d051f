/* A map from 64-bit transaction ids to 64-bit values (a time or a slot index), for
 * blocks that track outstanding transactions (rdma, cu). Open addressing keyed by the
 * id value, so behaviour never depends on pointer values. */
#ifndef MGTLM_HW_LIB_IDMAP_H
#define MGTLM_HW_LIB_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct IdMapSlot {
    uint64_t key;
    uint64_t value;
    bool used;
} IdMapSlot;

typedef struct IdMap {
    IdMapSlot *slots; /* owned */
    size_t cap;       /* power of two, 0 before the first insert */
    size_t count;
} IdMap;

/* An empty map needs no allocation: `IdMap m = {0};` or idmap_init. */
void idmap_init(IdMap *m);
/* Frees the table; the map is empty and reusable afterwards. */
void idmap_destroy(IdMap *m);

/* Inserts key -> value. False if key is already present (nothing changes). Aborts
 * with a message if host memory is exhausted. */
bool idmap_insert(IdMap *m, uint64_t key, uint64_t value);
/* Looks key up; on success writes its value to *value (if non-NULL). */
bool idmap_get(const IdMap *m, uint64_t key, uint64_t *value);
/* Removes key; on success writes its value to *value (if non-NULL). */
bool idmap_remove(IdMap *m, uint64_t key, uint64_t *value);

static inline size_t idmap_count(const IdMap *m)
{
    return m->count;
}

#endif
