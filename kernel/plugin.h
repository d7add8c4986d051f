/* Plug-ins: block types (and topology generators, declared commands) built outside
 * mgtlm into a shared object and added to a Registry at run time
 * (`mgtlm --plugin PATH.so <command> ...`; docs/kernel.md, Plug-ins).
 *
 * A plug-in defines two symbols, both declared here:
 *
 *     #include "kernel/plugin.h"
 *     MGTLM_PLUGIN_DEFINE_ABI;
 *     bool mgtlm_plugin_register(Registry *r, SimError *err)
 *     {
 *         return registry_add(r, &probe_type, err);
 *     }
 *
 * - mgtlm_plugin_abi records what the plug-in was compiled against: the ABI version
 *   (MGTLM_PLUGIN_ABI_VERSION) and the sizes of the structures a block shares with
 *   the kernel. plugin_load refuses a plug-in whose version or any size differs from
 *   its own, naming the first difference: the sizes catch a header change nobody
 *   versioned (a new transaction field, a new BlockType member), the version catches
 *   changes of meaning. Bump the version when a public header changes a function's
 *   signature or what a member means.
 * - mgtlm_plugin_register adds the plug-in's entries to r like hw_register does; a
 *   name r already holds is refused by the registry (a type is never replaced).
 *
 * Decisions: a plug-in is compiled with the installed headers only
 * (`pkg-config --cflags mgtlm`) and not linked with libmgtlm: the kernel functions it
 * calls resolve against the program that loads it (the mgtlm binary exports them), so
 * there is one kernel in the process, as with Python extension modules. It is opened
 * with RTLD_NOW, so a symbol the kernel lacks fails the load rather than the run, and
 * RTLD_LOCAL, so two plug-ins cannot see each other's symbols. */
#ifndef MGTLM_PLUGIN_H
#define MGTLM_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "block.h"
#include "egress.h"
#include "error.h"
#include "event.h"
#include "registry.h"
#include "txn.h"

/* 2: port_cut_deliver lost its move argument (cut wires always move); txn_pool_claim and
 * xcalloc_lines added. 3: a Port keeps its cut wire's delivered credits (credit_at,
 * credit_ev) and cut_used counts the slots whose credits it has not applied yet. 4: a
 * Txn's members reordered and Txn and event nodes 64-byte aligned; egress_pump inline
 * over egress_pump_items */
#define MGTLM_PLUGIN_ABI_VERSION 4

/* What a plug-in was compiled against (see MGTLM_PLUGIN_ABI_INIT). */
typedef struct MgtlmPluginAbi {
    uint32_t version;
    uint32_t block_type, block, param_def, port_def, stat_def, platform_info;
    uint32_t port, txn, sim_event, egress;
} MgtlmPluginAbi;

/* The ABI of the headers being compiled. */
#define MGTLM_PLUGIN_ABI_INIT                                                            \
    {                                                                                    \
        .version = MGTLM_PLUGIN_ABI_VERSION, .block_type = sizeof(BlockType),            \
        .block = sizeof(Block), .param_def = sizeof(ParamDef),                           \
        .port_def = sizeof(PortDef), .stat_def = sizeof(StatDef),                        \
        .platform_info = sizeof(PlatformInfo), .port = sizeof(Port), .txn = sizeof(Txn), \
        .sim_event = sizeof(SimEvent), .egress = sizeof(Egress)                          \
    }

/* Defines the plug-in's mgtlm_plugin_abi (write it once, at file scope). */
#define MGTLM_PLUGIN_DEFINE_ABI                                                          \
    const MgtlmPluginAbi mgtlm_plugin_abi = MGTLM_PLUGIN_ABI_INIT

/* The two symbols every plug-in defines (exported even from a plug-in compiled with
 * -fvisibility=hidden). */
__attribute__((visibility("default"))) extern const MgtlmPluginAbi mgtlm_plugin_abi;
__attribute__((visibility("default"))) bool mgtlm_plugin_register(Registry *r,
                                                                  SimError *err);

/* Opens the shared object at path (a path without '/' is taken relative to the
 * current directory, never searched for), checks mgtlm_plugin_abi against this
 * kernel's and calls mgtlm_plugin_register(r, err). The registry keeps the object
 * open until registry_free, since what it registered lives in it. Every error names
 * path: "<path>: cannot open: <reason>", "<path>: not an mgtlm plug-in (no symbol
 * mgtlm_plugin_register)", "<path>: plug-in ABI 2, this mgtlm has ABI 1: rebuild the
 * plug-in against this mgtlm", "<path>: block type probe is already registered". */
bool plugin_load(Registry *r, const char *path, SimError *err);

#endif
