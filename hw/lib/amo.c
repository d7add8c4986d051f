/* Atomic fetch-and-add arithmetic (see amo.h): byte-serial little-endian addition. */
#include "hw/lib/amo.h"

void amo_result(const uint8_t *old, const uint8_t *operand, uint32_t len, uint8_t *result)
{
    unsigned carry = 0;
    for (uint32_t i = 0; i < len; i++) {
        unsigned s = (unsigned)old[i] + operand[i] + carry;
        result[i] = (uint8_t)s;
        carry = s >> 8;
    }
}
