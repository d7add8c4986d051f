/* bench/trace_reader.c: the Accel-Sim kernel trace reader (hw/core/accelsim_read.h)
 * alone, in its four ways of reading, on one kernel file (plain or .gz).
 *
 * Usage: trace_reader FILE [RUNS]
 *
 * Modes, each run RUNS times (default 3), the best CPU time kept:
 *   next  every block copied out with ats_reader_next and freed (ats_cta_free);
 *   view  every block read in place with ats_reader_view;
 *   skip  every block passed over with ats_reader_peek and ats_reader_skip;
 *   half  even blocks (file order) viewed, odd ones skipped: a dispatcher of one of
 *         two GPUs under round_robin.
 * The rate is the file's warp instructions (counted by the view mode) per CPU second
 * of the process (CLOCK_PROCESS_CPUTIME_ID: user and system), whichever mode.
 *
 * stdout: one line per mode, "<mode> ctas <n> warp_insts <n> cpu_s <s> rate <r>".
 * A reader error: its message on stderr and exit status 1; bad arguments: a one-line
 * usage error and exit status 2. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/bench_util.h"
#include "hw/core/accelsim_read.h"

typedef enum Mode { MODE_NEXT, MODE_VIEW, MODE_SKIP, MODE_HALF, MODE_COUNT } Mode;

static const char *const mode_names[MODE_COUNT] = {"next", "view", "skip", "half"};

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t cta_insts(const AtsCta *c)
{
    uint64_t n = 0;
    for (size_t w = 0; w < c->nwarps; w++) {
        n += c->warps[w].ninst;
    }
    return n;
}

/* Reads path in mode; *ctas blocks met, *insts warp instructions of the blocks read. */
static bool read_file(const char *path, Mode mode, uint64_t *ctas, uint64_t *insts,
                      SimError *err)
{
    AtsKernelInfo info;
    AtsReader *r = ats_reader_open(path, &info, err);
    if (!r) {
        return false;
    }
    *ctas = *insts = 0;
    bool ok = true, got = true;
    while (ok && got) {
        uint32_t xyz[3];
        const AtsCta *view = NULL;
        AtsCta cta = {0};
        bool skip = mode == MODE_SKIP || (mode == MODE_HALF && *ctas % 2 == 1);
        if (mode == MODE_NEXT) {
            ok = ats_reader_next(r, &cta, &got, err);
            if (ok && got) {
                *insts += cta_insts(&cta);
                ats_cta_free(&cta);
            }
        } else if (skip) {
            ok = ats_reader_peek(r, xyz, &got, err) &&
                 (!got || ats_reader_skip(r, &got, err));
        } else {
            ok = ats_reader_view(r, &view, &got, err);
            if (ok && got) {
                *insts += cta_insts(view);
            }
        }
        *ctas += ok && got;
    }
    ats_reader_close(r);
    return ok;
}

int main(int argc, char **argv)
{
    uint64_t runs = 3;
    if (argc < 2 || argc > 3 || (argc == 3 && !bench_parse_u64(argv[2], 1, 100, &runs))) {
        fprintf(stderr, "usage: trace_reader FILE [RUNS (1 to 100)]\n");
        return 2;
    }
    SimError err = {{0}};
    uint64_t ctas, total;
    if (!read_file(argv[1], MODE_VIEW, &ctas, &total, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    for (int m = 0; m < MODE_COUNT; m++) {
        double best = 0;
        uint64_t insts = 0;
        for (uint64_t i = 0; i < runs; i++) {
            double t0 = cpu_seconds();
            if (!read_file(argv[1], (Mode)m, &ctas, &insts, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            double t = cpu_seconds() - t0;
            best = i == 0 || t < best ? t : best;
        }
        printf("%s ctas %" PRIu64 " warp_insts %" PRIu64 " cpu_s %.3f rate %.0f\n",
               mode_names[m], ctas, insts, best, best > 0 ? (double)total / best : 0.0);
    }
    return 0;
}
