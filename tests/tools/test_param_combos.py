"""Checks tools/param-combos: a fixed-seed sweep of random parameter combinations on
small tracegen traces passes (no crash, no model error (exit 1), the same
stats on two threads, one line for every refusal), and the tool itself fails where it
must: through stand-in binaries that wrap the real mgtlm and break one promise each
(a run that exits 1, a run whose stats change on two threads, a refusal of two lines),
it exits 1 and names the failure; a trace folder a platform refuses (the hand-written
v4-lineinfo, whose blocks are out of order) stops it with exit 2 and one line.
usage: test_param_combos.py SOURCE_ROOT MGTLM"""
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = sys.argv[1], os.path.abspath(sys.argv[2])
TOOL = os.path.join(ROOT, "tools", "param-combos")
TMP = tempfile.mkdtemp(prefix="param-combos-test-")
RUNS = 60

# Stand-ins: each passes every command through to the real mgtlm and then breaks one
# promise of a `run` (the stats file is the argument after -o).
BROKEN = {
    "model_error": "[ \"$1\" = run ] && { \"$REAL\" \"$@\"; exit 1; }",
    "threads_differ": "if [ \"$1\" = run ] && printf '%s\\n' \"$@\" | grep -qx -- "
                      "--threads; then \"$REAL\" \"$@\" --set 'gpu*.sm[*].lat_int=9'; "
                      "exit $?; fi",
    "two_lines": "[ \"$1\" = run ] && { echo one >&2; echo two >&2; exit 2; }",
}


def traces():
    out = []
    for kernel, n in (("vectoradd", "4096"), ("spmv", "2048"), ("histogram", "4096")):
        folder = os.path.join(TMP, kernel)
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "tracegen"), kernel,
                        "-o", folder, "--n", n], check=True, capture_output=True)
        out.append(folder)
    return out


def combos(mgtlm, folders, runs, seed):
    return subprocess.run([sys.executable, TOOL, mgtlm] + folders +
                          ["--runs", str(runs), "--seed", str(seed)],
                          capture_output=True, text=True, timeout=1200)


def stand_in(name, body):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\nREAL=%s\n%s\nexec \"$REAL\" \"$@\"\n" % (shlex.quote(MGTLM),
                                                                   body))
    os.chmod(path, 0o755)
    return path


def main():
    folders = traces()
    r = combos(MGTLM, folders, RUNS, 1)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    check(r.returncode == 0, "sweep of %d runs exits 0 (got %d): %s %s" % (
        RUNS, r.returncode, r.stdout[-2000:], r.stderr[-500:]))
    check(last.startswith("%d runs: " % RUNS) and ", 0 failed, " in last,
          "summary line: %r" % last)
    passed = int(last.split()[2]) if last.startswith("%d runs" % RUNS) else 0
    check(passed >= RUNS // 3, "at least a third of the runs ran to the end: %r" % last)
    again = combos(MGTLM, folders, RUNS, 1)
    check(again.stdout == r.stdout, "the same seed gives the same sweep")

    for name, body in sorted(BROKEN.items()):
        b = combos(stand_in(name, body), folders[:1], 6, 2)
        fails = [ln for ln in b.stdout.splitlines() if ln.startswith("FAIL ")]
        check(b.returncode == 1 and fails, "%s: the tool fails (exit %d): %s" % (
            name, b.returncode, b.stdout[-500:]))
        want = {"model_error": "exit 1", "threads_differ": "stats differ on two threads",
                "two_lines": "exit 2 with 2 lines"}[name]
        check(all(want in ln for ln in fails), "%s: every failure says %r: %s" % (
            name, want, fails[:2]))

    bad = os.path.join(ROOT, "tests", "accelsim", "traces", "v4-lineinfo")
    b = combos(MGTLM, [bad], 2, 1)
    lines = b.stderr.strip().splitlines()
    check(b.returncode == 2 and len(lines) == 1 and lines[0].startswith(
        "param-combos: %s with " % bad) and "in increasing index" in lines[0],
        "a refused trace folder: exit 2, one line (exit %d): %r" % (b.returncode,
                                                                     b.stderr[-500:]))
    finish()


main()
