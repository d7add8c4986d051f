/* Storage and cost reports for `mgtlm cost`: each block type may describe, by formula
 * from its parameters, the storage it needs (entries x bits per entry) and derived
 * costs such as the time to flush or invalidate it. Reports keep insertion order. */
#ifndef MGTLM_COST_H
#define MGTLM_COST_H

#include <stdint.h>

#include <jansson.h>

#include "simtime.h"

typedef struct CostReport CostReport;

/* A new empty report (owned by the caller). NULL on OOM. */
CostReport *cost_report_new(void);
void cost_report_free(CostReport *r);

/* Storage item of instance `owner`: `entries` entries of `bits_per_entry` bits each.
 * `what` names the structure ("directory", "tags"), doc says what an entry holds. */
void cost_add_storage(CostReport *r, const char *owner, const char *what,
                      uint64_t entries, uint64_t bits_per_entry, const char *doc);
/* A derived time (e.g. "invalidate all lines at 64GB/s"). */
void cost_add_time(CostReport *r, const char *owner, const char *what, SimTime t,
                   const char *doc);

/* {"items":[{"instance","what","entries","bits_per_entry","total_bits","total_bytes",
 *   "doc"} | {"instance","what","time_ps","doc"}], "total_bits", "total_bytes"}
 * (new reference). total_bytes rounds up. */
json_t *cost_report_json(const CostReport *r);
/* Total storage bits over every storage item. */
uint64_t cost_report_total_bits(const CostReport *r);

#endif
