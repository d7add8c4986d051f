/* Command-line `--set instance.param=value` handling shared by the subcommands. */
#ifndef MGTLM_CLI_SET_H
#define MGTLM_CLI_SET_H

#include <stdbool.h>

#include <jansson.h>

#include "kernel/error.h"

/* Adds "key=value" to sets (a JSON object). The value is parsed as JSON when it is
 * valid JSON (numbers, true/false, quoted strings, arrays), else taken as a string.
 * Fails on a missing '=' or an empty key. */
bool cli_set_add(json_t *sets, const char *arg, SimError *err);
/* `--trace DIR`: adds "trace": DIR (a string, as given) to sets. */
bool cli_set_trace(json_t *sets, const char *dir, SimError *err);

#endif
