/* platform_load: reads the document (and its extends chain), then expands the
 * template form or reads the flat form into a PlatformDesc. On failure the
 * description is left empty and err names the file and JSON path. */
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
