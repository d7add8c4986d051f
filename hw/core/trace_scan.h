/* The whole trace of a trace-driven run, read once before the run (docs/cores.md
 * "Before the run"): kernelslist.g and every kernel file are parsed completely, so a
 * malformed trace stops the run at load with "<file>:<line>: <message>" (exit 2);
 * per-kernel counts (CTAs, warp instructions, memory requests by SPEC.md 6.3), the
 * allocations, and what every kernel writes, for the data check of the sm.
 *
 * Decisions:
 * - A scan is a pure function of the trace folder and is never changed once built; the
 *   host, every dispatcher and every sm of a process share one (trace_scan_get keeps a
 *   process-wide table by folder, with a use count), as they share the trace files.
 *   It is read-only input, not hardware state: no block writes it, and partitions in
 *   other processes build identical copies.
 * - Host memory grows with the bytes the trace writes (a byte mask per written 128 B
 *   line and kernel), never with the trace's length. A run's scan built with a spool
 *   (the sms' `spool`, the default) also writes every block's `cta` message to a
 *   temporary file (trace_spool.h), which the dispatchers read instead of the text.
 * - Data check (core_value.h): a read in kernel k of byte b may return
 *     the value of the last kernel j < k that wrote b, or the memory's fill when none
 *     did (`older`), or core_value(b, k) when kernel k writes b too (`now`: CTAs of
 *     one kernel are not ordered); bytes any atomic or reduction of the trace touches
 *     are not checked (their values depend on the order of the atomics). */
#ifndef MGTLM_HW_CORE_TRACE_SCAN_H
#define MGTLM_HW_CORE_TRACE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "hw/core/accelsim_read.h"
#include "hw/core/trace_spool.h"
#include "kernel/error.h"

typedef struct TraceScan TraceScan;

/* Where to start reading a kernel file to reach CTA index `cta` and those after it:
 * the block of that CTA begins at `at`. */
typedef struct TraceSeek {
    uint64_t cta;
    AtsMark at;
    uint64_t spool_at; /* the block's record in the spool (when the kernel is spooled) */
} TraceSeek;

/* The first thread block of a kernel file whose index is not above the previous
 * block's (listed out of order, or twice): a valid Accel-Sim file, but one the
 * dispatchers cannot run (they read each file once, in index order: the sm refuses
 * such a trace at load, sm.c). */
typedef struct TraceDisorder {
    uint64_t line;    /* its #BEGIN_TB */
    uint32_t x, y, z; /* "thread block = x,y,z" */
    uint64_t index, prev;
} TraceDisorder;

/* The most seek points kept per kernel: a kernel of more blocks keeps every 2nd, 4th,
 * ... block's, so memory stays bounded whatever the kernel's length. */
#define TRACE_SEEK_MAX 256

/* What one kernel launch holds. */
typedef struct TraceKernel {
    const char *path;   /* the kernel file (folder included; ".gz" resolved) */
    AtsKernelInfo info; /* its header */
    uint64_t ctas;      /* thread blocks in the file */
    uint64_t warps;
    uint64_t warp_insts;   /* instruction lines */
    uint64_t global_insts; /* LDG, STG, ATOMG, RED instruction lines */
    uint64_t local_insts;  /* LDL, STL */
    uint64_t line_reqs;    /* 128 B line requests of the global and local accesses
                              (SPEC.md 6.3: one per line per instruction) */
    const char *name;      /* the file as kernelslist.g names it */
    uint64_t thread_insts; /* active lanes summed over the instruction lines */
    uint64_t by_class[ATS_CLASS_COUNT]; /* instruction lines per class */
    uint64_t local_line_reqs; /* the part of line_reqs the local accesses make */
    uint64_t unknown;         /* lines of a mnemonic outside the opcode table */
    uint64_t clustered;       /* blocks with cluster lines (clusters are not modelled) */
    bool in_order;            /* the file lists its CTAs in strictly increasing index */
    TraceDisorder disorder;   /* when not: the first block out of order */
    TraceSeek *seeks;         /* seek points in file order (none when compressed) */
    size_t nseeks, seek_cap;  /* seek_cap grows to TRACE_SEEK_MAX with the blocks */
    uint64_t seek_every;      /* a seek point every this many blocks of the file */
    bool spooled; /* every block's message is in the scan's spool, in the records */
    uint64_t spool_start, spool_end; /* [spool_start, spool_end) */
} TraceKernel;

