"""Pass/fail counting shared by the Python tool tests: check() records one
assertion, finish() prints the closing "N passed, M failed" line and exits 1 on any
failure."""
import sys

_counts = {"passed": 0, "failed": 0}


def check(cond, what):
    if cond:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print("FAIL:", what)


def finish():
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)
