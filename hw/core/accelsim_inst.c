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
 * - A global atomic (ATOMG, RED) must be 4, 8 or 16 bytes per lane (SASS has no
 *   other); the sm would otherwise run it as 4 bytes, touching bytes the trace does
 *   not (docs/traces.md). Each lane's address must be a multiple of that width, as
 *   the GPU requires (a misaligned atomic faults: CUDA's misaligned address error):
 *   an unaligned one could cross a page, and the sm translates an atomic by the page
 *   of its first byte. For 16 bytes a multiple of 8 is enough: whether a tracer's 16
 *   is one 128-bit access or the two 8-byte operands of a 64-bit compare-and-swap is
 *   not settled here, the sm runs such an atomic as 4 bytes, and refusing a real
 *   trace would be worse than taking an impossible one that crosses no page.
 * - A memory class that needs addresses (accelsim_op.h) with mem_width 0 is refused;
 *   a class that is not a memory access keeps width 0 and its addresses, if any, are
 *   checked and dropped. An instruction with no active lane keeps its width and has
 *   no addresses.
 * - One last integer token after the memory part is the immediate some tracers append;
 *   it is not used. Anything else after the line's fields is refused.
 * - Speed (docs/performance.md, Reading traces): one pass over the line with a cursor;
 *   each number is scanned where it lies and its token is cut out of the line only for
 *   a message (the message builders are out of line, the field readers forced inline);
 *   the opcode goes through the reader's memo (AtsOpMemo); the active lanes are walked
 *   by their set bits; a hexadecimal number is converted 16 digits at a time with
 *   SSE2 (inst_hex; digit by digit elsewhere); a field after a single space is found
 *   with two compares, a short decimal (count, register, stride, delta) is read
 *   without a loop (inst_dec, inst_i64), and a mode-2 delta is added in 64 bits with
 *   its own range check (no 128-bit arithmetic on the per-lane path). Mode-2 deltas
 *   of the common form (one space, an optional '-', one to three digits) are read as
 *   a run with the cursor and the sum in registers (inst_deltas), the first other
 *   form handing the rest of the line to the field-by-field reader, which also
 *   reports errors; with SSE2 a run of one-digit deltas is found 8 at a time with
 *   one 16-byte load (inst_digit_pairs). A trace's whole-file check of the
 *   tracegen GEMM, whose shared-memory loads list 31 deltas each, 30 of them one
 *   digit, took 0.26 s before the runs and 0.19 s after (best of 7). The
 *   16- and 24-byte loads read past a field into the line's padding (ATS_LINE_PAD,
 *   accelsim_lines.h).
 * - A line whose start (PC through the last source register) is byte for byte the
 *   start of an earlier line of the same reader, followed by a blank or the line's end,
 *   takes those fields from the reader's memo (AtsLineMemo) instead of parsing them:
 *   a trace repeats every PC's start in each warp of each block, so the memo takes
 *   most lines (the tracegen GEMM's check went from about 0.175 s to 0.135 s). The
 *   memo keeps only starts that parsed, and what they parse to depends on nothing
 *   else (the line number, width, addresses and a generic access's class come from
 *   each line), so a line reads the same with or without it; an error after the
 *   start names the line's own opcode. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "hw/core/accelsim_op.h"
#include "hw/core/accelsim_parse.h"
#include "hw/core/accelsim_read.h"
#include "kernel/bits.h"

/* The field readers run for every field of every line: inlined whatever the
 * compiler's estimate. The message builders run once per run at most. */
#define INST_HOT static inline __attribute__((always_inline))
#define INST_COLD static __attribute__((cold, noinline))

/* Cursor over a line: fields are separated by blanks (' ' or '\t'). */
typedef struct InstCur {
    char *p;
    AtsWhere at;
} InstCur;

INST_HOT bool inst_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Whether c ends a field: a blank or the line's end. */
INST_HOT bool inst_field_end(char c)
{
    return inst_blank(c) || c == '\0';
}

/* True if the cursor is at a field (after skipping blanks), false at the line's end. */
INST_HOT bool inst_field_at(InstCur *c)
{
    /* most fields follow one space: two compares */
    if (c->p[0] == ' ' && (unsigned char)c->p[1] > ' ') {
        c->p++;
        return true;
    }
    /* one compare ends the blanks: a field's first byte is above ' ' */
    unsigned char ch;
    while ((ch = (unsigned char)*c->p) <= ' ' && inst_blank((char)ch)) {
        c->p++;
    }
    return ch != '\0';
}

/* Cuts the field at s out of the line (NUL-terminated in place) for a message. */
static char *inst_cut(char *s)
{
    char *e = s;
    while (*e != '\0' && !inst_blank(*e)) {
        e++;
    }
    *e = '\0';
    return s;
}

/* The name of a field for a message: what, with " of lane <n>" when lane >= 0 (built
 * only when a message is written). */
static const char *inst_name(char *buf, size_t size, const char *what, int lane)
{
    if (lane < 0) {
        return what;
    }
    snprintf(buf, size, "%s of lane %d", what, lane);
    return buf;
}

INST_COLD bool inst_missing(const InstCur *c, const char *what, int lane, SimError *err)
{
    char buf[64];
    return sim_error_set(err, "%s:%" PRIu64 ": missing %s", c->at.file, c->at.line,
                         inst_name(buf, sizeof buf, what, lane));
}

INST_COLD bool inst_bad(const InstCur *c, const char *what, int lane, char *tok,
                        const char *form, SimError *err)
{
    char buf[64];
    return sim_error_set(err, "%s:%" PRIu64 ": bad %s \"%s\" (%s)", c->at.file,
                         c->at.line, inst_name(buf, sizeof buf, what, lane),
                         inst_cut(tok), form);
}

/* ats_scan_u64(s, true, v) for s inside a padded line (ATS_LINE_PAD). With SSE2 (every
 * x86-64) up to 16 digits at once: the 16 bytes after the "0x" are classified
 * together (a digit, a letter a-f in either case, or the end), their values are paired
 * into bytes and the first n digits taken as one byte-swapped word; more than 16
 * digits (leading zeros) go digit by digit, as every number does without SSE2. */
INST_HOT const char *inst_hex(const char *s, uint64_t *v)
{
#if defined(__SSE2__)
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
    }
    const __m128i bias = _mm_set1_epi8((char)0x80);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)s);
    /* x - c below k, unsigned, as a signed compare of both sides moved by 0x80 */
    __m128i dv = _mm_sub_epi8(b, _mm_set1_epi8('0'));
    __m128i lv = _mm_sub_epi8(_mm_or_si128(b, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    __m128i dig =
        _mm_cmplt_epi8(_mm_xor_si128(dv, bias), _mm_set1_epi8((char)(0x80 + 10)));
    __m128i let =
        _mm_cmplt_epi8(_mm_xor_si128(lv, bias), _mm_set1_epi8((char)(0x80 + 6)));
    unsigned hex = (unsigned)_mm_movemask_epi8(_mm_or_si128(dig, let));
    unsigned n = (unsigned)__builtin_ctz(~hex); /* leading digits, at most 16 */
    if (n == 0) {
        return NULL;
    }
    if (n == 16) {
        return ats_scan_u64(s, true, v);
    }
    /* each byte's digit value (0 past the digits), then byte pairs 16 d0 + d1 */
    __m128i val = _mm_or_si128(_mm_and_si128(dig, dv),
                               _mm_and_si128(let, _mm_add_epi8(lv, _mm_set1_epi8(10))));
    __m128i pair =
        _mm_and_si128(_mm_or_si128(_mm_slli_epi16(val, 4), _mm_srli_epi16(val, 8)),
                      _mm_set1_epi16(0xff));
    uint64_t packed = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pair, pair));
    *v = __builtin_bswap64(packed) >> (4 * (16 - n));
    return s + n;
