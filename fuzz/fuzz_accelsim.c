/* libFuzzer target for the Accel-Sim kernel trace reader (hw/core/accelsim_*.c): the
 * input is written to a file and read block by block as the cores read it.
 * Properties (abort when broken): a header that opens has a tracer version of 3 to 5
 * and a block of 1 to 1024 threads; every block read lies inside the grid and has the
 * block's warp count; every instruction has a class, at most ATS_MAX_REGS registers
 * each way, and its addresses (width > 0) inside its warp's pool, one per active lane,
 * in instruction order; an error leaves a message that starts with the file's name.
 * A second reader in step with the first peeks at every block, then views the even
 * ones and skips the odd ones: while the first reads blocks, the second peeks at the
 * same coordinates, views an identical block and skips without an error, and both
 * reach the end together. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_file.h"
#include "hw/core/accelsim_read.h"

static char fuzz_path[4200];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_accelsim: %s\n", what);
    abort();
}

static void check_cta(const AtsKernelInfo *k, const AtsCta *cta)
{
    uint64_t threads = (uint64_t)k->block[0] * k->block[1] * k->block[2];
    if (cta->x >= k->grid[0] || cta->y >= k->grid[1] || cta->z >= k->grid[2]) {
        fail("a block outside the grid");
    }
    if (cta->nwarps != (threads + ATS_LANES - 1) / ATS_LANES) {
        fail("a block without the block's warp count");
    }
    for (size_t w = 0; w < cta->nwarps; w++) {
        const AtsWarp *warp = &cta->warps[w];
        size_t next = 0;
        for (size_t i = 0; i < warp->ninst; i++) {
            const AtsInst *in = &warp->inst[i];
            if (in->cls >= ATS_CLASS_COUNT || in->ndst > ATS_MAX_REGS ||
                in->nsrc > ATS_MAX_REGS) {
                fail("an instruction without a class or with too many registers");
            }
            if (in->width == 0) {
                continue;
            }
            if (in->addr_off != next ||
                next + (size_t)__builtin_popcount(in->mask) > warp->naddrs) {
                fail("addresses outside the warp's pool or out of order");
            }
            next += (size_t)__builtin_popcount(in->mask);
        }
        if (next != warp->naddrs) {
            fail("addresses in the pool that no instruction owns");
        }
    }
}

/* The second reader's step for block i (the first reader read cta, or reached the end
 * when got is false). */
static void check_step(AtsReader *r2, size_t i, const AtsCta *cta, bool got)
{
    SimError err = {{0}};
    uint32_t xyz[3];
    bool got2;
    if (!ats_reader_peek(r2, xyz, &got2, &err) || got2 != got) {
        fail("peek disagrees with next");
    }
    if (!got) {
        return;
    }
    if (xyz[0] != cta->x || xyz[1] != cta->y || xyz[2] != cta->z) {
        fail("peek gives other coordinates than next");
    }
    const AtsCta *view = NULL;
    if (i % 2 == 1) {
        if (!ats_reader_skip(r2, &got2, &err) || !got2) {
            fail("skip refuses a block that next reads");
        }
    } else if (!ats_reader_view(r2, &view, &got2, &err) || !got2 ||
               !ats_cta_same(view, cta)) {
        fail("view differs from next");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!fuzz_path[0]) {
        snprintf(fuzz_path, sizeof fuzz_path, "%s/kernel-1.traceg", fuzz_tmpdir());
    }
    fuzz_write_file(fuzz_path, data, size);
    SimError err = {{0}};
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(fuzz_path, &k, &err);
    bool ok = r != NULL;
    AtsReader *r2 = r ? ats_reader_open(fuzz_path, &k, &err) : NULL;
    if (r && !r2) {
        fail("a file that opens once does not open twice");
    }
    if (r) {
        uint64_t threads = (uint64_t)k.block[0] * k.block[1] * k.block[2];
        if (k.tracer_version < 3 || k.tracer_version > 5 || threads < 1 ||
            threads > 1024) {
            fail("a header accepted with a bad version or block");
        }
        AtsCta cta;
        bool got;
        size_t i = 0;
        while ((ok = ats_reader_next(r, &cta, &got, &err)) && got) {
            check_cta(&k, &cta);
            check_step(r2, i++, &cta, true);
            ats_cta_free(&cta);
        }
        if (ok) {
            check_step(r2, i, NULL, false);
        }
        ats_reader_close(r);
        ats_reader_close(r2);
    }
    if (!ok && strncmp(err.msg, fuzz_path, strlen(fuzz_path)) != 0) {
        fail("an error message that does not name the file");
    }
    return 0;
}
