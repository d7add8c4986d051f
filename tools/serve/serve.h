/* `mgtlm serve`: one process, one libevent event_base, one simulation kernel.
 * The server state shared by the serve modules (core, api, http, logs, pcie_ip,
 * loop); see docs/serve.md for the protocol and how the two loops interleave. */
#ifndef MGTLM_SERVE_SERVE_H
#define MGTLM_SERVE_SERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "kernel/platform/platform.h"

#define SERVE_MAX_ATTACH 16
#define SERVE_MAX_PCIE 8

typedef struct ServeAttach {
    char name[64];      /* endpoint instance name, "tb.host" */
    const char *target; /* platform port, "gpu0.mem.in" */
} ServeAttach;

typedef struct ServePcieSpec {
    const char *host; /* listen address (numeric) */
    uint16_t port;
    const char *target; /* platform port */
    char name[32];      /* endpoint instance, "tb.pcie0" */
} ServePcieSpec;

typedef struct ServeConfig {
    const Registry *registry; /* block types, with endpoint_register's (borrowed) */
    const char *platform;
    json_t *sets; /* --set overrides (borrowed) */
    const char *host;
    uint16_t port;
    bool allow_remote;
    ServeAttach attach[SERVE_MAX_ATTACH];
    size_t nattach;
    ServePcieSpec pcie[SERVE_MAX_PCIE];
    size_t npcie;
    size_t max_body;       /* request body limit, bytes (413 above) */
    unsigned max_conns;    /* concurrent HTTP connections served */
    unsigned idle_timeout; /* seconds a connection may stay silent */
    const char *token;     /* access token every request must carry (NULL: none) */
    unsigned max_streams;  /* concurrent /api/logs streams */
    uint64_t slice_events; /* events executed between two I/O polls */
    SimTime quantum;       /* simulated time between two I/O polls (co-simulation) */
    SimTime pcie_timeout;  /* PCIe/IP completion timeout (wall clock, in ps) */
} ServeConfig;

typedef struct ServeWaiter ServeWaiter;
typedef struct ServeConn ServeConn;
typedef struct ServeStream ServeStream;
typedef struct PcieIp PcieIp;
struct event_base;
struct evhttp;
struct evhttp_connection;
struct evconnlistener;
struct event;

typedef struct Server {
    const ServeConfig *cfg;
    Sim *sim;       /* owned; NULL while no platform is built */
    Platform *plat; /* owned; NULL if the last reset failed */
    char reset_error[SIM_ERROR_MAX];
    bool running;
    SimTime run_until;       /* SIM_TIME_MAX: no time limit */
    uint64_t run_events;     /* stop when sim_events_executed reaches it (UINT64_MAX) */
    const char *last_stop;   /* why the last run stopped (static string) */
    struct event_base *base; /* owned */
    struct evhttp *http;     /* owned */
    unsigned http_port;      /* the bound port (cfg->port, or chosen for port 0) */
    ServeWaiter *waiters;    /* POST /api/run with "wait": answered when it stops */
    ServeStream *streams;    /* GET /api/logs */
    unsigned nstreams;
    ServeConn *conn_v; /* connections admitted (unordered) */
    size_t nconns, conn_cap;
    uint64_t conn_seq;               /* requests admitted so far (idle order) */
    struct evconnlistener *listener; /* evhttp's, borrowed */
    struct event *accept_timer;      /* re-enables the listener (owned) */
    bool accept_logged;              /* accept() failure reported (once) */
    PcieIp *pcie[SERVE_MAX_PCIE];    /* owned */
    bool quit;
    char *stats_text;      /* cached GET /api/stats answer (owned) */
    uint64_t stats_events; /* ... rendered after this many events */
    uint64_t stats_gen;    /* ... and at this state_gen */
    uint64_t state_gen;    /* bumped by every build and every POST */
} Server;

/* Loads and builds the platform with the endpoints of cfg, resets it; on failure the
 * server keeps no platform and err says why. Any previous platform is freed first
 * (streams and PCIe connections are closed by the caller before). */
bool serve_build(Server *s, SimError *err);
/* Frees the platform and the kernel (nothing attached to ports may remain). */
void serve_teardown(Server *s);

/* The endpoint block named name ("tb.host") or wired to the platform port name
 * ("gpu0.mem.in"), or reached as "<endpoint>.io"; NULL if none (borrowed). */
Block *serve_endpoint(const Server *s, const char *name);

/* Starts (or retargets) a run that stops at simulated time `until` or when
 * sim_events_executed reaches `events` (SIM_TIME_MAX / UINT64_MAX: no limit). */
void serve_run_start(Server *s, SimTime until, uint64_t events);
/* Stops a run, answering waiters with `why`. */
void serve_run_stop(Server *s, const char *why);
/* Before a reset: stops a run ("reset") and ends every log stream. */
void serve_reset_prepare(Server *s);
/* True if the kernel should advance now (a run, or a co-simulation peer waiting). */
bool serve_wants_time(Server *s);
/* Executes up to budget events (and at most one quantum of simulated time, unless
 * the next event is later) within the current run's limits; stops the run when a
 * limit is reached or the kernel is idle. */
void serve_advance(Server *s, uint64_t budget);

/* Runs the server until SIGINT/SIGTERM; returns the exit status (0, or 2 when the
 * platform or an address is bad). Prints the bound addresses on stderr. */
int serve_main(const ServeConfig *cfg);

/* {"ok":true,"time_ps":..,"events":..,...} (new reference). */
json_t *serve_health_json(const Server *s);

#endif
