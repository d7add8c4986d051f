/* A built platform during a run: reset, derived statistics, name lookups. */
#include <string.h>

#include "platform_index.h"
#include "platform_priv.h"

void platform_reset(Platform *p)
{
    for (size_t i = 0; i < p->nblocks; i++) {
        if (p->blocks[i]->type->reset) {
            p->blocks[i]->type->reset(p->blocks[i]);
        }
    }
}

void platform_finish_stats(Platform *p)
{
    for (size_t i = 0; i < p->nblocks; i++) {
        if (p->blocks[i]->type->stats) {
            p->blocks[i]->type->stats(p->blocks[i]);
        }
    }
}

Block *platform_block(const Platform *p, const char *name)
{
    size_t pos;
    return platform_index_get(p->index, name, &pos) ? p->blocks[pos] : NULL;
}

Port *platform_port(const Platform *p, const char *full_name)
{
    char inst[512], port[512];
    int k;
    if (!platform_name_split_port(full_name, inst, port, sizeof inst, &k)) {
        return NULL;
    }
    Block *b = platform_block(p, inst);
    return b ? block_port(b, port, k) : NULL;
}
