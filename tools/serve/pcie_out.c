/* PCIe/IP bridge, platform side as requester (docs/serve.md, "Co-simulation"): a
 * read or write the platform sends to the endpoint goes to the peer as a memory
 * request TLP, and the peer's completions come back as the response.
 * - read -> MRd32 (address below 4 GiB) or MRd64 over the DW span of [addr,
 *   addr+len), first/last byte enables from the byte offsets; tags 0..255, the next
 *   free one in rotation. With all 256 tags in use the endpoint holds further
 *   requests (its buffer fills and the platform sees backpressure).
 * - write -> MWr32/MWr64 with the same span and byte enables (the transaction's own
 *   byte enables are merged into the first and last DW). PCIe memory writes are
 *   posted: a non-posted write is answered (status ok) by the bridge once the MWr is
 *   queued.
 * - Completions: the data of successive CplDs is placed one after the other from
 *   the start of the span; the request is complete when a completion's Byte Count
 *   fits in its payload. Status UR -> address_error, any other non-SC ->
 *   generic_error; a completion without data with status SC also ends the read
 *   with generic_error (a read is never left waiting for data that was not sent).
 *   Our tags are 8-bit (10-Bit Tag Requester Enable off): T9/T8 of a completion are
 *   ignored (counted as ignored bits), the low 8 bits find the read. A completion
 *   for a free tag is ignored (counted as unexpected).
 * - Completion timeout (--pcie-timeout, PCIe's default range 50 us..50 ms, §2.8 and
 *   Device Control 2 of the base specification; default 50 ms): a read the peer has
 *   not completed that long after its MRd was queued, in wall-clock time, ends with
 *   generic_error. Wall clock, not simulated time: the kernel is held near the
 *   oldest outstanding read (pcie_ip_hold), so simulated time cannot measure how
 *   long a silent peer has been silent; a late completion is then unexpected.
 * - Anything the peer cannot take (other commands, length 0, a span over 4 KiB or
 *   crossing a 4 KiB boundary, byte-enable holes inside the span, no peer connected)
 *   is answered with command_error by the endpoint.
 * - If the peer disconnects, every outstanding read is answered with generic_error:
 *   every platform request still gets exactly one response. */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "pcie_priv.h"

/* DW span of [addr, addr+len): first DW address, DW count, first/last BE. */
static bool out_span(const Txn *t, uint64_t *dw, uint32_t *ndw, uint8_t *fbe,
                     uint8_t *lbe)
{
    if (t->len == 0 || t->addr > UINT64_MAX - t->len) {
        return false;
    }
    uint64_t end = t->addr + t->len - 1;
    *dw = t->addr & ~(uint64_t)3;
    uint64_t last = end & ~(uint64_t)3;
    if (last - *dw >= 4096 || (*dw & ~(uint64_t)0xfff) != (last & ~(uint64_t)0xfff)) {
        return false;
    }
    *ndw = (uint32_t)((last - *dw) / 4 + 1);
    uint8_t head = (uint8_t)((0xfu << (t->addr & 3)) & 0xfu);
    uint8_t tail = (uint8_t)(0xfu >> (3 - (end & 3)));
    *fbe = *ndw == 1 ? (uint8_t)(head & tail) : head;
    *lbe = *ndw == 1 ? 0 : tail;
    return true;
}

/* Merges the transaction's byte enables into fbe/lbe; false if a DW other than the
 * first and the last has a disabled byte (not expressible in one TLP). */
static bool out_merge_be(const Txn *t, uint64_t dw, uint32_t ndw, uint8_t *fbe,
                         uint8_t *lbe)
{
    if (!t->be) {
        return true;
    }
    uint64_t last = dw + (uint64_t)(ndw - 1) * 4;
    for (uint32_t i = 0; i < t->len; i++) {
        if (t->be[i]) {
            continue;
        }
        uint64_t a = t->addr + i;
        uint8_t bit = (uint8_t)(1u << (a & 3));
        if ((a & ~(uint64_t)3) == dw) {
            *fbe &= (uint8_t)~bit;
        } else if ((a & ~(uint64_t)3) == last) {
            *lbe &= (uint8_t)~bit;
        } else {
            return false;
        }
    }
    return true;
}

static EndpointVerdict out_write(PcieIp *p, const Txn *t, uint64_t dw, uint32_t ndw,
                                 uint8_t fbe, uint8_t lbe)
{
    if (!out_merge_be(t, dw, ndw, &fbe, &lbe)) {
        pcie_log(p, "a platform write with byte-enable holes inside its span cannot be "
                    "one MWr; answered command_error");
        return EP_DEFAULT;
    }
    uint8_t *payload = calloc((size_t)ndw, 4);
    if (!payload) {
        return EP_DEFAULT;
    }
    if (t->data) {
        memcpy(payload + (t->addr - dw), t->data, t->len);
    }
    PcieTlp w = {0};
    w.fmt = (uint8_t)(2u | (dw >> 32 ? 1u : 0u));
    w.length_dw = ndw;
    w.first_be = fbe;
    w.last_be = lbe;
    w.addr = dw;
    w.data = payload;
    w.data_len = (size_t)ndw * 4;
    pcie_send(p, &w);
    free(payload);
    if (!t->posted) {
        Txn *r = txn_new_response(p->s->sim, t);
        pcie_inject(p, r);
    }
    return EP_TAKEN;
}

