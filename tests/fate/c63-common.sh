# Shared set-up of the Codec63 FATE test drivers (sourced, not run).
# They are started by fate-run.sh's runlocal from the build directory as
# DRIVER MODE ARGS... SRC_TESTS; this takes MODE into $mode, takes the
# appended SRC_TESTS off the arguments, and defines the helpers. The
# programs run through run_ok, run_refused and run_no_crash (checked.sh,
# beside this file; their stderr goes to $CHECKED_ERR), their output into
# files, which are hashed or read only once the run has ended as required.

FFMPEG=${FFMPEG:-./ffmpeg}
FFPROBE=${FFPROBE:-./ffprobe}
mode=$1; shift
# MODE-cpu0: the same test with every SIMD routine off (-cpuflags 0), which
# must give the same output as the SIMD routines.
CPUFLAGS=
case $mode in *-cpu0) mode=${mode%-cpu0}; CPUFLAGS="-cpuflags 0" ;; esac
eval "base=\${$#}"
n=$# i=0
for a; do i=$((i + 1)); [ $i -lt $n ] && set -- "$@" "$a"; done
shift $n
SAMPLES=$base/c63/fate/samples
TMP=${TMPDIR:-/tmp}/c63-fate.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
# (bench/check-refdec.sh sources this file from elsewhere for Q3_CLIP alone)
[ -r "$(dirname "$0")/checked.sh" ] && . "$(dirname "$0")/checked.sh"
CHECKED_ERR=$TMP/stderr

# A clip whose luma AC levels at the finest tables reach the size-10 code
# of quirk Q3 (12 of them at -quality 50 with -me_range 1): a black and
# white edge that jumps back and forth, out of reach of a search of 1.
Q3_CLIP="testsrc2=s=64x32:r=25,drawbox=0:0:64:32:black:fill"
Q3_CLIP="$Q3_CLIP,drawbox=0:0:28:32:white:fill:enable='mod(n,2)'"
Q3_CLIP="$Q3_CLIP,drawbox=28:0:36:32:white:fill:enable='not(mod(n,2))',trim=end_frame=4"

ff()  { "$FFMPEG" -nostdin -hide_banner -v error $CPUFLAGS -bitexact "$@"; }
md5() { md5sum | cut -d' ' -f1; }
# ff_md5 ARGS...: ffmpeg ARGS writing to stdout, which must succeed: the
# md5 of what it wrote
ff_md5() { run_ok ff "$@" > "$TMP/ff_md5.out" && md5 < "$TMP/ff_md5.out"; }
# refdec FILE [q3]: FILE, a stream one of our encoders wrote, decodes with
# tests/c63refdec (a model of the course's reference decoder written from
# docs/c63-format.md alone, quirks included, section 9.5) to exactly the
# pictures of our decoder: the reference decoder reads it as we do. With
# q3, the stream holds the luma AC code of quirk Q3 (levels of 512 and more
# at -quality above 25, which the reference encoder cannot write either),
# and the model must say that the reference decoder stops there. Prints
# nothing where that holds; fails, saying why, where not. Then
# tests/hdserial: the CPU twin of the GPU decoder's parallel entropy
# decoding gives the serial decoder's pictures.
C63REFDEC=${C63REFDEC:-./tests/c63refdec}
C63HDSERIAL=${C63HDSERIAL:-./tests/hdserial}
refdec() {
    if ! run_ok "$C63HDSERIAL" "$1" > "$TMP/hdserial.log"; then
        cat "$TMP/hdserial.log"
        echo "hdserial: $(basename "$1"): the parallel decoding's twin and the serial decoder differ"
        return 1
    fi
    if [ "${2:-}" = q3 ]; then
        run_refused "$C63REFDEC" "$1" || return 1
        grep -q 'quirk Q3' "$CHECKED_ERR" && return 0
        echo "refdec: $(basename "$1"): no stop at the Q3 code: $(cat "$CHECKED_ERR")"
        return 1
    fi
    if ! run_ok "$C63REFDEC" "$1" "$TMP/refdec.yuv"; then
        echo "refdec: $(basename "$1"): the reference decoder would not decode it as intended"
        return 1
    fi
    run_ok ff -y -i "$1" -f rawvideo -pix_fmt yuv420p "$TMP/refdec-ours.yuv" || return 1
    cmp -s "$TMP/refdec.yuv" "$TMP/refdec-ours.yuv" && return 0
    echo "refdec: $(basename "$1"): the model of the reference decoder and ours give other pictures"
    return 1
}

