/* Overlays: the entries after the first of an `"extends"` list (docs/composition.md).
 * An overlay is a mechanism applied to any base platform: GPU template blocks to add or
 * change, edits of the GPU template's wires addressed by name (remove, replace,
 * splice a block into a wire, add), cores settings and sets. Overlays are applied in
 * list order onto the merged base; the platform that lists them is merged on top.
 *
 * Decisions:
 * - A wire is addressed by its "name", else by its "b" end as written ("mem.in",
 *   "xbar.cu[*]"): a port is in one wire only, so the b end names a wire without
 *   extra keys, and it stays the name of the part that keeps b after a splice. An
 *   overlay may also address a wire by its a end ("xbar.local": the first hop of a
 *   path however many blocks were spliced into it).
 * - Splicing block ports x, y into wire W (a - b, latency L, name N) gives
 *   a - x (the splice's latency, default 0ns; its name if it has one) followed by
 *   y - b (latency L, name N): W keeps its far end, latency and name, so splices into
 *   the same wire chain up in the order they are applied, nearest to b last, and the
 *   latency of the original hop stays on the hop into b.
 * - A splice whose two ports are both wired already is skipped: two overlays that
 *   both need a block on a path (an L2 on the local path) share the one placed first.
 *   One port wired and the other not is an error.
 * - Order independence: blocks an overlay adds follow the base's blocks, and wires it
 *   adds (its `wires`, applied after every overlay of the list) follow the base's
 *   wires, grouped by overlay in the order of the overlays' names, whatever the
 *   order of the list; splices, removes and replaces edit wires where they are. So
 *   overlays touching different blocks and wires give the same platform in any order.
 * - `cores.scale` items of an overlay are added to the base's (each once); every
 *   other member merges as in `extends` (objects member by member, the overlay
 *   winning).
 * - "excludes": {"<overlay name>": "reason"} refuses a combination at load. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/json_util.h"
#include "platform_priv.h"

static const char *const ovl_top_keys[] = {"name",  "doc", "excludes", "gpu",
                                           "cores", "set", NULL};
static const char *const ovl_gpu_keys[] = {"blocks", "remove", "replace", "splice",
                                           "wires",  "doc",    NULL};
static const char *const ovl_splice_keys[] = {"wire", "a",   "b", "latency",
                                              "name", "doc", NULL};

/* One overlay of the list being applied. */
typedef struct OvlItem {
    const PlatformSrc *src;
    char name[PLATFORM_MAX_NAME + 1];
    size_t rank; /* position of name among the list's names, sorted */
} OvlItem;

const char *platform_wire_name(json_t *w)
{
    json_t *n = json_object_get(w, "name");
    if (json_is_string(n)) {
        return json_string_value(n);
    }
    json_t *b = json_object_get(w, "b");
    return json_is_string(b) ? json_string_value(b) : NULL;
}

/* A view of the loader that blames every path on s alone. */
static PlatformLoad ovl_view(const PlatformSrc *s)
{
    return (PlatformLoad){.src = (PlatformSrc *)s, .nsrc = 1};
}

static bool ovl_fail(const PlatformSrc *s, const char *path, SimError *err,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static bool ovl_fail(const PlatformSrc *s, const char *path, SimError *err,
                     const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    PlatformLoad v = ovl_view(s);
    return platform_fail_prefix(&v, path, err);
}

/* The overlay's name: its "name", else its file name without folder and ".json". */
static void ovl_name(const PlatformSrc *s, char *out, size_t n)
{
    json_t *name = json_object_get(s->doc, "name");
    if (json_is_string(name)) {
        snprintf(out, n, "%s", json_string_value(name));
        return;
    }
    const char *base = strrchr(s->file, '/');
    base = base ? base + 1 : s->file;
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0) {
        len -= 5;
    }
    snprintf(out, n, "%.*s", (int)len, base);
}

