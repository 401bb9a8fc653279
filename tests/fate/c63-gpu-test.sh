#!/bin/sh
# Codec63 CUDA encoder FATE test driver, run by fate-run.sh's runlocal from
# the build directory: c63-gpu-test.sh MODE ARGS... SRC_TESTS
#
#   enc NAME INPUT DEPTH   md5 of c63_cuda's output for a stored vector;
#                          INPUT is yuv420p, nv12 (system memory) or cuda
#                          (CUDA frames from hwupload)
#   nvdec NAME DEPTH       an mpeg4 clip decoded by NVDEC: its CUDA frames
#                          encode with c63_cuda as the same pictures,
#                          downloaded, encode with c63
#   same SOURCE OPTS... [-- GPU_OPTS...]
#                          c63_cuda (at depth 1 and 3; 1 and 2 with -b:v)
#                          and c63 give the same bytes for a lavfi source
#                          (q3clip: Q3_CLIP of c63-common.sh) and encoder
#                          options (GPU_OPTS: c63_cuda's only)
#   samevec NAME OPTS... [-- GPU_OPTS...]
#                          the same for a stored vector (or splice:
#                          vector_yuv of c63-common.sh)
#   twopass SOURCE RATE    -b:v RATE in two passes: c63_cuda's first pass
#                          gives c63's statistics and stream, its second
#                          pass on them c63's stream
#   oom c63_cuda|cudadiff CUDAHOG
#                          real out-of-device-memory: tests/cudahog takes
#                          all but L MiB of the device's memory, for L of 0,
#                          1024, 2048 and 3072, then halving the step near
#                          where memory ran out, and ffmpeg runs
#                          c63_cuda (3840x2160, -depth 4, c63's output as
#                          the good one) or cudadiff under it. Each run must
#                          end by itself, not by a signal, and either fail
#                          with a message and a prefix of the good output or
#                          succeed with exactly the good output, and make
#                          no sanitizer report; some runs
#                          must fail (c63_cuda: with c63_cuda's own message)
#                          and some succeed, so that the sweep crossed the
#                          point where memory ran out. Each run's outcome
#                          goes to stderr. These tests take the whole
#                          device: the GPU bundle runs them alone.
#   sharedctx              three c63_cuda outputs of one process from
#                          system memory: two on the GPU's primary context
#                          (the default: one context, shared), one with
#                          -primary_ctx 0 on a context of its own, each
#                          c63's bytes; -gpu and -primary_ctx where the
#                          device is given (CUDA frames) are refused
#   split GPUS OPTS...     split_join of c63-common.sh with c63_cuda, the
#                          parts on GPUS devices in turn

#
# The decoder's CUDA hwaccel (-hwaccel cuda):
#   hwdec NAME cuda|sys    md5 of a stored vector decoded on the GPU, into
#                          CUDA frames (downloaded) or system memory: the
#                          CPU decoder's (the reference decoder's) md5
#   hwcont FMT NAME        md5 of a stored vector remuxed (-c copy) into
#                          the container FMT (matroska, nut, avi) and
#                          decoded on the GPU into CUDA frames: the CPU
#                          decoder's md5 of the raw stream
#   hwsame SOURCE OPTS...  a lavfi SOURCE (or splice: vector_yuv splice)
#                          encoded by c63 with OPTS decodes on the GPU to
#                          the CPU decoder's pictures
#   hwchunk                chunk_stream of c63-common.sh (the EOI marker
#                          where an unstuffing chunk starts) decodes on the
#                          GPU to the CPU decoder's pictures of its plain
#                          frames
#   hwbad CASE             hostile input: the GPU decoding refuses what the
#                          CPU decoder refuses, with the same first message
#                          (-xerror), and gives the same good frames
#                          without -xerror
#   hwpipe FILTER          c63 -> GPU decoding -> FILTER -> c63_cuda gives
#                          the bytes of c63 -> CPU decoding -> hwupload ->
#                          FILTER -> c63_cuda (cudadiff: -> framediff)

. "$(dirname "$0")/c63-common.sh"

HW="-hwaccel cuda -hwaccel_output_format cuda"

# hw_md5 IN [DEC_OPTS...]: the md5 of IN's pictures decoded on the GPU
# into CUDA frames, downloaded
hw_md5() {
    in=$1; shift
    ff_md5 $HW "$@" -i "$in" -vf hwdownload,format=yuv420p -f rawvideo -pix_fmt yuv420p -
}

