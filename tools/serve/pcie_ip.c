/* PCIe/IP co-simulation bridge (docs/serve.md, "Co-simulation"): an external PCIe
 * device or root complex (warp-pipe client, QEMU or Renode through warp-pipe) sends
 * memory requests as TLPs over TCP; they enter the platform through a serve
 * endpoint, and read responses go back as completions.
 * - MRd32/MRd64 -> read of the whole DWs; the response returns as one CplD (status
 *   SC) carrying those DWs, Byte Count and Lower Address from the byte enables; an
 *   error response returns as a Cpl with status UR (address error) or CA (other).
 * - MWr32/MWr64 -> posted write with byte enables when not every byte is enabled.
 * - Every completion copies Requester ID, the 10-bit tag, TC and Attr from its
 *   request; its Completer ID is the bus/device/function captured from the last
 *   CfgWr0 (0 before); a completion without data has Length 0.
 * - CfgRd0/CfgWr0 to function 0 are answered from a minimal configuration space
 *   (pcie_cfg.c); other functions, type 1 configuration, I/O requests and locked
 *   reads get Cpl UR; messages and DLLPs are accepted and ignored (counted in the
 *   log line at disconnect). Completions answer the platform's own requests
 *   (pcie_out.c).
 * - Addresses: while the host has not set Memory Space Enable, PCIe addresses are
 *   platform addresses (GPU g owns [g*M, (g+1)*M)), for peers that do not enumerate;
 *   once it has, memory requests are decoded by BAR0 (BAR + offset -> the attached
 *   port's range + offset) and a request outside it gets Cpl UR (MRd) or is dropped
 *   (MWr, counted as ignored). src and dst are the home GPU of the platform address,
 *   unit the target port's array index (or 0).
 * - Reserved bits a peer leaves set (above the sequence number, TH, LN, the Length of
 *   a completion without data) are ignored and counted (tb.pcieN.pcie_ignored_bits).
 * - Time: a TLP read from the socket is injected at max(now, previous injection) +
 *   one platform clock period, so simulated time advances by at least one tick per
 *   exchange; while the peer waits for the platform the loop advances the kernel
 *   even when no HTTP run is active, polling the socket at least every quantum.
 *   While the platform waits for the peer (and the peer waits for nothing), the
 *   kernel runs at most one quantum past the oldest outstanding request and then
 *   waits for the peer's answer (pcie_ip_hold).
 * - Our sequence numbers count TLPs we send, the first being 1 (as warp-pipe does);
 *   received sequence numbers are not checked (TCP neither loses nor reorders).
 * - accept() failing (out of file descriptors, most often) pauses the listener for
 *   PCIE_ACCEPT_PAUSE_MS and logs once until a peer is admitted again, instead of
 *   libevent's retry at once with a warning each time (a busy loop).
 * - Malformed input (unknown protocol byte, bad CRC, bad length or byte enables, a
 *   stream ending inside a frame) is logged on stderr in one line and the peer is
 *   disconnected; the platform keeps running. */
#include "pcie_ip.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "pcie_priv.h"

#define PCIE_OUT_LIMIT (4u << 20)

void pcie_log(const PcieIp *p, const char *msg)
{
    fprintf(stderr, "mgtlm serve: pcie-ip %s:%u: %s\n", p->spec->host, p->port, msg);
}

static void pcie_close(PcieIp *p, const char *why)
{
    if (!p->bev) {
        return;
    }
    char msg[SIM_ERROR_MAX];
    snprintf(
        msg, sizeof msg,
        "%.900s; connection closed (%llu TLPs in, %llu out, %llu DLLPs, %llu ignored)",
        why, (unsigned long long)p->tlps_in, (unsigned long long)p->tlps_out,
        (unsigned long long)p->dllps_in, (unsigned long long)p->ignored);
    pcie_log(p, msg);
    bufferevent_free(p->bev);
    p->bev = NULL;
    p->nreads = 0;
    pcie_out_fail_all(p);
}

