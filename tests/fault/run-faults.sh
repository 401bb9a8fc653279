#!/bin/sh
# CUDA fault injection over c63_cuda, the c63 decoder's CUDA hwaccel,
# cudadiff, drawtext_cuda and mestimate_cuda (needs a CUDA device).
#
#   run-faults.sh FFMPEG SHIM [CODE]
#
# SHIM is cudafault.so (tests/fault/cudafault.c). For each case below and
# each driver function that ffmpeg's loader takes, a first run counts the
# calls of that function; then, for every N from 1 to that count, a run
# makes the Nth call fail with CUresult CODE (default 2, out of memory).
# ffmpeg runs with -xerror, so that an error anywhere (FFmpeg's own
# hwupload/hwdownload included, which the command line otherwise logs and
# skips) ends the run. The runs without faults must succeed cleanly (exit
# status 0, no sanitizer report: tests/fate/checked.sh). Each faulted run
# must
#   - end by itself (60 s) and not by a signal (ffmpeg's own error exit
#     statuses, such as 187 for AVERROR_EXTERNAL, are not signals), with
#     no sanitizer report in its log,
#   - exit non-zero, or exit 0 with exactly the output of a run without
#     faults (a failure in clean-up that loses nothing),
#   - and leave an output that is a prefix of the good output: no frame or
#     packet written after the failure that passes for a good one.
# Each (case, function) pair is a job; FAULT_JOBS of them (default: the
# number of cores less two) run at once. Each failure is printed when it
# happens and each job's totals when it ends, so that a run cut short
# still shows what it did.
#
# Environment: CUDA_FAULT_FUNCS="NAME..." limits the run to those driver
# functions, CUDA_FAULT_CASES="NAME..." to those cases; FAULT_DEADLINE=S:
# no faulted run starts later than S seconds after the start (the runs not
# made are counted, and the whole run then fails as incomplete).
# Prints "N passed, N failed" (and "N not run" when incomplete).
set -u
JOB=no
if [ "${1:-}" = --job ]; then
    JOB=yes     # TMP and DEADLINE come from the environment
    shift
fi
FFMPEG=$1 SHIM=$2 CODE=${3:-2}
. "$(cd "$(dirname "$0")" && pwd)/../fate/checked.sh"
if [ "$JOB" = no ]; then
    TMP=${TMPDIR:-/tmp}/cudafault.$$
    mkdir -p "$TMP" || exit 1
    trap 'rm -rf "$TMP"' EXIT
    # one JIT cache for every run, so that the kernels' PTX is compiled for
    # the device once, not once a run
    export CUDA_CACHE_PATH="${CUDA_CACHE_PATH:-$TMP/jitcache}"
    export CUDA_CACHE_MAXSIZE=${CUDA_CACHE_MAXSIZE:-4294967296}
fi

FUNCS="cuInit cuDriverGetVersion cuDeviceGetCount cuDeviceGet cuDeviceGetAttribute cuDeviceGetName
cuDeviceComputeCapability cuCtxCreate_v2 cuCtxGetCurrent cuCtxSetLimit cuCtxPushCurrent_v2
cuCtxPopCurrent_v2 cuCtxDestroy_v2 cuMemAlloc_v2 cuMemAllocPitch_v2 cuMemsetD8Async cuMemFree_v2
cuMemcpy cuMemcpyAsync cuMemcpy2D_v2 cuMemcpy2DAsync_v2 cuMemcpyHtoD_v2 cuMemcpyHtoDAsync_v2
cuMemcpyDtoH_v2 cuMemcpyDtoHAsync_v2 cuMemcpyDtoD_v2 cuMemcpyDtoDAsync_v2 cuCtxGetDevice
cuDevicePrimaryCtxRetain cuDevicePrimaryCtxRelease cuDevicePrimaryCtxSetFlags
cuDevicePrimaryCtxGetState cuStreamCreate cuStreamQuery cuStreamSynchronize cuStreamDestroy_v2
cuStreamAddCallback cuStreamWaitEvent cuEventCreate cuEventDestroy_v2 cuEventSynchronize
cuEventQuery cuEventRecord cuLaunchKernel cuModuleLoadData cuModuleUnload cuModuleGetFunction
cuModuleGetGlobal cuModuleGetGlobal_v2 cuMemHostAlloc cuMemFreeHost cuMemAllocHost_v2 cuMemHostRegister_v2
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
# the c63 decoder's CUDA hwaccel on a stream the CPU encoder writes first
# (where the hwaccel cannot start, -hwaccel falls back to the CPU
# decoder: the same output, exit 0)
CASES="$CASES
c63-hwaccel|-hwaccel cuda -hwaccel_output_format cuda -i $TMP/dec.c63 -vf hwdownload,format=yuv420p -f rawvideo"
[ "$JOB" = yes ] || "$FFMPEG" -nostdin -v error -f lavfi -i "$SRC" -frames:v 3 -c:v c63 -f c63 \
    "$TMP/dec.c63" || exit 1
FUNCS=${CUDA_FAULT_FUNCS:-$FUNCS}

