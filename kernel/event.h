/* A SystemC-style event object: at most one pending notification; a notify that is
 * earlier than the pending one replaces it, a later or equal one is ignored. */
#ifndef MGTLM_EVENT_H
#define MGTLM_EVENT_H

#include "sim.h"

typedef struct SimEvent {
    Sim *sim;
    SimProc fn;
    void *subject;
    void *obj;
    int prio;
    SimTime when; /* valid while pending */
    SimHandle pending;
} SimEvent;

/* Initialises ev (caller-owned storage) to call fn(subject, obj) when it fires. */
void sim_event_init(SimEvent *ev, Sim *sim, int prio, SimProc fn, void *subject,
                    void *obj);
/* Notifies ev at now + delay (saturating at SIM_TIME_MAX); earliest pending
 * notification wins. */
void sim_event_notify(SimEvent *ev, SimTime delay);
/* Same at an absolute time (>= now). */
void sim_event_notify_at(SimEvent *ev, SimTime at);
void sim_event_cancel(SimEvent *ev);
bool sim_event_pending(const SimEvent *ev);

#endif
