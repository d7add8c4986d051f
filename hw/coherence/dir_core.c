/* Directory state machine of SPEC.md 3.1 (see dir_core.h).
 *
 * Decisions (SPEC is silent):
 * - Every access that finds its entry (remote read, local write, remote write)
 *   refreshes the entry's LRU stamp; FIFO stamps are set only at allocation.
 * - A victim is the lowest invalid way of the set, else the way with the smallest
 *   stamp (least recently used, or first allocated).
 * - Local reads need no directory action and have no entry point here.
 * - HMG: the group's position bit means "the range has sharers"; a write to any line
 *   invalidates every line of the range at each sharer but the writer (ascending line
 *   then GPU) and an eviction does the same for every sharer. */
#include "hw/coherence/dir_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/lib/addr.h"
#include "kernel/bits.h"

bool dir_core_init(DirCore *d, const DirConfig *c, DirInvFn inv, void *ctx, char *msg,
                   size_t msg_len)
{
    memset(d, 0, sizeof *d);
    if (!bits_is_pow2(c->range) || !bits_is_pow2(c->line) || c->range < c->line) {
        snprintf(msg, msg_len,
                 "range %u and line %u must be powers of two, range >= line", c->range,
                 c->line);
        return false;
    }
    if (c->ways == 0 || c->entries % c->ways != 0) {
        snprintf(msg, msg_len, "entries %u is not a multiple of ways %u", c->entries,
                 c->ways);
        return false;
    }
    if (c->gpus < 2 || c->gpus > 32) {
        snprintf(msg, msg_len, "a directory needs 2 to 32 GPUs, the platform has %u",
                 c->gpus);
        return false;
    }
    d->c = *c;
    d->sets = c->entries / c->ways;
    d->lines = c->range / c->line;
    d->groups = c->shared_vector ? 1 : d->lines;
    d->range_shift = bits_log2_ceil(c->range);
    d->line_shift = bits_log2_ceil(c->line);
    d->e = calloc(c->entries, sizeof *d->e);
    d->g = calloc((size_t)c->entries * d->groups, sizeof *d->g);
    d->inv = inv;
    d->ctx = ctx;
    if (!d->e || !d->g) {
        dir_core_free(d);
        snprintf(msg, msg_len, "out of memory for %u directory entries", c->entries);
        return false;
    }
    return true;
}

void dir_core_free(DirCore *d)
{
    free(d->e);
    free(d->g);
    d->e = NULL;
    d->g = NULL;
}

void dir_core_clear(DirCore *d)
{
    memset(d->e, 0, (size_t)d->c.entries * sizeof *d->e);
    memset(d->g, 0, (size_t)d->c.entries * d->groups * sizeof *d->g);
    d->clock = 0;
    d->allocations = d->evictions = d->inv_write = d->inv_evict = 0;
}

uint32_t dir_core_slot(const DirCore *d, int g)
{
    return (uint32_t)g + (g < d->c.home ? 1u : 0u);
}

int dir_core_slot_gpu(const DirCore *d, uint32_t slot)
{
    int g = (int)slot - 1;
    return g >= d->c.home ? g + 1 : g;
}

static uint64_t dir_base(const DirCore *d, uint64_t addr)
{
    return addr >> d->range_shift;
}

static uint32_t dir_index(const DirCore *d, uint64_t addr)
{
    return (uint32_t)((addr & (d->c.range - 1)) >> d->line_shift);
}

static uint32_t *dir_groups(const DirCore *d, size_t entry)
{
    return &d->g[entry * d->groups];
}

/* Entry index tracking base, or -1. */
static long dir_find(const DirCore *d, uint64_t base)
{
    size_t set = (size_t)(base % d->sets);
    for (size_t w = 0; w < d->c.ways; w++) {
        size_t i = set * d->c.ways + w;
        if (d->e[i].valid && d->e[i].base == base) {
            return (long)i;
        }
    }
    return -1;
}

/* Sends one invalidate for every sharer of group grp of line line_addr, except the
 * GPU `except` (-1 for none), in ascending GPU order. */
static void dir_inv_group(DirCore *d, uint32_t grp, uint64_t line_addr, int except,
                          DirCause cause)
{
    for (uint32_t slot = 1; slot < d->c.gpus; slot++) {
        int g = dir_core_slot_gpu(d, slot);
        if ((grp >> slot & 1u) && g != except) {
            if (cause == DIR_CAUSE_EVICT) {
                d->inv_evict++;
            } else {
                d->inv_write++;
            }
            d->inv(d->ctx, line_addr, g, cause);
        }
    }
}

static uint64_t dir_line_addr(const DirCore *d, uint64_t base, uint32_t i)
{
    return (base << d->range_shift) + ((uint64_t)i << d->line_shift);
}

static void dir_evict(DirCore *d, size_t entry)
{
    DirEntry *e = &d->e[entry];
    uint32_t *g = dir_groups(d, entry);
    uint64_t positions = 0;
    for (uint32_t i = 0; i < d->lines; i++) {
        uint32_t grp = g[d->c.shared_vector ? 0 : i];
        if (grp & 1u) {
            positions++;
            dir_inv_group(d, grp, dir_line_addr(d, e->base, i), -1, DIR_CAUSE_EVICT);
        }
    }
    if (d->coalesced) {
        stat_hist_add(d->coalesced, positions);
    }
    d->evictions++;
    e->valid = false;
    memset(g, 0, d->groups * sizeof *g);
}