# same_decoding CPU_IN GPU_IN: GPU_IN decoded on the GPU gives the pictures
# of CPU_IN decoded on the CPU
same_decoding() {
    cpu=$(ff_md5 -i "$1" -f rawvideo -pix_fmt yuv420p -) || return 1
    gpu=$(hw_md5 "$2") || return 1
    [ "$cpu" = "$gpu" ] || { echo "CPU $cpu, GPU $gpu"; return 1; }
    echo "GPU decoding identical"
}

case $mode in
hwdec)
    name=$1 out=$2
    case $out in
    cuda) hw_md5 "$SAMPLES/$name.c63" ;;
    sys)  ff_md5 -hwaccel cuda -i "$SAMPLES/$name.c63" -f rawvideo -pix_fmt yuv420p - ;;
    *) echo "unknown output $out"; exit 1 ;;
    esac
    ;;
hwcont)
    fmt=$1 name=$2
    run_ok ff -i "$SAMPLES/$name.c63" -c copy -f "$fmt" "$TMP/in.$fmt" || exit 1
    # each frame once (AVI stores the raw stream's frames on a finer clock)
    ff_md5 $HW -i "$TMP/in.$fmt" -vf hwdownload,format=yuv420p -fps_mode passthrough \
        -f rawvideo -pix_fmt yuv420p -
    ;;
hwsame)
    src=$1; shift
    if [ "$src" = splice ]; then    # vector_yuv splice: scene cuts at 30 and 50
        vector_yuv splice "$TMP/in.yuv" || exit 1
        run_ok ff -f rawvideo -s "$(size_of splice)" -pix_fmt yuv420p -i "$TMP/in.yuv" -c:v c63 "$@" \
            -f c63 "$TMP/in.c63" || exit 1
    else
        run_ok ff -f lavfi -i "$src" -c:v c63 "$@" -f c63 "$TMP/in.c63" || exit 1
    fi
    same_decoding "$TMP/in.c63" "$TMP/in.c63"
    ;;
hwchunk)
    chunk_stream "$TMP/in.c63" "$TMP/plain.c63" || exit 1
    same_decoding "$TMP/plain.c63" "$TMP/in.c63"
    ;;
hwbad)
    bad_stream "$1" "$TMP/in.c63"
    case $? in 0) ;; 2) echo "unknown case $1"; exit 1 ;; *) exit 1 ;; esac
    for dev in cpu gpu; do
        hwin= vf=
        [ $dev = gpu ] && hwin=$HW vf="-vf hwdownload,format=yuv420p"
        if ! run_refused "$FFMPEG" -nostdin -nostats -hide_banner -xerror $hwin -f c63 -i "$TMP/in.c63" \
                -f null - > /dev/null; then
            [ "$ran_status" = 0 ] && echo "$dev: accepted"
            exit 1
        fi
        first_error "$CHECKED_ERR" > "$TMP/err.$dev"
        run_no_crash "$FFMPEG" -nostdin -nostats -hide_banner $hwin -f c63 -i "$TMP/in.c63" $vf \
            -f rawvideo -pix_fmt yuv420p "$TMP/out.$dev" 2> /dev/null || exit 1
    done
    cmp -s "$TMP/err.cpu" "$TMP/err.gpu" ||
        { echo "first errors differ: CPU: $(cat "$TMP/err.cpu"); GPU: $(cat "$TMP/err.gpu")"; exit 1; }
    cmp -s "$TMP/out.cpu" "$TMP/out.gpu" || { echo "the good frames differ"; exit 1; }
    echo "refused alike: $(cat "$TMP/err.cpu")"
    echo "good frames identical: $(md5 < "$TMP/out.cpu")"
    ;;
hwpipe)
    filter=$1
    vector_in cif_testsrc2 "$TMP/in.yuv" || exit 1
    run_ok ff -f rawvideo -s 352x288 -pix_fmt yuv420p -i "$TMP/in.yuv" -c:v c63 -f c63 "$TMP/in.c63" ||
        exit 1
    case $filter in
    scale_cuda)    vf=scale_cuda=w=176:h=144 enc="-c:v c63_cuda -f c63" ;;
    drawtext_cuda) font=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
                   vf="drawtext_cuda=fontfile=$font:text=c63:fontsize=40:x=10:y=20"
                   enc="-c:v c63_cuda -f c63" ;;
    cudadiff)      vf=cudadiff=threshold=8 enc="-c:v framediff -f nut" ;;
    *) echo "unknown filter $filter"; exit 1 ;;
    esac
    run_ok ff -init_hw_device cuda=gpu -filter_hw_device gpu -i "$TMP/in.c63" \
        -vf "hwupload,$vf" $enc "$TMP/cpu.out" || exit 1
    run_ok ff $HW -i "$TMP/in.c63" -vf "$vf" $enc "$TMP/gpu.out" || exit 1
    cmp -s "$TMP/cpu.out" "$TMP/gpu.out" || { echo "the outputs differ"; exit 1; }
    echo "c63 -> GPU decoding -> $filter: identical to the CPU decoding's"
    ;;