#else
    return ats_scan_u64(s, true, v);
#endif
}

/* ats_scan_u64(s, false, v) for s inside a padded line: up to 3 digits (counts,
 * registers, widths) without a loop; longer numbers digit by digit. */
INST_HOT const char *inst_dec(const char *s, uint64_t *v)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned d0 = u[0] - '0', d1 = u[1] - '0', d2 = u[2] - '0', d3 = u[3] - '0';
    if (d0 > 9) {
        return NULL;
    }
    if (d1 > 9) {
        *v = d0;
        return s + 1;
    }
    if (d2 > 9) {
        *v = d0 * 10 + d1;
        return s + 2;
    }
    if (d3 > 9) {
        *v = d0 * 100 + d1 * 10 + d2;
        return s + 3;
    }
    return ats_scan_u64(s, false, v);
}

/* The next field as a whole unsigned number (hexadecimal when hex) of at most max. */
INST_HOT bool inst_number(InstCur *c, const char *what, int lane, bool hex, uint64_t max,
                          const char *form, uint64_t *v, SimError *err)
{
    if (!inst_field_at(c)) {
        return inst_missing(c, what, lane, err);
    }
    const char *end = hex ? inst_hex(c->p, v) : inst_dec(c->p, v);
    if (!end || !inst_field_end(*end) || *v > max) {
        return inst_bad(c, what, lane, c->p, form, err);
    }
    c->p = (char *)end;
    return true;
}

