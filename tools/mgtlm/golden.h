/* Golden vectors: JSON Lines files of expected records (the log record schema of
 * kernel/trace/trace.h) and their comparison with observed records.
 *
 * Only the fields present in a golden record are compared. Hex-number fields (addr,
 * be, mask, sharers) compare numerically, data byte-wise and case-insensitively;
 * an observed record without an optional field has its default (src/dst/unit -1,
 * posted false, the extension fields of kernel/txn_fields.def 0, parent []).
 * Modes: exact (same order, and t compared), order (same order, t ignored), set (any
 * order, t ignored; a one-to-one assignment of observed to golden records is
 * searched, so overlapping partial records are matched correctly). In every mode the
 * number of records must be equal. */
#ifndef MGTLM_GOLDEN_H
#define MGTLM_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "kernel/error.h"
#include "kernel/txn.h"

typedef enum GoldenMode { GOLDEN_EXACT, GOLDEN_ORDER, GOLDEN_SET } GoldenMode;

/* "exact", "order", "set". */
bool golden_mode_parse(const char *name, GoldenMode *out);
const char *golden_mode_name(GoldenMode mode);

typedef struct Golden {
    char *path;      /* owned copy of the file name */
    json_t *records; /* array of record objects (owned reference) */
    size_t *lines;   /* file line of each record (owned) */
} Golden;

/* Reads a golden file: one record per line, blank lines ignored. Errors name the
 * file, line and key: "vectors/x.jsonl:4: /addr: expected a \"0x\" hex string". On
 * success fills *out (free with golden_free). cmds: the declared commands a record's
 * cmd/req may name besides the generic ones (registry_cmds; NULL = none). */
bool golden_load(const char *path, const TxnCmdDecl *const *cmds, Golden *out,
                 SimError *err);
void golden_free(Golden *g);

/* Checks the keys and value types of one golden record; the message names the key
 * ("/addr: ..."); cmds as for golden_load. */
bool golden_record_check(json_t *rec, const TxnCmdDecl *const *cmds, SimError *err);

/* True if golden value gv of field key matches observed value ov (NULL when the
 * observed record lacks the field: its default applies, if the field has one). */
bool golden_field_match(const char *key, const json_t *gv, const json_t *ov);

/* True if every field of golden (t only when with_time) matches observed. */
bool golden_record_match(const json_t *golden, const json_t *observed, bool with_time);

/* The outcome of a comparison. On a mismatch, golden_index / observed_index name the
 * records shown side by side (SIZE_MAX for "none": a missing or extra record). */
typedef struct GoldenResult {
    bool match;
    size_t golden_index;
    size_t observed_index;
    size_t matched; /* records matched (in order modes: the common prefix) */
} GoldenResult;

/* Compares observed (array of records, borrowed) with g in mode. */
GoldenResult golden_compare(const Golden *g, const json_t *observed, GoldenMode mode);

/* Prints the mismatch of r: a headline and the two records side by side, one field
 * per row, differing fields marked '*'. */
void golden_print_diff(FILE *f, const Golden *g, const json_t *observed, GoldenMode mode,
                       const GoldenResult *r);

#endif
