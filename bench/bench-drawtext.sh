#!/bin/sh
# drawtext_cuda against drawtext: per-frame filter time at 1080p and 2160p
# for a one-line timestamp and a 20-line block with box and border, in the
# same run (picked up by bench/bench.sh; needs a CUDA device, else says
# so and exits 0).
#
#   sh bench/bench-drawtext.sh [BUILD] [FRAMES]
#
# BUILD (default build) holds ffmpeg, and tests/filterrun (obj/tests/
# filterrun in a build tree) and cudatime.so where present.
#
# Per-frame filter time, steady state: tests/filterrun feeds FRAMES frames
# (default 300, after 10 not counted) of testsrc2 in nv12 one by one to the
# filter alone, each already where the filter takes it (system memory for
# drawtext, a CUDA frame for drawtext_cuda), and times each call; for
# drawtext_cuda the time includes waiting for the device, so it is the
# frame's host and GPU time together. Median and mean are printed.
# Back to back (filterrun --batch): the same frames, all made first, fed
# without waiting in between, the device waited for once after the last;
# the time a frame is then what a pipeline sees, host and GPU work of
# successive frames overlapping. Back to back is measured in ROUNDS
# rounds (default 3), each drawtext then drawtext_cuda; the ratio given is
# the median of the rounds' ratios, the times each filter's best round.
# Kernel time: the drawtext_cuda kernel's mean time per launch from CUDA
# events around each launch (bench/cudatime.cpp, preloaded); a short list
# is drawn by drawtext_cuda_inline (the list in the launch's parameters).
# Camera footage: the timestamp back to back on the first 25 pictures of
# the camera clip (BUILD/clips/vtest.avi or CAMERA_CLIP; bench/camera-clip.sh
# fetches it) upscaled to 1080p, as on testsrc2.
# Whole process: the wall time of ffmpeg running testsrc2 -> format=nv12
# [-> hwupload] -> the filter -> null over FRAMES frames, as frames/s,
# with the same graph without the filter beside it.
set -eu
BUILD=${1:-$(cd "$(dirname "$0")/.." && pwd)/build}
N=${2:-300}
ROUNDS=${ROUNDS:-3}
FF="$BUILD/ffmpeg -nostdin -hide_banner"
font=${DRAWTEXT_FONT:-}
[ -n "$font" ] || for f in "$BUILD/fonts/DejaVuSans.ttf" /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf; do
    [ -r "$f" ] && { font=$f; break; }
done
if [ -z "$font" ] || [ ! -r "$font" ]; then
    echo "bench: drawtext_cuda: skipped (no DejaVuSans.ttf; set DRAWTEXT_FONT)"
    exit 0
fi
if ! $FF -v error -init_hw_device cuda=cu -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - >/dev/null 2>&1; then
    echo "bench: drawtext_cuda: skipped (no CUDA device)"
    exit 0
fi
TMP=${TMPDIR:-/tmp}/bench-drawtext.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT

printf '%%{pts:hms} frame %%{frame_num}' > "$TMP/ts.txt"
i=1
while [ $i -le 20 ]; do
    printf 'Line %02d: the quick brown fox jumps over the lazy dog 0123456789\n' $i
    i=$((i + 1))
done > "$TMP/block.txt"

opts_ts="fontfile=$font:textfile=$TMP/ts.txt:fontsize=48:fontcolor=white:x=40:y=40"
opts_block="fontfile=$font:textfile=$TMP/block.txt:fontsize=32:line_spacing=4:fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=10:borderw=2:bordercolor=black:x=40:y=40"

FILTERRUN=$BUILD/tests/filterrun
[ -x "$FILTERRUN" ] || FILTERRUN=$BUILD/obj/tests/filterrun
CUDATIME=$BUILD/cudatime.so
[ -x "$FILTERRUN" ] || { echo "bench: drawtext_cuda: skipped (no tests/filterrun)"; exit 0; }

