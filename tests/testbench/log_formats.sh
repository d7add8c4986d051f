#!/bin/sh
# Runs one testbench with each --log-format and checks the files: every JSONL line is
# a JSON object, the Perfetto trace is one valid JSON document with traceEvents, and
# the VCD has its header, definitions and time steps.
# usage: log_formats.sh MGTLM TESTBENCH PYTHON3
mgtlm=$1
tb=$2
python=$3
stem=$(basename "$tb" .json)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
    echo "log_formats.sh: $*" >&2
    exit 1
}
"$mgtlm" test "$tb" --log-dir "$dir/jsonl" || fail "jsonl run failed"
"$mgtlm" test "$tb" --log-dir "$dir/perfetto" --log-format perfetto ||
    fail "perfetto run failed"
"$mgtlm" test "$tb" --log-dir "$dir/vcd" --log-format=vcd --log-ports 'tb.*' ||
    fail "vcd run failed"
set -- "$dir/jsonl/$stem"/*.jsonl
[ -e "$1" ] || fail "no JSONL file written"
"$python" -c '
import json, sys
for path in sys.argv[1:]:
    with open(path) as f:
        for n, line in enumerate(f, 1):
            rec = json.loads(line)
            assert isinstance(rec, dict) and "t" in rec and "port" in rec, (path, n)
' "$@" || fail "a JSONL line does not parse"
"$python" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
events = doc["traceEvents"]
assert any(e["ph"] == "M" and e["name"] == "thread_name" for e in events)
assert any(e["ph"] == "i" and "port" in e["args"] for e in events)
' "$dir/perfetto/$stem/trace.json" || fail "trace.json is not a valid trace"
vcd="$dir/vcd/$stem/trace.vcd"
for want in '$timescale 1ps $end' '$enddefinitions $end' '$dumpvars' '$var wire 64'; do
    grep -qF "$want" "$vcd" || fail "trace.vcd lacks '$want'"
done
grep -q '^#[1-9]' "$vcd" || fail "trace.vcd has no time step after 0"
echo "jsonl, perfetto and vcd logs are well formed"
