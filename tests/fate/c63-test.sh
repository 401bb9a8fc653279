#!/bin/sh
# Codec63 FATE test driver, run by fate-run.sh's runlocal from the build
# directory: c63-test.sh MODE ARGS... SRC_TESTS
# Prints what the test's reference holds; exits non-zero when a check fails
# or a program does not end as the check requires (run_ok, run_refused,
# run_no_crash: a non-zero status, a signal or a sanitizer report).

. "$(dirname "$0")/c63-common.sh"

# bitrate_within FILE RATE TOL: the frame count of a .c63 file and its
# bitrate (packet sizes, the stream's frame rate); fails unless within TOL
# percent of RATE (bits/s)
bitrate_within() {
    run_ok "$FFPROBE" -v error -show_entries stream=r_frame_rate -of csv=p=0 "$1" > "$TMP/fr" &&
        run_ok "$FFPROBE" -v error -show_entries packet=size -of csv=p=0 "$1" > "$TMP/sizes" || return 1
    awk -v fr="$(cat "$TMP/fr")" -v rate="$2" -v tol="$3" '{ bytes += $1; n++ }
            END { split(fr, f, "/"); r = 8 * bytes / (n * f[2] / f[1]); off = 100 * (r / rate - 1)
                  ok = off <= tol && off >= -tol
                  printf "frames: %d\nbitrate: %.1f kb/s, %+.2f%% of %g kb/s: %s\n", n, r / 1000, off,
                         rate / 1000, ok ? "within " tol "%" : "OFF"; exit !ok }' "$TMP/sizes"
}

# bucket_within SIZES FPS RATE MAX SIZE INIT: the bitrate of the packet
# sizes (bytes, one a line) against RATE (bits/s), and whether their bits
# lie within what the leaky bucket of vbv-check.awk (-maxrate MAX, -bufsize
# SIZE, starting with INIT bits, 0: three quarters of SIZE) accepts of N
# frames at FPS, over T = N / FPS seconds, whatever the encoder: every frame
# is taken out of the buffer without underflowing it, so the stream has at
# most INIT + (N - 1) x MAX / FPS bits (what the buffer held and gained
# before the last frame); at a constant bitrate (MAX = RATE) the buffer
# holds at most SIZE after the last frame's bits arrive, so the stream has
# at least INIT + N x MAX / FPS - SIZE bits, that is RATE x T - (SIZE -
# INIT). A capped buffer (MAX > RATE) has no lower bound (the channel
# stops while it is full). Fails outside the bounds.
bucket_within() {
    awk -v fr="$2" -v rate="$3" -v max="$4" -v size="$5" -v init="$6" '{ bytes += $1; n++ }
        END { split(fr, f, "/"); t = n * f[2] / f[1]; want = rate * t; bits = 8 * bytes
              i = init > 0 ? init : size * 3 / 4
              hi = i + (n - 1) * max * f[2] / f[1]
              constant = max == rate
              lo = constant ? i + n * max * f[2] / f[1] - size : 0
              ok = bits <= hi && bits >= lo
              printf "bitrate: %.1f kb/s, %+.2f%% of %g kb/s: ", bits / t / 1000, 100 * (bits / want - 1),
                     rate / 1000
              if (constant)
                  printf "the bucket bounds it to %+.2f%% .. %+.2f%%", 100 * (lo / want - 1), 100 * (hi / want - 1)
              else
                  printf "the bucket bounds it to at most %+.2f%%", 100 * (hi / want - 1)
              print ok ? ": within" : ": OUTSIDE"
              exit !ok }' "$1"
}

# The first error the c63 decoder or encoder logged, without the address.

# refused ARGS...: ffmpeg ARGS must refuse cleanly (run_refused); prints
# "accepted" and fails where it succeeded
refused() {
    run_refused "$FFMPEG" "$@" > /dev/null && return
    [ "$ran_status" = 0 ] && echo "accepted"
    exit 1
}

