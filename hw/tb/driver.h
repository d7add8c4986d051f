/* The testbench driver block ("driver", port "out"): sends a list of stimulus
 * transactions at given times and checks that each request needing a response gets
 * exactly one. See hw/tb/driver.c and docs/testbench-format.md. */
#ifndef MGTLM_HW_TB_DRIVER_H
#define MGTLM_HW_TB_DRIVER_H

#include <jansson.h>

#include "kernel/block.h"

extern const BlockType driver_type;

/* Loads the stimulus (a JSON array of entries, borrowed) into driver b; must be called
 * after the platform is built and before platform_reset. origin is the location of
 * the array ("tb.json: /drive/d0/stimulus"); errors name origin + "/<index>/<key>".
 * Replaces any stimulus loaded before. */
bool driver_load(Block *b, json_t *stimulus, const char *origin, SimError *err);

/* After the run: fails (message names the driver and the first offending ids) if a
 * request needing a response got none or more than one, or if a response arrived
 * for an id the driver never sent as a request needing one. */
bool driver_check(const Block *b, SimError *err);

#endif