/* ats_scan_i64(s, v) for s inside a padded line: the sign, then inst_dec (a stride or
 * a delta of mode 2 has one to three digits on most lines). */
INST_HOT const char *inst_i64(const char *s, int64_t *v)
{
    bool neg = *s == '-';
    uint64_t u = 0;
    const char *end = inst_dec(s + (neg || *s == '+'), &u);
    if (!end || u > (uint64_t)INT64_MAX + neg) {
        return NULL;
    }
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return end;
}

/* The next field as a whole signed decimal number. */
INST_HOT bool inst_signed(InstCur *c, const char *what, int lane, int64_t *v,
                          SimError *err)
{
    if (!inst_field_at(c)) {
        return inst_missing(c, what, lane, err);
    }
    const char *end = inst_i64(c->p, v);
    if (!end || !inst_field_end(*end)) {
        return inst_bad(c, what, lane, c->p, "decimal", err);
    }
    c->p = (char *)end;
    return true;
}

/* "n" then n registers "R<0..255>"; count and reg name the two fields. */
INST_HOT bool inst_regs(InstCur *c, const char *count, const char *reg, uint8_t *n,
                        uint8_t *regs, SimError *err)
{
    uint64_t k = 0;
    if (!inst_number(c, count, -1, false, ATS_MAX_REGS, "0 to 8", &k, err)) {
        return false;
    }
    *n = (uint8_t)k;
    for (uint64_t i = 0; i < k; i++) {
        if (!inst_field_at(c)) {
            return inst_missing(c, reg, -1, err);
        }
        uint64_t r = 0;
        const char *end = c->p[0] == 'R' ? inst_dec(c->p + 1, &r) : NULL;
        if (!end || !inst_field_end(*end) || r > 255) {
            return inst_bad(c, reg, -1, c->p, "R0 to R255", err);
        }
        regs[i] = (uint8_t)r;
        c->p = (char *)end;
    }
    return true;
}

INST_COLD bool inst_overflow(const InstCur *c, unsigned lane, SimError *err)
{
    return sim_error_set(err, "%s:%" PRIu64 ": address of lane %u outside 64 bits",
                         c->at.file, c->at.line, lane);
}

#if defined(__SSE2__)
/* How many of the 8 two-byte pairs at u, from the first, are a space and a digit:
 * 0 to 8. u is at or before the line's NUL, so its 16 bytes, and the 17th that the
 * caller reads after 8 pairs, lie in the line and its padding (ATS_LINE_PAD). */
