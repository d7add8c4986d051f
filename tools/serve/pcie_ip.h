/* PCIe/IP co-simulation for `mgtlm serve --pcie-ip HOST:PORT=INSTANCE.PORT`: a TCP
 * listener speaking warp-pipe's PCIe-over-TCP frames (pcie_frame.h) with one peer
 * at a time, bridged to a serve endpoint wired to a platform port. Requests flow
 * both ways: the peer's memory requests into the platform, the platform's reads and
 * writes to the peer. */
#ifndef MGTLM_SERVE_PCIE_IP_H
#define MGTLM_SERVE_PCIE_IP_H

#include <stdbool.h>

#include "serve.h"

/* Listens on spec->host:spec->port (owned by the caller; free with pcie_ip_free). */
PcieIp *pcie_ip_new(Server *s, const ServePcieSpec *spec, SimError *err);
void pcie_ip_free(PcieIp *p);
/* Attaches the bridge to endpoint ep of a freshly built platform; NULL detaches it
 * (a connected peer is disconnected: its requests died with the old platform). */
void pcie_ip_bind(PcieIp *p, Block *ep);
/* True while the peer waits for simulated time: TLPs not yet injected, or reads
 * not yet completed. */
bool pcie_ip_waiting(const PcieIp *p);
/* True while the peer owes the platform completions. */
bool pcie_ip_owed(const PcieIp *p);
/* The simulated time the kernel may not pass for now: one quantum past the oldest
 * platform request the peer has not answered, when the peer itself waits for
 * nothing; SIM_TIME_MAX otherwise. (If the peer waits for the platform, holding the
 * kernel could deadlock both, so nothing is held.) */
SimTime pcie_ip_hold(const PcieIp *p);

#endif
