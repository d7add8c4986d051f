/* The registration of the hardware models, expanded from hw/blocks.def,
 * hw/topologies.def and hw/txn_cmds.def. */
#include "hw/blocks.h"

#define BLOCK(t) extern const BlockType t;
#include "hw/blocks.def"
#undef BLOCK

#define TOPOLOGY(t) extern const TopologyType t;
#include "hw/topologies.def"
#undef TOPOLOGY

#define TXN_CMD(c) extern const TxnCmdDecl c;
#include "hw/txn_cmds.def"
#undef TXN_CMD

static const BlockType *const hw_block_types[] = {
#define BLOCK(t) &t,
#include "hw/blocks.def"
#undef BLOCK
};

static const TopologyType *const hw_topologies[] = {
#define TOPOLOGY(t) &t,
#include "hw/topologies.def"
#undef TOPOLOGY
};

static const TxnCmdDecl *const hw_cmds[] = {
#define TXN_CMD(c) &c,
#include "hw/txn_cmds.def"
#undef TXN_CMD
};

bool hw_register(Registry *r, SimError *err)
{
    for (size_t i = 0; i < sizeof hw_block_types / sizeof hw_block_types[0]; i++) {
        if (!registry_add(r, hw_block_types[i], err)) {
            return false;
        }
    }
    for (size_t i = 0; i < sizeof hw_topologies / sizeof hw_topologies[0]; i++) {
        if (!registry_add_topology(r, hw_topologies[i], err)) {
            return false;
        }
    }
    for (size_t i = 0; i < sizeof hw_cmds / sizeof hw_cmds[0]; i++) {
        if (!registry_add_cmd(r, hw_cmds[i], err)) {
            return false;
        }
    }
    return true;
}
