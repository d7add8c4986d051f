/* CTAs to GPUs (SPEC.md 6.4): closed forms of every policy, in 128-bit arithmetic.
 * Contiguous and LADM's unit-based schedulers share one rule: contiguous over units of
 * `unit` CTAs (contiguous itself is units of one CTA). */
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
    m->ladm = CTA_LADM_KERNEL_WIDE;
    m->unit = 1;
    return true;
}

bool cta_map_init_ladm(CtaMap *m, CtaLadm ladm, uint64_t batch, const uint32_t grid[3],
                       uint32_t ngpus, SimError *err)
{
    if (ladm == CTA_LADM_ALIGN && batch == 0) {
        return sim_error_set(err, "LADM's align-aware batch must be at least 1 CTA");
    }
    if (!cta_map_init(m, CTA_LADM, grid, ngpus, err)) {
        return false;
    }
    m->ladm = ladm;
    m->unit = ladm == CTA_LADM_ALIGN ? batch : ladm == CTA_LADM_ROW ? grid[0] : 1;
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
    if (strcmp(name, "ladm") == 0) {
        *policy = CTA_LADM;
        return true;
    }
    return sim_error_set(err, "unknown CTA policy \"%s\" (contiguous, round_robin, ladm)",
                         name);
}

uint64_t cta_index(const uint32_t grid[3], uint32_t x, uint32_t y, uint32_t z)
{
    return x + (uint64_t)y * grid[0] + (uint64_t)z * grid[0] * grid[1];
}

uint64_t cta_map_index(const CtaMap *m, uint32_t x, uint32_t y, uint32_t z)
{
    return cta_index(m->grid, x, y, z);
}

static bool is_column(const CtaMap *m)
{
    return m->policy == CTA_LADM && m->ladm == CTA_LADM_COL;
}

/* Units of `unit` CTAs (the last one may be short). */
static uint64_t units(const CtaMap *m)
{
    return (m->total - 1) / m->unit + 1;
}

/* First unit GPU g runs: ceil(g nu / N) (g may be N: the end). */
static uint64_t first_unit(const CtaMap *m, uint32_t g)
{
    return (uint64_t)(((CtaWide)g * units(m) + m->ngpus - 1) / m->ngpus);
}

/* First CTA index GPU g runs, capped at T (g may be N: T). */
static uint64_t first_index(const CtaMap *m, uint32_t g)
{
    CtaWide i = (CtaWide)first_unit(m, g) * m->unit;
    return i < m->total ? (uint64_t)i : m->total;
}

/* First column GPU g runs under column-binding: ceil(g gx / N) (g may be N: gx). */
static uint64_t first_column(const CtaMap *m, uint32_t g)
{
    return ((uint64_t)g * m->grid[0] + m->ngpus - 1) / m->ngpus;
}

uint32_t cta_map_gpu(const CtaMap *m, uint64_t i)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return (uint32_t)(i % m->ngpus);
    }
    if (is_column(m)) {
        return (uint32_t)((uint64_t)(i % m->grid[0]) * m->ngpus / m->grid[0]);
    }
    return (uint32_t)((CtaWide)(i / m->unit) * m->ngpus / units(m));
}

uint64_t cta_map_count(const CtaMap *m, uint32_t g)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return g < m->total ? (m->total - g + m->ngpus - 1) / m->ngpus : 0;
    }
    if (is_column(m)) {
        uint64_t rows = m->total / m->grid[0];
        return (first_column(m, g + 1) - first_column(m, g)) * rows;
    }
    return first_index(m, g + 1) - first_index(m, g);
}

uint64_t cta_map_nth(const CtaMap *m, uint32_t g, uint64_t k)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return g + k * m->ngpus;
    }
    if (is_column(m)) {
        uint64_t c0 = first_column(m, g), width = first_column(m, g + 1) - c0;
        return (k / width) * m->grid[0] + c0 + k % width;
    }
    return first_index(m, g) + k;
}

uint64_t cta_map_rank(const CtaMap *m, uint64_t i)
{
    if (m->policy == CTA_ROUND_ROBIN) {
        return i / m->ngpus;
    }
    uint32_t g = cta_map_gpu(m, i);
    if (is_column(m)) {
        uint64_t c0 = first_column(m, g), width = first_column(m, g + 1) - c0;
        return (i / m->grid[0]) * width + i % m->grid[0] - c0;
    }
    return i - first_index(m, g);
}
