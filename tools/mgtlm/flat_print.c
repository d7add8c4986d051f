/* The flat platform printer of `validate --dump` and of `run`'s <stats>.platform.json
 * (see flat_print.h). */
#include "flat_print.h"

#include <stdlib.h>

/* Prints one JSON value compactly on the current line. */
static void flat_print_value(FILE *f, json_t *v)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY);
    fputs(s ? s : "null", f);
    free(s);
}

void flat_print(FILE *f, json_t *dump)
{
    const char *key;
    json_t *v;
    const char *sep = "{\n";
    json_object_foreach(dump, key, v) {
        fprintf(f, "%s  \"%s\": ", sep, key);
        sep = ",\n";
        if (!json_is_array(v)) {
            flat_print_value(f, v);
            continue;
        }
        size_t i;
        json_t *e;
        fputs("[", f);
        json_array_foreach(v, i, e) {
            fputs(i ? ",\n    " : "\n    ", f);
            flat_print_value(f, e);
        }
        fputs(json_array_size(v) ? "\n  ]" : "]", f);
    }
    fputs("\n}\n", f);
}
