/* A growable ring of transaction references (see fp_fifo.h). */
#include "hw/finepack/fp_fifo.h"

#include <stdio.h>
#include <stdlib.h>

void fp_fifo_push(FpFifo *f, Txn *t)
{
    if (f->count == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        Txn **v = malloc(cap * sizeof *v);
        if (!v) {
            fprintf(stderr, "mgtlm: out of memory\n");
            abort();
        }
        for (size_t i = 0; i < f->count; i++) {
            v[i] = f->v[(f->head + i) % f->cap];
        }
        free(f->v);
        f->v = v;
        f->cap = cap;
        f->head = 0;
    }
    f->v[(f->head + f->count) % f->cap] = t;
    f->count++;
}

Txn *fp_fifo_peek(const FpFifo *f)
{
    return f->count ? f->v[f->head] : NULL;
}

Txn *fp_fifo_pop(FpFifo *f)
{
    if (!f->count) {
        return NULL;
    }
    Txn *t = f->v[f->head];
    f->head = (f->head + 1) % f->cap;
    f->count--;
    return t;
}

void fp_fifo_free(FpFifo *f)
{
    Txn *t;
    while ((t = fp_fifo_pop(f)) != NULL) {
        txn_unref(t);
    }
    free(f->v);
    f->v = NULL;
    f->cap = f->head = 0;
}
