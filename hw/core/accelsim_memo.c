/* The memo of whole instruction lines (AtsTextMemo, accelsim_parse.h).
 *
 * Decisions:
 * - Direct-mapped: the top bits of a multiply-xor hash of the line's 8-byte words pick
 *   the slot, and a line that misses takes it over. A hit compares the whole text, so a
 *   collision costs a parse, never a wrong instruction.
 * - The line's last word is loaded whole and masked (a line is padded: accelsim_lines.h)
 *   as the host's byte order reads it: a big-endian host hashes other bytes, which
 *   only makes its hits rarer.
 * - A hit appends only where wb has room already: growing the warp's arrays, and the
 *   message when that fails, stay the parser's (ats_warp_reserve_inst, _addrs). */
#include <string.h>

#include "hw/core/accelsim_parse.h"

#define MEMO_LANES 32

struct AtsTextSlot {
    uint64_t *tag; /* the memo's tag of this slot */
    uint64_t hash; /* tag of the pending line */
    uint8_t lanes; /* addresses kept (the instruction's, width > 0) */
    bool unknown;
    AtsInst inst;
    char text[ATS_TEXT_MEMO_BYTES];
    uint64_t addrs[MEMO_LANES];
};

/* tag[i]: slot i's line as its hash with the length in the low 16 bits, 0 for none
 * (free, or its parse pending); apart from the slots (32 KiB), so that a line that
 * misses reads no slot. */
struct AtsTextMemo {
    uint64_t tag[ATS_TEXT_MEMO_SLOTS];
    uint32_t last; /* the slot the last recall chose, ATS_TEXT_MEMO_NONE for none */
    AtsTextSlot slot[ATS_TEXT_MEMO_SLOTS];
};

/* Only the tags are cleared: a slot is read only behind its tag, which is set once the
 * slot is written (a trace of many short launches opens a reader for each, and
 * zeroing 2 MiB each time made a list of 20,000 launches 8 times slower to read). */
AtsTextMemo *ats_text_memo_new(void)
{
    AtsTextMemo *m = malloc(sizeof *m);
    if (m) {
        memset(m->tag, 0, sizeof m->tag);
        m->last = ATS_TEXT_MEMO_NONE;
    }
    return m;
}

void ats_text_memo_free(AtsTextMemo *m)
{
    free(m);
}

/* Two multiply-xor chains over alternate words (half the latency of one), combined;
 * the length in the low 16 bits, never 0. */
static uint64_t memo_tag(const char *p, size_t len)
{
    const uint64_t mul = 0xff51afd7ed558ccdull;
    uint64_t a = 0x9e3779b97f4a7c15ull, b = 0xc2b2ae3d27d4eb4full;
    size_t i = 0;
    uint64_t w, v;
    for (; i + 16 <= len; i += 16) {
        memcpy(&w, p + i, sizeof w);
        memcpy(&v, p + i + 8, sizeof v);
        a = (a ^ w) * mul;
        b = (b ^ v) * mul;
    }
    for (; i < len; i += 8) {
        memcpy(&w, p + i, sizeof w);
        size_t in = len - i < 8 ? len - i : 8;
        w &= in == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * in)) - 1;
        a = (a ^ w) * mul;
    }
    uint64_t h = (a ^ (b >> 31)) * mul;
    return (h & ~(uint64_t)0xffff) | len;
}

/* Whether wb can take the instruction and addresses of s without growing. */
static bool memo_fits(const AtsTextSlot *s, const AtsWarpBuf *wb)
{
    const AtsWarp *w = wb->warp;
    return w->ninst < wb->inst_cap && w->naddrs + s->lanes <= wb->addr_cap &&
           w->naddrs + s->lanes <= UINT32_MAX;
}

const char *ats_text_memo_text(const AtsTextMemo *m, uint32_t at, const AtsWarpBuf *wb,
                               size_t *len)
{
    if (at >= ATS_TEXT_MEMO_SLOTS || m->tag[at] == 0 || !memo_fits(&m->slot[at], wb)) {
        return NULL;
    }
    *len = m->tag[at] & 0xffff;
    return m->slot[at].text;
}

void ats_text_memo_take(const AtsTextMemo *m, uint32_t at, AtsWarpBuf *wb, bool *unknown)
{
    const AtsTextSlot *s = &m->slot[at];
    AtsWarp *w = wb->warp;
    AtsInst *in = &w->inst[w->ninst++];
    *in = s->inst;
    if (in->width > 0) {
        in->addr_off = (uint32_t)w->naddrs;
    }
    if (s->lanes > 0) { /* none: the pool may not exist yet */
        memcpy(w->addrs + w->naddrs, s->addrs, s->lanes * sizeof *s->addrs);
        w->naddrs += s->lanes;
    }
    *unknown = s->unknown;
}

bool ats_text_memo_recall(AtsTextMemo *m, const char *line, size_t len, AtsWarpBuf *wb,
                          bool *unknown, AtsTextSlot **pending)
{
    *pending = NULL;
    m->last = ATS_TEXT_MEMO_NONE;
    if (len == 0 || len > ATS_TEXT_MEMO_BYTES) {
        return false;
    }
    uint64_t tag = memo_tag(line, len);
    uint32_t i = (uint32_t)(tag >> 52 & (ATS_TEXT_MEMO_SLOTS - 1));
    AtsTextSlot *s = &m->slot[i];
    m->last = i;
    if (m->tag[i] == tag && memo_fits(s, wb) && memcmp(s->text, line, len) == 0) {
        ats_text_memo_take(m, i, wb, unknown);
        return true;
    }
    m->tag[i] = 0;
    s->tag = &m->tag[i];
    s->hash = tag;
    memcpy(s->text, line, len);
    *pending = s;
    return false;
}

uint32_t ats_text_memo_last(const AtsTextMemo *m)
{
    return m->last;
}

void ats_text_memo_keep(AtsTextSlot *s, const AtsWarpBuf *wb, bool unknown)
{
    const AtsWarp *w = wb->warp;
    const AtsInst *in = &w->inst[w->ninst - 1];
    s->inst = *in;
    s->unknown = unknown;
    s->lanes = in->width > 0 ? (uint8_t)(w->naddrs - in->addr_off) : 0;
    if (s->lanes > 0) {
        memcpy(s->addrs, w->addrs + in->addr_off, s->lanes * sizeof *s->addrs);
    }
    *s->tag = s->hash;
}
