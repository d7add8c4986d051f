/* Printing a platform's flat form (platform_dump) the way `mgtlm validate --dump`
 * shows it: one top-level key per line, one instance or wire per line. The text is
 * itself a valid platform file. */
#ifndef MGTLM_FLAT_PRINT_H
#define MGTLM_FLAT_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* Prints dump (borrowed) to f. */
void flat_print(FILE *f, json_t *dump);

#endif
