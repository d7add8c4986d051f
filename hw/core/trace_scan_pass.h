/* One kernel's part of the whole-trace scan (trace_scan.h): the kernel file read
 * completely, its counts, and its stores and atomics recorded in the written-byte
 * index. Used by trace_scan.c only. */
#ifndef MGTLM_HW_CORE_TRACE_SCAN_PASS_H
#define MGTLM_HW_CORE_TRACE_SCAN_PASS_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/trace_scan.h"
#include "hw/core/trace_written.h"
#include "kernel/error.h"

/* Reads the file tk->path of launch k (not below any launch read before into w):
 * fills tk->info and tk's counts and records what the kernel writes in w (unless w is
 * NULL: counts only), and appends every block's message to spool (unless NULL or
 * stopped; tk->spooled says whether all of them went in; a record that cannot be
 * written stops the spool, trace_spool_stop). False with "<file>:<line>:
 * <message>" in err. */
bool trace_scan_pass(TraceKernel *tk, uint32_t k, TraceWritten *w, TraceSpool *spool,
                     SimError *err);

#endif