# wall seconds of one ffmpeg run, start-up included
rtime() {
    t0=$(date +%s.%N)
    $FF -v error "$@" -f null - >/dev/null 2>&1 || { echo "bench-drawtext: ffmpeg $* failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
}
fps() { awk -v t="$1" -v n="$N" 'BEGIN { printf "%.1f", n / t }'; }
# "median mean" of a filterrun line
med_mean() { sed -n 's/.*mean \([0-9.]*\) us, median \([0-9.]*\) us.*/\2 \1/p'; }
# the time a frame of a filterrun --batch line
per_frame() { sed -n 's/.*back to back, \([0-9.]*\) us a frame.*/\1/p'; }

# "LABEL" "OPTS" SOURCE [FILTERRUN OPTIONS]: back to back in ROUNDS rounds,
# each drawtext then drawtext_cuda: the median of the rounds' ratios, which
# a drift of the host's speed between rounds does not bias, and each
# filter's best round
back_to_back() {
    label=$1 o=$2 in=$3; shift 3
    : > "$TMP/rounds"
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        cb=$("$FILTERRUN" "$@" --batch -n $N "$in" "drawtext=$o" | per_frame)
        gb=$("$FILTERRUN" "$@" --batch --cuda -n $N "$in" "drawtext_cuda=$o" | per_frame)
        echo "$cb $gb" >> "$TMP/rounds"
        r=$((r + 1))
    done
    x=$(awk '{ printf "%.4f\n", $1 / $2 }' "$TMP/rounds" | sort -n |
        awk '{ r[NR] = $1 } END { printf "%.1f", NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }')
    set -- $(awk '{ if (NR == 1 || $1 < c) c = $1; if (NR == 1 || $2 < g) g = $2;
                    l = l sprintf("%s%.1fx", NR > 1 ? " " : "", $1 / $2) }
                  END { printf "%s %s %s", c, g, l }' "$TMP/rounds")
    cb=$1 gb=$2; shift 2
    echo "bench: drawtext $label, back to back: drawtext $cb us a frame, drawtext_cuda $gb us a frame (best of $ROUNDS rounds); median of the rounds' ratios ${x}x (rounds: $*)"
}

for size in 1920x1080 3840x2160; do
    src="testsrc2=s=$size:r=25,format=nv12"
    for case in ts block; do
        eval opts=\$opts_$case
        set -- $("$FILTERRUN" -n $N "$src" "drawtext=$opts" | med_mean)
        cm=$1 ca=$2
        if [ -r "$CUDATIME" ]; then
            set -- $(LD_PRELOAD=$CUDATIME CUDATIME_LOG=$TMP/kt "$FILTERRUN" --cuda -n $N "$src" \
                     "drawtext_cuda=$opts" | med_mean)
            k=$(awk '$2 == "drawtext_cuda" || $2 == "drawtext_cuda_inline" { print $6 }' "$TMP/kt")
        else
            set -- $("$FILTERRUN" --cuda -n $N "$src" "drawtext_cuda=$opts" | med_mean)
            k=
        fi
        gm=$1 ga=$2
        x=$(awk -v c="$cm" -v g="$gm" 'BEGIN { printf "%.1f", c / g }')
        line="bench: drawtext $size $case (nv12), per frame: drawtext median $cm us (mean $ca), drawtext_cuda median $gm us (mean $ga), ${x}x"
        [ -n "$k" ] && line="$line; kernel $k us/launch (CUDA events)"
        echo "$line"
        back_to_back "$size $case (nv12)" "$opts" "$src"
        c0=$(rtime -f lavfi -i "testsrc2=s=$size:r=25" -frames:v $N -vf "format=nv12")
        c1=$(rtime -f lavfi -i "testsrc2=s=$size:r=25" -frames:v $N -vf "format=nv12,drawtext=$opts")
        g0=$(rtime -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "testsrc2=s=$size:r=25" \
             -frames:v $N -vf "format=nv12,hwupload")
        g1=$(rtime -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "testsrc2=s=$size:r=25" \
             -frames:v $N -vf "format=nv12,hwupload,drawtext_cuda=$opts")
        echo "bench: drawtext $size $case (nv12), whole process, $N frames: CPU graph $(fps $c0) fps, with drawtext $(fps $c1) fps; GPU graph $(fps $g0) fps, with drawtext_cuda $(fps $g1) fps"
    done
done

# Camera footage: the timestamp on the camera clip's first 25 pictures,
# upscaled to 1080p, back to back.
clip=${CAMERA_CLIP:-$BUILD/clips/vtest.avi}
if [ -r "$clip" ]; then
    back_to_back "1920x1080 ts (nv12), camera footage (vtest.avi)" "$opts_ts" \
        "scale=1920:1080:flags=bicubic,format=nv12" --input "$clip"
else
    echo "bench: drawtext camera footage: skipped (no $clip; bench/camera-clip.sh fetches it)"
fi
