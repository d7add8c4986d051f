/* kernelslist.g of an Accel-Sim trace folder (SPEC.md 6.1): the commands in program
 * order, MemcpyHtoD allocations and kernel launches. */
#ifndef MGTLM_HW_CORE_ACCELSIM_LIST_H
#define MGTLM_HW_CORE_ACCELSIM_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/error.h"

typedef enum AtsCmdKind {
    ATS_CMD_MEMCPY, /* MemcpyHtoD,<hex addr>,<bytes> */
    ATS_CMD_KERNEL, /* kernel-<n>.traceg (accelsim_list.c: the forms of the name) */
} AtsCmdKind;

typedef struct AtsCmd {
    AtsCmdKind kind;
    uint64_t addr, bytes; /* ATS_CMD_MEMCPY */
    char *path;           /* ATS_CMD_KERNEL: the kernel file, folder included */
    char *name;           /* ATS_CMD_KERNEL: the name as kernelslist.g writes it */
} AtsCmd;

typedef struct AtsList {
    size_t ncmds;
    AtsCmd *cmds;
    char *file; /* the list's path as opened (kernelslist.g, .gz or .xz), owned */
} AtsList;

/* Reads dir/kernelslist.g (or its .gz or .xz when the first is missing) into
 * list (the caller frees it with ats_list_free). False with "<file>:<line>: <message>"
 * or "<file>: cannot open: <reason>" in err. */
bool ats_list_load(const char *dir, AtsList *list, SimError *err);
void ats_list_free(AtsList *list);

/* The path of a trace file: path itself, or path.gz, or path.xz when path does not
 * exist and that one does (new string, the caller frees it; NULL when out of
 * memory). */
char *ats_list_trace_path(const char *path);

#endif