# first_error LOG: the first error message of the c63 decoder in LOG
first_error() { grep -m1 -o '\[c63[^]]*\] .*' "$1" | sed 's/^\[[^]]*\] //'; }

# bad_stream CASE OUT: a hostile stream into OUT; returns 2 for an
# unknown CASE. truncated, no-eoi: tiny.c63 cut short; garbled-sof,
# zero-size, missing-dqt, repeated-sof, huge-size (8192x8192 claimed by a
# frame of a few hundred bytes): header damage; size-change: tiny then
# odd_height; no-reference: tiny.c63 without its first (key) frame;
# mv-outside, bad-ac-run: the samples bad_mv.c63 and bad_run.c63;
# garbage-N: qcif_keyint.c63 with seven bytes overwritten at offset N.
bad_stream() {
    case $1 in
    truncated)    head -c 3000 "$SAMPLES/tiny.c63" > "$2" ;;
    no-eoi)       head -c 700 "$SAMPLES/tiny.c63" > "$2" ;;
    garbled-sof)  { head -c 210 "$SAMPLES/tiny.c63"; printf '\007';
                    tail -c +212 "$SAMPLES/tiny.c63"; } > "$2" ;;
    zero-size)    { head -c 206 "$SAMPLES/tiny.c63"; printf '\000\000';
                    tail -c +209 "$SAMPLES/tiny.c63"; } > "$2" ;;
    missing-dqt)  { head -c 2 "$SAMPLES/tiny.c63"; tail -c +202 "$SAMPLES/tiny.c63"; } > "$2" ;;
    repeated-sof) { head -c 221 "$SAMPLES/tiny.c63"; tail -c +202 "$SAMPLES/tiny.c63"; } > "$2" ;;
    size-change)  cat "$SAMPLES/tiny.c63" "$SAMPLES/odd_height.c63" > "$2" ;;
    huge-size)    { head -c 206 "$SAMPLES/tiny.c63"; printf '\040\000\040\000';
                    tail -c +211 "$SAMPLES/tiny.c63"; } > "$2" ;;
    no-reference) run_ok ff -i "$SAMPLES/tiny.c63" -c copy -frames:v 1 -f c63 "$TMP/first.c63" || return 1
                  tail -c +$(($(wc -c < "$TMP/first.c63") + 1)) "$SAMPLES/tiny.c63" > "$2" ;;
    mv-outside)   cp "$SAMPLES/bad_mv.c63" "$2" ;;
    bad-ac-run)   cp "$SAMPLES/bad_run.c63" "$2" ;;
    garbage-*)    cp "$SAMPLES/qcif_keyint.c63" "$2" &&
                  printf '\377\377\000\252\125\377\001' |
                      dd of="$2" bs=1 seek="${1#garbage-}" conv=notrunc 2> /dev/null ;;
    *)            return 2 ;;
    esac
}

# chunk_stream OUT PLAIN: tiny's first frame twice, its entropy-coded data
# padded with zero bytes (read past: nothing follows the last block) so
# that the EOI marker lies 4096, then 8192 bytes into it, where the
# parallel decoding's unstuffing chunks start (C63HD_CHUNK); PLAIN gets the
# two frames unpadded
chunk_stream() {
    run_ok ff -i "$SAMPLES/tiny.c63" -c copy -frames:v 1 -f c63 "$TMP/first.c63" || return 1
    cat "$TMP/first.c63" "$TMP/first.c63" > "$2" || return 1
    size=$(wc -c < "$TMP/first.c63")
    # the data start after the SOS segment: FF DA, then its length
    start=$(od -An -v -tu1 -w1 "$TMP/first.c63" |
        awk 'p == 255 && $1 == 218 && sos == "" { sos = NR - 2 }
             sos != "" && NR == sos + 3 { hi = $1 }
             sos != "" && NR == sos + 4 { print sos + 2 + 256 * hi + $1; exit }
             { p = $1 }')
    [ -n "$start" ] || { echo "no SOS in tiny's first frame"; return 1; }
    for at in 4096 8192; do
        head -c $((size - 2)) "$TMP/first.c63"
        head -c $((start + at - size + 2)) /dev/zero
        printf '\377\331'
    done > "$1"
}

# vector_in NAME OUT: a stored vector's input, decompressed
vector_in() { xz -dc "$SAMPLES/$1.yuv.xz" > "$2"; }

# vector sizes, as in the vectors' README
size_of() {
    case $1 in
    tiny) echo 16x16 ;; odd_height) echo 176x100 ;; qcif_keyint) echo 176x144 ;;
    cif_testsrc2|cif_noise) echo 352x288 ;; mandel) echo 320x240 ;;
    hd1080_testsrc2) echo 1920x1080 ;; splice) echo 352x288 ;;
    *) echo "unknown vector $1" >&2; exit 1 ;;
    esac
}

