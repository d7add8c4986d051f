/* The IMST table of SPEC.md 4.3, all 16 cells, written out independently here. */
#include "hw/carve/imst_table.h"
#include "tests/unit/harness.h"

typedef struct Cell {
    ImstState from;
    bool local, write;
    ImstState to;
    bool inv, demote;
} Cell;

static const Cell cells[] = {
    {IMST_UNCACHED, true, false, IMST_PRIVATE, false, false},
    {IMST_UNCACHED, true, true, IMST_PRIVATE, false, false},
    {IMST_UNCACHED, false, false, IMST_READ_SHARED, false, false},
    {IMST_UNCACHED, false, true, IMST_RW_SHARED, false, false},
    {IMST_PRIVATE, true, false, IMST_PRIVATE, false, false},
    {IMST_PRIVATE, true, true, IMST_PRIVATE, false, false},
    {IMST_PRIVATE, false, false, IMST_READ_SHARED, false, false},
    {IMST_PRIVATE, false, true, IMST_RW_SHARED, false, false},
    {IMST_READ_SHARED, true, false, IMST_READ_SHARED, false, false},
    {IMST_READ_SHARED, true, true, IMST_RW_SHARED, true, false},
    {IMST_READ_SHARED, false, false, IMST_READ_SHARED, false, false},
    {IMST_READ_SHARED, false, true, IMST_RW_SHARED, true, false},
    {IMST_RW_SHARED, true, false, IMST_RW_SHARED, false, false},
    {IMST_RW_SHARED, true, true, IMST_RW_SHARED, true, true},
    {IMST_RW_SHARED, false, false, IMST_RW_SHARED, false, false},
    {IMST_RW_SHARED, false, true, IMST_RW_SHARED, true, false},
};

static void test_all_cells(void)
{
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        const Cell *c = &cells[i];
        ImstStep s = imst_step(c->from, c->local, c->write);
        if (s.next != c->to || s.invalidate != c->inv || s.may_demote != c->demote) {
            fprintf(stderr, "cell %zu differs\n", i);
            CHECK(false);
        }
    }
}

int main(void)
{
    RUN(test_all_cells);
    return harness_report();
}
