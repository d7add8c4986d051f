/* CodecTrack: records of outstanding fine-grained reads, a free-index stack and two
 * id maps (full id -> index, response id -> index). */
#include "hw/dualopt/codec_track.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/xalloc.h"

bool codec_is_fine(const Txn *t)
{
    if (t->mask == 0 || t->mask > 0xffffu) {
        return false;
    }
    uint64_t line = t->addr & ~(uint64_t)(CODEC_LINE_BYTES - 1);
    for (uint32_t w = 0; w < CODEC_WORDS; w++) {
        uint64_t a = line + 4u * w;
        if ((t->mask >> w & 1u) && (a < t->addr || a + 4 > t->addr + t->len)) {
            return false;
        }
    }
    return true;
}

void codec_track_destroy(CodecTrack *k)
{
    free(k->rec);
    free(k->free);
    idmap_destroy(&k->by_id);
    idmap_destroy(&k->by_tag);
    *k = (CodecTrack){0};
}

static void codec_track_grow(CodecTrack *k)
{
    size_t cap = k->cap;
    k->rec = xgrow(k->rec, &cap, (size_t)k->cap + 1, sizeof *k->rec, 64);
    k->free = xrealloc_array(k->free, cap, sizeof *k->free);
    for (uint32_t i = (uint32_t)cap; i > k->cap; i--) {
        k->free[k->nfree++] = i - 1;
    }
    k->cap = (uint32_t)cap;
}

bool codec_track_add(CodecTrack *k, const Txn *req, bool *clash)
{
    *clash = false;
    if (idmap_get(&k->by_id, req->id, NULL)) {
        return false;
    }
    if (k->nfree == 0) {
        codec_track_grow(k);
    }
    uint32_t i = k->free[--k->nfree];
    CodecReq *r = &k->rec[i];
    memset(r, 0, sizeof *r);
    r->id = req->id;
    r->addr = req->addr;
    r->len = req->len;
    r->mask = req->mask;
    r->src = req->src;
    r->unit = req->unit;
    idmap_insert(&k->by_id, req->id, i);
    r->tagged = idmap_insert(&k->by_tag, req->id & 0xffffu, i);
    *clash = !r->tagged;
    return true;
}

CodecReq *codec_track_by_tag(CodecTrack *k, uint16_t tag)
{
    uint64_t i;
    return idmap_get(&k->by_tag, tag, &i) ? &k->rec[i] : NULL;
}

CodecReq *codec_track_by_id(CodecTrack *k, uint64_t id)
{
    uint64_t i;
    return idmap_get(&k->by_id, id, &i) ? &k->rec[i] : NULL;
}

void codec_track_remove(CodecTrack *k, CodecReq *r)
{
    uint32_t i = (uint32_t)(r - k->rec);
    idmap_remove(&k->by_id, r->id, NULL);
    if (r->tagged) {
        idmap_remove(&k->by_tag, r->id & 0xffffu, NULL);
    }
    k->free[k->nfree++] = i;
}

uint32_t codec_track_count(const CodecTrack *k)
{
    return (uint32_t)idmap_count(&k->by_id);
}
