/* bench/core_sched.c: warp instructions per second through one SM's scheduler and
 * coalescer (hw/core/sm_sched.c, hw/core/sm_coalesce.c), without the memory system.
 *
 * Usage: core_sched CTAS LOAD_EVERY
 *
 * CTAS thread blocks of 8 warps, 256 instructions per warp, run on one SM of the
 * default configuration (4 gto schedulers, 64 warp slots, QV100 latencies); a finished
 * CTA's slots go to the next. Each warp is a chain over 16 registers (instruction k
 * writes R(k mod 16) and reads R((k - 1) mod 16), int and fp32 alternating); with
 * LOAD_EVERY > 0 every LOAD_EVERY-th instruction is an LDG of 32 lanes x 4 B at
 * stride 4, coalesced on issue and answered 300 cycles later. After a cycle in which
 * nothing issued, the loop skips to the next cycle in which something can
 * (sm_sched_next_cycle or the next answer), as an event-driven sm block does.
 *
 * stdout: "warp_insts <n> cycles <c> line_requests <r>".
 * stderr: "wall_s <seconds> warp_insts_per_s <rate> cycles_per_s <rate>".
 * Bad arguments: a one-line usage error and exit status 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_util.h"
#include "bench/bench_warp.h"
#include "hw/core/sm_coalesce.h"
#include "hw/core/sm_sched.h"

#define BENCH_LOAD_LATENCY 300
#define BENCH_MAX_PENDING 4096

typedef struct Pending {
    uint64_t at;
    uint32_t slot;
    size_t inst;
} Pending;

int main(int argc, char **argv)
{
    uint64_t ctas, load_every;
    if (argc != 3 || !bench_parse_u64(argv[1], 1, 1000000, &ctas) ||
        !bench_parse_u64(argv[2], 0, BENCH_INSTS, &load_every)) {
        fprintf(stderr, "usage: core_sched CTAS(1..1000000) LOAD_EVERY(0..%d)\n",
                BENCH_INSTS);
        return 2;
    }
    static AtsInst inst[BENCH_WARPS][BENCH_INSTS];
    static uint64_t addrs[BENCH_WARPS][BENCH_INSTS * ATS_LANES];
    AtsWarp warps[BENCH_WARPS];
    for (size_t w = 0; w < BENCH_WARPS; w++) {
        bench_build_warp(&warps[w], inst[w], addrs[w], load_every, (uint64_t)w << 20);
    }
    AtsCta ats = {.nwarps = BENCH_WARPS, .warps = warps};
    CoreCta cta;
    core_cta_from(&ats, &cta);
    SmSchedConfig cfg;
    SimError err;
    sm_sched_config_default(&cfg);
    SmSched *s = sm_sched_new(&cfg, &err);
    if (!s) {
        fprintf(stderr, "core_sched: %s\n", err.msg);
        return 1;
    }
    static Pending pending[BENCH_MAX_PENDING];
    size_t head = 0, count = 0;
    uint64_t dispatched = 0, finished = 0, issued = 0, requests = 0, cycle = 0;
    SmIssue out[8];
    SmLineReq reqs[SM_COALESCE_MAX_REQS];
    double t0 = bench_seconds();
    while (finished < ctas) {
        while (dispatched < ctas && sm_sched_free_slots(s) >= BENCH_WARPS) {
            sm_sched_add_cta(s, (uint32_t)dispatched++, &cta);
        }
        while (count > 0 && pending[head].at <= cycle) {
            sm_sched_load_done(s, pending[head].slot, pending[head].inst, cycle);
            head = (head + 1) % BENCH_MAX_PENDING;
            count--;
        }
        size_t n = sm_sched_cycle(s, cycle, out);
        for (size_t k = 0; k < n; k++) {
            if (out[k].kind == SM_ISSUE_LOAD) {
                if (count == BENCH_MAX_PENDING) {
                    fprintf(stderr, "core_sched: more than %d loads in flight\n",
                            BENCH_MAX_PENDING);
                    return 1;
                }
                const CoreWarp *w = &cta.warps[out[k].warp];
                requests += sm_coalesce(&w->addrs[out[k].in->addr_off], out[k].in->mask,
                                        out[k].in->width, reqs);
                pending[(head + count) % BENCH_MAX_PENDING] =
                    (Pending){cycle + BENCH_LOAD_LATENCY, out[k].slot, out[k].inst};
                count++;
            }
        }
        issued += n;
        uint32_t tag;
        while (sm_sched_take_done(s, &tag)) {
            finished++;
        }
        if (finished == ctas) {
            cycle++;
            break;
        }
        uint64_t next = n > 0 ? cycle + 1 : sm_sched_next_cycle(s, cycle + 1);
        if (count > 0 && pending[head].at < next) {
            next = pending[head].at;
        }
        if (next == UINT64_MAX) {
            fprintf(stderr, "core_sched: nothing can issue at cycle %" PRIu64 "\n",
                    cycle);
            return 1;
        }
        cycle = next;
    }
    double wall = bench_seconds() - t0;
    sm_sched_free(s);
    core_cta_free(&cta);
    printf("warp_insts %" PRIu64 " cycles %" PRIu64 " line_requests %" PRIu64 "\n",
           issued, cycle, requests);
    fprintf(stderr, "wall_s %.6f warp_insts_per_s %.0f cycles_per_s %.0f\n", wall,
            (double)issued / wall, (double)cycle / wall);
    return issued == ctas * BENCH_INSTS * BENCH_WARPS ? 0 : 1;
}