INST_HOT unsigned inst_digit_pairs(const unsigned char *u)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)u);
    unsigned space = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
    __m128i x = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    __m128i small = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(9)), x);
    unsigned digit = (unsigned)_mm_movemask_epi8(small);
    unsigned pairs = space & (digit >> 1) & 0x5555u;
    return (unsigned)__builtin_ctz((~pairs & 0x5555u) | 0x10000u) / 2;
}
#endif

/* Mode 2's deltas while they take the common form, one space then an optional '-' and
 * one to three digits, each added to *prev and stored at out[*k]: from c's cursor,
 * for the lanes of *m (lowest first), which are taken out of *m. Stops, leaving the
 * cursor at that delta, at the first delta of another form, or one that would leave
 * 0..2^64-1: inst_addrs reads the rest (and reports what is wrong) field by field.
 * The cursor and the sum stay in registers, where the general reader keeps them in
 * memory for its messages; with SSE2, a run of one-digit deltas is found 8 at a time
 * (inst_digit_pairs) and added without a test per delta. */
INST_HOT void inst_deltas(InstCur *c, uint32_t *m, uint64_t *prev, uint64_t *out,
                          size_t *k)
{
    const unsigned char *u = (const unsigned char *)c->p;
    uint64_t a = *prev;
    size_t n = *k;
    uint32_t left = *m;
    while (left != 0 && u[0] == ' ') {
#if defined(__SSE2__)
        /* up to 8 one-digit deltas at once; the last must end the field (" 64" starts
         * with the pair " 6") */
        unsigned run = inst_digit_pairs(u);
        unsigned lanes = bits_popcount32(left);
        run = run < lanes ? run : lanes;
        if (run > 0 && !inst_field_end((char)u[2 * run])) {
            run--;
        }
        if (run > 0 && a <= UINT64_MAX - 9 * 8) {
            for (unsigned i = 0; i < run; i++) {
                a += (unsigned)(u[2 * i + 1] - '0');
                out[n++] = a;
                left &= left - 1;
            }
            u += 2 * run;
            continue;
        }
#endif
        bool neg = u[1] == '-';
        const unsigned char *d = u + 1 + neg;
        unsigned d0 = d[0] - '0', d1 = d[1] - '0', d2 = d[2] - '0', d3 = d[3] - '0';
        uint64_t v;
        unsigned len;
        if (d0 > 9) {
            break;
        } else if (d1 > 9) {
            v = d0, len = 1;
        } else if (d2 > 9) {
            v = d0 * 10 + d1, len = 2;
        } else if (d3 > 9) {
            v = d0 * 100 + d1 * 10 + d2, len = 3;
        } else {
            break;
        }
        unsigned char end = d[len];
        if (!inst_field_end((char)end) || (neg ? v > a : a + v < a)) {
            break;
        }
        a = neg ? a - v : a + v;
        out[n++] = a;
        u = d + len;
        left &= left - 1;
    }
    c->p = (char *)u;
    *prev = a;
    *k = n;
    *m = left;
}

