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

#endif