void pcie_send(PcieIp *p, PcieTlp *t)
{
    uint8_t frame[PCIE_TLP_FRAME_MAX];
    p->tx_seq = (uint16_t)((p->tx_seq + 1) & 0xfffu);
    t->seq = p->tx_seq;
    size_t n = pcie_frame_encode_tlp(t, frame, sizeof frame);
    if (n > 0 && p->bev) {
        bufferevent_write(p->bev, frame, n);
        p->tlps_out++;
    }
}

void pcie_count(PcieIp *p, EndpointCount c)
{
    if (p->ep) {
        endpoint_count(p->ep, c);
    }
}

static void pcie_cpl(PcieIp *p, const PcieReqId *q, uint8_t status, uint16_t byte_count,
                     uint8_t lower, const uint8_t *data, uint32_t length_dw)
{
    PcieTlp t = {0};
    t.fmt = data ? 2 : 0;
    t.type = 0x0a;
    t.length_dw = data ? length_dw : 0;
    t.data = data;
    t.data_len = data ? (size_t)length_dw * 4 : 0;
    t.requester = q->requester;
    t.tag = q->tag;
    t.tc = q->tc;
    t.attr = q->attr;
    t.completer = p->bdf;
    t.status = status;
    t.byte_count = byte_count;
    t.lower_addr = lower;
    pcie_send(p, &t);
}

static unsigned lowest_bit(unsigned v)
{
    unsigned i = 0;
    while (i < 4 && !(v & (1u << i))) {
        i++;
    }
    return i;
}

static unsigned highest_bit(unsigned v)
{
    unsigned i = 3;
    while (i > 0 && !(v & (1u << i))) {
        i--;
    }
    return i;
}

/* Byte Count and Lower Address of the completion of read r (PCIe rules for a
 * request completed by one CplD). */
static void read_span(const PcieRead *r, uint16_t *count, uint8_t *lower)
{
    unsigned lead = r->first_be ? lowest_bit(r->first_be) : 0;
    uint32_t n;
    if (r->length_dw == 1) {
        n = r->first_be ? highest_bit(r->first_be) - lead + 1 : 1;
    } else {
        n = r->length_dw * 4 - lead - (3 - highest_bit(r->last_be));
    }
    *count = (uint16_t)(n & 0xfffu);
    *lower = (uint8_t)((r->addr & 0x7cu) | lead);
}

static EndpointVerdict pcie_on_txn(void *ctx, Block *ep, const Txn *t)
{
    (void)ep;
    PcieIp *p = ctx;
    if (t->cmd != TXN_RESP) {
        return pcie_out_request(p, t);
    }
    for (size_t i = 0; i < p->nreads; i++) {
        PcieRead r = p->reads[i];
        if (r.id != t->id) {
            continue;
        }
        p->reads[i] = p->reads[--p->nreads];
        uint16_t count;
        uint8_t lower;
        read_span(&r, &count, &lower);
        if (t->status != TXN_STATUS_OK) {
            uint8_t st =
                t->status == TXN_STATUS_ADDRESS_ERROR ? PCIE_CPL_UR : PCIE_CPL_CA;
            pcie_cpl(p, &r.rid, st, count, lower, NULL, 0);
            return EP_TAKEN;
        }
        uint8_t buf[4096] = {0};
        if (t->data) {
            memcpy(buf, t->data, t->len < sizeof buf ? t->len : sizeof buf);
        }
        pcie_cpl(p, &r.rid, PCIE_CPL_SC, count, lower, buf, r.length_dw);
        return EP_TAKEN;
    }
    return EP_TAKEN;
}

static int target_unit(const Port *q)
{
    const char *b = strrchr(q->name, '[');
    return b ? atoi(b + 1) : 0;
}

void pcie_inject(PcieIp *p, Txn *t)
{
    Sim *sim = p->s->sim;
    SimTime tick = p->s->plat->desc.info.clock ? p->s->plat->desc.info.clock : 1;
    SimTime base = sim_now(sim) > p->last_at ? sim_now(sim) : p->last_at;
    p->last_at = base + tick;
    uint64_t mem = p->s->plat->desc.info.mem_bytes;
    int home = (int)(mem ? t->addr / mem : 0);
    t->src = (int16_t)home;
    t->dst = (int16_t)home;
    t->unit = (int16_t)target_unit(endpoint_target(p->ep));
    endpoint_inject(p->ep, t, p->last_at);
}

