#!/bin/sh
# c63_cuda benchmark: end-to-end 1080p encode speed of the CUDA encoder
# against the CPU encoder in the same run, per-stage GPU times, and the
# kernel benchmark of checkcuda.
#
#   sh tools/bench-c63cuda.sh [BUILD_DIR] [FRAMES]
#
# BUILD_DIR defaults to build (ffmpeg and checkcuda are taken from there),
# FRAMES to 300. The input is a rawvideo file, so decoding costs nothing;
# it is written to $TMPDIR (about 3 MB a frame).

BUILD=${1:-build}
FRAMES=${2:-300}
FFMPEG=$BUILD/ffmpeg
TMP=${TMPDIR:-/tmp}/bench-c63cuda.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

if ! "$FFMPEG" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
        -frames:v 1 -f null - 2>/dev/null; then
    echo "bench-c63cuda: SKIPPED: no usable CUDA device"
    exit 0
fi

echo "input: $FRAMES frames of 1920x1080 yuv420p (testsrc2 with noise), rawvideo file"
"$FFMPEG" -nostdin -hide_banner -v error -f lavfi \
    -i "testsrc2=s=1920x1080:r=25,noise=alls=8:allf=t" -frames:v "$FRAMES" \
    -f rawvideo -pix_fmt yuv420p "$TMP/in.yuv" || exit 1

# run LABEL OUTPUT ENCODER-OPTIONS...: prints fps from ffmpeg's -benchmark
run() {
    label=$1 out=$2; shift 2
    if [ "$out" = null ]; then set -- "$@" -f null -; else set -- "$@" -f c63 -y "$TMP/$out"; fi
    "$FFMPEG" -nostdin -hide_banner -benchmark -f rawvideo -s 1920x1080 -pix_fmt yuv420p \
        -i "$TMP/in.yuv" "$@" > "$TMP/log" 2>&1 || { tail -n 5 "$TMP/log"; return 1; }
    rtime=$(sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' "$TMP/log" | tail -n 1)
    awk -v n="$FRAMES" -v t="$rtime" -v l="$label" \
        'BEGIN { printf "  %-36s %7.2f s  %8.1f fps\n", l, t, n / t }'
}

echo "end to end (rawvideo file in):"
run "c63 (CPU, all threads) -> .c63"      cpu.c63   -c:v c63
run "c63 (CPU, all threads) -> null"      null      -c:v c63
for d in 1 2 3 4; do
    run "c63_cuda depth $d -> .c63"       gpu$d.c63 -c:v c63_cuda -depth $d
    run "c63_cuda depth $d -> null"       null      -c:v c63_cuda -depth $d
done
run "c63_cuda depth 2, 1 thread -> null"  null      -c:v c63_cuda -threads 1
run "c63_cuda CUDA frames (hwupload) -> null" null \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload_cuda -c:v c63_cuda

same=yes
for d in 1 2 3 4; do cmp -s "$TMP/cpu.c63" "$TMP/gpu$d.c63" || same=no; done
echo "c63_cuda output identical to c63: $same ($(md5sum < "$TMP/cpu.c63" | cut -d' ' -f1))"

echo "GPU time per stage (CUDA events, c63_cuda depth 2):"
"$FFMPEG" -nostdin -hide_banner -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i "$TMP/in.yuv" \
    -c:v c63_cuda -stats_gpu 1 -f null - 2>&1 | sed -n '/GPU time over/,/ all /p' |
    sed 's/^\[[^]]*\] /  /'

if [ -x "$BUILD/checkcuda" ]; then
    echo "kernels (checkcuda --bench):"
    "$BUILD/checkcuda" --bench | sed -n '/^bench/,$p'
fi
[ $same = yes ]
