/* The sm's data check (see core_check.h): the response is checked line by line, one
 * look-up of the written-byte index per 128 B line it covers. A line the index does
 * not hold (no kernel stores to it or touches it atomically: most of what a kernel
 * reads) is compared with the fill at once, without a record per byte (memory-bound
 * runs 1.05x - 1.08x faster, docs/performance.md "The data check of a line nobody
 * writes"). */
#include "hw/core/core_check.h"

#include <stdbool.h>

#include "hw/core/core_value.h"

#define CHECK_LINE 128

/* True if byte value v may be read at vaddr (physical paddr) under expectation e. */
static bool check_byte(const TraceExpect *e, uint32_t kernel, uint64_t vaddr,
                       uint64_t paddr, uint8_t v, FillKind fill)
{
    if (!e->checked) {
        return true;
    }
    if (e->now && v == core_value(vaddr, kernel)) {
        return true;
    }
    return v == (e->written ? core_value(vaddr, e->older) : fill_byte(fill, paddr));
}

/* The bytes of a line no kernel stores to or touches atomically: each must be the
 * memory's initial content, made for the whole range at once (fill.c) and compared
 * in loops without a branch per byte. */
static uint32_t check_fill(uint64_t paddr, const uint8_t *data, uint32_t n,
                           const uint8_t *be, FillKind fill)
{
    uint8_t want[CHECK_LINE];
    fill_bytes(fill, paddr, want, n);
    uint32_t wrong = 0;
    if (be) {
        for (uint32_t j = 0; j < n; j++) {
            wrong += (be[j] != 0) & (data[j] != want[j]);
        }
    } else {
        for (uint32_t j = 0; j < n; j++) {
            wrong += data[j] != want[j];
        }
    }
    return wrong;
}

uint32_t core_check_read(const TraceScan *s, uint32_t kernel, uint64_t vaddr,
                         uint64_t paddr, const uint8_t *data, uint32_t len,
                         const uint8_t *be, FillKind fill)
{
    uint32_t wrong = 0;
    uint32_t i = 0;
    while (i < len) {
        uint64_t v = vaddr + i;
        uint32_t n = CHECK_LINE - (uint32_t)(v % CHECK_LINE);
        n = n < len - i ? n : len - i;
        TraceExpect e[CHECK_LINE];
        if (!trace_scan_expect_line(s, kernel, v, n, e)) {
            wrong += check_fill(paddr + i, data + i, n, be ? be + i : NULL, fill);
            i += n;
            continue;
        }
        for (uint32_t j = 0; j < n; j++) {
            if ((!be || be[i + j]) &&
                !check_byte(&e[j], kernel, v + j, paddr + i + j, data[i + j], fill)) {
                wrong++;
            }
        }
        i += n;
    }
    return wrong;
}
