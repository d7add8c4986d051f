/* The hardware models' registration: every block type of hw/blocks.def and every
 * topology generator of hw/topologies.def, added to a front end's registry. */
#ifndef MGTLM_HW_BLOCKS_H
#define MGTLM_HW_BLOCKS_H

#include <stdbool.h>

#include "kernel/error.h"
#include "kernel/registry.h"

/* Adds the hardware block types, then the topology generators, each in its list's
 * order. Fails on a name r already holds. */
bool hw_register(Registry *r, SimError *err);

#endif
