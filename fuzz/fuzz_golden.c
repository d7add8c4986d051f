/* libFuzzer target for the golden vector loader (tools/mgtlm/golden.c): the input is
 * written to a file and loaded with the commands of the hardware's registry. A vector
 * that loads must match itself, as observed records, in every mode (exact, order,
 * set); a mismatch, a crash, a leak or a sanitizer report is a failure (abort). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "hw/blocks.h"
#include "tools/mgtlm/golden.h"

static Registry *fuzz_registry;
static char fuzz_path[4200];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    SimError err;
    fuzz_registry = registry_new();
    if (!fuzz_registry || !hw_register(fuzz_registry, &err)) {
        fprintf(stderr, "fuzz_golden: %s\n", fuzz_registry ? err.msg : "no memory");
        exit(2);
    }
    snprintf(fuzz_path, sizeof fuzz_path, "%s/golden.jsonl", fuzz_tmpdir());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const GoldenMode modes[] = {GOLDEN_EXACT, GOLDEN_ORDER, GOLDEN_SET};
    Golden g = {0};
    SimError err;
    fuzz_write_file(fuzz_path, data, size);
    if (golden_load(fuzz_path, registry_cmds(fuzz_registry), &g, &err)) {
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            GoldenResult r = golden_compare(&g, g.records, modes[i]);
            if (!r.match || r.matched != json_array_size(g.records)) {
                fprintf(stderr, "fuzz_golden: a vector does not match itself (%s)\n",
                        golden_mode_name(modes[i]));
                abort();
            }
        }
        golden_free(&g);
    }
    return 0;
}
