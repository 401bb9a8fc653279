#!/bin/sh
# c63_cuda benchmark: end-to-end 1080p encode speed of the CUDA encoder
# against the CPU encoder in the same run, per-stage GPU times, and the
# kernel benchmark of checkcuda.
#
#   sh bench/bench-c63cuda.sh [BUILD_DIR] [SHORT] [LONG]
#
# BUILD_DIR defaults to build (ffmpeg and checkcuda are taken from there).
# The input is a 1080p rawvideo file of 200 frames (testsrc2 with moving
# noise, so that motion search and coefficients do real work) in the page
# cache, read in a loop (-stream_loop) for as many frames as a run needs.
# Each case runs twice, for SHORT (default 300) and LONG (default 3300)
# frames:
#   whole process  LONG frames / wall time of the LONG run, start-up and
#                  flush included, as a user sees it;
#   steady state   (LONG - SHORT) frames / difference of the two wall
#                  times: the rate once running, over LONG - SHORT frames.
# The CPU encoder runs CPU_SHORT and CPU_LONG frames (default 100 and 500),
# and the outputs are compared over its frames (a .c63 file of fewer
# frames is a prefix of one of more).
# .c63 output goes to a tmpfs (/dev/shm where there is one).
#
# The CUDA-frame cases are followed by the same graph without the encoder
# (-f null wraps the CUDA frames): the rate the input side alone reaches.
#
# C63_PEER=PATH: also a CUDA Codec63 encoder built beside the project
# (never part of it; its c63enc takes -w W -h H -f FRAMES -o OUT INPUT),
# over the 200 frames of the input once, against c63_cuda over the same
# frames, whole process each.
#
# Then: NVDEC-decoded input (the same pictures as MPEG-4 Part 2, decoded by
# -hwaccel cuda into CUDA frames); real camera footage (bench/camera-clip.sh,
# upscaled to 1080p with noise; skipped without the clip); 3840x2160; 1, 2
# and 4 encoders running at once on the GPU (aggregate frames/s); the device
# memory of one encoder process (nvidia-smi, CUDA context included).

BUILD=${1:-build}
SHORT=${2:-300}
LONG=${3:-3300}
CPU_SHORT=${CPU_SHORT:-100}
CPU_LONG=${CPU_LONG:-500}
FFMPEG=$BUILD/ffmpeg
TMP=${TMPDIR:-/tmp}/bench-c63cuda.$$
OUTDIR=/dev/shm/bench-c63cuda.$$
mkdir -p "$TMP" || exit 1
mkdir -p "$OUTDIR" 2>/dev/null || OUTDIR=$TMP
trap 'rm -rf "$TMP" "$OUTDIR"' EXIT

if ! "$FFMPEG" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
        -frames:v 1 -f null - 2>/dev/null; then
    echo "bench-c63cuda: SKIPPED: no usable CUDA device"
    exit 0
fi

"$FFMPEG" -nostdin -hide_banner -v error -f lavfi \
    -i "testsrc2=s=1920x1080:r=25,noise=alls=8:allf=t" -frames:v 200 \
    -f rawvideo -pix_fmt yuv420p "$TMP/in.yuv" || exit 1
cat "$TMP/in.yuv" > /dev/null
echo "input: 1920x1080 yuv420p rawvideo, 200 frames (testsrc2 + noise) looped; runs of $SHORT and $LONG frames"
echo "output: .c63 to $OUTDIR, or -f null"

now() { date +%s.%N; }

# the input of the runs: rawvideo 1080p by default
INPUT="-stream_loop -1 -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i $TMP/in.yuv"

# one N LOG ARGS...: wall time of one ffmpeg run of N frames
one() {
    n=$1 log=$2; shift 2
    t0=$(now)
    "$FFMPEG" -nostdin -hide_banner $PRE $INPUT -frames:v "$n" "$@" > "$log" 2>&1 ||
        { tail -n 5 "$log" >&2; return 1; }
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'
}

# run LABEL OUTPUT ENCODER-OPTIONS...
run() {
    label=$1 out=$2; shift 2
    if [ "$out" = null ]; then set -- "$@" -f null -; else set -- "$@" -f c63 -y "$OUTDIR/$out"; fi
    ts=$(one "$SHORT" "$TMP/log" "$@") || return 1
    tl=$(one "$LONG" "$TMP/log" "$@") || return 1
    awk -v s="$SHORT" -v l="$LONG" -v ts="$ts" -v tl="$tl" -v lab="$label" 'BEGIN {
        printf "  %-48s %8.1f fps steady  %8.1f fps whole (%d frames in %.2f s)\n",
               lab, (l - s) / (tl - ts), l / tl, l, tl }'
}

