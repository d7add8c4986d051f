/* The partition map of a platform (docs/parallel.md): which partition of the engine
 * each instance runs in. It is part of the model: outputs depend on it, never on the
 * thread count.
 *
 * Default: one group per GPU (instances with gpu == g) and one for the instances
 * outside any GPU (fabric, host); then groups joined by a wire of latency 0 are merged
 * (union-find), so the map never cuts a zero-latency wire. Partitions are numbered in
 * the order their first instance appears in the description, so a platform whose
 * groups all merge is one partition, partition 0, and runs exactly as without the
 * engine. A wire whose ends are not both instances is left to platform_build to
 * report. */
#include <stdlib.h>

#include "kernel/xalloc.h"
#include "platform_priv.h"

/* The instance index of the port named full, or -1. */
static long platform_partition_inst(const PlatformDesc *d, const char *full)
{
    char inst[512], port[512];
    int k;
    if (!platform_name_split_port(full, inst, port, sizeof inst, &k)) {
        return -1;
    }
    const PlatformInstance *in = platform_desc_find(d, inst);
    return in ? (long)(in - d->inst) : -1;
}

static uint32_t platform_partition_root(uint32_t *up, uint32_t g)
{
    while (up[g] != g) {
        up[g] = up[up[g]];
        g = up[g];
    }
    return g;
}

bool platform_partition(const PlatformDesc *d, PlatformPartition *out, SimError *err)
{
    (void)err;
    uint32_t ngroups = d->info.gpus + 1;
    uint32_t *up = xcalloc(ngroups, sizeof *up);
    uint32_t *num = xcalloc(ngroups, sizeof *num);
    uint32_t *group = xcalloc(d->ninst ? d->ninst : 1, sizeof *group);
    for (uint32_t g = 0; g < ngroups; g++) {
        up[g] = g;
        num[g] = UINT32_MAX;
    }
    for (size_t i = 0; i < d->ninst; i++) {
        int gpu = d->inst[i].gpu;
        group[i] =
            gpu >= 0 && (uint32_t)gpu < d->info.gpus ? (uint32_t)gpu : d->info.gpus;
    }
    for (size_t w = 0; w < d->nwires; w++) {
        long a = platform_partition_inst(d, d->wires[w].a);
        long b = platform_partition_inst(d, d->wires[w].b);
        if (a >= 0 && b >= 0 && d->wires[w].latency == 0) {
            up[platform_partition_root(up, group[a])] =
                platform_partition_root(up, group[b]);
        }
    }
    out->n = 0;
    out->of = xcalloc(d->ninst ? d->ninst : 1, sizeof *out->of);
    for (size_t i = 0; i < d->ninst; i++) {
        uint32_t r = platform_partition_root(up, group[i]);
        if (num[r] == UINT32_MAX) {
            num[r] = out->n++;
        }
        out->of[i] = num[r];
    }
    out->lookahead = SIM_TIME_MAX;
    out->ncut = 0;
    for (size_t w = 0; w < d->nwires; w++) {
        long a = platform_partition_inst(d, d->wires[w].a);
        long b = platform_partition_inst(d, d->wires[w].b);
        if (a >= 0 && b >= 0 && out->of[a] != out->of[b]) {
            out->ncut++;
            if (d->wires[w].latency < out->lookahead) {
                out->lookahead = d->wires[w].latency;
            }
        }
    }
    if (out->n == 0) {
        out->n = 1;
    }
    free(up);
    free(num);
    free(group);
    return true;
}

void platform_partition_free(PlatformPartition *pp)
{
    free(pp->of);
    pp->of = NULL;
    pp->n = 0;
}
