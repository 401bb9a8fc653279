#!/bin/sh
# make check-valgrind: a representative subset under valgrind memcheck:
# decoding, encoding, each filter, and each kind of error path. A run
# fails when valgrind reports an invalid access, a use of uninitialised
# memory or a definite or indirect leak (exit status 99), whatever the
# command's own status, which for the error cases is expected to be
# non-zero (ffmpeg's status for an AVERROR, not a signal, a timeout or a
# program that could not be run: tests/fate/checked.sh; a run killed by a
# signal fails too).
#
#   valgrind.sh BUILD
set -u
BUILD=$1
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/fate/checked.sh"
S=$top/tests/fate/samples
TMP=${TMPDIR:-/tmp}/c63-valgrind.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --track-origins=yes"
pass=0 fail=0

# vg NAME EXPECT PROGRAM ARGS...: EXPECT is ok (exit 0) or error (non-zero)
vg() {
    name=$1 expect=$2; shift 2
    $VG "$@" > "$TMP/out" 2> "$TMP/err"
    status=$?
    if [ $status -eq 99 ]; then
        fail=$((fail + 1)); echo "FAILED: $name: valgrind reported errors"
        grep -m 8 '==[0-9]*==' "$TMP/err" | sed 's/^/    /'
    elif [ $expect = ok ] && [ $status -ne 0 ]; then
        fail=$((fail + 1)); echo "FAILED: $name: exit status $status"; tail -n 3 "$TMP/err"
    elif grep -q 'Process terminating with default action of signal' "$TMP/err"; then
        fail=$((fail + 1)); echo "FAILED: $name: killed by a signal"; grep -m 3 '==[0-9]*==' "$TMP/err"
    elif [ $expect = error ] && [ $status -eq 0 ]; then
        fail=$((fail + 1)); echo "FAILED: $name: exit status 0, expected an error"
    elif [ $expect = error ] && ! own_error $status; then
        fail=$((fail + 1)); echo "FAILED: $name: $(ended $status), expected an error of its own"; tail -n 3 "$TMP/err"
    else
        pass=$((pass + 1)); echo "PASS: $name"
    fi
}

FF="$BUILD/obj/ffmpeg -nostdin -hide_banner -v error -threads 2"
xz -dc "$S/tiny.yuv.xz" > "$TMP/tiny.yuv"
head -c 3000 "$S/tiny.c63" > "$TMP/truncated.c63"

vg "decode qcif_keyint"        ok    $FF -i "$S/qcif_keyint.c63" -f framecrc -
vg "decode odd_height"         ok    $FF -i "$S/odd_height.c63" -f null -
vg "probe"                     ok    "$BUILD/obj/ffprobe" -v error -count_frames -show_streams "$S/tiny.c63"
vg "encode tiny"               ok    $FF -f rawvideo -s 16x16 -pix_fmt yuv420p -i "$TMP/tiny.yuv" -c:v c63 -f c63 "$TMP/x.c63"
vg "encode 65x33, g 3, 2 threads" ok $FF -f lavfi -i testsrc2=s=65x33:r=25 -frames:v 5 -c:v c63 -g 3 -f null -
xz -dc "$S/odd_height.yuv.xz" > "$TMP/odd.yuv"
vg "encoder API, 3 threads: delay, wrong size, lost packet" ok \
    "$BUILD/obj/tests/encapi" 3 "$TMP/odd.yuv" 176x100
vg "remux to matroska"         ok    $FF -i "$S/tiny.c63" -c copy -f matroska "$TMP/x.mkv"
vg "framediff + framediffapply" ok   $FF -f lavfi -i testsrc2=s=64x48:r=25 -frames:v 4 \
    -vf "format=yuv420p,framediff=threshold=10:refresh=2:mode=diff,framediffapply" -f null -
vg "framediff, 2 threads, rgb24" ok  $FF -f lavfi -i testsrc2=s=33x17:r=25 -frames:v 3 \
    -vf "format=rgb24,framediff=mode=mask" -f null -
vg "encode tiny, GPU coder run serially" ok "$BUILD/obj/tests/ecserial" -O "$TMP/t.c63" "$TMP/tiny.yuv" 16x16
vg "framediff codec, encode"   ok    $FF -f lavfi -i testsrc2=s=64x48:r=25 -frames:v 6 \
    -vf format=yuv420p -c:v framediff -g 3 -f nut "$TMP/x.nut"
vg "framediff codec, decode"   ok    $FF -i "$TMP/x.nut" -f framecrc -
vg "framediff decoder, hostile packets" ok "$BUILD/obj/checkframediff"
FONT=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
vg "drawtext, box and border"  ok    $FF -f lavfi -i testsrc2=s=97x51:r=25 -frames:v 3 \
    -vf "format=nv12,drawtext=fontfile=$FONT:text=%{frame_num}:fontsize=16:box=1:borderw=1" -f null -
vg "mestimate and codecview"   ok    $FF -f lavfi -i testsrc2=s=64x48:r=25 -frames:v 4 \
    -vf "format=yuv420p,mestimate=search_param=4,codecview=mv=pf+bf" -f null -
{ head -c 206 "$S/tiny.c63"; printf '\040\000\040\000'; tail -c +211 "$S/tiny.c63"; } > "$TMP/huge.c63"
vg "frame too short for its size" error $FF -xerror -i "$TMP/huge.c63" -f null -
vg "truncated stream"          error $FF -xerror -i "$TMP/truncated.c63" -f null -
vg "vector outside the plane"  error $FF -xerror -i "$S/bad_mv.c63" -f null -
vg "AC run past the block"     error $FF -xerror -i "$S/bad_run.c63" -f null -
vg "refused quality 0"         error $FF -f lavfi -i testsrc2=s=16x16 -frames:v 1 -c:v c63 -quality 0 -f null -
vg "framediffapply without a list" error $FF -f lavfi -i testsrc2=s=16x16 -frames:v 1 -vf framediffapply -f null -
vg "c63_cuda without a device" error $FF -f lavfi -i testsrc2=s=16x16 -frames:v 1 -c:v c63_cuda -f null -
vg "cudadiff without a device" error $FF -init_hw_device cuda=gpu -filter_hw_device gpu \
    -f lavfi -i testsrc2=s=16x16 -frames:v 1 -vf hwupload_cuda,cudadiff -f null -
vg "drawtext_cuda without a device" error $FF -init_hw_device cuda=gpu -filter_hw_device gpu \
    -f lavfi -i testsrc2=s=16x16 -frames:v 1 -vf "hwupload_cuda,drawtext_cuda=fontfile=$FONT:text=x" -f null -
vg "mestimate_cuda without a device" error $FF -init_hw_device cuda=gpu -filter_hw_device gpu \
    -f lavfi -i testsrc2=s=16x16 -frames:v 1 -vf hwupload_cuda,mestimate_cuda -f null -

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
