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
    {.key = "entries",
     .offset = offsetof(DirBlock, entries),
     .type = PT_U64,
     .def = "8192",
     .min = 1,
     .max = 1048576,
     .doc = "directory entries (a multiple of ways)"},
    {.key = "ways",
     .offset = offsetof(DirBlock, ways),
     .type = PT_U64,
     .def = "8",
     .min = 1,
     .max = 1024,
     .doc = "associativity; set index = base (addr >> log2(range)) mod (entries / ways)"},
    {.key = "line",
     .offset = offsetof(DirBlock, line),
     .type = PT_SIZE,
     .def = "64",
     .min = 4,
     .max = 4096,
     .doc = "coherence line size in bytes (power of two)"},
    {.key = "range",
     .offset = offsetof(DirBlock, range),
     .type = PT_SIZE,
     .def = "256",
     .min = 128,
     .max = 4096,
     .doc = "bytes tracked per entry with one sharer vector (HMG: 4 lines of 64 B)"},
    {.key = "replacement",
     .offset = offsetof(DirBlock, repl),
     .type = PT_ENUM,
     .def = "lru",
     .choices = dir_block_repl_choices,
     .doc = "victim choice in a full set: lru (least recently used) or fifo (oldest)"},
    {.key = "latency",
     .offset = offsetof(DirBlock, latency),
     .type = PT_TIME,
     .def = "0ns",
     .doc = "lookup latency added to tracked requests and to invalidates"},
};

static bool dir_hmg_realize(Block *b, SimError *err)
{
    return dir_block_realize(b, true, err);
}

const BlockType dir_hmg_type = {
    .name = "dir_hmg",
    .doc = "coherence directory, one sharer vector per 4-line range (SPEC 3.1 HMG)",
    .size = sizeof(DirBlock),
    .params = dir_hmg_params,
    .nparams = sizeof dir_hmg_params / sizeof dir_hmg_params[0],
    .ports = dir_block_ports,
    .nports = DIR_BLOCK_NPORTS,
    .realize = dir_hmg_realize,
    .reset = dir_block_reset,
    .on_recv = dir_block_on_recv,
    .on_free = dir_block_on_free,
    .stats = dir_block_stats,
    .finalize = dir_block_finalize,
    .cost = dir_block_cost,
};
