/* Helpers shared by the benchmark programs: strict decimal arguments, wall time. */
#ifndef MGTLM_BENCH_UTIL_H
#define MGTLM_BENCH_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* Parses a decimal integer in [min, max] (digits only, no sign or trailing text). */
static inline bool bench_parse_u64(const char *s, uint64_t min, uint64_t max,
                                   uint64_t *out)
{
    if (*s < '0' || *s > '9') {
        return false;
    }
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}

/* Monotonic wall time in seconds. */
static inline double bench_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
