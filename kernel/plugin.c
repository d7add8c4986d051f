/* Plug-in loading (plugin.h): dlopen, the two entry symbols, the ABI comparison
 * field by field (the message names the first structure that differs), then the
 * plug-in's registration. The handle goes to the registry before the plug-in
 * registers anything, so entries added before a failure never outlive their code. */
#include "plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry_priv.h"
#include "xalloc.h"

static const MgtlmPluginAbi plugin_host_abi = MGTLM_PLUGIN_ABI_INIT;

/* The structures of MgtlmPluginAbi after the version, in member order. */
static const struct {
    const char *name;
    size_t offset;
} plugin_abi_sizes[] = {
    {"BlockType", offsetof(MgtlmPluginAbi, block_type)},
    {"Block", offsetof(MgtlmPluginAbi, block)},
    {"ParamDef", offsetof(MgtlmPluginAbi, param_def)},
    {"PortDef", offsetof(MgtlmPluginAbi, port_def)},
    {"StatDef", offsetof(MgtlmPluginAbi, stat_def)},
    {"PlatformInfo", offsetof(MgtlmPluginAbi, platform_info)},
    {"Port", offsetof(MgtlmPluginAbi, port)},
    {"Txn", offsetof(MgtlmPluginAbi, txn)},
    {"SimEvent", offsetof(MgtlmPluginAbi, sim_event)},
    {"Egress", offsetof(MgtlmPluginAbi, egress)},
};

static uint32_t plugin_abi_size(const MgtlmPluginAbi *abi, size_t offset)
{
    uint32_t v;
    memcpy(&v, (const char *)abi + offset, sizeof v);
    return v;
}

static bool plugin_check_abi(const char *path, const MgtlmPluginAbi *abi, SimError *err)
{
    if (abi->version != plugin_host_abi.version) {
        return sim_error_set(err,
                             "%s: plug-in ABI %u, this mgtlm has ABI %u: rebuild the "
                             "plug-in against this mgtlm",
                             path, (unsigned)abi->version,
                             (unsigned)plugin_host_abi.version);
    }
    for (size_t i = 0; i < sizeof plugin_abi_sizes / sizeof plugin_abi_sizes[0]; i++) {
        uint32_t theirs = plugin_abi_size(abi, plugin_abi_sizes[i].offset);
        uint32_t ours = plugin_abi_size(&plugin_host_abi, plugin_abi_sizes[i].offset);
        if (theirs != ours) {
            return sim_error_set(
                err,
                "%s: plug-in built with a %u-byte %s, this mgtlm's is %u "
                "bytes: rebuild the plug-in against this mgtlm",
                path, (unsigned)theirs, plugin_abi_sizes[i].name, (unsigned)ours);
        }
    }
    return true;
}

/* dlerror's text without a leading "<file>: " (the caller names the file itself). */
static const char *plugin_dl_reason(const char *file)
{
    const char *msg = dlerror();
    size_t n = strlen(file);
    if (!msg) {
        return "unknown error";
    }
    if (strncmp(msg, file, n) == 0 && strncmp(msg + n, ": ", 2) == 0) {
        return msg + n + 2;
    }
    return msg;
}

static bool plugin_open(const char *path, void **handle, SimError *err)
{
    /* dlopen searches the library path for a bare name: make it a path. */
    size_t n = strlen(path) + 3;
    char *file = xmalloc(n);
    snprintf(file, n, "%s%s", strchr(path, '/') ? "" : "./", path);
    FILE *f = fopen(file, "rb");
    if (!f) {
        free(file);
        return sim_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    }
    fclose(f);
    *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        sim_error_set(err, "%s: cannot load: %s", path, plugin_dl_reason(file));
    }
    free(file);
    return *handle != NULL;
}

bool plugin_load(Registry *r, const char *path, SimError *err)
{
    void *handle = NULL;
    if (!plugin_open(path, &handle, err)) {
        return false;
    }
    registry_keep_plugin(r, handle);
    const MgtlmPluginAbi *abi = dlsym(handle, "mgtlm_plugin_abi");
    if (!abi) {
        return sim_error_set(err, "%s: not an mgtlm plug-in (no symbol mgtlm_plugin_abi)",
                             path);
    }
    if (!plugin_check_abi(path, abi, err)) {
        return false;
    }
    bool (*reg)(Registry *, SimError *);
    void *sym = dlsym(handle, "mgtlm_plugin_register");
    if (!sym) {
        return sim_error_set(
            err, "%s: not an mgtlm plug-in (no symbol mgtlm_plugin_register)", path);
    }
    /* POSIX guarantees a function pointer survives this conversion (dlsym). */
    memcpy(&reg, &sym, sizeof reg);
    if (!reg(r, err)) {
        return sim_error_prefix(err, path);
    }
    return true;
}
