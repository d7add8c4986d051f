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

#endif
