/* SCBU registers (paper 000 section 4.1, SPEC.md 1.2): a request whose address is
 * below `start` or at/above `end` is remote. The l1 block bypasses the cache for such
 * requests when the declared mode enables bypassing. */
#include "hw/dualopt/scbu.h"

Scbu scbu_make(uint32_t gpu, uint64_t mem_bytes)
{
    return (Scbu){.start = (uint64_t)gpu * mem_bytes,
                  .end = (uint64_t)gpu * mem_bytes + mem_bytes};
}

bool scbu_is_remote(const Scbu *s, uint64_t addr)
{
    return addr < s->start || addr >= s->end;
}
