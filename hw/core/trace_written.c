/* The written-byte index of a trace scan (see trace_written.h): the lines in an id map
 * (kernel/idmap.h: line number -> index in the line array), each line the head and
 * tail of its list of per-kernel masks in one pool. */
#include "hw/core/trace_written.h"

#include <stdlib.h>

#include "kernel/idmap.h"
#include "kernel/xalloc.h"

#define WRITTEN_NONE UINT32_MAX

typedef struct WrittenLine {
    uint64_t atomic[2];   /* bytes an atomic or reduction touches */
    uint32_t first, last; /* the line's masks in the pool, WRITTEN_NONE: none */
} WrittenLine;

typedef struct WrittenMask {
    uint64_t bytes[2];
    uint32_t kernel;
    uint32_t next; /* the line's next mask (a later kernel), or WRITTEN_NONE */
} WrittenMask;

struct TraceWritten {
    IdMap index; /* line number -> index in lines */
    WrittenLine *lines;
    size_t nlines, lines_cap;
    WrittenMask *pool;
    size_t npool, pool_cap;
};

TraceWritten *trace_written_new(void)
{
    return xcalloc(1, sizeof(TraceWritten));
}

void trace_written_free(TraceWritten *w)
{
    if (w) {
        idmap_destroy(&w->index);
        free(w->lines);
        free(w->pool);
        free(w);
    }
}

/* The line (the address of its first byte), created (no masks, no atomic byte) if
 * new. */
static WrittenLine *written_line(TraceWritten *w, uint64_t line)
{
    uint64_t i;
    if (!idmap_get(&w->index, line / TRACE_WRITTEN_LINE, &i)) {
        i = w->nlines++;
        w->lines = xgrow(w->lines, &w->lines_cap, w->nlines, sizeof *w->lines, 1024);
        w->lines[i] = (WrittenLine){.first = WRITTEN_NONE, .last = WRITTEN_NONE};
        idmap_insert(&w->index, line / TRACE_WRITTEN_LINE, i);
    }
    return &w->lines[i];
}

void trace_written_store(TraceWritten *w, uint64_t line, uint32_t k,
                         const uint64_t mask[2])
{
    WrittenLine *s = written_line(w, line);
    if (s->last != WRITTEN_NONE && w->pool[s->last].kernel == k) {
        w->pool[s->last].bytes[0] |= mask[0];
        w->pool[s->last].bytes[1] |= mask[1];
        return;
    }
    w->pool = xgrow(w->pool, &w->pool_cap, w->npool + 1, sizeof *w->pool, 1024);
    uint32_t m = (uint32_t)w->npool++;
    w->pool[m] = (WrittenMask){{mask[0], mask[1]}, k, WRITTEN_NONE};
    if (s->last == WRITTEN_NONE) {
        s->first = m;
    } else {
        w->pool[s->last].next = m;
    }
    s->last = m;
}

void trace_written_atomic(TraceWritten *w, uint64_t line, const uint64_t mask[2])
{
    WrittenLine *s = written_line(w, line);
    s->atomic[0] |= mask[0];
    s->atomic[1] |= mask[1];
}

static bool written_bit(const uint64_t mask[2], uint64_t b)
{
    return mask[b / 64] >> (b % 64) & 1;
}

bool trace_written_expect(const TraceWritten *w, uint32_t k, uint64_t vaddr, uint32_t n,
                          TraceExpect *out)
{
    uint64_t i;
    if (!idmap_get(&w->index, vaddr / TRACE_WRITTEN_LINE, &i)) {
        return false;
    }
    for (uint32_t j = 0; j < n; j++) {
        out[j] = (TraceExpect){.checked = true};
    }
    const WrittenLine *s = &w->lines[i];
    uint64_t off = vaddr % TRACE_WRITTEN_LINE;
    for (uint32_t i = 0; i < n; i++) {
        out[i].checked = !written_bit(s->atomic, off + i);
    }
    for (uint32_t m = s->first; m != WRITTEN_NONE && w->pool[m].kernel <= k;
         m = w->pool[m].next) {
        const WrittenMask *wm = &w->pool[m];
        for (uint32_t i = 0; i < n; i++) {
            if (!written_bit(wm->bytes, off + i)) {
                continue;
            }
            if (wm->kernel < k) {
                out[i].written = true;
                out[i].older = wm->kernel;
            } else {
                out[i].now = true;
            }
        }
    }
    return true;
}

size_t trace_written_lines(const TraceWritten *w)
{
    return w->nlines;
}

size_t trace_written_masks(const TraceWritten *w)
{
    return w->npool;
}
