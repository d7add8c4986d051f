/* The state machine shared by the three coherence directories of SPEC.md 3.1
 * (REC paper 003): a set-associative array of entries, each tracking `range` bytes
 * (`lines` lines of `line` bytes) of the home GPU's memory.
 *
 * Entry layout (REC, SPEC 3.1): per line index i a group of N bits (N = GPUs):
 * bit 0 = position (line tracked), bits 1..N-1 = sharer slots of the other GPUs in
 * ascending id, skipping the home. The baseline directory is the same with one line
 * per entry. HMG (`shared_vector`) keeps one group for the whole entry: its position
 * bit means "some line of the range is shared" and a write to any line of the entry
 * invalidates all of its lines at every sharer but the writer.
 *
 * Invalidates are reported through a callback, one per (line, sharer), in ascending
 * line then ascending GPU order. No hardware state lives outside DirCore, so the unit
 * tests drive it without a simulation kernel. */
#ifndef MGTLM_HW_COHERENCE_DIR_CORE_H
#define MGTLM_HW_COHERENCE_DIR_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/stats.h"

typedef enum DirRepl { DIR_REPL_LRU, DIR_REPL_FIFO } DirRepl;

/* Why an invalidate is sent. */
typedef enum DirCause { DIR_CAUSE_WRITE, DIR_CAUSE_EVICT } DirCause;

/* Called for each invalidate: line address, target GPU, cause. */
typedef void (*DirInvFn)(void *ctx, uint64_t line_addr, int gpu, DirCause cause);

typedef struct DirEntry {
    uint64_t base;  /* addr >> log2(range) */
    uint64_t stamp; /* LRU: last use; FIFO: allocation */
    bool valid;
} DirEntry;

typedef struct DirConfig {
    uint32_t entries, ways; /* entries % ways == 0 */
    uint32_t range, line;   /* powers of two, range >= line */
    uint32_t gpus;          /* N, 2..32 */
    int home;               /* the GPU whose memory is tracked */
    bool shared_vector;     /* HMG: one sharer group per entry */
    DirRepl repl;
} DirConfig;

typedef struct DirCore {
    DirConfig c;
    uint32_t sets, lines, groups; /* groups per entry: lines, or 1 (HMG) */
    uint32_t range_shift, line_shift;
    DirEntry *e;    /* sets x ways, owned */
    uint32_t *g;    /* sets x ways x groups, owned */
    uint64_t clock; /* stamp source */
    DirInvFn inv;   /* borrowed */
    void *ctx;
    StatHist *coalesced; /* optional (borrowed): valid positions per evicted entry */
    uint64_t allocations, evictions, inv_write, inv_evict;
} DirCore;

/* Sets d up (allocates the arrays). False with a message on a bad configuration or
 * OOM. */
bool dir_core_init(DirCore *d, const DirConfig *c, DirInvFn inv, void *ctx, char *msg,
                   size_t msg_len);
void dir_core_free(DirCore *d);
/* Forgets every entry and counter. */
void dir_core_clear(DirCore *d);

/* SPEC 3.1 actions for the line holding addr; s is the requesting GPU. */
void dir_core_remote_read(DirCore *d, uint64_t addr, int s);
void dir_core_local_write(DirCore *d, uint64_t addr);
void dir_core_remote_write(DirCore *d, uint64_t addr, int s);

/* Sharer slot (1..N-1) of GPU g (g != home), and back. */
uint32_t dir_core_slot(const DirCore *d, int g);
int dir_core_slot_gpu(const DirCore *d, uint32_t slot);

/* Inspection (tests, end-of-run stats): the group of the line holding addr
 * (0 if not tracked), valid entries, valid positions over all entries. */
uint32_t dir_core_group(const DirCore *d, uint64_t addr);
uint64_t dir_core_valid_entries(const DirCore *d);
uint64_t dir_core_positions(const DirCore *d);

/* Bits per entry by the SPEC 3.2 formula: base bits (48 - log2(range), or 48 for a
 * one-line baseline entry), per group 1 position bit (none for baseline and HMG)
 * plus N-1 sharer bits, plus a valid bit. */
uint64_t dir_core_entry_bits(uint32_t range, uint32_t line, uint32_t gpus,
                             bool shared_vector);

#endif
