/* The de-coalescer's record of this GPU's outstanding fine-grained remote reads
 * (DualOpt CoDec, SPEC.md 1.4). A coalesced entry carries only 4 data bytes and a
 * 2 B response id; the requester rebuilds each response from its own record of the
 * request (address, length, mask, unit), filled word by word as entries arrive.
 * Records are found by full id and by response id (low 16 bits of the id); lookups
 * are keyed by id values only (no dependence on pointer values). */
#ifndef MGTLM_HW_DUALOPT_CODEC_TRACK_H
#define MGTLM_HW_DUALOPT_CODEC_TRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/idmap.h"
#include "kernel/txn.h"

#define CODEC_LINE_BYTES 64
#define CODEC_WORDS 16

typedef struct CodecReq {
    uint64_t id, addr;
    uint32_t len, mask;
    uint32_t got; /* words received so far */
    int16_t src, unit;
    bool tagged; /* reachable by its response id (false after a clash) */
    uint8_t line[CODEC_LINE_BYTES]; /* received words at their offset in the line */
} CodecReq;

typedef struct CodecTrack {
    CodecReq *rec;  /* owned, cap records */
    uint32_t *free; /* owned stack of free record indices */
    uint32_t cap, nfree;
    IdMap by_id, by_tag;
} CodecTrack;

/* True if t is a fine-grained access: mask non-zero within 16 bits and every masked
 * 4 B word of t's 64 B line inside [addr, addr + len). */
bool codec_is_fine(const Txn *t);

/* An empty tracker needs no allocation: `CodecTrack k = {0};`. */
void codec_track_destroy(CodecTrack *k);
/* Records the fine-grained read req. False if its id is already recorded (nothing
 * changes). *clash is set when another record holds the same response id: the new
 * record is then found by full id only. Aborts if memory is exhausted. */
bool codec_track_add(CodecTrack *k, const Txn *req, bool *clash);
/* Record by response id / by full id (borrowed), NULL if none. */
CodecReq *codec_track_by_tag(CodecTrack *k, uint16_t tag);
CodecReq *codec_track_by_id(CodecTrack *k, uint64_t id);
/* Forgets r (which must be a record of k). */
void codec_track_remove(CodecTrack *k, CodecReq *r);
uint32_t codec_track_count(const CodecTrack *k);

#endif
