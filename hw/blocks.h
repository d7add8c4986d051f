/* The hardware models' registration: every block type of hw/blocks.def, every
 * topology generator of hw/topologies.def and every declared command of
 * hw/txn_cmds.def, added to a front end's registry. */
#ifndef MGTLM_HW_BLOCKS_H
#define MGTLM_HW_BLOCKS_H

#include <stdbool.h>

#include "kernel/error.h"
#include "kernel/registry.h"

/* Adds the hardware block types, then the topology generators, then the declared
 * commands, each in its list's order. Fails on a name r already holds. */
bool hw_register(Registry *r, SimError *err);

#endif
