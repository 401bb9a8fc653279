#!/bin/sh
# c63's rate-distortion options: quality per bit against the reference's
# choices, on real camera footage, with each tool's share, and peers for
# context.
#
#   sh bench/bench-c63rd.sh [BUILD_DIR] [FRAMES] [SIZES]
#
# BUILD_DIR (default build) holds ffmpeg and ffprobe: the complete build,
# whose mpeg2video, mjpeg and libx264 are the peers (a peer that is not
# there is left out). The clips are bench/camera-clip.sh's vtest, box and
# cup (CLIPS, by default BUILD/clips; the script does not fetch them, a clip
# that is absent is skipped), each at the SIZES (default "native 1280x720
# 1920x1080": the clip's own size, and bicubic upscales), FRAMES frames
# (default 40) from the start. NOISE=N adds fresh noise of strength N to
# every upscaled frame (noise=alls=N:allf=t, as the other benchmarks make
# camera-like large sizes); by default none, as noise that no prediction
# can code puts a ceiling on every codec's PSNR that squeezes the curves
# together at the top.
#
# For each clip and size, c63 at -quality 10, 18, 25, 35 and 50 with:
#   ref       the reference's choices (the default)
#   flat      -tables flat
#   trellis   -trellis 1
#   mvrd      -mv_rd 1
#   intra     -intra_rd 1
#   flat+tr   -tables flat -trellis 1
#   ft+mv     -tables flat -trellis 1 -mv_rd 1
#   all       -tables flat -trellis 1 -mv_rd 1 -intra_rd 1
#   ssim      -tables ssim -trellis 1 -mv_rd 1 -intra_rd 1 (all, with the
#             tables for SSIM)
#   all+dc    -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 (all, with the
#             DC chain)
# (CASES: a subset of them, ref first)
# and the peers with -b:v at the five bitrates of ref (one pass;
# libx264 with -preset ultrafast). Every stream is measured from its
# packets (bits per frame, shown as kb/s at 25 frames/s) and its decoding
# against the input: PSNR over all planes (the psnr filter's average), luma
# PSNR, and SSIM (the ssim filter's All, in dB). Prints the points, then the
# Bjontegaard delta rate of each case against ref (bench/bdrate.cpp,
# compiled with the C++ compiler CXX, default c++): negative is fewer bits
# for the same quality; n/a where the quality ranges do not overlap (as for
# a peer far above or below ref). And the delta PSNR at the same rate.
#
# PLOTS=DIR (default BUILD/plots; PLOTS= for none) also gets the curves:
# for each clip and size, rd-CLIP-SIZE.dat (one line a point: case,
# setting, kb/s, bits a frame, bits per pixel, PSNR, PSNR-Y, SSIM in dB)
# and, drawn by gnuplot (Debian package gnuplot-nox), rd-CLIP-SIZE-psnr.png
# and rd-CLIP-SIZE-ssim.png: PSNR over all planes and SSIM (dB) against
# bits per pixel (bits a frame / (width x height)), one curve a case, ref
# in black. PLOT_PEERS=1 adds the peers, dashed (left out by default:
# libx264 lies far above the cases and squeezes them together). Without
# gnuplot the data files are written and the plots skipped, with a
# message; the benchmark goes on.

BUILD=${1:-build}
FRAMES=${2:-40}
SIZES=${3:-"native 1280x720 1920x1080"}
NOISE=${NOISE:-0}
FFMPEG=$BUILD/ffmpeg
FFPROBE=$BUILD/ffprobe
here=$(cd "$(dirname "$0")" && pwd)
TMP=${TMPDIR:-/tmp}/bench-c63rd.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
clips=${CLIPS:-$BUILD/clips}
${CXX:-c++} -O2 -o "$TMP/bdrate" "$here/bdrate.cpp" || exit 1
PLOTS=${PLOTS-$BUILD/plots}
GNUPLOT=
if [ -n "$PLOTS" ]; then
    mkdir -p "$PLOTS" || exit 1
    if command -v gnuplot > /dev/null 2>&1; then
        GNUPLOT=gnuplot
    else
        echo "bench-c63rd: no gnuplot (Debian package gnuplot-nox): the points go to $PLOTS/rd-*.dat, no plots are drawn"
    fi
fi

CASES=${CASES:-"ref flat trellis mvrd intra flat+tr ft+mv all ssim all+dc"}
opts_of() {
    case $1 in
    ref)     echo "" ;;
    flat)    echo "-tables flat" ;;
    trellis) echo "-trellis 1" ;;
    mvrd)    echo "-mv_rd 1" ;;
    intra)   echo "-intra_rd 1" ;;
    flat+tr) echo "-tables flat -trellis 1" ;;
    ft+mv)   echo "-tables flat -trellis 1 -mv_rd 1" ;;
    all)     echo "-tables flat -trellis 1 -mv_rd 1 -intra_rd 1" ;;
    ssim)    echo "-tables ssim -trellis 1 -mv_rd 1 -intra_rd 1" ;;
    all+dc)  echo "-tables flat -trellis 2 -mv_rd 1 -intra_rd 1" ;;
    esac
}
PEERS=
for p in mpeg2video mjpeg libx264; do
    "$FFMPEG" -hide_banner -v error -f lavfi -i testsrc2=s=64x64 -frames:v 1 -c:v $p \
        -f null - 2>/dev/null && PEERS="$PEERS $p"
