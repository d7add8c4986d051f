/* Unit tests of reading a kernel trace in two steps (hw/core/accelsim_read.h:
 * ats_reader_next_id, then ats_reader_body or ats_reader_skip), on the reader's test
 * traces of tests/accelsim/traces (working directory: the source root): ids in file
 * order, a block read after a skipped one equal to the same block read by
 * ats_reader_next, "#END_TB" with trailing blanks, and a skip that runs into the end
 * of the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/core/accelsim_read.h"
#include "tests/unit/harness.h"

#define V3 "tests/accelsim/traces/v3-list/kernel-1.traceg"
#define V4 "tests/accelsim/traces/v4-lineinfo/kernel-1.traceg"

static bool same_cta(const AtsCta *a, const AtsCta *b)
{
    if (a->x != b->x || a->y != b->y || a->z != b->z || a->nwarps != b->nwarps) {
        return false;
    }
    for (size_t w = 0; w < a->nwarps; w++) {
        const AtsWarp *p = &a->warps[w], *q = &b->warps[w];
        if (p->ninst != q->ninst || p->naddrs != q->naddrs ||
            (p->ninst && memcmp(p->inst, q->inst, p->ninst * sizeof *p->inst) != 0) ||
            (p->naddrs &&
             memcmp(p->addrs, q->addrs, p->naddrs * sizeof *p->addrs) != 0)) {
            return false;
        }
    }
    return true;
}

/* The second block of path, by ats_reader_next twice (the first freed). */
static bool second_block(const char *path, AtsCta *cta)
{
    SimError err;
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(path, &k, &err);
    bool got = false;
    bool ok = r && ats_reader_next(r, cta, &got, &err) && got;
    if (ok) {
        ats_cta_free(cta);
        ok = ats_reader_next(r, cta, &got, &err) && got;
    }
    ats_reader_close(r);
    return ok;
}

/* v3-list lists blocks 0,0,0 and 1,0,0; v4-lineinfo 0,1,0 and 0,0,0 (its blocks end
 * in "#END_TB" and "#END_TB  "). Skipping the first and reading the second gives what
 * ats_reader_next gives; then the end of the file. */
static void test_skip_then_body(void)
{
    const char *paths[] = {V3, V4};
    const uint32_t first[2][3] = {{0, 0, 0}, {0, 1, 0}};
    const uint32_t second[2][3] = {{1, 0, 0}, {0, 0, 0}};
    for (int f = 0; f < 2; f++) {
        SimError err;
        AtsKernelInfo k;
        AtsReader *r = ats_reader_open(paths[f], &k, &err);
        CHECK(r != NULL);
        if (!r) {
            continue;
        }
        uint32_t id[3];
        bool got = false;
        CHECK(ats_reader_next_id(r, id, &got, &err) && got);
        CHECK(memcmp(id, first[f], sizeof id) == 0);
        CHECK(ats_reader_skip(r, &err));
        CHECK(ats_reader_next_id(r, id, &got, &err) && got);
        CHECK(memcmp(id, second[f], sizeof id) == 0);
        AtsCta a, b;
        CHECK(ats_reader_body(r, id, &a, &err));
        CHECK(second_block(paths[f], &b));
        CHECK(same_cta(&a, &b));
        ats_cta_free(&a);
        ats_cta_free(&b);
        CHECK(ats_reader_next_id(r, id, &got, &err) && !got);
        ats_reader_close(r);
    }
}

/* Skipping both blocks of v4-lineinfo (the second ends in "#END_TB  ") reaches the
 * end of the file; a file cut inside a block fails the skip naming its last line. */
static void test_skip_to_end(void)
{
    SimError err;
    AtsKernelInfo k;
    AtsReader *r = ats_reader_open(V4, &k, &err);
    CHECK(r != NULL);
    uint32_t id[3];
    bool got = false;
    for (int i = 0; i < 2 && r; i++) {
        CHECK(ats_reader_next_id(r, id, &got, &err) && got);
        CHECK(ats_reader_skip(r, &err));
    }
    CHECK(r && ats_reader_next_id(r, id, &got, &err) && !got);
    ats_reader_close(r);

    char path[] = "/tmp/test_accelsim_skip_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    FILE *src = fopen(V3, "r");
    char line[512];
    for (int n = 0; n < 24 && src && f && fgets(line, sizeof line, src); n++) {
        fputs(line, f); /* the header, #BEGIN_TB, the id and the first lines */
    }
    if (src) {
        fclose(src);
    }
    if (f) {
        fclose(f);
    }
    r = ats_reader_open(path, &k, &err);
    CHECK(r != NULL);
    CHECK(r && ats_reader_next_id(r, id, &got, &err) && got);
    CHECK(r && !ats_reader_skip(r, &err));
    char want[128];
    snprintf(want, sizeof want, "%s:24: end of file before #END_TB", path);
    CHECK_STR(err.msg, want);
    ats_reader_close(r);
    unlink(path);
}

int main(void)
{
    RUN(test_skip_then_body);
    RUN(test_skip_to_end);
    return harness_report();
}
