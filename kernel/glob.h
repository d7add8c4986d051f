/* The one glob dialect of mgtlm, for every name pattern: `set` keys (instance names),
 * --log-ports, testbench `observe` and serve's log streams (port names). The rules are
 * documented once, in docs/platform-format.md ("Name globs"). */
#ifndef MGTLM_GLOB_H
#define MGTLM_GLOB_H

#include <stdbool.h>

/* True if pattern matches the whole of name: '*' matches any run (also empty, '.'
 * included), '?' one character. A "[...]" that forms a class (non-empty, closed;
 * "[abc]", "[a-z]", negated "[!a-z]" or "[^a-z]") matches either one character of the
 * class or, after a literal '[', the bracket's contents as pattern text, so "cu[1]"
 * matches "cu[1]", "cu[*]" matches "cu[12]" and "gpu[0-3]" matches "gpu2"; any other
 * character, a '[' that starts no class included, matches itself. */
bool glob_match(const char *pattern, const char *name);

#endif
