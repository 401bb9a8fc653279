#!/bin/sh
# make check-gpu: every GPU test. Where there is no CUDA device (no device
# node /dev/nvidiaN, or WSL's /dev/dxg, or no driver library libcuda.so.1
# for ffmpeg to load) it says so plainly and skips; it never reports a pass
# it did not run. Where there is one, ffmpeg must open it: a probe that
# fails (or makes a sanitizer report) then fails, showing what ffmpeg said.
BUILD=$1 OBJ=$2 JOBS=${3:-2}
. "$(dirname "$0")/fate/checked.sh"

skip() {
    echo "check-gpu: SKIPPED: no usable CUDA device on this machine"
    echo "check-gpu: $1"
    echo "check-gpu: 0 passed, 0 failed, all skipped"
    exit 0
}
nodes=$(ls /dev/nvidia[0-9]* /dev/dxg 2> /dev/null | tr '\n' ' ')
nodes=${nodes% }
[ -n "$nodes" ] || skip "no device node (/dev/nvidia0, ... or /dev/dxg)"
# libcuda.so.1 where the dynamic loader finds it: its cache, the folders of
# LD_LIBRARY_PATH, the default ones and WSL's
libcuda=$({ ldconfig -p || /sbin/ldconfig -p; } 2> /dev/null |
          sed -n 's/^[[:space:]]*libcuda\.so\.1 .*=> //p' | head -n 1)
if [ -z "$libcuda" ]; then
    for d in $(echo "${LD_LIBRARY_PATH:-}" | tr ':' ' ') /lib64 /usr/lib64 /lib /usr/lib /usr/lib/wsl/lib; do
        [ -e "$d/libcuda.so.1" ] && { libcuda=$d/libcuda.so.1; break; }
    done
fi
[ -n "$libcuda" ] || skip "device node $nodes but no driver library libcuda.so.1"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-gpu.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
CHECKED_ERR=$tmp/probe
if ! run_ok "$OBJ/ffmpeg" -hide_banner -v error -init_hw_device cuda=gpu \
        -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - > /dev/null 2> "$tmp/why"; then
    echo "check-gpu: FAILED: a CUDA device is present ($nodes, $libcuda), but ffmpeg cannot open it:"
    sed 's/^/    /' "$tmp/why"
    echo "check-gpu: 0 passed, 1 failed"
    exit 1
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
# checkcuda: every kernel against its CPU twin (exit status 0, no
# sanitizer report)
CHECKED_ERR=$tmp/checkcuda
if [ ! -x "$BUILD/checkcuda" ]; then
    echo "check-gpu: FAILED: no $BUILD/checkcuda"
    fail=1
elif ! run_ok "$BUILD/checkcuda"; then
    fail=1
fi
[ $fail -eq 0 ] && echo "check-gpu: all GPU tests passed" || echo "check-gpu: FAILED"
exit $fail
