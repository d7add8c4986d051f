/* Internal state of the PCIe/IP bridge shared by pcie_ip.c (socket, frames, requests
 * from the peer) and pcie_out.c (requests from the platform to the peer). */
#ifndef MGTLM_SERVE_PCIE_PRIV_H
#define MGTLM_SERVE_PCIE_PRIV_H

#include "endpoint.h"
#include "pcie_cfg.h"
#include "pcie_frame.h"
#include "pcie_ip.h"

#define PCIE_TAGS 256

/* What a completion copies from its request: Requester ID, 10-bit tag, TC, Attr. */
typedef struct PcieReqId {
    uint16_t requester;
    uint16_t tag;
    uint8_t tc, attr;
} PcieReqId;

/* A read from the peer waiting for its platform response. */
typedef struct PcieRead {
    uint64_t id;
    uint64_t addr; /* PCIe address */
    PcieReqId rid;
    uint8_t first_be, last_be;
    uint32_t length_dw;
} PcieRead;

/* A platform read sent to the peer, by tag. */
typedef struct PcieOut {
    Txn *req;             /* referenced; NULL = tag free */
    SimTime sent;         /* simulated time the MRd left */
    uint64_t deadline_us; /* wall-clock time of its completion timeout (event loop's) */
    uint64_t dw_addr;
    uint32_t span; /* bytes of the DW span */
    uint32_t got;  /* bytes of the span received */
    uint8_t *buf;  /* span bytes, owned */
} PcieOut;

struct PcieIp {
    Server *s;
    const ServePcieSpec *spec;
    unsigned port; /* bound port (spec->port, or the one chosen for port 0) */
    struct evconnlistener *listener;
    struct bufferevent *bev; /* the peer, NULL if none */
    Block *ep;
    uint16_t tx_seq;
    SimTime last_at;
    PcieRead *reads;
    size_t nreads, reads_cap;
    PcieOut out[PCIE_TAGS];
    size_t nout;
    uint8_t next_tag;
    bool held;           /* the endpoint holds a platform request for want of a tag */
    struct event *timer; /* completion timeout of the oldest outstanding read */
    struct event *accept_timer; /* re-enables the listener after a failed accept() */
    bool accept_logged;         /* the failure was logged; reset by an accepted peer */
    PcieCfg cfg;
    uint16_t bdf; /* our Completer ID: bus/device captured from CfgWr0 */
    uint64_t tlps_in, tlps_out, dllps_in, ignored;
};

void pcie_log(const PcieIp *p, const char *msg);
/* Encodes t with the next sequence number and queues it to the peer. */
void pcie_send(PcieIp *p, PcieTlp *t);
/* Queues t (ownership moves) into the platform at max(now, last) + one clock tick. */
void pcie_inject(PcieIp *p, Txn *t);
/* Counts c in the endpoint's statistics. */
void pcie_count(PcieIp *p, EndpointCount c);

/* A request from the platform reached the endpoint (pcie_out.c). */
EndpointVerdict pcie_out_request(PcieIp *p, const Txn *t);
/* A completion from the peer. */
void pcie_out_completion(PcieIp *p, const PcieTlp *t);
/* The peer is gone: answers every outstanding platform read with generic_error. */
void pcie_out_fail_all(PcieIp *p);
/* The completion timer fired: ends the reads whose wall-clock deadline has passed
 * with generic_error and re-arms the timer for the oldest remaining one. */
void pcie_out_timeout(PcieIp *p);

#endif
