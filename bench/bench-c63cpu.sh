#!/bin/sh
# The c63 CPU encoder and decoder on real camera footage, side by side with
# the course's reference programs in the same run.
#
#   sh bench/bench-c63cpu.sh BUILD [C63ENC C63DEC]
#
# BUILD holds ffmpeg (build/). C63ENC and C63DEC are the reference encoder
# and decoder (not part of this repository; by default BUILD/peers/c63enc
# and BUILD/peers/c63dec, where tools/gpu-bundle.sh puts the programs named
# by C63_REFENC and C63_REFDEC); when they are not there, only our figures
# are printed.
#
# Input: vtest.avi (768x576; fetched by bench/camera-clip.sh, which this
# script does not run: it is skipped when the clip is absent) and its camera-like
# 1080p version (bicubic upscale, fresh noise on every frame, fixed seed),
# both decoded once to raw yuv420p. Our decoder runs with one thread and
# with two (entropy decoding and reconstruction at once). Each program
# reads the raw file (or the stream) and
# writes its output to a file; the figure is frames over wall time, the best
# of RUNS runs (REF_RUNS for the slow reference encoder), and frames per
# CPU second (user + system, all threads) of that run, which waiting for
# a busy core does not lower.
#
# The reference programs code SD_FRAMES and HD_FRAMES frames (they are
# slow); ours code OURS_SD_FRAMES and OURS_HD_FRAMES, more, so that the
# process's start and the first (intra) frame weigh little in frames/s and
# the thread counts compare in steady state; the outputs are compared over
# the frames both coded. The load average is printed first; the script
# waits up to a minute for it to fall under 1.
#
# The decoders also decode the same streams to /dev/null: the pictures are
# then not written to a file, whose cost is the same for both programs
# and, at our decoder's speed, a large part of its wall time.
#
# Two threads against one are also given as the median, over PAIRS pairs
# of runs alternating one and two threads, of the ratio within a pair
# (see pair_ratio()): on a host whose speed drifts, the ratio of two best
# times is not a measure of the threads' scaling.
#
# What two encoder threads can reach through ffmpeg is printed beside
# them: with one thread, ffmpeg's demuxer, decoder and muxer threads run on
# the other core, and the run's CPU time beyond its wall time is theirs;
# with two threads on a two-core host they take that time from the
# encoder's cores, so two threads can be at most 2 x wall / CPU time of the
# one-thread run faster (cores x wall / CPU time on other hosts, at most
# 2x).
#
# What two threads can gain on the host at all is printed first and last:
# tests/cpuscaling (BUILD/tests or BUILD/obj/tests) runs two copies of a
# loop that touches no memory against one, ten times; where other work
# shares the host's cores, this is below 2x.
#
# The encoder's thread scaling is also measured in one process, without
# ffmpeg's demuxer and muxer threads: tests/encthreads (BUILD/tests, or
# BUILD/obj/tests in a build tree) codes the frames, read into memory
# first, with a one-thread and a two-thread encoder taking turns of 20
# frames (the first two of a turn not timed: the two-thread encoder keeps
# a frame in flight, finished during the other's turn, and its threads
# wake from that turn's idleness at the first),
# ENC_ROUNDS times over (default 3): two threads against one as the ratio
# of the total times, the median of the frames' ratios, and from each
# turn's best time over the rounds. tests/decthreads does the same for
# the decoder (one thread and two, frame by frame) on the stream just
# encoded, read into memory first: its steady state, without the
# process's start, ffmpeg's other threads or the output file.
#
# Environment: SD_FRAMES (default 100), HD_FRAMES (20), OURS_SD_FRAMES
# (400), OURS_HD_FRAMES (80), RUNS (3), REF_RUNS (2), PAIRS (5), CLIPS
# (folder for vtest.avi, default BUILD/clips), TMPDIR.
set -u
BUILD=$1
REFENC=${2:-$BUILD/peers/c63enc}
REFDEC=${3:-$BUILD/peers/c63dec}
SD_FRAMES=${SD_FRAMES:-100}
HD_FRAMES=${HD_FRAMES:-20}
OURS_SD_FRAMES=${OURS_SD_FRAMES:-400}
OURS_HD_FRAMES=${OURS_HD_FRAMES:-80}
[ "$OURS_SD_FRAMES" -ge "$SD_FRAMES" ] || OURS_SD_FRAMES=$SD_FRAMES
[ "$OURS_HD_FRAMES" -ge "$HD_FRAMES" ] || OURS_HD_FRAMES=$HD_FRAMES
RUNS=${RUNS:-3}
PAIRS=${PAIRS:-5}
REF_RUNS=${REF_RUNS:-2}
ENC_ROUNDS=${ENC_ROUNDS:-3}
ENCTHREADS=$BUILD/tests/encthreads
[ -x "$ENCTHREADS" ] || ENCTHREADS=$BUILD/obj/tests/encthreads
DECTHREADS=$BUILD/tests/decthreads
[ -x "$DECTHREADS" ] || DECTHREADS=$BUILD/obj/tests/decthreads
CPUSCALING=$BUILD/tests/cpuscaling
[ -x "$CPUSCALING" ] || CPUSCALING=$BUILD/obj/tests/cpuscaling
FF="$BUILD/ffmpeg -nostdin -hide_banner -v error"
TMP=${TMPDIR:-/tmp}/c63-bench-cpu.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

