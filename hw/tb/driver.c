/* Testbench driver ("driver"): drives a list of transactions into the port it is
 * wired to and takes everything that comes back. Not hardware: it stands for
 * whatever would sit on the other side of the driven port (testbench format in
 * docs/testbench-format.md, COMMON conventions for ids).
 * - Transactions are created in reset() in stimulus order, so with drivers reset in
 *   testbench order their ids are 1, 2, 3, ... unless an entry gives "id" (an entry
 *   with "id" still consumes one kernel id, keeping the others' ids stable).
 * - Each goes out of "out" at its time; a refused send waits for on_free, and later
 *   entries queue behind it (order is kept). `born` is set to the actual send time.
 * - Every transaction arriving at "out" is taken at once. A response (cmd resp) is
 *   matched by id to the requests that need one (read, non-posted write, atomic).
 * Decision: with repeated ids a response counts for the first such request still
 * unanswered; a response for an id that no request needing a response carries
 * (including a posted write) counts as unknown, and driver_check fails on unknown
 * responses as well as on missing and duplicate ones.
 * Stats: sent, responses, unknown_responses, duplicate_responses, missing_responses
 * (computed at the end), requests_in (non-response transactions received). */
#include "driver.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "driver_stimulus.h"
#include "kernel/event.h"

typedef struct DriverSlot {
    uint64_t id;
    size_t entry;
} DriverSlot;

typedef struct Driver {
    Block base;
    Port *out;
    DriverEntry *entries;
    size_t n;
    Txn **txns;        /* created in reset, NULL once sent */
    uint32_t *answers; /* responses per entry */
    bool *needs;       /* entry needs a response */
    uint64_t *ids;     /* id of each entry's transaction (set in reset) */
    DriverSlot *by_id; /* entries needing a response, sorted by (id, entry) */
    size_t nby_id;
    size_t next; /* next entry to send */
    SimEvent kick;
    uint64_t first_unknown, first_duplicate;
    uint64_t *sent, *responses, *unknown, *duplicate, *missing, *requests_in;
} Driver;

static void driver_clear(Driver *d)
{
    for (size_t i = 0; d->txns && i < d->n; i++) {
        if (d->txns[i]) {
            txn_unref(d->txns[i]);
        }
    }
    driver_entries_free(d->entries, d->n);
    free(d->txns);
    free(d->answers);
    free(d->needs);
    free(d->ids);
    free(d->by_id);
    d->entries = NULL;
    d->txns = NULL;
    d->answers = NULL;
    d->needs = NULL;
    d->ids = NULL;
    d->by_id = NULL;
    d->n = d->nby_id = d->next = 0;
}

bool driver_load(Block *b, json_t *stimulus, const char *origin, SimError *err)
{
    Driver *d = (Driver *)b;
    DriverEntry *v;
    size_t n;
    if (!driver_entries_parse(stimulus, origin, b->plat->clock, b->plat->cmds, &v, &n,
                              err)) {
        return false;
    }
    driver_clear(d);
    d->entries = v;
    d->n = n;
    d->txns = calloc(n ? n : 1, sizeof *d->txns);
    d->answers = calloc(n ? n : 1, sizeof *d->answers);
    d->needs = calloc(n ? n : 1, sizeof *d->needs);
    d->ids = calloc(n ? n : 1, sizeof *d->ids);
    d->by_id = calloc(n ? n : 1, sizeof *d->by_id);
    if (!d->txns || !d->answers || !d->needs || !d->ids || !d->by_id) {
        driver_clear(d);
        return sim_error_set(err, "%s: out of memory", origin);
    }
    return true;
}

static int slot_cmp(const void *a, const void *b)
{
    const DriverSlot *x = a, *y = b;
    if (x->id != y->id) {
        return x->id < y->id ? -1 : 1;
    }
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static void driver_pump(Driver *d)
{
    SimTime now = sim_now(d->base.sim);
    while (d->next < d->n && d->entries[d->next].t <= now) {
        Txn *t = d->txns[d->next];
        t->born = now;
        if (!port_send(d->out, t)) {
            return; /* on_free resumes */
        }
        d->txns[d->next++] = NULL;
        (*d->sent)++;
    }
    if (d->next < d->n) {
        sim_event_notify_at(&d->kick, d->entries[d->next].t);
    }
}

static void driver_kick(void *subject, void *obj)
{
    (void)obj;
    driver_pump(subject);
}

static void driver_reset(Block *b)
{
    Driver *d = (Driver *)b;
    d->nby_id = 0;
    for (size_t i = 0; i < d->n; i++) {
        d->txns[i] = driver_entry_txn(d->base.sim, &d->entries[i]);
        d->needs[i] = txn_needs_response(d->txns[i]);
        d->ids[i] = d->txns[i]->id;
        if (d->needs[i]) {
            d->by_id[d->nby_id++] = (DriverSlot){d->ids[i], i};
        }
    }
    if (d->nby_id > 1) {
        qsort(d->by_id, d->nby_id, sizeof *d->by_id, slot_cmp);
    }
    if (d->n > 0) {
        sim_event_notify_at(&d->kick, d->entries[0].t);
    }
}

static void driver_answer(Driver *d, const Txn *r)
{
    size_t lo = 0, hi = d->nby_id;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->by_id[mid].id < r->id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == d->nby_id || d->by_id[lo].id != r->id) {
        if ((*d->unknown)++ == 0) {
            d->first_unknown = r->id;
        }
        return;
    }
    size_t pick = d->by_id[lo].entry;
    for (size_t k = lo; k < d->nby_id && d->by_id[k].id == r->id; k++) {
        if (d->answers[d->by_id[k].entry] == 0) {
            pick = d->by_id[k].entry;
            break;
        }
    }
    (*d->responses)++;
    if (d->answers[pick]++ == 1 && (*d->duplicate)++ == 0) {
        d->first_duplicate = r->id;
    }
}

