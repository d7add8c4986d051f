/* Internal state of one testbench run, shared by testbench_load.c (reading the file,
 * extending the platform) and testbench.c (building, running, judging). */
#ifndef MGTLM_TESTBENCH_PRIV_H
#define MGTLM_TESTBENCH_PRIV_H

#include <jansson.h>

#include "collector.h"
#include "golden.h"
#include "kernel/mpi/engine_mpi.h"
#include "kernel/platform/platform.h"
#include "kernel/trace/trace.h"
#include "testbench.h"

typedef struct Tb {
    const Registry *registry; /* block types (borrowed) */
    const char *path;         /* as given by the user (borrowed) */
    json_t *doc;              /* the testbench document (owned) */
    const char *name;         /* "name" or the path (borrowed) */
    GoldenMode mode;
    Golden golden;     /* owned */
    PlatformDesc desc; /* owned until platform_build takes it */
    bool has_desc;
    SimTime until;    /* SIM_TIME_MAX: run until idle */
    Sim *sim;         /* owned; NULL on the engine */
    Engine *engine;   /* owned: the platform has several partitions; else NULL */
    unsigned threads; /* threads of the engine */
    bool mpi;         /* on the MPI ranks of mpirun (kernel/mpi/engine_mpi.h) */
    EngineMpi *ranks; /* owned, with mpi */
    /* with mpi, on rank 0: each driver's check (in "drive" order) as its rank made
     * it, "" when it passed (owned) */
    char (*checks)[SIM_ERROR_MAX];
    Platform *p;   /* owned */
    Collector col; /* owned */
    TraceLog *log; /* owned */
} Tb;

/* "<path>: <pointer>: <message>" into err; returns false. */
bool tb_fail(const Tb *tb, const char *pointer, SimError *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reads and checks the document (keys, name, match, golden) and loads the platform
 * description with the testbench's `set`; then adds the driver and sink instances
 * and their wires to tb->desc and parses `until`. */
bool tb_load(Tb *tb, SimError *err);

/* Checks that every name of `expect_errors` is a counter of the built platform tb->p
 * (bad input otherwise). */
bool tb_check_expected(const Tb *tb, SimError *err);

#endif
