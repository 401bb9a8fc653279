#!/bin/sh
# The c63 decoder on the GPU (-hwaccel cuda) against the CPU decoder, in
# one run, whole processes, steady state over N frames:
#
#   sh bench/bench-c63dec.sh FFMPEG CLIP [N [OUTDIR]]
#
# CLIP is camera footage (bench/camera-clip.sh). The streams, made first
# with c63_cuda (the CPU encoder's bytes): camera-like 1080p (CLIP scaled
# up, fresh noise on every frame) at the default quality, the same with
# the rate-distortion options at 8 Mbit/s, testsrc2 with noise (the large
# frames), and camera-like 2160p. For each: the CPU decoder with 1 and with
# all the host's threads, the GPU decoding into CUDA frames and into system
# memory, 8 GPU decoding processes at once (aggregate), and the transcode
# to c63_cuda from the GPU decoding and from the CPU decoding uploaded.
# Then start-up: one frame decoded on the GPU against creating the CUDA
# device alone (-init_hw_device, no decoding), the floor. Prints a
# markdown table; the streams stay in OUTDIR (default a temporary folder,
# removed).
FF=${1:?usage: bench-c63dec.sh FFMPEG CLIP [N [OUTDIR]]}
CLIP=${2:?usage: bench-c63dec.sh FFMPEG CLIP [N [OUTDIR]]}
N=${3:-1000}
if [ -n "${4:-}" ]; then
    DIR=$4 && mkdir -p "$DIR" || exit 1
else
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/c63dec.XXXXXX") || exit 1
    trap 'rm -rf "$DIR"' EXIT
fi
CORES=$(nproc)
Q="-nostdin -hide_banner -v error -y"

now() { date +%s%N; }
# fps FRAMES CMD...: frames a second of the whole process
fps() {
    n=$1; shift
    t0=$(now)
    "$@" > /dev/null 2> "$DIR/err" || { echo "FAILED: $*: $(tail -n 2 "$DIR/err")" >&2; echo "-"; return; }
    t1=$(now)
    echo "$n $t0 $t1" | awk '{ printf "%.0f", $1 / (($3 - $2) / 1e9) }'
}

CAM="-stream_loop -1 -i $CLIP -vf scale=1920:1080:flags=bicubic,noise=alls=3:allf=t"
CAM4K="-stream_loop -1 -i $CLIP -vf scale=3840:2160:flags=bicubic,noise=alls=3:allf=t"
NOISE="-f lavfi -i testsrc2=s=1920x1080:r=25,noise=alls=12:allf=t"
$FF $Q $CAM -frames:v "$N" -c:v c63_cuda "$DIR/cam.c63" &&
$FF $Q $CAM -frames:v "$N" -c:v c63_cuda -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 -b:v 8M \
    "$DIR/cam-rd.c63" &&
$FF $Q $NOISE -frames:v "$N" -c:v c63_cuda "$DIR/noise.c63" &&
$FF $Q $CAM4K -frames:v $((N / 4)) -c:v c63_cuda "$DIR/cam4k.c63" || exit 1

HW="-hwaccel cuda -hwaccel_output_format cuda"
echo "| stream | bytes a frame | CPU, 1 thread | CPU, $CORES threads | GPU, CUDA frames | GPU, system memory | GPU, 8 processes | transcode GPU decoding -> c63_cuda | transcode CPU decoding -> hwupload -> c63_cuda |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for s in cam cam-rd noise cam4k; do
    f=$DIR/$s.c63
    n=$N
    [ $s = cam4k ] && n=$((N / 4))
    bytes=$(($(wc -c < "$f") / n))
    c1=$(fps $n $FF $Q -threads 1 -i "$f" -f null -)
    cn=$(fps $n $FF $Q -threads "$CORES" -i "$f" -f null -)
    g=$(fps $n $FF $Q $HW -i "$f" -f null -)
    gs=$(fps $n $FF $Q -hwaccel cuda -i "$f" -f null -)
    g8=$(fps $((8 * n)) sh -c "for i in 1 2 3 4 5 6 7 8; do $FF $Q $HW -i $f -f null - & done; wait")
    tg=$(fps $n $FF $Q $HW -i "$f" -c:v c63_cuda -f null -)
    tc=$(fps $n $FF $Q -init_hw_device cuda=gpu -filter_hw_device gpu -i "$f" -vf hwupload \
        -c:v c63_cuda -f null -)
    echo "| $s | $bytes | $c1 | $cn | $g | $gs | $g8 | $tg | $tc |"
done

# start-up: whole-process milliseconds, the median of 5
ms() {
    for i in 1 2 3 4 5; do
        t0=$(now); "$@" > /dev/null 2>&1; t1=$(now)
        echo $(((t1 - t0) / 1000000))
    done | sort -n | sed -n 3p
}
$FF $Q $CAM -frames:v 1 -c:v c63 "$DIR/one.c63" || exit 1
echo
echo "| start-up (1 frame, 1080p, ms) | |"
echo "| --- | --- |"
echo "| CUDA device alone (-init_hw_device cuda, no decoding) | $(ms $FF $Q -init_hw_device cuda=gpu -f lavfi -i color=s=16x16:d=0.04 -f null -) |"
echo "| GPU decoding into CUDA frames | $(ms $FF $Q $HW -i "$DIR/one.c63" -f null -) |"
echo "| CPU decoding | $(ms $FF $Q -i "$DIR/one.c63" -f null -) |"