# vector_yuv NAME OUT: a stored vector's frames into OUT; NAME splice is a
# clip with two scene cuts, at frames 30 and 50: cif_testsrc2 (30 frames),
# mandel padded to 352x288 (20), cif_noise (8)
vector_yuv() {
    case $1 in
    splice)
        vector_in mandel "$2.mandel" &&
        run_ok ff -f rawvideo -s 320x240 -pix_fmt yuv420p -i "$2.mandel" -vf pad=352:288:16:24 \
            -f rawvideo "$2.padded" &&
        { xz -dc "$SAMPLES/cif_testsrc2.yuv.xz" && cat "$2.padded" &&
          xz -dc "$SAMPLES/cif_noise.yuv.xz"; } > "$2" ;;
    *)  vector_in "$1" "$2" ;;
    esac
}

# keyframes FILE: the numbers of a stream's keyframes, from its packets
keyframes() {
    run_ok "$FFPROBE" -v error -show_entries packet=flags -of csv=p=0 "$1" > "$TMP/flags" &&
        awk '/K/ { printf "%s%d", n++ ? " " : "", NR - 1 } END { print "" }' "$TMP/flags"
}

# split_join ENCODER GPUS OPTS...: a clip of 75 frames with keyframes
# every 25 (-g 25), coded once, and cut at its keyframes by the segment
# muxer into three rawvideo NUT files, each coded on its own into Matroska
# (c63_cuda: part i on GPU i % GPUS) and joined by the concat demuxer with
# -c copy into a .c63 file (the concat demuxer takes each part's duration
# from its timestamps: raw .c63 parts have none, NUT's end a frame short);
# fails unless the join has the single encode's bytes, on any message and
# on any sanitizer report. Prints the parts' and the join's keyframes.
split_join() {
    enc=$1 gpus=$2; shift 2
    src="testsrc2=s=176x144:r=25"
    run_ok ff -f lavfi -i "$src" -frames:v 75 -c:v "$enc" -g 25 "$@" -f c63 "$TMP/single.c63" &&
        run_ok ff -f lavfi -i "$src" -frames:v 75 -c:v rawvideo -f segment -segment_format nut \
            -segment_frames 25,50 "$TMP/part%d.nut" || return 1
    : > "$TMP/list"
    for i in 0 1 2; do
        gpu=
        [ "$enc" = c63_cuda ] && gpu="-gpu $((i % gpus))"
        run_ok ff -i "$TMP/part$i.nut" -c:v "$enc" -g 25 $gpu "$@" -f matroska "$TMP/out$i.mkv" || return 1
        k=$(keyframes "$TMP/out$i.mkv") || return 1
        echo "part $i: keyframes $k"
        echo "file '$TMP/out$i.mkv'" >> "$TMP/list"
    done
    run_ok ff -f concat -safe 0 -i "$TMP/list" -c copy -f c63 "$TMP/joined.c63" || return 1
    [ -s "$CHECKED_ERR" ] && { echo "the join said: $(cat "$CHECKED_ERR")"; return 1; }
    k=$(keyframes "$TMP/joined.c63") || return 1
    echo "joined: keyframes $k"
    cmp -s "$TMP/single.c63" "$TMP/joined.c63" || { echo "the join differs from the single encode"; return 1; }
    echo "the join has the single encode's bytes"
}
