#!/bin/sh
# The framediff codec on camera-like content (CPU): bytes per frame on the
# wire, against the raw frame and the version 1 list (48 + 6 bytes per sent
# byte), and encoder and decoder time per frame, at thresholds 10, 20 and
# 40, for 720p and 1080p; the same clip coded by c63 for comparison. Where
# a CUDA device is usable, also the GPU sender (hwupload, cudadiff,
# the encoder reading only the lists), checked to give the same stream.
#
#   sh bench/bench-framediff.sh [BUILD] [FRAMES] [NOISE]
#
# The content is OpenCV's vtest.avi (real camera footage, 768x576, fetched
# by bench/camera-clip.sh into BUILD/clips), upscaled with
# scale=W:H:flags=bicubic,noise=alls=NOISE:allf=t (default 3), FRAMES
# frames (default 60) as yuv420p. The encoder differences on the CPU itself (-threshold T,
# -g 0: no refresh; the first frame, a whole picture, is left out of the
# means and shown apart), zlib level 1 (the default). Times are wall
# times from -benchmark (rtime) over the run, divided by the frames:
# the encoder's include reading the raw frames, the decoder's the NUT
# demuxing. The GPU sender's is given over the whole run (CUDA set-up
# included) and beyond the same run with only hwupload, which is the
# cost of cudadiff and the encoder per frame. Prints one line per
# measurement.
set -eu
BUILD=${1:-build}
N=${2:-60}
NOISE=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
FF="$BUILD/ffmpeg -nostdin -hide_banner -v error -y"
FP="$BUILD/ffprobe -v error"
TMP=${TMPDIR:-/tmp}/framediff-bench.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT

clip=$(sh "$here/camera-clip.sh" "$BUILD/clips") || { echo "bench-framediff: no clip, skipped"; exit 0; }
# the GPU sender too, where a CUDA device is usable
gpu=
$FF -init_hw_device cuda=cu -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - 2>/dev/null && gpu=1
HW="-init_hw_device cuda=cu -filter_hw_device cu"

rtime() {   # seconds of wall time of one ffmpeg run
    $FF -v info -benchmark "$@" 2>&1 | sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' | tail -n 1
}

echo "bench-framediff: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $N frames of $(basename "$clip"), noise $NOISE"
for size in 1280x720 1920x1080; do
    w=${size%x*} h=${size#*x}
    raw=$TMP/$size.yuv
    $FF -i "$clip" -vf "scale=$w:$h:flags=bicubic,noise=alls=$NOISE:allf=t,format=yuv420p" \
        -frames:v "$N" -f rawvideo "$raw"
    in="-f rawvideo -s $size -pix_fmt yuv420p -framerate 10 -i $raw"
    fsize=$((w * h * 3 / 2))
    bitmap=$(( (w * h + 7) / 8 + 2 * ((w / 2 * (h / 2) + 7) / 8) ))
    for thr in 10 20 40; do
        # the lists' sizes: the filter's counts of sent bytes, and the
        # encoder's packets of the same lists
        $FF $in -vf "framediff=threshold=$thr,metadata=print:key=lavfi.cudadiff.sent:file=$TMP/meta" \
            -c:v framediff -f nut "$TMP/s.nut"
        sed -n 's/^lavfi.cudadiff.sent=//p' "$TMP/meta" > "$TMP/sent"
        $FP -show_entries packet=size -of csv=p=0 "$TMP/s.nut" > "$TMP/pk"
        enc=$(rtime $in -c:v framediff -threshold "$thr" -g 0 -f null -)
        $FF $in -c:v framediff -threshold "$thr" -g 0 -f nut "$TMP/e.nut"
        cmp -s "$TMP/s.nut" "$TMP/e.nut" || echo "bench-framediff: WARNING: the filter's lists and the encoder's differ"
        dec=$(rtime -i "$TMP/s.nut" -f null -)
        if [ -n "$gpu" ]; then
            # hwupload, cudadiff and the encoder reading only the lists:
            # the same packets as the CPU's, and the time per frame
            $FF $HW $in -vf "hwupload,cudadiff=threshold=$thr" -c:v framediff -f nut "$TMP/g.nut"
            cmp -s "$TMP/s.nut" "$TMP/g.nut" || echo "bench-framediff: WARNING: cudadiff's stream differs from framediff's"
            gt=$(rtime $HW $in -vf "hwupload,cudadiff=threshold=$thr" -c:v framediff -f null -)
            # the same run without cudadiff and the encoder: device set-up,
            # reading and uploading the frames
            gb=$(rtime $HW $in -vf hwupload -f null -)
            awk -v t="$gt" -v b="$gb" -v n="$N" -v size="$size" -v thr="$thr" 'BEGIN {
                printf "bench: framediff %s thr %2d: GPU sender (hwupload, cudadiff, encoder) %.2f ms/frame over the whole run; %.2f ms/frame beyond a run that only uploads the frames (%.2f ms/frame)\n",
                       size, thr, 1000 * t / n, 1000 * (t - b) / n, 1000 * b / n }'
        fi
        paste -d' ' "$TMP/sent" "$TMP/pk" | awk -v n="$N" -v fs="$fsize" -v b="$bitmap" \
            -v size="$size" -v thr="$thr" -v enc="$enc" -v dec="$dec" '
            NR == 1 { first = $2; next }
            { sent += $1; wire += $2; v2 += 48 + b + $1; v1 += 48 + 6 * $1 }
            END { m = n - 1
                  printf "bench: framediff %s thr %2d: sent %5.1f%% of bytes, wire %8.0f B/frame = %.4f of raw, %.4f of the v1 list (v2 list before zlib %.4f of raw); first frame %d B; CPU encode %.2f ms/frame, decode %.2f ms/frame\n",
                         size, thr, 100 * sent / m / fs, wire / m, wire / m / fs, wire / v1,
                         v2 / m / fs, first, 1000 * enc / n, 1000 * dec / n }'
    done
    c63t=$(rtime $in -threads 1 -c:v c63 -f null -)
    $FF $in -threads 1 -c:v c63 -f c63 "$TMP/s.c63"
    bytes=$(stat -c %s "$TMP/s.c63")
    awk -v n="$N" -v fs="$fsize" -v b="$bytes" -v t="$c63t" -v size="$size" 'BEGIN {
        printf "bench: c63 %s (default quality and keyframe interval): %8.0f B/frame = %.4f of raw; CPU encode %.1f ms/frame, 1 thread\n",
               size, b / n, b / n / fs, 1000 * t / n }'
    rm -f "$raw"
done
