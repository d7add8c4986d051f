/* Wire layout of a DualOpt coalesced response packet (SPEC.md 1.4; paper 000 Fig. 9).
 *
 * A coalesced packet is a TXN_RESP (req_cmd TXN_READ) whose `codec_packet` is
 * CODEC_PACKET_TAG, whose `data` holds the packet bytes below (len = wire = 4 + 6 n)
 * and whose `parent` lists the ids of the responses it carries (distinct, in entry
 * order). Bytes:
 *   0      type: CODEC_TYPE_RESP
 *   1      compression field: CODEC_COMP_FINE (fine-grained entries, uncompressed)
 *   2      entry count n in bits [3:0] (1..10), bits [7:4] zero
 *   3      reserved, zero
 *   4+6i   entry i: 4 data bytes of one 4 B word in address order, then the 2 B
 *          response id, most significant byte first (the low 16 bits of the id of
 *          the response the word belongs to).
 * The entries of one response are consecutive and in ascending word order; the
 * receiver knows the response's mask from its own record of the request, so entry k
 * of a response is its k-th masked word. Pure functions. */
#ifndef MGTLM_HW_DUALOPT_CODEC_PKT_H
#define MGTLM_HW_DUALOPT_CODEC_PKT_H

#include <stdbool.h>
#include <stdint.h>

#define CODEC_HDR_BYTES 4
#define CODEC_ENTRY_BYTES 6
#define CODEC_WORD_BYTES 4
#define CODEC_MAX_ENTRIES 10
#define CODEC_TYPE_RESP 0x01
#define CODEC_COMP_FINE 0x01
/* Txn.codec_packet of a coalesced packet (the header's type at transaction level). */
#define CODEC_PACKET_TAG 0xc0decu

typedef struct CodecEntry {
    uint8_t data[CODEC_WORD_BYTES];
    uint16_t rid; /* response id: low 16 bits of the response's transaction id */
} CodecEntry;

/* Packet bytes for n entries: 4 + 6 n. */
static inline uint32_t codec_pkt_bytes(uint32_t n)
{
    return CODEC_HDR_BYTES + CODEC_ENTRY_BYTES * n;
}

/* Writes the packet of entries e[0..n) (1 <= n <= 10) to out (codec_pkt_bytes(n)). */
void codec_pkt_encode(uint8_t *out, const CodecEntry *e, uint32_t n);
/* Parses len bytes; on success writes the entries to e (room for 10) and their
 * count to *n. False if the header is not a coalesced response, the count is 0 or
 * above 10, or len differs from codec_pkt_bytes(count). */
bool codec_pkt_decode(const uint8_t *in, uint32_t len, CodecEntry *e, uint32_t *n);

#endif