static bool pcie_push_read(PcieIp *p, const PcieRead *r)
{
    if (p->nreads == p->reads_cap) {
        size_t cap = p->reads_cap ? 2 * p->reads_cap : 16;
        PcieRead *v = realloc(p->reads, cap * sizeof *v);
        if (!v) {
            return false;
        }
        p->reads = v;
        p->reads_cap = cap;
    }
    p->reads[p->nreads++] = *r;
    return true;
}

static PcieReqId pcie_rid(const PcieTlp *t)
{
    return (PcieReqId){t->requester, t->tag, t->tc, t->attr};
}

static void pcie_request(PcieIp *p, const PcieTlp *tlp)
{
    Sim *sim = p->s->sim;
    uint32_t len = tlp->length_dw * 4;
    uint64_t addr = tlp->addr;
    PcieReqId rid = pcie_rid(tlp);
    if (pcie_cfg_decoding(&p->cfg) && !pcie_cfg_decode(&p->cfg, tlp->addr, len, &addr)) {
        if (tlp->kind == PCIE_KIND_MRD) {
            PcieRead r = {0, tlp->addr, rid, tlp->first_be, tlp->last_be, tlp->length_dw};
            uint16_t count;
            uint8_t lower;
            read_span(&r, &count, &lower);
            pcie_cpl(p, &rid, PCIE_CPL_UR, count, lower, NULL, 0);
        } else {
            p->ignored++;
        }
        return;
    }
    if (tlp->kind == PCIE_KIND_MRD) {
        Txn *t = txn_new(sim, TXN_READ, addr, len);
        PcieRead r = {t->id, tlp->addr, rid, tlp->first_be, tlp->last_be, tlp->length_dw};
        if (!pcie_push_read(p, &r)) {
            txn_unref(t);
            pcie_close(p, "out of memory");
            return;
        }
        pcie_inject(p, t);
        return;
    }
    Txn *t = txn_new(sim, TXN_WRITE, addr, len);
    txn_set_data(t, tlp->data);
    t->posted = true;
    unsigned last = tlp->length_dw == 1 ? tlp->first_be : tlp->last_be;
    if (tlp->first_be != 0xf || last != 0xf) {
        uint8_t *be = txn_alloc_be(t);
        memset(be, 0xff, len);
        for (unsigned i = 0; i < 4; i++) {
            if (!(tlp->first_be & (1u << i))) {
                be[i] = 0;
            }
            if (tlp->length_dw > 1 && !(tlp->last_be & (1u << i))) {
                be[len - 4 + i] = 0;
            }
        }
    }
    pcie_inject(p, t);
}

/* CfgRd0/CfgWr0: function 0 answers from its configuration space (a CfgWr0 also
 * gives it its bus and device number), other functions do not exist (UR). */
static void pcie_config(PcieIp *p, const PcieTlp *t)
{
    PcieReqId rid = pcie_rid(t);
    if (t->target & 7u) {
        pcie_cpl(p, &rid, PCIE_CPL_UR, 4, 0, NULL, 0);
        return;
    }
    if (t->fmt & 2u) {
        p->bdf = t->target;
        uint32_t v = (uint32_t)t->data[0] | (uint32_t)t->data[1] << 8 |
                     (uint32_t)t->data[2] << 16 | (uint32_t)t->data[3] << 24;
        pcie_cfg_write(&p->cfg, t->cfg_reg, v, t->first_be);
        pcie_cpl(p, &rid, PCIE_CPL_SC, 4, 0, NULL, 0);
        return;
    }
    uint32_t v = pcie_cfg_read(&p->cfg, t->cfg_reg);
    uint8_t data[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
                       (uint8_t)(v >> 24)};
    pcie_cpl(p, &rid, PCIE_CPL_SC, 4, 0, data, 1);
}

