/* DualOpt mode transactions (SPEC.md 1.6): the decision engine declares `none`,
 * `coalesce` or `cache`; blocks that switch with the declaration (codec, rdma_cache)
 * take the declaration as a transaction on their optional `mode` port. Only the
 * transaction's `dualopt_mode` field is read (any command; it is not answered): */
#ifndef MGTLM_HW_DUALOPT_DUALOPT_MODE_H
#define MGTLM_HW_DUALOPT_DUALOPT_MODE_H

enum {
    DUALOPT_MODE_NONE = 0,     /* baseline DCA: codec and RDMA$ off */
    DUALOPT_MODE_COALESCE = 1, /* codec on, RDMA$ off */
    DUALOPT_MODE_CACHE = 2,    /* RDMA$ on, codec off */
};

#endif
