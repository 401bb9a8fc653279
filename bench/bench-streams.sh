#!/bin/sh
# Many streams on one GPU: aggregate frames/s of c63_cuda encoding and of
# c63 decoding on the GPU, whole processes, in one run:
#
#   sh bench/bench-streams.sh [BUILD_DIR] [FRAMES]
#
# The input is 1080p testsrc2 with moving noise (200 frames, rawvideo, in
# a tmpfs) read in a loop; each stream codes FRAMES frames (default 1500).
# Encoding, default options and then the rate-distortion options
# (-tables flat -trellis 2 -mv_rd 1 -intra_rd 1):
#   1 process, 1 output;
#   1 process, 4 outputs, each encoder on a context of its own
#     (-primary_ctx 0: what the encoder did before it shared the GPU's
#     primary context);
#   1 process, 4 and 8 outputs (the default: one context, shared);
#   1 process, 4 and 8 outputs on a device given by -init_hw_device and
#     -filter_hw_device, CUDA frames from one hwupload split among them
#     (one upload a frame instead of one an encoder);
#   8 processes of 1 output (one context each, time-sliced by the device);
#   8 processes under MPS (nvidia-cuda-mps-control, started and stopped
#     here with its pipe and log folders in a temporary folder; skipped,
#     saying why, where it cannot start).
# Decoding on the GPU (-hwaccel cuda into CUDA frames, to null) of the
# same pictures coded by c63_cuda: 1 process with 1, 4, 8 and 16 inputs (one
# device for all), 8 processes, and 8 processes under MPS.
# Every encoder output is compared with the single output's (the same
# bytes whatever shares the GPU).
# With two GPUs or more: 2 processes of 8 encoder outputs (default
# options, to null) and of 8 GPU decodings, both on GPU 0, then one on
# GPU 0 and one on GPU 1 (-gpu; for the decodings one device,
# -init_hw_device cuda=g:N, that the inputs name with -hwaccel_device g: a
# number there makes the ffmpeg CLI create a device, a context, for each
# input).

BUILD=${1:-build}
FRAMES=${2:-1500}
FFMPEG=$BUILD/ffmpeg
TMP=${TMPDIR:-/tmp}/bench-streams.$$
SHM=/dev/shm/bench-streams.$$
mkdir -p "$TMP" || exit 1
mkdir -p "$SHM" 2>/dev/null || SHM=$TMP
MPS_PIPE=$TMP/mps-pipe MPS_LOG=$TMP/mps-log
mps_on=
stop_mps() {
    [ -n "$mps_on" ] && echo quit | CUDA_MPS_PIPE_DIRECTORY=$MPS_PIPE nvidia-cuda-mps-control
    mps_on=
}
trap 'stop_mps; rm -rf "$TMP" "$SHM"' EXIT

if ! "$FFMPEG" -hide_banner -v error -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 \
        -frames:v 1 -f null - 2>/dev/null; then
    echo "bench-streams: SKIPPED: no usable CUDA device"
    exit 0
fi

"$FFMPEG" -nostdin -hide_banner -v error -f lavfi \
    -i "testsrc2=s=1920x1080:r=25,noise=alls=8:allf=t" -frames:v 200 \
    -f rawvideo -pix_fmt yuv420p "$SHM/in.yuv" || exit 1
"$FFMPEG" -nostdin -hide_banner -v error -f rawvideo -s 1920x1080 -pix_fmt yuv420p \
    -i "$SHM/in.yuv" -c:v c63_cuda "$SHM/in.c63" || exit 1
LOOPS=$(( (FRAMES + 199) / 200 ))
IN="-stream_loop $LOOPS -f rawvideo -s 1920x1080 -pix_fmt yuv420p -i $SHM/in.yuv"
RD="-tables flat -trellis 2 -mv_rd 1 -intra_rd 1"
echo "input: 1920x1080 testsrc2 + noise, 200 frames looped; $FRAMES frames a stream; whole processes"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'

now() { date +%s.%N; }
# rate STREAMS T0 T1: aggregate frames/s
rate() { echo "$1 $2 $3 $FRAMES" | awk '{ printf "%.0f", $1 * $4 / ($3 - $2) }'; }

# each N WORDS...: WORDS N times, each %i replaced by 0, 1 .. N - 1
each() {
    n=$1; shift
    i=0
    while [ $i -lt $n ]; do
        echo "$*" | sed "s/%i/$i/g"
        i=$((i + 1))
    done
}
# outputs N OPTS: N encoder outputs of one process, each -frames:v FRAMES
outputs() { n=$1; shift; each "$n" "-map 0 -frames:v $FRAMES -c:v c63_cuda $* -f c63 $SHM/out%i.c63"; }
# uploaded N OPTS: one hwupload split into N encoder outputs
uploaded() {
    n=$1; shift
    echo "-filter_complex [0:v]hwupload,split=$n$(each "$n" "[v%i]" | tr -d '\n')"
    each "$n" "-map [v%i] -frames:v $FRAMES -c:v c63_cuda $* -f c63 $SHM/out%i.c63"
}
same_bytes() {     # the outputs 0..N-1 against ref.c63
    i=0
    while [ $i -lt $1 ]; do
        cmp -s "$SHM/ref.c63" "$SHM/out$i.c63" || { echo "DIFFERS (output $i)"; return; }
        i=$((i + 1))
    done
    echo "same bytes"
}
ff() { "$FFMPEG" -nostdin -hide_banner -v error -y "$@"; }