static bool ovl_check_list(const PlatformSrc *s, json_t *gpu, const char *key,
                           json_type want, SimError *err)
{
    PlatformLoad v = ovl_view(s);
    json_t *list;
    if (!platform_check_member(&v, gpu, "/gpu", key, JSON_ARRAY, &list, err)) {
        return false;
    }
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[PLATFORM_PATH_MAX];
        snprintf(p, sizeof p, "/gpu/%s", key);
        json_pointer_push_index(p, sizeof p, i);
        if (json_typeof(e) != want) {
            return ovl_fail(s, p, err, "expected %s, got %s",
                            want == JSON_STRING ? "a wire name" : "an object",
                            json_kind(e));
        }
    }
    return true;
}

/* Checks a splice entry: its keys, the required "wire", "a" and "b", and types. */
static bool ovl_check_splice(const PlatformSrc *s, json_t *e, const char *p,
                             SimError *err)
{
    PlatformLoad v = ovl_view(s);
    if (!platform_check_keys(&v, e, p, ovl_splice_keys, err)) {
        return false;
    }
    static const char *const strs[] = {"wire", "a", "b", "latency", "name", "doc"};
    for (size_t k = 0; k < sizeof strs / sizeof strs[0]; k++) {
        json_t *m;
        if (!platform_check_member(&v, e, p, strs[k], JSON_STRING, &m, err)) {
            return false;
        }
        if (!m && k < 3) {
            return ovl_fail(s, p, err, "missing key \"%s\"", strs[k]);
        }
    }
    return true;
}

/* The overlay's schema (values inside blocks, cores and set are checked later, like
 * any platform's, and blamed on the overlay that wrote them). */
static bool ovl_check(const PlatformSrc *s, SimError *err)
{
    PlatformLoad v = ovl_view(s);
    json_t *doc = s->doc, *gpu, *m;
    if (!platform_check_keys(&v, doc, "", ovl_top_keys, err) ||
        !platform_check_member(&v, doc, "", "name", JSON_STRING, &m, err) ||
        !platform_check_member(&v, doc, "", "doc", JSON_STRING, &m, err) ||
        !platform_check_member(&v, doc, "", "excludes", JSON_OBJECT, &m, err) ||
        !platform_check_member(&v, doc, "", "cores", JSON_OBJECT, &m, err) ||
        !platform_check_member(&v, doc, "", "set", JSON_OBJECT, &m, err) ||
        !platform_check_member(&v, doc, "", "gpu", JSON_OBJECT, &gpu, err)) {
        return false;
    }
    const char *key;
    json_t *reason;
    json_object_foreach(json_object_get(doc, "excludes"), key, reason) {
        char p[PLATFORM_PATH_MAX];
        platform_path(p, sizeof p, "/excludes", key);
        if (!json_is_string(reason)) {
            return ovl_fail(s, p, err, "expected a reason (a string), got %s",
                            json_kind(reason));
        }
    }
    if (!gpu) {
        return true;
    }
    if (!platform_check_keys(&v, gpu, "/gpu", ovl_gpu_keys, err) ||
        !platform_check_member(&v, gpu, "/gpu", "blocks", JSON_OBJECT, &m, err) ||
        !platform_check_member(&v, gpu, "/gpu", "doc", JSON_STRING, &m, err) ||
        !ovl_check_list(s, gpu, "remove", JSON_STRING, err) ||
        !ovl_check_list(s, gpu, "replace", JSON_OBJECT, err) ||
        !ovl_check_list(s, gpu, "splice", JSON_OBJECT, err) ||
        !ovl_check_list(s, gpu, "wires", JSON_OBJECT, err)) {
        return false;
    }
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(gpu, "replace"), i, e) {
        char p[PLATFORM_PATH_MAX] = "/gpu/replace";
        json_pointer_push_index(p, sizeof p, i);
        if (!json_is_string(json_object_get(e, "name"))) {
            return ovl_fail(s, p, err, "missing key \"name\" (the wire to replace)");
        }
    }
    json_array_foreach(json_object_get(gpu, "splice"), i, e) {
        char p[PLATFORM_PATH_MAX] = "/gpu/splice";
        json_pointer_push_index(p, sizeof p, i);
        if (!ovl_check_splice(s, e, p, err)) {
            return false;
        }
    }
    return true;
}

