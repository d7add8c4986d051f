/* Platform-wide values: name, gpus, mem_bytes, clock, seed, trace, sms, cus. They are
 * checked with the same parameter machinery as block parameters (so the messages are
 * the same).
 * Decisions: gpus defaults to 1 and is at most 64 (a 64-bit sharer set); the clock
 * is a frequency whose period must be a whole number of picoseconds; GPUs x
 * mem_bytes must fit the 64-bit address space; the name defaults to the file name
 * without its directory and ".json"; every value but the name can be overridden by
 * `set` entries with the bare key (`--set gpus=8`), blamed on the entry when wrong.
 * trace (a folder, relative to the working directory; "" = none) and sms (SMs per GPU,
 * 0 = the count of the entry the cores replace) and cus (CUs per GPU, 0 = as the
 * template writes them) are used by platform_cores.c; a flat dump keeps its trace
 * but refuses sms and cus like gpus (its instances are expanded). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "platform_priv.h"

typedef struct PlatformTopVals {
    uint64_t gpus, mem_bytes, hz, seed, sms, cus;
    char *trace;
} PlatformTopVals;

/* Positions in platform_top_params. */
enum {
    PLATFORM_TOP_GPUS,
    PLATFORM_TOP_MEM,
    PLATFORM_TOP_CLOCK,
    PLATFORM_TOP_SEED,
    PLATFORM_TOP_TRACE,
    PLATFORM_TOP_SMS,
    PLATFORM_TOP_CUS,
    PLATFORM_TOP_N
};

static const ParamDef platform_top_params[] = {
    {.key = "gpus",
     .offset = offsetof(PlatformTopVals, gpus),
     .type = PT_U64,
     .def = "1",
     .min = 1,
     .max = PLATFORM_MAX_GPUS,
     .doc = "number of GPUs"},
    {.key = "mem_bytes",
     .offset = offsetof(PlatformTopVals, mem_bytes),
     .type = PT_SIZE,
     .def = "4GiB",
     .min = 1,
     .doc = "memory per GPU"},
    {.key = "clock",
     .offset = offsetof(PlatformTopVals, hz),
     .type = PT_FREQ,
     .def = "1GHz",
     .min = 1,
     .doc = "clock frequency"},
    {.key = "seed",
     .offset = offsetof(PlatformTopVals, seed),
     .type = PT_U64,
     .def = "1",
     .doc = "platform seed"},
    {.key = "trace",
     .offset = offsetof(PlatformTopVals, trace),
     .type = PT_STRING,
     .def = "",
     .doc = "trace folder of a trace-driven run (\"\" = none)"},
    {.key = "sms",
     .offset = offsetof(PlatformTopVals, sms),
     .type = PT_U64,
     .def = "0",
     .max = PLATFORM_MAX_COUNT,
     .doc = "SMs per GPU of a trace-driven run (0 = the replaced entry's count)"},
    {.key = "cus",
     .offset = offsetof(PlatformTopVals, cus),
     .type = PT_U64,
     .def = "0",
     .max = PLATFORM_MAX_COUNT,
     .doc = "CUs per GPU (0 = the count the template gives the replaced entry)"},
};

/* The default name: the file name without directory and ".json". New string. */
static char *platform_top_default_name(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0) {
        len -= 5;
    }
    return strndup(base, len);
}

bool platform_top_key(const char *key)
{
    for (size_t i = 0; i < sizeof platform_top_params / sizeof platform_top_params[0];
         i++) {
        if (strcmp(key, platform_top_params[i].key) == 0) {
            return true;
        }
    }
    return false;
}

/* Where a platform value came from: the document or a set entry. */
typedef struct PlatformTopFrom {
    json_t *value; /* borrowed, NULL = absent (default) */
    bool set;      /* from a set entry of kind from */
    PlatformSetFrom from;
} PlatformTopFrom;

/* The winning value of key: the document's, overridden by the set objects in order. */
static PlatformTopFrom platform_top_pick(json_t *doc, json_t *doc_set,
                                         const PlatformLoadArgs *a, const char *key)
{
    PlatformTopFrom w = {.value = json_object_get(doc, key)};
    json_t *const sets[] = {doc_set, a->sets, a->cli_sets};
    const PlatformSetFrom kinds[] = {PLATFORM_SET_DOC, PLATFORM_SET_EXTRA,
                                     PLATFORM_SET_CLI};
    for (size_t i = 0; i < 3; i++) {
        json_t *v = sets[i] ? json_object_get(sets[i], key) : NULL;
        if (v) {
            w = (PlatformTopFrom){.value = v, .set = true, .from = kinds[i]};
        }
    }
    return w;
}

