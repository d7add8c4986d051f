"""What tests/parallel/parallel.py and tests/mpi/mpi.py share: the pass/fail tally,
platform and testbench variants (a file extending a platform with top-level keys, a
testbench copy whose platform carries a partition map), the partition count
`mgtlm validate` reports and the count of unreadable log lines after a stop."""
import json
import os
import subprocess
import sys

results = {"pass": 0, "fail": 0}


def check(ok, what):
    results["pass" if ok else "fail"] += 1
    print(("ok   " if ok else "FAIL ") + what)


def finish():
    print("%d passed, %d failed" % (results["pass"], results["fail"]))
    sys.exit(1 if results["fail"] else 0)


def variant(tmp, base, name, extra):
    """A platform file extending base with the top-level keys of extra."""
    doc = {"extends": base, "name": name}
    doc.update(extra)
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def testbench_variant(tmp, src_root, name, parts):
    """A copy of testbench name whose platform carries the map parts (if any)."""
    src = os.path.join(src_root, "testbench", name + ".json")
    here = os.path.dirname(src)
    with open(src) as f:
        tb = json.load(f)
    plat = tb["platform"]
    if isinstance(plat, str):
        plat = {"extends": os.path.join(here, plat), "name": os.path.basename(name)}
    elif "extends" in plat:
        plat["extends"] = os.path.join(here, plat["extends"])
    if parts:
        plat["partitions"] = parts
    tb["platform"] = plat
    tb["golden"] = os.path.join(here, tb["golden"])
    tag = name.replace("/", "-") + ("-cut" if parts else "")
    path = os.path.join(tmp, tag + ".json")
    with open(path, "w") as f:
        json.dump(tb, f)
    return path


def validate(mgtlm, platform):
    p = subprocess.run([mgtlm, "validate", platform], capture_output=True, text=True)
    return p.stdout.strip()


def partitions(line):
    """The partition count in a `validate` line (1 when it names none)."""
    words = line.replace(",", " ").split()
    return int(words[words.index("partitions") - 1]) if "partitions" in words else 1


def bad_log_lines(folder):
    """The lines of the logs in folder that are not one JSON record each (0 when the
    folder does not exist: the caller checks that it does)."""
    bad = 0
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name)) as f:
            for line in f:
                try:
                    json.loads(line)
                except ValueError:
                    bad += 1
    return bad
