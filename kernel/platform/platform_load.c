/* platform_load: reads the document (and its extends chain), then expands the
 * template form or reads the flat form into a PlatformDesc. On failure the
 * description is left empty and err names the file and JSON path. Instances are
 * added through platform_load_add, which keeps the JSON pointer each was described
 * at (for the messages of later checks). */
#include <stdlib.h>
#include <string.h>

#include "platform_priv.h"

bool platform_load_args(const PlatformLoadArgs *a, PlatformDesc *out, SimError *err)
{
    memset(out, 0, sizeof *out);
    out->registry = a->registry;
    PlatformLoad ld = {.desc = out};
    out->file = strdup(a->path);
    if (!out->file) {
        return sim_error_set(err, "%s: out of memory", a->path);
    }
    bool ok = platform_source_load(&ld, a, err);
    if (ok) {
        ok = json_object_get(ld.doc, "format") ? platform_flat_load(&ld, a, err)
                                               : platform_template_load(&ld, a, err);
    }
    for (size_t i = 0; i < out->ninst; i++) {
        free(ld.paths[i]);
    }
    free(ld.paths);
    platform_source_free(&ld);
    if (!ok) {
        platform_desc_free(out);
    }
    return ok;
}

bool platform_load(const Registry *r, const char *path, json_t *cli_sets,
                   PlatformDesc *out, SimError *err)
{
    const PlatformLoadArgs a = {.registry = r, .path = path, .cli_sets = cli_sets};
    return platform_load_args(&a, out, err);
}

bool platform_load_add(PlatformLoad *ld, const char *name, const char *type, int gpu,
                       json_t *params, const char *path, SimError *err)
{
    PlatformDesc *d = ld->desc;
    char origin[PLATFORM_PATH_MAX + 256];
    char **paths = realloc(ld->paths, (d->ninst + 1) * sizeof *paths);
    if (!paths) {
        return platform_fail(ld, path, err, "out of memory");
    }
    ld->paths = paths;
    paths[d->ninst] = strdup(path);
    json_t *copy = params ? json_deep_copy(params) : json_object();
    if (!paths[d->ninst] || !copy) {
        free(paths[d->ninst]);
        json_decref(copy);
        return platform_fail(ld, path, err, "out of memory");
    }
    bool ok = platform_desc_add_instance(
        d, name, type, gpu, copy, platform_origin(ld, path, origin, sizeof origin), err);
    json_decref(copy);
    if (!ok) {
        free(paths[d->ninst]);
        return platform_fail_prefix(ld, path, err);
    }
    return true;
}
