/* Parsing of driver stimulus entries (internal to hw/tb/driver.c). */
#ifndef MGTLM_HW_TB_DRIVER_STIMULUS_H
#define MGTLM_HW_TB_DRIVER_STIMULUS_H

#include <jansson.h>

#include "kernel/block.h"
#include "kernel/txn.h"

/* The largest `len` (and `data`) of a stimulus entry, in bytes. */
#define DRIVER_LEN_MAX (1u << 20)

typedef struct DriverEntry {
    SimTime t; /* absolute send time */
    TxnCmd cmd;
    TxnCmd req_cmd;             /* for resp */
    const TxnCmdDecl *declared; /* cmd or req_cmd TXN_DECLARED: which (static) */
    TxnStatus status;           /* for resp */
    uint64_t addr;
    uint32_t len;
    uint8_t *data; /* len bytes or NULL, owned */
    uint8_t *be;   /* len bytes (0 or 0xff) or NULL, owned */
    int16_t src, dst, unit;
    bool posted;
    uint64_t ext[TXN_FIELD_COUNT]; /* extension fields, txn_fields[] order */
    bool has_id;
    uint64_t id;
    TxnThread *threads; /* nthreads wavefront threads or NULL, owned */
    uint32_t nthreads;
} DriverEntry;

/* Parses stimulus (a JSON array) into *out (new array of *n entries, owned by the
 * caller; free with driver_entries_free). Times with units use clock_ps for
 * "cycles"; a cmd may be generic or one of cmds (the declared commands of the
 * platform's registry, PlatformInfo.cmds; NULL = none). Errors name origin +
 * "/<index>/<key>". */
bool driver_entries_parse(json_t *stimulus, const char *origin, SimTime clock_ps,
                          const TxnCmdDecl *const *cmds, DriverEntry **out, size_t *n,
                          SimError *err);
void driver_entries_free(DriverEntry *v, size_t n);
/* A new transaction (one reference, owned by the caller) carrying every field of e;
 * used by the testbench driver and by `mgtlm serve` injection. */
Txn *driver_entry_txn(Sim *sim, const DriverEntry *e);

#endif
