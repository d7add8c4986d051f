/* Block entries of the GPU template ("gpu": {"blocks": ...}) and of the top level
 * ("blocks"): {"type": T, "count": N, "params": {...}, "doc": "..."}. An entry with
 * "count" becomes the array instances "<name>[0]" .. "<name>[N-1]". Template names
 * get the prefix "gpu<g>."; top-level names must not start a reserved name ("gpu<i>",
 * "fabric", "tb"). Instances are added in file order; the entry an applied cores
 * section replaces adds its SMs and dispatcher instead (platform_cores.c). */
#include <stdio.h>
#include <string.h>

#include "kernel/json_util.h"
#include "kernel/registry.h"
#include "platform_priv.h"

static const char *const platform_block_keys[] = {"type", "count", "params", "doc", NULL};

static bool platform_block_reserved(const char *name)
{
    if (strcmp(name, TOPOLOGY_NAMESPACE) == 0 || strcmp(name, "tb") == 0) {
        return true;
    }
    if (strncmp(name, "gpu", 3) != 0 || name[3] == '\0') {
        return false;
    }
    for (const char *p = name + 3; *p; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
    }
    return true;
}

/* Checks one entry; *type, *count (0 = not an array) and *params are filled. */
static bool platform_block_parse(PlatformLoad *ld, const char *key, json_t *entry,
                                 const char *path, int gpu, const char **type,
                                 json_int_t *count, json_t **params, SimError *err)
{
    if (strlen(key) > PLATFORM_MAX_NAME) {
        return platform_fail(
            ld, path, err,
            "block name longer than " PLATFORM_STR(PLATFORM_MAX_NAME) " characters");
    }
    if (!platform_name_ident(key)) {
        return platform_fail(ld, path, err,
                             "invalid block name \"%s\" (letters, digits and '_', not "
                             "starting with a digit)",
                             key);
    }
    if (gpu < 0 && platform_block_reserved(key)) {
        return platform_fail(ld, path, err, "block name \"%s\" is reserved", key);
    }
    if (!json_is_object(entry)) {
        return platform_fail(ld, path, err, "expected an object, got %s",
                             json_kind(entry));
    }
    json_t *t, *c, *doc;
    if (!platform_check_keys(ld, entry, path, platform_block_keys, err) ||
        !platform_check_member(ld, entry, path, "type", JSON_STRING, &t, err) ||
        !platform_check_member(ld, entry, path, "count", JSON_INTEGER, &c, err) ||
        !platform_check_member(ld, entry, path, "params", JSON_OBJECT, params, err) ||
        !platform_check_member(ld, entry, path, "doc", JSON_STRING, &doc, err)) {
        return false;
    }
    char p[PLATFORM_PATH_MAX];
    if (!t) {
        return platform_fail(ld, path, err, "missing key \"type\"");
    }
    *type = json_string_value(t);
    if (!registry_find(ld->desc->registry, *type)) {
        platform_path(p, sizeof p, path, "type");
        return platform_fail(ld, p, err, "unknown block type \"%s\" (see mgtlm blocks)",
                             *type);
    }
    *count = c ? json_integer_value(c) : 0;
    if (c && (*count < 1 || *count > PLATFORM_MAX_COUNT)) {
        platform_path(p, sizeof p, path, "count");
        return platform_fail(ld, p, err, "%lld is %s", (long long)*count,
                             *count < 1
                                 ? "below minimum 1"
                                 : "above maximum " PLATFORM_STR(PLATFORM_MAX_COUNT));
    }
    return true;
}

bool platform_blocks_add(PlatformLoad *ld, json_t *blocks, const char *path, int gpu,
                         SimError *err)
{
    const char *key;
    json_t *entry;
    json_object_foreach(blocks, key, entry) {
        if (gpu >= 0 && platform_cores_replaces(ld, key)) {
            if (!platform_cores_gpu_add(ld, gpu, err)) {
                return false;
            }
            continue;
        }
        char p[PLATFORM_PATH_MAX];
        platform_path(p, sizeof p, path, key);
        const char *type = NULL;
        json_int_t count = 0;
        json_t *params = NULL;
        if (!platform_block_parse(ld, key, entry, p, gpu, &type, &count, &params, err)) {
            return false;
        }
        char name[256];
        for (json_int_t k = 0; k < (count ? count : 1); k++) {
            int used = gpu >= 0 ? snprintf(name, sizeof name, "gpu%d.%s", gpu, key)
                                : snprintf(name, sizeof name, "%s", key);
            if (count && used > 0 && (size_t)used < sizeof name) {
                snprintf(name + used, sizeof name - (size_t)used, "[%lld]", (long long)k);
            }
            if (!platform_load_add(ld, name, type, gpu, params, p, err)) {
                return false;
            }
        }
    }
    return true;
}
