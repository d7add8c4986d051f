/* Initial memory content, shared by the memory block (what it holds before a byte is
 * written) and the cu block (what it expects to read back). Pure functions, no state.
 *
 * FILL_ZERO: every byte is 0.
 * FILL_HASH: the byte at physical address a is the low 8 bits of fill_mix(a), a fixed
 * 64-bit mixing function (the splitmix64 finaliser applied to a). Every byte of every
 * GPU's memory has a distinct-looking, address-dependent value, so a read that returns
 * the bytes of a wrong address is caught. tools/ref/fill_hash.py computes the same
 * values independently for golden vectors. */
#ifndef MGTLM_HW_LIB_FILL_H
#define MGTLM_HW_LIB_FILL_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/bits.h"

typedef enum FillKind { FILL_ZERO, FILL_HASH } FillKind;

/* Choices for a PT_ENUM "fill" parameter, in FillKind order (NULL-terminated). */
#define FILL_CHOICES                                                                     \
    {                                                                                    \
        "zero", "hash", NULL                                                             \
    }

static inline uint64_t fill_mix(uint64_t a)
{
    return bits_mix64(a);
}

static inline uint8_t fill_byte(FillKind kind, uint64_t addr)
{
    return kind == FILL_HASH ? (uint8_t)fill_mix(addr) : 0;
}

/* The FILL_HASH content of [addr, addr + len) into out (fill.c). */
void fill_hash_bytes(uint64_t addr, uint8_t *out, size_t len);

/* Writes the initial content of [addr, addr + len) into out. */
void fill_bytes(FillKind kind, uint64_t addr, uint8_t *out, size_t len);

#endif
