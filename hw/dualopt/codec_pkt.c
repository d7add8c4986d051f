/* Encoding and decoding of DualOpt coalesced packets (layout in codec_pkt.h). */
#include "hw/dualopt/codec_pkt.h"

#include <string.h>

void codec_pkt_encode(uint8_t *out, const CodecEntry *e, uint32_t n)
{
    out[0] = CODEC_TYPE_RESP;
    out[1] = CODEC_COMP_FINE;
    out[2] = (uint8_t)(n & 0x0f);
    out[3] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *p = out + CODEC_HDR_BYTES + CODEC_ENTRY_BYTES * i;
        memcpy(p, e[i].data, CODEC_WORD_BYTES);
        p[4] = (uint8_t)(e[i].rid >> 8);
        p[5] = (uint8_t)(e[i].rid & 0xff);
    }
}

bool codec_pkt_decode(const uint8_t *in, uint32_t len, CodecEntry *e, uint32_t *n)
{
    if (in == NULL || len < CODEC_HDR_BYTES || in[0] != CODEC_TYPE_RESP ||
        in[1] != CODEC_COMP_FINE || (in[2] & 0xf0) != 0 || in[3] != 0) {
        return false;
    }
    uint32_t count = in[2];
    if (count == 0 || count > CODEC_MAX_ENTRIES || len != codec_pkt_bytes(count)) {
        return false;
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *p = in + CODEC_HDR_BYTES + CODEC_ENTRY_BYTES * i;
        memcpy(e[i].data, p, CODEC_WORD_BYTES);
        e[i].rid = (uint16_t)((p[4] << 8) | p[5]);
    }
    *n = count;
    return true;
}
