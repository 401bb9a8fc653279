#!/bin/sh
# Every rate control mode's (buffer model included) and rate-distortion
# option's stream, and streams with scene cuts, decode with the course's
# reference decoder to exactly what ours decodes (the reference programs are not part
# of this repository; see bench/bench-c63cpu.sh for where they come from),
# and tests/harness/c63refdec.cpp, the model of the reference decoder that
# FATE runs instead of it, agrees with it on every stream.
#
#   sh bench/check-refdec.sh BUILD C63DEC [CLIP]
#
# BUILD holds ffmpeg. CLIP defaults to BUILD/clips/vtest.avi (bench/
# camera-clip.sh), coded for 120 frames; its width, 768, is one the
# reference handles (a multiple of 16, quirk Q12). Besides the modes on the
# clip, the clip of fate-c63-q3 (Q3_CLIP of tests/fate/c63-common.sh),
# whose AC levels at the finest tables need the luma code of run 0, size 10:
# at -quality 50 the reference decoder must fail on it (quirk Q3), under
# -q:v 2 (the same tables, the levels limited) it must not; the same for
# the camera clip at -quality 40 with -me_range 4. The scene cut cases
# splice the clip with box.mp4 from the clip's directory, fetched there by
# bench/camera-clip.sh when absent; if it cannot be had they fail.
#
# The model is C63REFDEC if set, else BUILD/tests/c63refdec if built
# (make -C build/obj tests/c63refdec), else compiled from its source here.
# On every stream it must agree with the reference decoder: where C63DEC
# succeeds, the model exits 0 with byte-identical output (its -stride
# output, the reference decoder's layout) and its pictures are ours; where
# C63DEC fails, the model exits 2 (the reference decoder misreads it).
# Prints a line per case and "N passed, N failed".

BUILD=${1:?usage: check-refdec.sh BUILD C63DEC [CLIP]}
REFDEC=${2:?usage: check-refdec.sh BUILD C63DEC [CLIP]}
CLIP=${3:-$BUILD/clips/vtest.avi}
FFMPEG=$BUILD/ffmpeg
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=${TMPDIR:-/tmp}/check-refdec.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
Q3_CLIP=$(sh -c '. "$1"; echo "$Q3_CLIP"' x "$HERE/../tests/fate/c63-common.sh" 2>/dev/null)
[ -f "$CLIP" ] || { echo "check-refdec: no clip $CLIP"; exit 1; }
MODEL=${C63REFDEC:-$BUILD/tests/c63refdec}
if [ -z "${C63REFDEC:-}" ] && [ ! -x "$MODEL" ]; then
    MODEL=$TMP/c63refdec
    ${CXX:-c++} -O2 -std=c++17 -ffp-contract=off -o "$MODEL" "$HERE/../tests/harness/c63refdec.cpp" ||
        { echo "check-refdec: cannot build the model"; exit 1; }
fi
[ -x "$MODEL" ] || { echo "check-refdec: no model $MODEL"; exit 1; }
pass=0 fail=0
failed() { echo "FAILED: $*"; fail=$((fail + 1)); }

# check NAME EXPECT INPUT... -- OPTS...: encode, then decode with both
# decoders and the model; EXPECT same (identical pictures) or refdec-fails
check() {
    name=$1 expect=$2; shift 2
    in= ; while [ "$1" != -- ]; do in="$in $1"; shift; done; shift
    if ! "$FFMPEG" -nostdin -hide_banner -v error $in -c:v c63 "$@" -f c63 -y "$TMP/s.c63" \
            2> "$TMP/err"; then
        failed "$name: encoder: $(head -n 1 "$TMP/err")"; return
    fi
    rm -f "$TMP/ref.yuv" "$TMP/model.yuv" "$TMP/model-crop.yuv"
    "$REFDEC" "$TMP/s.c63" "$TMP/ref.yuv" > /dev/null 2>&1
    rc=$?
    "$MODEL" -stride "$TMP/s.c63" "$TMP/model.yuv" 2> "$TMP/merr"
    mrc=$?
    "$MODEL" "$TMP/s.c63" "$TMP/model-crop.yuv" 2> /dev/null
    ours=$("$FFMPEG" -nostdin -v error -i "$TMP/s.c63" -f rawvideo -pix_fmt yuv420p - | md5sum | cut -c1-32)
    ref=$(cat "$TMP/ref.yuv" 2> /dev/null | md5sum | cut -c1-32)
    model=$(cat "$TMP/model-crop.yuv" 2> /dev/null | md5sum | cut -c1-32)
    # the model agrees with the reference decoder
    if [ $rc -eq 0 ] && { [ $mrc -ne 0 ] || ! cmp -s "$TMP/ref.yuv" "$TMP/model.yuv" ||
                          [ "$model" != "$ours" ]; }; then
        failed "$name: the reference decoder succeeds (md5 $ref) but the model exits $mrc" \
               "($(head -n 1 "$TMP/merr")), with other output, or not our pictures (model $model, ours $ours)"
        return
    fi
    if [ $rc -ne 0 ] && [ $mrc -ne 2 ]; then
        failed "$name: the reference decoder fails (exit $rc) but the model exits $mrc"; return
    fi
    if [ $expect = same ] && [ $rc -eq 0 ] && [ "$ours" = "$ref" ]; then
        echo "$name: identical ($ours), the model too"; pass=$((pass + 1))
    elif [ $expect = refdec-fails ] && { [ $rc -ne 0 ] || [ "$ours" != "$ref" ]; }; then
        echo "$name: the reference decoder fails, as expected (exit $rc); the model exits $mrc:" \
             "$(sed 's/^c63refdec: [^ ]*: //' "$TMP/merr" | head -n 1)"
        pass=$((pass + 1))
    else
        failed "$name: reference decoder exit $rc, md5 $ref, ours $ours"
    fi
}