/* Reads the addresses of mode for the active lanes of mask into out[0..popcount). */
static bool inst_addrs(InstCur *c, uint32_t mask, uint64_t *out, SimError *err)
{
    uint64_t mode = 0, base = 0;
    if (!inst_number(c, "address mode", -1, false, 2, "0, 1 or 2", &mode, err)) {
        return false;
    }
    if (mode != 0 && !inst_number(c, "base address", -1, true, UINT64_MAX, "hexadecimal",
                                  &base, err)) {
        return false;
    }
    int64_t stride = 0;
    if (mode == 1 && !inst_signed(c, "stride", -1, &stride, err)) {
        return false;
    }
    size_t k = 0;
    /* the previous lane's address, kept in a register: out may alias the line's bytes
     * for the compiler, which would reload out[k - 1] after every store */
    uint64_t prev = 0;
    uint32_t m = mask;
    if (mode == 2 && m != 0) {
        out[k++] = prev = base;
        m &= m - 1;
        inst_deltas(c, &m, &prev, out, &k);
    }
    for (; m != 0; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctz(m);
        uint64_t a = base;
        if (mode == 0) {
            if (!inst_number(c, "address", (int)lane, true, UINT64_MAX, "hexadecimal", &a,
                             err)) {
                return false;
            }
        } else if (mode == 1) {
            __int128 v = (__int128)base + (__int128)stride * (__int128)k;
            if (v < 0 || v > (__int128)UINT64_MAX) {
                return inst_overflow(c, lane, err);
            }
            a = (uint64_t)v;
        } else {
            int64_t delta = 0;
            if (!inst_signed(c, "delta", (int)lane, &delta, err)) {
                return false;
            }
            /* the previous address plus delta, in 0..2^64-1 (no wider type) */
            uint64_t mag = delta < 0 ? 0 - (uint64_t)delta : (uint64_t)delta;
            if (delta < 0 ? mag > prev : prev + mag < prev) {
                return inst_overflow(c, lane, err);
            }
            a = delta < 0 ? prev - mag : prev + mag;
        }
        out[k++] = a;
        prev = a;
    }
    return true;
}

/* ats_op_lookup of the opcode of len bytes at op (NUL-terminated, in a padded line)
 * through the memo (see AtsOpMemo). */
INST_HOT AtsOpKind inst_opcode(AtsOpMemo *m, const char *op, size_t len, AtsClass *cls)
{
    if (len >= ATS_OP_MEMO_NAME) {
        return ats_op_lookup(op, cls);
    }
    uint64_t name[ATS_OP_MEMO_NAME / 8];
    memcpy(name, op, sizeof name);
    for (size_t i = 0; i < ATS_OP_MEMO_NAME / 8; i++) {
        size_t in = len > 8 * i ? len - 8 * i : 0; /* bytes of the opcode in word i */
        name[i] &= in >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * in)) - 1;
    }
    uint64_t h = name[0] * 0x9e3779b97f4a7c15ull + name[1] * 0xc2b2ae3d27d4eb4full +
                 name[2] * 0x165667b19e3779f9ull;
    unsigned i = (unsigned)(h >> 56) % ATS_OP_MEMO_SLOTS;
    for (;; i = (i + 1) % ATS_OP_MEMO_SLOTS) {
        AtsOpMemoSlot *s = &m->slot[i];
        if (s->len == 0) {
            break;
        }
        if (s->len == len && s->name[0] == name[0] && s->name[1] == name[1] &&
            s->name[2] == name[2]) {
            *cls = (AtsClass)s->cls;
            return (AtsOpKind)s->kind;
        }
    }
    AtsOpKind kind = ats_op_lookup(op, cls);
    if (m->used < ATS_OP_MEMO_SLOTS / 4 * 3) {
        AtsOpMemoSlot *s = &m->slot[i];
        memcpy(s->name, name, sizeof name);
        s->len = (uint8_t)len;
        s->kind = (uint8_t)kind;
        s->cls = (uint8_t)*cls;
        m->used++;
    }
    return kind;
}

/* After the memory operands: nothing, or one integer (the immediate). */
static bool inst_tail(InstCur *c, SimError *err)
{
    if (!inst_field_at(c)) {
        return true;
    }
    char *tok = c->p;
    int64_t imm;
    const char *end = ats_scan_i64(tok, &imm);
    if (end && inst_field_end(*end)) {
        c->p = (char *)end;
        if (!inst_field_at(c)) {
            return true;
        }
    }
    return sim_error_set(err,
                         "%s:%" PRIu64 ": unexpected \"%s\" after the memory "
                         "operands",
                         c->at.file, c->at.line, inst_cut(tok));
}

