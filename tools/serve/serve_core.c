/* mgtlm serve core: building the served platform (with its endpoints), run control
 * and advancing the kernel in bounded slices between two libevent polls.
 * Decisions:
 * - A run with a time limit schedules a no-op marker event at the limit (lowest
 *   priority), so that simulated time reaches the limit exactly even when the model
 *   has nothing to do until later; the marker counts as one executed event.
 * - serve_advance executes at most `budget` events and, after the first, no event
 *   later than one quantum past the time it started at: the sockets are polled at
 *   least every quantum of simulated time and every budget events.
 * - While a PCIe/IP peer owes the platform completions (and waits for nothing
 *   itself), the kernel does not pass pcie_ip_hold's time, and a run does not end
 *   as idle: the answer is on its way. */
#include "serve.h"

#include <stdlib.h>
#include <string.h>

#include "endpoint.h"
#include "pcie_ip.h"
#include "serve_http.h"
#include "serve_logs.h"

bool serve_build(Server *s, SimError *err)
{
    PlatformDesc desc;
    serve_teardown(s);
    if (!platform_load(s->cfg->registry, s->cfg->platform, s->cfg->sets, &desc, err)) {
        return false;
    }
    for (size_t i = 0; i < s->cfg->nattach; i++) {
        const ServeAttach *a = &s->cfg->attach[i];
        if (!endpoint_add(&desc, a->name, a->target, err)) {
            platform_desc_free(&desc);
            return sim_error_prefix(err, "--attach");
        }
    }
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        const ServePcieSpec *c = &s->cfg->pcie[i];
        if (!endpoint_add(&desc, c->name, c->target, err)) {
            platform_desc_free(&desc);
            return sim_error_prefix(err, "--pcie-ip");
        }
    }
    s->sim = sim_new();
    if (!s->sim) {
        platform_desc_free(&desc);
        return sim_error_set(err, "out of memory");
    }
    s->plat = platform_build(&desc, s->sim, err);
    if (!s->plat) {
        sim_free(s->sim);
        s->sim = NULL;
        return false;
    }
    platform_reset(s->plat);
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        pcie_ip_bind(s->pcie[i], platform_block(s->plat, s->cfg->pcie[i].name));
    }
    s->running = false;
    s->last_stop = "reset";
    return true;
}

void serve_teardown(Server *s)
{
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        if (s->pcie[i]) {
            pcie_ip_bind(s->pcie[i], NULL);
        }
    }
    if (s->plat) {
        platform_free(s->plat);
        s->plat = NULL;
    }
    if (s->sim) {
        sim_free(s->sim);
        s->sim = NULL;
    }
    free(s->stats_text);
    s->stats_text = NULL;
    s->state_gen++;
}

Block *serve_endpoint(const Server *s, const char *name)
{
    if (!s->plat) {
        return NULL;
    }
    for (size_t i = 0; i < s->plat->nblocks; i++) {
        Block *b = s->plat->blocks[i];
        if (b->type != &endpoint_type) {
            continue;
        }
        size_t n = strlen(b->name);
        if (strcmp(b->name, name) == 0 ||
            (strncmp(b->name, name, n) == 0 && strcmp(name + n, ".io") == 0) ||
            strcmp(endpoint_target(b)->name, name) == 0) {
            return b;
        }
    }
    return NULL;
}

static void serve_marker(void *subject, void *obj)
{
    (void)subject;
    (void)obj;
}

void serve_run_start(Server *s, SimTime until, uint64_t events)
{
    s->running = true;
    s->run_until = until;
    s->run_events = events;
    if (until != SIM_TIME_MAX && until > sim_now(s->sim)) {
        sim_schedule_at(s->sim, until, SIM_PRIO_LATE, serve_marker, NULL, NULL);
    }
}

void serve_run_stop(Server *s, const char *why)
{
    s->running = false;
    s->last_stop = why;
    serve_http_answer_waiters(s);
}

void serve_reset_prepare(Server *s)
{
    if (s->running) {
        serve_run_stop(s, "reset");
    }
    serve_logs_close_all(s);
}

/* The time the kernel may not pass while a PCIe/IP peer owes it completions. */
static SimTime serve_hold(const Server *s)
{
    SimTime hold = SIM_TIME_MAX;
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        SimTime h = pcie_ip_hold(s->pcie[i]);
        hold = h < hold ? h : hold;
    }
    return hold;
}

/* True while a PCIe/IP peer owes the platform completions. */
static bool serve_owed(const Server *s)
{
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        if (pcie_ip_owed(s->pcie[i])) {
            return true;
        }
    }
    return false;
}

bool serve_wants_time(Server *s)
{
    if (!s->plat) {
        return false;
    }
    SimTime next = sim_next_time(s->sim);
    if (next == SIM_TIME_MAX) {
        return s->running && !serve_owed(s); /* serve_advance ends the run */
    }
    if (next > serve_hold(s)) {
        return false; /* waiting for a co-simulation peer: block on the sockets */
    }
    if (s->running) {
        return true;
    }
    for (size_t i = 0; i < s->cfg->npcie; i++) {
        if (pcie_ip_waiting(s->pcie[i])) {
            return true;
        }
    }
    return false;
}

void serve_advance(Server *s, uint64_t budget)
{
    if (!s->plat) {
        return;
    }
    SimTime start = sim_now(s->sim), hold = serve_hold(s);
    SimTime cap =
        start > SIM_TIME_MAX - s->cfg->quantum ? SIM_TIME_MAX : start + s->cfg->quantum;
    for (uint64_t i = 0; i < budget; i++) {
        SimTime next = sim_next_time(s->sim);
        if (s->running && sim_events_executed(s->sim) >= s->run_events) {
            serve_run_stop(s, "events");
            return;
        }
        if (next == SIM_TIME_MAX) {
            if (s->running && !serve_owed(s)) {
                bool reached =
                    s->run_until != SIM_TIME_MAX && sim_now(s->sim) >= s->run_until;
                serve_run_stop(s, reached ? "until" : "idle");
            }
            return;
        }
        if (s->running && next > s->run_until) {
            serve_run_stop(s, "until");
            return;
        }
        if (next > hold || (i > 0 && next > cap)) {
            return;
        }
        sim_step(s->sim);
    }
}

json_t *serve_health_json(const Server *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "ok", json_boolean(s->plat != NULL));
    json_object_set_new(o, "time_ps",
                        json_integer(s->sim ? (json_int_t)sim_now(s->sim) : 0));
    json_object_set_new(
        o, "events", json_integer(s->sim ? (json_int_t)sim_events_executed(s->sim) : 0));
    json_object_set_new(
        o, "pending", json_integer(s->sim ? (json_int_t)sim_events_pending(s->sim) : 0));
    json_object_set_new(o, "state", json_string(s->running ? "running" : "paused"));
    json_object_set_new(o, "stopped", json_string(s->last_stop ? s->last_stop : ""));
    if (!s->plat) {
        json_object_set_new(o, "error", json_string(s->reset_error));
    }
    return o;
}
