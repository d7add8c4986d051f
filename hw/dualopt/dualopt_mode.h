/* DualOpt mode transactions (SPEC.md 1.6): the decision engine declares `none`,
 * `coalesce` or `cache`; blocks that switch with the declaration (codec, rdma_cache)
 * take the declaration as a transaction on their optional `mode` port. Only the
 * transaction's `dualopt_mode` field is read (any command; it is not answered): */
#ifndef MGTLM_HW_DUALOPT_DUALOPT_MODE_H
#define MGTLM_HW_DUALOPT_DUALOPT_MODE_H

#include "kernel/txn.h"

/* The declared command `mode` (dualopt_cmds.c): the decision engine sends one
 * transaction of it on each bound output; the l1 acts only on this command. */
extern const TxnCmdDecl dualopt_cmd_mode;

enum {
    DUALOPT_MODE_NONE = 0,     /* baseline DCA: codec and RDMA$ off */
    DUALOPT_MODE_COALESCE = 1, /* codec on, RDMA$ off */
    DUALOPT_MODE_CACHE = 2,    /* RDMA$ on, codec off */
};

#endif