static void driver_recv(Block *b, Port *p)
{
    Driver *d = (Driver *)b;
    Txn *t;
    while ((t = port_take(p)) != NULL) {
        if (t->cmd == TXN_RESP) {
            driver_answer(d, t);
        } else {
            (*d->requests_in)++;
        }
        txn_unref(t);
    }
}

static void driver_free_slot(Block *b, Port *p)
{
    (void)p;
    driver_pump((Driver *)b);
}

/* Count of requests needing a response that got none; *first = the first one. */
static uint64_t driver_missing(const Driver *d, size_t *first)
{
    uint64_t n = 0;
    for (size_t i = d->n; i-- > 0;) {
        if (d->needs[i] && d->answers[i] == 0) {
            n++;
            *first = i;
        }
    }
    return n;
}

static void driver_stats(Block *b)
{
    Driver *d = (Driver *)b;
    size_t first;
    *d->missing = driver_missing(d, &first);
}

bool driver_check(const Block *b, SimError *err)
{
    const Driver *d = (const Driver *)b;
    size_t first = 0;
    uint64_t missing = driver_missing(d, &first);
    if (missing) {
        return sim_error_set(err,
                             "%s: %" PRIu64 " request(s) got no response (first: id"
                             " %" PRIu64 ", stimulus %zu%s)",
                             b->name, missing, d->ids[first], first,
                             first >= d->next ? ", never sent" : "");
    }
    if (*d->duplicate) {
        return sim_error_set(err,
                             "%s: %" PRIu64 " request(s) got more than one response"
                             " (first: id %" PRIu64 ")",
                             b->name, *d->duplicate, d->first_duplicate);
    }
    if (*d->unknown) {
        return sim_error_set(err,
                             "%s: %" PRIu64 " response(s) to unknown ids (first: id"
                             " %" PRIu64 ")",
                             b->name, *d->unknown, d->first_unknown);
    }
    return true;
}

static bool driver_realize(Block *b, SimError *err)
{
    Driver *d = (Driver *)b;
    d->out = block_port(b, "out", -1);
    if (!d->out) {
        return sim_error_set(err, "%s: has no port out", b->name);
    }
    sim_event_init(&d->kick, b->sim, SIM_PRIO_DEFAULT, driver_kick, d, NULL);
    return true;
}

static void driver_finalize(Block *b)
{
    driver_clear((Driver *)b);
}

static const PortDef driver_ports[] = {
    {.name = "out",
     .required = true,
     .doc = "sends the stimulus, takes responses and anything else"},
};

static const StatDef driver_stat_defs[] = {
    STAT(Driver, sent, "sent", STAT_COUNTER, "", "transactions sent"),
    STAT(Driver, responses, "responses", STAT_COUNTER, "", "responses to requests sent"),
    STAT(Driver, unknown, "unknown_responses", STAT_COUNTER, "",
         "responses to unknown ids"),
    STAT(Driver, duplicate, "duplicate_responses", STAT_COUNTER, "",
         "responses to requests already answered"),
    STAT(Driver, missing, "missing_responses", STAT_COUNTER, "",
         "requests needing a response that got none"),
    STAT(Driver, requests_in, "requests_in", STAT_COUNTER, "",
         "non-response transactions taken"),
};

const BlockType driver_type = {
    .name = "driver",
    .doc = "testbench driver: sends stimulus transactions, checks their responses",
    .size = sizeof(Driver),
    .params = NULL,
    .nparams = 0,
    .ports = driver_ports,
    .nports = 1,
    .stat_defs = driver_stat_defs,
    .nstat_defs = sizeof driver_stat_defs / sizeof driver_stat_defs[0],
    .realize = driver_realize,
    .reset = driver_reset,
    .on_recv = driver_recv,
    .on_free = driver_free_slot,
    .stats = driver_stats,
    .finalize = driver_finalize,
};
