/* The kernel launches and allocations of a trace folder as the host and the
 * dispatchers need them (docs/cores.md "Kernels and the dispatcher"): kernelslist.g
 * read with ats_list_load, and each kernel file's header read with ats_reader_open, so
 * the CTA count of every kernel (gx gy gz from its header) is known before the run.
 *
 * Decisions:
 * - Only headers are read here; the CTAs are streamed by the dispatcher while the
 *   kernel runs. A malformed kernelslist.g or header fails the block's realize with
 *   the reader's "<file>:<line>: <message>".
 * - Each block that needs the list loads its own copy (a few hundred bytes per
 *   kernel), so no block shares state with another. */
#ifndef MGTLM_HW_CORE_CORE_KERNELS_H
#define MGTLM_HW_CORE_CORE_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/accelsim.h"
#include "kernel/error.h"

/* One kernel launch. */
typedef struct CoreKernel {
    char *path;         /* the kernel file, folder included (owned) */
    AtsKernelInfo info; /* its header */
    uint64_t ctas;      /* gx gy gz */
} CoreKernel;

/* One MemcpyHtoD allocation. */
typedef struct CoreAlloc {
    uint64_t base, bytes;
} CoreAlloc;

typedef struct CoreKernels {
    size_t nkernels;
    CoreKernel *kernels; /* owned, in kernelslist.g order */
    size_t nallocs;
    CoreAlloc *allocs; /* owned, in kernelslist.g order */
} CoreKernels;

/* Reads the launches and allocations of trace folder dir into *ks (free it with
 * core_kernels_free). False with the reader's message in err, or when the list
 * launches no kernel; *ks is then empty. */
bool core_kernels_load(const char *dir, CoreKernels *ks, SimError *err);
void core_kernels_free(CoreKernels *ks);

#endif
