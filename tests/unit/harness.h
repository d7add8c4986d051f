/* Minimal in-tree unit-test harness.
 *
 *   static void test_something(void) { CHECK(x == 1); CHECK_EQ_U64(a, b); }
 *   int main(void) { RUN(test_something); return harness_report(); }
 *
 * Every CHECK counts one assertion; a test passes if none of its checks failed.
 * harness_report() prints "<n> passed, <m> failed" and returns the exit status. */
#ifndef MGTLM_TEST_HARNESS_H
#define MGTLM_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int harness_failed_checks;
static int harness_passed_tests;
static int harness_failed_tests;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);     \
            harness_failed_checks++;                                                     \
        }                                                                                \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                               \
    do {                                                                                 \
        uint64_t harness_a = (uint64_t)(a), harness_b = (uint64_t)(b);                   \
        if (harness_a != harness_b) {                                                    \
            fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n",      \
                    __FILE__, __LINE__, #a, #b, harness_a, harness_b);                   \
            harness_failed_checks++;                                                     \
        }                                                                                \
    } while (0)

#define CHECK_STR(a, b)                                                                  \
    do {                                                                                 \
        const char *harness_sa = (a), *harness_sb = (b);                                 \
        if (!harness_sa || !harness_sb || strcmp(harness_sa, harness_sb) != 0) {         \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__,      \
                    __LINE__, #a, #b, harness_sa ? harness_sa : "(null)",                \
                    harness_sb ? harness_sb : "(null)");                                 \
            harness_failed_checks++;                                                     \
        }                                                                                \
    } while (0)

#define RUN(fn)                                                                          \
    do {                                                                                 \
        int harness_before = harness_failed_checks;                                      \
        fn();                                                                            \
        if (harness_failed_checks == harness_before) {                                   \
            harness_passed_tests++;                                                      \
        } else {                                                                         \
            fprintf(stderr, "FAIL %s\n", #fn);                                           \
            harness_failed_tests++;                                                      \
        }                                                                                \
    } while (0)

/* Writes text into the file name of folder dir (a check fails when it cannot). */
static inline void harness_write(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static inline int harness_report(void)
{
    printf("%d passed, %d failed\n", harness_passed_tests, harness_failed_tests);
    return harness_failed_tests == 0 ? 0 : 1;
}

#endif
