/* Cost report tests: totals, rounding, order and JSON shape. */
#include <stdlib.h>

#include "kernel/cost.h"
#include "tests/unit/harness.h"

static void test_report(void)
{
    CostReport *r = cost_report_new();
    cost_add_storage(r, "gpu0.dir", "directory", 8192, 103, "REC entries");
    cost_add_time(r, "gpu0.rdc", "invalidate", 2097152000, "2 GiB at 1024 GB/s");
    cost_add_storage(r, "gpu0.x", "bits", 3, 3, "odd bits");
    CHECK_EQ_U64(cost_report_total_bits(r), 8192 * 103 + 9);
    json_t *j = cost_report_json(r);
    json_t *items = json_object_get(j, "items");
    CHECK_EQ_U64(json_array_size(items), 3);
    json_t *first = json_array_get(items, 0);
    CHECK_EQ_U64(json_integer_value(json_object_get(first, "total_bytes")), 105472);
    CHECK_STR(json_string_value(json_object_get(first, "instance")), "gpu0.dir");
    json_t *third = json_array_get(items, 2);
    CHECK_EQ_U64(json_integer_value(json_object_get(third, "total_bytes")), 2);
    json_t *second = json_array_get(items, 1);
    CHECK_EQ_U64(json_integer_value(json_object_get(second, "time_ps")), 2097152000);
    CHECK(json_object_get(second, "total_bits") == NULL);
    CHECK_EQ_U64(json_integer_value(json_object_get(j, "total_bytes")),
                 (8192 * 103 + 9 + 7) / 8);
    json_decref(j);
    cost_report_free(r);
}

int main(void)
{
    RUN(test_report);
    return harness_report();
}
