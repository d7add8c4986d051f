/* The "cores" section of a template platform (docs/platform-format.md, Cores): the
 * executing GPU that takes the place of a traffic-generating GPU template entry when
 * the top-level value trace is non-empty.
 *
 *     "cores": {"doc", "replace": "cu",
 *               "sm": {"type", "params", "doc"},
 *               "dispatch": {"type", "params", "latency", "doc"},
 *               "host": {"type", "params", "latency", "doc"},
 *               "scale": ["xbar.cus", "bgu", ...]}
 *
 * Applied: the entry named by replace is not expanded; in its place each GPU gets
 * gpu<g>.sm[0..n-1] (n = the top-level sms, else the replaced entry's count) and
 * gpu<g>.disp, and the top level gets host. Every GPU template wire end naming the
 * replaced entry ("cu[*].mem", "cu[2].mem") names sm instead. New wires:
 * gpu<g>.sm[k].ctl <-> gpu<g>.disp.sm[k] (dispatch latency, default 0ns) and
 * host.gpu[g] <-> gpu<g>.disp.host (host latency, default 100ns). A scale item
 * "entry" sets that GPU template entry's count to n (the entry must have a count), an
 * item "entry.param" sets that parameter of every instance of the entry to n (before
 * the `set` overrides, which so still win). The loader also sets dispatch's `sms` to
 * n and host's `gpus` to the GPU count when their types have those parameters.
 *
 * The top-level cus (CUs per GPU; 0 = as written) makes the CU count one value too:
 * without a trace, a non-zero cus sets the replaced entry's count (it must have one),
 * its instances' parameter "cus" when their type has one (the cu's line-ownership
 * rule), and every scale item, to cus; nothing else changes. With a trace, n is sms,
 * else cus, else the replaced entry's count.
 *
 * Decisions: the section is checked whether or not it is applied (keys, JSON types,
 * latencies, replace naming a GPU template entry, scale items naming an entry and a
 * parameter of its type), but the types of sm, dispatch and host are looked up only
 * when applied, so a platform stays usable for cu runs with a registry that lacks
 * them. A trace on a platform without the section is an error (there is nothing to
 * run it). Only GPU template wires are renamed (top-level wires and `set` keys are
 * the user's own names). Errors of the added instances and wires name the section's
 * entries (/cores/sm, /cores/dispatch, /cores/host); those of a scale item name the
 * item. */
#include <stdio.h>
#include <string.h>

#include "kernel/json_util.h"
#include "kernel/registry.h"
#include "params.h"
#include "platform_priv.h"

static const char *const platform_cores_keys[] = {"doc",  "replace", "sm", "dispatch",
                                                  "host", "scale",   NULL};
static const char *const platform_cores_sm_keys[] = {"type", "params", "doc", NULL};
static const char *const platform_cores_ctl_keys[] = {"type", "params", "latency", "doc",
                                                      NULL};

/* The GPU template's blocks object (borrowed; NULL when absent). */
static json_t *platform_cores_gpu_blocks(const PlatformLoad *ld)
{
    return json_object_get(json_object_get(ld->doc, "gpu"), "blocks");
}

/* Checks one of sm, dispatch, host (with_latency: the latter two) and reads its
 * latency (def when absent) into *latency. */
static bool platform_cores_entry(PlatformLoad *ld, json_t *c, const char *key,
                                 bool with_latency, const char *def, SimTime *latency,
                                 SimError *err)
{
    char path[PLATFORM_PATH_MAX], p[PLATFORM_PATH_MAX];
    platform_path(path, sizeof path, "/cores", key);
    json_t *e, *type, *params, *doc, *lat = NULL;
    if (!platform_check_member(ld, c, "/cores", key, JSON_OBJECT, &e, err)) {
        return false;
    }
    if (!e) {
        return platform_fail(ld, "/cores", err, "missing key \"%s\"", key);
    }
    if (!platform_check_keys(
            ld, e, path, with_latency ? platform_cores_ctl_keys : platform_cores_sm_keys,
            err) ||
        !platform_check_member(ld, e, path, "type", JSON_STRING, &type, err) ||
        !platform_check_member(ld, e, path, "params", JSON_OBJECT, &params, err) ||
        !platform_check_member(ld, e, path, "doc", JSON_STRING, &doc, err) ||
        (with_latency &&
         !platform_check_member(ld, e, path, "latency", JSON_STRING, &lat, err))) {
        return false;
    }
    if (!type) {
        return platform_fail(ld, path, err, "missing key \"type\"");
    }
    if (with_latency && !params_parse_latency(lat ? json_string_value(lat) : def,
                                              ld->desc->info.clock, latency, err)) {
        return platform_fail_prefix(ld, platform_path(p, sizeof p, path, "latency"), err);
    }
    return true;
}