/* "<file>: <prefix><path>/<i>", a new string (NULL on OOM). */
static char *ovl_from(const PlatformSrc *s, const char *path, size_t i)
{
    char p[PLATFORM_PATH_MAX], buf[PLATFORM_PATH_MAX + PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    json_pointer_push_index(p, sizeof p, i);
    snprintf(buf, sizeof buf, "%s: %s%s", s->file, s->prefix, p);
    return strdup(buf);
}

static void ovl_from_clear(PlatformLoad *ld)
{
    for (size_t i = 0; i < ld->nwire_from; i++) {
        free(ld->wire_from[i]);
    }
    free(ld->wire_from);
    ld->wire_from = NULL;
    ld->nwire_from = 0;
}

bool platform_overlay_origins(PlatformLoad *ld, json_t *doc, const PlatformSrc *s,
                              SimError *err)
{
    bool any = false;
    for (size_t i = 0; i < ld->nsrc; i++) {
        any = any || ld->src[i].overlay;
    }
    json_t *mine = json_pointer_get(s->doc, "/gpu/wires");
    if (!any || !mine) {
        return true;
    }
    ovl_from_clear(ld);
    json_t *wires = json_pointer_get(doc, "/gpu/wires");
    size_t n = json_is_array(wires) ? json_array_size(wires) : 0;
    ld->wire_from = calloc(n ? n : 1, sizeof *ld->wire_from);
    if (!ld->wire_from) {
        return sim_error_set(err, "%s: out of memory", s->file);
    }
    for (; ld->nwire_from < n; ld->nwire_from++) {
        ld->wire_from[ld->nwire_from] = ovl_from(s, "/gpu/wires", ld->nwire_from);
        if (!ld->wire_from[ld->nwire_from]) {
            return sim_error_set(err, "%s: out of memory", s->file);
        }
    }
    return true;
}

/* Inserts wire w (a reference is stolen) at position i, written at from (stolen). */
static bool ovl_insert(PlatformLoad *ld, json_t *wires, size_t i, json_t *w, char *from,
                       SimError *err)
{
    char **f = realloc(ld->wire_from, (ld->nwire_from + 1) * sizeof *f);
    if (f) {
        ld->wire_from = f;
    }
    if (!f || !from || !w || json_array_insert_new(wires, i, w) != 0) {
        free(from);
        return sim_error_set(err, "%s: out of memory", ld->src[0].file);
    }
    memmove(&f[i + 1], &f[i], (ld->nwire_from - i) * sizeof *f);
    f[i] = from;
    ld->nwire_from++;
    return true;
}

static void ovl_remove(PlatformLoad *ld, json_t *wires, size_t i)
{
    json_array_remove(wires, i);
    free(ld->wire_from[i]);
    ld->nwire_from--;
    memmove(&ld->wire_from[i], &ld->wire_from[i + 1],
            (ld->nwire_from - i) * sizeof *ld->wire_from);
}

/* Position of the wire named name (its "name" or b end), else of the wire whose a
 * end is name, or -1. */
static long ovl_find(json_t *wires, const char *name)
{
    size_t i;
    json_t *w;
    json_array_foreach(wires, i, w) {
        const char *n = platform_wire_name(w);
        if (n && strcmp(n, name) == 0) {
            return (long)i;
        }
    }
    json_array_foreach(wires, i, w) {
        json_t *a = json_object_get(w, "a");
        if (json_is_string(a) && strcmp(json_string_value(a), name) == 0) {
            return (long)i;
        }
    }
    return -1;
}

/* True if port (as written) is an end of a wire. */
static bool ovl_wired(json_t *wires, const char *port)
{
    size_t i;
    json_t *w;
    json_array_foreach(wires, i, w) {
        json_t *a = json_object_get(w, "a"), *b = json_object_get(w, "b");
        if ((json_is_string(a) && strcmp(json_string_value(a), port) == 0) ||
            (json_is_string(b) && strcmp(json_string_value(b), port) == 0)) {
            return true;
        }
    }
    return false;
}

/* Fails if name is already a wire's name (path: the entry giving it). */
static bool ovl_name_free(const PlatformLoad *ld, const PlatformSrc *s, json_t *wires,
                          const char *name, const char *path, SimError *err)
{
    long j = ovl_find(wires, name);
    if (j >= 0) {
        return ovl_fail(s, path, err, "wire name \"%s\" is already used (%s)", name,
                        ld->wire_from[j]);
    }
    return true;
}

static bool ovl_remove_all(PlatformLoad *ld, const PlatformSrc *s, json_t *list,
                           json_t *wires, SimError *err)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[PLATFORM_PATH_MAX] = "/gpu/remove";
        json_pointer_push_index(p, sizeof p, i);
        long j = ovl_find(wires, json_string_value(e));
        if (j < 0) {
            return ovl_fail(s, p, err, "no wire named \"%s\"", json_string_value(e));
        }
        ovl_remove(ld, wires, (size_t)j);
    }
    return true;
}