/* The entry for base, allocated (evicting a victim) if absent. */
static size_t dir_get(DirCore *d, uint64_t base)
{
    long found = dir_find(d, base);
    if (found >= 0) {
        if (d->c.repl == DIR_REPL_LRU) {
            d->e[found].stamp = ++d->clock;
        }
        return (size_t)found;
    }
    size_t set = (size_t)(base % d->sets);
    size_t victim = set * d->c.ways;
    bool have_invalid = false;
    for (size_t w = 0; w < d->c.ways; w++) {
        size_t i = set * d->c.ways + w;
        if (!d->e[i].valid) {
            victim = i;
            have_invalid = true;
            break;
        }
        if (d->e[i].stamp < d->e[victim].stamp) {
            victim = i;
        }
    }
    if (!have_invalid) {
        dir_evict(d, victim);
    }
    d->allocations++;
    d->e[victim] = (DirEntry){.base = base, .stamp = ++d->clock, .valid = true};
    return victim;
}

static void dir_touch(DirCore *d, size_t entry)
{
    if (d->c.repl == DIR_REPL_LRU) {
        d->e[entry].stamp = ++d->clock;
    }
}

/* Clears the entry if no group holds a position any more. */
static void dir_maybe_free(DirCore *d, size_t entry)
{
    uint32_t *g = dir_groups(d, entry);
    for (uint32_t i = 0; i < d->groups; i++) {
        if (g[i] & 1u) {
            return;
        }
    }
    d->e[entry].valid = false;
}

void dir_core_remote_read(DirCore *d, uint64_t addr, int s)
{
    size_t entry = dir_get(d, dir_base(d, addr));
    uint32_t *g = dir_groups(d, entry);
    uint32_t i = d->c.shared_vector ? 0 : dir_index(d, addr);
    g[i] |= 1u | (1u << dir_core_slot(d, s));
}

/* Invalidates the sharers (but `except`) of the line holding addr in entry. */
static void dir_inv_write(DirCore *d, size_t entry, uint64_t addr, int except)
{
    uint32_t *g = dir_groups(d, entry);
    uint64_t base = d->e[entry].base;
    if (d->c.shared_vector) {
        for (uint32_t i = 0; i < d->lines; i++) {
            dir_inv_group(d, g[0], dir_line_addr(d, base, i), except, DIR_CAUSE_WRITE);
        }
    } else {
        uint32_t i = dir_index(d, addr);
        dir_inv_group(d, g[i], dir_line_addr(d, base, i), except, DIR_CAUSE_WRITE);
    }
}

void dir_core_local_write(DirCore *d, uint64_t addr)
{
    long found = dir_find(d, dir_base(d, addr));
    if (found < 0) {
        return;
    }
    size_t entry = (size_t)found;
    uint32_t *g = dir_groups(d, entry);
    uint32_t i = d->c.shared_vector ? 0 : dir_index(d, addr);
    dir_touch(d, entry);
    if (!(g[i] & 1u)) {
        return;
    }
    dir_inv_write(d, entry, addr, -1);
    g[i] = 0;
    dir_maybe_free(d, entry);
}

void dir_core_remote_write(DirCore *d, uint64_t addr, int s)
{
    long found = dir_find(d, dir_base(d, addr));
    uint32_t i = d->c.shared_vector ? 0 : dir_index(d, addr);
    if (found < 0 || !(dir_groups(d, (size_t)found)[i] & 1u)) {
        dir_core_remote_read(d, addr, s);
        return;
    }
    size_t entry = (size_t)found;
    dir_touch(d, entry);
    dir_inv_write(d, entry, addr, s);
    dir_groups(d, entry)[i] = 1u | (1u << dir_core_slot(d, s));
}

uint32_t dir_core_group(const DirCore *d, uint64_t addr)
{
    long found = dir_find(d, dir_base(d, addr));
    if (found < 0) {
        return 0;
    }
    return dir_groups(d, (size_t)found)[d->c.shared_vector ? 0 : dir_index(d, addr)];
}

uint64_t dir_core_valid_entries(const DirCore *d)
{
    uint64_t n = 0;
    for (size_t i = 0; i < d->c.entries; i++) {
        n += d->e[i].valid;
    }
    return n;
}

uint64_t dir_core_positions(const DirCore *d)
{
    uint64_t n = 0;
    for (size_t i = 0; i < d->c.entries; i++) {
        if (!d->e[i].valid) {
            continue;
        }
        const uint32_t *g = dir_groups(d, i);
        for (uint32_t k = 0; k < d->groups; k++) {
            n += g[k] & 1u ? (d->c.shared_vector ? d->lines : 1) : 0;
        }
    }
    return n;
}

uint64_t dir_core_entry_bits(uint32_t range, uint32_t line, uint32_t gpus,
                             bool shared_vector)
{
    if (range <= line) {
        return HW_ADDR_BITS + (gpus - 1) + 1;
    }
    uint64_t base = HW_ADDR_BITS - bits_log2_ceil(range);
    if (shared_vector) {
        return base + (gpus - 1) + 1;
    }
    return base + (uint64_t)(range / line) * gpus + 1;
}