bad() { fail=$((fail + 1)); echo "FAILED: $*"; }
# run OUT LOG [VAR=VALUE...]: one ffmpeg run of the current case ($D, $args)
run() {
    out=$1 log=$2; shift 2
    rm -f "$out" "$D/fault.log"
    env "$@" CUDA_FAULT_LOG="$D/fault.log" LD_PRELOAD="$SHIM" \
        timeout 60 "$FFMPEG" -nostdin -hide_banner -v error -xerror -y $args "$out" > "$log" 2>&1
}
case_args() { printf '%s\n' "$CASES" | sed -n "s/^$1|//p"; }

# one job (run by xargs through this script): CASE FUNC, with the case's
# good output in $TMP/CASE/good; "PASS FAIL NOTRUN" to $TMP/CASE/FUNC/totals
if [ "$JOB" = yes ]; then
    name=$4 f=$5
    args=$(case_args "$name") D=$TMP/$name/$f good=$TMP/$name/good
    pass=0 fail=0 notrun=0
    mkdir -p "$D"
    run "$D/count" "$D/count.log" CUDA_FAULT_FUNC=$f CUDA_FAULT_N=0
    status=$?
    calls=$(cut -d' ' -f2 "$D/fault.log" 2>/dev/null)
    [ "${calls:-0}" -gt 0 ] 2>/dev/null || calls=0
    if [ $status -ne 0 ] || sanitizer_report "$D/count.log"; then
        bad "$name: $f: the run that counts the calls (no fault) $(ended $status)$(sanitizer_report "$D/count.log" && echo ", a sanitizer report")"
        calls=0
    fi
    n=1
    while [ "$n" -le "$calls" ]; do
        if [ -n "$DEADLINE" ] && [ "$(date +%s)" -ge "$DEADLINE" ]; then
            notrun=$((calls - n + 1))
            break
        fi
        run "$D/out" "$D/out.log" CUDA_FAULT_FUNC=$f CUDA_FAULT_N=$n CUDA_FAULT_CODE=$CODE
        status=$?
        what="$name: $f call $n of $calls failing with $CODE"
        if [ $status -eq 124 ]; then
            bad "$what: did not end within 60 s"
        elif [ $status -ne 0 ] && ! own_error $status; then
            bad "$what: $(ended $status)"
        elif sanitizer_report "$D/out.log"; then
            bad "$what: a sanitizer report ($(ended $status)): $(grep -m1 -E "$CHECKED_REPORT" "$D/out.log")"
        elif [ $status -eq 0 ] && ! cmp -s "$D/out" "$good"; then
            bad "$what: exit 0 but the output differs from a run without faults"
        elif [ -s "$D/out" ] && ! cmp -s -n "$(wc -c < "$D/out")" "$D/out" "$good"; then
            bad "$what: the output is not a prefix of the good output"
        elif [ $status -ne 0 ] && ! grep -qi 'cuda\|error\|fail' "$D/out.log"; then
            bad "$what: failed without saying why"
        else
            pass=$((pass + 1))
        fi
        n=$((n + 1))
    done
    if [ "$notrun" -gt 0 ]; then
        echo "fault: $name: $f: $calls calls, $pass runs passed, $fail failed, $notrun not run"
    else
        echo "fault: $name: $f: $calls calls, $pass runs passed, $fail failed"
    fi
    rm -f "$D/out" "$D/count"
    echo "$pass $fail $notrun" > "$D/totals"
    exit 0
fi

start=$(date +%s)
DEADLINE=
[ -n "${FAULT_DEADLINE:-}" ] && DEADLINE=$((start + FAULT_DEADLINE))
jobs=${FAULT_JOBS:-$(($(nproc) - 2))}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
names=
for name in $(printf '%s\n' "$CASES" | cut -d'|' -f1); do
    if [ -n "${CUDA_FAULT_CASES:-}" ]; then
        case " $CUDA_FAULT_CASES " in *" $name "*) ;; *) continue ;; esac
    fi
    names="$names $name"
done

# the good outputs, the cases in parallel
for name in $names; do
    (D=$TMP/$name; args=$(case_args "$name"); mkdir -p "$D"
     { run "$D/good" "$D/good.log" && ! sanitizer_report "$D/good.log"; } ||
         echo "$(tail -n 1 "$D/good.log")" > "$D/broken") &
done
wait
fail=0
: > "$TMP/jobs.list"
for name in $names; do
    if [ -f "$TMP/$name/broken" ]; then
        bad "$name: does not run without faults: $(cat "$TMP/$name/broken")"
    else
        for f in $FUNCS; do echo "$name $f" >> "$TMP/jobs.list"; done
    fi
done

export TMP DEADLINE
xargs -P "$jobs" -L 1 sh "$0" --job "$FFMPEG" "$SHIM" "$CODE" < "$TMP/jobs.list"

pass=0 notrun=0
while read -r name f; do
    if read -r p f2 nr < "$TMP/$name/$f/totals" 2>/dev/null; then
        pass=$((pass + p)) fail=$((fail + f2)) notrun=$((notrun + ${nr:-0}))
    else
        bad "$name: $f: no result"
    fi
done < "$TMP/jobs.list"
echo "fault injection: $(wc -l < "$TMP/jobs.list") jobs, $jobs at once, $(($(date +%s) - start)) s"
if [ "$notrun" -gt 0 ]; then
    echo "$pass passed, $fail failed, $notrun not run (FAULT_DEADLINE): incomplete"
    exit 1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
