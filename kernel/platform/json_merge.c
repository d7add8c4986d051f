/* Deep merge: objects merge member by member, every other value replaces. Relies on
 * jansson >= 2.8 keeping object members in insertion order (also through
 * json_deep_copy and when a member's value is replaced). */
#include "json_merge.h"

json_t *json_merge(json_t *base, json_t *over)
{
    if (!json_is_object(base) || !json_is_object(over)) {
        return json_deep_copy(over);
    }
    json_t *out = json_deep_copy(base);
    if (!out) {
        return NULL;
    }
    const char *key;
    json_t *v;
    json_object_foreach(over, key, v)
    {
        json_t *old = json_object_get(out, key);
        json_t *merged = old ? json_merge(old, v) : json_deep_copy(v);
        if (json_object_set_new(out, key, merged) != 0) {
            json_decref(out);
            return NULL;
        }
    }
    return out;
}
