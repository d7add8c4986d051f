/* --threads N (see cli_threads.h). */
#include "cli_threads.h"

#include <stdlib.h>

bool cli_threads_parse(const char *val, unsigned *out, SimError *err)
{
    char *end;
    unsigned long n = strtoul(val, &end, 10);
    if (end == val || *end || val[0] == '-' || val[0] == '+' || n < 1 ||
        n > CLI_THREADS_MAX) {
        return sim_error_set(err, "--threads %s: expected a number from 1 to %d", val,
                             CLI_THREADS_MAX);
    }
    *out = (unsigned)n;
    return true;
}