static void pcie_tlp(PcieIp *p, const PcieTlp *t)
{
    p->tlps_in++;
    if (t->ignored_bits) {
        pcie_count(p, EP_COUNT_IGNORED_BITS);
    }
    switch (t->kind) {
    case PCIE_KIND_MRD:
    case PCIE_KIND_MWR:
        pcie_request(p, t);
        return;
    case PCIE_KIND_CPL:
        pcie_out_completion(p, t);
        return;
    case PCIE_KIND_CFG0:
        pcie_config(p, t);
        return;
    case PCIE_KIND_OTHER:
        break;
    }
    bool non_posted =
        t->type == 0x01 || t->type == 0x02 || t->type == 0x04 || t->type == 0x05;
    if (non_posted) {
        PcieReqId rid = pcie_rid(t);
        pcie_cpl(p, &rid, PCIE_CPL_UR, 4, 0, NULL, 0);
    } else {
        p->ignored++;
    }
}

static void pcie_read_cb(struct bufferevent *bev, void *arg)
{
    PcieIp *p = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    for (;;) {
        if (evbuffer_get_length(bufferevent_get_output(bev)) > PCIE_OUT_LIMIT) {
            bufferevent_disable(bev, EV_READ); /* re-enabled when the peer drains */
            return;
        }
        size_t len = evbuffer_get_length(in);
        size_t take = len < PCIE_TLP_FRAME_MAX ? len : PCIE_TLP_FRAME_MAX;
        const uint8_t *buf = evbuffer_pullup(in, (ev_ssize_t)take);
        size_t used = 0;
        PcieTlp tlp;
        PcieDllp dllp;
        SimError err;
        switch (pcie_frame_parse(buf, take, &used, &tlp, &dllp, &err)) {
        case PCIE_PARSE_MORE:
            return;
        case PCIE_PARSE_BAD:
            pcie_close(p, err.msg);
            return;
        case PCIE_PARSE_DLLP:
            p->dllps_in++;
            break;
        case PCIE_PARSE_TLP:
            pcie_tlp(p, &tlp);
            break;
        }
        if (!p->bev) {
            return;
        }
        evbuffer_drain(in, used);
    }
}

static void pcie_write_cb(struct bufferevent *bev, void *arg)
{
    (void)arg;
    bufferevent_enable(bev, EV_READ);
}

static void pcie_event_cb(struct bufferevent *bev, short what, void *arg)
{
    PcieIp *p = arg;
    size_t left = evbuffer_get_length(bufferevent_get_input(bev));
    char msg[128];
    if (left > 0) {
        snprintf(msg, sizeof msg,
                 "truncated frame: the stream ended %zu bytes into a frame", left);
    } else {
        snprintf(msg, sizeof msg, "%s",
                 (what & BEV_EVENT_EOF) ? "peer closed" : "socket error");
    }
    pcie_close(p, msg);
}

/* A new link: the function's configuration space and Completer ID start afresh,
 * its BAR covering the attached port's platform range (the port's GPU memory, or
 * every GPU's for a port outside any GPU). */
static void pcie_reset_function(PcieIp *p)
{
    const PlatformInfo *info = &p->s->plat->desc.info;
    const Port *q = endpoint_target(p->ep);
    uint64_t m = info->mem_bytes;
    int gpu = q->owner->gpu;
    uint64_t range = gpu >= 0                      ? m
                     : m > UINT64_MAX / info->gpus ? UINT64_MAX
                                                   : m * info->gpus;
    pcie_cfg_init(&p->cfg, gpu >= 0 ? (uint64_t)gpu * m : 0, range ? range : 1);
    p->bdf = 0;
}

static void pcie_timer_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    pcie_out_timeout(arg);
}

/* How long the listener pauses after accept() failed. */
#define PCIE_ACCEPT_PAUSE_MS 500

static void pcie_accept_resume(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    PcieIp *p = arg;
    evconnlistener_enable(p->listener);
}

static void pcie_accept_failed(struct evconnlistener *l, void *arg)
{
    PcieIp *p = arg;
    if (!p->accept_logged) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "cannot accept connections (%s): pausing the listener, retrying every "
                 "%d ms",
                 evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()),
                 PCIE_ACCEPT_PAUSE_MS);
        pcie_log(p, msg);
        p->accept_logged = true;
    }
    evconnlistener_disable(l);
    struct timeval tv = {0, PCIE_ACCEPT_PAUSE_MS * 1000};
    evtimer_add(p->accept_timer, &tv);
}

