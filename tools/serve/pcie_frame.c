/* PCIe/IP frame parsing and encoding (format in pcie_frame.h), written from the
 * public description of warp-pipe's PCIe-over-TCP and the PCIe base specification's
 * TLP header layout. Pure functions of their arguments: the fuzz target
 * fuzz/fuzz_pcie_frame.c drives pcie_frame_parse directly.
 * Decisions: a 32-bit address header (3 DW) and a 64-bit one (4 DW) are both
 * accepted for memory requests; TLP prefixes and ECRC digests are rejected as
 * malformed (neither is produced by warp-pipe). Liberal where the format reserves
 * bits (warp-pipe's sender leaves garbage there, its receiver ignores it): the 4
 * reserved bits above the sequence number, LN, TH and the Length of a completion
 * without data are returned and flagged (ignored_bits), never refused. TC, Attr and
 * the 10-bit tag (T9, T8) are header fields and parsed as such; the encoder writes
 * every field the parser returns, so a frame re-encodes to its own bytes. */
#include "pcie_frame.h"

#include <string.h>

static uint32_t crc_reflected(const uint8_t *p, size_t n, uint32_t crc, uint32_t poly)
{
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++) {
            crc = (crc & 1) ? (crc >> 1) ^ poly : crc >> 1;
        }
    }
    return crc;
}

uint32_t pcie_lcrc32(const uint8_t *p, size_t n)
{
    return ~crc_reflected(p, n, 0xffffffffu, 0xedb88320u);
}

uint16_t pcie_crc16(const uint8_t *p, size_t n)
{
    return (uint16_t)~crc_reflected(p, n, 0xffffu, 0xd008u);
}

static PcieKind pcie_kind_of(uint8_t fmt, uint8_t type)
{
    switch (type) {
    case 0x00:
        return (fmt & 2u) ? PCIE_KIND_MWR : PCIE_KIND_MRD;
    case 0x04:
        return (fmt & 1u) ? PCIE_KIND_OTHER : PCIE_KIND_CFG0;
    case 0x0a:
        return (fmt & 1u) ? PCIE_KIND_OTHER : PCIE_KIND_CPL;
    default:
        return PCIE_KIND_OTHER;
    }
}

static uint64_t get_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++) {
        v = v << 8 | p[i];
    }
    return v;
}

