#!/bin/sh
# Quality floors of c63's rate-distortion options (tests/fate/quality.mak),
# run by fate-run.sh's runlocal from the build directory:
#
#   quality.sh METRIC NAME YUVQUALITY FLOOR OPTIONS... SRC_TESTS
#
# METRIC is psnr (PSNR over all planes, dB) or ssim (SSIM over all planes,
# in dB: -10 log10(1 - SSIM)), both measured by YUVQUALITY
# (tests/yuvquality: the decoded pictures against the input, computed
# apart from the encoder and from FFmpeg); NAME a vector of vector_yuv
# (c63-common.sh). The default, the reference encoder's choices at
# -quality 25, gives the bytes B0 and the quality Q0. The OPTIONS are coded
# at -quality points (search, below) until two neighbouring ones bracket
# B0, the lower with at most B0 bytes, the upper with more; their quality
# at B0 is interpolated between those two, linear in the logarithm of the
# bytes, and the gain is that quality less Q0. Where even the options'
# -quality 50 stays at most at B0 bytes (or their -quality 1 above), the
# comparison is at that point's bytes B1 instead: the options' quality
# there less the default's, interpolated the same way between the
# default's points that bracket B1. The gain must be at least FLOOR (dB).
# Prints the default, the bracketing points and the gain against its
# floor; exits non-zero when the floor is not met, neither reaches the
# other's bytes, or a program does not end as required (checked.sh). Every
# stream also decodes with the model of the reference decoder to our
# decoder's pictures (refdec).

. "$(dirname "$0")/c63-common.sh"

metric=$mode name=$1 run=$2 floor=$3
shift 3
case $metric in
psnr) field='$1 == "psnr:" { v = $9 }' unit=dB ;;
ssim) field='$1 == "ssim:" { v = $11 }' unit="dB (SSIM)" ;;
*)    echo "unknown metric $metric"; exit 1 ;;
esac
size=$(size_of "$name") || exit 1
vector_yuv "$name" "$TMP/in.yuv" || exit 1
in="-f rawvideo -s $size -pix_fmt yuv420p"

# point ID OPTIONS...: code the input with OPTIONS into $TMP/ID.c63 and
# leave its bytes in $TMP/ID.bytes, its quality in $TMP/ID.q (once)
point() {
    id=$1
    shift
    [ -f "$TMP/$id.q" ] && return 0
    run_ok ff $in -i "$TMP/in.yuv" -c:v c63 "$@" -f c63 "$TMP/$id.c63" || return 1
    refdec "$TMP/$id.c63" || return 1
    run_ok ff -i "$TMP/$id.c63" -f rawvideo -pix_fmt yuv420p "$TMP/$id.yuv" || return 1
    run_ok "$run" "$size" "$TMP/in.yuv" "$TMP/$id.yuv" > "$TMP/$id.m" || return 1
    wc -c < "$TMP/$id.c63" | tr -d ' ' > "$TMP/$id.bytes"
    awk "$field"' END { if (v == "" || v == "inf" || v == "-") exit 1; print v }' "$TMP/$id.m" \
        > "$TMP/$id.q" ||
        { echo "$id: no finite $metric in: $(cat "$TMP/$id.m")"; rm -f "$TMP/$id.q"; return 1; }
    rm -f "$TMP/$id.yuv"
}

# at SET Q OPTIONS...: the set SET (d: the default, o: the options) at
# -quality Q (coded once); its bytes in $b
at() {
    q=$1$2 x=$2
    shift 2
    point "$q" -quality "$x" "$@" || exit 1
    b=$(cat "$TMP/$q.bytes")
}

# search SET TARGET OPTIONS...: lo and hi, neighbouring -quality points of
# SET with bytes(lo) <= TARGET < bytes(hi), from -quality 25 on. While
# TARGET is on one side only, the next point is where bytes ~ quality^e
# puts TARGET, e from the last two points (at first 0.5, about what the
# default and the options give; where the last two have the same bytes,
# twice the last move), at least one point further; once on both sides,
# halving the interval. end is empty then, 50 where even -quality 50 gives
# at most TARGET bytes, 1 where even -quality 1 gives more.
search() {
    set_=$1 target=$2
    shift 2
    lo= hi= end= x=25 px= pb=
    while :; do
        at $set_ $x "$@"
        if [ "$b" -le "$target" ]; then lo=$x; else hi=$x; fi
        if [ -n "$lo" ] && [ -n "$hi" ]; then
            [ $((hi - lo)) -le 1 ] && return 0
            x=$(((lo + hi) / 2))
            continue
        fi
        if [ -z "$hi" ]; then
            [ "$lo" -ge 50 ] && { end=50; return 0; }
            dir=1
        else
            [ "$hi" -le 1 ] && { end=1; return 0; }
            dir=-1
        fi
        next=$(awk -v x="$x" -v b="$b" -v px="$px" -v pb="$pb" -v t="$target" -v dir=$dir 'BEGIN {
                e = 0.5
                if (px != "") e = pb == b ? 0 : log(b / pb) / log(x / px)
                g = e > 0.05 ? dir * (x * (t / b) ^ (1 / e) - x) : 2 * dir * (x - px)
                g = int(g + 0.5)
                if (g < 1) g = 1
                g = x + dir * g
                print (g > 50 ? 50 : g < 1 ? 1 : g) }')
        px=$x pb=$b x=$next
    done
}

# bracket SET TARGET LABEL: the points lo and hi of SET, and SET's quality
# at TARGET bytes (in $qt), linear in the logarithm of the bytes between them
bracket() {
    for x in $lo $hi; do
        echo "$3, -quality $x: $(cat "$TMP/$1$x.bytes") bytes, $(cat "$TMP/$1$x.q") $unit"
    done
    qt=$(awk -v t="$2" -v blo="$(cat "$TMP/$1$lo.bytes")" -v qlo="$(cat "$TMP/$1$lo.q")" \
             -v bhi="$(cat "$TMP/$1$hi.bytes")" -v qhi="$(cat "$TMP/$1$hi.q")" \
             'BEGIN { printf "%.6f", qlo + (qhi - qlo) * (log(t) - log(blo)) / (log(bhi) - log(blo)) }')
}

at d 25
b0=$b q0=$(cat "$TMP/d25.q")
echo "$name ($size, $(awk 'NR == 1 { print $2 }' "$TMP/d25.m") frames), $metric"
echo "default, -quality 25: $b0 bytes, $q0 $unit"

search o "$b0" "$@"
if [ -z "$end" ]; then
    # the options' quality at the default's bytes
    bracket o "$b0" "$*"
    rate=$b0 qo=$qt qd=$q0
else
    # the options cannot code B0 bytes (-quality 1..50): compare at the
    # bytes of their end point instead, with the default's quality there
    rate=$(cat "$TMP/o$end.bytes") qo=$(cat "$TMP/o$end.q")
    echo "$*, -quality $end: $rate bytes, $qo $unit ($([ $end = 50 ] && echo at most || echo more than) the default's)"
    search d "$rate"
    [ -z "$end" ] || { echo "the default does not reach $rate bytes either"; exit 1; }
    bracket d "$rate" default
    qd=$qt
fi
awk -v rate="$rate" -v qo="$qo" -v qd="$qd" -v floor="$floor" -v unit="$unit" 'BEGIN {
    gain = qo - qd
    ok = gain >= floor
    printf "at %d bytes: %.3f against %.3f %s, gain %+.3f dB, floor %+.2f dB: %s\n", rate, qo, qd, unit,
           gain, floor, ok ? "met" : "NOT MET"
    exit !ok
}'
