/* The record of the bytes a cu wrote (see cu_written.h). */
#include "hw/workload/cu_written.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

void cu_written_init(CuWritten *w, uint64_t line)
{
    *w = (CuWritten){.line = line, .mbytes = (size_t)(line + 7) / 8};
    idmap_init(&w->index);
}

void cu_written_clear(CuWritten *w)
{
    idmap_destroy(&w->index);
    free(w->lines);
    free(w->maps);
    cu_written_init(w, w->line);
}

/* Bitmap of line n, created (all clear) if new. */
static uint8_t *cu_written_map(CuWritten *w, uint64_t n)
{
    uint64_t e;
    if (idmap_get(&w->index, n, &e)) {
        return w->maps + e * w->mbytes;
    }
    if (w->n == w->cap) {
        size_t cap = w->cap;
        w->lines = xgrow(w->lines, &cap, w->n + 1, sizeof *w->lines, 64);
        w->maps = xrealloc_array(w->maps, cap, w->mbytes);
        w->cap = cap;
    }
    e = w->n++;
    w->lines[e] = n;
    memset(w->maps + e * w->mbytes, 0, w->mbytes);
    idmap_insert(&w->index, n, e);
    return w->maps + e * w->mbytes;
}

void cu_written_add(CuWritten *w, uint64_t addr, const uint8_t *be, uint32_t len)
{
    uint8_t *map = NULL;
    uint64_t cur = UINT64_MAX;
    for (uint32_t i = 0; i < len; i++) {
        if (be && !be[i]) {
            continue;
        }
        uint64_t a = addr + i;
        if (a / w->line != cur) {
            cur = a / w->line;
            map = cu_written_map(w, cur);
        }
        uint64_t off = a % w->line;
        map[off / 8] |= (uint8_t)(1u << (off % 8));
    }
}

static int cu_written_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void cu_written_sort(CuWritten *w)
{
    /* Sort (line, bitmap) pairs by line: sort the line numbers, then gather the
     * bitmaps through the index. */
    if (w->n > 1) {
        uint8_t *maps = xrealloc_array(NULL, w->n, w->mbytes);
        qsort(w->lines, w->n, sizeof *w->lines, cu_written_cmp);
        for (size_t e = 0; e < w->n; e++) {
            uint64_t old;
            idmap_get(&w->index, w->lines[e], &old);
            memcpy(maps + e * w->mbytes, w->maps + old * w->mbytes, w->mbytes);
        }
        for (size_t e = 0; e < w->n; e++) {
            idmap_remove(&w->index, w->lines[e], NULL);
            idmap_insert(&w->index, w->lines[e], e);
        }
        free(w->maps);
        w->maps = maps;
    }
    w->cur = 0;
    w->pos = 0;
}

static bool cu_written_bit(const uint8_t *map, uint64_t off)
{
    return (map[off / 8] >> (off % 8)) & 1u;
}

bool cu_written_next(CuWritten *w, uint64_t *addr, uint32_t *len)
{
    while (w->cur < w->n) {
        const uint8_t *map = w->maps + w->cur * w->mbytes;
        while (w->pos < w->line && !cu_written_bit(map, w->pos)) {
            w->pos++;
        }
        if (w->pos < w->line) {
            uint64_t start = w->pos;
            while (w->pos < w->line && cu_written_bit(map, w->pos)) {
                w->pos++;
            }
            *addr = w->lines[w->cur] * w->line + start;
            *len = (uint32_t)(w->pos - start);
            return true;
        }
        w->cur++;
        w->pos = 0;
    }
    return false;
}
