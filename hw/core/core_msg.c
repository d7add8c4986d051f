/* The control messages of the executing GPU (core_msg.h): the declared commands and
 * the little-endian encoding of a launch (a CTA's is core_cta.c's). */
#include "hw/core/core_msg.h"

#include "hw/core/core_le.h"

const TxnCmdDecl core_cmd_launch = {
    .name = "launch",
    .doc = "cores: start kernel addr (host -> dispatcher, answered when the GPU's share "
           "is over; dispatcher -> sm with the kernel in data, answered with ctas)",
};
const TxnCmdDecl core_cmd_cta = {
    .name = "cta",
    .doc =
        "cores: run CTA addr (data = the CTA), dispatcher -> sm, answered when it ends",
};
const TxnCmdDecl core_cmd_finish = {
    .name = "finish",
    .doc = "cores: the GPU's share of kernel addr is over, dispatcher -> sm; answered "
           "after the sm's release and kernel_end",
};
const TxnCmdDecl core_cmd_xlat = {
    .name = "xlat",
    .doc =
        "cores: translate the virtual page addr (space 1 = local), sm -> dispatcher -> "
        "host; answered with paddr",
};

void core_launch_encode(const CoreLaunch *l, uint8_t *out)
{
    const uint32_t w[] = {l->kernel,   l->grid[0],  l->grid[1], l->grid[2], l->block[0],
                          l->block[1], l->block[2], l->nregs,   l->shmem,   l->hint};
    for (size_t i = 0; i < 10; i++) {
        le_put32(out + 4 * i, w[i]);
    }
    le_put64(out + 40, l->shmem_base);
    le_put64(out + 48, l->local_base);
}

bool core_launch_decode(const uint8_t *data, size_t len, CoreLaunch *l, SimError *err)
{
    if (!data || len != CORE_LAUNCH_BYTES) {
        return sim_error_set(err, "launch: %zu data bytes, expected %d", data ? len : 0,
                             CORE_LAUNCH_BYTES);
    }
    uint32_t *const w[] = {&l->kernel,   &l->grid[0],  &l->grid[1],  &l->grid[2],
                           &l->block[0], &l->block[1], &l->block[2], &l->nregs,
                           &l->shmem,    &l->hint};
    for (size_t i = 0; i < 10; i++) {
        *w[i] = le_get32(data + 4 * i);
    }
    l->shmem_base = le_get64(data + 40);
    l->local_base = le_get64(data + 48);
    return true;
}
