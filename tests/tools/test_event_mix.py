"""Checks bench/event-mix (events per line request by process, counted by callgrind)
against the model's own counters: on a small SpMV trace on gpu4-baseline (on one kernel:
the explicit partition map {"*": 0}, as event-mix runs it), the events
it attributes must add up to the run's event count (the script checks that itself
and exits 1 otherwise), and the arrivals it finds at each block type must equal what
those blocks' statistics say passed through them (every transaction that reaches a
port is forwarded, consumed or counted as an error by the end of the run):
- xbar: every <port>_out counter, controls and route_errors;
- switch: every port[k]_out counter and route_errors;
- link: ab_packets + ba_packets;
- rdma: requests and responses sent out (remote_*, resp_out), requests and
  responses passed in (served, resp_in), controls and resp_unmatched_errors.
Exits 77 (skip) without valgrind.
usage: test_event_mix.py MGTLM SOURCE_ROOT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

MGTLM, ROOT = os.path.abspath(sys.argv[1]), sys.argv[2]
PLATFORM = "gpu4-baseline"
SUMS = {
    "xbar_on_recv": ("xbar", lambda stat: stat.endswith("_out") or stat in (
        "controls", "route_errors")),
    "switch_on_recv": ("switch", lambda stat: stat.endswith("_out") or
                       stat == "route_errors"),
    "link_on_recv": ("link", lambda stat: stat in ("ab_packets", "ba_packets")),
    "rdma_on_recv": ("rdma", lambda stat: stat in (
        "remote_reads", "remote_writes", "remote_atomics", "remote_other", "resp_out",
        "served", "resp_in", "controls", "resp_unmatched_errors")),
}


def main():
    if not shutil.which("valgrind"):
        print("valgrind is not installed: skipped")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "spmv")
        subprocess.run([os.path.join(ROOT, "tools", "tracegen"), "spmv", "-o", trace,
                        "--n", "256"], check=True, stdout=subprocess.DEVNULL)
        out = os.path.join(tmp, "mix.json")
        proc = subprocess.run([os.path.join(ROOT, "bench", "event-mix"), MGTLM,
                               "--platforms", PLATFORM, "--trace", trace, "--json", out],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        check(proc.returncode == 0, "event-mix exit status %d: %s" % (
            proc.returncode, proc.stdout[-800:]))
        if proc.returncode != 0:
            finish()
        with open(out) as f:
            mix = json.load(f)[PLATFORM]
        stats_file = os.path.join(tmp, "stats.json")
        one = os.path.join(tmp, "one-kernel.json")
        with open(one, "w") as f:
            json.dump({"extends": os.path.abspath(os.path.join(ROOT, "platforms",
                                                          PLATFORM + ".json")),
                       "name": "event-mix", "partitions": {"*": 0}}, f)
        subprocess.run([MGTLM, "run", one, "--quiet", "--trace", trace, "--stats",
                        stats_file], check=True, stdout=subprocess.DEVNULL)
        with open(stats_file) as f:
            s = json.load(f)
    check(mix["events"] == s["run"]["events"], "events %d, the run's %d" % (
        mix["events"], s["run"]["events"]))
    check(sum(r["events"] for r in mix["rows"]) == mix["events"],
          "the rows add up to the run's events")
    reqs = sum(v for k, v in s["stats"].items() if k.endswith(".line_reqs"))
    check(mix["line_reqs"] == reqs and reqs > 0, "line requests %d, stats %d" % (
        mix["line_reqs"], reqs))
    rows = {r["process"]: r["events"] for r in mix["rows"]}
    types = s["instances"]
    for callback, (btype, counted) in SUMS.items():
        want = sum(v for k, v in s["stats"].items()
                   if types.get(k.rsplit(".", 1)[0]) == btype and
                   counted(k.rsplit(".", 1)[1]))
        got = rows.get("port_arrive > " + callback, 0)
        check(got == want and want > 0, "%s: %d arrivals counted, the %s counters say %d"
              % (callback, got, btype, want))
    finish()


if __name__ == "__main__":
    main()
