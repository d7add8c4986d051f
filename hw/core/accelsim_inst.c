/* One instruction line of an Accel-Sim kernel trace (SPEC.md 6.1):
 * "[line] PC mask dest_num dests... opcode src_num srcs... mem_width [mode addrs...]
 * [imm]", parsed into an AtsInst appended to its warp, with the addresses of a memory
 * access expanded into the warp's pool, one per active lane in lane order.
 *
 * Decisions:
 * - Address modes: 0 one hex address per active lane; 1 hex base and decimal stride
 *   (k-th active lane at base + k * stride); 2 hex base of the first active lane, then
 *   one decimal delta per further active lane, added to the previous lane's address.
 *   An address outside 0..2^64-1 is refused, never wrapped.
 * - A memory class that needs addresses (accelsim_op.h) with mem_width 0 is refused;
 *   a class that is not a memory access keeps width 0 and its addresses, if any, are
 *   checked and dropped. An instruction with no active lane keeps its width and has
 *   no addresses.
 * - One last integer token after the memory part is the immediate some tracers append;
 *   it is not used. Anything else after the line's fields is refused. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_parse.h"
#include "hw/core/accelsim_read.h"

/* Token cursor over a line split at blanks. */
typedef struct InstTok {
    char *save;
    AtsWhere at;
} InstTok;

/* The next blank-separated token (NUL-terminated in place), NULL after the last. */
static char *inst_next(InstTok *t)
{
    char *p = t->save;
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    if (*p == '\0') {
        t->save = p;
        return NULL;
    }
    char *tok = p;
    while (*p != '\0' && *p != ' ' && *p != '\t') {
        p++;
    }
    if (*p != '\0') {
        *p++ = '\0';
    }
    t->save = p;
    return tok;
}

/* The name of a field for a message: what, with " of lane <n>" when lane >= 0 (built
 * only when a message is written: the reader's hot path formats nothing). */
static const char *inst_field(char *buf, size_t size, const char *what, int lane)
{
    if (lane < 0) {
        return what;
    }
    snprintf(buf, size, "%s of lane %d", what, lane);
    return buf;
}

/* Takes the next token or fails with "missing <what>". */
static bool inst_take(InstTok *t, const char *what, int lane, char **tok, SimError *err)
{
    *tok = inst_next(t);
    if (!*tok) {
        char buf[64];
        return sim_error_set(err, "%s:%" PRIu64 ": missing %s", t->at.file, t->at.line,
                             inst_field(buf, sizeof buf, what, lane));
    }
    return true;
}

static bool inst_bad(InstTok *t, const char *what, int lane, const char *tok,
                     const char *form, SimError *err)
{
    char buf[64];
    return sim_error_set(err, "%s:%" PRIu64 ": bad %s \"%s\" (%s)", t->at.file,
                         t->at.line, inst_field(buf, sizeof buf, what, lane), tok, form);
}

static bool inst_number(InstTok *t, const char *what, int lane, int base, uint64_t max,
                        const char *form, uint64_t *v, SimError *err)
{
    char *tok;
    if (!inst_take(t, what, lane, &tok, err)) {
        return false;
    }
    if (!ats_parse_u64(tok, base, v) || *v > max) {
        return inst_bad(t, what, lane, tok, form, err);
    }
    return true;
}

/* "n" then n registers "R<0..255>"; count and reg name the two fields. */
static bool inst_regs(InstTok *t, const char *count, const char *reg, uint8_t *n,
                      uint8_t *regs, SimError *err)
{
    uint64_t k;
    if (!inst_number(t, count, -1, 10, ATS_MAX_REGS, "0 to 8", &k, err)) {
        return false;
    }
    *n = (uint8_t)k;
    for (uint64_t i = 0; i < k; i++) {
        char *tok;
        uint64_t r;
        if (!inst_take(t, reg, -1, &tok, err)) {
            return false;
        }
        if (tok[0] != 'R' || !ats_parse_u64(tok + 1, 10, &r) || r > 255) {
            return inst_bad(t, reg, -1, tok, "R0 to R255", err);
        }
        regs[i] = (uint8_t)r;
    }
    return true;
}

static bool inst_reserve(AtsWarpBuf *wb, size_t more, AtsWhere at, SimError *err)
{
    AtsWarp *w = wb->warp;
    if (w->naddrs + more > wb->addr_cap) {
        size_t cap = wb->addr_cap ? wb->addr_cap : 64;
        while (cap < w->naddrs + more) {
            cap *= 2;
        }
        uint64_t *a = realloc(w->addrs, cap * sizeof *a);
        if (!a) {
            return sim_error_set(err, "%s:%" PRIu64 ": out of memory", at.file, at.line);
        }
        w->addrs = a;
        wb->addr_cap = cap;
    }
    if (w->ninst == wb->inst_cap) {
        size_t cap = wb->inst_cap ? 2 * wb->inst_cap : 32;
        AtsInst *in = realloc(w->inst, cap * sizeof *in);
        if (!in) {
            return sim_error_set(err, "%s:%" PRIu64 ": out of memory", at.file, at.line);
        }
        w->inst = in;
        wb->inst_cap = cap;
    }
    return true;
}

static bool inst_overflow(InstTok *t, unsigned lane, SimError *err)
{
    return sim_error_set(err, "%s:%" PRIu64 ": address of lane %u outside 64 bits",
                         t->at.file, t->at.line, lane);
}

