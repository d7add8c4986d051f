/* Wire entries {"a": port, "b": port, "latency": "1ns", "doc": "..."}; latency
 * defaults to "0ns". `[*]` expands element-wise: on the instance part ("cu[*].mem")
 * it stands for the array instances cu[0], cu[1], ... that exist; on the port part
 * ("xbar.cu[*]") for every element of that array port, whose count is the value of
 * the port's count parameter. Both sides need `[*]` and the same count; at most one
 * `[*]` per side. Wires are expanded after `set`, so counts see the final values.
 * Ports themselves are checked by the builder (which names the wire's origin).
 * "name" names a wire for overlays (platform_overlay.c; a wire without one is named by
 * its b end): a name must not be another wire's name in the same list. */
#include <stdio.h>
#include <string.h>

#include "kernel/json_util.h"
#include "params.h"
#include "platform_priv.h"

#define PLATFORM_STAR "[*]"
#define PLATFORM_MAX_PORT_NAME 200

static const char *const platform_wire_keys[] = {"a",   "b",    "latency",
                                                 "doc", "name", NULL};

/* pat with its `[*]` replaced by "[k]". */
static void platform_star_subst(const char *pat, size_t k, char *out, size_t n)
{
    const char *s = strstr(pat, PLATFORM_STAR);
    snprintf(out, n, "%.*s[%zu]%s", (int)(s - pat), pat, k, s + strlen(PLATFORM_STAR));
}

/* Count of the array port named by the port part of pat ("inst.name[*]"). */
static bool platform_star_ports(PlatformLoad *ld, const char *pat, const char *dot,
                                size_t *n, SimError *err)
{
    char inst[256], port[256];
    snprintf(inst, sizeof inst, "%.*s", (int)(dot - pat), pat);
    snprintf(port, sizeof port, "%s", dot + 1);
    size_t plen = strlen(port) - strlen(PLATFORM_STAR);
    if (strcmp(port + plen, PLATFORM_STAR) != 0) {
        return sim_error_set(err, "\"%s\": [*] must end the port name", pat);
    }
    port[plen] = '\0';
    const PlatformInstance *in = platform_desc_find(ld->desc, inst);
    if (!in) {
        return sim_error_set(err, "\"%s\": no instance %s", pat, inst);
    }
    const PortDef *pd = platform_type_port(in->type, port);
    if (!pd) {
        return sim_error_set(err, "\"%s\": block type %s has no port \"%s\"", pat,
                             in->type->name, port);
    }
    if (!pd->count_param) {
        return sim_error_set(err, "\"%s\": port %s of block type %s is not an array", pat,
                             port, in->type->name);
    }
    uint64_t count;
    if (!platform_state_u64(in, &ld->desc->info, pd->count_param, &count, err)) {
        return false;
    }
    *n = (size_t)count;
    return true;
}

/* *n = how many elements the `[*]` of pat stands for (*has = false without one). */
static bool platform_star_count(PlatformLoad *ld, const char *pat, bool *has, size_t *n,
                                SimError *err)
{
    const char *s = strstr(pat, PLATFORM_STAR);
    *has = s != NULL;
    *n = 1;
    if (!s) {
        return true;
    }
    if (strstr(s + 1, PLATFORM_STAR)) {
        return sim_error_set(err, "\"%s\": more than one [*]", pat);
    }
    const char *dot = strrchr(pat, '.');
    if (!dot) {
        return sim_error_set(err, "\"%s\": expected <instance>.<port>", pat);
    }
    if (s > dot) {
        return platform_star_ports(ld, pat, dot, n, err);
    }
    char inst[256], name[256];
    snprintf(inst, sizeof inst, "%.*s", (int)(dot - pat), pat);
    size_t k = 0;
    for (;; k++) {
        platform_star_subst(inst, k, name, sizeof name);
        if (!platform_desc_find(ld->desc, name)) {
            break;
        }
    }
    if (k == 0) {
        return sim_error_set(err, "\"%s\": no instance %s", pat, inst);
    }
    *n = k;
    return true;
}

bool platform_wire_add(PlatformLoad *ld, const char *a, const char *b, SimTime latency,
                       const char *path, SimError *err)
{
    char origin[PLATFORM_PATH_MAX + 256];
    platform_origin(ld, path, origin, sizeof origin);
    if (!platform_desc_add_wire(ld->desc, a, b, latency, origin, err)) {
        return platform_fail_prefix(ld, path, err);
    }
    return true;
}

