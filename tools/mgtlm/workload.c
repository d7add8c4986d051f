/* Workload files: sets and a time limit layered between platform and command line. */
#include "workload.h"

#include <string.h>

#include "kernel/platform/json_file.h"
#include "kernel/units.h"

bool workload_load(const char *path, json_t *sets, SimTime *until, bool *has_until,
                   SimError *err)
{
    json_t *root = json_file_load(path, err);
    if (!root) {
        return false;
    }
    bool ok = true;
    if (!json_is_object(root)) {
        ok = sim_error_set(err, "%s: /: a workload must be a JSON object", path);
        goto out;
    }
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value) {
        if (strcmp(key, "doc") == 0) {
            if (!json_is_string(value)) {
                ok = sim_error_set(err, "%s: /doc: must be a string", path);
                goto out;
            }
        } else if (strcmp(key, "until") == 0) {
            SimError uerr;
            if (!json_is_string(value) ||
                !units_parse_time(json_string_value(value), 0, until, &uerr)) {
                ok = sim_error_set(err, "%s: /until: %s", path,
                                   json_is_string(value)
                                       ? uerr.msg
                                       : "must be a time string like \"10us\"");
                goto out;
            }
            *has_until = true;
        } else if (strcmp(key, "set") == 0) {
            if (!json_is_object(value)) {
                ok = sim_error_set(err, "%s: /set: must be an object", path);
                goto out;
            }
            const char *k;
            json_t *v;
            json_object_foreach(value, k, v) {
                json_object_set(sets, k, v);
            }
        } else {
            ok = sim_error_set(err, "%s: /%s: unknown key (expected doc, set, until)",
                               path, key);
            goto out;
        }
    }
out:
    json_decref(root);
    return ok;
}
