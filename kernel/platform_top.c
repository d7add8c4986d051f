/* Platform-wide values: name, gpus, mem_bytes, clock, seed. They are checked with the
 * same parameter machinery as block parameters (so the messages are the same).
 * Decisions: gpus defaults to 1 and is at most 64 (a 64-bit sharer set); the clock
 * is a frequency whose period must be a whole number of picoseconds; GPUs x
 * mem_bytes must fit the 64-bit address space; the name defaults to the file name
 * without its directory and ".json". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "platform_priv.h"

typedef struct PlatformTopVals {
    uint64_t gpus, mem_bytes, hz, seed;
} PlatformTopVals;

static const ParamDef platform_top_params[] = {
    {"gpus", offsetof(PlatformTopVals, gpus), PT_U64, "1", 1, PLATFORM_MAX_GPUS, 0, 0,
     NULL, "number of GPUs"},
    {"mem_bytes", offsetof(PlatformTopVals, mem_bytes), PT_SIZE, "4GiB", 1, 0, 0, 0, NULL,
     "memory per GPU"},
    {"clock", offsetof(PlatformTopVals, hz), PT_FREQ, "1GHz", 1, 0, 0, 0, NULL,
     "clock frequency"},
    {"seed", offsetof(PlatformTopVals, seed), PT_U64, "1", 0, 0, 0, 0, NULL,
     "platform seed"},
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

bool platform_top_read(PlatformLoad *ld, json_t *doc, SimError *err)
{
    PlatformDesc *d = ld->desc;
    PlatformTopVals v = {0};
    for (size_t i = 0; i < sizeof platform_top_params / sizeof platform_top_params[0];
         i++) {
        const ParamDef *p = &platform_top_params[i];
        if (!params_apply(&v, p, json_object_get(doc, p->key), NULL, err)) {
            char path[64];
            snprintf(path, sizeof path, "/%s", p->key);
            return platform_fail_prefix(ld, path, err);
        }
    }
    if (1000000000000ULL % v.hz != 0) {
        return platform_fail(ld, "/clock", err,
                             "the period of %s is not a whole number of picoseconds",
                             json_string_value(json_object_get(doc, "clock")));
    }
    if (v.mem_bytes > UINT64_MAX / v.gpus) {
        return platform_fail(ld, "/mem_bytes", err,
                             "%llu GPUs of %llu bytes exceed the 64-bit address space",
                             (unsigned long long)v.gpus, (unsigned long long)v.mem_bytes);
    }
    json_t *name;
    if (!platform_member(ld, doc, "", "name", JSON_STRING, &name, err)) {
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
    return true;
}