split)
    gpus=$1; shift
    split_join c63_cuda "$gpus" "$@" || exit 1
    ;;
sharedctx)
    vector_in cif_testsrc2 "$TMP/in.yuv" || exit 1
    set -- -f rawvideo -s 352x288 -pix_fmt yuv420p -i "$TMP/in.yuv"
    run_ok ff "$@" -c:v c63 -f c63 "$TMP/cpu.c63" || exit 1
    run_ok ff -v verbose "$@" -map 0 -c:v c63_cuda -f c63 "$TMP/a.c63" \
        -map 0 -c:v c63_cuda -f c63 "$TMP/b.c63" \
        -map 0 -c:v c63_cuda -primary_ctx 0 -f c63 "$TMP/c.c63" 2> /dev/null || exit 1
    primary=$(grep -c 'Using CUDA primary device context' "$CHECKED_ERR")
    private=$(grep -c 'Disabling use of CUDA primary device context' "$CHECKED_ERR")
    [ "$primary" = 2 ] && [ "$private" = 1 ] ||
        { echo "contexts: $primary primary (2 expected), $private of their own (1 expected)"; exit 1; }
    for out in a b c; do
        cmp -s "$TMP/cpu.c63" "$TMP/$out.c63" || { echo "output $out differs from c63's"; exit 1; }
    done
    echo "two outputs on the primary context, one on its own: c63's bytes"
    for opt in "-gpu 0" "-primary_ctx 1"; do
        run_refused ff -init_hw_device cuda=gpu -filter_hw_device gpu "$@" -vf hwupload \
            -c:v c63_cuda $opt -f null - || exit 1
        grep -q 'apply only when the encoder opens its own device' "$CHECKED_ERR" ||
            { echo "$opt with CUDA frames: $(cat "$CHECKED_ERR")"; exit 1; }
        echo "$opt with CUDA frames: refused"
    done
    ;;
enc)
    name=$1 input=$2 depth=$3
    case $input in
    yuv420p) set -- ;;
    nv12)    set -- -vf format=nv12 ;;
    cuda)    set -- -init_hw_device cuda=gpu -filter_hw_device gpu -vf format=yuv420p,hwupload ;;
    *) echo "unknown input $input"; exit 1 ;;
    esac
    vector_in "$name" "$TMP/in.yuv" || exit 1
    run_ok ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i "$TMP/in.yuv" "$@" \
       -c:v c63_cuda -depth "$depth" -f c63 "$TMP/out.c63" || exit 1
    refdec "$TMP/out.c63" || exit 1
    md5 < "$TMP/out.c63"
    ;;
nvdec)
    # NVDEC's MPEG-4 IDCT is not FFmpeg's, so its pictures may differ from
    # the CPU decoder's by a little: the expected output is the c63 (CPU)
    # encoding of NVDEC's own pictures, downloaded to system memory.
    name=$1 depth=$2
    vector_in "$name" "$TMP/in.yuv" || exit 1
    run_ok ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i "$TMP/in.yuv" \
       -c:v mpeg4 -q:v 2 -f avi "$TMP/clip.avi" || exit 1
    run_ok ff -hwaccel cuda -hwaccel_output_format cuda -i "$TMP/clip.avi" \
       -vf hwdownload,format=nv12,format=yuv420p -c:v c63 -f c63 "$TMP/cpu.c63" || exit 1
    run_ok ff -hwaccel cuda -hwaccel_output_format cuda -i "$TMP/clip.avi" \
       -c:v c63_cuda -depth "$depth" -f c63 "$TMP/gpu.c63" || exit 1
    cpu=$(md5 < "$TMP/cpu.c63") gpu=$(md5 < "$TMP/gpu.c63")
    if [ "$cpu" != "$gpu" ]; then
        echo "differ: c63 $cpu, c63_cuda from NVDEC frames $gpu"
        exit 1
    fi
    refdec "$TMP/gpu.c63" || exit 1
    echo "identical $gpu"
    ;;
