#!/bin/sh
# Codec63 CUDA encoder FATE test driver, run by fate-run.sh's runlocal from
# the build directory: c63-gpu-test.sh MODE ARGS... SRC_TESTS
#
#   enc NAME INPUT DEPTH   md5 of c63_cuda's output for a stored vector;
#                          INPUT is yuv420p, nv12 (system memory) or cuda
#                          (CUDA frames from hwupload_cuda)
#   nvdec NAME DEPTH       an mpeg4 clip decoded by NVDEC: its CUDA frames
#                          encode with c63_cuda as the same pictures,
#                          downloaded, encode with c63
#   same SOURCE OPTS... [-- GPU_OPTS...]
#                          c63_cuda and c63 give the same bytes for a lavfi
#                          source and encoder options (GPU_OPTS: c63_cuda's
#                          only)
#   samevec NAME OPTS... [-- GPU_OPTS...]
#                          the same for a stored vector

. "$(dirname "$0")/c63-common.sh"

case $mode in
enc)
    name=$1 input=$2 depth=$3
    case $input in
    yuv420p) set -- ;;
    nv12)    set -- -vf format=nv12 ;;
    cuda)    set -- -init_hw_device cuda=gpu -filter_hw_device gpu -vf format=yuv420p,hwupload_cuda ;;
    *) echo "unknown input $input"; exit 1 ;;
    esac
    xz -dc "$SAMPLES/$name.yuv.xz" > "$TMP/in.yuv" || exit 1
    ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i "$TMP/in.yuv" "$@" \
       -c:v c63_cuda -depth "$depth" -f c63 "$TMP/out.c63" || exit 1
    md5 < "$TMP/out.c63"
    ;;
nvdec)
    # NVDEC's MPEG-4 IDCT is not FFmpeg's, so its pictures may differ from
    # the CPU decoder's by a little: the expected output is the c63 (CPU)
    # encoding of NVDEC's own pictures, downloaded to system memory.
    name=$1 depth=$2
    xz -dc "$SAMPLES/$name.yuv.xz" |
        ff -f rawvideo -s "$(size_of "$name")" -pix_fmt yuv420p -i - \
           -c:v mpeg4 -q:v 2 -f avi "$TMP/clip.avi" || exit 1
    ff -hwaccel cuda -hwaccel_output_format cuda -i "$TMP/clip.avi" \
       -vf hwdownload,format=nv12,format=yuv420p -c:v c63 -f c63 "$TMP/cpu.c63" || exit 1
    ff -hwaccel cuda -hwaccel_output_format cuda -i "$TMP/clip.avi" \
       -c:v c63_cuda -depth "$depth" -f c63 "$TMP/gpu.c63" || exit 1
    cpu=$(md5 < "$TMP/cpu.c63") gpu=$(md5 < "$TMP/gpu.c63")
    if [ "$cpu" != "$gpu" ]; then
        echo "differ: c63 $cpu, c63_cuda from NVDEC frames $gpu"
        exit 1
    fi
    echo "identical $gpu"
    ;;
same|samevec)
    # (no spaces in the arguments)
    if [ $mode = same ]; then
        in="-f lavfi -i $1"
    else
        xz -dc "$SAMPLES/$1.yuv.xz" > "$TMP/in.yuv" || exit 1
        in="-f rawvideo -s $(size_of "$1") -pix_fmt yuv420p -i $TMP/in.yuv"
    fi
    shift
    opts= gpu_opts= sep=
    for a; do
        if [ "$a" = -- ]; then sep=1; continue; fi
        if [ -n "$sep" ]; then gpu_opts="$gpu_opts $a"; else opts="$opts $a"; fi
    done
    ff $in -c:v c63 $opts -f c63 "$TMP/cpu.c63" || exit 1
    for d in 1 3; do
        ff $in -c:v c63_cuda -depth $d $opts $gpu_opts -f c63 "$TMP/gpu$d.c63" || exit 1
        cmp -s "$TMP/cpu.c63" "$TMP/gpu$d.c63" ||
            { echo "differ at depth $d: c63 $(md5 < "$TMP/cpu.c63"), c63_cuda $(md5 < "$TMP/gpu$d.c63")"; exit 1; }
    done
    echo "identical $(md5 < "$TMP/cpu.c63")"
    ;;
*)
    echo "unknown mode $mode"; exit 1 ;;
esac
