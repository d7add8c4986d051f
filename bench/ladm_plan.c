/* bench/ladm_plan.c: LADM's analysis (hw/core/ladm*.c) over every kernel of a trace
 * folder, what it decides and how fast it reads.
 *
 * Usage: ladm_plan DIR NGPUS PAGE
 *
 * For each kernel of DIR/kernelslist.g in order, both passes of the analysis over its
 * file (the allocations are the MemcpyHtoD lines before it), then the planned pages
 * are put in one Placement shared by all kernels, as the host does.
 *
 * stdout, per kernel: "kernel <k> <file name> grid <gx>,<gy>,<gz> schedule <kind>
 * unit <U> itl <0|1>", then per allocation "  alloc 0x<base> <bytes> <class>
 * datablock <d>".
 * stderr: "wall_s <seconds> ctas_per_s <rate> maxrss_kib <kib>" (two passes count as
 * reading each CTA twice). Bad arguments or trace: one line and exit status 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench/bench_util.h"
#include "hw/core/accelsim_list.h"
#include "hw/core/accelsim_read.h"
#include "hw/core/ladm.h"
#include "kernel/xalloc.h"

static const char *const kind_names[] = {"kernel_wide", "align", "row", "col"};
static const char *const class_names[] = {"unused", "nl", "row", "col", "itl", "other"};

/* One pass over the kernel file at path (observe or touch); counts its CTAs. */
static bool pass(const char *path, Ladm *l, bool touch, uint64_t *ctas, SimError *err)
{
    AtsKernelInfo info;
    AtsReader *r = ats_reader_open(path, &info, err);
    if (!r) {
        return false;
    }
    AtsCta cta;
    bool got, ok;
    while ((ok = ats_reader_next(r, &cta, &got, err)) && got) {
        if (touch) {
            ladm_touch(l, &cta);
        } else {
            ladm_observe(l, &cta);
        }
        ats_cta_free(&cta);
        (*ctas)++;
    }
    ats_reader_close(r);
    return ok;
}

static bool plan_kernel(const AtsCmd *cmd, size_t k, const LadmAlloc *allocs,
                        size_t nallocs, uint32_t ngpus, uint64_t page, Placement *pl,
                        uint64_t *ctas, SimError *err)
{
    AtsKernelInfo info;
    AtsReader *r = ats_reader_open(cmd->path, &info, err);
    if (!r) {
        return false;
    }
    ats_reader_close(r);
    Ladm *l = ladm_new(info.grid, ngpus, page, allocs, nallocs, err);
    if (!l) {
        return false;
    }
    CtaMap m;
    bool ok = pass(cmd->path, l, false, ctas, err) && ladm_schedule(l, &m, err) &&
              pass(cmd->path, l, true, ctas, err);
    if (ok) {
        ladm_place(l, pl);
        printf("kernel %zu %s grid %u,%u,%u schedule %s unit %" PRIu64 " itl %d\n", k,
               cmd->name, info.grid[0], info.grid[1], info.grid[2], kind_names[m.ladm],
               m.ladm == CTA_LADM_COL ? 0 : m.unit, ladm_itl(l));
        for (size_t i = 0; i < nallocs; i++) {
            uint64_t db;
            LadmClass c = ladm_class(l, allocs[i].base, &db);
            printf("  alloc 0x%" PRIx64 " %" PRIu64 " %s datablock %" PRIu64 "\n",
                   allocs[i].base, allocs[i].bytes, class_names[c], db);
        }
    }
    ladm_free(l);
    return ok;
}

int main(int argc, char **argv)
{
    uint64_t ngpus, page;
    if (argc != 4 || !bench_parse_u64(argv[2], 1, PLACEMENT_MAX_GPUS, &ngpus) ||
        !bench_parse_u64(argv[3], PLACEMENT_PAGE_MIN, PLACEMENT_PAGE_MAX, &page)) {
        fprintf(stderr, "usage: ladm_plan DIR NGPUS PAGE\n");
        return 2;
    }
    SimError err;
    AtsList list;
    if (!ats_list_load(argv[1], &list, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    Placement *pl = placement_new(PLACE_LADM, (uint32_t)ngpus, page, &err);
    if (!pl) {
        fprintf(stderr, "%s\n", err.msg);
        ats_list_free(&list);
        return 2;
    }
    LadmAlloc *allocs = xcalloc(list.ncmds ? list.ncmds : 1, sizeof *allocs);
    size_t nallocs = 0, kernels = 0;
    uint64_t ctas = 0;
    bool ok = true;
    double t0 = bench_seconds();
    for (size_t i = 0; ok && i < list.ncmds; i++) {
        const AtsCmd *cmd = &list.cmds[i];
        if (cmd->kind == ATS_CMD_MEMCPY) {
            allocs[nallocs++] = (LadmAlloc){cmd->addr, cmd->bytes};
        } else {
            ok = plan_kernel(cmd, ++kernels, allocs, nallocs, (uint32_t)ngpus, page, pl,
                             &ctas, &err);
        }
    }
    double wall = bench_seconds() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (ok) {
        fprintf(stderr, "wall_s %.3f ctas_per_s %.0f maxrss_kib %ld\n", wall,
                wall > 0 ? (double)ctas / wall : 0.0, ru.ru_maxrss);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    free(allocs);
    placement_free(pl);
    ats_list_free(&list);
    return ok ? 0 : 2;
}
