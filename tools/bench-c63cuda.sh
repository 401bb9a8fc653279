#!/bin/sh
# c63_cuda benchmark: end-to-end 1080p encode speed of the CUDA encoder
# against the CPU encoder in the same run, per-stage GPU times, and the
# kernel benchmark of checkcuda.
#
#   sh tools/bench-c63cuda.sh [BUILD_DIR] [SHORT] [LONG]
#
# BUILD_DIR defaults to build (ffmpeg and checkcuda are taken from there).
# The input is a 1080p rawvideo file of 200 frames (testsrc2 with moving
# noise, so that motion search and coefficients do real work) in the page
# cache, read in a loop (-stream_loop) for as many frames as a run needs.
# Each case runs twice, for SHORT (default 300) and LONG (default 1300)
# frames:
#   whole process  LONG frames / wall time of the LONG run, start-up and
#                  flush included, as a user sees it;
#   steady state   (LONG - SHORT) frames / difference of the two wall
#                  times: the rate once running, over LONG - SHORT frames.
# .c63 output goes to a tmpfs (/dev/shm where there is one).

BUILD=${1:-build}
SHORT=${2:-300}
LONG=${3:-1300}
FFMPEG=$BUILD/ffmpeg
TMP=${TMPDIR:-/tmp}/bench-c63cuda.$$
OUTDIR=/dev/shm/bench-c63cuda.$$
mkdir -p "$TMP" || exit 1
mkdir -p "$OUTDIR" 2>/dev/null || OUTDIR=$TMP
trap 'rm -rf "$TMP" "$OUTDIR"' EXIT

if ! "$FFMPEG" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
        -frames:v 1 -f null - 2>/dev/null; then
    echo "bench-c63cuda: SKIPPED: no usable CUDA device"
    exit 0
fi

"$FFMPEG" -nostdin -hide_banner -v error -f lavfi \
    -i "testsrc2=s=1920x1080:r=25,noise=alls=8:allf=t" -frames:v 200 \
    -f rawvideo -pix_fmt yuv420p "$TMP/in.yuv" || exit 1
cat "$TMP/in.yuv" > /dev/null
echo "input: 1920x1080 yuv420p rawvideo, 200 frames (testsrc2 + noise) looped; runs of $SHORT and $LONG frames"
echo "output: .c63 to $OUTDIR, or -f null"

now() { date +%s.%N; }

# one N LOG ARGS...: wall time of one ffmpeg run of N frames
one() {
    n=$1 log=$2; shift 2
    t0=$(now)
    "$FFMPEG" -nostdin -hide_banner -stream_loop -1 -f rawvideo -s 1920x1080 -pix_fmt yuv420p \
        -i "$TMP/in.yuv" -frames:v "$n" "$@" > "$log" 2>&1 || { tail -n 5 "$log" >&2; return 1; }
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
}

# run LABEL OUTPUT ENCODER-OPTIONS...
run() {
    label=$1 out=$2; shift 2
    if [ "$out" = null ]; then set -- "$@" -f null -; else set -- "$@" -f c63 -y "$OUTDIR/$out"; fi
    ts=$(one "$SHORT" "$TMP/log" "$@") || return 1
    tl=$(one "$LONG" "$TMP/log" "$@") || return 1
    awk -v s="$SHORT" -v l="$LONG" -v ts="$ts" -v tl="$tl" -v lab="$label" 'BEGIN {
        printf "  %-44s %8.1f fps steady  %8.1f fps whole (%d frames in %.2f s)\n",
               lab, (l - s) / (tl - ts), l / tl, l, tl }'
}

echo "end to end, 1920x1080:"
run "c63 (CPU, $(nproc) threads) -> .c63"             cpu.c63   -c:v c63
run "c63 (CPU, $(nproc) threads) -> null"             null      -c:v c63
for d in 1 2 4; do
    run "c63_cuda depth $d, rawvideo -> .c63"         gpu$d.c63 -c:v c63_cuda -depth $d
    run "c63_cuda depth $d, rawvideo -> null"         null      -c:v c63_cuda -depth $d
done
run "c63_cuda depth 2, -entropy cpu -> null"          null      -c:v c63_cuda -entropy cpu
run "c63_cuda, CUDA frames (hwupload_cuda) -> .c63"   gpuhw.c63 \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload_cuda -c:v c63_cuda
run "c63_cuda, CUDA frames (hwupload_cuda) -> null"   null \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload_cuda -c:v c63_cuda

same=yes
for f in gpu1 gpu2 gpu4 gpuhw; do cmp -s "$OUTDIR/cpu.c63" "$OUTDIR/$f.c63" || same=no; done
echo "c63_cuda output identical to c63 ($LONG frames, every case): $same ($(md5sum < "$OUTDIR/cpu.c63" | cut -d' ' -f1))"

echo "GPU time per stage (CUDA events, c63_cuda depth 2, $LONG frames):"
"$FFMPEG" -nostdin -hide_banner -stream_loop -1 -f rawvideo -s 1920x1080 -pix_fmt yuv420p \
    -i "$TMP/in.yuv" -frames:v "$LONG" -c:v c63_cuda -stats_gpu 1 -f null - 2>&1 |
    sed -n '/GPU time over/,/ all /p' | sed 's/^\[[^]]*\] /  /'

if [ -x "$BUILD/checkcuda" ]; then
    echo "kernels (checkcuda --bench):"
    "$BUILD/checkcuda" --bench | sed -n '/^bench/,$p'
fi
[ $same = yes ]
