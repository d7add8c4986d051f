/* One page size for the SMs and the host of an applied cores section: each sm asks
 * the host to translate pages of its own `page` bytes, and the host answers only
 * translations of its `page` (hw/core/host.c), so SMs and a host of different pages
 * would run with every translation refused, a storm of status and data errors. The
 * loader refuses that (exit 2), after the set overrides, naming the first sm whose
 * page differs and both values.
 *
 * Decisions: only types with a size parameter "page" take part (a host or sm type of
 * a plug-in without one is not checked); the dispatcher's page, used by LADM's
 * analysis alone, is left to it. */
#include <string.h>

#include "kernel/units.h"
#include "platform_priv.h"

bool platform_cores_check_page(PlatformLoad *ld, SimError *err)
{
    if (!ld->cores.apply) {
        return true;
    }
    const PlatformDesc *d = ld->desc;
    const char *sm_type = json_string_value(
        json_object_get(json_object_get(ld->cores.section, "sm"), "type"));
    const PlatformInstance *host = NULL;
    size_t hi = 0;
    for (size_t i = 0; i < d->ninst; i++) {
        if (d->inst[i].gpu < 0 && strcmp(d->inst[i].name, "host") == 0) {
            host = &d->inst[i];
            hi = i;
        }
    }
    if (!host || !sm_type) {
        return true;
    }
    bool has = false;
    uint64_t want = 0;
    if (!platform_state_size(host, &d->info, "page", &has, &want, err)) {
        return platform_fail_prefix(ld, ld->paths[hi], err);
    }
    for (size_t i = 0; has && i < d->ninst; i++) {
        const PlatformInstance *in = &d->inst[i];
        bool sm_has = false;
        uint64_t page = 0;
        if (in->gpu < 0 || strcmp(in->type->name, sm_type) != 0) {
            continue;
        }
        if (!platform_state_size(in, &d->info, "page", &sm_has, &page, err)) {
            return platform_fail_prefix(ld, ld->paths[i], err);
        }
        if (sm_has && page != want) {
            char a[UNITS_BUF], b[UNITS_BUF];
            return platform_fail(ld, ld->paths[i], err,
                                 "%s: page %s differs from the host's page %s (an sm "
                                 "translates pages of the host's size: set both alike)",
                                 in->name, units_format_size(page, a),
                                 units_format_size(want, b));
        }
    }
    return true;
}
