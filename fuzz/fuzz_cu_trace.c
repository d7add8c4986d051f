/* libFuzzer target for the cu trace reader (hw/workload/cu_trace.c): the input is
 * written to a file and read the two ways the cu does, the validation pass and the
 * record stream, wavefronts going through the coalescer. Properties (abort when
 * broken): both ways agree on whether the file is good, every record read respects
 * the documented bounds (size 1..CU_TRACE_MAX_SIZE, bytes below the address limit,
 * times never decreasing), and the coalescer covers every byte of every thread. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "hw/workload/cu_trace.h"

#define FUZZ_CLOCK 1000       /* ps: 1 GHz, for "cycles" */
#define FUZZ_LIMIT (1u << 20) /* address limit */
#define FUZZ_LINE 64

static char fuzz_path[4200];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_cu_trace: %s\n", what);
    abort();
}

/* Every byte of every thread lies in a coalesced line with its mask bit set. */
static void check_coalesced(const CuLines *l, const CuTraceRec *r)
{
    for (size_t t = 0; t < r->nthreads; t++) {
        for (uint32_t b = 0; b < r->threads[t].size; b++) {
            uint64_t a = r->threads[t].addr + b;
            size_t k = 0;
            while (k < l->n && l->addr[k] != a - a % FUZZ_LINE) {
                k++;
            }
            if (k == l->n || l->be[k * FUZZ_LINE + a % FUZZ_LINE] != 0xff) {
                fail("a thread byte is missing from the coalesced lines");
            }
        }
    }
}

static void check_record(const CuTraceRec *r, SimTime *prev)
{
    if (r->t < *prev) {
        fail("record time went backwards");
    }
    *prev = r->t;
    bool sized = (r->op == CU_OP_READ || r->op == CU_OP_WRITE || r->op == CU_OP_ATOMIC) &&
                 r->nthreads == 0;
    if (sized &&
        (r->size == 0 || r->size > CU_TRACE_MAX_SIZE || r->addr + r->size > FUZZ_LIMIT)) {
        fail("record size or address out of bounds");
    }
    for (size_t t = 0; t < r->nthreads; t++) {
        if (r->threads[t].size == 0 || r->threads[t].size > FUZZ_LINE ||
            r->threads[t].addr + r->threads[t].size > FUZZ_LIMIT) {
            fail("thread size or address out of bounds");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz_path[0]) {
        snprintf(fuzz_path, sizeof fuzz_path, "%s/trace.jsonl", fuzz_tmpdir());
    }
    fuzz_write_file(fuzz_path, data, size);
    SimError err;
    bool valid = cu_trace_validate(fuzz_path, FUZZ_CLOCK, FUZZ_LIMIT, FUZZ_LINE, &err);
    CuTrace tr = {0};
    CuLines lines = {0};
    CuTraceRec rec;
    SimTime prev = 0;
    int rc = -1;
    if (cu_trace_open(&tr, fuzz_path, FUZZ_CLOCK, FUZZ_LIMIT, FUZZ_LINE, &err)) {
        while ((rc = cu_trace_next(&tr, &rec, &err)) == 1) {
            check_record(&rec, &prev);
            if (rec.nthreads) {
                cu_coalesce(&lines, FUZZ_LINE, rec.threads, rec.nthreads);
                check_coalesced(&lines, &rec);
            }
        }
    }
    cu_trace_close(&tr);
    cu_lines_free(&lines);
    if (valid != (rc == 0)) {
        fail("the validation pass and the record stream disagree");
    }
    return 0;
}
