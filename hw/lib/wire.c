/* Wire arithmetic (see wire.h). The serialisation time is computed in 128-bit
 * integers, so it is exact (never rounded through floating point) and saturates
 * instead of overflowing; WireRate remembers two answers per lane. */
#include "hw/lib/wire.h"

__extension__ typedef unsigned __int128 WireWide;

WireCost wire_cost(uint64_t payload, uint64_t overhead, uint64_t flit)
{
    WireCost c;
    c.payload = payload;
    c.overhead = overhead;
    uint64_t raw = payload + overhead;
    c.padding = 0;
    if (flit > 0 && raw % flit != 0) {
        c.padding = flit - raw % flit;
    }
    c.total = raw + c.padding;
    return c;
}

SimTime wire_ser_time(uint64_t bytes, uint64_t bandwidth, uint64_t enc_data,
                      uint64_t enc_total)
{
    WireWide num = (WireWide)bytes * 1000000000000ULL;
    WireWide den = (WireWide)bandwidth * enc_data;
    /* num < 2^104, den < 2^80, enc_total <= 2^16: split num / den into quotient and
     * remainder so each product below stays under 2^128. */
    WireWide q = num / den;
    WireWide r = num % den;
    if (q > (WireWide)SIM_TIME_MAX) {
        return SIM_TIME_MAX;
    }
    WireWide hi = q * enc_total;
    WireWide lo = r * enc_total;
    hi += lo / den;
    if (lo % den != 0) {
        hi += 1;
    }
    if (hi > (WireWide)SIM_TIME_MAX) {
        return SIM_TIME_MAX;
    }
    return (SimTime)hi;
}

void wire_rate_init(WireRate *r, uint64_t bandwidth, uint64_t enc_data,
                    uint64_t enc_total)
{
    r->bandwidth = bandwidth;
    r->enc_data = enc_data;
    r->enc_total = enc_total;
    r->bytes[0] = r->bytes[1] = UINT64_MAX;
    r->ser[0] = r->ser[1] = wire_ser_time(UINT64_MAX, bandwidth, enc_data, enc_total);
    r->older = 0;
}

SimTime wire_rate_miss(WireRate *r, uint64_t bytes)
{
    unsigned k = r->older;
    r->bytes[k] = bytes;
    r->ser[k] = wire_ser_time(bytes, r->bandwidth, r->enc_data, r->enc_total);
    r->older = k ^ 1;
    return r->ser[k];
}
