/* The bytes an executing GPU writes (SPEC.md 6, docs/cores.md "Data check"): a trace
 * records addresses, never values, so an sm writes the byte core_value(vaddr, k) at
 * virtual address vaddr in kernel k (launch index, 0-based). The value depends on the
 * address and the kernel only, so every writer of a byte in one kernel writes the same
 * value and a reader can tell which kernel's write it sees (trace_scan.h). A pure
 * function shared by the sm (writer and checker); tools/ref computes it independently. */
#ifndef MGTLM_HW_CORE_CORE_VALUE_H
#define MGTLM_HW_CORE_CORE_VALUE_H

#include <stdint.h>

#include "kernel/bits.h"

/* The low byte of the 64-bit mix of vaddr xor (kernel + 1) x 0x9e3779b97f4a7c15. */
static inline uint8_t core_value(uint64_t vaddr, uint32_t kernel)
{
    return (uint8_t)bits_mix64(vaddr ^ ((uint64_t)kernel + 1) * 0x9e3779b97f4a7c15ull);
}

#endif
