/* The commands hardware declares beyond the TLM generic ones (kernel/txn.h
 * TxnCmdDecl), NULL-terminated: what testbench stimulus and golden vectors may name
 * besides the generic commands. */
#ifndef MGTLM_HW_TXN_CMDS_H
#define MGTLM_HW_TXN_CMDS_H

#include "kernel/txn.h"

extern const TxnCmdDecl *const hw_txn_cmds[];

#endif