/* The block type of section entry key, failing at its "type" when the registry
 * has none. */
static const BlockType *platform_cores_type(PlatformLoad *ld, const char *key,
                                            SimError *err)
{
    json_t *e = json_object_get(ld->cores.section, key);
    const char *name = json_string_value(json_object_get(e, "type"));
    const BlockType *t = registry_find(ld->desc->registry, name);
    if (!t) {
        char p[PLATFORM_PATH_MAX];
        platform_path(p, sizeof p, "/cores", key);
        json_pointer_push(p, sizeof p, "type");
        platform_fail(ld, p, err, "unknown block type \"%s\" (see mgtlm blocks)", name);
    }
    return t;
}

/* Checks scale item i: it names a GPU template entry other than the replaced one,
 * with a count when bare (a parameter is checked by platform_cores_scale). */
static bool platform_cores_scale_item(PlatformLoad *ld, size_t i, json_t *item,
                                      SimError *err)
{
    char path[PLATFORM_PATH_MAX];
    snprintf(path, sizeof path, "/cores/scale");
    json_pointer_push_index(path, sizeof path, i);
    if (!json_is_string(item)) {
        return platform_fail(ld, path, err, "expected a string, got %s", json_kind(item));
    }
    const char *s = json_string_value(item), *dot = strchr(s, '.');
    char entry[PLATFORM_MAX_NAME + 1];
    size_t len = dot ? (size_t)(dot - s) : strlen(s);
    json_t *e = NULL;
    if (len <= PLATFORM_MAX_NAME) {
        snprintf(entry, sizeof entry, "%.*s", (int)len, s);
        e = json_object_get(platform_cores_gpu_blocks(ld), entry);
    }
    if (!e || strcmp(entry, ld->cores.replace) == 0) {
        return platform_fail(ld, path, err,
                             "\"%s\" names no entry of the GPU template (other than the "
                             "replaced \"%s\")",
                             s, ld->cores.replace);
    }
    if (!dot && !json_is_integer(json_object_get(e, "count"))) {
        return platform_fail(ld, path, err,
                             "\"%s\": entry %s has no count to scale (name one of its "
                             "parameters: \"%s.<param>\")",
                             s, entry, entry);
    }
    return true;
}

/* Checks replace and scale against the GPU template. */
static bool platform_cores_names(PlatformLoad *ld, json_t *c, SimError *err)
{
    json_t *rep, *scale;
    if (!platform_check_member(ld, c, "/cores", "replace", JSON_STRING, &rep, err) ||
        !platform_check_member(ld, c, "/cores", "scale", JSON_ARRAY, &scale, err)) {
        return false;
    }
    if (!rep) {
        return platform_fail(ld, "/cores", err, "missing key \"replace\"");
    }
    ld->cores.replace = json_string_value(rep);
    if (!json_object_get(platform_cores_gpu_blocks(ld), ld->cores.replace)) {
        return platform_fail(ld, "/cores/replace", err,
                             "\"%s\" names no entry of the GPU template (/gpu/blocks)",
                             ld->cores.replace);
    }
    size_t i;
    json_t *item;
    json_array_foreach(scale, i, item) {
        if (!platform_cores_scale_item(ld, i, item, err)) {
            return false;
        }
    }
    return true;
}

/* The core count n: with a trace the top-level sms, else cus, else the replaced
 * entry's count (1 without); without one, cus (the entry must have a count). */
static bool platform_cores_count(PlatformLoad *ld, json_t *doc_set,
                                 const PlatformLoadArgs *a, SimError *err)
{
    char path[PLATFORM_PATH_MAX];
    platform_path(path, sizeof path, "/gpu/blocks", ld->cores.replace);
    json_t *e = json_object_get(platform_cores_gpu_blocks(ld), ld->cores.replace), *c;
    if (!platform_check_member(ld, e, path, "count", JSON_INTEGER, &c, err)) {
        return false;
    }
    if (!ld->cores.apply && !c) {
        sim_error_set(err, "entry %s (cores.replace) has no count to set",
                      ld->cores.replace);
        return platform_top_blame_key(ld, ld->doc, doc_set, a, "cus", err);
    }
    json_int_t n = c ? json_integer_value(c) : 1;
    if (n < 1 || n > PLATFORM_MAX_COUNT) {
        char p[PLATFORM_PATH_MAX];
        return platform_fail(ld, platform_path(p, sizeof p, path, "count"), err,
                             "%lld is %s", (long long)n,
                             n < 1 ? "below minimum 1"
                                   : "above maximum " PLATFORM_STR(PLATFORM_MAX_COUNT));
    }
    ld->cores.count = ld->sms && ld->cores.apply ? ld->sms
                      : ld->cus                  ? ld->cus
                                                 : (uint64_t)n;
    return true;
}

