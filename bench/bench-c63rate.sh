#!/bin/sh
# c63 rate control: how close -b:v comes to its target, on real camera
# footage at three sizes, and what it costs in speed against the fixed
# -quality of the reference.
#
#   sh bench/bench-c63rate.sh [BUILD_DIR] [FRAMES]
#
# BUILD_DIR defaults to build. The clips are bench/camera-clip.sh's
# vtest.avi (768x576, 10 frames/s; CLIPS/vtest.avi, by default in
# BUILD/clips, which this script does not fetch: it is skipped when the
# clip is absent) and its camera-like 1280x720 and
# 1920x1080 versions (bicubic upscale, fresh noise on every frame), each
# made once into a rawvideo file of FRAMES frames (default 300). For each
# clip and -quality 10, 25 and 40 (the reference's fixed tables, the peer),
# -b:v at the bitrate that quality gave, with c63, and with c63_cuda where
# a CUDA device is usable, whose stream must be c63's byte for byte. Prints
# per case the bitrate reached (packet sizes over the clip's frame rate),
# the distance to the target, the mean luma PSNR and the wall time of
# c63 (2 threads on the project machine, whatever ffmpeg gives elsewhere).
# Then the buffer model at the bitrate of -quality 25: capped at 1.5 x
# with a buffer of half a second, and constant with one second, each
# stream checked by tests/fate/vbv-check.awk (a leaky bucket written apart
# from the encoder: the lowest fullness of the buffer, the under- and
# overflows), also on a 1280x720 splice of vtest and box.mp4 (150 frames
# each, a scene cut between them; CLIPS/box.mp4, skipped when absent).

BUILD=${1:-build}
FRAMES=${2:-300}
FFMPEG=$BUILD/ffmpeg
FFPROBE=$BUILD/ffprobe
TMP=${TMPDIR:-/tmp}/bench-c63rate.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

clips=${CLIPS:-$BUILD/clips}
clip=$clips/vtest.avi
if [ ! -f "$clip" ]; then
    echo "bench-c63rate: no camera clip $clip (sh bench/camera-clip.sh $clips fetches it); skipped"
    exit 0
fi
vbvcheck=$(dirname "$0")/../tests/fate/vbv-check.awk
[ -f "$vbvcheck" ] || vbvcheck=$(dirname "$0")/../src/tests/c63/fate/vbv-check.awk
gpu=0
"$FFMPEG" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
    -frames:v 1 -f null - 2>/dev/null && gpu=1

# run NAME SIZE ENC OPTS...: one encode of $TMP/NAME.yuv; prints
# "bitrate_kbps psnr_y seconds" and leaves the stream in $TMP/out-ENC.c63
run() {
    name=$1 size=$2 enc=$3; shift 3
    t0=$(date +%s.%N)
    "$FFMPEG" -nostdin -hide_banner -v error -f rawvideo -s "$size" -pix_fmt yuv420p -framerate 10 \
        -i "$TMP/$name.yuv" -c:v "$enc" "$@" -f c63 -y "$TMP/out-$enc.c63" || return 1
    t1=$(date +%s.%N)
    kbps=$("$FFPROBE" -v error -show_entries packet=size -of csv=p=0 "$TMP/out-$enc.c63" |
           awk '{ b += $1; n++ } END { printf "%.1f", 8 * b * 10 / n / 1000 }')
    psnr=$("$FFMPEG" -nostdin -hide_banner -framerate 10 -i "$TMP/out-$enc.c63" -f rawvideo -s "$size" \
           -pix_fmt yuv420p -framerate 10 -i "$TMP/$name.yuv" -lavfi "[0:v][1:v]psnr" -f null - 2>&1 |
           sed -n 's/.*PSNR y:\([0-9.inf]*\).*/\1/p')
    echo "$kbps $psnr $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
}

echo "clip: $clip, $FRAMES frames a size; c63_cuda: $([ $gpu = 1 ] && echo yes || echo 'no device')"
printf '%-10s %-22s %10s %9s %8s %7s %s\n' size case kb/s off PSNR-Y s c63_cuda
sizes="768x576 1280x720 1920x1080"
[ -f "$clips/box.mp4" ] && sizes="$sizes splice"
for sz in $sizes; do
    name=c$sz
    if [ $sz = splice ]; then
        sz=1280x720
        for c in "$clip" "$clips/box.mp4"; do
            "$FFMPEG" -nostdin -hide_banner -v error -i "$c" -an -frames:v 150 \
                -vf scale=1280:720:flags=bicubic -pix_fmt yuv420p -f rawvideo - || exit 1
        done > "$TMP/$name.yuv"
        qs=25
    else
        vf=
        [ $sz != 768x576 ] && vf="-vf scale=$(echo $sz | tr x :):flags=bicubic,noise=alls=3:allf=t"
        "$FFMPEG" -nostdin -hide_banner -v error -stream_loop -1 -i "$clip" $vf -frames:v "$FRAMES" \
            -pix_fmt yuv420p -f rawvideo -y "$TMP/$name.yuv" || exit 1
        qs="10 25 40"
    fi
    for q in $qs; do
        set -- $(run $name $sz c63 -quality $q)
        printf '%-10s %-22s %10s %9s %8.3f %7.2f\n' $sz "-quality $q" "$1" - "$2" "$3"
        target=$(awk -v k="$1" 'BEGIN { printf "%d", k * 1000 }')
        set -- $(run $name $sz c63 -b:v $target)
        off=$(echo "$1 $target" | awk '{ printf "%+.2f%%", 100 * ($1 * 1000 / $2 - 1) }')
        same=-
        if [ $gpu = 1 ]; then
            run $name $sz c63_cuda -b:v $target > /dev/null &&
                { cmp -s "$TMP/out-c63.c63" "$TMP/out-c63_cuda.c63" && same=identical || same=DIFFERS; }
        fi
        printf '%-10s %-22s %10s %9s %8.3f %7.2f %s\n' $sz "-b:v $target" "$1" "$off" "$2" "$3" "$same"
        [ $q = 25 ] && t25=$target
    done
    for mode in capped constant; do
        if [ $mode = capped ]; then
            max=$((t25 * 3 / 2)) buf=$((t25 / 2)) constant=0
        else
            max=$t25 buf=$t25 constant=1
        fi
        set -- $(run $name $sz c63 -b:v $t25 -maxrate $max -bufsize $buf)
        off=$(echo "$1 $t25" | awk '{ printf "%+.2f%%", 100 * ($1 * 1000 / $2 - 1) }')
        bucket=$("$FFPROBE" -v error -show_entries packet=size -of csv=p=0 "$TMP/out-c63.c63" |
                 awk -f "$vbvcheck" -v fps=10/1 -v rate=$max -v size=$buf -v constant=$constant |
                 sed -n 's/^buffer: \([0-9.]*%\).*/lowest \1,/p; s/^underflows: /under: /p' | tr '\n' ' ')
        same=-
        if [ $gpu = 1 ]; then
            run $name $sz c63_cuda -b:v $t25 -maxrate $max -bufsize $buf > /dev/null &&
                { cmp -s "$TMP/out-c63.c63" "$TMP/out-c63_cuda.c63" && same=identical || same=DIFFERS; }
        fi
        printf '%-10s %-22s %10s %9s %8.3f %7.2f %s  %s\n' "$name" "$mode buffer" "$1" "$off" "$2" \
            "$3" "$same" "$bucket"
    done
    rm -f "$TMP/$name.yuv"
done
