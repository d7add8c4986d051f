/* Access records of DualOpt's monitoring phase (paper 000 section 4.3, SPEC.md 1.6):
 * an l1 sends one `monitor` transaction per read or write (addr = line, mask = the
 * words used) to the decision engine; its `dualopt_access` field holds these bits. The
 * declared mode values are in hw/dualopt/dualopt_mode.h (shared with the codec and the
 * RDMA$). */
#ifndef MGTLM_HW_DUALOPT_DUALOPT_MONITOR_H
#define MGTLM_HW_DUALOPT_DUALOPT_MONITOR_H

#include "kernel/txn.h"

/* The declared command `monitor` (dualopt_cmds.c). */
extern const TxnCmdDecl dualopt_cmd_monitor;

enum {
    DUALOPT_MON_REMOTE = 1, /* the access was remote (SCBU) */
    DUALOPT_MON_HIT = 2,    /* the line was present in the L1 */
    DUALOPT_MON_WRITE = 4,  /* a write (else a read) */
};

#endif
