/* dir_rec: the range-coalesced directory (REC): one entry tracks range bytes with a
 * position bit and N-1 sharer slots per line.
 * The behaviour is in dir_block.c and dir_core.c (SPEC.md 3.1, REC paper 003);
 * this file holds the block type, its parameters and defaults.
 * Decisions: none beyond dir_block.c. */
#include <stddef.h>

#include "hw/coherence/dir_block.h"

static const ParamDef dir_rec_params[] = {
    DIR_PARAM_ENTRIES,
    DIR_PARAM_WAYS("associativity; set index = base (addr >> log2(range)) mod "
                   "(entries / ways)"),
    DIR_PARAM_LINE,
    DIR_PARAM_RANGE("1KiB", "bytes tracked per entry (power of two); "
                            "base = addr >> log2(range)"),
    DIR_PARAM_REPLACEMENT("lru"),
    DIR_PARAM_LATENCY,
    DIR_PARAM_ACKS,
};

static bool dir_rec_realize(Block *b, SimError *err)
{
    return dir_block_realize(b, false, err);
}

const BlockType dir_rec_type = {
    .name = "dir_rec",
    .doc = "range-coalesced coherence directory (SPEC 3.1 REC)",
    .params = dir_rec_params,
    .nparams = sizeof dir_rec_params / sizeof dir_rec_params[0],
    .realize = dir_rec_realize,
    DIR_BLOCK_TYPE_COMMON,
};