# run_cpu: run over CPU_SHORT and CPU_LONG frames (the CPU encoder is slower)
run_cpu() {
    SHORT0=$SHORT LONG0=$LONG SHORT=$CPU_SHORT LONG=$CPU_LONG
    run "$@"
    st=$?
    SHORT=$SHORT0 LONG=$LONG0
    return $st
}

PRE=
echo "end to end, 1920x1080:"
run_cpu "c63 (CPU, $(nproc) threads) -> .c63"         cpu.c63   -c:v c63
run_cpu "c63 (CPU, $(nproc) threads) -> null"         null      -c:v c63
for d in 1 2 4; do
    run "c63_cuda depth $d, rawvideo -> .c63"         gpu$d.c63 -c:v c63_cuda -depth $d
    run "c63_cuda depth $d, rawvideo -> null"         null      -c:v c63_cuda -depth $d
done
run "c63_cuda, CUDA frames (hwupload) -> .c63"   gpuhw.c63 \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload -c:v c63_cuda
run "c63_cuda, CUDA frames (hwupload) -> null"   null \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload -c:v c63_cuda
# the same graph without the encoder (the CUDA frames wrapped, not
# downloaded): what the input side can deliver
run "no encoder: CUDA frames (hwupload) -> null" null \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload

if [ -n "${C63_PEER:-}" ]; then
    echo "the peer ($C63_PEER) and c63_cuda on the 200 frames of the input, once:"
    t0=$(now)
    if "$C63_PEER" -w 1920 -h 1080 -f 200 -o "$OUTDIR/peer.c63" "$TMP/in.yuv" > "$TMP/peer.log" 2>&1; then
        t1=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "  %-48s %8.1f fps whole (200 frames in %.2f s)\n",
                                           "peer -> .c63", 200 / (b - a), b - a }'
    else
        echo "  peer -> .c63: failed"; tail -n 5 "$TMP/peer.log"
    fi
    t0=$(now)
    "$FFMPEG" -nostdin -hide_banner -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p \
        -i "$TMP/in.yuv" -c:v c63_cuda -f c63 -y "$OUTDIR/once.c63" || exit 1
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "  %-48s %8.1f fps whole (200 frames in %.2f s)\n",
                                       "c63_cuda depth 2 -> .c63", 200 / (b - a), b - a }'
fi

same=yes
for f in gpu1 gpu2 gpu4 gpuhw; do
    cmp -s -n "$(wc -c < "$OUTDIR/cpu.c63")" "$OUTDIR/cpu.c63" "$OUTDIR/$f.c63" || same=no
done
echo "c63_cuda output identical to c63 over c63's $CPU_LONG frames, every case: $same"

# NVDEC: the same pictures as MPEG-4 Part 2 (q 2), decoded into CUDA frames
"$FFMPEG" -nostdin -hide_banner -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i "$TMP/in.yuv" \
    -c:v mpeg4 -q:v 2 -g 50 -f avi "$TMP/in.avi" || exit 1
INPUT="-stream_loop -1 -i $TMP/in.avi"
PRE="-hwaccel cuda -hwaccel_output_format cuda"
run "c63_cuda, NVDEC MPEG-4 -> CUDA frames -> .c63"   nvdec.c63 -c:v c63_cuda
run "c63_cuda, NVDEC MPEG-4 -> CUDA frames -> null"   null      -c:v c63_cuda
run "no encoder: NVDEC MPEG-4 -> CUDA frames -> null" null
run_cpu "c63 (CPU), the NVDEC frames downloaded -> .c63" nvdec-cpu.c63 \
    -vf hwdownload,format=nv12,format=yuv420p -c:v c63
PRE=
if cmp -s -n "$(wc -c < "$OUTDIR/nvdec-cpu.c63")" "$OUTDIR/nvdec.c63" "$OUTDIR/nvdec-cpu.c63"; then
    s=yes; else s=no; same=no; fi
echo "c63_cuda on NVDEC frames identical to c63 on the same frames downloaded: $s"

# real camera footage, upscaled to 1080p with fresh noise
CLIP=${CAMERA_CLIP:-$BUILD/clips/vtest.avi}
if [ -r "$CLIP" ]; then
    "$FFMPEG" -nostdin -hide_banner -v error -i "$CLIP" -frames:v 300 \
        -vf "scale=1920:1080:flags=bicubic,noise=alls=3:allf=t,format=yuv420p" \
        -f rawvideo "$TMP/cam.yuv" || exit 1
    INPUT="-stream_loop -1 -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i $TMP/cam.yuv"
    echo "camera footage (vtest.avi, 300 frames upscaled to 1920x1080, looped):"
    run_cpu "c63 (CPU, $(nproc) threads) -> .c63"     cam-cpu.c63 -c:v c63
    run "c63_cuda depth 2, rawvideo -> .c63"          cam-gpu.c63 -c:v c63_cuda
    if cmp -s -n "$(wc -c < "$OUTDIR/cam-cpu.c63")" "$OUTDIR/cam-cpu.c63" "$OUTDIR/cam-gpu.c63"; then
        s=yes; else s=no; same=no; fi
    echo "  identical: $s"
