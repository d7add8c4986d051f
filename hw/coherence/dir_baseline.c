/* dir_baseline: the baseline coherence directory of the REC paper (one line per entry,
 * tag + sharer bits for the N-1 other GPUs + valid, FIFO replacement by default).
 * The behaviour is in dir_block.c and dir_core.c (SPEC.md 3.1, REC paper 003);
 * this file holds the block type, its parameters and defaults.
 * Decisions: none beyond dir_block.c. */
#include <stddef.h>

#include "hw/coherence/dir_block.h"

static const ParamDef dir_baseline_params[] = {
    DIR_PARAM_ENTRIES,
    DIR_PARAM_WAYS("associativity; set index = line address mod (entries / ways)"),
    DIR_PARAM_LINE,
    DIR_PARAM_REPLACEMENT("fifo"),
    DIR_PARAM_LATENCY,
    DIR_PARAM_ACKS,
};

static bool dir_baseline_realize(Block *b, SimError *err)
{
    return dir_block_realize(b, false, err);
}

const BlockType dir_baseline_type = {
    .name = "dir_baseline",
    .doc = "coherence directory, one line per entry (SPEC 3.1 baseline)",
    .params = dir_baseline_params,
    .nparams = sizeof dir_baseline_params / sizeof dir_baseline_params[0],
    .realize = dir_baseline_realize,
    DIR_BLOCK_TYPE_COMMON,
};
