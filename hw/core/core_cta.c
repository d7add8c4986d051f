/* The cta message and an SM's CTA (core_cta.h): interning a thread block's
 * instructions, the little-endian encoding and its checked decoding. */
#include "hw/core/core_cta.h"

#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_op.h"
#include "hw/core/core_le.h"
#include "kernel/bits.h"
#include "kernel/xalloc.h"

#define CORE_CTA_HEAD 20
#define CORE_WARP_HEAD 16

static bool core_inst_sends(const AtsInst *in)
{
    return in->width > 0 && ats_class_leaves_sm(in->cls);
}

void core_cta_plan_init(CoreCtaPlan *p)
{
    memset(p, 0, sizeof *p);
}

void core_cta_plan_free(CoreCtaPlan *p)
{
    free(p->table);
    free(p->idx);
    free(p->naddrs);
    core_cta_plan_init(p);
}

/* Writes in at p with the width and address offset given (the message's own). */
static void core_inst_encode(const AtsInst *in, uint32_t width, uint32_t addr_off,
                             uint8_t *p)
{
    le_put64(p, in->pc);
    le_put32(p + 8, in->mask);
    le_put32(p + 12, in->line);
    le_put32(p + 16, width);
    le_put32(p + 20, addr_off);
    p[24] = (uint8_t)in->cls;
    p[25] = in->ndst;
    p[26] = in->nsrc;
    p[27] = 0;
    memcpy(p + 28, in->dst, ATS_MAX_REGS);
    memcpy(p + 36, in->src, ATS_MAX_REGS);
    memset(p + 44, 0, 4);
}

_Static_assert(CORE_INST_BYTES % 8 == 0, "plan_same compares whole words");

/* Whether the encoded instructions a and b are the same: six word compares where a
 * memcmp of CORE_INST_BYTES stayed a call into libc (24 instructions a line of a
 * gpu4 GEMM's scan). */
static bool plan_same(const uint8_t *a, const uint8_t *b)
{
    uint64_t diff = 0;
    for (size_t i = 0; i < CORE_INST_BYTES; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        diff |= x ^ y;
    }
    return diff == 0;
}

/* The table entry of the encoded instruction e (of PC pc): an equal one the memo
 * knows, else a new one. */
static uint32_t plan_entry(CoreCtaPlan *p, uint64_t pc, const uint8_t *e)
{
    size_t slot = (size_t)((pc * 0x9e3779b97f4a7c15ull) >> 54) % CORE_CTA_MEMO;
    if (p->memo[slot].gen == p->gen && p->memo[slot].pc == pc &&
        plan_same(p->table + CORE_INST_BYTES * (size_t)p->memo[slot].entry, e)) {
        return p->memo[slot].entry;
    }
    p->table = xgrow(p->table, &p->table_cap, CORE_INST_BYTES * (p->ntable + 1), 1,
                     64 * CORE_INST_BYTES);
    memcpy(p->table + CORE_INST_BYTES * p->ntable, e, CORE_INST_BYTES);
    uint32_t entry = (uint32_t)p->ntable++;
    p->memo[slot].pc = pc;
    p->memo[slot].entry = entry;
    p->memo[slot].gen = p->gen;
    return entry;
}

size_t core_cta_plan(CoreCtaPlan *p, const AtsCta *cta)
{
    if (++p->gen == 0) { /* wrapped: every slot is from an older generation */
        memset(p->memo, 0, sizeof p->memo);
        p->gen = 1;
    }
    p->ntable = 0;
    size_t ninst = 0;
    for (size_t w = 0; w < cta->nwarps; w++) {
        ninst += cta->warps[w].ninst;
    }
    p->idx = xgrow(p->idx, &p->idx_cap, ninst, sizeof *p->idx, 64);
    p->naddrs = xgrow(p->naddrs, &p->naddrs_cap, cta->nwarps, sizeof *p->naddrs, 8);
    size_t bytes = CORE_CTA_HEAD + CORE_WARP_HEAD * cta->nwarps + 4 * ninst;
    uint32_t *idx = p->idx;
    uint8_t e[CORE_INST_BYTES];
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *wp = &cta->warps[w];
        uint32_t naddrs = 0;
        for (size_t i = 0; i < wp->ninst; i++) {
            const AtsInst *in = &wp->inst[i];
            if (core_inst_sends(in)) {
                core_inst_encode(in, in->width, naddrs, e);
                naddrs += (uint32_t)bits_popcount32(in->mask);
            } else {
                core_inst_encode(in, 0, 0, e);
            }
            *idx++ = plan_entry(p, in->pc, e);
        }
        p->naddrs[w] = naddrs;
        bytes += 8 * (size_t)naddrs;
    }
    p->bytes = bytes + CORE_INST_BYTES * p->ntable;
    return p->bytes;
}

