/* Unit tests of the per-kernel LADM hints file (hw/core/ladm_hints.c): a trace folder
 * of two launches, kernel-1 with a (8, 1, 1) grid and kernel-2 with (2, 4, 1), on 4
 * GPUs; every expected message is the one ladm_hints.h documents. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/core/ladm_hints.h"
#include "tests/unit/harness.h"

static char dir[] = "/tmp/test_ladm_hints_XXXXXX";

static void write_kernel(const char *name, const char *grid)
{
    char text[600];
    snprintf(text, sizeof text,
             "-kernel name = k\n-kernel id = 1\n-grid dim = %s\n"
             "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n"
             "-shmem base_addr = 0x7f4c00000000\n"
             "-local mem base_addr = 0x7f4c02000000\n"
             "-accelsim tracer version = 4\n\n",
             grid);
    harness_write(dir, name, text);
}

/* Loads the hints file holding text (NULL: none) into hints; the result. */
static bool load(const char *text, LadmClass hints[2], SimError *err)
{
    char path[300];
    snprintf(path, sizeof path, "%s/" LADM_HINTS_FILE, dir);
    unlink(path);
    if (text) {
        harness_write(dir, LADM_HINTS_FILE, text);
    }
    CoreKernels ks;
    CHECK(core_kernels_load(dir, &ks, err));
    CHECK_EQ_U64(ks.nkernels, 2);
    bool ok = ladm_hints_load(dir, &ks, 4, hints, err);
    core_kernels_free(&ks);
    return ok;
}

/* err is "<dir>/ladm_hints:<line>: <msg>". */
static void check_error(const char *text, const char *line_msg)
{
    LadmClass hints[2];
    SimError err = {{0}};
    CHECK(!load(text, hints, &err));
    char want[SIM_ERROR_MAX];
    snprintf(want, sizeof want, "%s/" LADM_HINTS_FILE ":%s", dir, line_msg);
    CHECK_STR(err.msg, want);
}

static void test_hints(void)
{
    LadmClass hints[2];
    SimError err = {{0}};
    CHECK(load(NULL, hints, &err));
    CHECK_EQ_U64(hints[0], LADM_UNUSED);
    CHECK_EQ_U64(hints[1], LADM_UNUSED);
    CHECK(load("# GEMM's B is the larger\n\nkernel-2.traceg\trow\n"
               "  kernel-1.traceg  column \n",
               hints, &err));
    CHECK_EQ_U64(hints[0], LADM_COL);
    CHECK_EQ_U64(hints[1], LADM_ROW);
    CHECK(load("kernel-1.traceg itl\n", hints, &err));
    CHECK_EQ_U64(hints[0], LADM_ITL);
    CHECK_EQ_U64(hints[1], LADM_UNUSED);
    CHECK(load("kernel-2.traceg nl\nkernel-1.traceg other\n", hints, &err));
    CHECK_EQ_U64(hints[0], LADM_OTHER);
    CHECK_EQ_U64(hints[1], LADM_NL);
}

static void test_errors(void)
{
    check_error("kernel-1.traceg rows\n",
                "1: unknown class \"rows\" (nl, row, column, itl, other)");
    check_error("# two lines\nkernel-1.traceg\n",
                "2: expected \"<kernel file> <class>\"");
    check_error("kernel-1.traceg nl now\n", "1: expected \"<kernel file> <class>\"");
    check_error("kernel-3.traceg nl\n",
                "1: kernelslist.g launches no \"kernel-3.traceg\"");
    check_error("kernel-1.traceg nl\nkernel-1.traceg itl\n",
                "2: kernel-1.traceg is already hinted on line 1");
    check_error("kernel-1.traceg row\n",
                "1: row needs at least 4 rows of CTAs (kernel-1.traceg has 1)");
    check_error("kernel-2.traceg column\n",
                "1: column needs at least 4 columns of CTAs (kernel-2.traceg has 2)");
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    harness_write(dir, "kernelslist.g",
                  "MemcpyHtoD,0x7f4a00000000,4096\nkernel-1.traceg\n"
                  "kernel-2.traceg\n");
    write_kernel("kernel-1.traceg", "(8,1,1)");
    write_kernel("kernel-2.traceg", "(2,4,1)");
    RUN(test_hints);
    RUN(test_errors);
    const char *names[] = {LADM_HINTS_FILE, "kernelslist.g", "kernel-1.traceg",
                           "kernel-2.traceg"};
    for (size_t i = 0; i < 4; i++) {
        char path[300];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    return harness_report();
}
