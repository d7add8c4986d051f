/* Unit tests of the transaction extension fields (kernel/txn_fields.def, txn.c):
 * the runtime table, get/set up to each field's width, blanking of new transactions,
 * the copy into responses, and that docs/log-format.md lists exactly the fields, in
 * order (run with the source root as working directory). */
#include <stdlib.h>

#include "kernel/sim.h"
#include "kernel/txn.h"
#include "tests/unit/harness.h"

static void test_table(void)
{
    CHECK(TXN_FIELD_COUNT > 0);
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        const TxnField *f = &txn_fields[i];
        CHECK(f->size == 4 || f->size == 8);
        CHECK_EQ_U64(f->max, f->size == 8 ? UINT64_MAX : UINT32_MAX);
        CHECK(f->offset + f->size <= sizeof(Txn));
        CHECK(f->doc && f->doc[0]);
        CHECK(txn_field_find(f->name) == f);
    }
    CHECK(txn_field_find("mask") && txn_field_find("mask")->kind == TXN_FIELD_HEX);
    CHECK(txn_field_find("epoch") && txn_field_find("epoch")->kind == TXN_FIELD_UINT);
    CHECK(txn_field_find("len") == NULL);
    CHECK(txn_field_find("") == NULL);
}

static void test_get_set(void)
{
    Sim *sim = sim_new();
    Txn *t = txn_new(sim, TXN_WRITE, 0x40, 4);
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        CHECK_EQ_U64(txn_field_get(t, &txn_fields[i]), 0);
    }
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        txn_field_set(t, &txn_fields[i], txn_fields[i].max - i);
    }
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        CHECK_EQ_U64(txn_field_get(t, &txn_fields[i]), txn_fields[i].max - i);
    }
    CHECK_EQ_U64(t->mask, UINT32_MAX - (uint64_t)(txn_field_find("mask") - txn_fields));
    CHECK_EQ_U64(t->addr, 0x40);
    CHECK_EQ_U64(t->len, 4);
    txn_unref(t);
    Txn *u = txn_new(sim, TXN_READ, 0, 4);
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        CHECK_EQ_U64(txn_field_get(u, &txn_fields[i]), 0);
    }
    txn_unref(u);
    sim_free(sim);
}

static void test_response_copy(void)
{
    Sim *sim = sim_new();
    Txn *req = txn_new(sim, TXN_READ, 0x80, 8);
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        txn_field_set(req, &txn_fields[i], i + 1);
    }
    Txn *resp = txn_new_response(sim, req);
    for (size_t i = 0; i < TXN_FIELD_COUNT; i++) {
        CHECK_EQ_U64(txn_field_get(resp, &txn_fields[i]),
                     txn_fields[i].response ? i + 1 : 0);
    }
    CHECK(txn_field_find("mask")->response);
    CHECK(!txn_field_find("wire")->response);
    txn_unref(resp);
    txn_unref(req);
    sim_free(sim);
}

/* The field names of the rows of the "## Extension fields" table, in order. */
static size_t doc_fields(FILE *f, char names[][64], size_t cap)
{
    char line[1024];
    bool in = false;
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "## ", 3) == 0) {
            in = strcmp(line, "## Extension fields\n") == 0;
            continue;
        }
        const char *end;
        if (!in || strncmp(line, "| `", 3) != 0 || !(end = strchr(line + 3, '`'))) {
            continue;
        }
        if (n < cap && (size_t)(end - line - 3) < 64) {
            memcpy(names[n], line + 3, (size_t)(end - line - 3));
            names[n][end - line - 3] = '\0';
        }
        n++;
    }
    return n;
}

static void test_documented(void)
{
    FILE *f = fopen("docs/log-format.md", "r");
    CHECK(f != NULL);
    if (!f) {
        return;
    }
    char names[64][64];
    size_t n = doc_fields(f, names, 64);
    fclose(f);
    CHECK_EQ_U64(n, TXN_FIELD_COUNT);
    for (size_t i = 0; i < n && i < TXN_FIELD_COUNT; i++) {
        CHECK_STR(names[i], txn_fields[i].name);
    }
}

int main(void)
{
    RUN(test_table);
    RUN(test_get_set);
    RUN(test_response_copy);
    RUN(test_documented);
    return harness_report();
}