static bool ovl_replace_all(PlatformLoad *ld, const PlatformSrc *s, json_t *list,
                            json_t *wires, SimError *err)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[PLATFORM_PATH_MAX] = "/gpu/replace";
        json_pointer_push_index(p, sizeof p, i);
        const char *name = json_string_value(json_object_get(e, "name"));
        long j = ovl_find(wires, name);
        if (j < 0) {
            return ovl_fail(s, p, err, "no wire named \"%s\"", name);
        }
        ovl_remove(ld, wires, (size_t)j);
        if (!ovl_insert(ld, wires, (size_t)j, json_deep_copy(e),
                        ovl_from(s, "/gpu/replace", i), err)) {
            return false;
        }
    }
    return true;
}

/* One splice entry e (checked) at path p. */
static bool ovl_splice_one(PlatformLoad *ld, const PlatformSrc *s, json_t *e,
                           const char *p, size_t i, json_t *wires, SimError *err)
{
    const char *wire = json_string_value(json_object_get(e, "wire"));
    const char *x = json_string_value(json_object_get(e, "a"));
    const char *y = json_string_value(json_object_get(e, "b"));
    long j = ovl_find(wires, wire);
    if (j < 0) {
        return ovl_fail(s, p, err, "no wire named \"%s\"", wire);
    }
    bool wx = ovl_wired(wires, x), wy = ovl_wired(wires, y);
    if (wx && wy) {
        return true;
    }
    if (wx || wy) {
        return ovl_fail(s, p, err, "%s is wired already but %s is not", wx ? x : y,
                        wx ? y : x);
    }
    json_t *name = json_object_get(e, "name");
    if (name && !ovl_name_free(ld, s, wires, json_string_value(name), p, err)) {
        return false;
    }
    json_t *w = json_array_get(wires, (size_t)j);
    json_t *up = json_pack("{s:O, s:s}", "a", json_object_get(w, "a"), "b", x);
    static const char *const copied[] = {"latency", "name", "doc"};
    for (size_t k = 0; up && k < sizeof copied / sizeof copied[0]; k++) {
        json_t *m = json_object_get(e, copied[k]);
        if (m) {
            json_object_set(up, copied[k], m);
        }
    }
    char *from = ovl_from(s, "/gpu/splice", i);
    free(ld->wire_from[j]);
    ld->wire_from[j] = ovl_from(s, "/gpu/splice", i);
    if (!ld->wire_from[j] || json_object_set_new(w, "a", json_string(y)) != 0) {
        json_decref(up);
        free(from);
        return sim_error_set(err, "%s: out of memory", s->file);
    }
    return ovl_insert(ld, wires, (size_t)j, up, from, err);
}

static bool ovl_splice_all(PlatformLoad *ld, const PlatformSrc *s, json_t *list,
                           json_t *wires, SimError *err)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[PLATFORM_PATH_MAX] = "/gpu/splice";
        json_pointer_push_index(p, sizeof p, i);
        if (!ovl_splice_one(ld, s, e, p, i, wires, err)) {
            return false;
        }
    }
    return true;
}