done

# measure NAME SIZE FILE: "kbps psnr psnr_y ssim_db bits_a_frame" of FILE
# against $TMP/NAME.yuv
measure() {
    bits=$("$FFPROBE" -v error -show_entries packet=size -of csv=p=0 "$3" |
           awk '{ b += $1; n++ } END { printf "%.1f %.1f", 8 * b * 25 / n / 1000, 8 * b / n }')
    kbps=${bits% *}
    # (both from time 0: a peer's stream may start one frame in)
    "$FFMPEG" -nostdin -hide_banner -i "$3" -f rawvideo -s "$2" -pix_fmt yuv420p -i "$TMP/$1.yuv" \
        -lavfi "[0:v]setpts=PTS-STARTPTS,format=yuv420p,split[a][b];[1:v]setpts=PTS-STARTPTS,split[c][d];[a][c]psnr;[b][d]ssim" \
        -f null - > "$TMP/m.log" 2>&1
    psnr=$(sed -n 's/.*PSNR y:\([0-9.inf]*\) .*average:\([0-9.inf]*\).*/\2 \1/p' "$TMP/m.log")
    ssim=$(sed -n 's/.*SSIM .*All:[0-9.]* (\([0-9.inf]*\)).*/\1/p' "$TMP/m.log")
    echo "$kbps $psnr $ssim ${bits#* }"
}

# label_of CASE: its name in the plots' legend
label_of() {
    case $1 in
    ref)     echo "ref (the reference's)" ;;
    flat)    echo "flat (-tables flat)" ;;
    trellis) echo "trellis (-trellis 1)" ;;
    mvrd)    echo "mvrd (-mv_rd 1)" ;;
    intra)   echo "intra (-intra_rd 1)" ;;
    flat+tr) echo "flat+tr (flat, trellis)" ;;
    ft+mv)   echo "ft+mv (flat+tr, mvrd)" ;;
    all)     echo "all (ft+mv, intra)" ;;
    ssim)    echo "ssim (all, -tables ssim)" ;;
    all+dc)  echo "all+dc (all, -trellis 2)" ;;
    libx264) echo "libx264 (ultrafast)" ;;
    *)       echo "$1" ;;
    esac
}

# plot ID TITLE WxH: $PLOTS/rd-ID-psnr.png and rd-ID-ssim.png from
# $PLOTS/rd-ID.dat
plot() {
    curves=$CASES
    [ "${PLOT_PEERS:-0}" = 1 ] && curves="$CASES $PEERS"
    for m in psnr ssim; do
        case $m in
        psnr) col=6 what=PSNR ;;
        ssim) col=8 what=SSIM ;;
        esac
        cmd= i=0
        for c in $curves; do
            i=$((i + 1))
            case " $PEERS " in
            *" $c "*) style="lw 1.5 dt 2 lc rgb 'gray40' pt $i" ;;
            *) [ $c = ref ] && style="lw 3 lc rgb 'black' pt 7" ||
                   style="lw 1.5 lc rgb word(colours, $i) pt $i" ;;
            esac
            cmd="$cmd${cmd:+, }dat using (strcol(1) eq '$c' ? \$5 : NaN):$col"
            cmd="$cmd with linespoints $style title \"$(label_of $c)\""
        done
        # ref once more, on top of the cases that nearly repeat it
        case " $curves " in
        *" ref "*) cmd="$cmd, dat using (strcol(1) eq 'ref' ? \$5 : NaN):$col"
                   cmd="$cmd with linespoints lw 3 lc rgb 'black' pt 7 notitle" ;;
        esac
        if ! "$GNUPLOT" > "$TMP/gnuplot.log" 2>&1 <<EOF
set terminal pngcairo noenhanced size 800,500 font 'DejaVu Sans,10'
set output '$PLOTS/rd-$1-$m.png'
set title '$2: $what against bits per pixel'
set xlabel 'bits per pixel (bits a frame / ($(echo $3 | sed 's/x/ x /')))'
set ylabel '$what, all planes (dB)'
set key outside right top Left reverse width -4
set grid
dat = '$PLOTS/rd-$1.dat'
colours = '#000000 #e41a1c #377eb8 #4daf4a #984ea3 #ff7f00 #a65628 #f781bf #17becf #999900 #404040'
plot $cmd
EOF
        then
            echo "bench-c63rd: gnuplot failed on $PLOTS/rd-$1-$m.png:"
            cat "$TMP/gnuplot.log"
            continue
        fi
        echo "plot: $PLOTS/rd-$1-$m.png"
    done
}

