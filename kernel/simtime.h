/* Simulated time: unsigned 64-bit picoseconds. Never floats. */
#ifndef MGTLM_SIMTIME_H
#define MGTLM_SIMTIME_H

#include <stdint.h>

typedef uint64_t SimTime;

#define SIM_PS ((SimTime)1)
#define SIM_NS ((SimTime)1000)
#define SIM_US ((SimTime)1000000)
#define SIM_MS ((SimTime)1000000000)
#define SIM_TIME_MAX UINT64_MAX
/* The end of simulated time: 2^63 ps, about 106.75 days. An event due later never
 * runs (sim_run stops there, sim_next_time and sim_step do not see it), and
 * now + delay saturates at SIM_TIME_MAX instead of wrapping: with every time
 * parameter at most 1 s no sum of delays can overflow before the end is reached. */
#define SIM_TIME_LIMIT ((SimTime)1 << 63)

#endif
