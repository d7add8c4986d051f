/* The list of declared commands (hw/txn_cmds.h): one line per command. */
#include "hw/txn_cmds.h"

#include "hw/dualopt/dualopt_mode.h"
#include "hw/dualopt/dualopt_monitor.h"

const TxnCmdDecl *const hw_txn_cmds[] = {
    &dualopt_cmd_monitor,
    &dualopt_cmd_mode,
    NULL,
};