echo "frames: $FRAMES a clip and size; noise: $NOISE; peers:${PEERS:- none}"
for name in vtest box cup; do
    case $name in vtest) clip=$clips/vtest.avi ;; *) clip=$clips/$name.mp4 ;; esac
    if [ ! -f "$clip" ]; then
        echo "bench-c63rd: no clip $clip (sh bench/camera-clip.sh $clips $name fetches it); skipped"
        continue
    fi
    for sz in $SIZES; do
        vf="-vf scale=$(echo $sz | tr x :):flags=bicubic"
        [ "$NOISE" != 0 ] && vf="$vf,noise=alls=$NOISE:allf=t"
        if [ $sz = native ]; then
            sz=$("$FFPROBE" -v error -select_streams v:0 -show_entries stream=width,height \
                 -of csv=s=x:p=0 "$clip")
            vf=
        fi
        id=$name-$sz
        "$FFMPEG" -nostdin -hide_banner -v error -i "$clip" $vf -frames:v "$FRAMES" \
            -pix_fmt yuv420p -f rawvideo -y "$TMP/$id.yuv" 2> /dev/null || exit 1
        in="-f rawvideo -s $sz -pix_fmt yuv420p -framerate 25 -i $TMP/$id.yuv"
        for c in $CASES; do
            : > "$TMP/$id.$c"
            for q in 10 18 25 35 50; do
                "$FFMPEG" -nostdin -hide_banner -v error $in -c:v c63 -quality $q $(opts_of $c) \
                    -f c63 -y "$TMP/x.c63" || exit 1
                measure $id $sz "$TMP/x.c63" >> "$TMP/$id.$c"
            done
        done
        for p in $PEERS; do
            : > "$TMP/$id.$p"
            popt=
            [ $p = libx264 ] && popt="-preset ultrafast"
            for kbps in $(cut -d' ' -f1 "$TMP/$id.ref"); do
                "$FFMPEG" -nostdin -hide_banner -v error $in -c:v $p $popt \
                    -b:v "$(awk -v k="$kbps" 'BEGIN { printf "%d", k * 1000 }')" \
                    -pix_fmt $([ $p = mjpeg ] && echo yuvj420p || echo yuv420p) \
                    -f nut -y "$TMP/x.nut" || exit 1
                measure $id $sz "$TMP/x.nut" >> "$TMP/$id.$p"
            done
        done
        echo
        echo "== $name $sz: kb/s, PSNR, PSNR-Y, SSIM (dB) at -quality 10 18 25 35 50 (peers: ref's rates)"
        for c in $CASES $PEERS; do
            printf '%-10s' $c
            awk '{ printf "  %7.0f %5.2f %5.2f %5.2f", $1, $2, $3, $4 }' "$TMP/$id.$c"
            echo
        done
        echo "   against ref:   BD-rate % (PSNR  PSNR-Y    SSIM)   BD-PSNR dB"
        for c in $CASES $PEERS; do
            [ $c = ref ] && continue
            for k in 2 3 4; do
                awk -v k=$k '{ print $1, $k }' "$TMP/$id.ref" > "$TMP/a"
                awk -v k=$k '{ print $1, $k }' "$TMP/$id.$c" > "$TMP/b"
                eval "bd$k=\$(\"\$TMP/bdrate\" \"\$TMP/a\" \"\$TMP/b\" 2>/dev/null || echo n/a)"
                [ $k = 2 ] && dq=$("$TMP/bdrate" -q "$TMP/a" "$TMP/b" 2>/dev/null || echo n/a)
            done
            printf '   %-20s %7s %7s %7s %12s\n' $c "$bd2" "$bd3" "$bd4" "$dq"
        done
        if [ -n "$PLOTS" ]; then
            {
                echo "# bench-c63rd: $name $sz, $FRAMES frames, noise $NOISE"
                echo "# case, setting (-quality; peers: -b:v in kb/s), kb/s at 25 frames/s, bits a frame,"
                echo "# bits per pixel, PSNR all planes, PSNR-Y, SSIM (dB)"
                for c in $CASES $PEERS; do
                    case " $PEERS " in
                    *" $c "*) settings=$(cut -d' ' -f1 "$TMP/$id.ref" | tr '\n' ' ') ;;
                    *) settings="10 18 25 35 50" ;;
                    esac
                    awk -v c=$c -v s="$settings" -v sz=$sz \
                        'BEGIN { split(s, q, " "); split(sz, d, "x") }
                         { printf "%-10s %7s %8s %10s %7.4f %6s %6s %6s\n",
                                  c, q[NR], $1, $5, $5 / (d[1] * d[2]), $2, $3, $4 }' "$TMP/$id.$c"
                done
            } > "$PLOTS/rd-$id.dat"
            [ -n "$GNUPLOT" ] && plot $id "$name $sz, $FRAMES frames" $sz
        fi
        rm -f "$TMP/$id.yuv"
    done
done
