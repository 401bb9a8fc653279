#!/bin/sh
# Start-up of the CUDA pipelines: whole-process milliseconds for one 1080p
# frame (the median of 5), against the floor of creating a CUDA device
# alone in the same run, and the CUDA contexts each pipeline creates (the
# "Loaded lib: libcuda" lines of FFmpeg's debug log, one a device created):
#
#   sh bench/bench-startup.sh [BUILD_DIR]
#
# Each pipeline runs with the driver's PTX cache warm (a run before the
# five counts) and with the cache off (CUDA_CACHE_DISABLE=1: every module
# compiled from PTX, as on a first run). The CPU drawtext beside
# drawtext_cuda loads the same font: what differs is the GPU's part.

BUILD=${1:-build}
FFMPEG=$BUILD/ffmpeg
FONT=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
TMP=${TMPDIR:-/tmp}/bench-startup.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

if ! "$FFMPEG" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
        -frames:v 1 -f null - 2>/dev/null; then
    echo "bench-startup: SKIPPED: no usable CUDA device"
    exit 0
fi

FF="$FFMPEG -nostdin -hide_banner -y"
SRC="-f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v 1"
DEV="-init_hw_device cuda=gpu -filter_hw_device gpu"
TEXT="fontfile=$FONT:text='%{pts\\:hms}':fontsize=40:x=20:y=20"
$FF -v error $SRC -c:v c63 "$TMP/one.c63" || exit 1

now() { date +%s%N; }
# ms ARGS...: the median of 5 runs of ffmpeg ARGS, in milliseconds
ms() {
    for i in 1 2 3 4 5; do
        t0=$(now); $FF -v error "$@" > /dev/null 2>&1; t1=$(now)
        echo $(((t1 - t0) / 1000000))
    done | sort -n | sed -n 3p
}
# contexts ARGS...: the CUDA devices the run creates
contexts() { $FF -v debug "$@" 2>&1 | grep -c 'Loaded lib: libcuda'; }
# row LABEL ARGS...
row() {
    label=$1; shift
    $FF -v error "$@" > /dev/null 2>&1 || { echo "| $label | FAILED | | |"; return; }
    warm=$(ms "$@")
    cold=$(CUDA_CACHE_DISABLE=1 ms "$@")
    echo "| $label | $(contexts "$@") | $warm | $cold |"
}

echo "start-up, one 1920x1080 frame, whole process, median of 5 runs (ms)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
echo "| pipeline | CUDA devices created | warm PTX cache | PTX cache off |"
echo "| --- | --- | --- | --- |"
row "nothing on the GPU (-f null)" $SRC -f null -
row "a CUDA device alone (-init_hw_device)" $DEV $SRC -f null -
row "hwupload" $DEV $SRC -vf hwupload -f null -
row "hwupload_cuda" $DEV $SRC -vf hwupload_cuda -f null -
row "c63_cuda from system memory" $SRC -c:v c63_cuda -f null -
row "hwupload -> c63_cuda" $DEV $SRC -vf hwupload -c:v c63_cuda -f null -
row "hwupload -> c63_cuda, rate-distortion options" $DEV $SRC -vf hwupload -c:v c63_cuda \
    -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 -f null -
row "hwupload_cuda -> c63_cuda" $DEV $SRC -vf hwupload_cuda -c:v c63_cuda -f null -
row "c63 on the CPU" $SRC -c:v c63 -f null -
row "GPU decoding (-hwaccel cuda) of one c63 frame" -hwaccel cuda -hwaccel_output_format cuda -i "$TMP/one.c63" -f null -
row "CPU decoding of one c63 frame" -i "$TMP/one.c63" -f null -
row "hwupload -> drawtext_cuda" $DEV $SRC -vf "format=nv12,hwupload,drawtext_cuda=$TEXT" -f null -
row "hwupload -> hwdownload -> drawtext (CPU)" $DEV $SRC -vf "format=nv12,hwupload,hwdownload,format=nv12,drawtext=$TEXT" -f null -
row "drawtext (CPU) alone" $SRC -vf "format=nv12,drawtext=$TEXT" -f null -
row "hwupload -> cudadiff" $DEV $SRC -vf "format=yuv420p,hwupload,cudadiff" -f null -
row "hwupload -> mestimate_cuda" $DEV $SRC -vf "format=yuv420p,hwupload,mestimate_cuda" -f null -