case $mode in
dec)        # decoded output md5 (reference decoder's md5 in the ref)
    ff_md5 -i "$SAMPLES/$1.c63" -f rawvideo -pix_fmt yuv420p - || exit 1
    ;;
dec-threads) # the same md5 with 1, 2 and 3 slice threads
    for t in 1 2 3; do
        ff_md5 -threads $t -i "$SAMPLES/$1.c63" -f rawvideo -pix_fmt yuv420p - > "$TMP/t$t" || exit 1
    done
    cmp -s "$TMP/t1" "$TMP/t2" && cmp -s "$TMP/t1" "$TMP/t3" ||
        { echo "thread counts differ: $(cat "$TMP/t1" "$TMP/t2" "$TMP/t3")"; exit 1; }
    cat "$TMP/t1"
    ;;
enc)        # encoded md5 from the stored input (reference encoder's md5)
    name=$1; shift
    vector_in "$name" "$TMP/in.yuv" || exit 1
    run_ok ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i "$TMP/in.yuv" -c:v c63 "$@" \
        -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    md5 < "$TMP/x.c63"
    ;;
ecserial)   # tests/ecserial: c63_cuda's GPU entropy coder run serially on the
            # CPU, on the coefficients and vectors of the c63 encoder's row
            # coding, for a stored vector (or a lavfi source: NAME with a
            # '=', then its size) and options; it fails where a packet is
            # not the CPU writer's; the md5 of its stream
    run=$1 name=$2; shift 2
    case $name in
    *=*) size=$1; shift
         run_ok ff -f lavfi -i "$name" -f rawvideo -pix_fmt yuv420p "$TMP/in.yuv" || exit 1 ;;
    *)   size=$(size_of "$name")
         vector_in "$name" "$TMP/in.yuv" || exit 1 ;;
    esac
    run_ok_print "$run" "$@" -O "$TMP/serial.c63" "$TMP/in.yuv" "$size" || exit 1
    refdec "$TMP/serial.c63" || exit 1
    md5 < "$TMP/serial.c63"
    ;;
split)      # cut at keyframes, coded in parts, joined with -c copy: the
            # single encode's bytes (split_join of c63-common.sh)
    split_join c63 1 "$@" || exit 1
    ;;
remux)      # c63 -> container -> c63 gives back the same bytes
    name=$1 fmt=$2
    run_ok ff -i "$SAMPLES/$name.c63" -c copy -f "$fmt" "$TMP/x.$fmt" || exit 1
    ff_md5 -i "$TMP/x.$fmt" -c copy -f c63 - || exit 1
    ;;
probe)      # what ffprobe reports of a raw .c63 file
    run_ok_print "$FFPROBE" -v error -count_frames -show_entries \
        format=format_name:stream=codec_name,codec_type,width,height,pix_fmt,nb_read_frames \
        -of default=noprint_wrappers=1 "$SAMPLES/$1.c63" || exit 1
    ;;
probe-jpeg) # an ordinary JPEG is not taken for c63
    run_ok ff -f lavfi -i testsrc2=s=64x48 -frames:v 1 -pix_fmt yuvj420p -c:v mjpeg "$TMP/x.jpg" || exit 1
    run_ok_print "$FFPROBE" -v error -show_entries format=format_name -of default=noprint_wrappers=1 \
        "$TMP/x.jpg" || exit 1
    ;;
bad)        # hostile input: clear error, non-zero exit, no frame passed off as good
    bad_stream "$1" "$TMP/in.c63"
    case $? in 0) ;; 2) echo "unknown case $1"; exit 1 ;; *) exit 1 ;; esac
    # with -xerror: the first error stops ffmpeg with a non-zero status of
    # its own
    if ! run_refused "$FFMPEG" -nostdin -nostats -hide_banner -xerror -f c63 -i "$TMP/in.c63" \
            -f null - > /dev/null; then
        [ "$ran_status" = 0 ] && echo "exit status non-zero: no"
        exit 1
    fi
    echo "exit status non-zero: yes"
    first_error "$CHECKED_ERR"
    # without: decoding goes on, and only the good frames come out (ffmpeg
    # may end with an error of its own, 69 where every frame failed)
    run_no_crash "$FFMPEG" -nostdin -nostats -hide_banner -v quiet -f c63 -i "$TMP/in.c63" \
        -f framecrc - > "$TMP/out" || exit 1
    echo "frames output: $(grep -c '^0,' "$TMP/out")"
    ;;
