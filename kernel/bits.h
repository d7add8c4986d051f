/* Integer bit arithmetic shared by the kernel and the blocks: the one power-of-two
 * test, the one base-2 logarithm (rounded up, as sizes of index and tag fields need),
 * the one count of set bits and the one 64-bit mixer of integer hash tables. Pure
 * functions, no state.
 *
 * The counts of set bits are written out: the build targets x86-64 without POPCNT,
 * where __builtin_popcount is a call into libgcc (1 % of a GEMM trace run's
 * instructions went to __popcountdi2, docs/performance.md). */
#ifndef MGTLM_BITS_H
#define MGTLM_BITS_H

#include <stdbool.h>
#include <stdint.h>

/* True if v is a power of two (1, 2, 4, ...); false for 0. */
static inline bool bits_is_pow2(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* The smallest k with 2^k >= v: 0 for v <= 1, log2(v) for a power of two, 64 for
 * v > 2^63. */
static inline unsigned bits_log2_ceil(uint64_t v)
{
    return v <= 1 ? 0 : 64 - (unsigned)__builtin_clzll(v - 1);
}

/* The number of set bits of v. */
static inline unsigned bits_popcount32(uint32_t v)
{
    v = v - (v >> 1 & 0x55555555u);
    v = (v & 0x33333333u) + (v >> 2 & 0x33333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0fu;
    return (v * 0x01010101u) >> 24;
}

static inline unsigned bits_popcount64(uint64_t v)
{
    return bits_popcount32((uint32_t)v) + bits_popcount32((uint32_t)(v >> 32));
}

/* The splitmix64 finaliser: a fixed bijective 64-bit mix, so hash tables keyed by
 * integers spread any key pattern and never depend on pointer values. */
static inline uint64_t bits_mix64(uint64_t a)
{
    a ^= a >> 30;
    a *= 0xbf58476d1ce4e5b9ULL;
    a ^= a >> 27;
    a *= 0x94d049bb133111ebULL;
    a ^= a >> 31;
    return a;
}

#endif
