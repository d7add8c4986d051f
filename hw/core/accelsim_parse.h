/* Line parsers shared by the kernel trace reader (accelsim_read.c): the header's
 * "-key = value" lines (accelsim_header.c), instruction lines (accelsim_inst.c) and
 * the number syntax they share. Internal to hw/core. */
#ifndef MGTLM_HW_CORE_ACCELSIM_PARSE_H
#define MGTLM_HW_CORE_ACCELSIM_PARSE_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "hw/core/accelsim.h"
#include "kernel/error.h"

/* Where a line came from, for messages "<file>:<line>: ...". */
typedef struct AtsWhere {
    const char *file;
    uint64_t line;
} AtsWhere;

/* A reader's memo of the whole opcodes (modifiers included) it has met and their
 * lookup (ats_op_lookup), so that a trace's few dozen distinct opcodes are each looked
 * up once per reader, not once per line: open addressing by a hash of the text (as
 * three zero-padded 64-bit words, compared whole), filled to three quarters at most;
 * an opcode of ATS_OP_MEMO_NAME bytes or more, or one met once the memo is full, is
 * looked up every time. Zeroed before the first line. */
#define ATS_OP_MEMO_SLOTS 256
#define ATS_OP_MEMO_NAME 24

typedef struct AtsOpMemoSlot {
    uint64_t name[ATS_OP_MEMO_NAME / 8];
    uint8_t len; /* 0: a free slot */
    uint8_t kind, cls;
} AtsOpMemoSlot;

typedef struct AtsOpMemo {
    unsigned used;
    AtsOpMemoSlot slot[ATS_OP_MEMO_SLOTS];
} AtsOpMemo;

/* A reader's memo of instruction lines by their start: the bytes from the PC through
 * the last source register, and what they parse to, in a slot chosen by a hash of the
 * first 8 bytes (the last line of that hash wins). A line whose start is the same bytes,
 * followed by a blank or its end, takes the fields from the memo instead of parsing
 * them again: a trace repeats each PC's start in every warp of every block. Starts of
 * more than ATS_LINE_MEMO_BYTES bytes are not kept. Zeroed before the first line. */
#define ATS_LINE_MEMO_SLOTS 512
#define ATS_LINE_MEMO_BYTES 64

typedef struct AtsLineMemoSlot {
    uint8_t len;            /* bytes of the start; 0: a free slot */
    uint8_t op_off, op_len; /* the opcode within the start */
    uint8_t kind;           /* AtsOpKind of the opcode */
    AtsInst inst;           /* pc, mask, registers and (for a fixed kind) class */
    char bytes[ATS_LINE_MEMO_BYTES];
} AtsLineMemoSlot;

typedef struct AtsLineMemo {
    AtsLineMemoSlot slot[ATS_LINE_MEMO_SLOTS];
} AtsLineMemo;

/* A reader's memo of whole instruction lines and what they parsed to, for the readers
 * that parse every line in full (not ats_reader_trust): the whole-trace check before a
 * run, `validate`, `trace-info`. A trace repeats most of its lines byte for byte: a
 * compute line in every warp of every block, a shared-memory access in every block
 * (the same shared addresses), a global load in the blocks that read the same tile;
 * the tracegen GEMM has 6,346 distinct instruction lines in 2.04 M. A slot, chosen by
 * a hash of the whole line, keeps its text (up to ATS_TEXT_MEMO_BYTES bytes), its
 * instruction and its addresses; a line with the same bytes takes them instead of
 * being parsed again (the last line of a slot wins). Only lines that parsed are kept,
 * and a line's parse depends on its text and the kernel's header alone (one reader,
 * one kernel file), so a line reads the same with or without the memo. 2 MiB,
 * allocated at the reader's first line parsed in full, of which only the 32 KiB of tags
 * are cleared. */
#define ATS_TEXT_MEMO_SLOTS 4096
#define ATS_TEXT_MEMO_BYTES 192
#define ATS_TEXT_MEMO_NONE UINT32_MAX

typedef struct AtsTextMemo AtsTextMemo;
typedef struct AtsTextSlot AtsTextSlot;

/* An empty memo; NULL when out of memory (the reader then parses every line). */
AtsTextMemo *ats_text_memo_new(void);
void ats_text_memo_free(AtsTextMemo *m);

/* A warp being filled: its instructions and address pool with their capacities. */
typedef struct AtsWarpBuf {
    AtsWarp *warp;
    size_t inst_cap, addr_cap;
} AtsWarpBuf;

/* Room in wb for one more instruction. */
static inline bool ats_warp_reserve_inst(AtsWarpBuf *wb, AtsWhere at, SimError *err)
{
    AtsWarp *w = wb->warp;
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

/* Room in wb for more addresses. */
static inline bool ats_warp_reserve_addrs(AtsWarpBuf *wb, size_t more, AtsWhere at,
                                          SimError *err)
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
    return true;
}

/* The line of len bytes (a padded line, as ats_inst_parse takes it) in the memo:
 * appends its instruction and addresses to wb, sets *unknown as its parse did and
 * returns true. Otherwise returns false and sets *pending to the slot the line will
 * take if it parses (its text copied now: the parse cuts the line), or NULL when the
 * line is too long to keep or wb cannot take it without a message from the parser
 * (out of memory, more than 2^32 addresses). */