/* The event loop's wall clock, in microseconds. */
static uint64_t out_wall_us(const PcieIp *p)
{
    struct timeval now;
    event_base_gettimeofday_cached(p->s->base, &now);
    return (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_usec;
}

/* Arms the completion timer to fire us microseconds from now. */
static void out_arm(PcieIp *p, uint64_t us)
{
    struct timeval wait = {(time_t)(us / 1000000u), (suseconds_t)(us % 1000000u)};
    evtimer_add(p->timer, &wait);
}

static EndpointVerdict out_read(PcieIp *p, const Txn *t, uint64_t dw, uint32_t ndw,
                                uint8_t fbe, uint8_t lbe)
{
    if (p->nout == PCIE_TAGS) {
        p->held = true;
        return EP_HOLD;
    }
    while (p->out[p->next_tag].req) {
        p->next_tag++;
    }
    uint8_t tag = p->next_tag++;
    PcieOut *o = &p->out[tag];
    o->buf = calloc((size_t)ndw, 4);
    if (!o->buf) {
        return EP_DEFAULT;
    }
    o->req = txn_ref((Txn *)t);
    o->sent = sim_now(p->s->sim);
    uint64_t wait = p->s->cfg->pcie_timeout / SIM_US;
    o->deadline_us = out_wall_us(p) + wait;
    if (!evtimer_pending(p->timer, NULL)) {
        out_arm(p, wait);
    }
    o->dw_addr = dw;
    o->span = ndw * 4;
    o->got = 0;
    p->nout++;
    PcieTlp r = {0};
    r.fmt = dw >> 32 ? 1u : 0u;
    r.length_dw = ndw;
    r.tag = tag;
    r.first_be = fbe;
    r.last_be = lbe;
    r.addr = dw;
    pcie_send(p, &r);
    return EP_TAKEN;
}

EndpointVerdict pcie_out_request(PcieIp *p, const Txn *t)
{
    uint64_t dw;
    uint32_t ndw;
    uint8_t fbe, lbe;
    if (!p->bev || (t->cmd != TXN_READ && t->cmd != TXN_WRITE)) {
        return EP_DEFAULT;
    }
    if (!out_span(t, &dw, &ndw, &fbe, &lbe)) {
        pcie_log(p, "a platform request of length 0, over 4 KiB or crossing a 4 KiB "
                    "boundary cannot be one TLP; answered command_error");
        return EP_DEFAULT;
    }
    return t->cmd == TXN_READ ? out_read(p, t, dw, ndw, fbe, lbe)
                              : out_write(p, t, dw, ndw, fbe, lbe);
}

/* Answers the read of tag with status st (data from the span when ok), frees it. */
static void out_finish(PcieIp *p, uint8_t tag, TxnStatus st)
{
    PcieOut *o = &p->out[tag];
    Txn *r = txn_new_response(p->s->sim, o->req);
    r->status = st;
    if (st == TXN_STATUS_OK) {
        txn_set_data(r, o->buf + (o->req->addr - o->dw_addr));
    }
    txn_unref(o->req);
    free(o->buf);
    memset(o, 0, sizeof *o);
    p->nout--;
    if (p->nout == 0) {
        evtimer_del(p->timer);
    }
    pcie_inject(p, r);
    if (p->held) {
        p->held = false;
        endpoint_resume(p->ep);
    }
}

void pcie_out_completion(PcieIp *p, const PcieTlp *t)
{
    uint8_t tag = (uint8_t)t->tag;
    if (t->tag > 0xff && !t->ignored_bits) {
        pcie_count(p, EP_COUNT_IGNORED_BITS);
    }
    PcieOut *o = &p->out[tag];
    if (!o->req) {
        p->ignored++;
        pcie_count(p, EP_COUNT_CPL_UNEXPECTED);
        return;
    }
    if (t->status != PCIE_CPL_SC) {
        out_finish(p, tag,
                   t->status == PCIE_CPL_UR ? TXN_STATUS_ADDRESS_ERROR
                                            : TXN_STATUS_GENERIC_ERROR);
        return;
    }
    if (t->data_len == 0) {
        pcie_count(p, EP_COUNT_CPL_NO_DATA);
        out_finish(p, tag, TXN_STATUS_GENERIC_ERROR);
        return;
    }
    size_t n = t->data_len < o->span - o->got ? t->data_len : o->span - o->got;
    if (n > 0) {
        memcpy(o->buf + o->got, t->data, n);
    }
    o->got += (uint32_t)n;
    size_t valid = t->data_len > (size_t)(t->lower_addr & 3u)
                       ? t->data_len - (t->lower_addr & 3u)
                       : 0;
    if (t->byte_count <= valid || o->got >= o->span) {
        out_finish(p, tag, TXN_STATUS_OK);
    }
}

void pcie_out_timeout(PcieIp *p)
{
    uint64_t now = out_wall_us(p), next = UINT64_MAX;
    for (unsigned tag = 0; tag < PCIE_TAGS; tag++) {
        PcieOut *o = &p->out[tag];
        if (!o->req) {
            continue;
        }
        if (o->deadline_us <= now) {
            pcie_count(p, EP_COUNT_CPL_TIMEOUTS);
            out_finish(p, (uint8_t)tag, TXN_STATUS_GENERIC_ERROR);
        } else if (o->deadline_us < next) {
            next = o->deadline_us;
        }
    }
    if (next != UINT64_MAX) {
        out_arm(p, next - now);
    }
}

void pcie_out_fail_all(PcieIp *p)
{
    for (unsigned tag = 0; tag < PCIE_TAGS && p->nout > 0; tag++) {
        if (p->out[tag].req) {
            out_finish(p, (uint8_t)tag, TXN_STATUS_GENERIC_ERROR);
        }
    }
    p->next_tag = 0;
}
