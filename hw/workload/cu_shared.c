/* The "shared" pattern of the cu block (see cu_shared.h for the rules). */
#include "hw/workload/cu_shared.h"

#include <inttypes.h>
#include <stdlib.h>

static double cu_shared_unit(uint64_t u)
{
    return (double)(u >> 11) * (1.0 / 9007199254740992.0);
}

/* The per-line hash both predicates start from. */
static uint64_t cu_shared_line_hash(uint64_t seed, uint64_t line)
{
    return fill_mix(fill_mix(seed) ^ line);
}

bool cu_shared_read_only(uint64_t seed, uint64_t line, double read_only_frac)
{
    return read_only_frac > 0.0 &&
           cu_shared_unit(fill_mix(cu_shared_line_hash(seed, line) ^ CU_SHARED_RO_SALT)) <
               read_only_frac;
}

bool cu_shared_written(uint64_t seed, uint64_t line, uint32_t k, double write_frac,
                       double read_only_frac)
{
    if (write_frac <= 0.0 || cu_shared_read_only(seed, line, read_only_frac)) {
        return false;
    }
    uint64_t h = cu_shared_line_hash(seed, line);
    return cu_shared_unit(fill_mix(h ^ ((uint64_t)k + 1))) < write_frac;
}

uint8_t cu_value(uint64_t addr, uint32_t k)
{
    return (uint8_t)fill_mix(addr ^ fill_mix((uint64_t)k + 1));
}

static bool cu_shared_is_written(const CuShared *s, uint64_t n, uint32_t k)
{
    return cu_shared_written(s->c.seed, n, k, s->c.write_frac, s->c.read_only_frac);
}

/* First line number of GPU h's region. */
static uint64_t cu_shared_base(const CuShared *s, uint32_t h)
{
    return (uint64_t)h * (s->c.mem_bytes / s->c.line);
}

/* Offset of the first line of GPU h's region owned by this cu. */
static uint64_t cu_shared_first_owned(const CuShared *s, uint32_t h)
{
    uint64_t base = cu_shared_base(s, h);
    return (s->c.owner + s->c.owners - base % s->c.owners) % s->c.owners;
}

/* Advances the write cursor to the next owned line written in kernel k (the cursor
 * then names it); false when there is none left. */
static bool cu_shared_seek(CuShared *s, uint32_t k)
{
    while (s->wgpu < s->c.gpus) {
        uint64_t base = cu_shared_base(s, s->wgpu);
        for (; s->wj < s->lines_per_gpu; s->wj += s->c.owners) {
            if (cu_shared_is_written(s, base + s->wj, k)) {
                return true;
            }
        }
        s->wgpu++;
        if (s->wgpu < s->c.gpus) {
            s->wj = cu_shared_first_owned(s, s->wgpu);
        }
    }
    return false;
}

static void cu_shared_rewind(CuShared *s)
{
    s->wgpu = 0;
    s->wj = cu_shared_first_owned(s, 0);
}

bool cu_shared_init(CuShared *s, const CuSharedCfg *cfg, SimError *err)
{
    const CuSharedCfg *c = cfg;
    *s = (CuShared){.c = *cfg};
    if (!cu_geometry_check(c->line, c->size, c->mem_bytes, c->footprint, err)) {
        return false;
    }
    if (c->owners == 0 || c->owner >= c->owners) {
        return sim_error_set(err, "owner %" PRIu64 " out of %" PRIu64 " owners", c->owner,
                             c->owners);
    }
    if (c->target == CU_TARGET_REMOTE && c->gpus < 2) {
        return sim_error_set(err, "target remote needs at least 2 GPUs");
    }
    if (c->kernels == 0) {
        return sim_error_set(err, "kernels must be at least 1");
    }
    s->lines_per_gpu = c->footprint / c->line;
    s->ntargets = c->target == CU_TARGET_ALL     ? c->gpus
                  : c->target == CU_TARGET_LOCAL ? 1
                                                 : c->gpus - 1;
    s->writes = calloc(c->kernels, sizeof *s->writes);
    if (!s->writes) {
        return sim_error_set(err, "out of memory");
    }
    for (uint32_t k = 0; k < c->kernels; k++) {
        cu_shared_rewind(s);
        while (cu_shared_seek(s, k)) {
            s->writes[k]++;
            s->wj += c->owners;
        }
        if (s->writes[k] > c->count) {
            uint64_t w = s->writes[k];
            cu_shared_free(s);
            return sim_error_set(err,
                                 "kernel %" PRIu32 " writes %" PRIu64
                                 " owned lines, more "
                                 "than count %" PRIu64 " (raise count or lower footprint "
                                 "or write_frac)",
                                 k, w, c->count);
        }
    }
    cu_shared_begin(s, 0);
    return true;
}

void cu_shared_free(CuShared *s)
{
    free(s->writes);
    s->writes = NULL;
}

void cu_shared_begin(CuShared *s, uint32_t k)
{
    s->k = k;
    s->wleft = s->writes[k];
    s->rleft = s->c.count - s->writes[k];
    cu_shared_rewind(s);
}

static uint32_t cu_shared_target_gpu(const CuShared *s, uint64_t t)
{
    switch (s->c.target) {
    case CU_TARGET_ALL:
        return (uint32_t)t;
    case CU_TARGET_LOCAL:
        return s->c.gpu;
    default:
        return t < s->c.gpu ? (uint32_t)t : (uint32_t)t + 1;
    }
}

/* A line of the target region not written in the current kernel, from a uniform
 * start; false if there is none. */
static bool cu_shared_read_line(CuShared *s, Rng *rng, uint64_t *line)
{
    uint64_t total = (uint64_t)s->ntargets * s->lines_per_gpu;
    uint64_t v = rng_below(rng, total);
    for (uint64_t i = 0; i < total; i++) {
        uint64_t n = cu_shared_base(s, cu_shared_target_gpu(s, v / s->lines_per_gpu)) +
                     v % s->lines_per_gpu;
        if (!cu_shared_is_written(s, n, s->k)) {
            *line = n;
            return true;
        }
        v = v + 1 == total ? 0 : v + 1;
    }
    return false;
}

bool cu_shared_next(CuShared *s, Rng *rng, uint64_t *addr, uint32_t *len, bool *write)
{
    while (s->wleft + s->rleft > 0) {
        if (rng_below(rng, s->wleft + s->rleft) < s->wleft) {
            cu_shared_seek(s, s->k);
            *addr = (cu_shared_base(s, s->wgpu) + s->wj) * s->c.line;
            *len = (uint32_t)s->c.line;
            *write = true;
            s->wj += s->c.owners;
            s->wleft--;
            return true;
        }
        uint64_t n;
        if (!cu_shared_read_line(s, rng, &n)) {
            s->skipped += s->rleft;
            s->rleft = 0;
            continue;
        }
        uint64_t off = rng_below(rng, s->c.line / s->c.size) * s->c.size;
        *addr = n * s->c.line + off;
        *len = (uint32_t)s->c.size;
        *write = false;
        s->rleft--;
        return true;
    }
    return false;
}

void cu_shared_expect(const CuShared *s, uint32_t k, uint64_t addr, uint8_t *out,
                      size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint64_t n = (addr + i) / s->c.line;
        uint64_t end = (n + 1) * s->c.line;
        uint32_t kk = k;
        while (kk > 0 && !cu_shared_is_written(s, n, kk - 1)) {
            kk--;
        }
        for (; i < len && addr + i < end; i++) {
            out[i] = kk > 0 ? cu_value(addr + i, kk - 1) : fill_byte(s->c.fill, addr + i);
        }
    }
}
