#!/bin/sh
# mestimate_cuda benchmark: per-frame time of mestimate_cuda against its CPU
# twin mestimate in the same run, at 1920x1080, esa, mb_size 16 and
# search_param 7 (mestimate's defaults) and 32. The kernel rate of byte
# absolute differences against the measured __vsadu4 peak is printed by
# checkcuda --bench ("bench mestimate_cuda", the same peak the c63
# benchmark uses), which bench/bench-c63cuda.sh runs.
#
#   sh bench/bench-mestimate.sh [BUILD_DIR] [GPU_FRAMES] [CPU_FRAMES]
#
# BUILD_DIR (default build) holds ffmpeg and checkcuda, and tests/mvdump
# (obj/tests/mvdump in a build tree, tests/mvdump in a GPU bundle). Frames
# are testsrc2 with moving noise (no block matches exactly, so mestimate's
# early exit on a zero cost does not shorten its search). Each estimator's
# time is that of the graph with it minus that of the same graph without
# it (source, format, upload for the GPU), divided by the input frames;
# the vectors of both are compared too (mvdump output, byte for byte).

BUILD=${1:-build}
GPU_FRAMES=${2:-60}
CPU_FRAMES=${3:-4}
MVDUMP=$BUILD/tests/mvdump
[ -x "$MVDUMP" ] || MVDUMP=$BUILD/obj/tests/mvdump
TMP=${TMPDIR:-/tmp}/bench-mestimate.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

if [ ! -x "$MVDUMP" ]; then
    echo "bench-mestimate: SKIPPED: no tests/mvdump (make -C build/obj tests/mvdump)"
    exit 0
fi
if ! "$BUILD/ffmpeg" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
        -frames:v 1 -f null - 2>/dev/null; then
    echo "bench-mestimate: SKIPPED: no usable CUDA device"
    exit 0
fi

# ms N GRAPH [--cuda]: total wall ms of the graph, from mvdump --time
ms() {
    n=$1 g=$2; shift 2
    "$MVDUMP" --time "$@" "$g" > "$TMP/out" 2> "$TMP/err" || { cat "$TMP/err" >&2; return 1; }
    sed -n 's/.* frames, \([0-9.]*\) ms in all.*/\1/p' "$TMP/err"
}

src() { echo "testsrc2=s=1920x1080:r=25,noise=alls=8:allf=t,trim=end_frame=$1,format=yuv420p"; }

echo "bench-mestimate: 1920x1080 yuv420p, esa, mb_size 16; mestimate $CPU_FRAMES frames, mestimate_cuda $GPU_FRAMES frames"
for p in 7 32; do
    opts=method=esa:mb_size=16:search_param=$p
    cb=$(ms $CPU_FRAMES "$(src $CPU_FRAMES),null") || exit 1
    cm=$(ms $CPU_FRAMES "$(src $CPU_FRAMES),mestimate=$opts") || exit 1
    cp "$TMP/out" "$TMP/cpu"
    gb=$(ms $GPU_FRAMES "$(src $GPU_FRAMES),hwupload" --cuda) || exit 1
    gm=$(ms $GPU_FRAMES "$(src $GPU_FRAMES),hwupload,mestimate_cuda=$opts" --cuda) || exit 1
    # the same frames' vectors: the first CPU_FRAMES - 1 outputs
    n=$((CPU_FRAMES - 1))
    if head -n "$n" "$TMP/out" | cmp -s - "$TMP/cpu"; then same=identical; else same=DIFFERENT; fi
    awk -v p=$p -v cb=$cb -v cm=$cm -v gb=$gb -v gm=$gm -v nc=$CPU_FRAMES -v ng=$GPU_FRAMES -v same=$same 'BEGIN {
        c = (cm - cb) / nc; g = (gm - gb) / ng;
        printf "bench: mestimate esa mb16 p%d: %.2f ms/frame (CPU, 1 thread); mestimate_cuda: %.3f ms/frame; %.0fx; vectors %s\n",
               p, c, g, (g > 0 ? c / g : 0), same
        printf "bench:   (graph totals: cpu %.1f ms base %.1f ms for %d frames; gpu %.1f ms base %.1f ms for %d frames)\n",
               cm, cb, nc, gm, gb, ng
    }'
done

# Real camera footage (bench/camera-clip.sh: vtest.avi, 768x576, and the
# same upscaled to 1920x1080 with fresh noise), esa, mb_size 16,
# search_param 7: per-frame time of each filter alone from tests/filterrun
# (frames already in place: system memory or CUDA frames; the GPU time
# waited for), in the same run.
FILTERRUN=$BUILD/tests/filterrun
[ -x "$FILTERRUN" ] || FILTERRUN=$BUILD/obj/tests/filterrun
CLIP=${CAMERA_CLIP:-$BUILD/clips/vtest.avi}
if [ -x "$FILTERRUN" ] && [ -r "$CLIP" ]; then
    for cam in "768x576:format=yuv420p" "1920x1080:scale=1920:1080:flags=bicubic,noise=alls=3:allf=t,format=yuv420p"; do
        size=${cam%%:*} chain=${cam#*:}
        opts=method=esa:mb_size=16:search_param=7
        c=$("$FILTERRUN" --input "$CLIP" -k 8 -w 1 -n 6 "$chain" "mestimate=$opts") || exit 1
        g=$("$FILTERRUN" --cuda --input "$CLIP" -k 25 -w 5 -n 200 "$chain" "mestimate_cuda=$opts") || exit 1
        cm=$(echo "$c" | sed -n 's/.*median \([0-9.]*\) us.*/\1/p')
        gm=$(echo "$g" | sed -n 's/.*median \([0-9.]*\) us.*/\1/p')
        awk -v s=$size -v c=$cm -v g=$gm 'BEGIN {
            printf "bench: mestimate esa mb16 p7, camera %s: %.2f ms/frame (CPU, 1 thread, median of 6); mestimate_cuda: %.3f ms/frame (median of 200); %.0fx\n",
                   s, c / 1000, g / 1000, (g > 0 ? c / g : 0) }'
    done
else
    echo "bench-mestimate: camera footage skipped (no tests/filterrun or no $CLIP; see bench/camera-clip.sh)"
fi

# The kernel rates (mestimate_esa and mestimate_block at 1080p, p 7 and 32,
# against the __vsadu4 peak) are the "bench mestimate_cuda" lines of
# checkcuda --bench, which bench/bench-c63cuda.sh runs.
exit 0
