/* MPI ranks for the partitioned engine (docs/parallel.md "MPI"): every rank loads and
 * builds the whole platform; each rank runs the partitions dealt to it by load
 * (engine_mpi.c's mpi_place) and leaves the others idle. The windows are the threaded
 * engine's: at each window end the outboxes addressed to other ranks' partitions are
 * serialized (transactions by txn_wire.h, ports by their index in the platform) and
 * sent, one message to each other rank with the earliest next time and the stop flag
 * of the sender, so every partition sees the same messages in the same order as on
 * threads and the outputs are byte-identical to `--threads 1`.
 *
 * Built into the mgtlm binary only when Open MPI is found (meson option mpi). Every
 * function here is collective: all ranks call it in the same order. */
#ifndef MGTLM_ENGINE_MPI_H
#define MGTLM_ENGINE_MPI_H

#include <stdbool.h>

#include "kernel/engine.h"
#include "kernel/platform/platform.h"
#include "kernel/trace/trace_defer.h"

typedef struct EngineMpi EngineMpi;

/* Attaches the ranks of MPI_COMM_WORLD (MPI_Init done) to p's engine (p built on
 * it); decls are the declared commands (NULL-terminated, borrowed). Owned by the
 * caller (engine_mpi_free, before the platform). */
EngineMpi *engine_mpi_new(Platform *p, const TxnCmdDecl *const *decls);
void engine_mpi_free(EngineMpi *m);
int engine_mpi_rank(const EngineMpi *m);
/* engine_run over the ranks (one thread each); afterwards engine_now, engine_events
 * and engine_next_time give the values of all ranks. False with err set if a
 * message cannot be decoded. */
bool engine_mpi_run(EngineMpi *m, SimTime until, EngineTimes *times, SimRunResult *result,
                    SimError *err);
/* The rank that runs the partition of kernel sim (one of the engine's). */
int engine_mpi_owner(const EngineMpi *m, const Sim *sim);
/* Rank 0 receives len bytes from every rank (itself included) into all (ranks * len
 * bytes, rank order; ignored on the other ranks). */
void engine_mpi_gather_bytes(EngineMpi *m, const void *mine, size_t len, void *all);
/* How many ranks run. */
int engine_mpi_ranks(const EngineMpi *m);
/* The largest v of all ranks. */
int engine_mpi_max(const EngineMpi *m, int v);
/* Logs (d: the log's deferred buffers, trace_log_defer; every rank passes its own):
 * each rank drops the records of the partitions it does not run, the ranks but 0
 * send theirs to rank 0 (MPI_Gatherv), which appends them to the buffers of those
 * partitions, so that its next flush merges every partition's records by (time,
 * partition) as on threads. Call after every engine_mpi_run, before the flush.
 * False with err set (rank 0) on a record it cannot decode. */
bool engine_mpi_gather_log(EngineMpi *m, TraceDefer *d, SimError *err);
/* Rank 0 receives the statistics of the blocks of the other ranks' partitions into
 * its registry (after platform_finish_stats on every rank); the time split of
 * every rank is summed into rank 0's *times. */
void engine_mpi_gather_stats(EngineMpi *m, EngineTimes *times);

#endif
