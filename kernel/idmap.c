/* Id map (see idmap.h): linear probing in Robin Hood order, grown at half load,
 * deletion by backward shift (no tombstones, so a long run never degrades the table).
 * Keys are hashed with bits_mix64, the fixed 64-bit mixer of bits.h, or, in an ordered
 * map, taken as they are.
 *
 * Robin Hood order: each slot records how far its key sits from the key's home slot
 * (`dist`, 1 at home), and an insert takes the place of the first key it passes that
 * sits nearer its own home, which moves on. Along a run, keys then sit in the order
 * of their homes, so a search stops at the first slot nearer its home than the search
 * has come (the key is absent), and a remove shifts back only the keys that are away
 * from home, stopping at the first key at home or free slot. An ordered map's keys
 * are mostly at home (transaction ids sent close together fill consecutive slots):
 * with plain linear probing each remove walked the whole run after it (about 10 slots
 * on a memory-bound trace run), now it looks at one (docs/performance.md). The layout,
 * and so the order of idmap_next, depends only on the sequence of inserts and
 * removes. */
#include "kernel/idmap.h"

#include <stdlib.h>

#include "kernel/bits.h"
#include "kernel/xalloc.h"

#define IDMAP_MIN_CAP 16

void idmap_init(IdMap *m)
{
    *m = (IdMap){0};
}

void idmap_init_ordered(IdMap *m)
{
    *m = (IdMap){.ordered = true};
}

void idmap_destroy(IdMap *m)
{
    free(m->slots);
    *m = (IdMap){.ordered = m->ordered};
}

static size_t idmap_home(const IdMap *m, uint64_t key, size_t cap)
{
    return (size_t)((m->ordered ? key : bits_mix64(key)) & (cap - 1));
}

/* Places the entry e (dist set for slot i) at slot i or after, displacing in Robin
 * Hood order the keys nearer their homes; the table has a free slot. */
static void idmap_place_at(IdMapSlot *slots, size_t cap, size_t i, IdMapSlot e)
{
    while (slots[i].dist != 0) {
        if (slots[i].dist < e.dist) {
            IdMapSlot t = slots[i];
            slots[i] = e;
            e = t;
        }
        i = (i + 1) & (cap - 1);
        e.dist++;
    }
    slots[i] = e;
}

static void idmap_grow(IdMap *m)
{
    size_t cap = m->cap ? m->cap * 2 : IDMAP_MIN_CAP;
    IdMapSlot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < m->cap; i++) {
        IdMapSlot e = m->slots[i];
        if (e.dist != 0) {
            e.dist = 1;
            idmap_place_at(slots, cap, idmap_home(m, e.key, cap), e);
        }
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
}

/* The slot of key, or NULL. */
static IdMapSlot *idmap_lookup(const IdMap *m, uint64_t key)
{
    if (m->cap == 0) {
        return NULL;
    }
    size_t i = idmap_home(m, key, m->cap);
    for (uint64_t d = 1; m->slots[i].dist >= d; d++) {
        if (m->slots[i].key == key) {
            return &m->slots[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

/* One walk finds key or the slot where it would go; the table grows, and the key is
 * placed again, only when the insert would pass half load. */
bool idmap_insert(IdMap *m, uint64_t key, uint64_t value)
{
    if (m->cap > 0) {
        size_t i = idmap_home(m, key, m->cap);
        uint64_t d = 1;
        for (; m->slots[i].dist >= d; d++) {
            if (m->slots[i].key == key) {
                return false;
            }
            i = (i + 1) & (m->cap - 1);
        }
        if (2 * (m->count + 1) <= m->cap) {
            idmap_place_at(m->slots, m->cap, i,
                           (IdMapSlot){.key = key, .value = value, .dist = d});
            m->count++;
            return true;
        }
    }
    idmap_grow(m);
    idmap_place_at(m->slots, m->cap, idmap_home(m, key, m->cap),
                   (IdMapSlot){.key = key, .value = value, .dist = 1});
    m->count++;
    return true;
}

bool idmap_get(const IdMap *m, uint64_t key, uint64_t *value)
{
    const IdMapSlot *s = idmap_lookup(m, key);
    if (!s) {
        return false;
    }
    if (value) {
        *value = s->value;
    }
    return true;
}

bool idmap_remove(IdMap *m, uint64_t key, uint64_t *value)
{
    IdMapSlot *s = idmap_lookup(m, key);
    if (!s) {
        return false;
    }
    if (value) {
        *value = s->value;
    }
    size_t mask = m->cap - 1;
    size_t hole = (size_t)(s - m->slots);
    for (size_t i = (hole + 1) & mask; m->slots[i].dist > 1; i = (i + 1) & mask) {
        m->slots[hole] = m->slots[i];
        m->slots[hole].dist--;
        hole = i;
    }
    m->slots[hole].dist = 0;
    m->count--;
    return true;
}

bool idmap_next(const IdMap *m, size_t *pos, uint64_t *key, uint64_t *value)
{
    for (size_t i = *pos; i < m->cap; i++) {
        if (m->slots[i].dist != 0) {
            if (key) {
                *key = m->slots[i].key;
            }
            if (value) {
                *value = m->slots[i].value;
            }
            *pos = i + 1;
            return true;
        }
    }
    *pos = m->cap;
    return false;
}
