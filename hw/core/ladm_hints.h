/* Per-kernel LADM hints (docs/ladm.md "Hints"): a class per kernel, given by the user
 * or a compiler, that replaces what ladm.h's analysis reads from the trace (paper 002
 * section III-B: the locality type is the compiler's; a hint stands for its verdict
 * where the trace's addresses mislead the analysis, e.g. a data-dependent start).
 *
 * The hints of a trace folder are the optional file `ladm_hints` beside kernelslist.g,
 * one hint per line: `<kernel file as kernelslist.g names it> <class>`, the class one
 * of `nl`, `row`, `column`, `itl`, `other` (ladm.h's LADM_NL .. LADM_OTHER); blank
 * lines and lines starting with `#` are skipped; fields are separated by spaces or
 * tabs. A hint applies to every launch of its file.
 *
 * Decisions:
 * - A file beside the trace, not a block parameter: the host and every dispatcher
 *   need the same hints (the placement and the schedule), a trace folder is what a
 *   run names once, and the hints describe the program, as the trace does.
 * - Refused, at load, with "<dir>/ladm_hints:<line>: <message>": a line that is not
 *   two fields, an unknown class, a kernel file that kernelslist.g does not launch, a
 *   kernel hinted twice, and a binding the grid cannot give every GPU a part of (`row`
 *   with fewer rows of CTAs, gy x gz, than GPUs; `column` with fewer columns, gx): the
 *   analysis falls back to another schedule there, so such a hint would not be
 *   followed.
 * - The file is read only where LADM's policies are on (the host's placement `ladm`,
 *   a dispatcher's cta_policy `ladm`). */
#ifndef MGTLM_HW_CORE_LADM_HINTS_H
#define MGTLM_HW_CORE_LADM_HINTS_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/core/core_kernels.h"
#include "hw/core/ladm.h"
#include "kernel/error.h"

/* The file name of the hints in a trace folder. */
#define LADM_HINTS_FILE "ladm_hints"

/* Fills hints[k] for each launch k of ks (the launches of trace folder dir, read by
 * core_kernels_load; hints has ks->nkernels entries, the caller's) with its hinted
 * class, LADM_UNUSED where none (all of them when dir has no hints file), for ngpus
 * GPUs. False with "<dir>/ladm_hints:<line>: <message>" (or the reader's message). */
bool ladm_hints_load(const char *dir, const CoreKernels *ks, uint32_t ngpus,
                     LadmClass *hints, SimError *err);

/* The class named s (nl, row, column, itl, other); false if none. */
bool ladm_hint_parse(const char *s, LadmClass *cls);

#endif