/* A global atomic's width: 4, 8 or 16 bytes per lane (SASS has no other), and each
 * active lane's address (addrs, in lane order) a multiple of it, of 8 for 16 bytes;
 * false with a message. */
static bool inst_atomic_ok(const char *opcode, uint64_t width, uint32_t mask,
                           const uint64_t *addrs, AtsWhere at, SimError *err)
{
    if (width != 4 && width != 8 && width != 16) {
        return sim_error_set(err,
                             "%s:%" PRIu64 ": %s with mem_width %" PRIu64
                             " (atomics are 4, 8 or 16 bytes per lane)",
                             at.file, at.line, opcode, width);
    }
    uint64_t align = width < 8 ? width : 8;
    for (unsigned k = 0; mask != 0; k++, mask &= mask - 1) {
        if (addrs[k] & (align - 1)) {
            return sim_error_set(err,
                                 "%s:%" PRIu64 ": %s of lane %d at 0x%" PRIx64
                                 " is not aligned to %" PRIu64
                                 " bytes (a misaligned atomic faults on the GPU)",
                                 at.file, at.line, opcode, __builtin_ctz(mask), addrs[k],
                                 align);
        }
    }
    return true;
}

/* A trusted line's instruction of class cls whose fields after the source registers
 * nobody reads (see ats_inst_parse). */
INST_HOT bool inst_short(AtsOpKind kind, AtsClass cls)
{
    return (kind == ATS_OP_FIXED || kind == ATS_OP_UNKNOWN) && !ats_class_leaves_sm(cls);
}

/* The slot of lines starting at p (a padded line: 8 bytes readable). */
INST_HOT AtsLineMemoSlot *inst_memo_slot(AtsLineMemo *m, const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return &m->slot[(w * 0x9e3779b97f4a7c15ull) >> 55 & (ATS_LINE_MEMO_SLOTS - 1)];
}

/* Whether the line at p starts with the slot's bytes, followed by a blank or its end.
 * The slot's bytes hold no NUL, so a chunk is loaded only while every byte before it
 * matched, that is, before the line's NUL: its 16 bytes lie in the line's padding. */
INST_HOT bool inst_memo_hit(const AtsLineMemoSlot *s, const char *p)
{
    size_t len = s->len;
    if (len == 0) {
        return false;
    }
    for (size_t i = 0; i < len; i += 16) {
#if defined(__SSE2__)
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s->bytes + i));
        unsigned diff = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) & 0xffffu;
        size_t in = len - i < 16 ? len - i : 16;
        if (diff & ((1u << in) - 1)) {
            return false;
        }
#else
        size_t in = len - i < 16 ? len - i : 16;
        if (memcmp(p + i, s->bytes + i, in) != 0) {
            return false;
        }
#endif
    }
    return inst_field_end(p[len]);
}

