/* Topologies "mesh" and "torus" (docs/topologies.md): a 2-D grid of rows x cols
 * switches, one per GPU, GPU i at row i / cols, column i mod cols; the torus adds
 * the wrap-around links of every row and column of at least 3 switches.
 *
 * Settings (fabric "params"): rows and cols, 0 (the default) = derived. Both 0: rows
 * is the largest divisor of the GPU count N not above its square root, cols = N /
 * rows (16 -> 4 x 4, 8 -> 2 x 4, 7 -> 1 x 7); one given: the other is N divided by
 * it; both given: rows x cols must be N. At most 64 each.
 *
 * fabric.sw[i] has a port per link it has plus port[0] <-> gpu<i>.<uplink>: ports
 * 1.. go to its neighbours east (column + 1), west, south (row + 1), north, in that
 * order, skipping the directions without a neighbour (a mesh's edges). Links:
 * fabric.link[k], first the east links of sw[0..N-1] (link.a at the switch's east
 * port, link.b at the west port of its east neighbour), then their south links
 * (link.a at the south port, link.b at the north port of the south neighbour).
 *
 * Routing (dimension order, X then Y): towards GPU d at (dr, dc) from (r, c), first
 * along the row until c = dc, then along the column. Mesh: east if dc > c, else west;
 * south if dr > r, else north. Torus, in a dimension of k >= 3 switches: the shorter
 * way round (ties forward: east, south) unless it passes through coordinate 0, then
 * the other way (fabric_gen_ring_forward). A hop count from (r, c) to (dr, dc) is
 * so |dr - r| + |dc - c| on the mesh; on the torus each dimension's shorter wrap
 * distance, or the longer one when the shorter crosses coordinate 0 in between.
 * Decisions: a dimension of 2 has no wrap-around link (it would join the same two
 * switches twice), so a 2 x k torus wraps its rows only; a dimension of 1 has no
 * links. Dimension order cannot deadlock on the mesh; the switch has no virtual
 * channels, so a torus routed the shorter way round could (its rings' channels form
 * cycles): never passing through coordinate 0 breaks them at the price of longer
 * paths for some pairs (docs/topologies.md, "Deadlock"). */
#include <stdio.h>

#include "fabric_gen.h"

typedef struct MeshParams {
    uint64_t rows, cols;
} MeshParams;

static const ParamDef topology_mesh_params[] = {
    {.key = "rows",
     .offset = offsetof(MeshParams, rows),
     .type = PT_U64,
     .def = "0",
     .max = FABRIC_GEN_MAX_GPUS,
     .doc = "rows of switches (0: derived from the GPU count)"},
    {.key = "cols",
     .offset = offsetof(MeshParams, cols),
     .type = PT_U64,
     .def = "0",
     .max = FABRIC_GEN_MAX_GPUS,
     .doc = "columns of switches (0: derived from the GPU count)"},
};

static const char *const topology_mesh_parts[] = {"switch", "link", NULL};

/* Directions in port order. */
enum { MESH_EAST, MESH_WEST, MESH_SOUTH, MESH_NORTH, MESH_DIRS };

typedef struct MeshGrid {
    uint32_t rows, cols;
    bool wrap; /* torus */
} MeshGrid;

/* The grid of the settings for n GPUs (errors at the setting at fault). */
static bool topology_mesh_grid(const TopologyGen *g, bool wrap, MeshGrid *m,
                               SimError *err)
{
    const MeshParams *p = topology_params(g);
    uint32_t n = topology_gpus(g);
    uint64_t rows = p->rows, cols = p->cols;
    if (rows == 0 && cols == 0) {
        for (uint32_t r = 1; (uint64_t)r * r <= n; r++) {
            if (n % r == 0) {
                rows = r;
            }
        }
    }
    if (rows != 0 && cols == 0) {
        if (n % rows != 0) {
            return topology_fail_param(g, "rows", err,
                                       "%u GPUs do not divide into %llu rows", n,
                                       (unsigned long long)rows);
        }
        cols = n / rows;
    } else if (rows == 0) {
        if (n % cols != 0) {
            return topology_fail_param(g, "cols", err,
                                       "%u GPUs do not divide into %llu cols", n,
                                       (unsigned long long)cols);
        }
        rows = n / cols;
    }
    if (rows * cols != n) {
        return topology_fail_param(g, "rows", err,
                                   "%llu rows x %llu cols = %llu switches, expected one "
                                   "per GPU (%u)",
                                   (unsigned long long)rows, (unsigned long long)cols,
                                   (unsigned long long)(rows * cols), n);
    }
    *m = (MeshGrid){.rows = (uint32_t)rows, .cols = (uint32_t)cols, .wrap = wrap};
    return true;
}

/* The switch next to i in direction dir, or -1 for none. */
static int topology_mesh_next(const MeshGrid *m, uint32_t i, int dir)
{
    uint32_t r = i / m->cols, c = i % m->cols;
    bool horizontal = dir == MESH_EAST || dir == MESH_WEST;
    uint32_t k = horizontal ? m->cols : m->rows, at = horizontal ? c : r;
    bool forward = dir == MESH_EAST || dir == MESH_SOUTH;
    uint32_t to;
    if (forward ? at + 1 < k : at > 0) {
        to = forward ? at + 1 : at - 1;
    } else if (m->wrap && k >= 3) {
        to = forward ? 0 : k - 1;
    } else {
        return -1;
    }
    return (int)(horizontal ? r * m->cols + to : to * m->cols + c);
}

