/* Strict JSON file reader: the whole file is read into memory, a file holding only
 * white space is reported as empty, and jansson parses it with duplicate keys
 * rejected; parse errors are reported as "file:line:column: text". The file is opened
 * by input_file_open (a regular file of at most 1 GiB). */
#include "json_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/input_file.h"

/* Reads the whole file (a regular file of at most INPUT_FILE_WHOLE_MAX bytes, also
 * while it is read); *len gets its size. NULL on failure (err written). */
static char *json_file_read(const char *path, size_t *len, SimError *err)
{
    SimError why;
    FILE *f = input_file_open(path, INPUT_FILE_WHOLE_MAX, &why);
    if (!f) {
        sim_error_set(err, "%s: cannot open: %s", path, why.msg);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf && n <= INPUT_FILE_WHOLE_MAX) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            break;
        }
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    bool ok = buf && (n > INPUT_FILE_WHOLE_MAX || input_file_at_end(f, path, err));
    fclose(f);
    if (!buf) {
        sim_error_set(err, "%s: cannot read: out of memory", path);
        return NULL;
    }
    if (ok && n > INPUT_FILE_WHOLE_MAX) {
        ok = sim_error_set(err, "%s: cannot read: grew beyond %" PRIu64 " bytes", path,
                           INPUT_FILE_WHOLE_MAX);
    }
    if (!ok) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

json_t *json_file_load(const char *path, SimError *err)
{
    size_t len = 0;
    char *buf = json_file_read(path, &len, err);
    if (!buf) {
        return NULL;
    }
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", buf[i]) && buf[i] != '\0') {
        i++;
    }
    if (i == len) {
        free(buf);
        sim_error_set(err, "%s: empty file", path);
        return NULL;
    }
    json_error_t je;
    json_t *doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    free(buf);
    if (!doc) {
        sim_error_set(err, "%s:%d:%d: %s", path, je.line, je.column, je.text);
    }
    return doc;
}
