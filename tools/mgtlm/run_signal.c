/* Signal handling of `mgtlm run` (see run_signal.h). Process-wide by nature: signals
 * are delivered to the process, so this state lives in the front end, never in the
 * kernel. */
#include "run_signal.h"

#include <string.h>

volatile sig_atomic_t run_signal_flag;
static volatile sig_atomic_t run_signal_stop; /* SIGINT or SIGTERM, first one wins */
static volatile sig_atomic_t run_signal_dump; /* SIGUSR1 since the last take */

static void run_signal_handler(int sig)
{
    if (sig == SIGUSR1) {
        run_signal_dump = 1;
    } else if (run_signal_stop == 0) {
        run_signal_stop = sig;
    }
    run_signal_flag = 1;
}

static void run_signal_set(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

void run_signal_install(void)
{
    run_signal_set(SIGINT, run_signal_handler, SA_RESETHAND | SA_RESTART);
    run_signal_set(SIGTERM, run_signal_handler, SA_RESETHAND | SA_RESTART);
    run_signal_set(SIGUSR1, run_signal_handler, SA_RESTART);
}

void run_signal_restore(void)
{
    run_signal_set(SIGINT, SIG_DFL, 0);
    run_signal_set(SIGTERM, SIG_DFL, 0);
    run_signal_set(SIGUSR1, SIG_DFL, 0);
}

void run_signal_take(int *stop, bool *dump)
{
    run_signal_flag = 0;
    *stop = run_signal_stop;
    *dump = run_signal_dump != 0;
    run_signal_dump = 0;
}

const char *run_signal_name(int sig)
{
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGUSR1:
        return "SIGUSR1";
    default:
        return "signal";
    }
}
