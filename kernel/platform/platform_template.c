/* The template form of a platform (docs/platform-format.md): checks the top-level
 * and "gpu" objects and expands them in this order:
 * instances: GPU 0..N-1 (template blocks in file order, an applied cores section's
 * sm[*] and disp in the place of the entry it replaces), fabric, top-level blocks,
 * the cores' host; then the cores' scale parameters; then `set` (the file's, the
 * extra sets, the command line's); then every parameter is checked; then wires:
 * GPU 0..N-1 (template wires in file order, then the cores' sm-dispatch wires),
 * fabric, top-level wires, the cores' host wires. Wires come after `set` so that
 * `[*]` sees final port counts. */
#include <stdio.h>

#include "platform_priv.h"

static const char *const platform_top_keys[] = {
    "name", "doc",   "gpus",   "mem_bytes", "clock", "seed", "trace",      "sms", "cus",
    "gpu",  "cores", "fabric", "blocks",    "wires", "set",  "partitions", NULL};
static const char *const platform_gpu_keys[] = {"blocks", "wires", "uplink", "doc", NULL};

/* The parts of the document the expansion walks (borrowed, NULL when absent). */
typedef struct PlatformParts {
    json_t *gpu_blocks, *gpu_wires, *blocks, *wires, *set;
} PlatformParts;

static bool platform_template_parts(PlatformLoad *ld, PlatformParts *p, SimError *err)
{
    json_t *doc = ld->doc, *gpu, *s;
    if (!platform_check_keys(ld, doc, "", platform_top_keys, err) ||
        !platform_check_member(ld, doc, "", "doc", JSON_STRING, &s, err) ||
        !platform_check_member(ld, doc, "", "gpu", JSON_OBJECT, &gpu, err) ||
        !platform_check_member(ld, doc, "", "blocks", JSON_OBJECT, &p->blocks, err) ||
        !platform_check_member(ld, doc, "", "wires", JSON_ARRAY, &p->wires, err) ||
        !platform_check_member(ld, doc, "", "set", JSON_OBJECT, &p->set, err)) {
        return false;
    }
    p->gpu_blocks = p->gpu_wires = NULL;
    if (!gpu) {
        return true;
    }
    return platform_check_keys(ld, gpu, "/gpu", platform_gpu_keys, err) &&
           platform_check_member(ld, gpu, "/gpu", "blocks", JSON_OBJECT, &p->gpu_blocks,
                                 err) &&
           platform_check_member(ld, gpu, "/gpu", "wires", JSON_ARRAY, &p->gpu_wires,
                                 err) &&
           platform_check_member(ld, gpu, "/gpu", "uplink", JSON_STRING, &s, err) &&
           platform_check_member(ld, gpu, "/gpu", "doc", JSON_STRING, &s, err);
}

static bool platform_template_instances(PlatformLoad *ld, const PlatformParts *p,
                                        SimError *err)
{
    for (uint32_t g = 0; p->gpu_blocks && g < ld->desc->info.gpus; g++) {
        if (!platform_blocks_add(ld, p->gpu_blocks, "/gpu/blocks", (int)g, err)) {
            return false;
        }
    }
    return platform_fabric_instances(ld, err) &&
           (!p->blocks || platform_blocks_add(ld, p->blocks, "/blocks", -1, err)) &&
           platform_cores_host_add(ld, err) && platform_cores_scale(ld, err);
}

static bool platform_template_wires(PlatformLoad *ld, const PlatformParts *p,
                                    SimError *err)
{
    for (uint32_t g = 0; g < ld->desc->info.gpus; g++) {
        if ((p->gpu_wires &&
             !platform_wires_add(ld, p->gpu_wires, "/gpu/wires", (int)g, err)) ||
            !platform_cores_gpu_wires(ld, (int)g, err)) {
            return false;
        }
    }
    return platform_fabric_wires(ld, err) &&
           (!p->wires || platform_wires_add(ld, p->wires, "/wires", -1, err)) &&
           platform_cores_host_wires(ld, err);
}

bool platform_template_load(PlatformLoad *ld, const PlatformLoadArgs *a, SimError *err)
{
    PlatformParts p;
    return platform_template_parts(ld, &p, err) &&
           platform_top_read(ld, ld->doc, p.set, a, true, err) &&
           platform_cores_prepare(ld, p.set, a, err) &&
           platform_template_instances(ld, &p, err) &&
           (!p.set || platform_set_apply(ld, p.set, PLATFORM_SET_DOC, a, err)) &&
           (!a->sets || platform_set_apply(ld, a->sets, PLATFORM_SET_EXTRA, a, err)) &&
           (!a->cli_sets ||
            platform_set_apply(ld, a->cli_sets, PLATFORM_SET_CLI, a, err)) &&
           platform_check_instances(ld, err) && platform_cores_check_page(ld, err) &&
           platform_template_wires(ld, &p, err) &&
           platform_cores_check_wavefront(ld, err) && platform_partition_read(ld, err);
}