c="-i $CLIP -frames:v 120"
check "default (-quality 25)"   same $c --
check "-b:v 1500k"              same $c -- -b:v 1500k
check "-b:v 1500k -g 1"         same $c -- -b:v 1500k -g 1
check "-b:v 3M (finest tables)" same $c -- -b:v 3M
check "-q:v 2.5"                same $c -- -q:v 2.5
check "-q:v 40 -me_range 4"     same $c -- -q:v 40 -me_range 4
# the issue's case: quality 40 with a short search sends the Q3 code on
# this clip; the same tables under -q:v (scale 100 / 40) do not
check "-quality 40 -me_range 4" refdec-fails $c -- -quality 40 -me_range 4
check "-q:v 2.5 -me_range 4"    same $c -- -q:v 2.5 -me_range 4
if "$FFMPEG" -nostdin -v error $c -c:v c63 -b:v 1500k -pass 1 -passlogfile "$TMP/log" -f null - \
        2> "$TMP/err"; then
    check "-b:v 1500k, second pass" same $c -- -b:v 1500k -pass 2 -passlogfile "$TMP/log"
else
    failed "-b:v 1500k, second pass: the first pass: $(head -n 1 "$TMP/err")"
fi
# the rate-distortion options, alone, together and with rate control
check "-tables flat"            same $c -- -tables flat
check "-tables ssim"            same $c -- -tables ssim
check "-trellis 1"              same $c -- -trellis 1
check "-trellis 2"              same $c -- -trellis 2
check "-mv_rd 1"                same $c -- -mv_rd 1
check "-intra_rd 1"             same $c -- -intra_rd 1
all="-tables flat -trellis 1 -mv_rd 1 -intra_rd 1"
check "$all" same $c -- $all
check "the same, -quality 50"   same $c -- $all -quality 50
check "the same, -b:v 800k"     same $c -- $all -b:v 800k
ssim="-tables ssim -trellis 1 -mv_rd 1 -intra_rd 1"
check "$ssim" same $c -- $ssim
check "the same, -b:v 800k"     same $c -- $ssim -b:v 800k
all2="-tables flat -trellis 2 -mv_rd 1 -intra_rd 1"
check "$all2" same $c -- $all2
check "the same, -b:v 800k"     same $c -- $all2 -b:v 800k
check "-trellis 1 -mv_rd 1 -quality 40 -me_range 4" same $c -- -trellis 1 -mv_rd 1 -quality 40 -me_range 4
# the buffer model, and scene cuts on a splice of the clip and box.mp4
# (bench/camera-clip.sh, beside the clip, fetched when absent)
check "-b:v 1500k -maxrate 2250k -bufsize 750k" same $c -- -b:v 1500k -maxrate 2250k -bufsize 750k
check "-b:v 1500k -maxrate 1500k -bufsize 1500k" same $c -- -b:v 1500k -maxrate 1500k -bufsize 1500k
splice="splice, -sc_threshold 70|splice, $all|splice, -sc_threshold 0 -intra_rd 1|splice, -b:v 1500k -maxrate 1500k -bufsize 1500k"
if box=$(sh "$HERE/camera-clip.sh" "$(dirname "$CLIP")" box 2> "$TMP/err") &&
   (for f in "$CLIP" "$box"; do
        "$FFMPEG" -nostdin -v error -i "$f" -an -frames:v 60 -vf scale=768:576 -pix_fmt yuv420p \
            -f rawvideo - 2>> "$TMP/err" || exit 1
    done) > "$TMP/splice.yuv"; then
    s="-f rawvideo -s 768x576 -pix_fmt yuv420p -i $TMP/splice.yuv"
    check "splice, -sc_threshold 70" same $s -- -sc_threshold 70
    check "splice, $all" same $s -- $all
    # its cut an inter frame, coded mostly without vectors
    check "splice, -sc_threshold 0 -intra_rd 1" same $s -- -sc_threshold 0 -intra_rd 1
    check "splice, -b:v 1500k -maxrate 1500k -bufsize 1500k" same $s -- -b:v 1500k -maxrate 1500k -bufsize 1500k
else
    why=$(tail -n 1 "$TMP/err")
    IFS='|'; for name in $splice; do failed "$name: no splice of the clip and box.mp4: $why"; done; unset IFS
fi
check "Q3 clip, -quality 50 -trellis 1" same -f lavfi -i "$Q3_CLIP" -- -quality 50 -me_range 1 -trellis 1
check "Q3 clip, -quality 50"    refdec-fails -f lavfi -i "$Q3_CLIP" -- -quality 50 -me_range 1
check "Q3 clip, -q:v 2"         same -f lavfi -i "$Q3_CLIP" -- -q:v 2 -me_range 1
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
