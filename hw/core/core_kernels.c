/* The kernel launches and allocations of a trace folder (core_kernels.h).
 *
 * Decision: a list without a launch (empty, or allocations only) is refused, naming
 * the list: such a run would end at once with an execution time of 0 and exit 0, which
 * hides a truncated recording or a wrong folder. trace-info still describes such a
 * folder ("0 kernels"). */
#include "hw/core/core_kernels.h"

#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_list.h"
#include "hw/core/accelsim_read.h"
#include "kernel/xalloc.h"

void core_kernels_free(CoreKernels *ks)
{
    for (size_t k = 0; k < ks->nkernels; k++) {
        free(ks->kernels[k].path);
    }
    free(ks->kernels);
    free(ks->allocs);
    memset(ks, 0, sizeof *ks);
}

bool core_kernels_load(const char *dir, CoreKernels *ks, SimError *err)
{
    memset(ks, 0, sizeof *ks);
    AtsList list;
    if (!ats_list_load(dir, &list, err)) {
        return false;
    }
    ks->kernels = xcalloc(list.ncmds ? list.ncmds : 1, sizeof *ks->kernels);
    ks->allocs = xcalloc(list.ncmds ? list.ncmds : 1, sizeof *ks->allocs);
    bool ok = true;
    for (size_t i = 0; ok && i < list.ncmds; i++) {
        const AtsCmd *c = &list.cmds[i];
        if (c->kind == ATS_CMD_MEMCPY) {
            ks->allocs[ks->nallocs++] = (CoreAlloc){c->addr, c->bytes};
            continue;
        }
        CoreKernel *kn = &ks->kernels[ks->nkernels];
        AtsReader *r = ats_reader_open(c->path, &kn->info, err);
        if (!r) {
            ok = false;
            break;
        }
        ats_reader_close(r);
        size_t n = strlen(c->path) + 1;
        kn->path = memcpy(xmalloc(n), c->path, n);
        kn->ctas = (uint64_t)kn->info.grid[0] * kn->info.grid[1] * kn->info.grid[2];
        ks->nkernels++;
    }
    if (ok && ks->nkernels == 0) {
        ok = sim_error_set(err,
                           "%s: no kernel launch (a trace-driven run needs at least one "
                           "kernel-<n>.traceg line)",
                           list.file);
    }
    ats_list_free(&list);
    if (!ok) {
        core_kernels_free(ks);
    }
    return ok;
}
