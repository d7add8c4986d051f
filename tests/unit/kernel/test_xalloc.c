/* Unit tests of kernel/xalloc.h: the doubling growth rule (sequence of capacities,
 * contents kept, no reallocation when there is room), zeroed xcalloc, xcalloc_lines
 * on a 64-byte boundary, zeroed up to its last line, and the abort on an impossible
 * size (checked in a child process, for xrealloc_array and xcalloc_lines). */
#include "kernel/xalloc.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/harness.h"

static void test_grow_doubles(void)
{
    uint32_t *v = NULL;
    size_t cap = 0;
    v = xgrow(v, &cap, 1, sizeof *v, 16);
    CHECK_EQ_U64(cap, 16);
    for (uint32_t i = 0; i < 16; i++) {
        v[i] = i * 7;
    }
    uint32_t *same = xgrow(v, &cap, 16, sizeof *v, 16);
    CHECK(same == v);
    CHECK_EQ_U64(cap, 16);
    v = xgrow(v, &cap, 17, sizeof *v, 16);
    CHECK_EQ_U64(cap, 32);
    v = xgrow(v, &cap, 100, sizeof *v, 16);
    CHECK_EQ_U64(cap, 128);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 16; i++) {
        bad += v[i] != i * 7;
    }
    CHECK_EQ_U64(bad, 0);
    free(v);

    char *c = NULL;
    size_t ccap = 0;
    c = xgrow(c, &ccap, 3, 1, 0);
    CHECK_EQ_U64(ccap, 4);
    free(c);
}

static void test_calloc_zeroed(void)
{
    uint64_t *z = xcalloc(64, sizeof *z);
    uint64_t any = 0;
    for (size_t i = 0; i < 64; i++) {
        any |= z[i];
    }
    CHECK_EQ_U64(any, 0);
    z = xrealloc_array(z, 128, sizeof *z);
    z[127] = 5;
    CHECK_EQ_U64(z[127], 5);
    free(z);
    free(xmalloc(0));
    free(xcalloc(0, 8));
}

/* 3 elements of 40 bytes: 120 bytes rounded up to 2 lines, all zero. */
static void test_calloc_lines(void)
{
    for (int round = 0; round < 4; round++) {
        uint8_t *p = xcalloc_lines(3, 40);
        CHECK_EQ_U64((uintptr_t)p % 64, 0);
        uint64_t any = 0;
        for (size_t i = 0; i < 128; i++) {
            any |= p[i];
        }
        CHECK_EQ_U64(any, 0);
        free(p);
    }
    uint8_t *one = xcalloc_lines(0, 8);
    CHECK_EQ_U64((uintptr_t)one % 64, 0);
    free(one);
}

static void check_aborts(int lines)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) {
            _exit(1);
        }
        void *p = lines ? xcalloc_lines(SIZE_MAX / 2, 4)
                        : xrealloc_array(NULL, SIZE_MAX / 2, 4);
        free(p);
        _exit(0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

static void test_overflow_aborts(void)
{
    check_aborts(0);
    check_aborts(1);
}

int main(void)
{
    RUN(test_grow_doubles);
    RUN(test_calloc_zeroed);
    RUN(test_calloc_lines);
    RUN(test_overflow_aborts);
    return harness_report();
}
