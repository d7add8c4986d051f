/* The cu's cross-instance check (BlockType.agree): pattern shared is only exact when
 * every cu of the platform plays it with the same rules, so a platform that breaks
 * them is refused at load (exit 2) instead of running into data_errors.
 *
 * Checked over the cus of pattern shared, in description order, against the first:
 * - every other cu runs pattern none (issues nothing): any other traffic could write
 *   the region or read lines the predicates do not describe;
 * - footprint, line, cus, kernels, kernel_time, write_frac, read_only_frac, fill and
 *   barrier are equal (they define the predicates, the region and the kernel slots,
 *   and either all of them wait for the kernel barrier or none);
 * - the global ids gpu * cus + index cover 0 .. gpus * cus - 1 exactly once, so every
 *   line has the one writer the predicates assume.
 * Not checkable here (other block types): that no other unit writes the region, that
 * the memories' `fill` equals the cus' and that, with barrier 1, every bar[0] is wired
 * to the same kbar (docs/blocks.md).
 * The check only reads: the kernel barrier itself is the kbar block (kbar.c), reached
 * by transactions on each cu's bar[0]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/workload/cu_priv.h"

/* The parameters every cu of pattern shared must share, compared as stored. */
#define CU_AGREE_KEY(field) #field, offsetof(Cu, field), sizeof(((Cu *)0)->field)
static const struct {
    const char *key;
    size_t offset, size;
} cu_agree_keys[] = {
    {CU_AGREE_KEY(footprint)},
    {CU_AGREE_KEY(line)},
    {CU_AGREE_KEY(cus)},
    {CU_AGREE_KEY(kernels)},
    {CU_AGREE_KEY(kernel_time)},
    {CU_AGREE_KEY(write_frac)},
    {CU_AGREE_KEY(read_only_frac)},
    {CU_AGREE_KEY(fill)},
    {CU_AGREE_KEY(barrier)},
};

/* The first parameter of s that differs from f, or NULL. */
static const char *cu_agree_differs(const Cu *f, const Cu *s)
{
    for (size_t k = 0; k < sizeof cu_agree_keys / sizeof cu_agree_keys[0]; k++) {
        if (memcmp((const char *)f + cu_agree_keys[k].offset,
                   (const char *)s + cu_agree_keys[k].offset,
                   cu_agree_keys[k].size) != 0) {
            return cu_agree_keys[k].key;
        }
    }
    return NULL;
}

/* Checks that the shared cus' global ids cover every id once; cus[fi] is the first. */
static bool cu_agree_ids(Block *const *cus, size_t n, size_t fi, size_t *bad,
                         SimError *err)
{
    const Cu *f = (const Cu *)cus[fi];
    uint64_t owners = (uint64_t)f->base.plat->gpus * f->cus;
    size_t *holder = malloc((size_t)owners * sizeof *holder);
    if (!holder) {
        return sim_error_set(err, "out of memory");
    }
    for (uint64_t id = 0; id < owners; id++) {
        holder[id] = n;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const Cu *c = (const Cu *)cus[i];
        if (c->pattern != CU_SHARED) {
            continue;
        }
        uint64_t id = (uint64_t)c->own * c->cus + (uint64_t)c->unit;
        if (holder[id] != n) {
            *bad = i;
            ok = sim_error_set(err,
                               "%s: pattern shared: global cu id %llu (gpu %d, index %d) "
                               "is also %s's: each id gpu * cus + index needs exactly "
                               "one cu",
                               c->base.name, (unsigned long long)id, c->own, c->unit,
                               cus[holder[id]]->name);
        }
        holder[id] = i;
    }
    for (uint64_t id = 0; ok && id < owners; id++) {
        if (holder[id] == n) {
            *bad = fi;
            ok = sim_error_set(
                err,
                "%s: pattern shared: no cu has global id %llu (gpu %llu, "
                "index %llu), so its lines would never be written: every "
                "GPU needs cus = %llu cus of pattern shared, indexed 0 to "
                "%llu",
                cus[*bad]->name, (unsigned long long)id,
                (unsigned long long)(id / f->cus), (unsigned long long)(id % f->cus),
                (unsigned long long)f->cus, (unsigned long long)(f->cus - 1));
        }
    }
    free(holder);
    return ok;
}

bool cu_agree(Block *const *cus, size_t n, size_t *bad, SimError *err)
{
    size_t fi = 0;
    while (fi < n && ((const Cu *)cus[fi])->pattern != CU_SHARED) {
        fi++;
    }
    if (fi == n) {
        return true;
    }
    const Cu *f = (const Cu *)cus[fi];
    for (size_t i = 0; i < n; i++) {
        const Cu *c = (const Cu *)cus[i];
        *bad = i;
        if (c->pattern != CU_SHARED && c->pattern != CU_NONE) {
            return sim_error_set(err,
                                 "%s: pattern %s beside pattern shared (%s): with "
                                 "shared every cu runs shared or none",
                                 c->base.name, cu_patterns[c->pattern], f->base.name);
        }
        const char *key = c->pattern == CU_SHARED ? cu_agree_differs(f, c) : NULL;
        if (key) {
            return sim_error_set(err,
                                 "%s: pattern shared: %s differs from %s's (every cu of "
                                 "pattern shared has the same footprint, line, cus, "
                                 "kernels, kernel_time, write_frac, read_only_frac, fill "
                                 "and barrier)",
                                 c->base.name, key, f->base.name);
        }
    }
    return cu_agree_ids(cus, n, fi, bad, err);
}
