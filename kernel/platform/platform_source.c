/* The extends chain: reads the user's document, follows "extends" (a file name
 * relative to the directory of the file that names it, or a list: the base platform
 * followed by overlays, docs/composition.md), detects cycles by comparing files by
 * device and inode, and deep-merges the chain (the most derived document wins).
 * The chain is kept most derived first: the user's document, the overlays of its
 * list from the last listed to the first, its base, and so on; merging walks it
 * backwards, so an error's blame (platform_fail.c) finds the last writer first.
 * A flat dump (a document with "format") is taken as it is: it has no extends, and
 * no document may extend one (its instances are expanded for its own gpus; merging
 * onto them could only break that). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_file.h"
#include "kernel/json_util.h"
#include "platform_priv.h"

#define PLATFORM_MAX_EXTENDS 32

static bool platform_source_push(PlatformLoad *ld, const char *file, const char *prefix,
                                 json_t *doc, const char *by, SimError *err)
{
    PlatformSrc *src = realloc(ld->src, (ld->nsrc + 1) * sizeof *src);
    if (!src) {
        json_decref(doc);
        return sim_error_set(err, "%s: out of memory", file);
    }
    ld->src = src;
    PlatformSrc *s = &src[ld->nsrc];
    s->file = strdup(file);
    s->prefix = strdup(prefix);
    s->doc = doc;
    s->overlay = by != NULL;
    s->by = by ? strdup(by) : NULL;
    if (!s->file || !s->prefix || (by && !s->by)) {
        free(s->file);
        free(s->prefix);
        free(s->by);
        json_decref(doc);
        return sim_error_set(err, "%s: out of memory", file);
    }
    ld->nsrc++;
    return true;
}

/* The file named by `extends` in file: relative to file's directory. */
static void platform_source_join(const char *file, const char *ext, char *out, size_t n)
{
    const char *slash = strrchr(file, '/');
    if (ext[0] == '/' || !slash) {
        snprintf(out, n, "%s", ext);
    } else {
        snprintf(out, n, "%.*s/%s", (int)(slash - file), file, ext);
    }
}

/* Identity of each file of the chain (parallel to ld->src; zero for inline). */
typedef struct PlatformFileId {
    dev_t dev;
    ino_t ino;
    bool known;
} PlatformFileId;

/* Fails if next (identity id) is already in the chain: a platform that extends itself
 * (names the cycle; overlays are left out) or an overlay listed twice. */
static bool platform_source_cycle(PlatformLoad *ld, const PlatformFileId *ids,
                                  const char *next, const struct stat *id, const char *by,
                                  SimError *err)
{
    for (size_t i = 0; i < ld->nsrc; i++) {
        if (!ids[i].known || ids[i].dev != id->st_dev || ids[i].ino != id->st_ino ||
            ld->src[i].overlay != (by != NULL)) {
            continue;
        }
        if (by) {
            return sim_error_set(err, "%s: overlay %s is listed twice (also %s)", by,
                                 next, ld->src[i].by);
        }
        char chain[SIM_ERROR_MAX / 2] = "";
        for (size_t j = i; j < ld->nsrc; j++) {
            size_t used = strlen(chain);
            if (!ld->src[j].overlay) {
                snprintf(chain + used, sizeof chain - used, "%s -> ", ld->src[j].file);
            }
        }
        const PlatformSrc *last = &ld->src[ld->nsrc - 1];
        return sim_error_set(err, "%s: %s/extends: extends cycle: %s%s", last->file,
                             last->prefix, chain, next);
    }
    return true;
}

/* Reads the file an extends entry names (at "<from>: <where>") and appends it to the
 * chain: an overlay when by is non-NULL ("<from>: <where>", kept for messages). */
