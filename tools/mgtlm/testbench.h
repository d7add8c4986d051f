/* Running one directed testbench (docs/testbench-format.md): load the testbench
 * JSON, load and extend the platform with drivers and sinks, build it, attach the
 * collector to the observed ports (and the optional log), run until `until` or idle,
 * check the drivers and compare the observed records with the golden vector. */
#ifndef MGTLM_TESTBENCH_H
#define MGTLM_TESTBENCH_H

#include <stdio.h>

#include "cli_log.h"
#include "kernel/error.h"
#include "kernel/registry.h"

typedef enum TbStatus { TB_PASS = 0, TB_FAIL = 1, TB_BAD_INPUT = 2 } TbStatus;

/* Runs the testbench in path with the block types of r. On TB_PASS / TB_FAIL prints "PASS
 * <name>" or "FAIL <name>" and the reasons (first differing records side by side) to out.
 * On TB_BAD_INPUT prints nothing and err holds a one-line message naming the file and
 * JSON path (or line). log may be NULL; its output goes to <log dir>/<log_subdir>. */
TbStatus testbench_run(const Registry *r, const char *path, const CliLog *log,
                       const char *log_subdir, FILE *out, SimError *err);
/* testbench_run with the partitions of a platform of several (docs/parallel.md) run
 * on `threads` threads (the same records and verdict for any number), or with mpi on
 * the ranks of mpirun (MPI_Init done; every rank calls it, rank 0 judges and prints,
 * the others should pass an out that discards). */
TbStatus testbench_run_threads(const Registry *r, const char *path, const CliLog *log,
                               const char *log_subdir, unsigned threads, bool mpi,
                               FILE *out, SimError *err);

#endif