static void put_be(uint8_t *p, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

static PcieParse pcie_parse_dllp(const uint8_t *buf, size_t len, size_t *used,
                                 PcieDllp *dllp, SimError *err)
{
    if (len < PCIE_DLLP_FRAME) {
        return PCIE_PARSE_MORE;
    }
    uint16_t crc = pcie_crc16(buf + 1, 4);
    if (buf[5] != (uint8_t)crc || buf[6] != (uint8_t)(crc >> 8)) {
        sim_error_set(err, "DLLP: bad CRC-16 0x%02x%02x (expected 0x%04x)", buf[6],
                      buf[5], crc);
        return PCIE_PARSE_BAD;
    }
    memcpy(dllp->bytes, buf + 1, 4);
    *used = PCIE_DLLP_FRAME;
    return PCIE_PARSE_DLLP;
}

/* Checks the memory request rules on a parsed header. */
static bool pcie_check_request(const PcieTlp *t, SimError *err)
{
    if (t->length_dw == 1 && t->last_be != 0) {
        return sim_error_set(err,
                             "TLP seq %u: bad byte enables: last BE 0x%x on a 1 DW "
                             "request",
                             t->seq, t->last_be);
    }
    if (t->length_dw > 1 && (t->first_be == 0 || t->last_be == 0)) {
        return sim_error_set(err,
                             "TLP seq %u: bad byte enables: first/last BE 0x%x/0x%x "
                             "on a %u DW request",
                             t->seq, t->first_be, t->last_be, t->length_dw);
    }
    if ((t->addr & 0xfffu) + (uint64_t)t->length_dw * 4 > 4096) {
        return sim_error_set(err,
                             "TLP seq %u: bad length: %u DW at 0x%llx crosses a 4 KiB "
                             "boundary",
                             t->seq, t->length_dw, (unsigned long long)t->addr);
    }
    return true;
}

/* Checks the configuration request rules (Length 1, no last BE). */
static bool pcie_check_cfg(const PcieTlp *t, SimError *err)
{
    if (t->length_dw != 1 || t->last_be != 0) {
        return sim_error_set(err,
                             "TLP seq %u: bad configuration request: Length %u, last BE "
                             "0x%x (must be 1 and 0)",
                             t->seq, t->length_dw, t->last_be);
    }
    return true;
}

/* Fields shared by every header layout: bytes 0..3 and the tag's T9/T8 bits. */
static void pcie_parse_common(const uint8_t *h, PcieTlp *t)
{
    t->fmt = (uint8_t)(h[0] >> 5);
    t->type = (uint8_t)(h[0] & 0x1fu);
    t->tc = (uint8_t)((h[1] >> 4) & 7u);
    t->attr = (uint8_t)((h[1] & 0x04u) | ((h[2] >> 4) & 3u));
    t->ln = (uint8_t)((h[1] >> 1) & 1u);
    t->th = h[1] & 1u;
    t->tag = (uint16_t)((h[1] & 0x80u) << 2 | (h[1] & 0x08u) << 5);
}

static PcieParse pcie_parse_tlp(const uint8_t *buf, size_t len, size_t *used, PcieTlp *t,
                                SimError *err)
{
    if (len < 1 + 2 + 4) {
        return PCIE_PARSE_MORE;
    }
    const uint8_t *h = buf + 3;
    memset(t, 0, sizeof *t);
    t->seq = (uint16_t)((buf[1] & 0x0fu) << 8 | buf[2]);
    t->seq_rsvd = (uint8_t)(buf[1] >> 4);
    pcie_parse_common(h, t);
    if (t->fmt & 4u) {
        sim_error_set(err, "TLP seq %u: bad format %u (TLP prefixes are not supported)",
                      t->seq, t->fmt);
        return PCIE_PARSE_BAD;
    }
    if (h[2] & 0x80u) {
        sim_error_set(err, "TLP seq %u: TD set (ECRC digests are not supported)", t->seq);
        return PCIE_PARSE_BAD;
    }
    uint32_t length = (uint32_t)(h[2] & 3u) << 8 | h[3];
    t->length_dw = length ? length : 1024;
    size_t hdr = (t->fmt & 1u) ? 16 : 12;
    t->data_len = (t->fmt & 2u) ? (size_t)t->length_dw * 4 : 0;
    size_t total = 3 + hdr + t->data_len + 4;
    if (len < total) {
        return PCIE_PARSE_MORE;
    }
    uint32_t crc = pcie_lcrc32(buf + 1, total - 5);
    const uint8_t *c = buf + total - 4;
    uint32_t got = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
                   (uint32_t)c[3] << 24;
    if (got != crc) {
        sim_error_set(err, "TLP seq %u: bad LCRC 0x%08x (expected 0x%08x)", t->seq, got,
                      crc);
        return PCIE_PARSE_BAD;
    }
    t->kind = pcie_kind_of(t->fmt, t->type);
    t->data = t->data_len ? h + hdr : NULL;
    t->ignored_bits = t->seq_rsvd || t->ln || t->th;
    if (t->kind == PCIE_KIND_CPL) {
        if (!(t->fmt & 2u)) {
            t->ignored_bits = t->ignored_bits || length != 0;
            t->length_dw = 0;
        }
        t->completer = (uint16_t)get_be(h + 4, 2);
        t->status = (uint8_t)(h[6] >> 5);
        uint16_t bc = (uint16_t)((h[6] & 0x0fu) << 8 | h[7]);
        t->byte_count = bc ? bc : 4096;
        t->requester = (uint16_t)get_be(h + 8, 2);
        t->tag |= h[10];
        t->lower_addr = h[11] & 0x7fu;
    } else {
        t->requester = (uint16_t)get_be(h + 4, 2);
        t->tag |= h[6];
        t->last_be = (uint8_t)(h[7] >> 4);
        t->first_be = h[7] & 0x0fu;
        if (t->kind == PCIE_KIND_CFG0) {
            t->target = (uint16_t)get_be(h + 8, 2);
            t->cfg_reg = (uint16_t)((h[10] & 0x0fu) << 6 | h[11] >> 2);
            if (!pcie_check_cfg(t, err)) {
                return PCIE_PARSE_BAD;
            }
        } else {
            t->addr = (t->fmt & 1u) ? get_be(h + 8, 8) : get_be(h + 8, 4);
            t->addr &= ~(uint64_t)3;
            if (t->kind != PCIE_KIND_OTHER && !pcie_check_request(t, err)) {
                return PCIE_PARSE_BAD;
            }
        }
    }
    *used = total;
    return PCIE_PARSE_TLP;
}

PcieParse pcie_frame_parse(const uint8_t *buf, size_t len, size_t *used, PcieTlp *tlp,
                           PcieDllp *dllp, SimError *err)
{
    if (len == 0) {
        return PCIE_PARSE_MORE;
    }
    switch (buf[0]) {
    case PCIE_PROTO_DLLP:
        return pcie_parse_dllp(buf, len, used, dllp, err);
    case PCIE_PROTO_TLP:
        return pcie_parse_tlp(buf, len, used, tlp, err);
    default:
        sim_error_set(
            err, "unknown protocol byte 0x%02x (expected 0x02 DLLP or 0x03 TLP)", buf[0]);
        return PCIE_PARSE_BAD;
    }
}

size_t pcie_frame_encode_tlp(const PcieTlp *t, uint8_t *out, size_t cap)
{
    size_t hdr = (t->fmt & 1u) ? 16 : 12;
    size_t data = (t->fmt & 2u) ? (size_t)t->length_dw * 4 : 0;
    size_t total = 3 + hdr + data + 4;
    PcieKind kind = pcie_kind_of(t->fmt, t->type);
    bool no_length = kind == PCIE_KIND_CPL && !(t->fmt & 2u);
    if (total > cap || data != t->data_len || t->length_dw > 1024 || (t->fmt & 4u) ||
        (t->length_dw == 0) != no_length) {
        return 0;
    }
    uint8_t *h = out + 3;
    memset(out, 0, total);
    out[0] = PCIE_PROTO_TLP;
    out[1] = (uint8_t)((t->seq_rsvd & 0x0fu) << 4 | ((t->seq >> 8) & 0x0fu));
    out[2] = (uint8_t)t->seq;
    h[0] = (uint8_t)(t->fmt << 5 | (t->type & 0x1fu));
    h[1] = (uint8_t)((t->tag & 0x200u) >> 2 | (t->tc & 7u) << 4 | (t->tag & 0x100u) >> 5 |
                     (t->attr & 4u) | (t->ln & 1u) << 1 | (t->th & 1u));
    h[2] = (uint8_t)((t->attr & 3u) << 4 | ((t->length_dw >> 8) & 3u));
    h[3] = (uint8_t)t->length_dw;
    if (kind == PCIE_KIND_CPL) {
        put_be(h + 4, t->completer, 2);
        h[6] = (uint8_t)((t->status & 7u) << 5 | ((t->byte_count >> 8) & 0x0fu));
        h[7] = (uint8_t)t->byte_count;
        put_be(h + 8, t->requester, 2);
        h[10] = (uint8_t)t->tag;
        h[11] = t->lower_addr & 0x7fu;
    } else {
        put_be(h + 4, t->requester, 2);
        h[6] = (uint8_t)t->tag;
        h[7] = (uint8_t)((t->last_be & 0x0fu) << 4 | (t->first_be & 0x0fu));
        if (kind == PCIE_KIND_CFG0) {
            put_be(h + 8, t->target, 2);
            h[10] = (uint8_t)((t->cfg_reg >> 6) & 0x0fu);
            h[11] = (uint8_t)((t->cfg_reg & 0x3fu) << 2);
        } else {
            put_be(h + 8, t->addr & ~(uint64_t)3, (t->fmt & 1u) ? 8 : 4);
        }
    }
    if (data) {
        memcpy(h + hdr, t->data, data);
    }
    uint32_t crc = pcie_lcrc32(out + 1, total - 5);
    for (int i = 0; i < 4; i++) {
        out[total - 4 + (size_t)i] = (uint8_t)(crc >> (8 * i));
    }
    return total;
}

void pcie_frame_encode_dllp(const PcieDllp *dllp, uint8_t *out)
{
    out[0] = PCIE_PROTO_DLLP;
    memcpy(out + 1, dllp->bytes, 4);
    uint16_t crc = pcie_crc16(out + 1, 4);
    out[5] = (uint8_t)crc;
    out[6] = (uint8_t)(crc >> 8);
}