static bool platform_source_add(PlatformLoad *ld, PlatformFileId *ids, const char *from,
                                const char *where, const char *name, const char *by,
                                SimError *err)
{
    char next[PATH_MAX];
    platform_source_join(from, name, next, sizeof next);
    struct stat st;
    if (stat(next, &st) != 0) {
        return sim_error_set(err, "%s: %s: cannot open %s: %s", from, where, next,
                             strerror(errno));
    }
    if (!platform_source_cycle(ld, ids, next, &st, by, err)) {
        return false;
    }
    if (ld->nsrc >= PLATFORM_MAX_EXTENDS) {
        return sim_error_set(err, "%s: %s: more than %d files in the chain", from, where,
                             PLATFORM_MAX_EXTENDS);
    }
    json_t *doc = json_file_load(next, err);
    if (!doc) {
        return false;
    }
    if (!json_is_object(doc)) {
        sim_error_set(err, "%s: /: expected an object, got %s", next, json_kind(doc));
        json_decref(doc);
        return false;
    }
    if (json_object_get(doc, "format")) {
        json_decref(doc);
        return sim_error_set(err,
                             "%s: %s: %s is a flat dump (it has \"format\"),"
                             " which cannot be extended",
                             from, where, next);
    }
    ids[ld->nsrc] = (PlatformFileId){st.st_dev, st.st_ino, true};
    return platform_source_push(ld, next, "", doc, by, err);
}

/* The overlays of an extends list (entries 1.. of ext, pushed last listed first). */
static bool platform_source_overlays(PlatformLoad *ld, PlatformFileId *ids, json_t *ext,
                                     const char *file, const char *prefix, SimError *err)
{
    for (size_t i = json_array_size(ext); i-- > 1;) {
        char where[PLATFORM_PATH_MAX + 32], by[PLATFORM_PATH_MAX + PATH_MAX + 64];
        snprintf(where, sizeof where, "%s/extends/%zu", prefix, i);
        snprintf(by, sizeof by, "%s: %s", file, where);
        if (!platform_source_add(ld, ids, file, where,
                                 json_string_value(json_array_get(ext, i)), by, err)) {
            return false;
        }
    }
    return true;
}

/* Checks an extends value: a file name or a non-empty list of them. */
static bool platform_source_ext_ok(const PlatformSrc *s, json_t *ext, SimError *err)
{
    if (json_is_string(ext)) {
        return true;
    }
    if (!json_is_array(ext)) {
        return sim_error_set(err,
                             "%s: %s/extends: expected a file name or a list, got %s",
                             s->file, s->prefix, json_kind(ext));
    }
    if (json_array_size(ext) == 0) {
        return sim_error_set(err,
                             "%s: %s/extends: empty list (expected the base platform"
                             " and its overlays)",
                             s->file, s->prefix);
    }
    size_t i;
    json_t *v;
    json_array_foreach(ext, i, v) {
        if (!json_is_string(v)) {
            return sim_error_set(err, "%s: %s/extends/%zu: expected a file name, got %s",
                                 s->file, s->prefix, i, json_kind(v));
        }
    }
    return true;
}

/* Follows the extends of the last platform of the chain. */
static bool platform_source_follow(PlatformLoad *ld, PlatformFileId *ids, SimError *err)
{
    for (;;) {
        const PlatformSrc *last = &ld->src[ld->nsrc - 1];
        json_t *ext = json_object_get(last->doc, "extends");
        if (!ext) {
            return true;
        }
        if (!platform_source_ext_ok(last, ext, err)) {
            return false;
        }
        /* last moves as the chain grows: copy what names it */
        char file[PATH_MAX], where[PLATFORM_PATH_MAX + 32], prefix[PLATFORM_PATH_MAX];
        snprintf(file, sizeof file, "%s", last->file);
        snprintf(prefix, sizeof prefix, "%s", last->prefix);
        snprintf(where, sizeof where, "%s/extends%s", prefix,
                 json_is_array(ext) ? "/0" : "");
        const char *base = json_is_array(ext) ? json_string_value(json_array_get(ext, 0))
                                              : json_string_value(ext);
        if ((json_is_array(ext) &&
             !platform_source_overlays(ld, ids, ext, file, prefix, err)) ||
            !platform_source_add(ld, ids, file, where, base, NULL, err)) {
            return false;
        }
    }
}