# a case: LABEL STREAMS COMMAND...; prints the aggregate
one_process() {
    label=$1 n=$2; shift 2
    t0=$(now)
    "$@" || { echo "| $label | FAILED |"; return; }
    t1=$(now)
    echo "| $label | $(rate "$n" "$t0" "$t1") | $(same_bytes "$n") |"
}
processes() {      # LABEL N OPTS: N processes of one output each
    label=$1 n=$2; shift 2
    t0=$(now)
    i=0
    while [ $i -lt $n ]; do
        ff $IN -frames:v "$FRAMES" -c:v c63_cuda "$@" -f c63 "$SHM/out$i.c63" &
        i=$((i + 1))
    done
    wait
    t1=$(now)
    echo "| $label | $(rate "$n" "$t0" "$t1") | $(same_bytes "$n") |"
}
start_mps() {
    command -v nvidia-cuda-mps-control > /dev/null || { echo "MPS: nvidia-cuda-mps-control not found"; return 1; }
    mkdir -p "$MPS_PIPE" "$MPS_LOG"
    CUDA_MPS_PIPE_DIRECTORY=$MPS_PIPE CUDA_MPS_LOG_DIRECTORY=$MPS_LOG nvidia-cuda-mps-control -d ||
        { echo "MPS: the daemon did not start"; return 1; }
    mps_on=1
    export CUDA_MPS_PIPE_DIRECTORY=$MPS_PIPE CUDA_MPS_LOG_DIRECTORY=$MPS_LOG
    if ! ff -init_hw_device cuda=gpu -f lavfi -i testsrc2=s=16x16 -frames:v 1 -f null - 2> "$TMP/mps.err"; then
        echo "MPS: a client cannot start ($(tail -n 1 "$TMP/mps.err"))"
        unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
        stop_mps
        return 1
    fi
}

for mode in default rd; do
    opts=
    [ $mode = rd ] && opts=$RD
    echo
    echo "encoding, ${mode} options ($opts)"
    echo "| how the streams run | frames/s in all | output |"
    echo "| --- | --- | --- |"
    ff $IN -frames:v "$FRAMES" -c:v c63_cuda $opts -f c63 "$SHM/ref.c63" || exit 1
    one_process "1 process, 1 output" 1 ff $IN $(outputs 1 $opts)
    one_process "1 process, 4 outputs, a context each (-primary_ctx 0)" 4 ff $IN $(outputs 4 $opts -primary_ctx 0)
    one_process "1 process, 4 outputs (one context, shared)" 4 ff $IN $(outputs 4 $opts)
    one_process "1 process, 8 outputs (one context, shared)" 8 ff $IN $(outputs 8 $opts)
    for n in 4 8; do
        one_process "1 process, $n outputs of one upload (-init_hw_device, -filter_hw_device, hwupload, split)" $n \
            ff -init_hw_device cuda=gpu -filter_hw_device gpu $IN $(uploaded $n $opts)
    done
    processes "8 processes" 8 $opts
    if start_mps; then
        processes "8 processes under MPS" 8 $opts
        stop_mps
        unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    fi
done

# decoding: N inputs of one process, or N processes
DEC="-hwaccel cuda -hwaccel_output_format cuda -stream_loop $LOOPS -i $SHM/in.c63"
dec_inputs() { each "$1" "$DEC"; each "$1" "-map %i:v -frames:v $FRAMES -f null -"; }
dec_case() {       # LABEL STREAMS COMMAND...
    label=$1 n=$2; shift 2
    t0=$(now)
    "$@" || { echo "| $label | FAILED |"; return; }
    t1=$(now)
    echo "| $label | $(rate "$n" "$t0" "$t1") |"
}
dec_processes() {
    label=$1 n=$2
    t0=$(now)
    i=0
    while [ $i -lt $n ]; do
        ff $DEC -frames:v "$FRAMES" -f null - &
        i=$((i + 1))
    done
    wait
    t1=$(now)
    echo "| $label | $(rate "$n" "$t0" "$t1") |"
}
echo
echo "decoding on the GPU (c63_cuda's stream of the input, $(( $(stat -c %s "$SHM/in.c63") / 200 / 1000 )) KB a frame)"
echo "| how the streams run | frames/s in all |"
echo "| --- | --- |"
for n in 1 4 8 16; do
    dec_case "1 process, $n input(s)" $n ff $(dec_inputs $n)
done
dec_processes "8 processes" 8
if start_mps; then
    dec_processes "8 processes under MPS" 8
    stop_mps
fi

ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$ngpu" -ge 2 ] || exit 0
echo
echo "two GPUs: 2 processes, each 8 encoder outputs (default options, to null) or 8 GPU decodings"
echo "| GPUs of the two processes | encoding, frames/s in all | decoding, frames/s in all |"
echo "| --- | --- | --- |"
for devs in "0 0" "0 1"; do
    t0=$(now)
    for d in $devs; do
        ff $IN $(each 8 "-map 0 -frames:v $FRAMES -c:v c63_cuda -gpu $d -f null -") &
    done
    wait
    t1=$(now)
    enc=$(rate 16 "$t0" "$t1")
    t0=$(now)
    for d in $devs; do
        ff -init_hw_device cuda=g:$d \
            $(each 8 "-hwaccel cuda -hwaccel_device g -hwaccel_output_format cuda -stream_loop $LOOPS -i $SHM/in.c63") \
            $(each 8 "-map %i:v -frames:v $FRAMES -f null -") &
    done
    wait
    t1=$(now)
    echo "| $devs | $enc | $(rate 16 "$t0" "$t1") |"
done
