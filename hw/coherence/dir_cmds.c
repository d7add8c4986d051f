/* The declared command of the coherence directories (dir_cmds.h): the invalidate
 * acknowledgement. Its name is the one of logs and testbenches. */
#include "hw/coherence/dir_cmds.h"

const TxnCmdDecl dir_cmd_inv_ack = {
    .name = "inv_ack",
    .doc = "coherence: a sharer's acknowledgement of an invalidate (inv_ack = the "
           "invalidate's id), from its L2 to the home directory",
};
