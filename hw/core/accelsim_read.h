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
 * Every error is one line "<file>:<line>: <message>" in err. */
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
/* The same in two steps, so that a block can be passed over without parsing its
 * instructions (a dispatcher skipping other GPUs' CTAs): ats_reader_next_id reads the
 * next "#BEGIN_TB" and "thread block = x,y,z" (inside the grid) into id and sets *got
 * (false at the end of the file); then exactly one of ats_reader_body (the warps, into
 * *cta, freed by the caller with ats_cta_free) or ats_reader_skip (the lines up to
 * #END_TB, not checked) must follow. False on error. */
bool ats_reader_next_id(AtsReader *r, uint32_t id[3], bool *got, SimError *err);
bool ats_reader_body(AtsReader *r, const uint32_t id[3], AtsCta *cta, SimError *err);
bool ats_reader_skip(AtsReader *r, SimError *err);
/* Instructions read so far whose mnemonic is not in the opcode table (accelsim_op.h),
 * each counted as an int op. */
uint64_t ats_reader_unknown(const AtsReader *r);
void ats_reader_close(AtsReader *r);

/* Frees what a CTA holds and zeroes it. */
void ats_cta_free(AtsCta *cta);

#endif
