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
 * report.
 *
 * Explicit: the top-level "partitions" {"GLOB": index, ...} of the platform file (or
 * of its flat form). An instance is in the partition of the first glob (in file
 * order) that matches its name; every glob must match an instance, every instance
 * must be matched, every index from 0 to the largest must have an instance, and a
 * wire of latency 0 must not join two partitions (a cut wire needs a latency: the
 * lookahead). The globs are matched when the map is computed, not when the file is
 * read, so a testbench's platform can name the drivers and sinks it adds ("tb.*"). */
#include <stdlib.h>
#include <string.h>

#include "kernel/glob.h"
#include "kernel/json_util.h"
#include "kernel/xalloc.h"
#include "platform_priv.h"

bool platform_partition_read(PlatformLoad *ld, SimError *err)
{
    json_t *map;
    if (!platform_check_member(ld, ld->doc, "", "partitions", JSON_OBJECT, &map, err)) {
        return false;
    }
    if (!map) {
        return true;
    }
    if (json_object_size(map) == 0) {
        return platform_fail(ld, "/partitions", err, "empty partition map");
    }
    const char *glob;
    json_t *v;
    json_object_foreach(map, glob, v) {
        char path[PLATFORM_PATH_MAX] = "/partitions";
        json_pointer_push(path, sizeof path, glob);
        if (!json_is_integer(v)) {
            return platform_fail(ld, path, err,
                                 "expected a partition index (an integer), got %s",
                                 json_kind(v));
        }
        if (json_integer_value(v) < 0 || json_integer_value(v) >= PLATFORM_MAX_PARTS) {
            return platform_fail(ld, path, err, "%lld is not a partition index (0 to %d)",
                                 (long long)json_integer_value(v),
                                 PLATFORM_MAX_PARTS - 1);
        }
    }
    char origin[PLATFORM_PATH_MAX + 256];
    platform_origin(ld, "/partitions", origin, sizeof origin);
    ld->desc->partitions = json_deep_copy(map);
    ld->desc->partitions_origin = strdup(origin);
    if (!ld->desc->partitions || !ld->desc->partitions_origin) {
        return sim_error_set(err, "%s: out of memory", origin);
    }
    return true;
}

/* The explicit map of d into out->of and out->n. */
static bool platform_partition_explicit(const PlatformDesc *d, PlatformPartition *out,
                                        SimError *err)
{
    bool used[PLATFORM_MAX_PARTS] = {false};
    uint32_t top = 0;
    const char *glob;
    json_t *v;
    json_object_foreach(d->partitions, glob, v) {
        bool hit = false;
        for (size_t i = 0; i < d->ninst && !hit; i++) {
            hit = glob_match(glob, d->inst[i].name);
        }
        if (!hit) {
            char at[PLATFORM_PATH_MAX] = "";
            json_pointer_push(at, sizeof at, glob);
            return sim_error_set(err, "%s%s: \"%s\" matches no instance",
                                 d->partitions_origin, at, glob);
        }
    }
    for (size_t i = 0; i < d->ninst; i++) {
        bool hit = false;
        json_object_foreach(d->partitions, glob, v) {
            if (glob_match(glob, d->inst[i].name)) {
                out->of[i] = (uint32_t)json_integer_value(v);
                hit = true;
                break;
            }
        }
        if (!hit) {
            return sim_error_set(err, "%s: instance %s is in no partition",
                                 d->partitions_origin, d->inst[i].name);
        }
        used[out->of[i]] = true;
        top = out->of[i] > top ? out->of[i] : top;
    }
    for (uint32_t k = 0; k <= top; k++) {
        if (!used[k]) {
            return sim_error_set(err, "%s: partition %u has no instance",
                                 d->partitions_origin, k);
        }
    }
    out->n = top + 1;
    return true;
}

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

/* The default map of d into out->of and out->n. */
static void platform_partition_default(const PlatformDesc *d, PlatformPartition *out)
{
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
    for (size_t i = 0; i < d->ninst; i++) {
        uint32_t r = platform_partition_root(up, group[i]);
        if (num[r] == UINT32_MAX) {
            num[r] = out->n++;
        }
        out->of[i] = num[r];
    }
    free(up);
    free(num);
    free(group);
}

bool platform_partition(const PlatformDesc *d, PlatformPartition *out, SimError *err)
{
    out->of = xcalloc(d->ninst ? d->ninst : 1, sizeof *out->of);
    if (!d->partitions) {
        platform_partition_default(d, out);
    } else if (!platform_partition_explicit(d, out, err)) {
        platform_partition_free(out);
        return false;
    }
    out->lookahead = SIM_TIME_MAX;
    out->ncut = 0;
    for (size_t w = 0; w < d->nwires; w++) {
        long a = platform_partition_inst(d, d->wires[w].a);
        long b = platform_partition_inst(d, d->wires[w].b);
        if (a >= 0 && b >= 0 && out->of[a] != out->of[b]) {
            if (d->wires[w].latency == 0) {
                sim_error_set(err,
                              "%s: wire %s - %s has latency 0 and joins partitions %u "
                              "and %u (a cut wire needs a latency)",
                              d->wires[w].origin, d->wires[w].a, d->wires[w].b,
                              out->of[a], out->of[b]);
                platform_partition_free(out);
                return false;
            }
            out->ncut++;
            if (d->wires[w].latency < out->lookahead) {
                out->lookahead = d->wires[w].latency;
            }
        }
    }
    if (out->n == 0) {
        out->n = 1;
    }
    return true;
}

void platform_partition_free(PlatformPartition *pp)
{
    free(pp->of);
    pp->of = NULL;
    pp->n = 0;
}
