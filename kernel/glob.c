/* Glob matching of instance and port names (see glob.h): '*' matches any run (also
 * empty), '?' one character, and "[...]" is ambiguous on purpose: names contain literal
 * brackets ("gpu0.xbar.cu[1]"), so a bracket expression that forms a class matches
 * either one character of the class, or a literal '[' after which the bracket's
 * contents are matched as pattern text (so "cu[*]" matches "cu[12]"); a '[' that does
 * not start a valid class is an ordinary character. Decision: the union rule keeps
 * "cu[1]" and "cu[*]" working on array names while "gpu[0-3].*" still selects GPUs. */
#include "glob.h"

#include <stddef.h>

/* If p starts a class "[...]" (non-empty, closed), returns the position of its ']'. */
static const char *class_end(const char *p)
{
    const char *q = p + 1;
    if (*q == '!' || *q == '^') {
        q++;
    }
    if (*q == ']') {
        q++; /* a leading ']' is a member */
    }
    while (*q && *q != ']') {
        q++;
    }
    return *q == ']' && q > p + 1 ? q : NULL;
}

static bool class_has(const char *p, const char *end, char c)
{
    const char *q = p + 1;
    bool neg = *q == '!' || *q == '^';
    bool hit = false;
    if (neg) {
        q++;
    }
    while (q < end) {
        if (q + 2 < end && q[1] == '-') {
            hit = hit || (c >= q[0] && c <= q[2]);
            q += 3;
        } else {
            hit = hit || c == *q;
            q++;
        }
    }
    return hit != neg;
}

bool glob_match(const char *pattern, const char *name)
{
    const char *p = pattern, *n = name;
    while (*p) {
        if (*p == '*') {
            while (*p == '*') {
                p++;
            }
            for (const char *s = n;; s++) {
                if (glob_match(p, s)) {
                    return true;
                }
                if (!*s) {
                    return false;
                }
            }
        }
        if (*p == '[') {
            const char *end = class_end(p);
            if (end) {
                if (*n == '[' && glob_match(p + 1, n + 1)) {
                    return true;
                }
                return *n && class_has(p, end, *n) && glob_match(end + 1, n + 1);
            }
        }
        if (!*n || (*p != '?' && *p != *n)) {
            return false;
        }
        p++;
        n++;
    }
    return !*n;
}
