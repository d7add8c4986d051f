/* PCIe/IP frames: the wire format of Antmicro warp-pipe's PCIe-over-TCP, written
 * from its public description (docs/source/pcie-over-tcp.md, inc/warppipe/proto.h).
 *
 * A frame is one protocol byte followed by a data-link packet:
 *   0x02 DLLP: 4 bytes (type + contents) and a 16-bit CRC, 7 bytes in all;
 *   0x03 TLP: 2 bytes (4 reserved bits, 12-bit sequence number), the TLP (3 or 4
 *        DW header in PCIe big-endian bit order, then the payload), then the 32-bit
 *        LCRC over the sequence bytes and the TLP.
 * CRCs are the PCIe ones in reflected form: LCRC = CRC-32 (poly 0x04C11DB7
 * reflected, init ~0, final complement) over sequence + TLP; DLLP CRC = CRC-16 (poly
 * 0x100B reflected, init 0xffff, final complement) over the 4 DLLP bytes. Both are
 * stored least significant byte first. A TCP stream is a plain concatenation of
 * frames; a TLP's size follows from its Fmt and Length fields. */
#ifndef MGTLM_SERVE_PCIE_FRAME_H
#define MGTLM_SERVE_PCIE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/error.h"

#define PCIE_PROTO_DLLP 0x02
#define PCIE_PROTO_TLP 0x03
#define PCIE_DLLP_FRAME 7
/* The largest TLP frame: protocol, sequence, 4 DW header, 1024 DW payload, LCRC. */
#define PCIE_TLP_FRAME_MAX (1 + 2 + 16 + 4096 + 4)

/* TLP kinds by the (Fmt, Type) byte with Fmt's data bit removed. */
typedef enum PcieKind {
    PCIE_KIND_MRD,  /* MRd32 / MRd64 */
    PCIE_KIND_MWR,  /* MWr32 / MWr64 */
    PCIE_KIND_CPL,  /* Cpl / CplD */
    PCIE_KIND_CFG0, /* CfgRd0 / CfgWr0 */
    PCIE_KIND_OTHER /* IO, type 1 configuration, messages, locked reads, ... */
} PcieKind;

/* Completion status codes. */
enum { PCIE_CPL_SC = 0, PCIE_CPL_UR = 1, PCIE_CPL_CA = 4 };

typedef struct PcieTlp {
    uint16_t seq;     /* 12 bits */
    uint8_t seq_rsvd; /* the 4 reserved bits above the sequence number (ignored) */
    uint8_t fmt;      /* 3 bits: bit0 = 4 DW header, bit1 = with data */
    uint8_t type;     /* 5 bits */
    PcieKind kind;
    uint8_t tc;   /* traffic class, 3 bits (byte 1) */
    uint8_t attr; /* attributes, 3 bits: bit2 = ID-based ordering (byte 1), bits 1..0 =
                     relaxed ordering, no snoop (byte 2) */
    uint8_t th;   /* TLP processing hints present (byte 1 bit 0; ignored) */
    uint8_t ln;   /* byte 1 bit 1 (LN, reserved since PCIe 6.0; ignored) */
    /* payload length in DW, 1..1024 (0 on the wire is 1024); 0 for a completion
       without data, whose Length field is reserved (sent as 0, ignored) */
    uint32_t length_dw;
    uint16_t tag; /* 10 bits: T9 (byte 1 bit 7), T8 (byte 1 bit 3), then the tag byte */
    /* requests */
    uint16_t requester;
    uint8_t first_be, last_be;
    uint64_t addr; /* DW-aligned */
    /* configuration requests: the completer's bus/device/function and the DW
       register number (extended register number in bits 9..6) */
    uint16_t target;
    uint16_t cfg_reg;
    /* completions */
    uint16_t completer;
    uint8_t status;
    uint16_t byte_count; /* 12 bits (0 on the wire is 4096) */
    uint8_t lower_addr;  /* 7 bits */
    /* set by the parser: bits the receiver ignores are set (the reserved sequence
       bits, TH, LN, the Length of a completion without data) */
    bool ignored_bits;
    /* payload: length_dw * 4 bytes when fmt has data, else none (borrowed) */
    const uint8_t *data;
    size_t data_len;
} PcieTlp;

typedef struct PcieDllp {
    uint8_t bytes[4];
} PcieDllp;

typedef enum PcieParse {
    PCIE_PARSE_MORE, /* the buffer holds only part of a frame */
    PCIE_PARSE_TLP,
    PCIE_PARSE_DLLP,
    PCIE_PARSE_BAD /* malformed: err says why; the stream cannot be resynchronised */
} PcieParse;

/* Parses the frame at the start of buf[0..len). On TLP or DLLP, *used is the frame
 * size and *tlp (payload borrowed from buf) or *dllp is filled. Checks: protocol byte,
 * Fmt (no TLP prefixes), TD (no ECRC digest), LCRC / CRC-16, for memory requests the
 * byte-enable rules and that the request does not cross a 4 KiB boundary, for
 * configuration requests a Length of 1 and no last BE. Ignored bits (above the
 * sequence number, TH, LN, the Length of a completion without data) are flagged, never
 * refused. Never reads outside buf[0..len). */
PcieParse pcie_frame_parse(const uint8_t *buf, size_t len, size_t *used, PcieTlp *tlp,
                           PcieDllp *dllp, SimError *err);

/* Encodes tlp (seq, fmt, type, the fields of its kind, payload) as a frame into
 * out[0..cap), LCRC included; returns the frame size, 0 if it does not fit or the
 * payload length disagrees with length_dw. */
size_t pcie_frame_encode_tlp(const PcieTlp *tlp, uint8_t *out, size_t cap);
/* Encodes a DLLP frame (CRC-16 computed) into out[0..PCIE_DLLP_FRAME). */
void pcie_frame_encode_dllp(const PcieDllp *dllp, uint8_t *out);

uint32_t pcie_lcrc32(const uint8_t *p, size_t n);
uint16_t pcie_crc16(const uint8_t *p, size_t n);

#endif
