/* Remote write queue partition: entries, byte enables and exact payload accounting
 * (see rwq_part.h). */
#include "hw/finepack/rwq_part.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

void rwq_part_init(RwqPart *p, uint32_t cap)
{
    memset(p, 0, sizeof *p);
    p->cap = cap;
}

void rwq_part_free(RwqPart *p)
{
    free(p->e);
    p->e = NULL;
    p->alloc = 0;
}

/* Makes room for one more entry (storage grows with use, up to cap). */
static RwqEntry *part_new_entry(RwqPart *p)
{
    if (p->n == p->alloc) {
        uint32_t alloc = p->alloc ? p->alloc * 2 : 8;
        if (alloc > p->cap) {
            alloc = p->cap;
        }
        p->e = xrealloc_array(p->e, alloc, sizeof *p->e);
        p->alloc = alloc;
    }
    return &p->e[p->n++];
}

static RwqEntry *part_find(const RwqPart *p, uint64_t line)
{
    for (uint32_t i = 0; i < p->n; i++) {
        if (p->e[i].line == line) {
            return &p->e[i];
        }
    }
    return NULL;
}

static bool piece_enabled(const uint8_t *be, uint32_t i)
{
    return be == NULL || be[i] != 0;
}

/* Payload of an entry whose enables are `old` (NULL = none) plus the enabled bytes of
 * the piece at line offset off. */
static uint32_t entry_payload(const uint8_t *old, uint32_t off, uint32_t len,
                              const uint8_t *be, uint32_t subhdr)
{
    uint32_t payload = 0;
    bool in_run = false;
    for (uint32_t i = 0; i < FP_LINE; i++) {
        bool on = old != NULL && old[i];
        if (i >= off && i < off + len && piece_enabled(be, i - off)) {
            on = true;
        }
        if (on) {
            payload += in_run ? 1u : subhdr + 1u;
        }
        in_run = on;
    }
    return payload;
}

RwqFit rwq_part_check(const RwqPart *p, const RwqConfig *c, uint64_t addr, uint32_t len,
                      const uint8_t *be)
{
    if (p->n == 0) {
        return RWQ_FIT_OK;
    }
    if (addr >> c->offset_bits != p->window) {
        return RWQ_FIT_WINDOW;
    }
    const RwqEntry *e = part_find(p, addr / FP_LINE);
    if (!e && p->n == p->cap) {
        return RWQ_FIT_ENTRIES;
    }
    uint32_t off = (uint32_t)(addr % FP_LINE);
    uint32_t old = e ? e->payload : 0;
    uint32_t neu = entry_payload(e ? e->be : NULL, off, len, be, c->subhdr);
    if (p->payload - old + neu > c->max_payload) {
        return RWQ_FIT_PAYLOAD;
    }
    return RWQ_FIT_OK;
}

uint32_t rwq_part_insert(RwqPart *p, const RwqConfig *c, uint64_t addr, uint32_t len,
                         const uint8_t *data, const uint8_t *be, uint64_t id)
{
    RwqEntry *e = part_find(p, addr / FP_LINE);
    if (!e) {
        e = part_new_entry(p);
        memset(e, 0, sizeof *e);
        e->line = addr / FP_LINE;
    }
    if (p->stores == 0) {
        p->window = addr >> c->offset_bits;
    }
    uint32_t off = (uint32_t)(addr % FP_LINE), overwritten = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (!piece_enabled(be, i)) {
            continue;
        }
        overwritten += e->be[off + i];
        e->be[off + i] = 1;
        e->data[off + i] = data ? data[i] : 0;
        e->writer[off + i] = id;
    }
    p->payload -= e->payload;
    e->payload = entry_payload(e->be, 0, 0, NULL, c->subhdr);
    p->payload += e->payload;
    p->stores++;
    return overwritten;
}

bool rwq_part_overlaps(const RwqPart *p, uint64_t addr, uint32_t len)
{
    for (uint32_t i = 0; i < p->n; i++) {
        uint64_t lo = p->e[i].line * FP_LINE;
        if (lo >= addr + len || lo + FP_LINE <= addr) {
            continue;
        }
        for (uint32_t k = 0; k < FP_LINE; k++) {
            if (p->e[i].be[k] && lo + k >= addr && lo + k - addr < len) {
                return true;
            }
        }
    }
    return false;
}

uint32_t rwq_part_runs(const RwqPart *p, RwqRun *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const RwqEntry *e = &p->e[i];
        uint32_t k = 0;
        while (k < FP_LINE) {
            if (!e->be[k]) {
                k++;
                continue;
            }
            uint32_t start = k;
            while (k < FP_LINE && e->be[k]) {
                k++;
            }
            out[n].addr = e->line * FP_LINE + start;
            out[n].len = k - start;
            out[n].data = &e->data[start];
            out[n].writer = &e->writer[start];
            n++;
        }
    }
    return n;
}

void rwq_part_clear(RwqPart *p)
{
    p->n = 0;
    p->payload = 0;
    p->stores = 0;
    p->window = 0;
}
