/* The control messages of the executing GPU (SPEC.md 6.4, docs/cores.md "Kernels"):
 * the declared commands that the host, each GPU's dispatcher and its SMs exchange, and
 * the byte layouts of the two that carry data (a kernel's launch to an SM, a CTA).
 *
 * Paths (every one a wire; only the host's wires cross GPUs, so they carry latency):
 *   host.gpu[g]  <-> gpu<g>.disp.host     launch (host -> disp), xlat (disp -> host)
 *   disp.sm[k]   <-> gpu<g>.sm[k].ctl     launch, cta, finish (disp -> sm),
 *                                         xlat (sm -> disp)
 * Every request below is answered by exactly one response (TXN_RESP, req_cmd
 * TXN_DECLARED, declared = the command), sent back on the port it came in on:
 *
 *   launch  host -> disp: addr = the launch index k (0-based, kernelslist order), len 0.
 *           Answered when GPU g's share of kernel k is over: every CTA of the GPU has
 *           ended and every SM has answered finish. The response's insts = warp
 *           instructions the GPU's SMs issued in kernel k, its ctas = the CTAs of
 *           kernel k the GPU ran (saturating at 2^32 - 1).
 *   launch  disp -> sm: addr = k, data = CoreLaunch (core_launch_encode). The SM sends
 *           kernel_begin (kernel_hint = CoreLaunch.hint) on its mem port and answers
 *           at once; the response's ctas = the CTAs it holds at a time for this kernel
 *           (sm_occupancy; 0 = none fits, which the dispatcher counts as an error).
 *   cta     disp -> sm: addr = the CTA index i, data = the CTA (core_cta.h). The
 *           SM answers when the CTA has ended (its warps ended, its loads answered).
 *   finish  disp -> sm: addr = k; the GPU has no CTA of kernel k left. The SM waits
 *           until every request it sent is answered, sends release and then
 *           kernel_end on its mem port, and answers with insts = warp instructions it
 *           issued in kernel k.
 *   xlat    sm -> disp -> host: addr = a virtual page's first byte, len = the page
 *           size, space = CORE_SPACE_GLOBAL or CORE_SPACE_LOCAL, unit = the SM index,
 *           src = the GPU. The host answers with paddr = the platform physical address
 *           of the page's first byte (GPU h owns [h M, (h + 1) M), M = mem_bytes);
 *           the dispatcher sends the answer to sm[unit].
 *
 * Data layouts are little-endian, fixed-width, independent of the host, so that a
 * message can cross a process (docs/cores.md). */
#ifndef MGTLM_HW_CORE_CORE_MSG_H
#define MGTLM_HW_CORE_CORE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/core/core_cta.h"
#include "kernel/error.h"
#include "kernel/txn.h"

extern const TxnCmdDecl core_cmd_launch;
extern const TxnCmdDecl core_cmd_cta;
extern const TxnCmdDecl core_cmd_finish;
extern const TxnCmdDecl core_cmd_xlat;

/* xlat's space field. Global is 0 (the field's blank value). */
enum { CORE_SPACE_GLOBAL = 0, CORE_SPACE_LOCAL = 1 };

/* What an SM needs to know of a kernel: its header and the dispatcher's settings. */
typedef struct CoreLaunch {
    uint32_t kernel;   /* launch index k, 0-based */
    uint32_t grid[3];  /* CTAs per dimension */
    uint32_t block[3]; /* threads per CTA per dimension */
    uint32_t nregs;    /* registers per thread */
    uint32_t shmem;    /* bytes of shared memory per CTA */
    uint32_t hint;     /* the kernel's hint for kernel_begin (0 = none) */
    uint64_t shmem_base, local_base;
} CoreLaunch;

/* Bytes of an encoded CoreLaunch. */
#define CORE_LAUNCH_BYTES 56

/* Writes l into out[CORE_LAUNCH_BYTES]. */
void core_launch_encode(const CoreLaunch *l, uint8_t *out);
/* Reads a CoreLaunch from data[len]; false (err says why) unless len is
 * CORE_LAUNCH_BYTES. */
bool core_launch_decode(const uint8_t *data, size_t len, CoreLaunch *l, SimError *err);

#endif
