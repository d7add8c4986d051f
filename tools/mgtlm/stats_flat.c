/* Flattening a stats file into name -> number (see stats_flat.h). The names are the
 * stat names of the run (`gpu0.l2.hits`, a histogram's `gpu0.mem.lat.mean`), so the
 * same globs select them in compare and sweep. */
#include "stats_flat.h"

#include <stdio.h>

#include "kernel/platform/json_file.h"

/* Adds the numeric leaves of v under name to flat. */
static void stats_flat_add(json_t *flat, const char *name, json_t *v)
{
    if (json_is_number(v)) {
        json_object_set(flat, name, v);
        return;
    }
    if (!json_is_object(v)) {
        return;
    }
    const char *key;
    json_t *member;
    json_object_foreach(v, key, member) {
        char sub[1024];
        int len = snprintf(sub, sizeof sub, "%s%s%s", name, *name ? "." : "", key);
        if (len > 0 && (size_t)len < sizeof sub) {
            stats_flat_add(flat, sub, member);
        }
    }
}

json_t *stats_flat_load(const char *path, SimError *err)
{
    json_t *root = json_file_load(path, err);
    if (!root) {
        return NULL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        sim_error_set(err, "%s: /: a stats file must be a JSON object", path);
        return NULL;
    }
    json_t *flat = json_object();
    if (!flat) {
        sim_error_set(err, "%s: out of memory", path);
    } else if (json_is_object(json_object_get(root, "stats"))) {
        stats_flat_add(flat, "run", json_object_get(root, "run"));
        stats_flat_add(flat, "", json_object_get(root, "stats"));
    } else {
        stats_flat_add(flat, "", root);
    }
    json_decref(root);
    return flat;
}
