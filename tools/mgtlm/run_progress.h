/* The progress line of `mgtlm run` on stderr: simulated time, the percentage of
 * --until and an estimate of the time left when the run has a limit, events and
 * events/s. On a terminal one line is rewritten in place; otherwise (a log file, a
 * pipe) a full line is written at each interval, so a batch job shows it is alive. */
#ifndef MGTLM_RUN_PROGRESS_H
#define MGTLM_RUN_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "kernel/sim.h"

typedef struct RunProgress {
    FILE *f;
    double interval; /* host seconds between lines; 0: no line */
    bool tty;        /* rewrite one line with '\r' */
    SimTime until;   /* the run's limit, SIM_TIME_MAX if none */
    double start, last;
    bool shown; /* a line was written */
} RunProgress;

/* Host monotonic time in seconds. */
double run_progress_clock(void);

/* Starts at host time now; interval 0 turns the line off. */
void run_progress_init(RunProgress *pr, FILE *f, double interval, bool tty, SimTime until,
                       double now);
/* Writes a line if interval seconds passed since the last one. */
void run_progress_tick(RunProgress *pr, const Sim *sim, double now);
/* Ends the rewritten line on a terminal. */
void run_progress_end(RunProgress *pr);

#endif
