/* Id map (see idmap.h): linear probing, grown at half load, deletion by backward
 * shift (no tombstones, so a long run never degrades the table). Keys are hashed
 * with bits_mix64, the fixed 64-bit mixer of bits.h, or, in an ordered map, taken
 * as they are. */
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

static void idmap_place(const IdMap *m, IdMapSlot *slots, size_t cap, uint64_t key,
                        uint64_t value)
{
    size_t i = idmap_home(m, key, cap);
    while (slots[i].used) {
        i = (i + 1) & (cap - 1);
    }
    slots[i].key = key;
    slots[i].value = value;
    slots[i].used = true;
}

static void idmap_grow(IdMap *m)
{
    size_t cap = m->cap ? m->cap * 2 : IDMAP_MIN_CAP;
    IdMapSlot *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slots[i].used) {
            idmap_place(m, slots, cap, m->slots[i].key, m->slots[i].value);
        }
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
}

static IdMapSlot *idmap_lookup(const IdMap *m, uint64_t key)
{
    if (m->cap == 0) {
        return NULL;
    }
    size_t i = idmap_home(m, key, m->cap);
    while (m->slots[i].used) {
        if (m->slots[i].key == key) {
            return &m->slots[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

/* One walk finds key or the free slot where it would go (linear probing puts a key
 * before the first free slot of its run); the table grows, and the key is placed
 * again, only when the insert would pass half load. */
bool idmap_insert(IdMap *m, uint64_t key, uint64_t value)
{
    if (m->cap > 0) {
        size_t i = idmap_home(m, key, m->cap);
        while (m->slots[i].used) {
            if (m->slots[i].key == key) {
                return false;
            }
            i = (i + 1) & (m->cap - 1);
        }
        if (2 * (m->count + 1) <= m->cap) {
            m->slots[i] = (IdMapSlot){.key = key, .value = value, .used = true};
            m->count++;
            return true;
        }
    }
    idmap_grow(m);
    idmap_place(m, m->slots, m->cap, key, value);
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
    size_t i = hole;
    for (;;) {
        i = (i + 1) & mask;
        if (!m->slots[i].used) {
            break;
        }
        size_t home = idmap_home(m, m->slots[i].key, m->cap);
        /* Move slot i into the hole unless its home lies cyclically in (hole, i]. */
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (!stays) {
            m->slots[hole] = m->slots[i];
            hole = i;
        }
    }
    m->slots[hole].used = false;
    m->count--;
    return true;
}

bool idmap_next(const IdMap *m, size_t *pos, uint64_t *key, uint64_t *value)
{
    for (size_t i = *pos; i < m->cap; i++) {
        if (m->slots[i].used) {
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
