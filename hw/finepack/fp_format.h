/* FinePack packet format (paper 001 section IV-A, Table I and Table II; SPEC.md 2.2):
 * byte layout of the outer PCIe TLP header and of the sub-packet headers, and the
 * side-band tags that mark FinePack traffic between the FinePack blocks. Pure
 * functions, no simulation state.
 *
 * Outer header (16 bytes, the PCIe 4DW memory-write header layout, big-endian):
 *   byte 0      Fmt[2:0] = 0b011 (4DW header with data) << 5 | Type[4:0] = FP_TLP_TYPE
 *   byte 1      R, TC[2:0], R, Attr[2], R, TH: all 0 (standard meaning, defaults)
 *   byte 2      TD, EP, Attr[1:0], AT[1:0] = 0; Length[9:8]
 *   byte 3      Length[7:0]: payload length in DW (1024 DW is encoded as 0)
 *   bytes 4-5   Requester ID: bus = source GPU, device/function 0
 *   byte 6      Tag: the packetizer's packet sequence number modulo 256
 *   byte 7      Last BE[3:0] << 4 | First BE[3:0]; First BE = 0 (Table I: not needed),
 *               Last BE = the bytes of the last payload DW that hold payload
 *   bytes 8-15  Address[63:2] | 00: the window base address
 * Payload: sub-packets, each `subhdr` bytes of header (a big-endian integer whose top
 * 10 bits are the data length in bytes and whose low 8*subhdr-10 bits are the offset
 * from the base) followed by the data; then zero padding to a whole DW.
 *
 * Decisions:
 * - Type: 0b11010, which the PCIe base specification leaves unassigned (the paper only
 *   says "an unused encoding in the type field").
 * - The payload length in bytes is recoverable from Length and Last BE (Last BE is a
 *   contiguous mask of 1..4 low bytes), so the receiver knows where padding starts.
 * - Side-band headers (kernel/txn_fields.def): a run from the remote write queue to
 *   the packetizer carries fp_run = FP_TAG_RUN | subhdr << 12 | runs still to come in
 *   its flush; a packet carries fp_packet = FP_TAG_PACKET | subhdr. The sub-header
 *   size is a configuration register that both ends of a link must agree on (paper
 *   IV-B); the header stands for it. The tag in the top 16 bits is checked by the
 *   reader, so a value that is not a FinePack header is never taken for one. */
#ifndef MGTLM_HW_FINEPACK_FP_FORMAT_H
#define MGTLM_HW_FINEPACK_FP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FP_HDR_BYTES 16u
#define FP_TLP_FMT 0x3u
#define FP_TLP_TYPE 0x1Au
#define FP_LEN_BITS 10u
#define FP_SUBHDR_MIN 2u
#define FP_SUBHDR_MAX 6u
#define FP_MAX_PAYLOAD 4096u
#define FP_LINE 128u

#define FP_TAG_MASK 0xffff0000u
#define FP_TAG_RUN 0x46520000u    /* "FR" */
#define FP_TAG_PACKET 0x46500000u /* "FP" */
#define FP_RUN_MAX_REST 0xfffu

typedef struct FpHeader {
    uint64_t base;      /* window base address (multiple of 4) */
    uint32_t payload;   /* payload bytes before padding, 1..FP_MAX_PAYLOAD */
    uint16_t requester; /* PCIe requester ID */
    uint8_t tag;
} FpHeader;

/* Address offset bits of a sub-header of subhdr bytes: 8*subhdr - 10. */
static inline uint32_t fp_offset_bits(uint32_t subhdr)
{
    return 8u * subhdr - FP_LEN_BITS;
}

/* Payload rounded up to whole DW (the padded payload of a TLP). */
static inline uint32_t fp_pad_dw(uint32_t bytes)
{
    return (bytes + 3u) & ~3u;
}

/* Writes the 16-byte outer header into p. */
void fp_header_put(uint8_t *p, const FpHeader *h);
/* Parses an outer header from n bytes at p; false if n is too short, Fmt/Type are
 * not FinePack's, Last BE is not a low contiguous mask or First BE is not 0. */
bool fp_header_get(const uint8_t *p, size_t n, FpHeader *h);

/* Writes / reads one sub-header of subhdr bytes (len < 2^10, off < 2^offset_bits). */
void fp_subhdr_put(uint8_t *p, uint32_t subhdr, uint32_t len, uint64_t off);
void fp_subhdr_get(const uint8_t *p, uint32_t subhdr, uint32_t *len, uint64_t *off);

/* Txn.fp_run of a run with rest runs still to come in its flush. */
static inline uint32_t fp_run_header(uint32_t subhdr, uint32_t rest)
{
    return FP_TAG_RUN | subhdr << 12 | rest;
}

/* Txn.fp_packet of a packet. */
static inline uint32_t fp_packet_header(uint32_t subhdr)
{
    return FP_TAG_PACKET | subhdr;
}

#endif