fuzz)       # mutated streams: the decoder may refuse them, never crash, hang or
            # make a sanitizer report
    name=$1 runs=$2 bad=0 i=0
    size=$(wc -c < "$SAMPLES/$name.c63")
    while [ $i -lt "$runs" ]; do
        cp "$SAMPLES/$name.c63" "$TMP/f.c63"
        # overwrite 1..8 bytes at positions drawn from seed i
        awk -v seed=$i -v size="$size" 'BEGIN { srand(seed + 1); n = 1 + int(rand() * 8);
            for (k = 0; k < n; k++) printf "%d %d\n", int(rand() * size), int(rand() * 256) }' > "$TMP/muts"
        while read -r pos val; do
            printf "$(printf '\\%03o' "$val")" |
                dd of="$TMP/f.c63" bs=1 seek="$pos" conv=notrunc 2>/dev/null
        done < "$TMP/muts"
        if ! run_no_crash timeout 30 "$FFMPEG" -nostdin -v quiet -f c63 -i "$TMP/f.c63" -f null -; then
            echo "run $i: $(ended "$ran_status")$(sanitizer_report "$CHECKED_ERR" && echo ", a sanitizer report")"
            cp "$TMP/f.c63" "c63-fuzz-crash-$i.c63"
            bad=1
        fi
        i=$((i + 1))
    done
    echo "$runs mutated $name streams: no crash, no hang"
    exit $bad
    ;;
size)       # odd sizes round-trip to the same size and frame count
    s=$1
    run_ok ff -f lavfi -i "testsrc2=s=176x144:r=25,scale=$(echo "$s" | tr x :)" -frames:v 5 \
       -c:v c63 -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    run_ok_print "$FFPROBE" -v error -count_frames -show_entries stream=width,height,nb_read_frames \
        -of default=noprint_wrappers=1 "$TMP/x.c63" || exit 1
    ff_md5 -i "$TMP/x.c63" -f rawvideo - || exit 1
    ;;
encopt)     # encode a lavfi clip with options; md5 and key frame count
    src=$1; shift
    run_ok ff -f lavfi -i "$src" -c:v c63 "$@" -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    md5 < "$TMP/x.c63"
    run_ok "$FFPROBE" -v error -show_entries packet=flags -of csv=p=0 "$TMP/x.c63" > "$TMP/flags" ||
        exit 1
    sort "$TMP/flags" | uniq -c | sed 's/^ *//'
    ;;
threads)    # output identical for every thread count
    name=$1
    vector_in "$name" "$TMP/in.yuv" || exit 1
    for t in 1 2 3; do
        run_ok ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i "$TMP/in.yuv" \
               -threads $t -c:v c63 -f c63 "$TMP/x$t.c63" || exit 1
        md5 < "$TMP/x$t.c63" > "$TMP/t$t"
    done
    refdec "$TMP/x1.c63" || exit 1
    cmp -s "$TMP/t1" "$TMP/t2" && cmp -s "$TMP/t1" "$TMP/t3" || { echo "thread counts differ"; exit 1; }
    echo "threads 1, 2, 3: identical"
    cat "$TMP/t1"
    ;;
