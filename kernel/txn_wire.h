/* Transactions as bytes: how a transaction crosses between processes (MPI ranks,
 * docs/parallel.md "MPI"). The encoding holds every field a receiver sees: id,
 * commands (a declared command by its name), status, address, length, src, dst,
 * unit, posted, birth time, every extension field of txn_fields.def, the data and
 * byte-enable bytes, the parent ids and the wavefront threads. Pool bookkeeping
 * (references, pool) is not sent.
 *
 * Decisions:
 * - Fixed-width fields in the host's byte order: the ranks of one run are the same
 *   binary on machines of the same architecture (mpirun starts one program).
 * - A declared command travels by name, not by pointer: each process has its own
 *   address space (ASLR, plug-ins), and the receiver looks the name up in its own
 *   list of declared commands. */
#ifndef MGTLM_TXN_WIRE_H
#define MGTLM_TXN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "txn.h"

/* A growable byte buffer. */
typedef struct TxnWireBuf {
    uint8_t *b; /* owned */
    size_t n, cap;
} TxnWireBuf;

/* Appends n bytes of src. */
void txn_wire_bytes(TxnWireBuf *w, const void *src, size_t n);
/* Appends a 32-bit and a 64-bit value. */
void txn_wire_u32(TxnWireBuf *w, uint32_t v);
void txn_wire_u64(TxnWireBuf *w, uint64_t v);
/* Appends the encoding of t (only read). */
void txn_wire_put(TxnWireBuf *w, const Txn *t);
/* Frees the storage (the buffer is then empty). */
void txn_wire_free(TxnWireBuf *w);

/* Reading side: len bytes at b (borrowed), read from pos. */
typedef struct TxnWireIn {
    const uint8_t *b;
    size_t len, pos;
} TxnWireIn;

/* Reads n bytes into dst; false if fewer are left. */
bool txn_wire_read(TxnWireIn *in, void *dst, size_t n);
/* Decodes one transaction written by txn_wire_put into a new transaction of sim's
 * pool (one reference owned by the caller; the kernel's id counter is not touched).
 * decls (NULL-terminated, may be NULL) are the declared commands a name may give.
 * NULL with err set on a truncated buffer or an unknown command name. */
Txn *txn_wire_get(TxnWireIn *in, Sim *sim, const TxnCmdDecl *const *decls, SimError *err);

#endif
