/* Wire arithmetic of the link block (and the memory block's service time): bytes on
 * the wire and serialisation time in integer picoseconds. Pure functions.
 *
 * A packet carries `payload` bytes plus `overhead` bytes of protocol framing; the sum
 * is padded up to a multiple of `flit` bytes (flit 0 = no padding). Serialisation of
 * B wire bytes on a link of `bandwidth` bytes/s with line encoding enc_data/enc_total
 * (e.g. 128/130) takes ceil(B * 10^12 * enc_total / (bandwidth * enc_data)) ps. */
#ifndef MGTLM_HW_LIB_WIRE_H
#define MGTLM_HW_LIB_WIRE_H

#include <stdint.h>

#include "kernel/simtime.h"

typedef struct WireCost {
    uint64_t payload;  /* bytes of data carried */
    uint64_t overhead; /* protocol overhead bytes */
    uint64_t padding;  /* bytes added to reach a flit multiple */
    uint64_t total;    /* payload + overhead + padding */
} WireCost;

/* Splits a packet of `payload` bytes into its wire byte counts. */
WireCost wire_cost(uint64_t payload, uint64_t overhead, uint64_t flit);

/* Largest enc_data / enc_total accepted (keeps the arithmetic exact in 128 bits). */
#define WIRE_ENC_MAX 65536

/* ceil(bytes * 10^12 * enc_total / (bandwidth * enc_data)) ps; bandwidth >= 1 and
 * 1 <= enc_data, enc_total <= WIRE_ENC_MAX. Saturates at SIM_TIME_MAX. */
SimTime wire_ser_time(uint64_t bytes, uint64_t bandwidth, uint64_t enc_data,
                      uint64_t enc_total);

/* One lane's rate with the serialisation times of the last two sizes it met
 * remembered: a lane carries mostly two sizes (requests and responses), and the
 * 128-bit division of wire_ser_time costs more than the rest of a hop. Both slots
 * start as the exact answer for UINT64_MAX bytes, so no slot is ever invalid. */
typedef struct WireRate {
    uint64_t bandwidth, enc_data, enc_total; /* as for wire_ser_time */
    uint64_t bytes[2];
    SimTime ser[2];
    unsigned older; /* the slot a miss replaces */
} WireRate;

void wire_rate_init(WireRate *r, uint64_t bandwidth, uint64_t enc_data,
                    uint64_t enc_total);
/* wire_ser_time(bytes, ...) for a miss of wire_rate_ser (remembers the answer). */
SimTime wire_rate_miss(WireRate *r, uint64_t bytes);

/* Exactly wire_ser_time(bytes, r->bandwidth, r->enc_data, r->enc_total). */
static inline SimTime wire_rate_ser(WireRate *r, uint64_t bytes)
{
    if (r->bytes[0] == bytes) {
        return r->ser[0];
    }
    if (r->bytes[1] == bytes) {
        return r->ser[1];
    }
    return wire_rate_miss(r, bytes);
}

#endif
