/* `--set k=v` parsing: values are JSON when they parse as JSON, otherwise strings,
 * so `--set gpu0.mem.latency=30ns` and `--set gpu0.cu[0].count=10` both work.
 * `--trace DIR` is the set "trace" with DIR taken as a string as it is. */
#include "cli_set.h"

#include <string.h>

bool cli_set_add(json_t *sets, const char *arg, SimError *err)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        return sim_error_set(err, "--set %s: expected instance.param=value", arg);
    }
    char key[512];
    size_t klen = (size_t)(eq - arg);
    if (klen >= sizeof key) {
        return sim_error_set(err, "--set %s: key longer than %zu characters", arg,
                             sizeof key - 1);
    }
    memcpy(key, arg, klen);
    key[klen] = '\0';
    json_t *value = json_loads(eq + 1, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
    if (!value) {
        value = json_string(eq + 1);
    }
    if (!value) {
        return sim_error_set(err, "--set %s: value is not valid UTF-8", arg);
    }
    json_object_set_new(sets, key, value);
    return true;
}

bool cli_set_trace(json_t *sets, const char *dir, SimError *err)
{
    json_t *value = json_string(dir);
    if (!value) {
        return sim_error_set(err, "--trace %s: not valid UTF-8", dir);
    }
    json_object_set_new(sets, "trace", value);
    return true;
}
