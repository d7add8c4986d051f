/* The control messages of the executing GPU (core_msg.h): the declared commands and
 * the little-endian encodings of a launch and of a CTA. */
#include "hw/core/core_msg.h"

#include <string.h>

#include "hw/core/accelsim_read.h"
#include "kernel/xalloc.h"

const TxnCmdDecl core_cmd_launch = {
    .name = "launch",
    .doc = "cores: start kernel addr (host -> dispatcher, answered when the GPU's share "
           "is over; dispatcher -> sm with the kernel in data, answered with ctas)",
};
const TxnCmdDecl core_cmd_cta = {
    .name = "cta",
    .doc =
        "cores: run CTA addr (data = the CTA), dispatcher -> sm, answered when it ends",
};
const TxnCmdDecl core_cmd_finish = {
    .name = "finish",
    .doc = "cores: the GPU's share of kernel addr is over, dispatcher -> sm; answered "
           "after the sm's release and kernel_end",
};
const TxnCmdDecl core_cmd_xlat = {
    .name = "xlat",
    .doc =
        "cores: translate the virtual page addr (space 1 = local), sm -> dispatcher -> "
        "host; answered with paddr",
};

/* Little-endian fields: a plain copy on a little-endian host, bytes otherwise. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CORE_MSG_LE 1
#else
#define CORE_MSG_LE 0
#endif

static void put32(uint8_t *p, uint32_t v)
{
    if (CORE_MSG_LE) {
        memcpy(p, &v, 4);
        return;
    }
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static void put64(uint8_t *p, uint64_t v)
{
    if (CORE_MSG_LE) {
        memcpy(p, &v, 8);
        return;
    }
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    if (CORE_MSG_LE) {
        memcpy(&v, p, 4);
        return v;
    }
    for (int i = 3; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    if (CORE_MSG_LE) {
        memcpy(&v, p, 8);
        return v;
    }
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

/* n addresses to p, from p (little-endian u64 each). */
static void put_addrs(uint8_t *p, const uint64_t *a, size_t n)
{
    if (CORE_MSG_LE && n > 0) {
        memcpy(p, a, 8 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        put64(p + 8 * i, a[i]);
    }
}

static void get_addrs(uint64_t *a, const uint8_t *p, size_t n)
{
    if (CORE_MSG_LE && n > 0) {
        memcpy(a, p, 8 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = get64(p + 8 * i);
    }
}

void core_launch_encode(const CoreLaunch *l, uint8_t *out)
{
    const uint32_t w[] = {l->kernel,   l->grid[0],  l->grid[1], l->grid[2], l->block[0],
                          l->block[1], l->block[2], l->nregs,   l->shmem,   l->hint};
    for (size_t i = 0; i < 10; i++) {
        put32(out + 4 * i, w[i]);
    }
    put64(out + 40, l->shmem_base);
    put64(out + 48, l->local_base);
}

bool core_launch_decode(const uint8_t *data, size_t len, CoreLaunch *l, SimError *err)
{
    if (!data || len != CORE_LAUNCH_BYTES) {
        return sim_error_set(err, "launch: %zu data bytes, expected %d", data ? len : 0,
                             CORE_LAUNCH_BYTES);
    }
    uint32_t *const w[] = {&l->kernel,   &l->grid[0],  &l->grid[1],  &l->grid[2],
                           &l->block[0], &l->block[1], &l->block[2], &l->nregs,
                           &l->shmem,    &l->hint};
    for (size_t i = 0; i < 10; i++) {
        *w[i] = get32(data + 4 * i);
    }
    l->shmem_base = get64(data + 40);
    l->local_base = get64(data + 48);
    return true;
}

#define CORE_CTA_HEAD 16
#define CORE_WARP_HEAD 16

bool core_cta_sends(AtsClass cls)
{
    return cls == ATS_LDG || cls == ATS_STG || cls == ATS_ATOMG || cls == ATS_RED ||
           cls == ATS_LDL || cls == ATS_STL;
}

/* The addresses of wp that its message carries: those of its accesses that leave the
 * SM (core_cta_sends). */
static size_t core_warp_addrs(const AtsWarp *wp)
{
    size_t n = 0;
    for (size_t i = 0; i < wp->ninst; i++) {
        const AtsInst *in = &wp->inst[i];
        if (in->width > 0 && core_cta_sends(in->cls)) {
            n += (size_t)__builtin_popcount(in->mask);
        }
    }
    return n;
}

size_t core_cta_size(const AtsCta *cta)
{
    size_t n = CORE_CTA_HEAD + CORE_WARP_HEAD * cta->nwarps;
    for (size_t w = 0; w < cta->nwarps; w++) {
        n += CORE_INST_BYTES * cta->warps[w].ninst + 8 * core_warp_addrs(&cta->warps[w]);
    }
    return n;
}

/* Writes in at p with the width and address offset given (the message's own). */
static uint8_t *core_inst_encode(const AtsInst *in, uint32_t width, uint32_t addr_off,
                                 uint8_t *p)
{
    put64(p, in->pc);
    put32(p + 8, in->mask);
    put32(p + 12, in->line);
    put32(p + 16, width);
    put32(p + 20, addr_off);
    p[24] = (uint8_t)in->cls;
    p[25] = in->ndst;
    p[26] = in->nsrc;
    p[27] = 0;
    memcpy(p + 28, in->dst, ATS_MAX_REGS);
    memcpy(p + 36, in->src, ATS_MAX_REGS);
    memset(p + 44, 0, 4);
    return p + CORE_INST_BYTES;
}

void core_cta_encode(const AtsCta *cta, uint8_t *out)
{
    put32(out, cta->x);
    put32(out + 4, cta->y);
    put32(out + 8, cta->z);
    put32(out + 12, (uint32_t)cta->nwarps);
    uint8_t *p = out + CORE_CTA_HEAD;
    for (size_t w = 0; w < cta->nwarps; w++, p += CORE_WARP_HEAD) {
        put64(p, cta->warps[w].ninst);
        put64(p + 8, core_warp_addrs(&cta->warps[w]));
    }
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *wp = &cta->warps[w];
        uint8_t *a = p + CORE_INST_BYTES * wp->ninst; /* the warp's addresses */
        uint32_t naddrs = 0;
        for (size_t i = 0; i < wp->ninst; i++) {
            const AtsInst *in = &wp->inst[i];
            if (in->width > 0 && core_cta_sends(in->cls)) {
                uint32_t lanes = (uint32_t)__builtin_popcount(in->mask);
                p = core_inst_encode(in, in->width, naddrs, p);
                put_addrs(a + 8 * (size_t)naddrs, wp->addrs + in->addr_off, lanes);
                naddrs += lanes;
            } else {
                p = core_inst_encode(in, 0, 0, p);
            }
        }
        p = a + 8 * (size_t)naddrs;
    }
}

/* Reads one instruction at p of a warp with naddrs addresses into *in (not zeroed
 * before: its padding is cleared here, while the line is being written anyway); false
 * if malformed. */
static bool core_inst_decode(const uint8_t *p, size_t naddrs, AtsInst *in)
{
    memset(in, 0, sizeof *in);
    in->pc = get64(p);
    in->mask = get32(p + 8);
    in->line = get32(p + 12);
    in->width = get32(p + 16);
    in->addr_off = get32(p + 20);
    in->ndst = p[25];
    in->nsrc = p[26];
    if (p[24] >= ATS_CLASS_COUNT || in->ndst > ATS_MAX_REGS || in->nsrc > ATS_MAX_REGS) {
        return false;
    }
    in->cls = (AtsClass)p[24];
    memcpy(in->dst, p + 28, ATS_MAX_REGS);
    memcpy(in->src, p + 36, ATS_MAX_REGS);
    uint64_t lanes = (uint64_t)__builtin_popcount(in->mask);
    return in->width == 0 || (uint64_t)in->addr_off + lanes <= naddrs;
}

bool core_cta_decode(const uint8_t *data, size_t len, AtsCta *cta, SimError *err)
{
    if (!data || len < CORE_CTA_HEAD) {
        return sim_error_set(err, "cta: %zu data bytes, too short", data ? len : 0);
    }
    AtsCta c = {.x = get32(data), .y = get32(data + 4), .z = get32(data + 8)};
    uint64_t nwarps = get32(data + 12);
    if (nwarps > (len - CORE_CTA_HEAD) / CORE_WARP_HEAD) {
        return sim_error_set(err, "cta: %llu warps do not fit %zu bytes",
                             (unsigned long long)nwarps, len);
    }
    size_t need = CORE_CTA_HEAD + CORE_WARP_HEAD * nwarps;
    for (uint64_t w = 0; w < nwarps; w++) {
        const uint8_t *h = data + CORE_CTA_HEAD + CORE_WARP_HEAD * w;
        uint64_t ni = get64(h), na = get64(h + 8);
        if (ni > len / CORE_INST_BYTES || na > len / 8 ||
            CORE_INST_BYTES * ni + 8 * na > len - need) {
            return sim_error_set(err, "cta: warp %llu does not fit %zu bytes",
                                 (unsigned long long)w, len);
        }
        need += CORE_INST_BYTES * ni + 8 * na;
    }
    if (need != len) {
        return sim_error_set(err, "cta: %zu data bytes, the warps take %zu", len, need);
    }
    c.nwarps = nwarps;
    c.warps = xcalloc(nwarps, sizeof *c.warps);
    const uint8_t *p = data + CORE_CTA_HEAD + CORE_WARP_HEAD * nwarps;
    for (size_t w = 0; w < c.nwarps; w++) {
        const uint8_t *h = data + CORE_CTA_HEAD + CORE_WARP_HEAD * w;
        AtsWarp *wp = &c.warps[w];
        wp->ninst = get64(h);
        wp->naddrs = get64(h + 8);
        wp->inst = xrealloc_array(NULL, wp->ninst, sizeof *wp->inst);
        wp->addrs = xrealloc_array(NULL, wp->naddrs, sizeof *wp->addrs);
        for (size_t i = 0; i < wp->ninst; i++, p += CORE_INST_BYTES) {
            if (!core_inst_decode(p, wp->naddrs, &wp->inst[i])) {
                ats_cta_free(&c);
                return sim_error_set(err, "cta: warp %zu instruction %zu is malformed", w,
                                     i);
            }
        }
        get_addrs(wp->addrs, p, wp->naddrs);
        p += 8 * wp->naddrs;
    }
    *cta = c;
    return true;
}