bool ats_inst_parse(char *line, const AtsKernelInfo *k, AtsOpMemo *ops,
                    AtsLineMemo *lines, AtsWarpBuf *wb, bool trusted, bool *unknown,
                    AtsWhere at, SimError *err)
{
    InstCur c = {.p = line, .at = at};
    /* filled in place (a copy of a struct just written byte by byte would wait for
     * those stores); counted in the warp at the end only */
    if (!ats_warp_reserve_inst(wb, at, err)) {
        return false;
    }
    AtsWarp *w = wb->warp;
    AtsInst *in = &w->inst[w->ninst];
    uint64_t v = 0;
    uint32_t srcline = 0;
    if (k->lineinfo && inst_field_at(&c)) {
        if (!inst_number(&c, "line number", -1, false, UINT32_MAX, "decimal", &v, err)) {
            return false;
        }
        srcline = (uint32_t)v;
        inst_field_at(&c);
    }
    char *start = c.p;
    AtsLineMemoSlot *slot = inst_memo_slot(lines, start);
    char *opcode;
    AtsOpKind kind;
    if (inst_memo_hit(slot, start)) {
        *in = slot->inst;
        opcode = start + slot->op_off;
        opcode[slot->op_len] = '\0';
        kind = (AtsOpKind)slot->kind;
        c.p = start + slot->len;
    } else {
        *in = (AtsInst){0};
        if (!inst_number(&c, "PC", -1, true, UINT64_MAX, "hexadecimal", &in->pc, err) ||
            !inst_number(&c, "mask", -1, true, UINT32_MAX, "hexadecimal, 32 lanes", &v,
                         err)) {
            return false;
        }
        in->mask = (uint32_t)v;
        if (!inst_regs(&c, "destination count", "destination register", &in->ndst,
                       in->dst, err)) {
            return false;
        }
        if (!inst_field_at(&c)) {
            return inst_missing(&c, "opcode", -1, err);
        }
        opcode = c.p;
        if (!(opcode[0] >= 'A' && opcode[0] <= 'Z')) {
            return inst_bad(&c, "opcode", -1, opcode, "a SASS mnemonic", err);
        }
        while (*c.p != '\0' && !inst_blank(*c.p)) {
            c.p++;
        }
        size_t oplen = (size_t)(c.p - opcode);
        char after = *c.p;
        if (after != '\0') {
            *c.p++ = '\0';
        }
        if (!inst_regs(&c, "source count", "source register", &in->nsrc, in->src, err)) {
            return false;
        }
        kind = inst_opcode(ops, opcode, oplen, &in->cls);
        size_t len = (size_t)(c.p - start);
        if (len <= ATS_LINE_MEMO_BYTES && after != '\0') {
            slot->len = (uint8_t)len;
            slot->op_off = (uint8_t)(opcode - start);
            slot->op_len = (uint8_t)oplen;
            slot->kind = (uint8_t)kind;
            slot->inst = *in;
            memcpy(slot->bytes, start, len);
            slot->bytes[slot->op_off + oplen] = after;
        }
    }
    in->line = srcline;
    *unknown = kind == ATS_OP_UNKNOWN;
    if (trusted && inst_short(kind, in->cls)) {
        w->ninst++;
        return true;
    }
    uint64_t width = 0;
    if (!inst_number(&c, "mem_width", -1, false, ATS_WIDTH_MAX, "0 to 256", &width,
                     err)) {
        return false;
    }
    unsigned lanes = bits_popcount32(in->mask);
    if (!ats_warp_reserve_addrs(wb, width ? lanes : 0, at, err)) {
        return false;
    }
    if (width > 0 && w->naddrs + lanes > UINT32_MAX) {
        return sim_error_set(err, "%s:%" PRIu64 ": more than 2^32 addresses in one warp",
                             at.file, at.line);
    }
    uint64_t *pool = w->addrs ? w->addrs + w->naddrs : NULL; /* NULL: no lane yet */
    if (width > 0 && !inst_addrs(&c, in->mask, pool, err)) {
        return false;
    }
    if (!inst_tail(&c, err)) {
        return false;
    }
    if (kind != ATS_OP_FIXED && kind != ATS_OP_UNKNOWN) {
        bool any = width > 0 && lanes > 0;
        in->cls = ats_op_resolve(kind, k, any, any ? pool[0] : 0);
    }
    if (width == 0 && ats_class_needs_addrs(in->cls)) {
        return sim_error_set(err, "%s:%" PRIu64 ": %s without addresses (mem_width 0)",
                             at.file, at.line, opcode);
    }
    if ((in->cls == ATS_ATOMG || in->cls == ATS_RED) && width > 0 &&
        !inst_atomic_ok(opcode, width, in->mask, pool, at, err)) {
        return false;
    }
    if (width > 0 && (ats_class_needs_addrs(in->cls) || in->cls == ATS_LDC)) {
        in->width = (uint32_t)width;
        in->addr_off = (uint32_t)w->naddrs;
        w->naddrs += lanes;
    }
    w->ninst++;
    return true;
}
