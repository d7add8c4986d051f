/* CTAs to GPUs (SPEC.md 6.4): closed forms of both policies, in 128-bit arithmetic. */
#include "hw/core/cta_map.h"

#include <string.h>

__extension__ typedef unsigned __int128 CtaWide;

bool cta_map_init(CtaMap *m, CtaPolicy policy, const uint32_t grid[3], uint32_t ngpus,
                  SimError *err)
{
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) {
        return sim_error_set(err, "grid dim (%u,%u,%u) has a zero dimension", grid[0],
                             grid[1], grid[2]);
    }
    if (ngpus == 0) {
        return sim_error_set(err, "CTAs cannot be mapped to 0 GPUs");
    }
    m->policy = policy;
    memcpy(m->grid, grid, sizeof m->grid);
    m->total = (uint64_t)grid[0] * grid[1] * grid[2];
    m->ngpus = ngpus;
    return true;
}

bool cta_map_parse_policy(const char *name, CtaPolicy *policy, SimError *err)
{
    if (strcmp(name, "contiguous") == 0) {
        *policy = CTA_CONTIGUOUS;
        return true;
    }
    if (strcmp(name, "round_robin") == 0) {
        *policy = CTA_ROUND_ROBIN;
        return true;
    }
    return sim_error_set(err, "unknown CTA policy \"%s\" (contiguous, round_robin)",
                         name);
}

uint64_t cta_map_index(const CtaMap *m, uint32_t x, uint32_t y, uint32_t z)
{
    return x + (uint64_t)y * m->grid[0] + (uint64_t)z * m->grid[0] * m->grid[1];
}

uint32_t cta_map_gpu(const CtaMap *m, uint64_t i)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return (uint32_t)(i % m->ngpus);
    }
    return (uint32_t)((CtaWide)i * m->ngpus / m->total);
}

/* First index GPU g runs under contiguous: ceil(g T / N) (g may be N: the end). */
static uint64_t contiguous_first(const CtaMap *m, uint32_t g)
{
    return (uint64_t)(((CtaWide)g * m->total + m->ngpus - 1) / m->ngpus);
}

uint64_t cta_map_count(const CtaMap *m, uint32_t g)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return g < m->total ? (m->total - g + m->ngpus - 1) / m->ngpus : 0;
    }
    return contiguous_first(m, g + 1) - contiguous_first(m, g);
}

uint64_t cta_map_nth(const CtaMap *m, uint32_t g, uint64_t k)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return g + k * m->ngpus;
    }
    return contiguous_first(m, g) + k;
}

uint64_t cta_map_rank(const CtaMap *m, uint64_t i)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return i / m->ngpus;
    }
    return i - contiguous_first(m, cta_map_gpu(m, i));
}