/* Sets the count of GPU template entry e to the core count. */
static bool platform_cores_set_count(PlatformLoad *ld, json_t *e, SimError *err)
{
    if (e && json_object_set_new(e, "count", json_integer((json_int_t)ld->cores.count))) {
        return platform_fail(ld, "/cores/scale", err, "out of memory");
    }
    return true;
}

/* end with its replaced-entry prefix renamed to "sm" (new JSON string), or NULL when
 * it does not name the replaced entry. */
static json_t *platform_cores_rename(const char *end, const char *replace)
{
    size_t len = strlen(replace);
    if (strncmp(end, replace, len) != 0 || (end[len] != '.' && end[len] != '[')) {
        return NULL;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "sm%s", end + len);
    return json_string(buf);
}

/* Applies the section to the document: scale counts (and, without a trace, the
 * replaced entry's count), renamed wire ends. */
static bool platform_cores_rewrite(PlatformLoad *ld, SimError *err)
{
    json_t *blocks = platform_cores_gpu_blocks(ld);
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(ld->cores.section, "scale"), i, item) {
        if (!platform_cores_set_count(
                ld, json_object_get(blocks, json_string_value(item)), err)) {
            return false;
        }
    }
    if (!ld->cores.apply) {
        return platform_cores_set_count(ld, json_object_get(blocks, ld->cores.replace),
                                        err);
    }
    json_t *w;
    json_array_foreach(json_object_get(json_object_get(ld->doc, "gpu"), "wires"), i, w) {
        static const char *const ends[] = {"a", "b"};
        for (size_t k = 0; k < 2; k++) {
            json_t *v = json_object_get(w, ends[k]);
            json_t *renamed =
                json_is_string(v)
                    ? platform_cores_rename(json_string_value(v), ld->cores.replace)
                    : NULL;
            if (renamed && json_object_set_new(w, ends[k], renamed) != 0) {
                return platform_fail(ld, "/gpu/wires", err, "out of memory");
            }
        }
    }
    return platform_cores_type(ld, "sm", err) &&
           platform_cores_type(ld, "dispatch", err) &&
           platform_cores_type(ld, "host", err);
}

bool platform_cores_prepare(PlatformLoad *ld, json_t *doc_set, const PlatformLoadArgs *a,
                            SimError *err)
{
    json_t *c;
    memset(&ld->cores, 0, sizeof ld->cores);
    if (!platform_check_member(ld, ld->doc, "", "cores", JSON_OBJECT, &c, err)) {
        return false;
    }
    bool trace = ld->desc->trace != NULL;
    if (!c) {
        if (trace || ld->cus) {
            sim_error_set(err, trace ? "the platform has no \"cores\" section to run a "
                                       "trace with"
                                     : "the platform has no \"cores\" section naming "
                                       "its CU entry (cores.replace)");
            return platform_top_blame_key(ld, ld->doc, doc_set, a,
                                          trace ? "trace" : "cus", err);
        }
        return true;
    }
    json_t *doc;
    ld->cores.section = c;
    if (!platform_check_keys(ld, c, "/cores", platform_cores_keys, err) ||
        !platform_check_member(ld, c, "/cores", "doc", JSON_STRING, &doc, err) ||
        !platform_cores_entry(ld, c, "sm", false, NULL, NULL, err) ||
        !platform_cores_entry(ld, c, "dispatch", true, "0ns", &ld->cores.disp_latency,
                              err) ||
        !platform_cores_entry(ld, c, "host", true, "100ns", &ld->cores.host_latency,
                              err) ||
        !platform_cores_names(ld, c, err)) {
        return false;
    }
    ld->cores.apply = trace;
    ld->cores.scaled = trace || ld->cus != 0;
    return !ld->cores.scaled ||
           (platform_cores_count(ld, doc_set, a, err) && platform_cores_rewrite(ld, err));
}

bool platform_cores_replaces(const PlatformLoad *ld, const char *key)
{
    return ld->cores.apply && strcmp(key, ld->cores.replace) == 0;
}

/* Adds one instance of section entry key: its params, plus count_param = count
 * when its type has that parameter (count_param NULL: none). */
static bool platform_cores_add(PlatformLoad *ld, const char *name, const char *key,
                               int gpu, const char *count_param, uint64_t count,
                               SimError *err)
{
    char path[PLATFORM_PATH_MAX];
    platform_path(path, sizeof path, "/cores", key);
    json_t *e = json_object_get(ld->cores.section, key);
    const char *type = json_string_value(json_object_get(e, "type"));
    json_t *given = json_object_get(e, "params");
    json_t *params = given ? json_deep_copy(given) : json_object();
    const BlockType *t = registry_find(ld->desc->registry, type);
    if (!params || (count_param && t && params_find(t, count_param) &&
                    json_object_set_new(params, count_param,
                                        json_integer((json_int_t)count)) != 0)) {
        json_decref(params);
        return platform_fail(ld, path, err, "out of memory");
    }
    bool ok = platform_load_add(ld, name, type, gpu, params, path, err);
    json_decref(params);
    return ok;
}

