#!/bin/sh
# make run: encode a built-in 1080p clip with c63_cuda where a CUDA device is
# present and c63 otherwise, decode it back, and report.
set -eu
BUILD=$1
FF="$BUILD/ffmpeg -nostdin -hide_banner"
SRC="testsrc2=s=1920x1080:r=25,trim=duration=3"
OUT=$BUILD/run.c63

if $FF -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - 2>/dev/null &&
   $FF -v error -h encoder=c63_cuda 2>/dev/null | grep -q c63_cuda; then
    ENC=c63_cuda
else
    ENC=c63
    echo "run: no CUDA device (or no c63_cuda encoder): encoding on the CPU with -c:v c63"
fi

echo "run: encoding 3 s of 1920x1080 $SRC with -c:v $ENC"
start=$(date +%s.%N)
$FF -v error -f lavfi -i "$SRC" -c:v $ENC -y "$OUT"
end=$(date +%s.%N)

frames=$($BUILD/ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$OUT")
bytes=$(wc -c < "$OUT")
psnr=$($FF -i "$OUT" -f lavfi -i "$SRC" -lavfi "[0:v][1:v]psnr" -f null - 2>&1 |
       sed -n 's/.*PSNR .* average:\([0-9.inf]*\).*/\1/p')
awk -v f="$frames" -v b="$bytes" -v s="$start" -v e="$end" -v p="$psnr" -v enc="$ENC" 'BEGIN {
    printf "run: encoder        %s\n", enc
    printf "run: frames         %d\n", f
    printf "run: bytes          %d\n", b
    printf "run: bits per pixel %.4f\n", b * 8 / (f * 1920 * 1080)
    printf "run: PSNR (average) %s dB\n", p
    printf "run: encode speed   %.1f frames/s (wall clock, including the lavfi source)\n", f / (e - s)
}'
echo "run: output in $OUT"
