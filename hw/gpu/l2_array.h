/* The tag/data array of the L2: set-associative, LRU, per-byte valid and dirty
 * masks (lines up to L2A_MAX_LINE bytes). Pure data structure, no simulation kernel,
 * so unit tests drive it directly. Set index (l2a_set) of line n = line address / line:
 * - L2A_MODULO (the default): n mod sets;
 * - L2A_XOR: the XOR of n's consecutive log2(sets)-bit fields, lowest first (n's
 *   upper bits folded onto the set bits), for a power-of-two set count. Lines whose
 *   line numbers differ only below bit log2(sets) still get distinct sets (the fold
 *   of the upper bits is a constant XORed onto the low field), so a contiguous range
 *   fills the sets evenly as under modulo; a stride of 2^k lines, which modulo maps
 *   onto 1 / 2^k of the sets, is spread by the upper bits that it changes. The
 *   tag stays the whole line address, so a lookup is exact under either index.
 * A compact copy of the tags (`tag`: the address of a valid way, L2A_NO_TAG for an
 * invalid one) makes a lookup read one 8-byte word per way instead of the whole line
 * record: change a way's address or validity only through l2a_fill and l2a_drop. */
#ifndef MGTLM_HW_GPU_L2_ARRAY_H
#define MGTLM_HW_GPU_L2_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define L2A_MAX_LINE 128
#define L2A_MASK_WORDS (L2A_MAX_LINE / 64)

typedef struct L2Line {
    uint64_t addr;  /* line address */
    uint64_t stamp; /* last use */
    bool valid;
    uint64_t vmask[L2A_MASK_WORDS]; /* bytes holding data */
    uint64_t dmask[L2A_MASK_WORDS]; /* bytes newer than memory */
} L2Line;

/* tag[] of an invalid way (never a line address: those are multiples of line). */
#define L2A_NO_TAG UINT64_MAX

/* Set index functions (see above). */
typedef enum L2Index { L2A_MODULO, L2A_XOR } L2Index;

typedef struct L2Array {
    uint32_t sets, ways, line;
    L2Index index;     /* L2A_MODULO after l2a_init */
    unsigned set_bits; /* log2(sets) under L2A_XOR */
    L2Line *l;         /* sets x ways, owned */
    uint64_t *tag;     /* sets x ways: l[i].addr if l[i].valid, else L2A_NO_TAG; owned */
    uint8_t *data;     /* sets x ways x line bytes, owned */
    uint64_t clock;
} L2Array;

/* Sets a up for size bytes; false with a message on a bad geometry or OOM. */
bool l2a_init(L2Array *a, uint64_t size, uint32_t ways, uint32_t line, char *msg,
              size_t msg_len);
void l2a_free(L2Array *a);
/* Selects the set index function of a (before any fill); false with a message if
 * index is L2A_XOR and the set count is not a power of two. */
bool l2a_set_index(L2Array *a, L2Index index, char *msg, size_t msg_len);
/* The set of line_addr under a's index function. */
size_t l2a_set(const L2Array *a, uint64_t line_addr);
void l2a_clear(L2Array *a);

/* Way index of the valid line holding line_addr, or -1. */
long l2a_find(const L2Array *a, uint64_t line_addr);
/* The way line_addr would replace: the lowest invalid way of its set, else the least
 * recently used one. */
size_t l2a_victim(const L2Array *a, uint64_t line_addr);
/* Way i now holds line_addr: valid, masks clear, most recently used. */
void l2a_fill(L2Array *a, size_t i, uint64_t line_addr);
/* Way i no longer holds a line. */
void l2a_drop(L2Array *a, size_t i);
/* Marks way i most recently used. */
void l2a_touch(L2Array *a, size_t i);
/* The line bytes of way i (borrowed). */
uint8_t *l2a_data(const L2Array *a, size_t i);

/* Byte masks: set bytes [off, off + len); true if all of them are set; true if any
 * byte is set; the state of byte i. */
void l2m_set(uint64_t *m, uint32_t off, uint32_t len);
bool l2m_all(const uint64_t *m, uint32_t off, uint32_t len);
bool l2m_any(const uint64_t *m);
bool l2m_bit(const uint64_t *m, uint32_t i);

#endif
