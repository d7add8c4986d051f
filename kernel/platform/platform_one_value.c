/* Parameters that hold one value across a platform (ParamDef.one_value,
 * kernel/block.h): every instance whose type marks a parameter of a given key holds
 * the same value of it, checked by the loader after the set overrides (exit 2) rather
 * than found as thousands of data errors at the end of a run. CARVE's rdc, epoch and
 * imst mark `coherence`: a mix (an imst that sends no invalidates beside an rdc that
 * waits for them) keeps stale remote lines, which the cores' data check then reports
 * as model errors.
 *
 * Decisions: values are compared in canonical form (params_to_json, as --dump prints
 * them), so "hwc" given and "hwc" defaulted agree; the first instance in the
 * description's order that holds a marked key sets the value, and the first that
 * differs is named, at its own file and JSON path, with both values; keys are
 * independent (two marked keys of one type are compared separately); an unmarked
 * parameter of the same key (another type's) takes no part. The memories' and the
 * checkers' `fill` is deliberately not marked: a wrong fill is how the suites make
 * the data check catch wrong bytes (docs/cores.md, "Data check"). */
#include <stdio.h>
#include <stdlib.h>

#include "kernel/json_util.h"
#include "params.h"
#include "platform_priv.h"

bool platform_one_value_init(PlatformOneValue *ov)
{
    ov->first = json_object();
    return ov->first != NULL;
}

void platform_one_value_free(PlatformOneValue *ov)
{
    json_decref(ov->first);
    ov->first = NULL;
}

/* The canonical text of v (a string, or the compact JSON of anything else) in buf. */
static const char *one_value_text(json_t *v, char *buf, size_t n)
{
    if (json_is_string(v)) {
        return json_string_value(v);
    }
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(buf, n, "%s", s ? s : "?");
    free(s);
    return buf;
}

bool platform_one_value_add(PlatformOneValue *ov, const PlatformLoad *ld, size_t i,
                            const void *state, SimError *err)
{
    const PlatformInstance *in = &ld->desc->inst[i];
    const BlockType *t = in->type;
    for (size_t k = 0; k < t->nparams; k++) {
        const ParamDef *d = &t->params[k];
        if (!d->one_value) {
            continue;
        }
        json_t *v = params_to_json(state, d);
        if (!v) {
            return sim_error_set(err, "out of memory");
        }
        json_t *seen = json_object_get(ov->first, d->key);
        if (!seen) {
            json_t *rec = json_pack("{s:o, s:I}", "value", v, "inst", (json_int_t)i);
            if (!rec || json_object_set_new(ov->first, d->key, rec) != 0) {
                return sim_error_set(err, "out of memory");
            }
            continue;
        }
        json_t *want = json_object_get(seen, "value");
        if (!json_equal(v, want)) {
            const PlatformInstance *first =
                &ld->desc->inst[json_integer_value(json_object_get(seen, "inst"))];
            char p[PLATFORM_PATH_MAX], a[64], b[64];
            platform_path(p, sizeof p, ld->paths[i], "params");
            json_pointer_push(p, sizeof p, d->key);
            bool ok =
                platform_fail(ld, p, err,
                              "%s: %s %s differs from %s's %s %s (blocks of this "
                              "parameter work together: set them alike)",
                              in->name, d->key, one_value_text(v, a, sizeof a),
                              first->name, d->key, one_value_text(want, b, sizeof b));
            json_decref(v);
            return ok;
        }
        json_decref(v);
    }
    return true;
}
