/* bench/systemc_ring.cpp: the SystemC 2.3 reference for the ring benchmark.
 *
 * Usage: systemc_ring N SIM_US
 *
 * N modules form a ring. Each has one SC_METHOD, sensitive only to its own sc_event
 * and not run at initialisation (dont_initialize). Module i's event is first notified
 * at (i mod 7) + 1 ns; every activation counts one and notifies the next module's
 * event 1 ns later. SystemC keeps only the earliest pending timed notification of an
 * event (a later or equal notify is ignored), so notifications that meet merge.
 * The run is sc_start(SIM_US, SC_US). SystemC 2.3.4's sc_simcontext::simulate()
 * advances to T and triggers the timed notifications due at T, but does not run
 * the processes they wake (that delta cycle is left for a later sc_start), so
 * activations at exactly T are not run. N = 1, SIM_US = 1 prints 999
 * (activations at 1, 2, ..., 999 ns). The mgtlm twin therefore runs until T - 1 ps.
 *
 * stdout: "events <activations>" and nothing else.
 * stderr: "wall_s <seconds> events_per_s <rate>" as the last line, timing only
 * sc_start. The library prints its banner on stderr before sc_main runs, unless the
 * environment sets SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 (bench/run-compare does).
 * Bad arguments: a one-line usage error and exit status 2.
 *
 * bench/kernel_ring.c is the mgtlm twin; the bench-check test compares their counts. */
#include <systemc>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace
{

uint64_t ring_count;

class RingNode : public sc_core::sc_module
{
  public:
    sc_core::sc_event ev;
    RingNode *next = nullptr;

    RingNode(const sc_core::sc_module_name &name, uint64_t first_ns)
        : sc_core::sc_module(name), first_ns_(first_ns)
    {
        SC_METHOD(activate);
        sensitive << ev;
        dont_initialize();
    }

  private:
    SC_HAS_PROCESS(RingNode);

    uint64_t first_ns_;

    void start_of_simulation() override
    {
        ev.notify(sc_core::sc_time(static_cast<double>(first_ns_), sc_core::SC_NS));
    }

    void activate()
    {
        ring_count++;
        next->ev.notify(1, sc_core::SC_NS);
    }
};

bool parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9') {
        return false;
    }
    errno = 0;
    char *end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}

} // namespace

int sc_main(int argc, char *argv[])
{
    uint64_t n = 0, sim_us = 0;
    if (argc != 3 || !parse_count(argv[1], 1, 1u << 24, &n) ||
        !parse_count(argv[2], 1, 1000000000, &sim_us)) {
        std::fprintf(stderr, "usage: systemc_ring N SIM_US "
                             "(1 <= N <= 16777216, 1 <= SIM_US <= 1e9)\n");
        return 2;
    }

    std::vector<std::unique_ptr<RingNode>> nodes;
    nodes.reserve(n);
    for (uint64_t i = 0; i < n; i++) {
        char name[32];
        std::snprintf(name, sizeof name, "n%" PRIu64, i);
        nodes.emplace_back(new RingNode(name, i % 7 + 1));
    }
    for (uint64_t i = 0; i < n; i++) {
        nodes[i]->next = nodes[(i + 1) % n].get();
    }

    auto t0 = std::chrono::steady_clock::now();
    sc_core::sc_start(sc_core::sc_time(static_cast<double>(sim_us), sc_core::SC_US));
    auto t1 = std::chrono::steady_clock::now();
    double wall = std::chrono::duration<double>(t1 - t0).count();

    std::printf("events %" PRIu64 "\n", ring_count);
    std::fprintf(stderr, "wall_s %.6f events_per_s %.0f\n", wall,
                 wall > 0 ? static_cast<double>(ring_count) / wall : 0.0);
    return 0;
}