else
    echo "camera footage: skipped (no $CLIP; see bench/camera-clip.sh)"
fi

# 3840x2160: 100 frames of testsrc2 with noise, looped; the CPU encoder
# over fewer frames
"$FFMPEG" -nostdin -hide_banner -v error -f lavfi \
    -i "testsrc2=s=3840x2160:r=25,noise=alls=8:allf=t" -frames:v 100 \
    -f rawvideo -pix_fmt yuv420p "$TMP/uhd.yuv" || exit 1
rm -f "$TMP/cam.yuv" "$TMP/in.avi"
INPUT="-stream_loop -1 -f rawvideo -s 3840x2160 -pix_fmt yuv420p -i $TMP/uhd.yuv"
echo "end to end, 3840x2160:"
run "c63_cuda depth 2, rawvideo -> .c63"              uhd-gpu.c63 -c:v c63_cuda
run "c63_cuda, CUDA frames (hwupload) -> null"   null \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload -c:v c63_cuda
run "no encoder: CUDA frames (hwupload) -> null" null \
    -init_hw_device cuda=gpu -filter_hw_device gpu -vf hwupload
CPU_SHORT0=$CPU_SHORT CPU_LONG0=$CPU_LONG CPU_SHORT=20 CPU_LONG=120
run_cpu "c63 (CPU, $(nproc) threads) -> .c63"         uhd-cpu.c63 -c:v c63
CPU_SHORT=$CPU_SHORT0 CPU_LONG=$CPU_LONG0
rm -f "$TMP/uhd.yuv" "$OUTDIR"/*.c63

# encoders at once: N processes of LONG frames each, c63_cuda depth 2 from
# the 1080p rawvideo to null; aggregate frames/s = N * LONG / wall time
INPUT="-stream_loop -1 -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i $TMP/in.yuv"
echo "encoders at once on one GPU (1920x1080, c63_cuda depth 2 -> null, $LONG frames each):"
for n in 1 2 4; do
    t0=$(now)
    i=0
    while [ $i -lt $n ]; do
        "$FFMPEG" -nostdin -hide_banner $INPUT -frames:v "$LONG" -c:v c63_cuda -f null - \
            > "$TMP/par$i.log" 2>&1 &
        i=$((i + 1))
    done
    wait
    t1=$(now)
    awk -v n=$n -v l=$LONG -v a="$t0" -v b="$t1" 'BEGIN {
        printf "  %d at once: %8.1f fps in all, %8.1f fps each\n", n, n * l / (b - a), l / (b - a) }'
done

# device memory of one encoder process (CUDA context included)
if command -v nvidia-smi > /dev/null 2>&1; then
    "$FFMPEG" -nostdin -hide_banner $INPUT -frames:v 100000 -c:v c63_cuda -f null - \
        > "$TMP/mem.log" 2>&1 &
    pid=$!
    sleep 3
    mem=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits |
          awk -F', *' -v p=$pid '$1 == p { print $2 }')
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
    "$FFMPEG" -nostdin -hide_banner -init_hw_device cuda=gpu -filter_hw_device gpu -f lavfi \
        -i testsrc2=s=64x64 -vf hwupload -frames:v 100000 -f null - > "$TMP/mem0.log" 2>&1 &
    pid=$!
    sleep 3
    mem0=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits |
           awk -F', *' -v p=$pid '$1 == p { print $2 }')
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
    echo "device memory: c63_cuda 1080p depth 2: ${mem:-?} MiB for the process; an ffmpeg holding only a CUDA context and a small frame pool: ${mem0:-?} MiB"
fi

echo "GPU time per stage (CUDA events, c63_cuda depth 2, $LONG frames):"
"$FFMPEG" -nostdin -hide_banner $INPUT -frames:v "$LONG" -c:v c63_cuda -stats_gpu 1 -f null - 2>&1 |
    sed -n '/GPU time over/,/ all /p' | sed 's/^\[[^]]*\] /  /'

if [ -x "$BUILD/checkcuda" ]; then
    echo "kernels (checkcuda --bench):"
    "$BUILD/checkcuda" --bench | sed -n '/^bench/,$p'
fi
[ $same = yes ]