/* Relies on jansson >= 2.8 keeping object members in insertion order (also through
 * json_deep_copy and when a member's value is replaced). */
json_t *platform_source_deep_merge(json_t *base, json_t *over)
{
    if (!json_is_object(base) || !json_is_object(over)) {
        return json_deep_copy(over);
    }
    json_t *out = json_deep_copy(base);
    if (!out) {
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach(over, key, v) {
        json_t *old = json_object_get(out, key);
        json_t *merged = old ? platform_source_deep_merge(old, v) : json_deep_copy(v);
        if (json_object_set_new(out, key, merged) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

/* Merges the chain into ld->doc (without "extends"). "name" and "doc" describe one
 * file, so they are not inherited: only the user's document gives them. */
static bool platform_source_merge(PlatformLoad *ld, SimError *err)
{
    json_t *merged = json_deep_copy(ld->src[ld->nsrc - 1].doc);
    if (!merged) {
        return sim_error_set(err, "%s: out of memory", ld->src[0].file);
    }
    ld->doc = merged;
    if (!platform_overlay_origins(ld, merged, &ld->src[ld->nsrc - 1], err)) {
        return false;
    }
    for (size_t i = ld->nsrc - 1; i-- > 0;) {
        if (ld->src[i].overlay) {
            size_t first = i;
            while (first > 0 && ld->src[first - 1].overlay) {
                first--;
            }
            if (!platform_overlay_list(ld, merged, first, i - first + 1, err)) {
                return false;
            }
            i = first;
            continue;
        }
        json_t *next = platform_source_deep_merge(merged, ld->src[i].doc);
        if (!next) {
            return sim_error_set(err, "%s: out of memory", ld->src[0].file);
        }
        json_decref(merged);
        merged = ld->doc = next;
        if (!platform_overlay_origins(ld, merged, &ld->src[i], err)) {
            return false;
        }
    }
    json_object_del(merged, "extends");
    static const char *const own_keys[] = {"name", "doc"};
    for (size_t k = 0; k < sizeof own_keys / sizeof own_keys[0]; k++) {
        if (!json_object_get(ld->src[0].doc, own_keys[k])) {
            json_object_del(merged, own_keys[k]);
        }
    }
    return platform_overlay_excludes(ld, err);
}

bool platform_source_load(PlatformLoad *ld, const PlatformLoadArgs *a, SimError *err)
{
    json_t *doc =
        a->inline_doc ? json_incref(a->inline_doc) : json_file_load(a->path, err);
    if (!doc) {
        return false;
    }
    const char *prefix = a->inline_pointer ? a->inline_pointer : "";
    if (!json_is_object(doc)) {
        sim_error_set(err, "%s: %s: expected an object, got %s", a->path,
                      *prefix ? prefix : "/", json_kind(doc));
        json_decref(doc);
        return false;
    }
    if (!platform_source_push(ld, a->path, prefix, doc, NULL, err)) {
        return false;
    }
    if (json_object_get(doc, "format")) {
        ld->doc = json_incref(doc);
        return true;
    }
    PlatformFileId ids[PLATFORM_MAX_EXTENDS + 1] = {{0, 0, false}};
    struct stat st;
    if (!a->inline_doc && stat(a->path, &st) == 0) {
        ids[0] = (PlatformFileId){st.st_dev, st.st_ino, true};
    }
    return platform_source_follow(ld, ids, err) && platform_source_merge(ld, err);
}

void platform_source_free(PlatformLoad *ld)
{
    for (size_t i = 0; i < ld->nsrc; i++) {
        free(ld->src[i].file);
        free(ld->src[i].prefix);
        free(ld->src[i].by);
        json_decref(ld->src[i].doc);
    }
    free(ld->src);
    for (size_t i = 0; i < ld->nwire_from; i++) {
        free(ld->wire_from[i]);
    }
    free(ld->wire_from);
    ld->wire_from = NULL;
    ld->nwire_from = 0;
    json_decref(ld->doc);
    ld->src = NULL;
    ld->nsrc = 0;
    ld->doc = NULL;
}
