/* The flat form (what `mgtlm validate --dump` prints), accepted as input:
 * {"format": "mgtlm-flat", "name", "gpus", "mem_bytes", "clock", "seed", "trace",
 *  "instances": [{"name", "type", "gpu", "index", "params"}],
 *  "wires": [{"a", "b", "latency"}], "partitions" (optional, as in the template form)}.
 * Instances and wires are taken as listed (no templates, fabric or extends); "gpu" is
 * -1 or a GPU index, "index" must agree with the name's trailing "[k]" (-1 without
 * one). Command-line and extra sets apply after the instances are read. */
#include <stdio.h>
#include <string.h>

#include "kernel/json_util.h"
#include "kernel/registry.h"
#include "platform_priv.h"

static const char *const platform_flat_keys[] = {
    "format", "name",      "gpus",  "mem_bytes",  "clock", "seed",
    "trace",  "instances", "wires", "partitions", NULL};
static const char *const platform_flat_inst_keys[] = {"name",  "type",   "gpu",
                                                      "index", "params", NULL};

static bool platform_flat_instance(PlatformLoad *ld, json_t *e, const char *path,
                                   SimError *err)
{
    if (!json_is_object(e)) {
        return platform_fail(ld, path, err, "expected an object, got %s", json_kind(e));
    }
    json_t *name, *type, *gpu, *index, *params;
    if (!platform_check_keys(ld, e, path, platform_flat_inst_keys, err) ||
        !platform_check_member(ld, e, path, "name", JSON_STRING, &name, err) ||
        !platform_check_member(ld, e, path, "type", JSON_STRING, &type, err) ||
        !platform_check_member(ld, e, path, "gpu", JSON_INTEGER, &gpu, err) ||
        !platform_check_member(ld, e, path, "index", JSON_INTEGER, &index, err) ||
        !platform_check_member(ld, e, path, "params", JSON_OBJECT, &params, err)) {
        return false;
    }
    if (!name || !type) {
        return platform_fail(ld, path, err, "missing key \"%s\"", name ? "type" : "name");
    }
    char p[PLATFORM_PATH_MAX];
    json_int_t g = gpu ? json_integer_value(gpu) : -1;
    if (g < -1 || g >= (json_int_t)ld->desc->info.gpus) {
        platform_path(p, sizeof p, path, "gpu");
        return platform_fail(ld, p, err, "%lld is not -1 or a GPU index below %u",
                             (long long)g, ld->desc->info.gpus);
    }
    if (!registry_find(ld->desc->registry, json_string_value(type))) {
        platform_path(p, sizeof p, path, "type");
        return platform_fail(ld, p, err, "unknown block type \"%s\" (see mgtlm blocks)",
                             json_string_value(type));
    }
    if (!platform_load_add(ld, json_string_value(name), json_string_value(type), (int)g,
                           params, path, err)) {
        return false;
    }
    int want = ld->desc->inst[ld->desc->ninst - 1].index;
    if (index && json_integer_value(index) != want) {
        platform_path(p, sizeof p, path, "index");
        return platform_fail(ld, p, err, "%lld does not match the name %s (index %d)",
                             (long long)json_integer_value(index),
                             json_string_value(name), want);
    }
    return true;
}

static bool platform_flat_instances(PlatformLoad *ld, json_t *list, SimError *err)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[PLATFORM_PATH_MAX];
        snprintf(p, sizeof p, "/instances");
        json_pointer_push_index(p, sizeof p, i);
        if (!platform_flat_instance(ld, e, p, err)) {
            return false;
        }
    }
    return true;
}

bool platform_flat_load(PlatformLoad *ld, const PlatformLoadArgs *a, SimError *err)
{
    json_t *doc = ld->doc, *format, *inst, *wires;
    if (!platform_check_keys(ld, doc, "", platform_flat_keys, err) ||
        !platform_check_member(ld, doc, "", "format", JSON_STRING, &format, err)) {
        return false;
    }
    if (!format || strcmp(json_string_value(format), PLATFORM_FLAT_FORMAT) != 0) {
        return platform_fail(ld, "/format", err, "expected \"" PLATFORM_FLAT_FORMAT "\"");
    }
    if (!platform_top_read(ld, doc, NULL, a, false, err) ||
        !platform_check_member(ld, doc, "", "instances", JSON_ARRAY, &inst, err) ||
        !platform_check_member(ld, doc, "", "wires", JSON_ARRAY, &wires, err)) {
        return false;
    }
    if (!inst) {
        return platform_fail(ld, "", err, "missing key \"instances\"");
    }
    return platform_flat_instances(ld, inst, err) &&
           (!a->sets || platform_set_apply(ld, a->sets, PLATFORM_SET_EXTRA, a, err)) &&
           (!a->cli_sets ||
            platform_set_apply(ld, a->cli_sets, PLATFORM_SET_CLI, a, err)) &&
           platform_check_instances(ld, err) &&
           (!wires || platform_wires_add(ld, wires, "/wires", -1, err)) &&
           platform_partition_read(ld, err);
}
