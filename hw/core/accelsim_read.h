/* Streaming reader of one Accel-Sim kernel trace (kernel-<n>.traceg, plain or .gz):
 * the header on open, then one thread block (AtsCta) per call, so that memory is
 * bounded by one CTA whatever the length of the trace (SPEC.md 6.1).
 *
 *   AtsReader *r = ats_reader_open(path, &info, &err);
 *   AtsCta cta;
 *   bool got;
 *   while (ats_reader_next(r, &cta, &got, &err) && got) { ...; ats_cta_free(&cta); }
 *   ats_reader_close(r);
 *
 * A consumer that does not keep blocks reads them in place with ats_reader_view (no
 * allocation, no copy); one that wants only some blocks reads each block's coordinates
 * with ats_reader_peek and passes over the others with ats_reader_skip:
 *
 *   while (ats_reader_peek(r, xyz, &got, &err) && got) {
 *       if (mine(xyz)) { ok = ats_reader_view(r, &view, &got, &err); ...use *view... }
 *       else ok = ats_reader_skip(r, &got, &err);
 *   }
 *
 * Every error is one line "<file>:<line>: <message>" in err; after an error the reader
 * is only closed. */
#ifndef MGTLM_HW_CORE_ACCELSIM_READ_H
#define MGTLM_HW_CORE_ACCELSIM_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "kernel/error.h"

/* The widest access one lane may make, in bytes (a wider mem_width is refused). */
#define ATS_WIDTH_MAX 256

typedef struct AtsReader AtsReader;

/* Opens the kernel file at path and reads its header into *info. NULL on failure. The
 * caller closes the reader with ats_reader_close. */
AtsReader *ats_reader_open(const char *path, AtsKernelInfo *info, SimError *err);
/* Reads the next thread block into *cta (the caller frees it with ats_cta_free) and
 * sets *got; *got false at the end of the file (cta untouched). False on error. */
bool ats_reader_next(AtsReader *r, AtsCta *cta, bool *got, SimError *err);
/* Reads the next thread block into the reader's own block and points *view at it
 * (borrowed: valid until the next call on r) and sets *got; *got false at the end of
 * the file. False on error. The reader's block keeps its arrays from block to block,
 * so memory stays that of the largest block. */
bool ats_reader_view(AtsReader *r, const AtsCta **view, bool *got, SimError *err);
/* Reads the next thread block's "thread block = x,y,z" line (once: until that block is
 * read or skipped, further calls give the same block) into xyz and sets *got; *got
 * false at the end of the file. False on error. */
bool ats_reader_peek(AtsReader *r, uint32_t xyz[3], bool *got, SimError *err);
/* Passes over the next thread block, checking its structure lines ("thread block",
 * "warp", "insts", #END_TB and the instruction count) as the other calls do but not
 * its instruction lines, and sets *got; *got false at the end of the file. False on
 * error (the errors of the structure lines, as the other calls word them). */
bool ats_reader_skip(AtsReader *r, bool *got, SimError *err);
/* Where a block starts (its #BEGIN_TB line): the file offset and the line number. */
typedef struct AtsMark {
    uint64_t offset, line;
} AtsMark;

/* The mark of the block last peeked, viewed or skipped into *m; false if the file
 * cannot seek (it is gzip-compressed) or no block was reached. */
bool ats_reader_mark(AtsReader *r, AtsMark *m);
/* The line number of the #BEGIN_TB of the block last peeked, viewed or skipped, in a
 * seekable file or not (0 before the first block), for messages. */
uint64_t ats_reader_block_line(const AtsReader *r);
/* Moves to the block at m, a mark of the same file: the next call reads that block.
 * False with "<file>:<line>: cannot seek: <reason>" in err. */
bool ats_reader_seek(AtsReader *r, const AtsMark *m, SimError *err);
/* From the next block on, reads instruction lines as known good: a full read of the
 * same file (the run's scan, trace_scan.h) accepted every line. An instruction of a
 * fixed class (accelsim_op.h) that is neither a global nor a local access (not
 * ats_class_leaves_sm) is then read only up to its source registers: it
 * keeps width 0 and no address, and what follows is not checked. For a consumer that
 * uses the addresses of global and local accesses only (the dispatcher: a cta message
 * carries no other, core_msg.h); such lines were most of what a run parsed twice. */
void ats_reader_trust(AtsReader *r);
/* Keeps the addresses of global and local accesses only (ats_class_leaves_sm): every
 * other instruction is still read and checked in full, but keeps width 0
 * and no address, as in a trusted read. For a consumer that uses no other (the
 * whole-trace scan, trace_scan.h): the shared-memory addresses of a GEMM are most of
 * its instructions' addresses. Call before the first block is read. */
void ats_reader_sent_only(AtsReader *r);
/* Instructions read so far whose mnemonic is not in the opcode table (accelsim_op.h),
 * each counted as an int op (skipped blocks are not read, so not counted). */
uint64_t ats_reader_unknown(const AtsReader *r);
/* Blocks read so far (parsed or skipped) that have at least one cluster line (sm_90
 * thread block clusters, which mgtlm does not model). */
uint64_t ats_reader_clustered(const AtsReader *r);
void ats_reader_close(AtsReader *r);

/* Frees what a CTA holds and zeroes it. */
void ats_cta_free(AtsCta *cta);
/* Whether a and b are the same block: coordinates, warps, and every instruction and
 * address of each (byte for byte). */
bool ats_cta_same(const AtsCta *a, const AtsCta *b);

#endif
