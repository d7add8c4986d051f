/* The registry of the hardware models for unit tests: built on first use (a failure
 * aborts the test), freed at exit. */
#ifndef MGTLM_TEST_HW_REGISTRY_H
#define MGTLM_TEST_HW_REGISTRY_H

#include <stdio.h>
#include <stdlib.h>

#include "hw/blocks.h"

static Registry *hw_registry_value;

static void hw_registry_free(void)
{
    registry_free(hw_registry_value);
    hw_registry_value = NULL;
}

/* The registry with every block type and topology generator of hw/ (borrowed). */
static inline Registry *hw_registry(void)
{
    if (!hw_registry_value) {
        SimError err;
        hw_registry_value = registry_new();
        if (!hw_registry_value || !hw_register(hw_registry_value, &err)) {
            fprintf(stderr, "hw_register: %s\n",
                    hw_registry_value ? err.msg : "no memory");
            abort();
        }
        atexit(hw_registry_free);
    }
    return hw_registry_value;
}

#endif