/* Reads the addresses of mode for the active lanes of mask into out[0..popcount). */
static bool inst_addrs(InstTok *t, uint32_t mask, uint64_t *out, SimError *err)
{
    uint64_t mode, base = 0;
    char *tok;
    if (!inst_number(t, "address mode", -1, 10, 2, "0, 1 or 2", &mode, err)) {
        return false;
    }
    if (mode != 0 &&
        !inst_number(t, "base address", -1, 16, UINT64_MAX, "hexadecimal", &base, err)) {
        return false;
    }
    int64_t stride = 0;
    if (mode == 1) {
        if (!inst_take(t, "stride", -1, &tok, err)) {
            return false;
        }
        if (!ats_parse_i64(tok, &stride)) {
            return inst_bad(t, "stride", -1, tok, "decimal", err);
        }
    }
    size_t k = 0;
    for (unsigned lane = 0; lane < ATS_LANES; lane++) {
        if (!(mask >> lane & 1u)) {
            continue;
        }
        uint64_t a = base;
        if (mode == 0) {
            if (!inst_number(t, "address", (int)lane, 16, UINT64_MAX, "hexadecimal", &a,
                             err)) {
                return false;
            }
        } else if (mode == 1) {
            __int128 v = (__int128)base + (__int128)stride * (__int128)k;
            if (v < 0 || v > (__int128)UINT64_MAX) {
                return inst_overflow(t, lane, err);
            }
            a = (uint64_t)v;
        } else if (k > 0) {
            int64_t delta;
            if (!inst_take(t, "delta", (int)lane, &tok, err)) {
                return false;
            }
            if (!ats_parse_i64(tok, &delta)) {
                return inst_bad(t, "delta", (int)lane, tok, "decimal", err);
            }
            __int128 v = (__int128)out[k - 1] + delta;
            if (v < 0 || v > (__int128)UINT64_MAX) {
                return inst_overflow(t, lane, err);
            }
            a = (uint64_t)v;
        }
        out[k++] = a;
    }
    return true;
}

bool ats_inst_parse(char *line, const AtsKernelInfo *k, AtsWarpBuf *wb, bool *unknown,
                    AtsWhere at, SimError *err)
{
    InstTok t = {.save = line, .at = at};
    AtsInst in = {0};
    uint64_t v;
    char *tok = inst_next(&t);
    if (k->lineinfo && tok) {
        if (!ats_parse_u64(tok, 10, &v) || v > UINT32_MAX) {
            return inst_bad(&t, "line number", -1, tok, "decimal", err);
        }
        in.line = (uint32_t)v;
        tok = inst_next(&t);
    }
    if (!tok) {
        return sim_error_set(err, "%s:%" PRIu64 ": missing PC", at.file, at.line);
    }
    if (!ats_parse_u64(tok, 16, &in.pc)) {
        return inst_bad(&t, "PC", -1, tok, "hexadecimal", err);
    }
    if (!inst_number(&t, "mask", -1, 16, UINT32_MAX, "hexadecimal, 32 lanes", &v, err)) {
        return false;
    }
    in.mask = (uint32_t)v;
    if (!inst_regs(&t, "destination count", "destination register", &in.ndst, in.dst,
                   err)) {
        return false;
    }
    char *opcode;
    if (!inst_take(&t, "opcode", -1, &opcode, err)) {
        return false;
    }
    if (!(opcode[0] >= 'A' && opcode[0] <= 'Z')) {
        return inst_bad(&t, "opcode", -1, opcode, "a SASS mnemonic", err);
    }
    if (!inst_regs(&t, "source count", "source register", &in.nsrc, in.src, err)) {
        return false;
    }
    uint64_t width;
    if (!inst_number(&t, "mem_width", -1, 10, ATS_WIDTH_MAX, "0 to 256", &width, err)) {
        return false;
    }
    unsigned lanes = (unsigned)__builtin_popcount(in.mask);
    if (!inst_reserve(wb, width ? lanes : 0, at, err)) {
        return false;
    }
    AtsWarp *w = wb->warp;
    if (width > 0 && w->naddrs + lanes > UINT32_MAX) {
        return sim_error_set(err, "%s:%" PRIu64 ": more than 2^32 addresses in one warp",
                             at.file, at.line);
    }
    uint64_t *pool = w->addrs ? w->addrs + w->naddrs : NULL; /* NULL: no lane yet */
    if (width > 0 && !inst_addrs(&t, in.mask, pool, err)) {
        return false;
    }
    tok = inst_next(&t);
    int64_t imm;
    if (tok && (!ats_parse_i64(tok, &imm) || inst_next(&t))) {
        return sim_error_set(err,
                             "%s:%" PRIu64 ": unexpected \"%s\" after the memory "
                             "operands",
                             at.file, at.line, tok);
    }
    AtsOpKind kind = ats_op_lookup(opcode, &in.cls);
    *unknown = kind == ATS_OP_UNKNOWN;
    if (kind != ATS_OP_FIXED && kind != ATS_OP_UNKNOWN) {
        bool any = width > 0 && lanes > 0;
        in.cls = ats_op_resolve(kind, k, any, any ? pool[0] : 0);
    }
    if (width == 0 && ats_class_needs_addrs(in.cls)) {
        return sim_error_set(err, "%s:%" PRIu64 ": %s without addresses (mem_width 0)",
                             at.file, at.line, opcode);
    }
    if (width > 0 && (ats_class_needs_addrs(in.cls) || in.cls == ATS_LDC)) {
        in.width = (uint32_t)width;
        in.addr_off = (uint32_t)w->naddrs;
        w->naddrs += lanes;
    }
    w->inst[w->ninst++] = in;
    return true;
}
