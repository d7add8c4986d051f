#!/bin/sh
# End-to-end stress test: every mechanism's platform (baseline, dualopt, finepack,
# rec, hmg, dir-baseline, carve) on 4, 8 and 16 GPUs under traffic heavier than the
# platforms' defaults, in two variants:
#   remote: every cu issues 200 accesses of 4 B per kernel to other GPUs' memory, a
#           quarter of them writes (pattern uniform, target remote, 8 outstanding,
#           kernels back to back);
#   shared: read/write sharing of a 16 KiB region per GPU, 300 accesses per kernel
#           and cu, 30 % of the lines rewritten per kernel, 3 kernels of 100 us;
#   posted: whole-line (64 B) accesses to every GPU's first 16 KiB, 10 % of them posted
#           writes, 32 outstanding, 4 kernels of 300 accesses (a read must see the
#           cu's own earlier posted write of the same bytes);
#   tight:  1-slot buffers on every port and 32 writes of 4 B outstanding per cu to
#           every GPU's memory (flow control and wake-ups at their tightest).
# Each run must exit 0: no wrong data (the cus' check), no model-error counter, and
# every request answered (unanswered_errors, which counts requests still waiting
# when the simulation ran out of events: a deadlock or a lost transaction).
# usage: stress.sh MGTLM   (working directory: the source root)
mgtlm=$1
status=0
runs=0
REMOTE="--set gpu*.cu[*].pattern=uniform --set gpu*.cu[*].target=remote
    --set gpu*.cu[*].count=200 --set gpu*.cu[*].write_frac=0.25
    --set gpu*.cu[*].size=4 --set gpu*.cu[*].outstanding=8
    --set gpu*.cu[*].kernel_time=0ns"
SHARED="--set gpu*.cu[*].pattern=shared --set gpu*.cu[*].target=all
    --set gpu*.cu[*].count=300 --set gpu*.cu[*].write_frac=0.3
    --set gpu*.cu[*].footprint=16KiB --set gpu*.cu[*].size=4
    --set gpu*.cu[*].kernels=3 --set gpu*.cu[*].kernel_time=100us"
POSTED="--set gpu*.cu[*].pattern=uniform --set gpu*.cu[*].target=all
    --set gpu*.cu[*].count=300 --set gpu*.cu[*].write_frac=0.1
    --set gpu*.cu[*].size=64 --set gpu*.cu[*].footprint=16KiB
    --set gpu*.cu[*].outstanding=32 --set gpu*.cu[*].posted=true
    --set gpu*.cu[*].kernels=4 --set gpu*.cu[*].kernel_time=0ns"
TIGHT="--set gpu*.cu[*].pattern=uniform --set gpu*.cu[*].target=all
    --set gpu*.cu[*].count=100 --set gpu*.cu[*].write_frac=1
    --set gpu*.cu[*].size=4 --set gpu*.cu[*].footprint=1MiB
    --set gpu*.cu[*].outstanding=32 --set *.buffer=1
    --set gpu*.cu[*].kernels=2 --set gpu*.cu[*].kernel_time=0ns"
for m in baseline dualopt finepack rec hmg dir-baseline carve; do
    for n in 4 8 16; do
        for v in remote shared posted tight; do
            case $v in
            remote) sets=$REMOTE ;;
            shared) sets=$SHARED ;;
            posted) sets=$POSTED ;;
            *) sets=$TIGHT ;;
            esac
            runs=$((runs + 1))
            # shellcheck disable=SC2086
            if out=$("$mgtlm" run "platforms/gpu$n-$m.json" $sets 2>&1); then
                echo "PASS gpu$n-$m $v"
            else
                echo "FAIL gpu$n-$m $v:"
                echo "$out" | grep -E "^mgtlm: " | head -5
                status=1
            fi
        done
    done
done
echo "$runs runs"
exit $status