void core_cta_encode(const CoreCtaPlan *p, const AtsCta *cta, uint8_t *out)
{
    le_put32(out, cta->x);
    le_put32(out + 4, cta->y);
    le_put32(out + 8, cta->z);
    le_put32(out + 12, (uint32_t)cta->nwarps);
    le_put32(out + 16, (uint32_t)p->ntable);
    uint8_t *o = out + CORE_CTA_HEAD;
    for (size_t w = 0; w < cta->nwarps; w++, o += CORE_WARP_HEAD) {
        le_put64(o, cta->warps[w].ninst);
        le_put64(o + 8, p->naddrs[w]);
    }
    if (p->ntable > 0) { /* no table before the first instruction */
        memcpy(o, p->table, CORE_INST_BYTES * p->ntable);
        o += CORE_INST_BYTES * p->ntable;
    }
    const uint32_t *idx = p->idx;
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *wp = &cta->warps[w];
        le_put32s(o, idx, wp->ninst);
        idx += wp->ninst;
        o += 4 * wp->ninst;
        for (size_t i = 0; i < wp->ninst; i++) {
            const AtsInst *in = &wp->inst[i];
            if (core_inst_sends(in)) {
                size_t lanes = (size_t)bits_popcount32(in->mask);
                le_put64s(o, wp->addrs + in->addr_off, lanes);
                o += 8 * lanes;
            }
        }
    }
}

/* Reads the instruction at p into *in (not zeroed before: its padding is cleared
 * here, while the line is being written anyway); false if malformed. */
static bool core_inst_decode(const uint8_t *p, AtsInst *in)
{
    memset(in, 0, sizeof *in);
    in->pc = le_get64(p);
    in->mask = le_get32(p + 8);
    in->line = le_get32(p + 12);
    in->width = le_get32(p + 16);
    in->addr_off = le_get32(p + 20);
    in->ndst = p[25];
    in->nsrc = p[26];
    if (p[24] >= ATS_CLASS_COUNT || in->ndst > ATS_MAX_REGS || in->nsrc > ATS_MAX_REGS) {
        return false;
    }
    in->cls = (AtsClass)p[24];
    memcpy(in->dst, p + 28, ATS_MAX_REGS);
    memcpy(in->src, p + 36, ATS_MAX_REGS);
    return true;
}

/* The sizes of the encoding at data[len] add up: sets *ninst and *naddrs to the
 * totals of its warps. */
static bool core_cta_sizes(const uint8_t *data, size_t len, size_t *ninst, size_t *naddrs,
                           SimError *err)
{
    uint64_t nwarps = le_get32(data + 12), ntable = le_get32(data + 16);
    if (nwarps > (len - CORE_CTA_HEAD) / CORE_WARP_HEAD) {
        return sim_error_set(err, "cta: %llu warps do not fit %zu bytes",
                             (unsigned long long)nwarps, len);
    }
    size_t need = CORE_CTA_HEAD + CORE_WARP_HEAD * nwarps;
    if (ntable > (len - need) / CORE_INST_BYTES) {
        return sim_error_set(err, "cta: %llu instructions do not fit %zu bytes",
                             (unsigned long long)ntable, len);
    }
    need += CORE_INST_BYTES * ntable;
    *ninst = *naddrs = 0;
    for (uint64_t w = 0; w < nwarps; w++) {
        const uint8_t *h = data + CORE_CTA_HEAD + CORE_WARP_HEAD * w;
        uint64_t ni = le_get64(h), na = le_get64(h + 8);
        if (ni > len / 4 || na > len / 8 || 4 * ni + 8 * na > len - need) {
            return sim_error_set(err, "cta: warp %llu does not fit %zu bytes",
                                 (unsigned long long)w, len);
        }
        need += 4 * ni + 8 * na;
        *ninst += ni;
        *naddrs += na;
    }
    if (need != len) {
        return sim_error_set(err, "cta: %zu data bytes, the warps take %zu", len, need);
    }
    return true;
}

