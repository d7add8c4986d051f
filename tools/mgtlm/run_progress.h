/* The progress line of `mgtlm run` on stderr: simulated time, the percentage of
 * --until and an estimate of the time left when the run has a limit (a trace-driven
 * run: the share of the trace's CTAs that ended instead), events and events/s. On a
 * terminal one line is rewritten in place; otherwise (a log file, a pipe) a full line is
 * written at each interval, so a batch job shows it is alive. */
#ifndef MGTLM_RUN_PROGRESS_H
#define MGTLM_RUN_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel/sim.h"

typedef struct RunProgress {
    FILE *f;
    double interval;                  /* host seconds between lines; 0: no line */
    bool tty;                         /* rewrite one line with '\r' */
    SimTime until;                    /* the run's limit, SIM_TIME_MAX if none */
    const uint64_t *ctas_done, *ctas; /* a trace-driven run's host counters
                                         (borrowed), NULL otherwise */
    double start, last;
    bool shown; /* a line was written */
} RunProgress;

/* Host monotonic time in seconds. */
double run_progress_clock(void);

/* Starts at host time now; interval 0 turns the line off. */
void run_progress_init(RunProgress *pr, FILE *f, double interval, bool tty, SimTime until,
                       double now);
/* Follows a trace instead of the time limit: *done of *total CTAs ended (borrowed
 * counters that must outlive pr; NULL: none). */
void run_progress_trace(RunProgress *pr, const uint64_t *done, const uint64_t *total);
/* Writes a line if interval seconds passed since the last one: simulated time t and
 * events executed so far. */
void run_progress_tick(RunProgress *pr, SimTime t, uint64_t events, double now);
/* Ends the rewritten line on a terminal. */
void run_progress_end(RunProgress *pr);

#endif
