#!/bin/sh
# make run: encode a built-in 1080p clip with c63_cuda where a CUDA device is
# present and c63 otherwise, twice: with the defaults (the reference
# encoder's bytes), then with the rate-distortion options at the bitrate
# the first took (-b:v); decode both back, and report.
set -eu
BUILD=$1
FF="$BUILD/ffmpeg -nostdin -hide_banner"
SRC="testsrc2=s=1920x1080:r=25,trim=duration=3"
RD="-tables flat -trellis 2 -mv_rd 1 -intra_rd 1"

if $FF -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - 2>/dev/null &&
   $FF -v error -h encoder=c63_cuda 2>/dev/null | grep -q c63_cuda; then
    ENC=c63_cuda
else
    ENC=c63
    echo "run: no CUDA device (or no c63_cuda encoder): encoding on the CPU with -c:v c63"
fi

# encode NAME OPTS...: code the clip into $BUILD/run-NAME.c63 and report it
encode() {
    name=$1; shift
    out=$BUILD/run-$name.c63
    echo "run: encoding 3 s of 1920x1080 $SRC with -c:v $ENC $*"
    start=$(date +%s.%N)
    $FF -v error -f lavfi -i "$SRC" -c:v $ENC "$@" -y "$out"
    end=$(date +%s.%N)
    frames=$($BUILD/ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$out")
    bytes=$(wc -c < "$out")
    psnr=$($FF -i "$out" -f lavfi -i "$SRC" -lavfi "[0:v][1:v]psnr" -f null - 2>&1 |
           sed -n 's/.*PSNR .* average:\([0-9.inf]*\).*/\1/p')
    awk -v f="$frames" -v b="$bytes" -v s="$start" -v e="$end" -v p="$psnr" -v enc="$ENC" 'BEGIN {
        printf "run:   frames         %d\n", f
        printf "run:   bytes          %d (%.0f kb/s)\n", b, b * 8 * 25 / f / 1000
        printf "run:   bits per pixel %.4f\n", b * 8 / (f * 1920 * 1080)
        printf "run:   PSNR (average) %s dB\n", p
        printf "run:   encode speed   %.1f frames/s (wall clock, including the lavfi source)\n", f / (e - s)
    }'
    echo "run:   output in $out"
}

encode default
rate=$(awk -v b="$bytes" -v f="$frames" 'BEGIN { printf "%d", b * 8 * 25 / f }')
default_psnr=$psnr
encode rd $RD -b:v "$rate"
echo "run: at the same bitrate, the rate-distortion options give $psnr dB against $default_psnr dB"