/* Adds the wire(s) of one entry with full port patterns a and b. */
static bool platform_wire_expand(PlatformLoad *ld, const char *a, const char *b,
                                 SimTime latency, const char *path, SimError *err)
{
    bool has_a, has_b;
    size_t na, nb;
    if (!platform_star_count(ld, a, &has_a, &na, err) ||
        !platform_star_count(ld, b, &has_b, &nb, err)) {
        return platform_fail_prefix(ld, path, err);
    }
    if (has_a != has_b) {
        return platform_fail(ld, path, err, "[*] on one side only (\"%s\", \"%s\")", a,
                             b);
    }
    if (!has_a) {
        return platform_wire_add(ld, a, b, latency, path, err);
    }
    if (na != nb) {
        return platform_fail(ld, path, err, "\"%s\" has %zu elements but \"%s\" has %zu",
                             a, na, b, nb);
    }
    for (size_t k = 0; k < na; k++) {
        char ak[256], bk[256];
        platform_star_subst(a, k, ak, sizeof ak);
        platform_star_subst(b, k, bk, sizeof bk);
        if (!platform_wire_add(ld, ak, bk, latency, path, err)) {
            return false;
        }
    }
    return true;
}

/* Reads one entry's "a", "b" and "latency". */
static bool platform_wire_entry(PlatformLoad *ld, json_t *w, const char *path,
                                const char **a, const char **b, SimTime *latency,
                                SimError *err)
{
    if (!json_is_object(w)) {
        return platform_fail(ld, path, err, "expected an object, got %s", json_kind(w));
    }
    json_t *ja, *jb, *jl, *doc, *name;
    if (!platform_check_keys(ld, w, path, platform_wire_keys, err) ||
        !platform_check_member(ld, w, path, "a", JSON_STRING, &ja, err) ||
        !platform_check_member(ld, w, path, "b", JSON_STRING, &jb, err) ||
        !platform_check_member(ld, w, path, "latency", JSON_STRING, &jl, err) ||
        !platform_check_member(ld, w, path, "doc", JSON_STRING, &doc, err) ||
        !platform_check_member(ld, w, path, "name", JSON_STRING, &name, err)) {
        return false;
    }
    if (!ja || !jb) {
        return platform_fail(ld, path, err, "missing key \"%s\"", ja ? "b" : "a");
    }
    *a = json_string_value(ja);
    *b = json_string_value(jb);
    if (strlen(*a) > PLATFORM_MAX_PORT_NAME || strlen(*b) > PLATFORM_MAX_PORT_NAME) {
        return platform_fail(
            ld, path, err,
            "port name longer than " PLATFORM_STR(PLATFORM_MAX_PORT_NAME) " characters");
    }
    *latency = 0;
    if (jl && !params_parse_latency(json_string_value(jl), ld->desc->info.clock, latency,
                                    err)) {
        char p[PLATFORM_PATH_MAX];
        platform_path(p, sizeof p, path, "latency");
        return platform_fail_prefix(ld, p, err);
    }
    return true;
}

/* Fails if entry i of wires has the name of an entry before it, where one of the two
 * gives its "name" (two wires named by the same b end are left to the builder, which
 * says that the port is connected twice). */
static bool platform_wire_name_unique(PlatformLoad *ld, json_t *wires, size_t i,
                                      const char *path, SimError *err)
{
    json_t *w = json_array_get(wires, i);
    const char *name = platform_wire_name(w);
    bool named = json_is_string(json_object_get(w, "name"));
    for (size_t j = 0; name && j < i; j++) {
        json_t *o = json_array_get(wires, j);
        const char *other = platform_wire_name(o);
        if (other && strcmp(other, name) == 0 &&
            (named || json_is_string(json_object_get(o, "name")))) {
            char p[PLATFORM_PATH_MAX], here[PLATFORM_PATH_MAX];
            char origin[PLATFORM_PATH_MAX + 256];
            snprintf(p, sizeof p, "%s", path);
            json_pointer_push_index(p, sizeof p, j);
            snprintf(here, sizeof here, "%s", path);
            json_pointer_push_index(here, sizeof here, i);
            return platform_fail(ld, here, err, "wire name \"%s\" is also the name of %s",
                                 name, platform_origin(ld, p, origin, sizeof origin));
        }
    }
    return true;
}

bool platform_wires_add(PlatformLoad *ld, json_t *wires, const char *path, int gpu,
                        SimError *err)
{
    size_t i;
    json_t *w;
    json_array_foreach(wires, i, w) {
        char p[PLATFORM_PATH_MAX];
        snprintf(p, sizeof p, "%s", path);
        json_pointer_push_index(p, sizeof p, i);
        const char *a = NULL, *b = NULL;
        SimTime latency = 0;
        if (!platform_wire_entry(ld, w, p, &a, &b, &latency, err) ||
            (gpu <= 0 && !platform_wire_name_unique(ld, wires, i, path, err))) {
            return false;
        }
        char fa[256], fb[256];
        if (gpu >= 0) {
            snprintf(fa, sizeof fa, "gpu%d.%s", gpu, a);
            snprintf(fb, sizeof fb, "gpu%d.%s", gpu, b);
        } else {
            snprintf(fa, sizeof fa, "%s", a);
            snprintf(fb, sizeof fb, "%s", b);
        }
        if (!platform_wire_expand(ld, fa, fb, latency, p, err)) {
            return false;
        }
    }
    return true;
}