/* The port of switch i towards direction dir (its neighbours in port order). */
static uint32_t topology_mesh_port(const MeshGrid *m, uint32_t i, int dir)
{
    uint32_t port = 1;
    for (int k = 0; k < dir; k++) {
        port += topology_mesh_next(m, i, k) >= 0;
    }
    return port;
}

/* The direction from `at` towards `to` along a dimension of k switches. */
static bool topology_mesh_forward(const MeshGrid *m, uint32_t k, uint32_t at, uint32_t to)
{
    return m->wrap && k >= 3 ? fabric_gen_ring_forward(k, at, to) : to > at;
}

static uint64_t topology_mesh_route(const MeshGrid *m, uint32_t i, uint32_t d)
{
    uint32_t r = i / m->cols, c = i % m->cols, dr = d / m->cols, dc = d % m->cols;
    if (dc != c) {
        bool east = topology_mesh_forward(m, m->cols, c, dc);
        return topology_mesh_port(m, i, east ? MESH_EAST : MESH_WEST);
    }
    if (dr != r) {
        bool south = topology_mesh_forward(m, m->rows, r, dr);
        return topology_mesh_port(m, i, south ? MESH_SOUTH : MESH_NORTH);
    }
    return 0;
}

/* The link k (in link order) from switch i in direction dir: join its two ends, or
 * (join false) add the link instance. */
static bool topology_mesh_link(TopologyGen *g, const MeshGrid *m, uint32_t k, uint32_t i,
                               int dir, bool join, SimError *err)
{
    if (!join) {
        char name[64];
        snprintf(name, sizeof name, "link[%u]", k);
        return topology_add(g, "link", name, "link", NULL, err);
    }
    uint32_t j = (uint32_t)topology_mesh_next(m, i, dir);
    int back = dir == MESH_EAST ? MESH_WEST : MESH_NORTH;
    return fabric_gen_join(g, i, topology_mesh_port(m, i, dir), k, j,
                           topology_mesh_port(m, j, back), err);
}

/* Every link in order: the east links of sw[0..N-1], then their south links. */
static bool topology_mesh_links(TopologyGen *g, const MeshGrid *m, bool join,
                                SimError *err)
{
    uint32_t k = 0, n = topology_gpus(g);
    const int dirs[] = {MESH_EAST, MESH_SOUTH};
    for (size_t t = 0; t < 2; t++) {
        for (uint32_t i = 0; i < n; i++) {
            if (topology_mesh_next(m, i, dirs[t]) >= 0 &&
                !topology_mesh_link(g, m, k++, i, dirs[t], join, err)) {
                return false;
            }
        }
    }
    return true;
}

static bool topology_mesh_instances_of(TopologyGen *g, bool wrap, SimError *err)
{
    MeshGrid m;
    if (!topology_mesh_grid(g, wrap, &m, err)) {
        return false;
    }
    uint32_t n = topology_gpus(g);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t routes[FABRIC_GEN_MAX_GPUS];
        for (uint32_t d = 0; d < n; d++) {
            routes[d] = topology_mesh_route(&m, i, d);
        }
        char name[64];
        snprintf(name, sizeof name, "sw[%u]", i);
        uint64_t ports = topology_mesh_port(&m, i, MESH_DIRS);
        if (!fabric_gen_switch_table(g, "switch", name, ports, routes, err)) {
            return false;
        }
    }
    return topology_mesh_links(g, &m, false, err);
}

static bool topology_mesh_wires_of(TopologyGen *g, bool wrap, SimError *err)
{
    MeshGrid m;
    return topology_mesh_grid(g, wrap, &m, err) && fabric_gen_per_gpu_uplinks(g, err) &&
           topology_mesh_links(g, &m, true, err);
}

static bool topology_mesh_instances(TopologyGen *g, SimError *err)
{
    return topology_mesh_instances_of(g, false, err);
}

static bool topology_mesh_wires(TopologyGen *g, SimError *err)
{
    return topology_mesh_wires_of(g, false, err);
}

static bool topology_torus_instances(TopologyGen *g, SimError *err)
{
    return topology_mesh_instances_of(g, true, err);
}

static bool topology_torus_wires(TopologyGen *g, SimError *err)
{
    return topology_mesh_wires_of(g, true, err);
}

const TopologyType mesh_topology = {
    .name = "mesh",
    .doc = "a 2-D grid of switches, one per GPU; dimension-order (X, then Y) routing",
    .min_gpus = 1,
    .parts = topology_mesh_parts,
    .computed = fabric_gen_computed,
    .params = topology_mesh_params,
    .nparams = sizeof topology_mesh_params / sizeof topology_mesh_params[0],
    .size = sizeof(MeshParams),
    .instances = topology_mesh_instances,
    .wires = topology_mesh_wires,
};

const TopologyType torus_topology = {
    .name = "torus",
    .doc = "a mesh with wrap-around links in every dimension of 3 or more switches",
    .min_gpus = 1,
    .parts = topology_mesh_parts,
    .computed = fabric_gen_computed,
    .params = topology_mesh_params,
    .nparams = sizeof topology_mesh_params / sizeof topology_mesh_params[0],
    .size = sizeof(MeshParams),
    .instances = topology_torus_instances,
    .wires = topology_torus_wires,
};
