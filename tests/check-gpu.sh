#!/bin/sh
# make check-gpu: every GPU test. Without a usable CUDA device it says so
# plainly and skips; it never reports a pass it did not run.
BUILD=$1 OBJ=$2 JOBS=${3:-2}

probe=$("$OBJ/ffmpeg" -hide_banner -v error -init_hw_device cuda=gpu \
        -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - 2>&1)
if [ $? -ne 0 ]; then
    echo "check-gpu: SKIPPED: no usable CUDA device on this machine"
    echo "check-gpu: ffmpeg said: $(echo "$probe" | grep -m1 -i "cuda" || echo "$probe" | tail -n 1)"
    echo "check-gpu: 0 passed, 0 failed, all skipped"
    exit 0
fi

fail=0
rm -f "$OBJ"/tests/data/fate/*.rep
# the tests in parallel, then one by one those that take the whole device
# memory (NAME-oom), which would starve the others
tests=$(make -s --no-print-directory -C "$OBJ" fate-c63-gpu-list)
alone=$(printf '%s\n' $tests | grep -e '-oom$')
shared=$(printf '%s\n' $tests | grep -v -e '-oom$')
make -C "$OBJ" -k -j"$JOBS" $(printf 'fate-%s ' $shared)
[ -z "$alone" ] || make -C "$OBJ" -k -j1 $(printf 'fate-%s ' $alone)
sh "$(dirname "$0")/summary.sh" "$OBJ" $tests || fail=1
for t in "$BUILD"/checkcuda; do
    [ -x "$t" ] || continue
    "$t" || fail=1
done
[ $fail -eq 0 ] && echo "check-gpu: all GPU tests passed" || echo "check-gpu: FAILED"
exit $fail
