"""What the trace-driven end-to-end tests of tests/cores share: a failure list,
one `mgtlm run --trace` with its stats, and sums of stats by name."""
import json
import os
import subprocess

FAILS = []


def check(cond, what):
    """Records (and prints) a failed check."""
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)


def run(mgtlm, platform, folder, stats, *extra, want=0):
    """Runs platform on the trace folder; (stats document, "") when it exits with
    status want and writes its stats, else (None, why)."""
    proc = subprocess.run([mgtlm, "run", platform, "--quiet", "--trace", folder,
                           "--stats", stats] + list(extra), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != want or not os.path.exists(stats):
        return None, "exit %d: %s" % (proc.returncode, proc.stderr.strip()[:300])
    with open(stats) as f:
        return json.load(f), ""


def total(s, part, name):
    """Sum of the stats whose name contains part and ends with "." + name."""
    return sum(v for k, v in s.items() if part in k and k.endswith("." + name))


def model_errors(doc):
    """The model-error stats of a stats document that are not zero."""
    return {n: doc["stats"][n] for n in doc["errors"] if doc["stats"][n]}
