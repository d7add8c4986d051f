/* RcStore: the RDMA$ line array (set-associative, per-byte masks, LRU). */
#include "hw/dualopt/rcache_store.h"

#include <stdlib.h>

#include "kernel/bits.h"

bool rc_store_init(RcStore *s, uint64_t size, uint32_t ways, uint32_t line, SimError *err)
{
    *s = (RcStore){0};
    if (line > RC_MAX_LINE || !bits_is_pow2(line)) {
        return sim_error_set(err, "line %u is not a power of two up to %d", line,
                             RC_MAX_LINE);
    }
    if (ways == 0 || size % ((uint64_t)ways * line) != 0 || size == 0) {
        return sim_error_set(err, "size %llu is not a multiple of ways x line (%llu)",
                             (unsigned long long)size, (unsigned long long)ways * line);
    }
    uint64_t nlines = size / line;
    s->sets = (uint32_t)(nlines / ways);
    s->ways = ways;
    s->line = line;
    s->lines = calloc(nlines, sizeof *s->lines);
    s->data = calloc(nlines, line);
    if (s->lines == NULL || s->data == NULL) {
        rc_store_destroy(s);
        return sim_error_set(err, "out of memory for %llu lines",
                             (unsigned long long)nlines);
    }
    return true;
}

void rc_store_destroy(RcStore *s)
{
    free(s->lines);
    free(s->data);
    *s = (RcStore){0};
}

uint64_t rc_byte_mask(const RcStore *s, uint64_t addr, uint32_t len)
{
    uint32_t off = (uint32_t)(addr & (s->line - 1));
    uint64_t m = len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << len) - 1);
    return m << off;
}

static RcLine *rc_set(const RcStore *s, uint64_t la)
{
    return &s->lines[(la / s->line) % s->sets * s->ways];
}

RcLine *rc_lookup(RcStore *s, uint64_t la)
{
    RcLine *set = rc_set(s, la);
    for (uint32_t w = 0; w < s->ways; w++) {
        if (set[w].valid != 0 && set[w].addr == la) {
            return &set[w];
        }
    }
    return NULL;
}

RcLine *rc_victim(RcStore *s, uint64_t la)
{
    RcLine *set = rc_set(s, la);
    RcLine *best = &set[0];
    for (uint32_t w = 0; w < s->ways; w++) {
        if (set[w].valid == 0) {
            return &set[w];
        }
        if (set[w].stamp < best->stamp) {
            best = &set[w];
        }
    }
    return best;
}

void rc_touch(RcStore *s, RcLine *ln)
{
    ln->stamp = ++s->uses;
}

uint8_t *rc_data(const RcStore *s, const RcLine *ln)
{
    return s->data + (uint64_t)(ln - s->lines) * s->line;
}
