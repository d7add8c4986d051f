/* Block helpers: port lookup by table name. */
#include "block.h"

#include <stdio.h>
#include <string.h>

static const char *block_local_port_name(const Block *b, const Port *p)
{
    return p->name + strlen(b->name) + 1;
}

Port *block_port(Block *b, const char *name, int k)
{
    char want[256];
    if (k >= 0) {
        snprintf(want, sizeof want, "%s[%d]", name, k);
    } else {
        snprintf(want, sizeof want, "%s", name);
    }
    for (size_t i = 0; i < b->nports; i++) {
        if (strcmp(block_local_port_name(b, &b->ports[i]), want) == 0) {
            return &b->ports[i];
        }
    }
    return NULL;
}
