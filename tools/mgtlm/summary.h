/* The end-of-run summary printed by `mgtlm run`, and the model-error check. */
#ifndef MGTLM_SUMMARY_H
#define MGTLM_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "kernel/platform/platform.h"

/* Prints what an architect reads first (simulated time, remote read fraction,
 * inter-GPU bytes, per-link bandwidth and utilisation, cu read latency, each present
 * mechanism's key figure), then every statistic aggregated by block type and kind
 * (summary_agg.h) with its unit; statistics that stayed zero only when all is set.
 * now is the simulated time the rates are taken over. */
void summary_print(FILE *f, const Platform *p, SimTime now, bool all);

/* Model errors are the counters their block's stat table marks is_error
 * (data_errors, route_errors, ...). Prints every nonzero one to f; returns how many
 * there were. */
size_t summary_report_errors(FILE *f, const Platform *p);

#endif
