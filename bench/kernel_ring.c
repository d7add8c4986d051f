/* bench/kernel_ring.c: the ring benchmark on the mgtlm kernel, the twin of
 * bench/systemc_ring.cpp.
 *
 * Usage: kernel_ring N SIM_US
 *
 * N nodes form a ring, each with one SimEvent (kernel/event.h: at most one pending
 * notification, the earliest wins, a later or equal notify is ignored, as sc_event).
 * Node i's event is first notified at (i mod 7) + 1 ns; every activation counts one
 * and notifies the next node's event 1 ns later.
 *
 * Decision: sc_start(T) in SystemC 2.3.4 does not run the processes woken exactly at
 * T (see the header of bench/systemc_ring.cpp), while sim_run(sim, until) executes
 * events with time <= until; so this program runs until T - 1 ps. All ring events
 * fall on whole nanoseconds, so this is exactly "every activation before T".
 *
 * stdout: "events <activations>" and nothing else.
 * stderr: "wall_s <seconds> events_per_s <rate>", timing only sim_run.
 * Bad arguments: a one-line usage error and exit status 2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_util.h"
#include "kernel/event.h"
#include "kernel/sim.h"

typedef struct RingNode {
    SimEvent ev;
    struct RingNode *next;
    uint64_t *count;
} RingNode;

static void ring_activate(void *subject, void *obj)
{
    (void)obj;
    RingNode *node = subject;
    (*node->count)++;
    sim_event_notify(&node->next->ev, SIM_NS);
}

int main(int argc, char **argv)
{
    uint64_t n = 0, sim_us = 0;
    if (argc != 3 || !bench_parse_u64(argv[1], 1, UINT64_C(1) << 24, &n) ||
        !bench_parse_u64(argv[2], 1, 1000000000, &sim_us)) {
        fprintf(stderr, "usage: kernel_ring N SIM_US "
                        "(1 <= N <= 16777216, 1 <= SIM_US <= 1e9)\n");
        return 2;
    }

    Sim *sim = sim_new();
    RingNode *nodes = calloc(n, sizeof *nodes);
    if (!sim || !nodes) {
        fprintf(stderr, "kernel_ring: out of memory for %" PRIu64 " nodes\n", n);
        sim_free(sim);
        free(nodes);
        return 1;
    }
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i++) {
        nodes[i].next = &nodes[(i + 1) % n];
        nodes[i].count = &count;
        sim_event_init(&nodes[i].ev, sim, SIM_PRIO_DEFAULT, ring_activate, &nodes[i],
                       NULL);
    }
    for (uint64_t i = 0; i < n; i++) {
        sim_event_notify(&nodes[i].ev, (i % 7 + 1) * SIM_NS);
    }

    double t0 = bench_seconds();
    sim_run(sim, sim_us * SIM_US - 1);
    double wall = bench_seconds() - t0;

    printf("events %" PRIu64 "\n", count);
    fprintf(stderr, "wall_s %.6f events_per_s %.0f\n", wall,
            wall > 0 ? (double)count / wall : 0.0);
    sim_free(sim);
    free(nodes);
    return 0;
}
