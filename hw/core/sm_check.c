/* The sm's data check (docs/cores.md "Data check"): every read the sm sends is kept
 * (its run, or one reference) until its response, whose bytes core_check_read compares
 * with what the trace allows a read of that kernel to return; wrong bytes count in
 * data_errors (a model error), as does a response without the read's bytes.
 *
 * Decisions:
 * - On only when the run has a trace (the scan, trace_scan.h, comes from it) and the
 *   parameter `check` is true; an sm driven without a trace (unit tests, testbenches)
 *   checks nothing. The scan itself is taken in every trace-driven run, check or not:
 *   it reads the whole trace before the run, so a malformed line, a block listed
 *   twice or a CTA that fits no SM is refused at load (one line, exit 2) however the
 *   check is set, and the dispatchers read the spool and the seek points it makes.
 *   `check` false leaves out the keeping and comparing of reads only (stop 36; before,
 *   it left out the scan too, and such traces failed mid-run, or a duplicate block
 *   was dropped without a word). The first sm to get the scan builds it, with a
 *   spool of the blocks' messages for the dispatchers when its parameter `spool` is
 *   true; an sm whose `spool` differs from that first one's fails to realize (the
 *   scan is one per process, so a value that could not be honoured is an error, not
 *   ignored).
 * - A read of one run (a piece: no threads) is kept as its address and length in the
 *   map's value, not as a reference to its transaction: the transaction goes back to
 *   the pool when the memory system is done with it (and crosses a cut wire without
 *   a copy, port.c), which keeps the run's working set small. A wavefront (threads),
 *   or a run too long or too high to pack, keeps its reference.
 * - The response's bytes are in the request's order: one run from addr for a piece,
 *   the threads' bytes in thread order for a wavefront. Every run lies in one page
 *   (pieces stay inside a 128 B line, a wavefront's threads are cut at pages), so its
 *   virtual address is the page's (a reverse translation table, physical page ->
 *   virtual page, filled with every xlat answer) plus the offset in the page. */
#include "hw/core/core_check.h"
#include "hw/core/sm_priv.h"

bool sm_check_start(Sm *s, SimError *err)
{
    const char *trace = s->base.plat ? s->base.plat->trace : NULL;
    if (!trace || !*trace) {
        return true;
    }
    s->scan = trace_scan_get(trace, s->spool, err);
    if (s->scan && trace_scan_spool_asked(s->scan) != s->spool) {
        trace_scan_put(s->scan);
        s->scan = NULL;
        return sim_error_set(
            err,
            "%s: spool is %s, but an sm realized before it has spool %s and "
            "built the trace's scan: the sms share one scan, so give every "
            "sm the same spool",
            s->base.name, s->spool ? "true" : "false", s->spool ? "false" : "true");
    }
    return s->scan != NULL;
}

/* True when the sm checks its reads: a trace-driven run with the parameter check. */
static bool sm_checking(const Sm *s)
{
    return s->check && s->scan;
}

void sm_check_translated(Sm *s, uint64_t key, uint64_t paddr)
{
    if (sm_checking(s)) {
        (void)idmap_remove(&s->rpages, paddr >> s->page_shift, NULL);
        idmap_insert(&s->rpages, paddr >> s->page_shift, key >> 1 << s->page_shift);
    }
}

/* A read kept as its address and length: bit 0 set, the length in bits 1..8, the
 * address above; a Txn pointer (bit 0 clear: aligned) otherwise. */
#define CHECK_RUN_LEN_MAX 255u
#define CHECK_RUN_ADDR_LIMIT ((uint64_t)1 << 55)

void sm_check_sent(Sm *s, Txn *t)
{
    if (!sm_checking(s) || t->cmd != TXN_READ) {
        return;
    }
    uint64_t v;
    if (t->nthreads == 0 && t->len <= CHECK_RUN_LEN_MAX &&
        t->addr < CHECK_RUN_ADDR_LIMIT) {
        v = t->addr << 9 | (uint64_t)t->len << 1 | 1;
    } else {
        txn_ref(t);
        v = (uint64_t)(uintptr_t)t;
    }
    idmap_insert(&s->checks, t->id, v);
}

/* Wrong bytes of the run of len bytes at physical address paddr, data[0..len). */
static uint32_t sm_check_run(Sm *s, uint64_t paddr, const uint8_t *data,
                             const uint8_t *be, uint32_t len)
{
    uint64_t vpage;
    if (!idmap_get(&s->rpages, paddr >> s->page_shift, &vpage)) {
        return len;
    }
    uint64_t vaddr = vpage + (paddr & (s->page - 1));
    return core_check_read(s->scan, s->launch.kernel, vaddr, paddr, data, len, be,
                           (FillKind)s->fill);
}

void sm_check_resp(Sm *s, const Txn *resp)
{
    uint64_t v;
    if (!sm_checking(s) || !idmap_remove(&s->checks, resp->id, &v)) {
        return;
    }
    bool packed = v & 1;
    Txn *req = packed ? NULL : (Txn *)(uintptr_t)v;
    uint64_t addr = packed ? v >> 9 : req->addr;
    uint32_t len = packed ? (uint32_t)(v >> 1 & CHECK_RUN_LEN_MAX) : req->len;
    uint32_t wrong = 0;
    if (!resp->data || resp->len != len) {
        wrong = len;
    } else if (packed || req->nthreads == 0) {
        wrong = sm_check_run(s, addr, resp->data, resp->be, len);
    } else {
        uint32_t off = 0;
        for (uint32_t i = 0; i < req->nthreads; i++) {
            const TxnThread *th = &req->threads[i];
            wrong += sm_check_run(s, th->addr, resp->data + off,
                                  resp->be ? resp->be + off : NULL, th->size);
            off += th->size;
        }
    }
    *s->data_errors += wrong;
    if (req) {
        txn_unref(req);
    }
}

void sm_check_clear(Sm *s)
{
    size_t pos = 0;
    uint64_t id, v;
    while (idmap_next(&s->checks, &pos, &id, &v)) {
        if (!(v & 1)) {
            txn_unref((Txn *)(uintptr_t)v);
        }
    }
    idmap_destroy(&s->checks);
    idmap_destroy(&s->rpages);
}

void sm_check_stop(Sm *s)
{
    sm_check_clear(s);
    if (s->scan) {
        trace_scan_put(s->scan);
        s->scan = NULL;
    }
}