threads-opts) # output identical at 1, 8 and 16 threads with the options
              # given: on a small picture, many threads keep rows of two
              # frames in flight next to each other
    name=$1; shift
    vector_in "$name" "$TMP/in.yuv" || exit 1
    for t in 1 8 16; do
        run_ok ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i "$TMP/in.yuv" \
               -threads $t -c:v c63 "$@" -f c63 "$TMP/x$t.c63" || exit 1
        md5 < "$TMP/x$t.c63" > "$TMP/t$t"
    done
    refdec "$TMP/x1.c63" || exit 1
    cmp -s "$TMP/t1" "$TMP/t8" && cmp -s "$TMP/t1" "$TMP/t16" ||
        { echo "thread counts differ: $(cat "$TMP/t1" "$TMP/t8" "$TMP/t16")"; exit 1; }
    echo "threads 1, 8, 16: identical"
    cat "$TMP/t1"
    ;;
encthreads) # tests/encthreads: the encoder in one process at thread counts A
            # and B, in turns: identical packets, and the
            # first encoder's stream has the reference encoder's md5
    run=$1 name=$2 a=$3 b=$4
    vector_in "$name" "$TMP/in.yuv" || exit 1
    run_ok "$run" -a "$a" -b "$b" -w 0 -O "$TMP/out.c63" "$TMP/in.yuv" "$(size_of "$name")" > "$TMP/log" ||
        { cat "$TMP/log"; exit 1; }
    grep -q 'packets identical$' "$TMP/log" || { cat "$TMP/log"; exit 1; }
    echo "threads $a and $b: packets identical"
    refdec "$TMP/out.c63" || exit 1
    md5 < "$TMP/out.c63"
    ;;
encapi)     # tests/encapi: the encoder through the API at 1 and THREADS
            # threads (see tests/harness/encapi.cpp); its lines are the reference
    run=$1 name=$2 threads=$3
    vector_in "$name" "$TMP/in.yuv" || exit 1
    run_ok_print "$run" "$threads" "$TMP/in.yuv" "$(size_of "$name")" || exit 1
    ;;
