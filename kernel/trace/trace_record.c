/* The log / golden record of one transaction event, written as compact JSON with the
 * keys in schema order (see kernel/trace/trace.h and docs/log-format.md):
 * t port ev id cmd [req status] addr len [src dst unit posted data be, the extension
 * fields of kernel/txn_fields.def in order, threads parent], optional keys only when
 * set. trace_record_json parses the written text back, so the JSON object and the
 * streamed line can never differ. */
#include "trace.h"

#include <inttypes.h>
#include <stdlib.h>

void trace_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') {
            fputc('\\', f);
            fputc(*c, f);
        } else if (*c < 0x20) {
            fprintf(f, "\\u%04x", *c);
        } else {
            fputc(*c, f);
        }
    }
    fputc('"', f);
}

/* The byte enables as a hex number, bit i = byte i enabled, no leading zeros. */
static void write_be(FILE *f, const uint8_t *be, uint32_t len)
{
    uint32_t nibbles = (len + 3) / 4;
    bool started = false;
    fputs("\"0x", f);
    for (uint32_t k = nibbles; k-- > 0;) {
        unsigned v = 0;
        for (uint32_t b = 0; b < 4 && 4 * k + b < len; b++) {
            v |= (be[4 * k + b] ? 1u : 0u) << b;
        }
        if (v || started || k == 0) {
            fprintf(f, "%x", v);
            started = true;
        }
    }
    fputc('"', f);
}

static void write_optional(FILE *f, const Txn *txn)
{
    if (txn->src >= 0) {
        fprintf(f, ",\"src\":%d", txn->src);
    }
    if (txn->dst >= 0) {
        fprintf(f, ",\"dst\":%d", txn->dst);
    }
    if (txn->unit >= 0) {
        fprintf(f, ",\"unit\":%d", txn->unit);
    }
    if (txn->posted) {
        fputs(",\"posted\":true", f);
    }
    if (txn->data) {
        fputs(",\"data\":\"0x", f);
        for (uint32_t i = 0; i < txn->len; i++) {
            fprintf(f, "%02x", txn->data[i]);
        }
        fputc('"', f);
    }
    if (txn->be) {
        fputs(",\"be\":", f);
        write_be(f, txn->be, txn->len);
    }
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        const TxnField *x = &txn_fields[i];
        uint64_t v = txn_field_get(txn, x);
        if (v == 0) {
            continue;
        }
        if (x->kind == TXN_FIELD_HEX) {
            fprintf(f, ",\"%s\":\"0x%" PRIx64 "\"", x->name, v);
        } else {
            fprintf(f, ",\"%s\":%" PRIu64, x->name, v);
        }
    }
    if (txn->nthreads > 0) {
        fputs(",\"threads\":[", f);
        for (uint32_t i = 0; i < txn->nthreads; i++) {
            fprintf(f, "%s[\"0x%" PRIx64 "\",%" PRIu32 "]", i ? "," : "",
                    txn->threads[i].addr, txn->threads[i].size);
        }
        fputc(']', f);
    }
    if (txn->nparents > 0) {
        fputs(",\"parent\":[", f);
        for (uint32_t i = 0; i < txn->nparents; i++) {
            fprintf(f, "%s%" PRIu64, i ? "," : "", txn->parents[i]);
        }
        fputc(']', f);
    }
}

bool trace_record_write(FILE *f, SimTime t, const char *port, const char *ev,
                        const Txn *txn)
{
    fprintf(f, "{\"t\":%" PRIu64 ",\"port\":", t);
    trace_json_string(f, port);
    fprintf(f, ",\"ev\":\"%s\",\"id\":%" PRIu64 ",\"cmd\":\"%s\"", ev, txn->id,
            txn_cmd_label(txn));
    if (txn->cmd == TXN_RESP) {
        fprintf(f, ",\"req\":\"%s\",\"status\":\"%s\"", txn_req_label(txn),
                txn_status_name(txn->status));
    }
    fprintf(f, ",\"addr\":\"0x%" PRIx64 "\",\"len\":%" PRIu32, txn->addr, txn->len);
    write_optional(f, txn);
    fputc('}', f);
    return !ferror(f);
}

json_t *trace_record_json(SimTime t, const char *port, const char *ev, const Txn *txn)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) {
        return NULL;
    }
    bool ok = trace_record_write(f, t, port, ev, txn);
    if (fclose(f) != 0 || !ok) {
        free(text);
        return NULL;
    }
    json_t *rec = json_loadb(text, size, 0, NULL);
    free(text);
    return rec;
}