/* Prefixes err with where the value of key was written. Returns false. */
static bool platform_top_blame(PlatformLoad *ld, const PlatformTopFrom *w,
                               const PlatformLoadArgs *a, const char *key, SimError *err)
{
    if (w->set) {
        return platform_set_blame(ld, w->from, a, key, err);
    }
    char path[64];
    snprintf(path, sizeof path, "/%s", key);
    return platform_fail_prefix(ld, path, err);
}

bool platform_top_blame_key(PlatformLoad *ld, json_t *doc, json_t *doc_set,
                            const PlatformLoadArgs *a, const char *key, SimError *err)
{
    PlatformTopFrom w = platform_top_pick(doc, doc_set, a, key);
    return platform_top_blame(ld, &w, a, key, err);
}

/* Reads every value of platform_top_params into v (w: where each came from). */
static bool platform_top_values(PlatformLoad *ld, json_t *doc, json_t *doc_set,
                                const PlatformLoadArgs *a, bool allow_gpus,
                                PlatformTopVals *v, PlatformTopFrom *w, SimError *err)
{
    for (size_t i = 0; i < PLATFORM_TOP_N; i++) {
        const ParamDef *p = &platform_top_params[i];
        w[i] = platform_top_pick(doc, doc_set, a, p->key);
        if (w[i].set && !allow_gpus &&
            (i == PLATFORM_TOP_GPUS || i == PLATFORM_TOP_SMS || i == PLATFORM_TOP_CUS)) {
            static const char *const what[] = {[PLATFORM_TOP_GPUS] = "GPUs",
                                               [PLATFORM_TOP_SMS] = "SMs",
                                               [PLATFORM_TOP_CUS] = "CUs"};
            sim_error_set(err,
                          "a flat dump is already expanded for its %s; set %s on the "
                          "platform file it was dumped from",
                          what[i], p->key);
            return platform_top_blame(ld, &w[i], a, p->key, err);
        }
        if (!params_apply(v, p, w[i].value, NULL, err)) {
            return platform_top_blame(ld, &w[i], a, p->key, err);
        }
    }
    return true;
}

bool platform_top_read(PlatformLoad *ld, json_t *doc, json_t *doc_set,
                       const PlatformLoadArgs *a, bool allow_gpus, SimError *err)
{
    PlatformDesc *d = ld->desc;
    PlatformTopVals v = {0};
    PlatformTopFrom w[PLATFORM_TOP_N];
    bool ok = platform_top_values(ld, doc, doc_set, a, allow_gpus, &v, w, err);
    if (v.trace && *v.trace) {
        d->trace = v.trace;
        d->info.trace = d->trace;
    } else {
        free(v.trace);
    }
    if (!ok) {
        return false;
    }
    if (1000000000000ULL % v.hz != 0) {
        sim_error_set(err, "the period of %s is not a whole number of picoseconds",
                      json_string_value(w[PLATFORM_TOP_CLOCK].value));
        return platform_top_blame(ld, &w[PLATFORM_TOP_CLOCK], a, "clock", err);
    }
    if (v.mem_bytes > UINT64_MAX / v.gpus) {
        sim_error_set(err, "%llu GPUs of %llu bytes exceed the 64-bit address space",
                      (unsigned long long)v.gpus, (unsigned long long)v.mem_bytes);
        return platform_top_blame(ld, &w[PLATFORM_TOP_MEM], a, "mem_bytes", err);
    }
    json_t *name;
    if (!platform_check_member(ld, doc, "", "name", JSON_STRING, &name, err)) {
        return false;
    }
    d->name = name ? strdup(json_string_value(name)) : platform_top_default_name(d->file);
    if (!d->name) {
        return platform_fail(ld, "/name", err, "out of memory");
    }
    d->info.gpus = (uint32_t)v.gpus;
    d->info.mem_bytes = v.mem_bytes;
    d->info.clock = 1000000000000ULL / v.hz;
    d->info.seed = v.seed;
    ld->sms = v.sms;
    ld->cus = v.cus;
    return true;
}
