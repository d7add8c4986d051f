/* The registry's list, expanded from hw/blocks.def. */
#include "hw/blocks.h"

#define BLOCK(t) extern const BlockType t;
#include "hw/blocks.def"
#undef BLOCK

const BlockType *const hw_block_types[] = {
#define BLOCK(t) &t,
#include "hw/blocks.def"
#undef BLOCK
    NULL,
};