/* The wires an overlay adds (after every overlay of its list). */
static bool ovl_add_all(PlatformLoad *ld, const PlatformSrc *s, json_t *list,
                        json_t *wires, SimError *err)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[PLATFORM_PATH_MAX] = "/gpu/wires";
        json_pointer_push_index(p, sizeof p, i);
        json_t *name = json_object_get(e, "name");
        if (json_is_string(name) &&
            !ovl_name_free(ld, s, wires, json_string_value(name), p, err)) {
            return false;
        }
        if (!ovl_insert(ld, wires, json_array_size(wires), json_deep_copy(e),
                        ovl_from(s, "/gpu/wires", i), err)) {
            return false;
        }
    }
    return true;
}

/* obj[key] as an object, created empty if absent; NULL if it is something else. */
static json_t *ovl_object(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!v && json_object_set_new(obj, key, json_object()) == 0) {
        v = json_object_get(obj, key);
    }
    return json_is_object(v) ? v : NULL;
}

/* Merges the members of over into obj (deep, over winning). */
static bool ovl_merge_members(json_t *obj, json_t *over)
{
    const char *key;
    json_t *v;
    json_object_foreach(over, key, v) {
        json_t *old = json_object_get(obj, key);
        json_t *m = old ? platform_source_deep_merge(old, v) : json_deep_copy(v);
        if (!m || json_object_set_new(obj, key, m) != 0) {
            return false;
        }
    }
    return true;
}

/* cores: scale items added to the base's (each once), the rest merged. */
static bool ovl_merge_cores(json_t *cores, json_t *over)
{
    json_t *scale = json_object_get(cores, "scale");
    json_t *more = json_object_get(over, "scale");
    if (!json_is_array(scale) || !json_is_array(more)) {
        return ovl_merge_members(cores, over);
    }
    size_t i, j;
    json_t *v, *have;
    json_array_foreach(more, i, v) {
        bool dup = false;
        json_array_foreach(scale, j, have) {
            dup = dup || json_equal(have, v);
        }
        if (!dup && json_array_append(scale, v) != 0) {
            return false;
        }
    }
    json_t *rest = json_copy(over);
    bool ok =
        rest && json_object_del(rest, "scale") == 0 && ovl_merge_members(cores, rest);
    json_decref(rest);
    return ok;
}

/* Everything of one overlay but its added wires. */
static bool ovl_apply(PlatformLoad *ld, json_t *doc, const PlatformSrc *s, SimError *err)
{
    json_t *og = json_object_get(s->doc, "gpu");
    json_t *gpu = ovl_object(doc, "gpu");
    json_t *cores = json_object_get(s->doc, "cores");
    json_t *set = json_object_get(s->doc, "set");
    if (!gpu) {
        return ovl_fail(s, "/gpu", err, "the base's gpu is not an object");
    }
    json_t *blocks = json_object_get(og, "blocks");
    if (blocks) {
        json_t *mine = ovl_object(gpu, "blocks");
        if (!mine || !ovl_merge_members(mine, blocks)) {
            return ovl_fail(s, "/gpu/blocks", err, "cannot merge onto the base's blocks");
        }
    }
    json_t *mc = cores ? ovl_object(doc, "cores") : NULL;
    json_t *ms = set ? ovl_object(doc, "set") : NULL;
    if ((cores && (!mc || !ovl_merge_cores(mc, cores))) ||
        (set && (!ms || !ovl_merge_members(ms, set)))) {
        return ovl_fail(s, cores && !mc ? "/cores" : "/set", err,
                        "cannot merge onto the base's value");
    }
    json_t *wires = json_object_get(gpu, "wires");
    if (!wires) {
        json_object_set_new(gpu, "wires", json_array());
        wires = json_object_get(gpu, "wires");
    }
    if (!json_is_array(wires)) {
        return ovl_fail(s, "/gpu", err, "the base's gpu wires are not an array");
    }
    return ovl_remove_all(ld, s, json_object_get(og, "remove"), wires, err) &&
           ovl_replace_all(ld, s, json_object_get(og, "replace"), wires, err) &&
           ovl_splice_all(ld, s, json_object_get(og, "splice"), wires, err);
}

