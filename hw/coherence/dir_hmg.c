/* dir_hmg: the HMG-style directory (one entry tracks 4 consecutive lines with one
 * sharer vector; a write to any of them invalidates all 4 at every sharer but the
 * writer).
 * The behaviour is in dir_block.c and dir_core.c (SPEC.md 3.1, REC paper 003);
 * this file holds the block type, its parameters and defaults.
 * Decisions: LRU replacement by default (SPEC names none for HMG); the
 * range is a parameter (default 256 B = 4 lines) so HMG can be compared at other
 * granularities. */
#include <stddef.h>

#include "hw/coherence/dir_block.h"

static const ParamDef dir_hmg_params[] = {
    DIR_PARAM_ENTRIES,
    DIR_PARAM_WAYS("associativity; set index = base (addr >> log2(range)) mod "
                   "(entries / ways)"),
    DIR_PARAM_LINE,
    DIR_PARAM_RANGE("256", "bytes tracked per entry with one sharer vector "
                           "(HMG: 4 lines of 64 B)"),
    DIR_PARAM_REPLACEMENT("lru"),
    DIR_PARAM_LATENCY,
    DIR_PARAM_ACKS,
};

static bool dir_hmg_realize(Block *b, SimError *err)
{
    return dir_block_realize(b, true, err);
}

const BlockType dir_hmg_type = {
    .name = "dir_hmg",
    .doc = "coherence directory, one sharer vector per 4-line range (SPEC 3.1 HMG)",
    .params = dir_hmg_params,
    .nparams = sizeof dir_hmg_params / sizeof dir_hmg_params[0],
    .realize = dir_hmg_realize,
    DIR_BLOCK_TYPE_COMMON,
};
