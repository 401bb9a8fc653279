#!/bin/sh
# compute-sanitizer over the CUDA code (needs a CUDA device and NVIDIA's
# compute-sanitizer on PATH or in /usr/local/cuda/bin):
#
#   run-sanitizer.sh DIR [TOOL...]
#
# DIR holds ffmpeg and checkcuda (a GPU bundle). Each TOOL (default:
# memcheck racecheck initcheck synccheck) runs over checkcuda --small (every
# kernel against its CPU twin on random and edge input, cases up to 176x144)
# and over representative ffmpeg runs at an odd size: c63_cuda from system
# memory and from CUDA frames (yuv420p and NV12), at depth 1 and 4, with
# the rate-distortion options, rate control, the buffer model and scene
# cuts; cudadiff in each mode on a
# packed and a planar format; drawtext_cuda with box, border, shadow and
# moving text on three formats; mestimate_cuda esa and hexbs. The tools run
# in parallel, the runs of one tool one after the other, each limited to
# SANITIZER_LIMIT seconds (default 300). A run fails when the tool reports
# anything (exit code 1 from --error-exitcode), the program itself fails
# (a non-zero status, or a report of a host sanitizer in its output:
# tests/fate/checked.sh) or the limit is reached. Prints one line per run and "N passed, N
# failed".
set -u
DIR=$1; shift
. "$(cd "$(dirname "$0")" && pwd)/../fate/checked.sh"
TOOLS=${*:-memcheck racecheck initcheck synccheck}
LIMIT=${SANITIZER_LIMIT:-300}
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$CS" ] || { echo "run-sanitizer: compute-sanitizer not found"; echo "0 passed, 1 failed"; exit 1; }
TMP=${TMPDIR:-/tmp}/cudasan.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
FF="$DIR/ffmpeg -nostdin -hide_banner -v error -y"
HW="-init_hw_device cuda=gpu -filter_hw_device gpu"
SRC="-f lavfi -i testsrc2=s=97x51:r=25,noise=alls=20:allf=t -frames:v 4"
CUTS="-f lavfi -i testsrc2=s=97x51:r=25,drawbox=0:0:97:51:black:fill:enable='eq(n,2)',noise=alls=20:allf=t -frames:v 5"
RD1="-trellis 1 -mv_rd 1"
RD2="-tables flat -trellis 2 -mv_rd 1 -intra_rd 1"
# one TOOL LABEL COMMAND...
one() {
    tool=$1 label=$2; shift 2
    timeout "$LIMIT" "$CS" --tool "$tool" --error-exitcode 1 --print-limit 20 "$@" > "$TMP/$tool.log" 2>&1
    status=$?
    summary=$(grep -m1 'ERROR SUMMARY\|RACECHECK SUMMARY' "$TMP/$tool.log")
    if [ $status -eq 0 ] && ! sanitizer_report "$TMP/$tool.log"; then
        echo "PASS: $tool: $label: ${summary:-no report}"
    else
        echo "FAILED: $tool: $label: $(ended $status): ${summary:-}$(sanitizer_report "$TMP/$tool.log" && echo " (a sanitizer report)")"
        grep -m 10 '=========' "$TMP/$tool.log" | sed 's/^/    /'
    fi
}

FONT=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
DT="drawtext_cuda=fontfile=$FONT:text=Sanitize %{frame_num}:fontsize=18:box=1:boxborderw=2:borderw=1:shadowx=2:shadowy=1:x=w-n*20:y=h-n*9"