/* Reads warp w's indices at p into idx, each checked against the table and, for an
 * access, against the warp's addresses. */
static bool core_warp_decode(const uint8_t *p, CoreWarp *w, uint32_t *idx,
                             const AtsInst *table, size_t ntable)
{
    for (size_t i = 0; i < w->ninst; i++) {
        uint32_t k = le_get32(p + 4 * i);
        if (k >= ntable) {
            return false;
        }
        const AtsInst *in = &table[k];
        uint64_t lanes = (uint64_t)bits_popcount32(in->mask);
        if (in->width > 0 && (uint64_t)in->addr_off + lanes > w->naddrs) {
            return false;
        }
        idx[i] = k;
    }
    return true;
}

bool core_cta_decode(const uint8_t *data, size_t len, CoreCta *cta, SimError *err)
{
    if (!data || len < CORE_CTA_HEAD) {
        return sim_error_set(err, "cta: %zu data bytes, too short", data ? len : 0);
    }
    size_t ninst = 0, naddrs = 0;
    if (!core_cta_sizes(data, len, &ninst, &naddrs, err)) {
        return false;
    }
    CoreCta c = {.x = le_get32(data),
                 .y = le_get32(data + 4),
                 .z = le_get32(data + 8),
                 .nwarps = le_get32(data + 12),
                 .ntable = le_get32(data + 16)};
    size_t head = sizeof(CoreWarp) * c.nwarps, tab = sizeof(AtsInst) * c.ntable;
    uint8_t *mem = xmalloc(head + tab + 8 * naddrs + 4 * ninst + 1);
    c.mem = mem;
    c.warps = (CoreWarp *)mem;
    AtsInst *table = (AtsInst *)(mem + head);
    uint64_t *addrs = (uint64_t *)(mem + head + tab);
    uint32_t *idx = (uint32_t *)(mem + head + tab + 8 * naddrs);
    c.table = table;
    const uint8_t *p = data + CORE_CTA_HEAD + CORE_WARP_HEAD * c.nwarps;
    for (size_t k = 0; k < c.ntable; k++, p += CORE_INST_BYTES) {
        if (!core_inst_decode(p, &table[k])) {
            free(mem);
            return sim_error_set(err, "cta: instruction %zu is malformed", k);
        }
    }
    for (size_t w = 0; w < c.nwarps; w++) {
        const uint8_t *h = data + CORE_CTA_HEAD + CORE_WARP_HEAD * w;
        CoreWarp *wp = &c.warps[w];
        *wp = (CoreWarp){.table = table,
                         .idx = idx,
                         .ninst = le_get64(h),
                         .addrs = addrs,
                         .naddrs = le_get64(h + 8)};
        if (!core_warp_decode(p, wp, idx, table, c.ntable)) {
            free(mem);
            return sim_error_set(err, "cta: warp %zu has a malformed instruction", w);
        }
        p += 4 * wp->ninst;
        idx += wp->ninst;
        le_get64s(addrs, p, wp->naddrs);
        p += 8 * wp->naddrs;
        addrs += wp->naddrs;
    }
    *cta = c;
    return true;
}

void core_cta_free(CoreCta *cta)
{
    free(cta->mem);
    memset(cta, 0, sizeof *cta);
}

uint8_t *core_cta_message(const AtsCta *cta, size_t *len)
{
    CoreCtaPlan *p = xmalloc(sizeof *p);
    core_cta_plan_init(p);
    *len = core_cta_plan(p, cta);
    uint8_t *buf = xmalloc(*len);
    core_cta_encode(p, cta, buf);
    core_cta_plan_free(p);
    free(p);
    return buf;
}

void core_cta_from(const AtsCta *cta, CoreCta *out)
{
    size_t n;
    uint8_t *buf = core_cta_message(cta, &n);
    bool ok = core_cta_decode(buf, n, out, NULL);
    free(buf);
    if (!ok) {
        abort(); /* an encoding of a CTA decodes */
    }
}