static void pcie_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                        int socklen, void *arg)
{
    (void)l;
    (void)sa;
    (void)socklen;
    PcieIp *p = arg;
    p->accept_logged = false;
    if (p->bev || !p->ep) {
        pcie_log(p, p->bev ? "refused a second peer (one link, one peer)"
                           : "refused a peer: no platform");
        evutil_closesocket(fd);
        return;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* one TLP, one segment */
    p->bev = bufferevent_socket_new(p->s->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!p->bev) {
        evutil_closesocket(fd);
        return;
    }
    p->tx_seq = 0;
    p->tlps_in = p->tlps_out = p->dllps_in = p->ignored = 0;
    pcie_reset_function(p);
    bufferevent_setcb(p->bev, pcie_read_cb, pcie_write_cb, pcie_event_cb, p);
    bufferevent_enable(p->bev, EV_READ | EV_WRITE);
    pcie_log(p, "peer connected");
}

PcieIp *pcie_ip_new(Server *s, const ServePcieSpec *spec, SimError *err)
{
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(spec->port);
    if (inet_pton(AF_INET, spec->host, &sin.sin_addr) != 1) {
        sim_error_set(err, "--pcie-ip: %s is not an IPv4 address", spec->host);
        return NULL;
    }
    PcieIp *p = calloc(1, sizeof *p);
    if (!p) {
        sim_error_set(err, "out of memory");
        return NULL;
    }
    p->s = s;
    p->spec = spec;
    p->timer = evtimer_new(s->base, pcie_timer_cb, p);
    p->accept_timer = evtimer_new(s->base, pcie_accept_resume, p);
    if (!p->timer || !p->accept_timer) {
        sim_error_set(err, "out of memory");
        if (p->timer) {
            event_free(p->timer);
        }
        if (p->accept_timer) {
            event_free(p->accept_timer);
        }
        free(p);
        return NULL;
    }
    p->listener = evconnlistener_new_bind(s->base, pcie_accept, p,
                                          LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, 4,
                                          (struct sockaddr *)&sin, sizeof sin);
    if (!p->listener) {
        sim_error_set(err, "--pcie-ip %s:%u: cannot listen there", spec->host,
                      spec->port);
        event_free(p->timer);
        event_free(p->accept_timer);
        free(p);
        return NULL;
    }
    evconnlistener_set_error_cb(p->listener, pcie_accept_failed);
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    p->port = spec->port;
    if (getsockname(evconnlistener_get_fd(p->listener), (struct sockaddr *)&bound,
                    &blen) == 0) {
        p->port = ntohs(bound.sin_port);
    }
    char msg[128];
    snprintf(msg, sizeof msg, "listening for a PCIe/IP peer, bridged to %s",
             spec->target);
    pcie_log(p, msg);
    return p;
}

void pcie_ip_free(PcieIp *p)
{
    if (!p) {
        return;
    }
    pcie_close(p, "server stopping");
    evconnlistener_free(p->listener);
    event_free(p->timer);
    event_free(p->accept_timer);
    free(p->reads);
    free(p);
}

void pcie_ip_bind(PcieIp *p, Block *ep)
{
    if (p->ep) {
        endpoint_listen(p->ep, NULL, NULL);
        pcie_close(p, "platform reset");
    }
    p->ep = ep;
    p->last_at = 0;
    if (ep) {
        endpoint_listen(ep, pcie_on_txn, p);
    }
}

bool pcie_ip_waiting(const PcieIp *p)
{
    return p && p->bev && p->ep && (p->nreads > 0 || endpoint_backlog(p->ep) > 0);
}

bool pcie_ip_owed(const PcieIp *p)
{
    return p && p->bev && p->nout > 0;
}

SimTime pcie_ip_hold(const PcieIp *p)
{
    if (!pcie_ip_owed(p) || pcie_ip_waiting(p)) {
        return SIM_TIME_MAX;
    }
    SimTime oldest = SIM_TIME_MAX;
    for (unsigned tag = 0; tag < PCIE_TAGS; tag++) {
        if (p->out[tag].req && p->out[tag].sent < oldest) {
            oldest = p->out[tag].sent;
        }
    }
    SimTime q = p->s->cfg->quantum;
    return oldest > SIM_TIME_MAX - q ? SIM_TIME_MAX : oldest + q;
}
