/* Covers tools/mgtlm/summary_trace.c, the trace figures of summary.c and the trace
 * share of run_progress.c: a platform holding a stand-in block of type "host" (the
 * statistics of the host of issue 14, contract stat names) whose counters the test
 * sets by hand. Expected lines are computed by hand: 30000 warp instructions over an
 * execution time of 10 us at 1 GHz are 3 per cycle; stopped at 4 us with 6000, 1.5
 * per simulated cycle; 30 of 120 CTAs after 1 host second leave 3 s. */
#include <stdlib.h>
#include <string.h>

#include "kernel/platform/platform.h"
#include "tests/unit/harness.h"
#include "tools/mgtlm/run_progress.h"
#include "tools/mgtlm/summary.h"

typedef struct FakeHost {
    Block b;
    uint64_t *exec_ps, *kernels, *kernels_done, *ctas, *ctas_done, *warp_insts;
} FakeHost;

static const StatDef fake_host_stats[] = {
    STAT(FakeHost, exec_ps, "exec_ps", STAT_TIME, "ps", "end of the last kernel"),
    STAT(FakeHost, kernels, "kernels", STAT_COUNTER, "", "kernels in the trace"),
    STAT(FakeHost, kernels_done, "kernels_done", STAT_COUNTER, "", "kernels ended"),
    STAT(FakeHost, ctas, "ctas", STAT_COUNTER, "", "CTAs in the trace"),
    STAT(FakeHost, ctas_done, "ctas_done", STAT_COUNTER, "", "CTAs ended"),
    STAT(FakeHost, warp_insts, "warp_insts", STAT_COUNTER, "", "warp instructions"),
};

static const BlockType fake_host = {.name = "host",
                                    .doc = "stands for the host",
                                    .size = sizeof(FakeHost),
                                    .stat_defs = fake_host_stats,
                                    .nstat_defs = 6};
static const BlockType fake_other = {.name = "other",
                                     .doc = "the same stats, another type",
                                     .size = sizeof(FakeHost),
                                     .stat_defs = fake_host_stats,
                                     .nstat_defs = 6};

/* A 1 GHz platform of one instance "h" of type (new; platform_free). */
static Platform *one_block(const Registry *r, const char *type, Sim *sim)
{
    SimError err;
    PlatformDesc d = {.registry = r};
    d.info = (PlatformInfo){.gpus = 1, .mem_bytes = 1 << 20, .clock = 1000};
    CHECK(platform_desc_add_instance(&d, "h", type, -1, NULL, "t.json: /", &err));
    Platform *p = platform_build(&d, sim, &err);
    CHECK(p != NULL);
    return p;
}

static void fake_set(Platform *p, uint64_t exec, uint64_t kernels, uint64_t done,
                     uint64_t insts)
{
    FakeHost *h = (FakeHost *)platform_block(p, "h");
    *h->exec_ps = exec;
    *h->kernels = kernels;
    *h->kernels_done = done;
    *h->ctas = 120;
    *h->ctas_done = done * 40;
    *h->warp_insts = insts;
}

/* The summary of p at now (static buffer, until the next call). */
static const char *summary_text(const Platform *p, SimTime now)
{
    static char *text;
    size_t len;
    free(text);
    FILE *f = open_memstream(&text, &len);
    summary_print(f, p, now, false);
    fclose(f);
    return text;
}

static void test_summary(void)
{
    Registry *r = registry_new();
    SimError err;
    CHECK(registry_add(r, &fake_host, &err) && registry_add(r, &fake_other, &err));
    Sim *sim = sim_new();
    Platform *p = one_block(r, "host", sim);
    fake_set(p, 10000000, 3, 3, 30000);
    const char *s = summary_text(p, 12000000);
    const char *want = "  execution time               10.000 us\n"
                       "  kernels                      3 of 3 ended (120 of 120 CTAs)\n"
                       "  warp instructions            30000\n"
                       "  IPC                          3.000 warp instructions per cycle "
                       "(all SMs, 10000 cycles)\n"
                       "  simulated time               12.000 us\n";
    CHECK(strncmp(s, want, strlen(want)) == 0);
    if (strncmp(s, want, strlen(want)) != 0) {
        fprintf(stderr, "%s", s);
    }
    fake_set(p, 0, 3, 1, 6000);
    s = summary_text(p, 4000000);
    want = "  execution time               unfinished (1 of 3 kernels ended)\n"
           "  kernels                      1 of 3 ended (40 of 120 CTAs)\n"
           "  warp instructions            6000\n"
           "  IPC                          1.500 warp instructions per cycle (all SMs, "
           "4000 cycles simulated)\n";
    CHECK(strncmp(s, want, strlen(want)) == 0);
    if (strncmp(s, want, strlen(want)) != 0) {
        fprintf(stderr, "%s", s);
    }
    platform_free(p);
    p = one_block(r, "other", sim);
    fake_set(p, 10000000, 3, 3, 30000);
    s = summary_text(p, 12000000);
    CHECK(strncmp(s, "  simulated time ", 17) == 0);
    CHECK(strstr(s, "execution time") == NULL && strstr(s, "IPC") == NULL);
    platform_free(p);
    sim_free(sim);
    registry_free(r);
}

/* The progress line of pr after one host second (static buffer). */
static const char *progress_text(RunProgress *pr, const Sim *sim)
{
    static char *text;
    size_t len;
    free(text);
    FILE *f = open_memstream(&text, &len);
    pr->f = f;
    run_progress_tick(pr, sim_now(sim), sim_events_executed(sim), 1.0);
    fclose(f);
    return text;
}

static void test_progress(void)
{
    Sim *sim = sim_new();
    RunProgress pr;
    uint64_t done = 30, total = 120;
    run_progress_init(&pr, NULL, 0.5, false, 10 * SIM_US, 0.0);
    run_progress_trace(&pr, &done, &total);
    CHECK_STR(progress_text(&pr, sim), "mgtlm run:  t = 0.000 us (25.0% of 120 CTAs, ETA "
                                       "3 s), 0 events, 0.00 M events/s\n");
    run_progress_init(&pr, NULL, 0.5, false, 10 * SIM_US, 0.0);
    CHECK_STR(progress_text(&pr, sim), "mgtlm run:  t = 0.000 us (0.0% of 10.000 us), 0 "
                                       "events, 0.00 M events/s\n");
    sim_free(sim);
}

int main(void)
{
    RUN(test_summary);
    RUN(test_progress);
    return harness_report();
}
