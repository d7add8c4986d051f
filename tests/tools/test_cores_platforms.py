"""Every shipped platform runs a trace: `mgtlm validate P --trace DIR --dump` builds
each of the 21 platforms with its cores section applied (docs/platform-format.md,
cores), and the flat result is what the section's rules give, derived by hand from
the platform files: per GPU 4 SMs (the cu count) in the CUs' place with the CUs'
wire, a dispatcher wired to each SM (0ns) and to the host (100ns), the scaled
parameters (xbar.cus; DualOpt's bgu and l1 counts and decision.cus; CARVE's
epoch.kernel_ends) equal to the SM count, the family's SM parameters (DualOpt:
wavefront, 64 B lines; FinePack: posted; REC, HMG, directory baseline: 64 B lines),
and `--set sms=8` moving all of them together. Without --trace the same platform is
a cu platform as before.
usage: test_cores_platforms.py ROOT MGTLM [PLUGIN.so]
The block types sm, dispatch and host must exist (built in, or from PLUGIN.so, a
stand-in): without them the test is skipped (exit 77)."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

ROOT, MGTLM = sys.argv[1], os.path.abspath(sys.argv[2])
PRE = [MGTLM] + (["--plugin", sys.argv[3]] if len(sys.argv) > 3 else [])
TRACE = "traces/public/vectoradd"
FAMILIES = ["baseline", "dualopt", "finepack", "rec", "hmg", "dir-baseline", "carve"]
# SM parameters each family's cores section sets (64 B lines: "line" as the sm's
# table prints a size or a count)
SM_PARAMS = {
    "dualopt": {"wavefront": True, "line": (64, "64B")},
    "finepack": {"posted": True},
    "rec": {"line": (64, "64B")},
    "hmg": {"line": (64, "64B")},
    "dir-baseline": {"line": (64, "64B")},
}


def dump(platform, *extra):
    r = subprocess.run(PRE + ["validate", platform, "--dump"] + list(extra),
                       capture_output=True, text=True, cwd=ROOT)
    check(r.returncode == 0, "%s %s: exit %d: %s"
          % (platform, " ".join(extra), r.returncode, r.stderr.strip()))
    return json.loads(r.stdout) if r.returncode == 0 else None


def applied(name, family, gpus, flat, sms):
    what = "%s sms=%d" % (name, sms)
    inst = {i["name"]: i for i in flat["instances"]}
    wires = {(w["a"], w["b"]): w["latency"] for w in flat["wires"]}
    check(flat.get("trace") == TRACE, what + ": the dump keeps the trace")
    check(not any(".cu[" in n for n in inst), what + ": no cu is left")
    check(inst.get("host", {}).get("type") == "host", what + ": one host")
    check(inst["host"]["params"].get("gpus") == gpus, what + ": host gpus")
    for g in range(gpus):
        p = "gpu%d." % g
        sm_names = sorted(n for n in inst if n.startswith(p + "sm["))
        check(len(sm_names) == sms, "%s: gpu%d has %d SMs" % (what, g, len(sm_names)))
        disp = inst.get(p + "disp", {})
        check(disp.get("type") == "dispatch", "%s: gpu%d.disp" % (what, g))
        check(disp.get("params", {}).get("sms") == sms, what + ": disp sms")
        check(wires.get(("host.gpu[%d]" % g, p + "disp.host")) == "100ns",
              "%s: host wire of gpu%d" % (what, g))
        check(inst[p + "xbar"]["params"]["cus"] == sms, what + ": xbar cus")
        for k in range(sms):
            sm = "%ssm[%d]" % (p, k)
            check(inst[sm]["type"] == "sm", what + ": " + sm)
            check(wires.get((sm + ".ctl", "%sdisp.sm[%d]" % (p, k))) == "0ns",
                  what + ": ctl wire of " + sm)
            mem = p + ("bgu[%d].cu" % k if family == "dualopt" else "xbar.cu[%d]" % k)
            check((sm + ".mem", mem) in wires, "%s: %s.mem -> %s" % (what, sm, mem))
            for key, want in SM_PARAMS.get(family, {}).items():
                got = inst[sm]["params"].get(key)
                check(got in want if isinstance(want, tuple) else got == want,
                      "%s: %s %s = %r" % (what, sm, key, got))
        if family == "dualopt":
            check(sum(n.startswith(p + "bgu[") for n in inst) == sms, what + ": bgus")
            check(sum(n.startswith(p + "l1[") for n in inst) == sms, what + ": l1s")
            check(inst[p + "decision"]["params"]["cus"] == sms, what + ": decision")
        if family == "carve":
            check(inst[p + "epoch"]["params"]["kernel_ends"] == sms, what + ": epoch")


def main():
    if subprocess.run(PRE + ["blocks", "sm"], capture_output=True).returncode != 0:
        print("block type sm not registered: skipped")
        sys.exit(77)
    for family in FAMILIES:
        for gpus in (4, 8, 16):
            name = "gpu%d-%s" % (gpus, family)
            path = "platforms/%s.json" % name
            plain = dump(path)
            if plain:
                names = [i["name"] for i in plain["instances"]]
                check("gpu0.cu[3]" in names and "host" not in names
                      and "trace" not in plain, name + ": without a trace, cu as before")
            for sms, extra in ((4, []), (8, ["--set", "sms=8"])):
                flat = dump(path, "--trace", TRACE, *extra)
                if flat:
                    applied(name, family, gpus, flat, sms)
    finish()


main()
