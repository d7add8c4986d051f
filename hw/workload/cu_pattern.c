/* Synthetic address streams of the cu block (see cu_pattern.h for the rules). */
#include "hw/workload/cu_pattern.h"

#include <inttypes.h>

bool cu_geometry_check(uint64_t line, uint64_t size, uint64_t mem_bytes,
                       uint64_t footprint, SimError *err)
{
    if (line == 0 || size == 0 || line % size != 0) {
        return sim_error_set(err, "size %" PRIu64 " does not divide line %" PRIu64, size,
                             line);
    }
    if (mem_bytes % line != 0) {
        return sim_error_set(err, "line %" PRIu64 " does not divide mem_bytes %" PRIu64,
                             line, mem_bytes);
    }
    if (footprint == 0 || footprint % line != 0 || footprint > mem_bytes) {
        return sim_error_set(err,
                             "footprint %" PRIu64 " must be a non-zero multiple of line "
                             "%" PRIu64 " and at most mem_bytes %" PRIu64,
                             footprint, line, mem_bytes);
    }
    return true;
}

bool cu_pattern_init(CuPattern *p, const CuPatternCfg *cfg, SimError *err)
{
    const CuPatternCfg *c = cfg;
    p->c = *cfg;
    if (!cu_geometry_check(c->line, c->size, c->mem_bytes, c->footprint, err)) {
        return false;
    }
    if ((c->kind == CU_PAT_STRIDED || c->kind == CU_PAT_SCATTER) &&
        (c->stride == 0 || c->stride % c->size != 0)) {
        return sim_error_set(err,
                             "stride %" PRIu64 " must be a non-zero multiple of size "
                             "%" PRIu64,
                             c->stride, c->size);
    }
    if ((c->kind == CU_PAT_TILED || c->kind == CU_PAT_SCATTER) && c->reuse == 0) {
        return sim_error_set(err, "reuse must be at least 1");
    }
    switch (c->target) {
    case CU_TARGET_ALL:
        p->ntargets = c->gpus;
        break;
    case CU_TARGET_LOCAL:
        p->ntargets = 1;
        break;
    default:
        if (c->gpus < 2) {
            return sim_error_set(err, "target remote needs at least 2 GPUs");
        }
        p->ntargets = c->gpus - 1;
        break;
    }
    p->lines_per_gpu = c->footprint / c->line;
    if (c->owned) {
        if (c->owners == 0 || c->owner >= c->owners) {
            return sim_error_set(err, "owner %" PRIu64 " out of %" PRIu64 " owners",
                                 c->owner, c->owners);
        }
        p->lines_per_gpu /= c->owners;
        if (p->lines_per_gpu == 0) {
            return sim_error_set(err,
                                 "footprint %" PRIu64 " holds no line owned by this cu "
                                 "(needs at least line * gpus * cus = %" PRIu64 " bytes)",
                                 c->footprint, c->line * c->owners);
        }
    }
    p->space = (uint64_t)p->ntargets * p->lines_per_gpu * c->line;
    if (c->kind == CU_PAT_TILED &&
        (c->tile == 0 || c->tile % c->size != 0 || c->tile > p->space)) {
        return sim_error_set(err,
                             "tile %" PRIu64
                             " must be a non-zero multiple of size %" PRIu64
                             " and at most the used footprint %" PRIu64,
                             c->tile, c->size, p->space);
    }
    cu_pattern_restart(p);
    return true;
}

void cu_pattern_restart(CuPattern *p)
{
    p->i = 0;
    p->start = 0;
    p->pos = 0;
    p->pass = 0;
    p->tile_base = 0;
}

static uint32_t cu_pattern_gpu(const CuPattern *p, uint64_t t)
{
    switch (p->c.target) {
    case CU_TARGET_ALL:
        return (uint32_t)t;
    case CU_TARGET_LOCAL:
        return p->c.gpu;
    default:
        return t < p->c.gpu ? (uint32_t)t : (uint32_t)t + 1;
    }
}

uint64_t cu_pattern_map(const CuPattern *p, uint64_t v)
{
    const CuPatternCfg *c = &p->c;
    uint64_t per_gpu = p->lines_per_gpu * c->line;
    uint64_t h = cu_pattern_gpu(p, v / per_gpu);
    uint64_t r = v % per_gpu;
    uint64_t j = r / c->line;
    uint64_t base_line = h * (c->mem_bytes / c->line);
    uint64_t line = base_line + j;
    if (c->owned) {
        uint64_t first =
            base_line + (c->owner + c->owners - base_line % c->owners) % c->owners;
        line = first + j * c->owners;
    }
    return line * c->line + r % c->line;
}

/* Random size-aligned offset in [0, V). */
static uint64_t cu_pattern_random(const CuPattern *p, Rng *rng)
{
    return rng_below(rng, p->space / p->c.size) * p->c.size;
}

/* (v + step) mod V without overflow (v < V). */
static uint64_t cu_pattern_advance(const CuPattern *p, uint64_t v, uint64_t step)
{
    step %= p->space;
    return v >= p->space - step ? v - (p->space - step) : v + step;
}

uint64_t cu_pattern_next(CuPattern *p, Rng *rng)
{
    const CuPatternCfg *c = &p->c;
    uint64_t v = 0;
    switch (c->kind) {
    case CU_PAT_UNIFORM:
        v = cu_pattern_random(p, rng);
        break;
    case CU_PAT_STREAM:
    case CU_PAT_STRIDED: {
        if (p->i == 0) {
            p->start = cu_pattern_random(p, rng);
        }
        uint64_t step = c->kind == CU_PAT_STREAM ? c->size : c->stride;
        v = p->start;
        p->start = cu_pattern_advance(p, p->start, step);
        break;
    }
    case CU_PAT_TILED:
        if (p->pos == 0 && p->pass == 0) {
            p->tile_base = rng_below(rng, p->space / c->tile) * c->tile;
        }
        v = p->tile_base + p->pos;
        p->pos += c->size;
        if (p->pos == c->tile) {
            p->pos = 0;
            p->pass = (p->pass + 1) % c->reuse;
        }
        break;
    case CU_PAT_SCATTER:
        if (p->pos == 0) {
            p->start = cu_pattern_random(p, rng);
        }
        v = p->start;
        p->start = cu_pattern_advance(p, p->start, c->stride);
        p->pos = (p->pos + 1) % c->reuse;
        break;
    }
    p->i++;
    return cu_pattern_map(p, v);
}
