/* Transactions after the TLM-2.0 generic payload, with multi-GPU extensions.
 *
 * Pool-allocated per kernel and reference-counted. Ownership rule, at every step:
 * - txn_new*() returns a transaction holding one reference, owned by the caller.
 * - port_send() that succeeds moves the caller's reference into the receiving
 *   port's buffer; port_take() moves it to the taker. A refused send moves nothing.
 * - A block that keeps a transaction after sending it must txn_ref() it first.
 * - txn_unref() drops a reference; the last one returns the transaction to the pool.
 * A response is a new transaction with cmd TXN_RESP and the same id as its request
 * (the id names the logical transaction; req_cmd says what was answered). */
#ifndef MGTLM_TXN_H
#define MGTLM_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

typedef enum TxnCmd {
    TXN_READ,
    TXN_WRITE,
    TXN_ATOMIC,
    TXN_INVALIDATE,
    TXN_RELEASE,
    TXN_KERNEL_BEGIN,
    TXN_KERNEL_END,
    TXN_RESP,
    TXN_DECLARED, /* a command declared outside the kernel: Txn.declared names it */
    TXN_CMD_COUNT
} TxnCmd;

/* A command beyond the TLM generic ones, declared by hardware code as a static const
 * value (DualOpt's `monitor` and `mode`: hw/dualopt/dualopt_cmds.c; the list of all
 * of them: hw/txn_cmds.def, added to a Registry). Its transactions have cmd
 * TXN_DECLARED and `declared` pointing to it (a response to one: req_cmd TXN_DECLARED,
 * same pointer). The kernel keeps no list of them; whoever parses command names
 * passes the registry's (registry_cmds, PlatformInfo.cmds). The generic rules apply:
 * never answered (txn_needs_response), refusable by ports. */
typedef struct TxnCmdDecl {
    const char *name; /* in logs and testbenches; distinct from the generic names */
    const char *doc;
} TxnCmdDecl;

typedef enum TxnStatus {
    TXN_STATUS_INCOMPLETE, /* not answered yet */
    TXN_STATUS_OK,
    TXN_STATUS_ADDRESS_ERROR,
    TXN_STATUS_COMMAND_ERROR,
    TXN_STATUS_GENERIC_ERROR,
    TXN_STATUS_COUNT
} TxnStatus;

/* Bytes stored inside the transaction; longer data/byte-enables go to the heap. */
#define TXN_INLINE_BYTES 128

typedef struct TxnPool TxnPool;

/* One thread of a wavefront memory instruction (DualOpt BGU input). */
typedef struct TxnThread {
    uint64_t addr;
    uint32_t size;
} TxnThread;

/* Layout: what the fabric reads of every transaction it passes (command, address,
 * length, data, the GPUs, the reference count) fills the first 64 bytes, and a
 * transaction starts a cache line (the pool's slabs are aligned): a hop reads one line
 * of it instead of three or four (docs/performance.md, "One line of a transaction"). */
typedef struct Txn {
    _Alignas(64) uint64_t id;
    uint64_t addr;
    uint8_t *data; /* len bytes (address order) or NULL; owned by the txn */
    uint8_t *be;   /* len byte-enable bytes (0 or 0xff) or NULL = all enabled */
    TxnCmd cmd;
    TxnCmd req_cmd; /* for TXN_RESP: the command answered; else == cmd */
    TxnStatus status;
    uint32_t len;  /* bytes addressed */
    int16_t src;   /* requesting GPU */
    int16_t dst;   /* destination GPU on the fabric */
    int16_t unit;  /* requesting unit inside src (e.g. CU index) */
    bool posted;   /* a write that expects no response */
    uint32_t refs; /* references held (txn_ref, txn_unref): do not touch */
    /* extension fields, one member per line of txn_fields.def (0 = not set): those
     * of TXN_FIELD_FIRST here, the others below */
#define TXN_FIELD(name, type, kind, response, doc)
#define TXN_FIELD_FIRST(name, type, kind, response, doc) type name;
#include "txn_fields.def"
#undef TXN_FIELD_FIRST
#undef TXN_FIELD
    const TxnCmdDecl *declared; /* the command when cmd or req_cmd is TXN_DECLARED */
#define TXN_FIELD(name, type, kind, response, doc) type name;
#define TXN_FIELD_FIRST(name, type, kind, response, doc)
#include "txn_fields.def"
#undef TXN_FIELD_FIRST
#undef TXN_FIELD
    uint32_t nparents;  /* ids of the transactions this one coalesces or splits */
    uint64_t *parents;  /* owned by the txn */
    uint32_t nthreads;  /* wavefront threads (BGU input), 0 = not a wavefront */
    TxnThread *threads; /* owned by the txn */
    SimTime born;       /* time of creation (latency statistics) */
    /* pool bookkeeping: do not touch */
    TxnPool *pool;
    struct Txn *next_free;
    uint8_t inline_data[TXN_INLINE_BYTES];
    uint8_t inline_be[TXN_INLINE_BYTES];
} Txn;

/* The first line is full: a member more there (a second TXN_FIELD_FIRST, say) would
 * push one of the fields every hop reads out of it. */
_Static_assert(offsetof(Txn, declared) <= 64, "the first 64 bytes of a Txn are full");

/* The extension fields of txn_fields.def as data, in log order: txn_fields[i] for
 * i < TXN_FIELD_COUNT. Read or write one with txn_field_get / txn_field_set. */
