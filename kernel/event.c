/* SimEvent: a SystemC-style event with one pending notification, earliest wins.
 * Notification is the kernel's hottest path, so it uses the inline scheduling of
 * sim_priv.h. */
#include "event.h"

#include "sim_priv.h"

void sim_event_init(SimEvent *ev, Sim *sim, int prio, SimProc fn, void *subject,
                    void *obj)
{
    ev->sim = sim;
    ev->fn = fn;
    ev->subject = subject;
    ev->obj = obj;
    ev->prio = prio;
    ev->when = 0;
    ev->pending = (SimHandle){0};
}

void sim_event_notify_at(SimEvent *ev, SimTime at)
{
    if (sim_priv_pending(ev->pending)) {
        if (ev->when <= at) {
            return;
        }
        eventq_cancel(&ev->sim->q, ev->pending.node);
    }
    ev->when = at;
    ev->pending =
        sim_priv_schedule_at(ev->sim, at, ev->prio, ev->fn, ev->subject, ev->obj);
}

void sim_event_notify(SimEvent *ev, SimTime delay)
{
    SimTime now = ev->sim->now;
    sim_event_notify_at(ev, delay > SIM_TIME_MAX - now ? SIM_TIME_MAX : now + delay);
}

void sim_event_cancel(SimEvent *ev)
{
    sim_cancel(ev->sim, ev->pending);
    ev->pending = (SimHandle){0};
}

bool sim_event_pending(const SimEvent *ev)
{
    return sim_handle_pending(ev->pending);
}
