/* Signals during `mgtlm run`: SIGINT and SIGTERM end the run at the next event
 * boundary (stats and logs are then written as at a normal end), SIGUSR1 asks for the
 * stats to be written now while the run goes on.
 * The handlers only store into volatile sig_atomic_t flags (async-signal safe); the
 * kernel watches run_signal_flag (sim_watch) and returns from sim_run, and the run
 * loop reads what happened with run_signal_take. SIGINT and SIGTERM are handled once:
 * a second one has the default action and kills the process, the way out of a run
 * that does not come back. */
#ifndef MGTLM_RUN_SIGNAL_H
#define MGTLM_RUN_SIGNAL_H

#include <signal.h>
#include <stdbool.h>

/* Nonzero once any of the three signals arrived and until run_signal_take. */
extern volatile sig_atomic_t run_signal_flag;

/* Installs the handlers. */
void run_signal_install(void);
/* Puts the default actions back. */
void run_signal_restore(void);

/* Clears the flag and tells what arrived since the last call: the stopping signal
 * (SIGINT or SIGTERM; 0 if none) and whether SIGUSR1 asked for the stats. */
void run_signal_take(int *stop, bool *dump);

/* "SIGINT", "SIGTERM" or "SIGUSR1" (a static string; "signal" for any other). */
const char *run_signal_name(int sig);

#endif