same|samevec)
    # (no spaces in the arguments)
    if [ $mode = same ]; then
        src=$1
        [ "$src" = q3clip ] && src=$Q3_CLIP
        in="-f lavfi -i $src"
    else
        vector_yuv "$1" "$TMP/in.yuv" || exit 1
        in="-f rawvideo -s $(size_of "$1") -pix_fmt yuv420p -i $TMP/in.yuv"
    fi
    shift
    opts= gpu_opts= sep=
    for a; do
        if [ "$a" = -- ]; then sep=1; continue; fi
        if [ -n "$sep" ]; then gpu_opts="$gpu_opts $a"; else opts="$opts $a"; fi
    done
    run_ok ff $in -c:v c63 $opts -f c63 "$TMP/cpu.c63" || exit 1
    # (c63_cuda's streams below must be these bytes)
    refdec "$TMP/cpu.c63" || exit 1
    # -b:v takes depths up to 2 only
    depths="1 3"
    case " $opts " in *" -b:v "*) depths="1 2" ;; esac
    for d in $depths; do
        run_ok ff $in -c:v c63_cuda -depth $d $opts $gpu_opts -f c63 "$TMP/gpu$d.c63" || exit 1
        cmp -s "$TMP/cpu.c63" "$TMP/gpu$d.c63" ||
            { echo "differ at depth $d: c63 $(md5 < "$TMP/cpu.c63"), c63_cuda $(md5 < "$TMP/gpu$d.c63")"; exit 1; }
    done
    echo "identical $(md5 < "$TMP/cpu.c63")"
    ;;
twopass)
    # -b:v RATE in two passes over a lavfi source: c63_cuda's first pass
    # writes c63's statistics and stream, and its second pass (depth 1
    # and 2) on those statistics c63's stream
    src=$1 rate=$2
    for e in c63 c63_cuda; do
        run_ok ff -f lavfi -i "$src" -c:v $e -b:v "$rate" -pass 1 -passlogfile "$TMP/$e" \
           -f c63 "$TMP/$e-1.c63" || exit 1
    done
    cmp -s "$TMP/c63-0.log" "$TMP/c63_cuda-0.log" || { echo "first-pass statistics differ"; exit 1; }
    cmp -s "$TMP/c63-1.c63" "$TMP/c63_cuda-1.c63" || { echo "first-pass streams differ"; exit 1; }
    run_ok ff -f lavfi -i "$src" -c:v c63 -b:v "$rate" -pass 2 -passlogfile "$TMP/c63" \
        -f c63 "$TMP/cpu.c63" || exit 1
    refdec "$TMP/cpu.c63" || exit 1
    for d in 1 2; do
        run_ok ff -f lavfi -i "$src" -c:v c63_cuda -depth $d -b:v "$rate" -pass 2 -passlogfile "$TMP/c63" \
           -f c63 "$TMP/gpu$d.c63" || exit 1
        cmp -s "$TMP/cpu.c63" "$TMP/gpu$d.c63" ||
            { echo "second passes differ at depth $d: c63 $(md5 < "$TMP/cpu.c63"), c63_cuda $(md5 < "$TMP/gpu$d.c63")"; exit 1; }
    done
    echo "identical $(md5 < "$TMP/cpu.c63")"
    ;;
