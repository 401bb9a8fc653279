#!/bin/sh
# drawtext_cuda against drawtext: per-frame filter time at 1080p and 2160p
# for a one-line timestamp and a 20-line block with box and border, in the
# same run (picked up by tools/bench.sh; needs a CUDA device, else says
# so and exits 0).
#
#   sh tools/bench-drawtext.sh [BUILD] [FRAMES]
#
# Filter time per frame is the difference between the wall time of a
# pipeline with the filter and the same pipeline
# without it, over FRAMES frames (default 300), divided by FRAMES:
#   CPU: testsrc2, format=nv12 [,drawtext]
#   GPU: testsrc2, format=nv12, hwupload_cuda [,drawtext_cuda]
# (frames stay on the device: no download); each time is the fastest of
# 3 runs. With nsys on PATH the kernel
# time per launch is also reported from its CUDA kernel summary.
set -eu
BUILD=${1:-$(cd "$(dirname "$0")/.." && pwd)/build}
N=${2:-300}
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

# wall seconds of one run (the process, start-up included: it cancels
# out in the difference)
rtime() {
    t0=$(date +%s.%N)
    $FF -v error "$@" -f null - >/dev/null 2>&1 || { echo "bench-drawtext: ffmpeg $* failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
}
# the fastest of 3 runs, so that the difference is not the noise of one
best() {
    m=
    for r in 1 2 3; do
        t=$(rtime "$@")
        m=$(awk -v m="$m" -v t="$t" 'BEGIN { print (m == "" || t < m) ? t : m }')
    done
    echo "$m"
}
# microseconds per frame between two runs
per_frame() {
    awk -v a="$1" -v b="$2" -v n="$N" 'BEGIN { printf "%.1f", (b - a) * 1e6 / n }'
}

for size in 1920x1080 3840x2160; do
    src="testsrc2=s=$size:r=25"
    for case in ts block; do
        eval opts=\$opts_$case
        cpu0=$(best -f lavfi -i "$src" -frames:v $N -vf "format=nv12")
        cpu1=$(best -f lavfi -i "$src" -frames:v $N -vf "format=nv12,drawtext=$opts")
        gpu0=$(best -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "$src" -frames:v $N \
               -vf "format=nv12,hwupload_cuda")
        gpu1=$(best -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "$src" -frames:v $N \
               -vf "format=nv12,hwupload_cuda,drawtext_cuda=$opts")
        c=$(per_frame "$cpu0" "$cpu1")
        g=$(per_frame "$gpu0" "$gpu1")
        x=$(awk -v c="$c" -v g="$g" 'BEGIN { if (g > 0) printf "%.1f", c / g; else print "n/a" }')
        line="bench: drawtext $size $case (nv12): CPU $c us/frame, drawtext_cuda $g us/frame, ${x}x"
        if command -v nsys >/dev/null 2>&1; then
            nsys profile -q -t cuda -o "$TMP/prof-$size-$case" -f true \
                $BUILD/ffmpeg -nostdin -v error -init_hw_device cuda=cu -filter_hw_device cu \
                -f lavfi -i "$src" -frames:v $N -vf "format=nv12,hwupload_cuda,drawtext_cuda=$opts" \
                -f null - >/dev/null 2>&1 &&
            k=$(nsys stats -q -r cuda_gpu_kern_sum -f csv "$TMP/prof-$size-$case.nsys-rep" 2>/dev/null |
                awk -F, '/drawtext_cuda/ { gsub(/"/, ""); printf "%.1f", $4 / 1000 }') &&
            [ -n "$k" ] && line="$line, kernel $k us/launch (nsys average)"
        fi
        echo "$line"
    done
done