bool ats_text_memo_recall(AtsTextMemo *m, const char *line, size_t len, AtsWarpBuf *wb,
                          bool *unknown, AtsTextSlot **pending);
/* The slot the last ats_text_memo_recall chose (hit, or the pending slot of a miss),
 * ATS_TEXT_MEMO_NONE when it kept none: a reader's guess for the line at the same
 * place of the next block (accelsim_read.c). */
uint32_t ats_text_memo_last(const AtsTextMemo *m);
/* The text of slot at (of ats_text_memo_last) with its length in *len, when the slot
 * holds a line and wb can take its instruction without growing; NULL otherwise. */
const char *ats_text_memo_text(const AtsTextMemo *m, uint32_t at, const AtsWarpBuf *wb,
                               size_t *len);
/* Appends the instruction and addresses of slot at to wb, and sets *unknown as its
 * parse did: what a recall of its text does (call after ats_text_memo_text gave it). */
void ats_text_memo_take(const AtsTextMemo *m, uint32_t at, AtsWarpBuf *wb, bool *unknown);
/* Keeps in the slot ats_text_memo_recall gave the instruction just appended to wb (the
 * line's parse) and whether its opcode was unknown. */
void ats_text_memo_keep(AtsTextSlot *slot, const AtsWarpBuf *wb, bool unknown);

/* The header keys the reader uses, as bits of the seen set (ats_header_line); the
 * first seven must be present. */
enum {
    ATS_HDR_GRID = 1 << 0,
    ATS_HDR_BLOCK = 1 << 1,
    ATS_HDR_SHMEM = 1 << 2,
    ATS_HDR_NREGS = 1 << 3,
    ATS_HDR_SHMEM_BASE = 1 << 4,
    ATS_HDR_LOCAL_BASE = 1 << 5,
    ATS_HDR_VERSION = 1 << 6,
    ATS_HDR_REQUIRED = (1 << 7) - 1,
    ATS_HDR_NAME = 1 << 7,
    ATS_HDR_ID = 1 << 8,
    ATS_HDR_BINARY = 1 << 9,
    ATS_HDR_LINEINFO = 1 << 10,
};

/* ats_hex_digit[c]: 1 + the value of the hexadecimal digit c, 0 for any other byte. */
extern const uint8_t ats_hex_digit[256];

/* The digits at s (decimal, or hexadecimal with an optional "0x" when hex) as *v; the
 * first byte after them, NULL when there is no digit or the value passes 2^64 - 1.
 * Inline: the reader's hot path calls it for every number of every line. */
static inline const char *ats_scan_u64(const char *s, bool hex, uint64_t *v)
{
    const unsigned char *p = (const unsigned char *)s;
    uint64_t x = 0;
    if (hex) {
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            p += 2;
        }
        const unsigned char *first = p;
        unsigned d;
        while ((d = ats_hex_digit[*p]) != 0) {
            if (x >> 60) {
                return NULL;
            }
            x = x << 4 | (d - 1);
            p++;
        }
        if (p == first) {
            return NULL;
        }
    } else {
        const unsigned char *first = p;
        unsigned d;
        while ((d = (unsigned)*p - '0') < 10) {
            if (x > UINT64_MAX / 10 || (x == UINT64_MAX / 10 && d > UINT64_MAX % 10)) {
                return NULL;
            }
            x = x * 10 + d;
            p++;
        }
        if (p == first) {
            return NULL;
        }
    }
    *v = x;
    return (const char *)p;
}

/* A decimal number with an optional sign at s as *v; the first byte after it, NULL
 * when there is no digit or the value is outside int64_t. */
static inline const char *ats_scan_i64(const char *s, int64_t *v)
{
    bool neg = *s == '-';
    uint64_t u = 0;
    const char *end = ats_scan_u64(s + (neg || *s == '+'), false, &u);
    if (!end || u > (uint64_t)INT64_MAX + neg) {
        return NULL;
    }
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return end;
}

/* Whole-token numbers: decimal, or hexadecimal with an optional "0x". */
bool ats_parse_u64(const char *s, int base, uint64_t *v);
bool ats_parse_i64(const char *s, int64_t *v);

/* Applies one "-key = value" header line (line without its '-') to k and records the
 * key in *seen; a key the reader uses that *seen already holds is refused. Keys the
 * reader does not use are skipped. */
bool ats_header_line(const char *line, AtsKernelInfo *k, unsigned *seen, AtsWhere at,
                     SimError *err);
/* At the end of the header: every required key present (else the first missing one
 * is named). */
bool ats_header_check(unsigned seen, AtsWhere at, SimError *err);

/* Parses the instruction line (modified in place; ATS_LINE_PAD readable bytes after its
 * NUL, as accelsim_lines.h returns lines) of kernel k and appends it to wb;
 * its opcode is looked up through the memo ops; *unknown is set when its mnemonic is not
 * in the opcode table. trusted: the line is known to parse (ats_reader_trust); an
 * instruction of a fixed class other than a global or local access is read only up
 * to its source registers and keeps width 0 and no address. */
bool ats_inst_parse(char *line, const AtsKernelInfo *k, AtsOpMemo *ops,
                    AtsLineMemo *lines, AtsWarpBuf *wb, bool trusted, bool *unknown,
                    AtsWhere at, SimError *err);

#endif