have_ref=
if [ -n "$REFENC" ] && [ -x "$REFENC" ] && [ -n "$REFDEC" ] && [ -x "$REFDEC" ]; then
    have_ref=yes
else
    echo "bench-c63cpu: no reference programs given; our figures only"
fi

clips=${CLIPS:-$BUILD/clips}
clip=$clips/vtest.avi
if [ ! -f "$clip" ]; then
    echo "bench-c63cpu: no camera clip $clip (sh bench/camera-clip.sh $clips fetches it); skipped"
    exit 0
fi

# "wall cpu": the best wall time in seconds of RUNS runs of a command, and
# the CPU time (user + system, all threads) of that run
best_time() {
    runs=$1; shift
    best=
    i=0
    while [ $i -lt "$runs" ]; do
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f "%e %U %S" -o "$TMP/time" "$@" > /dev/null 2>&1 ||
                { echo "bench-c63cpu: failed: $*" >&2; echo "0 0"; return; }
            t=$(awk '{ printf "%s %.2f", $1, $2 + $3 }' "$TMP/time")
        else
            t0=$(date +%s.%N)
            "$@" > /dev/null 2>&1 || { echo "bench-c63cpu: failed: $*" >&2; echo "0 0"; return; }
            t1=$(date +%s.%N)
            t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f 0", b - a }')
        fi
        best=$(echo "$t" | awk -v best="$best" '{ split(best, b, " ");
            if (best == "" || $1 < b[1]) print $1, $2; else print best }')
        i=$((i + 1))
    done
    echo "$best"
}
# The median, over PAIRS pairs of runs that alternate the shell functions
# A and B, of the ratio of A's wall time to B's: a drift of the host's
# speed from one run to the next then weighs on both sides of a pair
# alike, where the best of separate series of runs can catch one side in
# a fast moment and the other in a slow one.
pair_ratio() {
    fa=$1 fb=$2
    : > "$TMP/pairs"
    i=0
    while [ $i -lt "$PAIRS" ]; do
        t0=$(date +%s.%N)
        $fa > /dev/null 2>&1 || { echo "bench-c63cpu: failed: $fa" >&2; echo n/a; return; }
        t1=$(date +%s.%N)
        $fb > /dev/null 2>&1 || { echo "bench-c63cpu: failed: $fb" >&2; echo n/a; return; }
        t2=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.4f\n", (b - a) / (c - b) }' >> "$TMP/pairs"
        i=$((i + 1))
    done
    sort -n "$TMP/pairs" | awk '{ r[NR] = $1 } END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "%.2fx", m }'
}
wall() { echo "${1%% *}"; }
cpu()  { echo "${1#* }"; }
fps() { awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.2f", n / t; else print "n/a" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.1fx", a / b; else print "n/a" }'; }
# the same to two decimals, for thread counts against one thread
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "n/a" }'; }

i=0
while [ $i -lt 12 ] && awk '{ exit !($1 >= 1) }' /proc/loadavg; do sleep 5; i=$((i + 1)); done
echo "bench-c63cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
# the host's own two-thread scaling, the ceiling of the figures below
ceiling() { [ -x "$CPUSCALING" ] && echo "bench-c63cpu: $1: $("$CPUSCALING" -t 2 -r 10)"; }
ceiling "the host, before"

