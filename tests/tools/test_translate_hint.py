"""Checks tools/translate-hint: every rule, the port of a drive entry and of a driver
output, that only key names change (values, spacing, order kept), that objects
without cmd keep their hint, that an unknown hint stops the run and leaves the file,
and that --check reports what is left."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tally import check, finish  # noqa: E402

TOOL = os.path.join(sys.argv[1], "tools", "translate-hint")


def run(*args):
    return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True,
                          text=True)


LOG_IN = "\n".join([
    '{"t":0,"port":"gpu0.cu.mem","ev":"send","id":1,"cmd":"kernel_begin","addr":"0x0",'
    '"len":0,"hint":3}',
    '{"t":5,"port":"gpu0.decision.decision[0]","ev":"send","id":2,"cmd":"mode",'
    '"addr":"0x0","len":0,"hint":2}',
    '{"t":6,"port":"gpu0.l1.monitor","ev":"send","id":3,"cmd":"monitor","hint":5}',
    '{"t":7,"port":"gpu0.codec.net","ev":"send","id":4,"cmd":"resp","hint":789996,'
    '"wire":10}',
    '{"t":8,"port":"gpu0.rwq.down","ev":"send","id":5,"cmd":"write","hint":1179791362}',
    '{"t":9,"port":"gpu0.pk.down","ev":"send","id":6,"cmd":"write","hint":1179648005}',
    '{"t":10,"port":"gpu0.mem.in","ev":"recv","id":7,"cmd":"read","len":4}',
    "",
])
LOG_OUT = (LOG_IN.replace('"len":0,"hint":3', '"len":0,"kernel_hint":3')
           .replace('"hint":2', '"dualopt_mode":2')
           .replace('"hint":5', '"dualopt_access":5')
           .replace('"hint":789996', '"codec_packet":789996')
           .replace('"hint":1179791362', '"fp_run":1179791362')
           .replace('"hint":1179648005', '"fp_packet":1179648005'))

TB_IN = """{
  "name": "t",
  "platform": {"blocks": {"cu": {"type": "cu", "params": {"hint": 4}}}},
  "drive": {
    "dm": {"port": "codec.mode", "stimulus": [
      {"t": "0ns", "cmd": "kernel_begin",  "hint": 1}
    ]},
    "dk": {"stimulus": [{"cmd": "kernel_begin", "hint" : 7}], "port": "l2.rq"}
  },
  "golden": "v.jsonl"
}
"""
TB_OUT = (TB_IN.replace('"hint": 1}', '"dualopt_mode": 1}')
          .replace('"hint" : 7', '"kernel_hint" : 7'))
VEC_IN = ('{"t":0,"port":"tb.dm.out","ev":"send","cmd":"kernel_begin","hint":1}\n'
          '{"t":0,"port":"tb.dk.out","ev":"send","cmd":"kernel_begin","hint":7}\n')
VEC_OUT = (VEC_IN.replace('"hint":1', '"dualopt_mode":1')
           .replace('"hint":7', '"kernel_hint":7'))

with tempfile.TemporaryDirectory() as d:
    log, tb, vec = (os.path.join(d, n) for n in ("a.jsonl", "tb.json", "v.jsonl"))
    for path, text in ((log, LOG_IN), (tb, TB_IN), (vec, VEC_IN)):
        with open(path, "w") as f:
            f.write(text)
    r = run("--check", log)
    check(r.returncode == 1, "--check finds hints")
    check(open(log).read() == LOG_IN, "--check writes nothing")
    r = run(log, tb, vec)
    check(r.returncode == 0, "translation succeeds: " + r.stderr)
    check(open(log).read() == LOG_OUT, "log rules")
    check(open(tb).read() == TB_OUT, "drive entry port, cu parameter kept")
    check(open(vec).read() == VEC_OUT, "driver output port")
    check("10 keys renamed in 3 files" in r.stdout, "summary: " + r.stdout)
    check(run("--check", log, tb, vec).returncode == 0, "--check after translation")
    bad = '{"t":1,"port":"gpu0.mem.in","ev":"recv","id":9,"cmd":"read","hint":4}\n'
    with open(log, "w") as f:
        f.write(bad)
    r = run(log)
    check(r.returncode == 1 and "a.jsonl:1" in r.stderr, "unknown hint: " + r.stderr)
    check(open(log).read() == bad, "a failed file is left unchanged")

finish()
