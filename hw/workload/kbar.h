/* The kernel barrier of the cus of pattern shared (kbar.c): the two declared
 * commands a cu and a kbar exchange over the wire between the cu's bar[0] and one of
 * the kbar's cu[k] ports.
 *
 *   arrive  cu -> kbar: addr = k; the cu has sent kernel k's kernel_end and has a
 *           kernel k + 1 to run. len 0, src = the cu's GPU, unit = its index.
 *   open    kbar -> cu: addr = k + 1; every port of the kbar has arrived for kernel
 *           k, so kernel k + 1 may begin. len 0, dst and unit = the arrive's src and
 *           unit.
 * Neither is answered (txn_needs_response). */
#ifndef MGTLM_HW_WORKLOAD_KBAR_H
#define MGTLM_HW_WORKLOAD_KBAR_H

#include "kernel/txn.h"

extern const TxnCmdDecl kbar_cmd_arrive;
extern const TxnCmdDecl kbar_cmd_open;

#endif
