#!/bin/sh
# CUDA fault injection over c63_cuda, cudadiff, drawtext_cuda and
# mestimate_cuda (needs a CUDA device).
#
#   run-faults.sh FFMPEG SHIM [CODE]
#
# SHIM is cudafault.so (tests/fault/cudafault.c). For each case below and
# each driver function that ffmpeg's loader takes, a first run counts the
# calls of that function; then, for every N from 1 to that count, a run
# makes the Nth call fail with CUresult CODE (default 2, out of memory).
# ffmpeg runs with -xerror, so that an error anywhere (FFmpeg's own
# hwupload/hwdownload included, which the command line otherwise logs and
# skips) ends the run. Each faulted run must
#   - end by itself (60 s) and not by a signal (ffmpeg's own error exit
#     statuses, such as 187 for AVERROR_EXTERNAL, are not signals),
#   - exit non-zero, or exit 0 with exactly the output of a run without
#     faults (a failure in clean-up that loses nothing),
#   - and leave an output that is a prefix of the good output: no frame or
#     packet written after the failure that passes for a good one.
# The cases run in parallel. CUDA_FAULT_FUNCS="NAME..." limits the run to
# those driver functions. Prints each failure and "N passed, N failed".
set -u
FFMPEG=$1 SHIM=$2 CODE=${3:-2}
TMP=${TMPDIR:-/tmp}/cudafault.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

FUNCS="cuInit cuDriverGetVersion cuDeviceGetCount cuDeviceGet cuDeviceGetAttribute cuDeviceGetName
cuDeviceComputeCapability cuCtxCreate_v2 cuCtxGetCurrent cuCtxSetLimit cuCtxPushCurrent_v2
cuCtxPopCurrent_v2 cuCtxDestroy_v2 cuMemAlloc_v2 cuMemAllocPitch_v2 cuMemsetD8Async cuMemFree_v2
cuMemcpy cuMemcpyAsync cuMemcpy2D_v2 cuMemcpy2DAsync_v2 cuMemcpyHtoD_v2 cuMemcpyHtoDAsync_v2
cuMemcpyDtoH_v2 cuMemcpyDtoHAsync_v2 cuMemcpyDtoD_v2 cuMemcpyDtoDAsync_v2 cuCtxGetDevice
cuDevicePrimaryCtxRetain cuDevicePrimaryCtxRelease cuDevicePrimaryCtxSetFlags
cuDevicePrimaryCtxGetState cuStreamCreate cuStreamQuery cuStreamSynchronize cuStreamDestroy_v2
cuStreamAddCallback cuStreamWaitEvent cuEventCreate cuEventDestroy_v2 cuEventSynchronize
cuEventQuery cuEventRecord cuLaunchKernel cuModuleLoadData cuModuleUnload cuModuleGetFunction
cuModuleGetGlobal cuMemHostAlloc cuMemFreeHost cuMemAllocHost_v2 cuMemHostRegister_v2
cuMemHostUnregister cuDeviceGetUuid cuDeviceGetUuid_v2"

SRC="testsrc2=s=64x48:r=25,noise=alls=20:allf=t"
# NAME|ffmpeg arguments (output format and file follow)
CASES="c63_cuda-sysmem|-f lavfi -i $SRC -frames:v 3 -c:v c63_cuda -f c63
c63_cuda-depth1|-f lavfi -i $SRC -frames:v 3 -c:v c63_cuda -depth 1 -f c63
c63_cuda-cudaframes|-init_hw_device cuda=gpu -filter_hw_device gpu -f lavfi -i $SRC -frames:v 3 -vf format=yuv420p,hwupload_cuda -c:v c63_cuda -f c63
cudadiff|-init_hw_device cuda=gpu -filter_hw_device gpu -f lavfi -i $SRC -frames:v 3 -vf format=yuv420p,hwupload_cuda,cudadiff,hwdownload,format=yuv420p -f rawvideo"

FONT=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
CASES="$CASES
drawtext_cuda|-init_hw_device cuda=gpu -filter_hw_device gpu -f lavfi -i $SRC -frames:v 3 -vf format=nv12,hwupload_cuda,drawtext_cuda=fontfile=$FONT:text=Fault:fontsize=20:box=1:borderw=1,hwdownload,format=nv12 -f rawvideo
mestimate_cuda|-init_hw_device cuda=gpu -filter_hw_device gpu -f lavfi -i $SRC -frames:v 3 -vf format=yuv420p,hwupload_cuda,mestimate_cuda,hwdownload,format=yuv420p,codecview=mv=pf+bf -f rawvideo"
FUNCS=${CUDA_FAULT_FUNCS:-$FUNCS}

# one case: NAME ARGS; its failures go to $TMP/NAME.out, "PASS FAIL" to
# $TMP/NAME.totals. The cases run in parallel, each in its own folder.
run_case() {
    name=$1 args=$2 D=$TMP/$1
    pass=0 fail=0
    mkdir -p "$D"
    run "$D/good" "$D/good.log"
    if [ $? -ne 0 ]; then
        bad "$name: does not run without faults: $(tail -n 1 "$D/good.log")"
        echo "$pass $fail" > "$TMP/$name.totals"
        return
    fi
    for f in $FUNCS; do
        run "$D/count" "$D/count.log" CUDA_FAULT_FUNC=$f CUDA_FAULT_N=0
        calls=$(cut -d' ' -f2 "$D/fault.log" 2>/dev/null || echo 0)
        n=1
        while [ "$n" -le "${calls:-0}" ]; do
            run "$D/out" "$D/out.log" CUDA_FAULT_FUNC=$f CUDA_FAULT_N=$n CUDA_FAULT_CODE=$CODE
            status=$?
            what="$name: $f call $n of $calls failing with $CODE"
            if [ $status -eq 124 ]; then
                bad "$what: did not end within 60 s"
            elif [ $status -ge 128 ] && [ $status -le 159 ]; then
                bad "$what: killed by signal $((status - 128))"
            elif [ $status -eq 0 ] && ! cmp -s "$D/out" "$D/good"; then
                bad "$what: exit 0 but the output differs from a run without faults"
            elif [ -s "$D/out" ] && ! cmp -s -n "$(wc -c < "$D/out")" "$D/out" "$D/good"; then
                bad "$what: the output is not a prefix of the good output"
            elif [ $status -ne 0 ] && ! grep -qi 'cuda\|error\|fail' "$D/out.log"; then
                bad "$what: failed without saying why"
            else
                pass=$((pass + 1))
            fi
            n=$((n + 1))
        done
    done
    echo "fault: $name: $pass runs passed, $fail failed"
    echo "$pass $fail" > "$TMP/$name.totals"
}
bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
# run OUT LOG [VAR=VALUE...]: one ffmpeg run of the current case ($D, $args)
run() {
    out=$1 log=$2; shift 2
    rm -f "$out" "$D/fault.log"
    env "$@" CUDA_FAULT_LOG="$D/fault.log" LD_PRELOAD="$SHIM" \
        timeout 60 "$FFMPEG" -nostdin -hide_banner -v error -xerror -y $args "$out" > "$log" 2>&1
}

names=
while IFS='|' read -r name args; do
    names="$names $name"
    (run_case "$name" "$args") > "$TMP/$name.out" 2>&1 &
done <<EOF
$CASES
EOF
wait
pass=0 fail=0
for name in $names; do
    cat "$TMP/$name.out"
    read p f < "$TMP/$name.totals" || { p=0 f=1; echo "FAILED: $name: no result"; }
    pass=$((pass + p)) fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
