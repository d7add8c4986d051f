/* The IMST transition table of SPEC.md 4.3 (CARVE, paper 004 Fig. 12) as a pure
 * function, shared by the imst block and its unit test.
 *
 * | state \ access | local read  | local write       | remote read | remote write  |
 * | UNCACHED       | PRIVATE     | PRIVATE           | READ_SHARED | RW_SHARED     |
 * | PRIVATE        | PRIVATE     | PRIVATE           | READ_SHARED | RW_SHARED     |
 * | READ_SHARED    | READ_SHARED | RW_SHARED + inv   | READ_SHARED | RW_SHARED+inv |
 * | RW_SHARED      | RW_SHARED   | RW_SHARED+inv (*) | RW_SHARED   | RW_SHARED+inv |
 * (*) the caller then demotes to PRIVATE with probability demote_prob. */
#ifndef MGTLM_HW_CARVE_IMST_TABLE_H
#define MGTLM_HW_CARVE_IMST_TABLE_H

#include <stdbool.h>

typedef enum ImstState {
    IMST_UNCACHED,
    IMST_PRIVATE,
    IMST_READ_SHARED,
    IMST_RW_SHARED,
    IMST_STATES
} ImstState;

typedef struct ImstStep {
    ImstState next;
    bool invalidate; /* broadcast a write-invalidate */
    bool may_demote; /* (*): demotion draw after the broadcast */
} ImstStep;

static inline ImstStep imst_step(ImstState s, bool local, bool write)
{
    ImstStep r = {s, false, false};
    bool shared = s == IMST_READ_SHARED || s == IMST_RW_SHARED;
    if (!write) {
        if (!shared) {
            r.next = local ? IMST_PRIVATE : IMST_READ_SHARED;
        }
        return r;
    }
    if (!shared) {
        r.next = local ? IMST_PRIVATE : IMST_RW_SHARED;
        return r;
    }
    r.next = IMST_RW_SHARED;
    r.invalidate = true;
    r.may_demote = local && s == IMST_RW_SHARED;
    return r;
}

#endif
