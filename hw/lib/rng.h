/* A small seeded pseudo-random generator (splitmix64) for blocks that draw (cu
 * patterns, IMST demotion).
 * Deterministic: the stream depends only on the seed. Seeds are derived from the
 * block's own seed parameter, the platform seed and the block's GPU and array index,
 * so two instances of one template draw different but reproducible streams. */
#ifndef MGTLM_HW_LIB_RNG_H
#define MGTLM_HW_LIB_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t state;
} Rng;

static inline uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform value in [0, n) for n >= 1 (multiply-high; the bias is below 2^-32 for the
 * ranges used here and is the same on every run). */
static inline uint64_t rng_below(Rng *r, uint64_t n)
{
    __extension__ typedef unsigned __int128 RngWide;
    return (uint64_t)(((RngWide)rng_next(r) * n) >> 64);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rng_unit(Rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Seeds r from a block seed, the platform seed, and the block's GPU and index
 * (each -1 when absent). Each value is folded in through one generator step. */
static inline void rng_seed(Rng *r, uint64_t seed, uint64_t plat_seed, int gpu, int index)
{
    r->state = seed;
    r->state = rng_next(r) ^ plat_seed;
    r->state = rng_next(r) ^ (uint64_t)(int64_t)gpu;
    r->state = rng_next(r) ^ (uint64_t)(int64_t)index;
    r->state = rng_next(r);
}

#endif
