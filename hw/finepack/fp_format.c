/* FinePack packet format: header and sub-header encoding (see fp_format.h). */
#include "hw/finepack/fp_format.h"

void fp_header_put(uint8_t *p, const FpHeader *h)
{
    uint32_t dw = fp_pad_dw(h->payload) / 4u;
    uint32_t last = h->payload % 4u ? h->payload % 4u : 4u;
    uint32_t len_field = dw & 0x3ffu; /* 1024 DW is encoded as 0 */
    p[0] = (uint8_t)(FP_TLP_FMT << 5 | FP_TLP_TYPE);
    p[1] = 0;
    p[2] = (uint8_t)(len_field >> 8);
    p[3] = (uint8_t)(len_field & 0xffu);
    p[4] = (uint8_t)(h->requester >> 8);
    p[5] = (uint8_t)(h->requester & 0xffu);
    p[6] = h->tag;
    p[7] = (uint8_t)(((1u << last) - 1u) << 4);
    uint64_t a = h->base & ~(uint64_t)3;
    for (int i = 0; i < 8; i++) {
        p[8 + i] = (uint8_t)(a >> (56 - 8 * i));
    }
}

bool fp_header_get(const uint8_t *p, size_t n, FpHeader *h)
{
    if (n < FP_HDR_BYTES || p[0] != (uint8_t)(FP_TLP_FMT << 5 | FP_TLP_TYPE)) {
        return false;
    }
    uint32_t first_be = p[7] & 0xfu, last_be = p[7] >> 4;
    uint32_t last;
    switch (last_be) {
    case 0x1:
        last = 1;
        break;
    case 0x3:
        last = 2;
        break;
    case 0x7:
        last = 3;
        break;
    case 0xf:
        last = 4;
        break;
    default:
        return false;
    }
    if (first_be != 0) {
        return false;
    }
    uint32_t dw = ((uint32_t)(p[2] & 0x3u) << 8) | p[3];
    if (dw == 0) {
        dw = 1024;
    }
    h->payload = (dw - 1u) * 4u + last;
    h->requester = (uint16_t)(p[4] << 8 | p[5]);
    h->tag = p[6];
    h->base = 0;
    for (int i = 0; i < 8; i++) {
        h->base = h->base << 8 | p[8 + i];
    }
    h->base &= ~(uint64_t)3;
    return true;
}

void fp_subhdr_put(uint8_t *p, uint32_t subhdr, uint32_t len, uint64_t off)
{
    uint64_t v = (uint64_t)len << fp_offset_bits(subhdr) | off;
    for (uint32_t i = 0; i < subhdr; i++) {
        p[i] = (uint8_t)(v >> (8u * (subhdr - 1u - i)));
    }
}

void fp_subhdr_get(const uint8_t *p, uint32_t subhdr, uint32_t *len, uint64_t *off)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < subhdr; i++) {
        v = v << 8 | p[i];
    }
    uint32_t bits = fp_offset_bits(subhdr);
    *len = (uint32_t)(v >> bits);
    *off = v & (((uint64_t)1 << bits) - 1u);
}
