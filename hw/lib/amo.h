/* The one atomic-operation rule of the model, shared by the memory that performs
 * atomics and the cu that predicts their effect in its shadow memory: an atomic is a
 * fetch-and-add of len bytes (4 or 8), the operand being a little-endian integer
 * carried in the request's data; memory stores old + operand (wrapping at len bytes)
 * and the response carries the old bytes. */
#ifndef MGTLM_HW_LIB_AMO_H
#define MGTLM_HW_LIB_AMO_H

#include <stdbool.h>
#include <stdint.h>

/* The longest atomic, in bytes. */
#define AMO_MAX_LEN 8

/* True for the lengths an atomic may have (4 and 8 bytes). */
static inline bool amo_len_ok(uint64_t len)
{
    return len == 4 || len == 8;
}

/* result[0..len) = old + operand as len-byte little-endian integers, the carry out of
 * the top byte dropped. Any len is computed the same way (a caller predicting what it
 * sent checks amo_len_ok itself); result may be old. */
void amo_result(const uint8_t *old, const uint8_t *operand, uint32_t len,
                uint8_t *result);

#endif
