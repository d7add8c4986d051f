/* MSHR with the DualOpt bitmask extension (paper 000 section 4.1, SPEC.md 1.3).
 *
 * An entry holds (line address, word mask) of one request sent down, the id of that
 * request, whether its response may fill the cache, and the requests waiting for it
 * (owned references). Incoming (A, m) hits entry e iff e.line == A and
 * (m & ~e.mask) == 0; the first such entry in index order is used.
 * Decision (beyond SPEC 1.3): an entry closed by mshr_no_fill (a write, an atomic or
 * kernel_begin came after its request was sent) takes no new waiters, since its data
 * may predate that event: a later read of the line allocates a new entry, whose
 * request goes down behind the write. */
#ifndef MGTLM_HW_GPU_MSHR_H
#define MGTLM_HW_GPU_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/txn.h"

typedef struct MshrEntry {
    bool valid;
    bool fill;        /* the response may be written into the cache */
    bool open;        /* new requests may wait for it (see the decision above) */
    uint64_t line;    /* line address */
    uint32_t mask;    /* words requested by the request sent down */
    uint64_t down_id; /* id of the request sent down */
    Txn **wait;       /* waiting requests, owned references */
    uint32_t nwait, cap;
} MshrEntry;

typedef struct Mshr {
    MshrEntry *e; /* owned, n entries */
    uint32_t n;
    uint32_t used;
} Mshr;

/* n entries (n >= 1); false on OOM. */
bool mshr_init(Mshr *m, uint32_t n);
/* Frees the entries and drops the references of waiting requests. */
void mshr_destroy(Mshr *m);

static inline bool mshr_full(const Mshr *m)
{
    return m->used == m->n;
}

/* Entry index that (line, mask) hits (among open entries), or -1 (miss). */
int mshr_match(const Mshr *m, uint64_t line, uint32_t mask);
/* Allocates the lowest free entry for (line, mask), open, with fill allowed; -1 if
 * full. */
int mshr_alloc(Mshr *m, uint64_t line, uint32_t mask, uint64_t down_id);
/* Entry whose request sent down has id down_id, or -1. */
int mshr_find_id(const Mshr *m, uint64_t down_id);
/* Adds a waiting request to entry i (ownership of the reference moves in). */
void mshr_wait(Mshr *m, int i, Txn *req);
/* Forbids the fill of every valid entry for line (all lines when all is true) and
 * closes them to new waiters. */
void mshr_no_fill(Mshr *m, uint64_t line, bool all);
/* Frees entry i; its waiters must have been taken (nwait set to 0) by the caller. */
void mshr_release(Mshr *m, int i);

#endif
