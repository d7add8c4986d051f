/* Allocation that aborts on exhaustion, and the doubling growth rule (see xalloc.h). */
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xalloc_check(void *p)
{
    if (!p) {
        fprintf(stderr, "mgtlm: out of host memory\n");
        abort();
    }
    return p;
}

void *xmalloc(size_t size)
{
    return xalloc_check(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
    return xalloc_check(calloc(n ? n : 1, size ? size : 1));
}

void *xcalloc_lines(size_t n, size_t size)
{
    if (size != 0 && n > (SIZE_MAX - 63) / size) {
        return xalloc_check(NULL);
    }
    size_t bytes = (n * size + 63) / 64 * 64;
    void *p = xalloc_check(aligned_alloc(64, bytes ? bytes : 64));
    memset(p, 0, bytes ? bytes : 64);
    return p;
}

void *xrealloc_array(void *p, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) {
        return xalloc_check(NULL);
    }
    size_t bytes = n * size;
    return xalloc_check(realloc(p, bytes ? bytes : 1));
}

void *xgrow(void *arr, size_t *cap, size_t need, size_t elem, size_t min)
{
    if (*cap >= need) {
        return arr;
    }
    size_t c = *cap ? *cap : min ? min : 1;
    while (c < need) {
        if (c > SIZE_MAX / 2) {
            return xalloc_check(NULL);
        }
        c *= 2;
    }
    arr = xrealloc_array(arr, c, elem);
    *cap = c;
    return arr;
}
