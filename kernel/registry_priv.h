/* The registry's side of plug-in loading (kernel/plugin.c): the shared objects whose
 * entries a registry holds stay open as long as the registry. */
#ifndef MGTLM_REGISTRY_PRIV_H
#define MGTLM_REGISTRY_PRIV_H

#include "registry.h"

/* Hands r the dlopen handle of a plug-in (owned by r from now on: registry_free closes
 * it, after the entries that point into it are gone). */
void registry_keep_plugin(Registry *r, void *handle);

#endif
