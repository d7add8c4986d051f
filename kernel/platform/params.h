/* Applying parameter tables: JSON values -> fields of a block's state struct.
 *
 * JSON types are strict per ParamType (see block.h): PT_U64 takes a non-negative JSON
 * integer, PT_BOOL true/false, PT_DOUBLE any JSON number, PT_TIME/PT_BW/PT_FREQ a unit
 * string, PT_SIZE a unit string or an integer number of bytes, PT_ENUM one of the
 * choices (stored as the int index), PT_STRING a string (char *), PT_U64_LIST an array
 * of non-negative integers (U64List). Bounds: min and max (U64, TIME, SIZE, BW, FREQ:
 * the value in base units; U64_LIST: the list length); a table's max 0 stands for the
 * type's maximum below (params_max); PT_DOUBLE bounds apply when dmax > dmin. A ParamDef
 * with def == NULL is required. Messages: "0 is below minimum 1", "5000 is above maximum
 * 4096", "unknown choice \"mru\" (choices: lru, fifo)", "expected true or false, got
 * string". */
#ifndef MGTLM_PARAMS_H
#define MGTLM_PARAMS_H

#include <stdbool.h>

#include <jansson.h>

#include "kernel/block.h"

/* The type maxima: the largest JSON integer; 1 s (so that now + latency cannot come
 * near the end of 64-bit time); 1 PB/s; 1 THz (a 1 ps clock); 65536 list entries.
 * A size may span the 64-bit address space (UINT64_MAX) unless its table says less. */
#define PARAMS_U64_MAX ((uint64_t)INT64_MAX)
#define PARAMS_TIME_MAX ((uint64_t)1000000000000)
#define PARAMS_BW_MAX ((uint64_t)1000000000000000)
#define PARAMS_FREQ_MAX ((uint64_t)1000000000000)
#define PARAMS_LIST_MAX ((uint64_t)65536)

/* The largest value of type t when a table gives no max (UINT64_MAX: none besides the
 * type's storage). */
uint64_t params_type_max(ParamType t);
/* The maximum of d: its table's max, else params_type_max(d->type). */
uint64_t params_max(const ParamDef *d);
/* Parses a wire or fabric latency (a time string; clock_ps for "cycles") into *out,
 * refusing one above PARAMS_TIME_MAX like a time parameter. Errors name no location. */
bool params_parse_latency(const char *s, SimTime clock_ps, SimTime *out, SimError *err);

/* Writes value (or the default when value is NULL) into the field of state described
 * by d. Errors name no location; the caller prefixes file and JSON path. Apply each
 * parameter once per state (a string or list already in the field is not freed). */
bool params_apply(void *state, const ParamDef *d, json_t *value, const PlatformInfo *pi,
                  SimError *err);
/* Releases what params_apply allocated (strings, lists) in state. */
void params_release(void *state, const ParamDef *defs, size_t n);
/* The parameter called key in type t (including the common "buffer"), or NULL. */
const ParamDef *params_find(const BlockType *t, const char *key);
/* Parameter value as JSON in canonical form (for --dump). New reference. */
json_t *params_to_json(const void *state, const ParamDef *d);

/* The common "buffer" parameter every block type has (static). Its field is the
 * uint32_t Block.buffer: apply it to a Block (or to a state struct). */
const ParamDef *params_buffer_def(void);
/* Short type name for documentation: "u64", "bool", "double", "time", "size",
 * "bandwidth", "frequency", "enum", "string", "u64 list" (static). */
const char *params_type_name(ParamType t);
/* Formats a value in base units the way the type prints it ("30ns", "64KiB", "17");
 * buf holds at least 32 bytes; returns buf. */
const char *params_format_base(ParamType t, uint64_t v, char *buf);

#endif
