/* dir_rec: the range-coalesced directory (REC): one entry tracks range bytes with a
 * position bit and N-1 sharer slots per line.
 * The behaviour is in dir_block.c and dir_core.c (SPEC.md 3.1, REC paper 003);
 * this file holds the block type, its parameters and defaults.
 * Decisions: none beyond dir_block.c. */
#include <stddef.h>

#include "hw/coherence/dir_block.h"

static const ParamDef dir_rec_params[] = {
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
     .def = "1KiB",
     .min = 128,
     .max = 4096,
     .doc = "bytes tracked per entry (power of two); base = addr >> log2(range)"},
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

static bool dir_rec_realize(Block *b, SimError *err)
{
    return dir_block_realize(b, false, err);
}

const BlockType dir_rec_type = {
    .name = "dir_rec",
    .doc = "range-coalesced coherence directory (SPEC 3.1 REC)",
    .size = sizeof(DirBlock),
    .params = dir_rec_params,
    .nparams = sizeof dir_rec_params / sizeof dir_rec_params[0],
    .ports = dir_block_ports,
    .nports = DIR_BLOCK_NPORTS,
    .realize = dir_rec_realize,
    .reset = dir_block_reset,
    .on_recv = dir_block_on_recv,
    .on_free = dir_block_on_free,
    .stats = dir_block_stats,
    .finalize = dir_block_finalize,
    .cost = dir_block_cost,
};
