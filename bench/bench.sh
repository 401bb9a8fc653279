#!/bin/sh
# make bench: the project's one benchmark command.
# CPU: c63 decoder (768x576) and encoder (768x576 and 1920x1080, 1 and 2
# threads). GPU parts are added by the scripts next to this one when a CUDA
# device is present. Prints one line per measurement.
set -eu
BUILD=$1
FF="$BUILD/ffmpeg -nostdin -hide_banner -v error"
TMP=${TMPDIR:-/tmp}/c63-bench.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT

# frames/s of one ffmpeg run: wall time from -benchmark's rtime
fps() {
    n=$1; shift
    t=$($FF -v info -benchmark "$@" 2>&1 | sed -n 's/.*rtime=\([0-9.]*\)s.*/\1/p' | tail -n 1)
    awk -v n="$n" -v t="$t" 'BEGIN { printf "%.1f", n / t }'
}

echo "bench: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"

$FF -f lavfi -i testsrc2=s=768x576:r=25 -frames:v 100 -pix_fmt yuv420p -f rawvideo "$TMP/sd.yuv"
$FF -f lavfi -i testsrc2=s=1920x1080:r=25 -frames:v 30 -pix_fmt yuv420p -f rawvideo "$TMP/hd.yuv"
$FF -f rawvideo -s 768x576 -pix_fmt yuv420p -i "$TMP/sd.yuv" -c:v c63 "$TMP/sd.c63"

echo "bench: c63 decode 768x576, 1 thread:   $(fps 100 -threads 1 -i "$TMP/sd.c63" -f null -) frames/s"
for t in 1 2; do
    echo "bench: c63 encode 768x576, $t thread(s): $(fps 100 -f rawvideo -s 768x576 -pix_fmt yuv420p \
        -i "$TMP/sd.yuv" -threads $t -c:v c63 -f null -) frames/s"
done
for t in 1 2; do
    echo "bench: c63 encode 1920x1080, $t thread(s): $(fps 30 -f rawvideo -s 1920x1080 -pix_fmt yuv420p \
        -i "$TMP/hd.yuv" -threads $t -c:v c63 -f null -) frames/s"
done

for extra in "$(dirname "$0")"/bench-*.sh; do
    [ -f "$extra" ] && sh "$extra" "$BUILD"
done
exit 0
