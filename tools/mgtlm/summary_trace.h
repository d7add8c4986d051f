/* The statistics of a trace-driven run (a platform with a block of type host, the
 * cores of issue 14) that the summary leads with and the progress line follows.
 * Stat names: the host's table (docs/stats.md, The summary). */
#ifndef MGTLM_SUMMARY_TRACE_H
#define MGTLM_SUMMARY_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel/platform/platform.h"

/* The first block of type host in p (borrowed), NULL for a run without a trace. */
const Block *summary_trace_host(const Platform *p);

/* The storage of the host's counters ctas_done and ctas (borrowed from p's stats;
 * both NULL without a host or without those counters). */
void summary_trace_ctas(const Platform *p, const uint64_t **done, const uint64_t **total);

/* The value of statistic stat of block b as a double, whatever its storage (a
 * counter or a real value; 0 when absent or a histogram). */
double summary_trace_value(const Platform *p, const Block *b, const char *stat);

#endif
