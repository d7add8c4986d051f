/* The registry: the block types, topology generators and declared transaction
 * commands a front end makes available to the platform loader, testbench stimulus
 * and golden vectors. It is a value (no process-wide list): the front end creates
 * one, fills it (hw_register for the hardware models, then its own types), and hands
 * it to platform_load. Entries keep their registration order, which is the order
 * `mgtlm blocks` lists them in and the order of the topology choices in messages. */
#ifndef MGTLM_REGISTRY_H
#define MGTLM_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "block.h"
#include "error.h"
#include "topology.h"
#include "txn.h"

typedef struct Registry Registry;

/* A new, empty registry (owned by the caller, free with registry_free), NULL on OOM. */
Registry *registry_new(void);
/* Frees r and closes the plug-ins loaded into it (plugin.h): call it after every
 * platform built with r is freed. */
void registry_free(Registry *r);

/* Adds a block type (borrowed: it must outlive the registry and every platform built
 * with it). Fails on a name already registered ("block type sink is already
 * registered"): a registered type is never replaced. */
bool registry_add(Registry *r, const BlockType *t, SimError *err);
/* Adds a topology generator (borrowed, like a block type). Fails on a name already
 * registered or the reserved name "none". */
bool registry_add_topology(Registry *r, const TopologyType *t, SimError *err);
/* Adds a declared transaction command (txn.h TxnCmdDecl; borrowed, like a block
 * type): stimulus and golden vectors may then name it. Fails on a name already
 * registered or the name of a generic command ("read", ..., "declared"). */
bool registry_add_cmd(Registry *r, const TxnCmdDecl *d, SimError *err);

/* All block types in registration order (borrowed, valid until the next add). */
const BlockType *const *registry_types(const Registry *r, size_t *n);
/* The block type called name, or NULL. */
const BlockType *registry_find(const Registry *r, const char *name);
/* All topology generators in registration order (borrowed, valid until the next
 * add). */
const TopologyType *const *registry_topologies(const Registry *r, size_t *n);
/* The topology generator called name, or NULL. */
const TopologyType *registry_find_topology(const Registry *r, const char *name);
/* The declared commands in registration order, NULL-terminated (the list
 * txn_cmd_parse takes; borrowed, valid until the next add; never NULL). */
const TxnCmdDecl *const *registry_cmds(const Registry *r);

#endif
