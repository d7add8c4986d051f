/* DualOpt's commands beyond the TLM generic ones (paper 000 section 4.3, SPEC.md 1.6):
 * the L1s' access records to the decision engine and the engine's mode declaration.
 * Their names are those of logs and testbenches; hw/txn_cmds.def lists them. */
#include "hw/dualopt/dualopt_mode.h"
#include "hw/dualopt/dualopt_monitor.h"

const TxnCmdDecl dualopt_cmd_monitor = {
    .name = "monitor",
    .doc = "DualOpt: an L1 access record for the decision engine (addr = line, mask,"
           " dualopt_access bits)",
};

const TxnCmdDecl dualopt_cmd_mode = {
    .name = "mode",
    .doc = "DualOpt: a mode declaration from the decision engine (dualopt_mode)",
};