oom)
    what=$1 hog=$2
    src="testsrc2=s=3840x2160:r=25,noise=alls=20:allf=t,trim=end_frame=4"
    case $what in
    c63_cuda)
        run_ok ff -f lavfi -i "$src" -c:v c63 -f c63 "$TMP/good" || exit 1
        set -- -f lavfi -i "$src" -c:v c63_cuda -depth 4 -f c63
        ours='^\[c63_cuda @' ;;
    cudadiff)
        run_ok ff -f lavfi -i "$src" -vf format=yuv420p,framediff -f rawvideo "$TMP/good" || exit 1
        set -- -init_hw_device cuda=gpu -filter_hw_device gpu -f lavfi -i "$src" \
            -vf format=yuv420p,hwupload,cudadiff,hwdownload,format=yuv420p -f rawvideo
        ours='cudadiff\|hwupload\|CUDA' ;;
    *) echo "unknown oom case $what"; exit 1 ;;
    esac
    ok=0 refused=0 ours_refused=0
    # oom_run L: one run with all but L MiB taken; sets last=ok or refused,
    # or fails the test
    oom_run() {
        leave=$1
        shift
        rm -f "$TMP/out"
        timeout 60 "$hog" $leave "$FFMPEG" -nostdin -hide_banner -v error -xerror -bitexact \
            "$@" "$TMP/out" > "$TMP/log" 2>&1
        status=$?
        msg=$(grep -v '^cudahog:' "$TMP/log" | head -n 1)
        echo "oom $what, $leave MiB left: exit $status: $(grep '^cudahog:' "$TMP/log") ${msg:-(no message)}" >&2
        if [ $status -eq 125 ]; then
            echo "cudahog could not take the device's memory:"; cat "$TMP/log"; exit 1
        elif [ $status -eq 124 ]; then
            echo "$leave MiB left: ffmpeg did not end within 60 s"; exit 1
        elif [ $status -ne 0 ] && ! own_error $status; then
            # (ffmpeg's own error statuses, such as 187, are not signals)
            echo "$leave MiB left: ffmpeg $(ended $status)"; cat "$TMP/log" >&2; exit 1
        elif sanitizer_report "$TMP/log"; then
            echo "$leave MiB left: a sanitizer report (exit status $status)"; cat "$TMP/log" >&2; exit 1
        elif [ $status -eq 0 ]; then
            cmp -s "$TMP/out" "$TMP/good" ||
                { echo "$leave MiB left: exit 0, but the output is not the good one"; exit 1; }
            ok=$((ok + 1)) last=ok
        else
            [ -n "$msg" ] || { echo "$leave MiB left: exit $status without a message"; exit 1; }
            if [ -s "$TMP/out" ] && ! cmp -s -n "$(wc -c < "$TMP/out")" "$TMP/out" "$TMP/good"; then
                echo "$leave MiB left: failed, and the output is not a prefix of the good one"; exit 1
            fi
            refused=$((refused + 1)) last=refused
            grep -q "$ours" "$TMP/log" && ours_refused=$((ours_refused + 1))
        fi
    }
    # 0 to 3072 MiB left in steps of 1024, then halving the step between
    # the last run that ran out and the first that did not, down to 64 MiB:
    # the runs near the limit are where allocations fail at different places
    lo=-1 hi=-1
    for l in 0 1024 2048 3072; do
        oom_run $l "$@"
        if [ $last = refused ]; then lo=$l; elif [ $hi -lt 0 ]; then hi=$l; fi
    done
    if [ $lo -ge 0 ] && [ $hi -gt $lo ]; then
        while [ $((hi - lo)) -gt 64 ]; do
            mid=$(((lo + hi) / 2))
            oom_run $mid "$@"
            if [ $last = refused ]; then lo=$mid; else hi=$mid; fi
        done
    fi
    [ $refused -gt 0 ] || { echo "no run ran out of memory: the sweep did not reach the limit"; exit 1; }
    [ $ok -gt 0 ] || { echo "no run succeeded: the sweep did not reach enough memory"; exit 1; }
    [ $ours_refused -gt 0 ] || { echo "no run was refused with $what's own message"; exit 1; }
    echo "$what with the device's memory taken: every run ended cleanly; some ran out of memory and said so, some gave the good output"
    ;;
ctxnodevice)
    # no device: tests/cudactx must say so and fail (with a status of its
    # own, no sanitizer report)
    run_refused env CUDA_VISIBLE_DEVICES= "$1" > "$TMP/out" ||
        { echo "cudactx without a device: $(ended $ran_status)"; exit 1; }
    if [ $ran_status -ne 1 ] || ! grep -q 'cannot create the CUDA contexts' "$CHECKED_ERR"; then
        echo "cudactx without a device: exit $ran_status, $(cat "$TMP/out" "$CHECKED_ERR")"
        exit 1
    fi
    echo "cudactx without a device: exit 1, cannot create the CUDA contexts"
    ;;
hognodevice)
    # no device (CUDA sees none, or there is no driver): cudahog must refuse
    # with its own exit status and not run the command
    run_refused env CUDA_VISIBLE_DEVICES= "$1" 0 sh -c 'echo the command ran' > "$TMP/out" ||
        { echo "cudahog without a device: $(ended $ran_status)"; exit 1; }
    if [ $ran_status -ne 125 ] || [ -s "$TMP/out" ] || ! grep -q 'command not run' "$CHECKED_ERR"; then
        echo "cudahog without a device: exit $ran_status, output '$(cat "$TMP/out")', $(cat "$CHECKED_ERR")"
        exit 1
    fi
    echo "cudahog without a device: exit 125, command not run"
    ;;
*)
    echo "unknown mode $mode"; exit 1 ;;
esac