# every run of one tool, one after the other
tool_runs() {
    tool=$1
    one $tool "checkcuda --small"            "$DIR/checkcuda" --small
    one $tool "c63_cuda, system memory"      $FF $SRC -c:v c63_cuda -f c63 "$TMP/a-$tool.c63"
    one $tool "c63_cuda, depth 1"            $FF $SRC -c:v c63_cuda -depth 1 -f c63 "$TMP/b-$tool.c63"
    one $tool "c63_cuda, depth 4, -g 2"      $FF $SRC -c:v c63_cuda -depth 4 -g 2 -f c63 "$TMP/c-$tool.c63"
    one $tool "c63_cuda, CUDA frames"        $FF $HW $SRC -vf format=yuv420p,hwupload_cuda -c:v c63_cuda -f c63 "$TMP/d-$tool.c63"
    one $tool "c63_cuda, NV12 CUDA frames"   $FF $HW $SRC -vf format=nv12,hwupload_cuda -c:v c63_cuda -f c63 "$TMP/e-$tool.c63"
    # the rate-distortion options (c63_encode_rdq, c63_dc_chain, c63_mv_rd),
    # rate control with and without the buffer model (c63_activity), and
    # scene cuts (c63_sc_hist, c63_sc_decide) on a source that cuts at
    # frames 2 and 3
    one $tool "c63_cuda, -trellis 1 -mv_rd 1"  $FF $SRC -c:v c63_cuda $RD1 -f c63 "$TMP/f-$tool.c63"
    one $tool "c63_cuda, every option"       $FF $SRC -c:v c63_cuda $RD2 -f c63 "$TMP/g-$tool.c63"
    one $tool "c63_cuda, -tables ssim, CUDA frames" $FF $HW $SRC -vf format=nv12,hwupload_cuda \
        -c:v c63_cuda -tables ssim -trellis 2 -intra_rd 1 -f c63 "$TMP/h-$tool.c63"
    one $tool "c63_cuda, -b:v, depth 2"      $FF $SRC -c:v c63_cuda -b:v 300k -depth 2 -f c63 "$TMP/i-$tool.c63"
    one $tool "c63_cuda, buffer model, every option" $FF $SRC -c:v c63_cuda -b:v 300k -maxrate 300k \
        -bufsize 200k $RD2 -f c63 "$TMP/j-$tool.c63"
    one $tool "c63_cuda, scene cuts"         $FF $CUTS -c:v c63_cuda -sc_threshold 30 -f c63 "$TMP/k-$tool.c63"
    one $tool "c63_cuda, scene cuts, -b:v, every option" $FF $CUTS -c:v c63_cuda -b:v 300k $RD2 \
        -f c63 "$TMP/l-$tool.c63"
    # the decoder's CUDA hwaccel (c63_hd_*, c63_recon) on a good stream,
    # one with garbage in its second frame's data and one cut short
    one $tool "c63 -hwaccel cuda"            $FF -hwaccel cuda -hwaccel_output_format cuda \
        -i "$TMP/g-$tool.c63" -vf hwdownload,format=yuv420p -f null -
    cp "$TMP/g-$tool.c63" "$TMP/bad-$tool.c63"
    printf '\377\377\000\252\125\377\001\377\000\377' |
        dd of="$TMP/bad-$tool.c63" bs=1 seek=$(($(wc -c < "$TMP/g-$tool.c63") / 3)) conv=notrunc 2> /dev/null
    head -c $(($(wc -c < "$TMP/g-$tool.c63") * 2 / 3)) "$TMP/g-$tool.c63" >> "$TMP/bad-$tool.c63"
    one $tool "c63 -hwaccel cuda, garbage, cut" $FF -hwaccel cuda -hwaccel_output_format cuda \
        -i "$TMP/bad-$tool.c63" -vf hwdownload,format=yuv420p -f null -
    for mode in recon diff mask; do
        one $tool "cudadiff $mode, yuv420p"  $FF $HW $SRC -vf format=yuv420p,hwupload_cuda,cudadiff=mode=$mode:refresh=3,hwdownload,format=yuv420p -f null -
    done
    one $tool "cudadiff, yuyv422"            $FF $HW $SRC -vf format=yuyv422,hwupload_cuda,cudadiff,hwdownload,format=yuyv422 -f null -
    for fmt in nv12 yuyv422 rgb24; do
        one $tool "drawtext_cuda, $fmt"      $FF $HW $SRC -vf "format=$fmt,hwupload_cuda,$DT,hwdownload,format=$fmt" -f null -
    done
    one $tool "mestimate_cuda, esa"          $FF $HW $SRC -vf format=yuv420p,hwupload_cuda,mestimate_cuda,hwdownload,format=yuv420p -f null -
    one $tool "mestimate_cuda, hexbs, mb 8"  $FF $HW $SRC -vf format=yuv420p,hwupload_cuda,mestimate_cuda=method=hexbs:mb_size=8,hwdownload,format=yuv420p -f null -
}

# the tools in parallel, each with its own log
for tool in $TOOLS; do
    tool_runs $tool > "$TMP/$tool.out" 2>&1 &
done
wait
for tool in $TOOLS; do
    cat "$TMP/$tool.out"
done
pass=$(cat "$TMP"/*.out | grep -c '^PASS')
fail=$(cat "$TMP"/*.out | grep -c '^FAILED')
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