hdserial)   # tests/hdserial: the parallel entropy decoding's CPU twin against
            # the serial decoder on a vector, or (bad) on damaged streams,
            # the hostile samples and the demuxer fuzzer's corpus, or
            # (chunk) on chunk_stream, which decodes to its plain frames
    run=$1 name=$2
    if [ "$name" = chunk ]; then
        chunk_stream "$TMP/chunk.c63" "$TMP/plain.c63" || exit 1
        a=$(ff_md5 -i "$TMP/chunk.c63" -f rawvideo -) && b=$(ff_md5 -i "$TMP/plain.c63" -f rawvideo -) ||
            exit 1
        [ "$a" = "$b" ] || { echo "the padded frames decode to $a, the plain ones to $b"; exit 1; }
        run_ok "$run" "$TMP/chunk.c63" > "$TMP/log" || { cat "$TMP/log"; exit 1; }
        cat "$TMP/log"
        exit 0
    fi
    if [ "$name" != bad ]; then
        run_ok "$run" "$SAMPLES/$name.c63" > "$TMP/log" || { cat "$TMP/log"; exit 1; }
        cat "$TMP/log"
        exit 0
    fi
    bad_stream size-change "$TMP/size-change.c63" && bad_stream no-reference "$TMP/no-reference.c63" ||
        exit 1
    run_ok "$run" "$SAMPLES/bad_mv.c63" "$SAMPLES/bad_run.c63" "$TMP/size-change.c63" \
        "$TMP/no-reference.c63" > "$TMP/log" || { cat "$TMP/log"; exit 1; }
    for seed in 1 2 3 4 5 6 7 8; do
        for v in tiny odd_height qcif_keyint cif_noise mandel; do
            run_ok "$run" -damage $seed "$SAMPLES/$v.c63" >> "$TMP/log" || { cat "$TMP/log"; exit 1; }
        done
    done
    # the corpus: every input read, no disagreement (its lines vary with it)
    corpus=$base/c63/fuzz/corpus/target_dem_c63_fuzzer
    run_ok "$run" -k "$corpus"/* > "$TMP/corpus.log" || { cat "$TMP/corpus.log"; exit 1; }
    echo "corpus: $(ls "$corpus" | wc -l) inputs, $(grep -c . "$TMP/corpus.log") lines"
    cat "$TMP/log"
    ;;
decthreads) # tests/decthreads: the decoder in one process at thread counts A
            # and B, frame by frame in turn, two rounds: identical frames,
            # and the first decoder's have the reference decoder's md5
    run=$1 name=$2 a=$3 b=$4
    run_ok "$run" -a "$a" -b "$b" -r 2 -t 3 -O "$TMP/out.yuv" "$SAMPLES/$name.c63" > "$TMP/log" ||
        { cat "$TMP/log"; exit 1; }
    grep -q 'frames identical$' "$TMP/log" || { cat "$TMP/log"; exit 1; }
    echo "threads $a and $b: frames identical"
    md5 < "$TMP/out.yuv"
    ;;
psnr)       # encode-decode PSNR on a textured source stays in the expected range
    src=$1 lo=$2 hi=$3; shift 3
    run_ok ff -f lavfi -i "$src" -c:v c63 "$@" -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    run_ok "$FFMPEG" -nostdin -hide_banner -i "$TMP/x.c63" -f lavfi -i "$src" \
        -lavfi "[0:v][1:v]psnr=stats_file=-" -f null - > "$TMP/psnr" || exit 1
    p=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^psnr_avg:/) { sub("psnr_avg:", "", $i); s += $i; n++ } }
             END { printf "%.2f", s / n }' "$TMP/psnr")
    echo "frames: $(wc -l < "$TMP/psnr")"
    echo "mean psnr_avg: $p dB"
    awk -v p="$p" -v lo="$lo" -v hi="$hi" 'BEGIN { ok = p >= lo && p <= hi;
        print "in range [" lo ", " hi "]: " (ok ? "yes" : "no"); exit !ok }'
    ;;
rate)       # -b:v RATE (bits/s) over FRAMES of a lavfi clip: the stream's md5,
            # and its bitrate (packet sizes, the stream's frame rate) within
            # TOL percent of RATE
    src=$1 frames=$2 rate=$3 tol=$4; shift 4
    run_ok ff -f lavfi -i "$src" -frames:v "$frames" -c:v c63 -b:v "$rate" "$@" -f c63 "$TMP/x.c63" &&
        refdec "$TMP/x.c63" ||
        exit 1
    md5 < "$TMP/x.c63"
    bitrate_within "$TMP/x.c63" "$rate" "$tol"
    ;;
twopass)    # -b:v RATE in two passes over FRAMES of a lavfi clip: the first
            # pass's statistics (their line count), the second pass's md5,
            # and its bitrate within TOL percent of RATE
    src=$1 frames=$2 rate=$3 tol=$4; shift 4
    run_ok ff -f lavfi -i "$src" -frames:v "$frames" -c:v c63 -b:v "$rate" -pass 1 \
       -passlogfile "$TMP/log" "$@" -f null - || exit 1
    echo "first pass: $(grep -c '^frame:' "$TMP/log-0.log") frames"
    run_ok ff -f lavfi -i "$src" -frames:v "$frames" -c:v c63 -b:v "$rate" -pass 2 \
       -passlogfile "$TMP/log" "$@" -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    md5 < "$TMP/x.c63"
    bitrate_within "$TMP/x.c63" "$rate" "$tol"
    ;;
twopass-more) # a second pass over more frames than the first: refused at the
            # first frame past them, with what the first pass had
    src=$1
    run_ok ff -f lavfi -i "$src" -frames:v 5 -c:v c63 -b:v 500k -pass 1 -passlogfile "$TMP/log" \
        -f null - || exit 1
    refused -nostdin -hide_banner -f lavfi -i "$src" -frames:v 8 -c:v c63 -b:v 500k -pass 2 \
        -passlogfile "$TMP/log" -f null -
    echo "refused"
    first_error "$CHECKED_ERR"
    ;;
ratewarn)   # -b:v RATE that the scale bounds cannot reach: coded anyway, and
            # the encoder says by how much it missed
    src=$1 frames=$2; shift 2
    run_ok "$FFMPEG" -nostdin -hide_banner -v warning -bitexact -f lavfi -i "$src" -frames:v "$frames" \
        -c:v c63 "$@" -f c63 "$TMP/x.c63" || exit 1
    cp "$CHECKED_ERR" "$TMP/err"
    refdec "$TMP/x.c63" || exit 1
    run_ok "$FFPROBE" -v error -count_packets -show_entries stream=nb_read_packets \
        -of csv=p=0 "$TMP/x.c63" > "$TMP/packets" || exit 1
    echo "frames: $(cat "$TMP/packets")"
    grep -m1 -o 'The stream is .*' "$TMP/err" || { echo "no warning"; exit 1; }
    ;;
rd)         # rate-distortion options on a vector (vector_yuv): the stream's
            # md5, its size, what c63syms (RUN) counts in it and the mean
            # PSNR of its decoding against the input
    name=$1 run=$2; shift 2
    vector_yuv "$name" "$TMP/in.yuv" || exit 1
    in="-f rawvideo -s $(size_of "$name") -pix_fmt yuv420p"
    run_ok ff $in -i "$TMP/in.yuv" -c:v c63 "$@" -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    md5 < "$TMP/x.c63"
    echo "bytes: $(wc -c < "$TMP/x.c63")"
    run_ok "$run" "$TMP/x.c63" > "$TMP/syms" || exit 1
    tail -n 2 "$TMP/syms"
    run_ok "$FFMPEG" -nostdin -hide_banner -i "$TMP/x.c63" $in -i "$TMP/in.yuv" \
        -lavfi "[0:v][1:v]psnr=stats_file=-" -f null - > "$TMP/psnr" || exit 1
    awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^psnr_avg:/) { sub("psnr_avg:", "", $i); s += $i; n++ } }
         END { printf "frames: %d\nmean psnr_avg: %.2f dB\n", n, s / n }' "$TMP/psnr"
    ;;
vbv)        # -b:v RATE with the buffer -maxrate MAX -bufsize SIZE (and
            # -rc_init_occupancy INIT unless 0; MAX = RATE: a constant
            # bitrate) over FRAMES of a lavfi source (or the spliced vector,
            # splice): the stream's md5, its bitrate within TOL percent of
            # RATE (TOL bucket: within the bounds that the leaky bucket
            # sets to any stream it accepts, bucket_within; -: not
            # checked), and the leaky-bucket check of vbv-check.awk
    src=$1 frames=$2 rate=$3 max=$4 size=$5 init=$6 tol=$7; shift 7
    if [ "$src" = splice ]; then
        vector_yuv splice "$TMP/in.yuv" || exit 1
        set -- -f rawvideo -s "$(size_of splice)" -pix_fmt yuv420p -i "$TMP/in.yuv" "$@"
    else
        set -- -f lavfi -i "$src" "$@"
    fi
    [ "$init" = 0 ] || set -- "$@" -rc_init_occupancy "$init"
    run_ok ff "$@" -frames:v "$frames" -c:v c63 -b:v "$rate" -maxrate "$max" -bufsize "$size" \
       -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    md5 < "$TMP/x.c63"
    case $tol in
    -|bucket) ;;
    *) bitrate_within "$TMP/x.c63" "$rate" "$tol" || exit 1 ;;
    esac
    run_ok "$FFPROBE" -v error -show_entries stream=r_frame_rate -of csv=p=0 "$TMP/x.c63" > "$TMP/fr" &&
        run_ok "$FFPROBE" -v error -show_entries packet=size -of csv=p=0 "$TMP/x.c63" > "$TMP/sizes" ||
        exit 1
    if [ "$tol" = bucket ]; then
        echo "frames: $(wc -l < "$TMP/sizes" | tr -d ' ')"
        bucket_within "$TMP/sizes" "$(cat "$TMP/fr")" "$rate" "$max" "$size" "$init" || exit 1
    fi
    awk -f "$(dirname "$0")/vbv-check.awk" -v fps="$(cat "$TMP/fr")" -v rate="$max" -v size="$size" \
        -v init="$init" -v constant="$([ "$rate" = "$max" ] && echo 1 || echo 0)" "$TMP/sizes"
    ;;
vbv-none)   # the check of vbv-check.awk on a stream coded with -b:v RATE but
            # no buffer model, against -maxrate RATE -bufsize SIZE: it must
            # find violations (it would pass streams it cannot judge)
    rate=$1 size=$2
    vector_yuv splice "$TMP/in.yuv" || exit 1
    run_ok ff -f rawvideo -s "$(size_of splice)" -pix_fmt yuv420p -i "$TMP/in.yuv" -c:v c63 -b:v "$rate" \
       -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    run_ok "$FFPROBE" -v error -show_entries packet=size -of csv=p=0 "$TMP/x.c63" > "$TMP/sizes" || exit 1
    awk -f "$(dirname "$0")/vbv-check.awk" -v fps=25/1 -v rate="$rate" -v size="$size" \
        -v constant=1 "$TMP/sizes" && { echo "no violation found"; exit 1; }
    echo "violations found"
    ;;
scenecut)   # scene cuts on a spliced clip (vector_yuv splice) with the options
            # given: the stream's md5, its keyframes and the frames decoded
    vector_yuv splice "$TMP/in.yuv" || exit 1
    run_ok ff -f rawvideo -s "$(size_of splice)" -pix_fmt yuv420p -i "$TMP/in.yuv" -c:v c63 "$@" \
       -f c63 "$TMP/x.c63" || exit 1
    refdec "$TMP/x.c63" || exit 1
    md5 < "$TMP/x.c63"
    kf=$(keyframes "$TMP/x.c63") || exit 1
    echo "keyframes: $kf"
    run_ok ff -i "$TMP/x.c63" -f framecrc - > "$TMP/framecrc" || exit 1
    echo "frames decoded: $(grep -c '^0,' "$TMP/framecrc")"
    ;;
q3)         # c63syms: the luma AC codes of run 0, size 10 (quirk Q3) in the
            # streams of Q3_CLIP at -quality 50, and with the same tables
            # under rate control and the rate-distortion options, which
            # must send none
    run=$1 src=$Q3_CLIP
    i=0
    for o in "-quality 50" "-q:v 2" "-b:v 20M" "-quality 50 -trellis 1" "-quality 50 -mv_rd 1" \
             "-quality 50 -intra_rd 1"; do
        i=$((i + 1))
        run_ok ff -f lavfi -i "$src" -c:v c63 $o -me_range 1 -f c63 "$TMP/x$i.c63" || exit 1
        run_ok "$run" "$TMP/x$i.c63" > "$TMP/syms" || exit 1
        # the reference decoder stops at the first stream's Q3 codes only
        q3=; [ $i = 1 ] && q3=q3
        refdec "$TMP/x$i.c63" $q3 || exit 1
        echo "$o: $(md5 < "$TMP/x$i.c63"), $(tail -n 1 "$TMP/syms")"
    done
    ;;
refuse|refuse-cuda) # invalid options and sizes are refused with a clear
            # message (refuse-cuda: by c63_cuda, before it looks for a device)
    src=$1 enc=c63; shift
    [ $mode = refuse-cuda ] && enc=c63_cuda
    refused -nostdin -hide_banner -f lavfi -i "$src" -frames:v 1 -c:v $enc "$@" -f null -
    echo "refused"
    first_error "$CHECKED_ERR"
    ;;
*)
    echo "unknown mode $mode"; exit 1 ;;
esac
