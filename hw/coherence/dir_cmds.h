/* The coherence directories' command beyond the TLM generic ones: the acknowledgement
 * a sharer's L2 returns for an invalidate that asks for one (docs/coherence.md "Kernel
 * boundaries"). Declared in dir_cmds.c, listed in hw/txn_cmds.def. */
#ifndef MGTLM_HW_COHERENCE_DIR_CMDS_H
#define MGTLM_HW_COHERENCE_DIR_CMDS_H

#include "kernel/txn.h"

/* inv_ack: src = the sharer, dst = the home, addr = the invalidated line, len 0, no
 * data; its inv_ack field holds the id of the invalidate it acknowledges. */
extern const TxnCmdDecl dir_cmd_inv_ack;

#endif
