#!/bin/sh
# compute-sanitizer over the CUDA code (needs a CUDA device and NVIDIA's
# compute-sanitizer on PATH or in /usr/local/cuda/bin):
#
#   run-sanitizer.sh DIR [TOOL...]
#
# DIR holds ffmpeg and checkcuda (a GPU bundle). Each TOOL (default:
# memcheck racecheck initcheck synccheck) runs over checkcuda (every kernel
# against its C twin on random and edge input) and over representative
# ffmpeg runs: c63_cuda from system memory and from CUDA frames at an odd
# size, c63_cuda at depth 1 and 4, cudadiff in each mode on a packed and a
# planar format. A run fails when the tool reports anything (exit code 1
# from --error-exitcode) or the program itself fails. Prints one line per
# run and "N passed, N failed".
set -u
DIR=$1; shift
TOOLS=${*:-memcheck racecheck initcheck synccheck}
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$CS" ] || { echo "run-sanitizer: compute-sanitizer not found"; echo "0 passed, 1 failed"; exit 1; }
TMP=${TMPDIR:-/tmp}/cudasan.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
FF="$DIR/ffmpeg -nostdin -hide_banner -v error -y"
HW="-init_hw_device cuda=gpu -filter_hw_device gpu"
SRC="-f lavfi -i testsrc2=s=97x51:r=25,noise=alls=20:allf=t -frames:v 4"
pass=0 fail=0

# one TOOL LABEL COMMAND...
one() {
    tool=$1 label=$2; shift 2
    timeout 600 "$CS" --tool "$tool" --error-exitcode 1 --print-limit 20 "$@" > "$TMP/log" 2>&1
    status=$?
    summary=$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$TMP/log")
    if [ $status -eq 0 ]; then
        pass=$((pass + 1)); echo "PASS: $tool: $label: ${summary:-no report}"
    else
        fail=$((fail + 1)); echo "FAILED: $tool: $label: status $status: ${summary:-}"
        grep -m 10 '=========' "$TMP/log" | sed 's/^/    /'
    fi
}

for tool in $TOOLS; do
    one $tool "checkcuda"                    "$DIR/checkcuda"
    one $tool "c63_cuda, system memory"      $FF $SRC -c:v c63_cuda -f c63 "$TMP/a.c63"
    one $tool "c63_cuda, depth 1"            $FF $SRC -c:v c63_cuda -depth 1 -f c63 "$TMP/b.c63"
    one $tool "c63_cuda, depth 4, -g 2"      $FF $SRC -c:v c63_cuda -depth 4 -g 2 -f c63 "$TMP/c.c63"
    one $tool "c63_cuda, CUDA frames"        $FF $HW $SRC -vf format=yuv420p,hwupload_cuda -c:v c63_cuda -f c63 "$TMP/d.c63"
    for mode in recon diff mask; do
        one $tool "cudadiff $mode, yuv420p"  $FF $HW $SRC -vf format=yuv420p,hwupload_cuda,cudadiff=mode=$mode:refresh=3,hwdownload,format=yuv420p -f null -
    done
    one $tool "cudadiff, yuyv422"            $FF $HW $SRC -vf format=yuyv422,hwupload_cuda,cudadiff,hwdownload,format=yuyv422 -f null -
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
