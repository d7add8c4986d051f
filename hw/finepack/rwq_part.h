/* One partition of the FinePack remote write queue (paper 001 IV-B, SPEC.md 2.1): the
 * stores queued for one destination GPU. Pure data structure, no simulation state.
 *
 * Fully associative entries of FP_LINE (128) bytes: line tag, data, byte enables and,
 * per byte, the id of the store that wrote it last (so a packet can name the stores
 * it carries). Entries keep allocation order. The payload is exact: the sum over
 * entries, over each maximal run of contiguous enabled bytes, of subhdr + run length
 * (SPEC.md 2.1 Decision). Lookup scans the partition's own entries only, so the cost
 * of a store does not depend on the number of GPUs. */
#ifndef MGTLM_HW_FINEPACK_RWQ_PART_H
#define MGTLM_HW_FINEPACK_RWQ_PART_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/finepack/fp_format.h"

typedef struct RwqConfig {
    uint32_t subhdr;      /* sub-header bytes, 2..6 */
    uint32_t offset_bits; /* 8 * subhdr - 10 */
    uint32_t max_payload; /* bytes */
} RwqConfig;

typedef struct RwqEntry {
    uint64_t line;    /* address / FP_LINE */
    uint32_t payload; /* this entry's share of the partition payload */
    uint8_t data[FP_LINE];
    uint8_t be[FP_LINE]; /* 1 = enabled */
    uint64_t writer[FP_LINE];
} RwqEntry;

typedef struct RwqPart {
    RwqEntry *e; /* alloc entries, owned; grows with use up to cap */
    uint32_t cap;
    uint32_t alloc;
    uint32_t n;      /* entries in use: e[0..n) in allocation order */
    uint64_t window; /* address >> offset_bits of every queued byte (when n > 0) */
    uint32_t payload;
    uint32_t stores; /* store pieces inserted since the last clear */
} RwqPart;

/* Why a store piece cannot join a non-empty partition (SPEC.md 2.1 step 1). */
typedef enum RwqFit {
    RWQ_FIT_OK,
    RWQ_FIT_WINDOW,
    RWQ_FIT_ENTRIES,
    RWQ_FIT_PAYLOAD
} RwqFit;

/* A maximal run of enabled bytes inside one entry (pointers borrowed from the entry,
 * valid until the partition changes). */
typedef struct RwqRun {
    uint64_t addr;
    uint32_t len;
    const uint8_t *data;
    const uint64_t *writer;
} RwqRun;

/* Most runs one entry can hold (alternate enabled bytes). */
#define RWQ_RUNS_PER_ENTRY (FP_LINE / 2u)

/* An empty partition of at most cap entries (storage is allocated as entries are
 * used; aborts on OOM like txn_new). */
void rwq_part_init(RwqPart *p, uint32_t cap);
void rwq_part_free(RwqPart *p);

/* A piece is a store's bytes [addr, addr + len) inside one FP_LINE line; be (len
 * bytes, non-zero = enabled) may be NULL for all enabled. RWQ_FIT_OK for an empty
 * partition. */
RwqFit rwq_part_check(const RwqPart *p, const RwqConfig *c, uint64_t addr, uint32_t len,
                      const uint8_t *be);
/* Inserts a piece (data may be NULL: zeros). Returns the number of enabled bytes that
 * overwrote bytes already queued. */
uint32_t rwq_part_insert(RwqPart *p, const RwqConfig *c, uint64_t addr, uint32_t len,
                         const uint8_t *data, const uint8_t *be, uint64_t id);
/* True if any queued byte lies in [addr, addr + len). */
bool rwq_part_overlaps(const RwqPart *p, uint64_t addr, uint32_t len);
/* Writes the runs in packet order (entries in allocation order, runs ascending) into
 * out (room for n * RWQ_RUNS_PER_ENTRY) and returns their count. */
uint32_t rwq_part_runs(const RwqPart *p, RwqRun *out);
/* Empties the partition. */
void rwq_part_clear(RwqPart *p);

#endif
