/* The progress line of `mgtlm run` (see run_progress.h). The estimate of the time left
 * assumes the rest of the run goes at the host speed so far (simulated time, or CTAs
 * of a trace, per host second); it is shown only with a limit or a trace and once
 * some of it is done. A trace's share is of CTAs, not of kernels or instructions:
 * the host counts them, they end steadily, and the total is known at the start. */
#include "run_progress.h"

#include <stdint.h>
#include <time.h>

double run_progress_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void run_progress_init(RunProgress *pr, FILE *f, double interval, bool tty, SimTime until,
                       double now)
{
    *pr = (RunProgress){.f = f,
                        .interval = interval,
                        .tty = tty,
                        .until = until,
                        .start = now,
                        .last = now};
}

void run_progress_trace(RunProgress *pr, const uint64_t *done, const uint64_t *total)
{
    pr->ctas_done = done;
    pr->ctas = total;
}

/* " (<pct>% of <what>, ETA <s> s)" for the fraction frac done after elapsed s. */
static void run_progress_share(FILE *f, double frac, const char *what, double elapsed)
{
    fprintf(f, " (%.1f%% of %s", 100.0 * frac, what);
    if (frac > 0) {
        fprintf(f, ", ETA %.0f s", elapsed * (1.0 - frac) / frac);
    }
    fputc(')', f);
}

void run_progress_tick(RunProgress *pr, SimTime t, uint64_t events, double now)
{
    if (pr->interval <= 0 || now - pr->last < pr->interval) {
        return;
    }
    pr->last = now;
    pr->shown = true;
    double elapsed = now - pr->start;
    fprintf(pr->f, "%s  t = %.3f us", pr->tty ? "\r" : "mgtlm run:", (double)t / 1e6);
    if (pr->ctas && *pr->ctas > 0) {
        char what[64];
        snprintf(what, sizeof what, "%llu CTAs", (unsigned long long)*pr->ctas);
        run_progress_share(pr->f, (double)*pr->ctas_done / (double)*pr->ctas, what,
                           elapsed);
    } else if (pr->until != SIM_TIME_MAX && pr->until > 0) {
        char what[64];
        snprintf(what, sizeof what, "%.3f us", (double)pr->until / 1e6);
        run_progress_share(pr->f, (double)t / (double)pr->until, what, elapsed);
    }
    fprintf(pr->f, ", %llu events, %.2f M events/s%s", (unsigned long long)events,
            elapsed > 0 ? (double)events / elapsed / 1e6 : 0.0, pr->tty ? "   " : "\n");
    fflush(pr->f);
}

void run_progress_end(RunProgress *pr)
{
    if (pr->tty && pr->shown) {
        fputc('\n', pr->f);
    }
}
