/* bench/trace_scan.c: the whole-trace scan of a run (hw/core/trace_scan.h) on one
 * trace folder, its spool of the blocks' messages included (as the sm's default
 * `spool` builds it): its time and its host memory, to show that the memory grows
 * with the bytes the trace writes (the written-byte index), not with the trace's
 * length.
 *
 * Usage: trace_scan DIR
 *
 * stdout: "kernels <k> warp_insts <n> line_reqs <r> index_lines <l> index_masks <m>".
 * stderr: "wall_s <seconds> warp_insts_per_s <rate> max_rss_kib <peak resident KiB>"
 * (getrusage's ru_maxrss, the program and its libraries included).
 * A malformed trace: its one-line error and exit status 2; bad arguments: usage, 2. */
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>

#include "bench/bench_util.h"
#include "hw/core/trace_scan.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: trace_scan DIR\n");
        return 2;
    }
    double t0 = bench_seconds();
    SimError err;
    const TraceScan *s = trace_scan_get(argv[1], true, &err);
    if (!s) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    double wall = bench_seconds() - t0;
    uint64_t insts = 0, reqs = 0;
    for (size_t k = 0; k < trace_scan_kernels(s); k++) {
        insts += trace_scan_kernel(s, k)->warp_insts;
        reqs += trace_scan_kernel(s, k)->line_reqs;
    }
    size_t lines, masks;
    trace_scan_index_size(s, &lines, &masks);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("kernels %zu warp_insts %" PRIu64 " line_reqs %" PRIu64 " index_lines %zu "
           "index_masks %zu\n",
           trace_scan_kernels(s), insts, reqs, lines, masks);
    fprintf(stderr, "wall_s %.3f warp_insts_per_s %.0f max_rss_kib %ld\n", wall,
            wall > 0 ? (double)insts / wall : 0.0, ru.ru_maxrss);
    trace_scan_put(s);
    return 0;
}
