/* The `mgtlm serve` main loop: one libevent event_base and one simulation kernel in
 * one thread (docs/serve.md, "Two loops, one thread").
 * Each iteration polls the sockets, then executes one slice of simulation:
 * - when the kernel has work to do (a run, or a co-simulation peer waiting), the
 *   poll does not block (EVLOOP_NONBLOCK) and the slice executes at most
 *   slice_events events and at most one quantum of simulated time;
 * - otherwise the poll blocks (EVLOOP_ONCE) until a socket or signal is ready;
 * - while a log-stream client has too much unsent data, the kernel waits.
 * Simulated time is only ever the kernel's; libevent only does I/O. Wall-clock time
 * never reaches the model (events/s is computed by the dashboard). */
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <event2/http.h>

#include "pcie_ip.h"
#include "serve.h"
#include "serve_http.h"
#include "serve_logs.h"

static void serve_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)sig;
    (void)what;
    Server *s = arg;
    s->quit = true;
    event_base_loopbreak(s->base);
}

static void serve_loop(Server *s)
{
    while (!s->quit) {
        bool busy = serve_wants_time(s) && !serve_logs_backlogged(s);
        event_base_loop(s->base, busy ? EVLOOP_NONBLOCK : EVLOOP_ONCE);
        if (s->quit) {
            break;
        }
        if (serve_wants_time(s) && !serve_logs_backlogged(s)) {
            serve_advance(s, s->cfg->slice_events);
        }
        serve_logs_flush(s);
    }
}

static void serve_shutdown(Server *s, struct event *sigs[2])
{
    serve_http_stop(s);
    serve_teardown(s);
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        pcie_ip_free(s->pcie[i]);
        s->pcie[i] = NULL;
    }
    for (int i = 0; i < 2; i++) {
        if (sigs[i]) {
            event_free(sigs[i]);
        }
    }
    event_base_free(s->base);
}

int serve_main(const ServeConfig *cfg)
{
    Server s;
    SimError err;
    struct event *sigs[2] = {NULL, NULL};
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.last_stop = "start";
    signal(SIGPIPE, SIG_IGN);
    s.base = event_base_new();
    if (!s.base) {
        fprintf(stderr, "mgtlm serve: cannot create an event base\n");
        return 2;
    }
    bool ok = serve_http_start(&s, &err);
    for (size_t i = 0; ok && i < cfg->npcie; i++) {
        s.pcie[i] = pcie_ip_new(&s, &cfg->pcie[i], &err);
        ok = s.pcie[i] != NULL;
    }
    ok = ok && serve_build(&s, &err);
    if (!ok) {
        fprintf(stderr, "mgtlm serve: %s\n", err.msg);
        serve_shutdown(&s, sigs);
        return 2;
    }
    sigs[0] = evsignal_new(s.base, SIGINT, serve_signal, &s);
    sigs[1] = evsignal_new(s.base, SIGTERM, serve_signal, &s);
    for (int i = 0; i < 2; i++) {
        if (sigs[i]) {
            event_add(sigs[i], NULL);
        }
    }
    fprintf(stderr, "mgtlm serve: %s on http://%s:%u/\n",
            s.plat->desc.name ? s.plat->desc.name : cfg->platform, cfg->host,
            s.http_port);
    serve_loop(&s);
    fprintf(stderr, "mgtlm serve: stopped at %llu ps after %llu events\n",
            (unsigned long long)(s.sim ? sim_now(s.sim) : 0),
            (unsigned long long)(s.sim ? sim_events_executed(s.sim) : 0));
    serve_shutdown(&s, sigs);
    return 0;
}
