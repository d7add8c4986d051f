/* The one map from 64-bit keys to 64-bit values of mgtlm: transaction ids to a time or
 * a slot index (rdma, cu, bgu, codec, rdma_cache), line or page numbers to a state, a
 * mask or a storage index (imst, decision, cu, the sparse memory store). Open
 * addressing keyed by the key's value, so behaviour never depends on pointer values;
 * iteration (idmap_next) visits slots in table order, which depends only on the
 * sequence of inserts and removes, never on the host.
 *
 * A map of keys that grow in time, like transaction ids, is best made `ordered`
 * (idmap_init_ordered): its keys sit at their own value modulo the table size, not
 * at a mixed hash, so keys sent close together share cache lines (on a memory-bound
 * trace run the sm's and rdma's id maps missed the cache on almost every insert:
 * docs/performance.md). Keys that collide modulo the size only cost longer probes. */
#ifndef MGTLM_IDMAP_H
#define MGTLM_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct IdMapSlot {
    uint64_t key;
    uint64_t value;
    uint64_t dist; /* 1 + the slot's distance from the key's home slot; 0: empty */
} IdMapSlot;

typedef struct IdMap {
    IdMapSlot *slots; /* owned */
    size_t cap;       /* power of two, 0 before the first insert */
    size_t count;
    bool ordered; /* home slot = key mod cap (else a mix of the key) */
} IdMap;

/* An empty map needs no allocation: `IdMap m = {0};` or idmap_init. */
void idmap_init(IdMap *m);
/* An empty ordered map (see above). */
void idmap_init_ordered(IdMap *m);
/* Frees the table; the map is empty (and as ordered as before) and reusable. */
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

/* Iteration: start with *pos = 0; each call that returns true writes one entry
 * (key and/or value if non-NULL) and advances *pos. Every entry is visited once, in
 * table order, provided the map is not modified during the walk. */
bool idmap_next(const IdMap *m, size_t *pos, uint64_t *key, uint64_t *value);

#endif