typedef enum TxnFieldKind {
    TXN_FIELD_UINT, /* a decimal integer */
    TXN_FIELD_HEX,  /* a "0x" hex string */
} TxnFieldKind;

typedef struct TxnField {
    const char *name; /* C member and JSON key */
    size_t offset;    /* of the member in Txn */
    size_t size;      /* 4 or 8 bytes */
    uint64_t max;     /* largest value the member holds */
    TxnFieldKind kind;
    bool response; /* copied into a response */
    const char *doc;
} TxnField;

enum {
    TXN_FIELD_COUNT = 0
#define TXN_FIELD(name, type, kind, response, doc) +1
#include "txn_fields.def"
#undef TXN_FIELD
};

extern const TxnField txn_fields[TXN_FIELD_COUNT];

/* The field named name (borrowed, static), or NULL. */
const TxnField *txn_field_find(const char *name);
uint64_t txn_field_get(const Txn *t, const TxnField *f);
/* Stores v (at most f->max) into t's member. */
void txn_field_set(Txn *t, const TxnField *f, uint64_t v);

/* New transaction with a fresh id from the kernel, born now, status INCOMPLETE,
 * src/dst/unit -1, one reference owned by the caller. Never NULL (aborts on OOM). */
Txn *txn_new(Sim *sim, TxnCmd cmd, uint64_t addr, uint32_t len);
/* New response to req: same id, addr, len, src, dst = req->src, unit, and the
 * extension fields marked `response` in txn_fields.def; status OK; req_cmd =
 * req->cmd. Data is not copied. One reference owned by the caller. */
Txn *txn_new_response(Sim *sim, const Txn *req);
/* New transaction of the declared command decl (static, borrowed), as txn_new. */
Txn *txn_new_declared(Sim *sim, const TxnCmdDecl *decl, uint64_t addr, uint32_t len);
/* True if t is a transaction of the declared command decl (not a response to one). */
static inline bool txn_is(const Txn *t, const TxnCmdDecl *decl)
{
    return t->cmd == TXN_DECLARED && t->declared == decl;
}
/* A copy of t in sim's pool: every field (id, birth time and the owned arrays
 * included), one reference owned by the caller; t is only read. How a transaction
 * crosses a cut wire (port.h). */
Txn *txn_copy(Sim *sim, const Txn *t);
Txn *txn_ref(Txn *t);
void txn_unref(Txn *t);

/* Allocates t->data for t->len bytes (zeroed) and returns it; copies src if non-NULL. */
uint8_t *txn_set_data(Txn *t, const uint8_t *src);
/* Allocates t->data for t->len bytes and returns it without zeroing it: for a writer
 * that fills every byte (a CTA message, 0.45 MB for a GEMM block, whose zeroing was
 * 1.7 % of a trace-driven run's instructions). */
uint8_t *txn_fill_data(Txn *t);
/* Allocates t->be for t->len bytes (all disabled) and returns it. */
uint8_t *txn_alloc_be(Txn *t);
/* Sets the parent id list (copied). */
void txn_set_parents(Txn *t, const uint64_t *ids, uint32_t n);
/* Sets the wavefront thread list (copied). */
void txn_set_threads(Txn *t, const TxnThread *threads, uint32_t n);
/* Changes len (drops data and byte enables). */
void txn_set_len(Txn *t, uint32_t len);

/* True for commands that are answered by a response (read, non-posted write,
 * atomic). */
bool txn_needs_response(const Txn *t);
/* True for the answer class that ports never refuse: responses and invalidates
 * (port.h). */
static inline bool txn_always_accepted(const Txn *t)
{
    return t->cmd == TXN_RESP || t->cmd == TXN_INVALIDATE;
}

/* Names used in logs and testbench files: "read", "write", "atomic", "invalidate",
 * "release", "kernel_begin", "kernel_end", "resp" and the names of declared commands;
 * statuses "incomplete", "ok", "address_error", "command_error", "generic_error".
 * txn_cmd_name(TXN_DECLARED) is "declared"; txn_cmd_label / txn_req_label give the
 * name of t's command / of the command it answers, declared ones included. */
const char *txn_cmd_name(TxnCmd cmd);
const char *txn_cmd_label(const Txn *t);
const char *txn_req_label(const Txn *t);
/* A generic command name, or one of the declared commands decls (NULL-terminated,
 * may be NULL): *cmd, and *decl (NULL for a generic one). False if unknown. */
bool txn_cmd_parse(const char *name, const TxnCmdDecl *const *decls, TxnCmd *cmd,
                   const TxnCmdDecl **decl);
const char *txn_status_name(TxnStatus s);
bool txn_status_parse(const char *name, TxnStatus *out);

/* Pool statistics: transactions alive (allocated and not returned). */
size_t txn_pool_live(const TxnPool *pool);
TxnPool *txn_pool_new(void);
/* The calling thread runs the partition whose pool is pool (NULL: one thread runs
 * every partition, the default): until the next claim, a transaction of another pool
 * that it releases goes onto that pool's lock-free return stack instead of its free
 * list, so transactions may cross threads (the partitioned engine moves them over cut
 * wires, engine.c) while each pool's free list stays its owner's. */
void txn_pool_claim(TxnPool *pool);
/* Frees the pool and every transaction in it (alive or not). */
void txn_pool_free(TxnPool *pool);

#endif