bool platform_cores_gpu_add(PlatformLoad *ld, int gpu, SimError *err)
{
    char name[PLATFORM_MAX_NAME + 32];
    for (uint64_t k = 0; k < ld->cores.count; k++) {
        snprintf(name, sizeof name, "gpu%d.sm[%llu]", gpu, (unsigned long long)k);
        if (!platform_cores_add(ld, name, "sm", gpu, NULL, 0, err)) {
            return false;
        }
    }
    snprintf(name, sizeof name, "gpu%d.disp", gpu);
    return platform_cores_add(ld, name, "dispatch", gpu, "sms", ld->cores.count, err);
}

bool platform_cores_host_add(PlatformLoad *ld, SimError *err)
{
    return !ld->cores.apply ||
           platform_cores_add(ld, "host", "host", -1, "gpus", ld->desc->info.gpus, err);
}

/* Checks that every instance of GPU template entry `entry` has parameter param
 * (optional: skips the instances whose type has none) and, scaled, sets it to the
 * core count (errors at the scale item, path). */
static bool platform_cores_scale_param(PlatformLoad *ld, const char *entry,
                                       const char *param, bool optional, const char *path,
                                       SimError *err)
{
    PlatformDesc *d = ld->desc;
    json_t *n = json_integer((json_int_t)ld->cores.count);
    bool ok = n != NULL;
    size_t len = strlen(entry);
    for (size_t i = 0; ok && i < d->ninst; i++) {
        PlatformInstance *in = &d->inst[i];
        const char *dot = in->gpu >= 0 ? strchr(in->name, '.') : NULL;
        if (!dot || strncmp(dot + 1, entry, len) != 0 ||
            (dot[1 + len] != '\0' && dot[1 + len] != '[')) {
            continue;
        }
        const ParamDef *p = params_find(in->type, param);
        if (!p && !optional) {
            ok = platform_fail(ld, path, err, "block type %s has no parameter \"%s\"",
                               in->type->name, param);
        } else if (p && ld->cores.scaled) {
            ok = platform_check_value(in->type, p, n, &d->info, err) &&
                 json_object_set(in->params, param, n) == 0;
            if (!ok) {
                sim_error_prefix(err, ld->cores.apply && (ld->sms || !ld->cus) ? "sms"
                                                                               : "cus");
                platform_fail_prefix(ld, path, err);
            }
        }
    }
    json_decref(n);
    return ok;
}

bool platform_cores_scale(PlatformLoad *ld, SimError *err)
{
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(ld->cores.section, "scale"), i, item) {
        const char *s = json_string_value(item), *dot = strchr(s, '.');
        if (!dot) {
            continue;
        }
        char path[PLATFORM_PATH_MAX], entry[PLATFORM_MAX_NAME + 1];
        snprintf(path, sizeof path, "/cores/scale");
        json_pointer_push_index(path, sizeof path, i);
        snprintf(entry, sizeof entry, "%.*s", (int)(dot - s), s);
        if (!platform_cores_scale_param(ld, entry, dot + 1, false, path, err)) {
            return false;
        }
    }
    return ld->cores.apply || !ld->cores.scaled ||
           platform_cores_scale_param(ld, ld->cores.replace, "cus", true,
                                      "/cores/replace", err);
}

bool platform_cores_gpu_wires(PlatformLoad *ld, int gpu, SimError *err)
{
    for (uint64_t k = 0; ld->cores.apply && k < ld->cores.count; k++) {
        char a[PLATFORM_MAX_NAME + 48], b[PLATFORM_MAX_NAME + 48];
        snprintf(a, sizeof a, "gpu%d.sm[%llu].ctl", gpu, (unsigned long long)k);
        snprintf(b, sizeof b, "gpu%d.disp.sm[%llu]", gpu, (unsigned long long)k);
        if (!platform_wire_add(ld, a, b, ld->cores.disp_latency, "/cores/dispatch",
                               err)) {
            return false;
        }
    }
    return true;
}

bool platform_cores_host_wires(PlatformLoad *ld, SimError *err)
{
    for (uint32_t g = 0; ld->cores.apply && g < ld->desc->info.gpus; g++) {
        char a[48], b[48];
        snprintf(a, sizeof a, "host.gpu[%u]", g);
        snprintf(b, sizeof b, "gpu%u.disp.host", g);
        if (!platform_wire_add(ld, a, b, ld->cores.host_latency, "/cores/host", err)) {
            return false;
        }
    }
    return true;
}