/* The scan of the trace folder dir (borrowed until trace_scan_put; every get needs one
 * put). Built on the first get of a folder, with a spool of the blocks' messages when
 * that get asks for one (spool; later gets share the scan as it is); NULL with the
 * reader's message in err when the trace is malformed. */
const TraceScan *trace_scan_get(const char *dir, bool spool, SimError *err);
void trace_scan_put(const TraceScan *s);
/* Whether the get that built s asked for a spool (whether one could be made or not). */
bool trace_scan_spool_asked(const TraceScan *s);
/* True if a scan of dir is held (got and not yet put) in this process: every file of
 * dir has been read in full without error. Builds nothing. */
bool trace_scan_held(const char *dir);

/* The counts and allocations of dir without the written-byte index, for tools that
 * only count (`mgtlm trace-info`): memory of one CTA whatever the trace writes. New,
 * not shared (trace_scan_free); trace_scan_expect must not be called on it. NULL with
 * the reader's message in err when the trace is malformed. */
TraceScan *trace_scan_counts(const char *dir, SimError *err);
void trace_scan_free(TraceScan *s);

/* Kernel launches, in kernelslist.g order, and the k-th (k < trace_scan_kernels). */
size_t trace_scan_kernels(const TraceScan *s);
const TraceKernel *trace_scan_kernel(const TraceScan *s, size_t k);

/* Where a reader of kernel k's file (ats_reader_seek) may start to meet every CTA of
 * index >= cta that the file holds: the last seek point at or before cta. False
 * (read from the first block) if the file is compressed, does not list its CTAs in
 * increasing index order, or holds no block before cta. */
bool trace_scan_seek(const TraceScan *s, size_t k, uint64_t cta, AtsMark *at);

/* The spool that holds the messages of kernel k's blocks (trace_spool.h; borrowed
 * like s), with *at the record where a dispatcher meets every block of index >= cta
 * (the last seek point at or before cta, else the kernel's first record) and *end
 * the end of the kernel's records; NULL when the kernel is not spooled (a scan of
 * the counts only or built without a spool, no temporary file could be made, or a
 * record of this kernel or an earlier one could not be written: past the spool's
 * budget, a block's message over 4 GiB, a failed write): its dispatchers read the
 * text. */
const TraceSpool *trace_scan_spool(const TraceScan *s, size_t k, uint64_t cta,
                                   uint64_t *at, uint64_t *end);

/* MemcpyHtoD allocations in order: the i-th one's base and size. */
size_t trace_scan_allocs(const TraceScan *s);
void trace_scan_alloc(const TraceScan *s, size_t i, uint64_t *base, uint64_t *bytes);

/* What a read of byte vaddr in kernel k may return (see the decisions above). */
typedef struct TraceExpect {
    bool checked;   /* false: an atomic touches the byte; any value is right */
    bool written;   /* some kernel j < k wrote the byte: older is core_value(b, j) */
    uint32_t older; /* that last such kernel j (when written) */
    bool now;       /* kernel k writes the byte too: core_value(b, k) is right too */
} TraceExpect;

TraceExpect trace_scan_expect(const TraceScan *s, uint32_t k, uint64_t vaddr);
/* The same for the n bytes from vaddr, which lie inside one 128 B line, into
 * out[0..n), and true: one look-up for the line (the data check's path). False, with
 * out untouched, when no kernel stores to or atomically touches the line: every byte
 * is then checked against the memory's initial content, (TraceExpect){.checked =
 * true}, and the caller need not build 128 records to learn it. */
bool trace_scan_expect_line(const TraceScan *s, uint32_t k, uint64_t vaddr, uint32_t n,
                            TraceExpect *out);

/* The size of the written-byte index: 128 B lines stored to or touched by an atomic,
 * and (line, writing kernel) byte masks (what a scan's memory grows with). */
void trace_scan_index_size(const TraceScan *s, size_t *lines, size_t *masks);

#endif
