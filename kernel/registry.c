/* Block registry: lookups over the explicit list in hw/blocks.def (hw_block_types). */
#include "registry.h"

#include <string.h>

#include "hw/blocks.h"

const BlockType *const *registry_types(size_t *n)
{
    size_t count = 0;
    while (hw_block_types[count]) {
        count++;
    }
    *n = count;
    return hw_block_types;
}

const BlockType *registry_find(const char *name)
{
    for (size_t i = 0; hw_block_types[i]; i++) {
        if (strcmp(hw_block_types[i]->name, name) == 0) {
            return hw_block_types[i];
        }
    }
    return NULL;
}
