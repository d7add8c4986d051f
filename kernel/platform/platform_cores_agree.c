/* What the blocks of an applied cores section must agree on, checked by the loader
 * (exit 2) rather than found as thousands of errors at the end of a run:
 * - One page size for the SMs and the host: each sm asks the host to translate pages
 *   of its own `page` bytes, and the host answers only translations of its `page`
 *   (hw/core/host.c), so SMs and a host of different pages would run with every
 *   translation refused. After the set overrides, the first sm whose page differs is
 *   named with both values. The same for each dispatcher's page: LADM's analysis
 *   (cta_policy ladm) cuts its batches on the host's page boundaries, so a dispatcher
 *   of another page would place CTAs for pages the host does not have; a dispatcher
 *   that does not run LADM reads its page never, and is held to the host's all the
 *   same (one page per platform is simpler to state than when it matters).
 * - An sm in wavefront mode (`wavefront` true: one transaction per access, whose
 *   threads are the lanes) needs its mem port wired to a port that splits wavefronts
 *   into lines (PortDef.wavefronts: DualOpt's bgu). Any other block reads such a
 *   transaction as one run of bytes from the first lane's address, and every check of
 *   its data fails. The first such sm is named with the port it is wired to.
 *
 * Decisions: only types with the parameter take part (a size "page", a bool
 * "wavefront"), so a plug-in sm, dispatcher or host without one is not checked; an sm
 * whose mem port is wired to nothing is left to the wiring checks. */
#include <stdio.h>
#include <string.h>

#include "kernel/units.h"
#include "platform_priv.h"

/* The type name of the section's entry key ("sm", "dispatch"); NULL when the section
 * does not apply. */
static const char *cores_type(const PlatformLoad *ld, const char *key)
{
    return ld->cores.apply ? json_string_value(json_object_get(
                                 json_object_get(ld->cores.section, key), "type"))
                           : NULL;
}

/* Whether in is a GPU's instance of the type (the section's sm or dispatcher). */
static bool cores_is_a(const PlatformInstance *in, const char *type)
{
    return in->gpu >= 0 && strcmp(in->type->name, type) == 0;
}

bool platform_cores_check_page(PlatformLoad *ld, SimError *err)
{
    const PlatformDesc *d = ld->desc;
    const char *sm_type = cores_type(ld, "sm");
    const char *disp_type = cores_type(ld, "dispatch");
    const PlatformInstance *host = sm_type ? platform_desc_find(d, "host") : NULL;
    if (!host) {
        return true;
    }
    bool has = false;
    uint64_t want = 0;
    if (!platform_state_size(host, &d->info, "page", &has, &want, err)) {
        return platform_fail_prefix(ld, ld->paths[host - d->inst], err);
    }
    for (size_t i = 0; has && i < d->ninst; i++) {
        const PlatformInstance *in = &d->inst[i];
        bool is_sm = cores_is_a(in, sm_type);
        bool in_has = false;
        uint64_t page = 0;
        if (!is_sm && !(disp_type && cores_is_a(in, disp_type))) {
            continue;
        }
        if (!platform_state_size(in, &d->info, "page", &in_has, &page, err)) {
            return platform_fail_prefix(ld, ld->paths[i], err);
        }
        if (in_has && page != want) {
            char a[UNITS_BUF], b[UNITS_BUF];
            return platform_fail(ld, ld->paths[i], err,
                                 "%s: page %s differs from the host's page %s (%s: set "
                                 "both alike)",
                                 in->name, units_format_size(page, a),
                                 units_format_size(want, b),
                                 is_sm ? "an sm translates pages of the host's size"
                                       : "LADM's analysis cuts CTAs on the host's pages");
        }
    }
    return true;
}

/* The port wired to `port` (a full port name), or NULL. */
static const char *cores_wired_to(const PlatformDesc *d, const char *port)
{
    const PlatformWire *w = platform_desc_wire_of(d, port);
    return !w ? NULL : strcmp(w->a, port) == 0 ? w->b : w->a;
}

/* Whether the full port name `port` is a port of its instance's type that takes
 * wavefronts. */
static bool cores_takes_wavefronts(const PlatformDesc *d, const char *port)
{
    char inst[PLATFORM_MAX_NAME + 64], name[PLATFORM_MAX_NAME + 64];
    int k;
    if (!platform_name_split_port(port, inst, name, sizeof inst, &k)) {
        return false;
    }
    const PlatformInstance *in = platform_desc_find(d, inst);
    const PortDef *pd = in ? platform_type_port(in->type, name) : NULL;
    return pd && pd->wavefronts;
}

bool platform_cores_check_wavefront(PlatformLoad *ld, SimError *err)
{
    const PlatformDesc *d = ld->desc;
    const char *sm_type = cores_type(ld, "sm");
    for (size_t i = 0; sm_type && i < d->ninst; i++) {
        const PlatformInstance *in = &d->inst[i];
        if (!cores_is_a(in, sm_type)) {
            continue;
        }
        bool wavefront = false;
        if (!platform_state_bool(in, &d->info, "wavefront", &wavefront, err)) {
            return platform_fail_prefix(ld, ld->paths[i], err);
        }
        char mem[PLATFORM_MAX_NAME + 64];
        snprintf(mem, sizeof mem, "%s.mem", in->name);
        const char *peer = wavefront ? cores_wired_to(d, mem) : NULL;
        if (peer && !cores_takes_wavefronts(d, peer)) {
            return platform_fail(ld, ld->paths[i], err,
                                 "%s: wavefront needs a port that splits wavefronts "
                                 "(a bgu's cu) on its mem port, which is wired to %s",
                                 in->name, peer);
        }
    }
    return true;
}