/* The GPU template blocks in canonical order: the first nbase as they are, then the
 * added ones grouped by the rank of the first listed overlay that has them. */
static bool ovl_order_blocks(json_t *doc, size_t nbase, const OvlItem *it, size_t n)
{
    json_t *blocks = json_pointer_get(doc, "/gpu/blocks");
    if (!json_is_object(blocks) || json_object_size(blocks) <= nbase) {
        return true;
    }
    json_t *out = json_object();
    for (size_t r = 0; out && r <= n; r++) {
        size_t pos = 0;
        const char *key;
        json_t *v;
        json_object_foreach(blocks, key, v) {
            size_t rank = 0;
            for (size_t k = 0; pos >= nbase && k < n; k++) {
                if (json_pointer_get(it[k].src->doc, "/gpu/blocks") &&
                    json_object_get(json_pointer_get(it[k].src->doc, "/gpu/blocks"),
                                    key)) {
                    rank = it[k].rank + 1;
                    break;
                }
            }
            if (rank == r && json_object_set(out, key, v) != 0) {
                json_decref(out);
                return false;
            }
            pos++;
        }
    }
    return out && json_object_set_new(json_object_get(doc, "gpu"), "blocks", out) == 0;
}

bool platform_overlay_list(PlatformLoad *ld, json_t *doc, size_t first, size_t n,
                           SimError *err)
{
    OvlItem *it = calloc(n, sizeof *it);
    if (!it) {
        return sim_error_set(err, "%s: out of memory", ld->src[0].file);
    }
    for (size_t k = 0; k < n; k++) {
        it[k].src = &ld->src[first + n - 1 - k];
        ovl_name(it[k].src, it[k].name, sizeof it[k].name);
    }
    for (size_t k = 0; k < n; k++) {
        for (size_t j = 0; j < n; j++) {
            int c = strcmp(it[j].name, it[k].name);
            it[k].rank += c < 0 || (c == 0 && j < k);
        }
    }
    json_t *blocks = json_pointer_get(doc, "/gpu/blocks");
    size_t nbase = json_is_object(blocks) ? json_object_size(blocks) : 0;
    bool ok = true;
    for (size_t k = 0; ok && k < n; k++) {
        ok = ovl_check(it[k].src, err) && ovl_apply(ld, doc, it[k].src, err);
    }
    json_t *wires = json_pointer_get(doc, "/gpu/wires");
    for (size_t r = 0; ok && r < n; r++) {
        for (size_t k = 0; ok && k < n; k++) {
            if (it[k].rank == r) {
                ok = ovl_add_all(ld, it[k].src,
                                 json_pointer_get(it[k].src->doc, "/gpu/wires"), wires,
                                 err);
            }
        }
    }
    if (ok && !ovl_order_blocks(doc, nbase, it, n)) {
        ok = sim_error_set(err, "%s: out of memory", ld->src[0].file);
    }
    free(it);
    return ok;
}

bool platform_overlay_excludes(const PlatformLoad *ld, SimError *err)
{
    for (size_t i = 0; i < ld->nsrc; i++) {
        json_t *ex = json_object_get(ld->src[i].doc, "excludes");
        for (size_t j = 0; ld->src[i].overlay && ex && j < ld->nsrc; j++) {
            char name[PLATFORM_MAX_NAME + 1];
            ovl_name(&ld->src[j], name, sizeof name);
            json_t *why = json_object_get(ex, name);
            if (!ld->src[j].overlay || j == i || !why) {
                continue;
            }
            const PlatformSrc *later = i < j ? &ld->src[i] : &ld->src[j];
            const PlatformSrc *other = i < j ? &ld->src[j] : &ld->src[i];
            return sim_error_set(err, "%s: overlays %s and %s cannot be combined: %s",
                                 later->by, other->file, later->file,
                                 json_string_value(why));
        }
    }
    return true;
}