$FF -i "$clip" -frames:v "$OURS_SD_FRAMES" -pix_fmt yuv420p -f rawvideo "$TMP/sd.yuv" || exit 1
$FF -i "$clip" -frames:v "$OURS_HD_FRAMES" \
    -vf scale=1920:1080:flags=bicubic,noise=alls=3:allf=t:all_seed=42,format=yuv420p \
    -f rawvideo "$TMP/hd.yuv" || exit 1

for size in sd hd; do
    case $size in
    sd) w=768;  h=576;  rn=$SD_FRAMES n=$OURS_SD_FRAMES ;;
    hd) w=1920; h=1080; rn=$HD_FRAMES n=$OURS_HD_FRAMES ;;
    esac
    label="${w}x${h}, $n frames (reference $rn)"
    in=$TMP/$size.yuv
    refin=$TMP/$size.ref.yuv
    head -c $((w * h * 3 / 2 * rn)) "$in" > "$refin"

    # encoder
    t1=$(best_time "$RUNS" $FF -f rawvideo -s ${w}x$h -pix_fmt yuv420p -i "$in" \
        -threads 1 -c:v c63 -f c63 -y "$TMP/$size.ours.c63")
    t2=$(best_time "$RUNS" $FF -f rawvideo -s ${w}x$h -pix_fmt yuv420p -i "$in" \
        -threads 2 -c:v c63 -f c63 -y "$TMP/$size.ours2.c63")
    f1=$(fps "$n" "$(wall "$t1")"); f2=$(fps "$n" "$(wall "$t2")")
    c1=$(fps "$n" "$(cpu "$t1")")
    enc1() { $FF -f rawvideo -s ${w}x$h -pix_fmt yuv420p -i "$in" -threads 1 -c:v c63 -f c63 -y "$TMP/$size.p1.c63"; }
    enc2() { $FF -f rawvideo -s ${w}x$h -pix_fmt yuv420p -i "$in" -threads 2 -c:v c63 -f c63 -y "$TMP/$size.p2.c63"; }
    pe=$(pair_ratio enc1 enc2)
    # what two threads can reach through ffmpeg (see the top)
    lim=$(awk -v w="$(wall "$t1")" -v c="$(cpu "$t1")" -v n="$(nproc)" 'BEGIN {
        if (w <= 0 || c <= 0) { print "n/a"; exit }
        l = n * w / c; if (l > 2) l = 2
        o = (c - w) / c; if (o < 0) o = 0
        printf "%.2fx (ffmpeg'"'"'s other threads: %.1f%% of the one-thread run'"'"'s CPU time, %d cores)", l, 100 * o, n }')
    if [ -n "$have_ref" ]; then
        tr=$(best_time "$REF_RUNS" "$REFENC" -w $w -h $h -o "$TMP/$size.ref.c63" "$refin")
        fr=$(fps "$rn" "$(wall "$tr")"); cr=$(fps "$rn" "$(cpu "$tr")")
        # the first rn frames of ours against the reference's rn frames
        rsize=$(wc -c < "$TMP/$size.ref.c63")
        same=$(cmp -s -n "$rsize" "$TMP/$size.ref.c63" "$TMP/$size.ours.c63" &&
               cmp -s -n "$rsize" "$TMP/$size.ref.c63" "$TMP/$size.ours2.c63" && echo identical || echo DIFFERENT)
        echo "bench-c63cpu: encode $label: reference $fr frames/s ($cr per CPU second)"
        echo "bench-c63cpu: encode $label: c63 1 thread $f1 frames/s ($(ratio "$f1" "$fr") the reference; $c1 per CPU second, $(ratio "$c1" "$cr"))"
        echo "bench-c63cpu: encode $label: c63 2 threads $f2 frames/s ($(ratio "$f2" "$fr") the reference, $(ratio2 "$f2" "$f1") one thread; median of $PAIRS alternating pairs $pe)"
        echo "bench-c63cpu: encode $label: output $same to the reference's over its $rn frames"
    else
        echo "bench-c63cpu: encode $label: c63 1 thread $f1 frames/s ($c1 per CPU second), 2 threads $f2 frames/s ($(ratio2 "$f2" "$f1"); median of $PAIRS alternating pairs $pe)"
    fi
    echo "bench-c63cpu: encode $label: 2 threads against 1 through ffmpeg can reach at most $lim"

    if [ -x "$ENCTHREADS" ]; then
        "$ENCTHREADS" -a 1 -b 2 -r "$ENC_ROUNDS" "$in" ${w}x$h > "$TMP/encthreads" 2>&1 ||
            { echo "bench-c63cpu: encthreads failed:"; cat "$TMP/encthreads"; }
        sed "s/^/bench-c63cpu: encode $label, in one process: /" "$TMP/encthreads"
    fi

    # decoder, of the stream just encoded: one thread, and two (entropy
    # decoding and reconstruction at once)
    td=$(best_time "$RUNS" $FF -threads 1 -i "$TMP/$size.ours.c63" -f rawvideo -y "$TMP/$size.ours.yuv")
    fd=$(fps "$n" "$(wall "$td")"); cd=$(fps "$n" "$(cpu "$td")")
    td2=$(best_time "$RUNS" $FF -threads 2 -i "$TMP/$size.ours.c63" -f rawvideo -y "$TMP/$size.ours2.yuv")
    fd2=$(fps "$n" "$(wall "$td2")")
    same2=$(cmp -s "$TMP/$size.ours.yuv" "$TMP/$size.ours2.yuv" && echo identical || echo DIFFERENT)
    dec1() { $FF -threads 1 -i "$TMP/$size.ours.c63" -f rawvideo -y "$TMP/$size.p1.yuv"; }
    dec2() { $FF -threads 2 -i "$TMP/$size.ours.c63" -f rawvideo -y "$TMP/$size.p2.yuv"; }
    pd=$(pair_ratio dec1 dec2)
    if [ -n "$have_ref" ]; then
        tdr=$(best_time "$RUNS" "$REFDEC" "$TMP/$size.ref.c63" "$TMP/$size.refdec.yuv")
        fdr=$(fps "$rn" "$(wall "$tdr")"); cdr=$(fps "$rn" "$(cpu "$tdr")")
        same=$(cmp -s -n "$(wc -c < "$TMP/$size.refdec.yuv")" "$TMP/$size.refdec.yuv" "$TMP/$size.ours.yuv" &&
               echo identical || echo DIFFERENT)
        echo "bench-c63cpu: decode $label: reference $fdr frames/s ($cdr per CPU second), c63 $fd frames/s ($(ratio "$fd" "$fdr"); $cd per CPU second, $(ratio "$cd" "$cdr")); output $same"
        echo "bench-c63cpu: decode $label: c63 2 threads $fd2 frames/s ($(ratio "$fd2" "$fdr") the reference, $(ratio2 "$fd2" "$fd") one thread; median of $PAIRS alternating pairs $pd); output $same2 to one thread's"
        # the same decodes writing to /dev/null: without the file system's
        # cost of writing the pictures, which is the same for both programs
        # and at this speed a large part of ours
        tnr=$(best_time "$RUNS" "$REFDEC" "$TMP/$size.ref.c63" /dev/null)
        tn1=$(best_time "$RUNS" $FF -threads 1 -i "$TMP/$size.ours.c63" -f rawvideo -y /dev/null)
        tn2=$(best_time "$RUNS" $FF -threads 2 -i "$TMP/$size.ours.c63" -f rawvideo -y /dev/null)
        fnr=$(fps "$rn" "$(wall "$tnr")"); fn1=$(fps "$n" "$(wall "$tn1")"); fn2=$(fps "$n" "$(wall "$tn2")")
        echo "bench-c63cpu: decode $label, to /dev/null: reference $fnr frames/s, c63 $fn1 frames/s ($(ratio "$fn1" "$fnr")), 2 threads $fn2 frames/s ($(ratio "$fn2" "$fnr"))"
    else
        echo "bench-c63cpu: decode $label: c63 $fd frames/s ($cd per CPU second), 2 threads $fd2 frames/s ($(ratio2 "$fd2" "$fd"); median of $PAIRS alternating pairs $pd); output $same2 to one thread's"
    fi
    if [ -x "$DECTHREADS" ]; then
        "$DECTHREADS" -a 1 -b 2 -r "$ENC_ROUNDS" "$TMP/$size.ours.c63" > "$TMP/decthreads" 2>&1 ||
            { echo "bench-c63cpu: decthreads failed:"; cat "$TMP/decthreads"; }
        sed "s/^/bench-c63cpu: decode $label, in one process: /" "$TMP/decthreads"
    fi
done
ceiling "the host, after"
exit 0
