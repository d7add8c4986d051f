/* The extends chain: reads the user's document, follows "extends" (a file name
 * relative to the directory of the file that names it), detects cycles by comparing
 * files by device and inode, and deep-merges the chain (the most derived document wins).
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
                                 json_t *doc, SimError *err)
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
    if (!s->file || !s->prefix) {
        free(s->file);
        free(s->prefix);
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

/* Fails if next (identity id) is already in the chain: names the cycle. */
static bool platform_source_cycle(PlatformLoad *ld, const PlatformFileId *ids,
                                  const char *next, const struct stat *id, SimError *err)
{
    for (size_t i = 0; i < ld->nsrc; i++) {
        if (ids[i].known && ids[i].dev == id->st_dev && ids[i].ino == id->st_ino) {
            char chain[SIM_ERROR_MAX / 2] = "";
            for (size_t j = i; j < ld->nsrc; j++) {
                size_t used = strlen(chain);
                snprintf(chain + used, sizeof chain - used, "%s -> ", ld->src[j].file);
            }
            const PlatformSrc *last = &ld->src[ld->nsrc - 1];
            return sim_error_set(err, "%s: %s/extends: extends cycle: %s%s", last->file,
                                 last->prefix, chain, next);
        }
    }
    return true;
}

/* Follows the extends of the last document of the chain. */
static bool platform_source_follow(PlatformLoad *ld, PlatformFileId *ids, SimError *err)
{
    for (;;) {
        const PlatformSrc *last = &ld->src[ld->nsrc - 1];
        json_t *ext = json_object_get(last->doc, "extends");
        if (!ext) {
            return true;
        }
        if (!json_is_string(ext)) {
            return sim_error_set(err, "%s: %s/extends: expected a file name, got %s",
                                 last->file, last->prefix, json_kind(ext));
        }
        char next[PATH_MAX];
        platform_source_join(last->file, json_string_value(ext), next, sizeof next);
        struct stat st;
        if (stat(next, &st) != 0) {
            return sim_error_set(err, "%s: %s/extends: cannot open %s: %s", last->file,
                                 last->prefix, next, strerror(errno));
        }
        if (!platform_source_cycle(ld, ids, next, &st, err)) {
            return false;
        }
        if (ld->nsrc >= PLATFORM_MAX_EXTENDS) {
            return sim_error_set(err, "%s: %s/extends: more than %d files in the chain",
                                 last->file, last->prefix, PLATFORM_MAX_EXTENDS);
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
                                 "%s: %s/extends: %s is a flat dump (it has \"format\"),"
                                 " which cannot be extended",
                                 last->file, last->prefix, next);
        }
        ids[ld->nsrc] = (PlatformFileId){st.st_dev, st.st_ino, true};
        if (!platform_source_push(ld, next, "", doc, err)) {
            return false;
        }
    }
}

/* Deep merge: a new value (NULL on OOM); when both are objects, base's members (in
 * base's order) merged with over's (over wins; members only in over follow in over's
 * order), recursively; otherwise a copy of over. Neither argument is modified.
 * Relies on jansson >= 2.8 keeping object members in insertion order (also through
 * json_deep_copy and when a member's value is replaced). */
static json_t *platform_source_deep_merge(json_t *base, json_t *over)
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
    for (size_t i = ld->nsrc - 1; merged && i-- > 0;) {
        json_t *next = platform_source_deep_merge(merged, ld->src[i].doc);
        json_decref(merged);
        merged = next;
    }
    if (!merged) {
        return sim_error_set(err, "%s: out of memory", ld->src[0].file);
    }
    json_object_del(merged, "extends");
    static const char *const own_keys[] = {"name", "doc"};
    for (size_t k = 0; k < sizeof own_keys / sizeof own_keys[0]; k++) {
        if (!json_object_get(ld->src[0].doc, own_keys[k])) {
            json_object_del(merged, own_keys[k]);
        }
    }
    ld->doc = merged;
    return true;
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
    if (!platform_source_push(ld, a->path, prefix, doc, err)) {
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
        json_decref(ld->src[i].doc);
    }
    free(ld->src);
    json_decref(ld->doc);
    ld->src = NULL;
    ld->nsrc = 0;
    ld->doc = NULL;
}
