/* The end-of-run summary printed by `mgtlm run`, and the model-error check. */
#ifndef MGTLM_SUMMARY_H
#define MGTLM_SUMMARY_H

#include <stdio.h>

#include "kernel/platform/platform.h"

/* Prints, per block type, the totals over all instances of each counter, and the
 * count-weighted mean of each histogram. */
void summary_print(FILE *f, const Platform *p);

/* Model errors are the counters their block's stat table marks is_error
 * (data_errors, route_errors, ...). Prints every nonzero one to f; returns how many
 * there were. */
size_t summary_report_errors(FILE *f, const Platform *p);

#endif
