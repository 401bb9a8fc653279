#!/bin/sh
# Two builds of ffmpeg in turns on the same commands: is the new one as
# fast as the old, and is its output the same? For changes that must not
# change speed or output (a refactoring, a moved file).
#
#   sh bench/compare-builds.sh OLD_FFMPEG NEW_FFMPEG [ROUNDS]
#
# Each case runs ROUNDS times (default 5) with each build, the two builds
# alternating (old, new, new, old, old, new, ...), so that a drift of the
# host's or the GPU's speed, and going first or second, fall on both alike.
# CASES (a pattern for grep -E, default all) picks cases by name. Prints per case the median wall
# time of each build, new / old, and whether the outputs (md5 of what the
# case writes) are identical. Exits non-zero if an output differs or a run
# fails. (Whole processes of a second or so drift by up to 16% from run to
# run on a GPU host: for c63_cuda, its GPU time per stage, -v verbose,
# tells more.)
#
# Cases: c63 encoding (2 threads) and decoding on the CPU, 1080p; on a
# CUDA device also c63_cuda with the defaults and with every
# rate-distortion option, cudadiff, drawtext_cuda and mestimate_cuda, each
# on 1080p frames uploaded by hwupload. Inputs: testsrc2 with moving noise
# at 1920x1080, and when CLIP names a camera clip (bench/camera-clip.sh's
# vtest.avi), the clip upscaled to 1080p with noise as the other
# benchmarks make it; each read from a raw file in the page cache (/dev/shm
# where there is one). FRAMES (default 200) frames a GPU case, CPU_FRAMES
# (default 30) a CPU case. DRAWTEXT_FONT names the font (default DejaVu
# Sans).
set -u
OLD=${1:?usage: compare-builds.sh OLD_FFMPEG NEW_FFMPEG [ROUNDS]}
NEW=${2:?usage: compare-builds.sh OLD_FFMPEG NEW_FFMPEG [ROUNDS]}
ROUNDS=${3:-5}
FRAMES=${FRAMES:-200}
CPU_FRAMES=${CPU_FRAMES:-30}
FONT=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
TMP=/dev/shm/compare-builds.$$
mkdir -p "$TMP" 2>/dev/null || TMP=${TMPDIR:-/tmp}/compare-builds.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
status=0

ff() { "$NEW" -nostdin -hide_banner -v error "$@"; }
ff -f lavfi -i "testsrc2=s=1920x1080:r=25,noise=alls=8:allf=t" -frames:v "$FRAMES" \
   -f rawvideo -pix_fmt yuv420p "$TMP/lavfi.yuv" || exit 1
inputs=lavfi
if [ -n "${CLIP:-}" ] && [ -f "$CLIP" ]; then
    ff -i "$CLIP" -an -frames:v "$FRAMES" -vf "scale=1920:1080:flags=bicubic,noise=alls=3:allf=t" \
       -f rawvideo -pix_fmt yuv420p "$TMP/camera.yuv" || exit 1
    inputs="$inputs camera"
fi
gpu=
"$NEW" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 -frames:v 1 \
    -f null - 2>/dev/null && gpu=1
echo "compare-builds: old $OLD"
echo "compare-builds: new $NEW"
echo "compare-builds: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores${gpu:+, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)}; $ROUNDS rounds, inputs: $inputs"

# median of the numbers on standard input
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# one BUILD NAME OUT ARGS...: one run; appends its wall time (s) to
# TMP/NAME.BUILD.wall; keeps the md5 of OUT (a file, or - for none) in
# TMP/NAME.BUILD.md5
one() {
    which=$1 name=$2 out=$3; shift 3
    prog=$OLD; [ "$which" = new ] && prog=$NEW
    t0=$(date +%s.%N)
    "$prog" -nostdin -hide_banner -v error "$@" 2> "$TMP/err"
    rc=$?
    t1=$(date +%s.%N)
    if [ $rc -ne 0 ] || [ -s "$TMP/err" ]; then
        echo "FAILED: $name ($which): exit $rc: $(head -n 3 "$TMP/err")"
        status=1
        return
    fi
    echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }' >> "$TMP/$name.$which.wall"
    if [ "$out" != - ]; then
        md5sum < "$out" | cut -d' ' -f1 > "$TMP/$name.$which.md5"
    fi
}

# case NAME OUT ARGS...: ROUNDS rounds of old and new in turns, then the line
case_ab() {
    name=$1 out=$2; shift 2
    echo "$name" | grep -E -q -e "${CASES:-.}" || return 0
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        if [ $((r % 2)) = 0 ]; then
            one old "$name" "$out" "$@"; one new "$name" "$out" "$@"
        else
            one new "$name" "$out" "$@"; one old "$name" "$out" "$@"
        fi
        r=$((r + 1))
    done
    [ -f "$TMP/$name.old.wall" ] && [ -f "$TMP/$name.new.wall" ] || return
    o=$(median < "$TMP/$name.old.wall") n=$(median < "$TMP/$name.new.wall")
    same=same
    [ "$out" = - ] && same="(no output compared)"
    if [ "$out" != - ] && ! cmp -s "$TMP/$name.old.md5" "$TMP/$name.new.md5"; then
        same=DIFFERENT status=1
    fi
    awk -v c="$name" -v o="$o" -v n="$n" -v s="$same" \
        'BEGIN { printf "%-34s old %.3f s, new %.3f s, new/old %.3f; output %s\n", c, o, n, n / o, s }'
}

for src in $inputs; do
    raw="-f rawvideo -s 1920x1080 -pix_fmt yuv420p -i $TMP/$src.yuv"
    ff $raw -frames:v "$CPU_FRAMES" -c:v c63 -f c63 "$TMP/$src.c63" || exit 1
    case_ab "$src: c63 encode, 2 threads" "$TMP/o.c63" $raw -frames:v "$CPU_FRAMES" -threads 2 \
        -c:v c63 -f c63 -y "$TMP/o.c63"
    case_ab "$src: c63 decode, 2 threads" "$TMP/o.yuv" -threads 2 -i "$TMP/$src.c63" \
        -f rawvideo -y "$TMP/o.yuv"
    [ -n "$gpu" ] || continue
    hw="-init_hw_device cuda=gpu -filter_hw_device gpu"
    case_ab "$src: c63_cuda" "$TMP/o.c63" $raw -c:v c63_cuda -f c63 -y "$TMP/o.c63"
    case_ab "$src: c63_cuda, every option" "$TMP/o.c63" $raw -c:v c63_cuda \
        -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 -f c63 -y "$TMP/o.c63"
    case_ab "$src: cudadiff" - $hw $raw -vf hwupload,cudadiff=threshold=20 -f null -
    case_ab "$src: drawtext_cuda" - $hw $raw \
        -vf "hwupload,drawtext_cuda=fontfile=$FONT:text=%{frame_num} %{pts}:fontsize=48:box=1:x=40:y=40" \
        -f null -
    case_ab "$src: mestimate_cuda" - $hw $raw -vf hwupload,mestimate_cuda -f null -
done
[ -n "$gpu" ] || echo "compare-builds: no CUDA device: the GPU cases were not run"
exit $status
