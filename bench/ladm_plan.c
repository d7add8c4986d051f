/* bench/ladm_plan.c: LADM's analysis (hw/core/ladm*.c) over every kernel of a trace
 * folder, what it decides and how fast it reads.
 *
 * Usage: ladm_plan DIR NGPUS PAGE
 *
 * For each kernel of DIR/kernelslist.g in order, both passes of the analysis over its
 * file (the allocations are the MemcpyHtoD lines before it), then the planned pages
 * are put in one Placement shared by all kernels, as the host does. A third pass
 * counts the global lane accesses (one per active lane of LDG, STG, ATOMG, RED) whose
 * page is homed on another GPU than the one running the CTA, under LADM (its schedule
 * and placement) and under contiguous CTAs with split and with interleaved pages
 * (each placement shared by all kernels, pages placed at first use); a proxy of the
 * inter-GPU traffic without caches.
 *
 * stdout, per kernel: "kernel <k> <file name> grid <gx>,<gy>,<gz> schedule <kind>
 * unit <U> itl <0|1>", then per allocation "  alloc 0x<base> <bytes> <class>
 * datablock <d>", then "  remote ladm <share> contiguous+split <share>
 * contiguous+interleave <share>".
 * stderr: "analysis_s <seconds> ctas_per_s <rate> maxrss_kib <kib>" (the two passes
 * of the analysis only; each CTA counts twice). Bad arguments or trace: one line and
 * exit status 2. */
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

/* The placements of the three runs compared: LADM's (planned), and contiguous CTAs
 * with split or interleaved pages. */
typedef struct Runs {
    Placement *ladm, *split, *interleave;
    double analysis_s; /* time in the two passes of the analysis */
    uint64_t ctas;     /* CTAs read by the analysis (twice per CTA) */
} Runs;

/* The share of global lane accesses whose page is on another GPU than the CTA's:
 * LADM's schedule m with its placement, contiguous with split and with interleave. */
static bool remote_pass(const char *path, const CtaMap *m, Runs *runs, double share[3],
                        SimError *err)
{
    AtsKernelInfo info;
    AtsReader *r = ats_reader_open(path, &info, err);
    if (!r) {
        return false;
    }
    CtaMap cont;
    cta_map_init(&cont, CTA_CONTIGUOUS, info.grid, m->ngpus, err);
    uint64_t total = 0, remote[3] = {0, 0, 0};
    AtsCta cta;
    bool got, ok;
    while ((ok = ats_reader_next(r, &cta, &got, err)) && got) {
        uint64_t i = cta_map_index(m, cta.x, cta.y, cta.z);
        uint32_t g = cta_map_gpu(m, i), c = cta_map_gpu(&cont, i);
        for (size_t w = 0; w < cta.nwarps; w++) {
            const AtsWarp *warp = &cta.warps[w];
            for (size_t k = 0; k < warp->ninst; k++) {
                const AtsInst *in = &warp->inst[k];
                if (in->width == 0 || (in->cls != ATS_LDG && in->cls != ATS_STG &&
                                       in->cls != ATS_ATOMG && in->cls != ATS_RED)) {
                    continue;
                }
                int lanes = __builtin_popcount(in->mask);
                for (int j = 0; j < lanes; j++) {
                    uint64_t a = warp->addrs[in->addr_off + (size_t)j];
                    total++;
                    remote[0] += placement_translate(runs->ladm, a, g).home != g;
                    remote[1] += placement_translate(runs->split, a, c).home != c;
                    remote[2] += placement_translate(runs->interleave, a, c).home != c;
                }
            }
        }
        ats_cta_free(&cta);
    }
    ats_reader_close(r);
    for (int k = 0; k < 3; k++) {
        share[k] = total ? (double)remote[k] / (double)total : 0.0;
    }
    return ok;
}

static bool plan_kernel(const AtsCmd *cmd, size_t k, const LadmAlloc *allocs,
                        size_t nallocs, uint32_t ngpus, uint64_t page, Runs *runs,
                        SimError *err)
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
    double t0 = bench_seconds();
    bool ok = pass(cmd->path, l, false, &runs->ctas, err) && ladm_schedule(l, &m, err) &&
              pass(cmd->path, l, true, &runs->ctas, err);
    if (ok) {
        ladm_place(l, runs->ladm);
    }
    runs->analysis_s += bench_seconds() - t0;
    double share[3];
    ok = ok && remote_pass(cmd->path, &m, runs, share, err);
    if (ok) {
        printf("kernel %zu %s grid %u,%u,%u schedule %s unit %" PRIu64 " itl %d\n", k,
               cmd->name, info.grid[0], info.grid[1], info.grid[2], kind_names[m.ladm],
               m.ladm == CTA_LADM_COL ? 0 : m.unit, ladm_itl(l));
        for (size_t i = 0; i < nallocs; i++) {
            uint64_t db;
            LadmClass c = ladm_class(l, allocs[i].base, &db);
            printf("  alloc 0x%" PRIx64 " %" PRIu64 " %s datablock %" PRIu64 "\n",
                   allocs[i].base, allocs[i].bytes, class_names[c], db);
        }
        printf("  remote ladm %.4f contiguous+split %.4f contiguous+interleave %.4f\n",
               share[0], share[1], share[2]);
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
    Runs runs = {.ladm = placement_new(PLACE_LADM, (uint32_t)ngpus, page, &err),
                 .split = placement_new(PLACE_SPLIT, (uint32_t)ngpus, page, &err),
                 .interleave =
                     placement_new(PLACE_INTERLEAVE, (uint32_t)ngpus, page, &err)};
    LadmAlloc *allocs = xcalloc(list.ncmds ? list.ncmds : 1, sizeof *allocs);
    size_t nallocs = 0, kernels = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < list.ncmds; i++) {
        const AtsCmd *cmd = &list.cmds[i];
        if (cmd->kind == ATS_CMD_MEMCPY) {
            allocs[nallocs++] = (LadmAlloc){cmd->addr, cmd->bytes};
            ok = placement_add_alloc(runs.ladm, cmd->addr, cmd->bytes, &err) &&
                 placement_add_alloc(runs.split, cmd->addr, cmd->bytes, &err);
        } else {
            ok = plan_kernel(cmd, ++kernels, allocs, nallocs, (uint32_t)ngpus, page,
                             &runs, &err);
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (ok) {
        fprintf(stderr, "analysis_s %.3f ctas_per_s %.0f maxrss_kib %ld\n",
                runs.analysis_s,
                runs.analysis_s > 0 ? (double)runs.ctas / runs.analysis_s : 0.0,
                ru.ru_maxrss);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    free(allocs);
    placement_free(runs.ladm);
    placement_free(runs.split);
    placement_free(runs.interleave);
    ats_list_free(&list);
    return ok ? 0 : 2;
}
