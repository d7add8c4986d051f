/* The list of block types, NULL-terminated, in hw/blocks.def order. */
#ifndef MGTLM_HW_BLOCKS_H
#define MGTLM_HW_BLOCKS_H

#include "kernel/block.h"

extern const BlockType *const hw_block_types[];

#endif
