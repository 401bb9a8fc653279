#!/bin/sh
# Test driver for mestimate_cuda and its CPU twin mestimate, called from
# tests/fate/mestimate.mak. Writes what the reference holds to stdout; exits
# non-zero on any mismatch or unexpected result, and where a program does
# not end as required (tests/fate/checked.sh: a non-zero status, a signal
# or a sanitizer report where it must succeed; anything but a clean refusal
# where it must fail).
#
#   mestimate.sh cpu   MVDUMP SRC FORMAT OPTS [all]
#       SRC,format=FORMAT,mestimate=OPTS: print the side data of every
#       output frame (tests/mvdump: md5 per frame, every vector with 'all').
#   mestimate.sh gpu   MVDUMP SRC FORMAT OPTS [all]
#       the same through hwupload,mestimate_cuda=OPTS: the dump must
#       equal mestimate's byte for byte; prints mestimate's, so the
#       reference is the one the cpu test writes. With MESTIMATE_CPU_ONLY=1
#       only mestimate runs (to write references without a GPU).
#   mestimate.sh draw  FFMPEG SRC FORMAT OPTS
#       codecview=mv=pf+bf after mestimate and after mestimate_cuda,hwdownload:
#       the drawn frames must be identical; prints their framemd5.
#   mestimate.sh error FFMPEG SRC FILTERS [nodevice]
#       expect ffmpeg to refuse cleanly; print the filter's error message. With
#       'nodevice', CUDA sees no device (CUDA_VISIBLE_DEVICES is empty).
#   mestimate.sh sizechange FILTERRUN SRC1 SRC2 OPTS
#       tests/filterrun feeds CUDA frames of SRC1, then of SRC2 (another
#       size) to one graph: mestimate_cuda must refuse them with a message.
#   mestimate.sh help  FFMPEG
#       ffmpeg -h filter=mestimate_cuda

mode=$1 tool=$2
shift 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mestimate.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checked.sh"
CHECKED_ERR=$tmp/stderr

run_ffmpeg() {
    "$tool" -nostdin -nostats -hide_banner -v error -threads 1 "$@"
}

case $mode in
cpu|gpu)
    src=$1 fmt=$2 opts=$3 all=
    [ "$4" = all ] && all=--all
    run_ok "$tool" $all "$src,format=$fmt,mestimate=$opts" > "$tmp/cpu" || exit 1
    if [ "$mode" = gpu ] && [ "$MESTIMATE_CPU_ONLY" != 1 ]; then
        run_ok "$tool" --cuda $all "$src,format=$fmt,hwupload,mestimate_cuda=$opts" \
            > "$tmp/gpu" || exit 1
        if ! cmp -s "$tmp/cpu" "$tmp/gpu"; then
            echo "mestimate_cuda and mestimate differ:"
            diff "$tmp/cpu" "$tmp/gpu" | head -n 20
            exit 1
        fi
    fi
    grep -c 'vectors md5' "$tmp/cpu" | sed 's/^/frames with vectors: /'
    cat "$tmp/cpu"
    ;;
draw)
    src=$1 fmt=$2 opts=$3
    run_ok run_ffmpeg -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "$src" \
        -filter_complex "[0:v]format=$fmt,split[a][b];[a]mestimate=$opts,codecview=mv=pf+bf[ca];[b]hwupload,mestimate_cuda=$opts,hwdownload,format=$fmt,codecview=mv=pf+bf[ga]" \
        -map "[ca]" -bitexact -f framemd5 "$tmp/cpu.md5" \
        -map "[ga]" -bitexact -f framemd5 "$tmp/gpu.md5" || exit 1
    grep -v '^#' "$tmp/cpu.md5" > "$tmp/a"
    grep -v '^#' "$tmp/gpu.md5" > "$tmp/b"
    if ! cmp -s "$tmp/a" "$tmp/b"; then
        echo "codecview draws differently after mestimate_cuda:"
        diff "$tmp/a" "$tmp/b" | head -n 20
        exit 1
    fi
    echo "codecview: identical drawings"
    cat "$tmp/a"
    ;;
error)
    src=$1 filters=$2
    if [ "$3" = nodevice ]; then
        CUDA_VISIBLE_DEVICES=
        export CUDA_VISIBLE_DEVICES
    fi
    if ! run_refused run_ffmpeg -f lavfi -i "$src" -vf "$filters" -f null -; then
        [ "$ran_status" = 0 ] && echo "ffmpeg succeeded, an error was expected"
        exit 1
    fi
    echo "ffmpeg failed as expected:"
    if [ "$3" = nodevice ]; then
        # the CUDA loader's words depend on the driver: only that it failed
        grep -q '^\[CUDA @' "$CHECKED_ERR" && echo "[CUDA] the device could not be created"
        grep '^\[AVFilterGraph' "$CHECKED_ERR" | sed 's/^\[\([A-Za-z]*\) @ [^]]*\]/[\1]/'
    else
        grep '^\[Parsed_\|^Impossible to convert' "$CHECKED_ERR" |
            sed 's/^\[Parsed_\([a-z_0-9]*\)_[0-9]* @ [^]]*\]/[\1]/'
    fi
    ;;
sizechange)
    # CUDA frames of another size from frame 3 on (the ffmpeg command line
    # reconfigures the graph instead, so only a program feeding one graph
    # reaches this check)
    src1=$1 src2=$2 opts=$3
    if ! run_refused "$tool" --cuda --md5 -w 0 -n 5 --then 3 "$src2" "$src1" "mestimate_cuda=$opts" \
            > "$tmp/out"; then
        [ "$ran_status" = 0 ] && echo "filterrun succeeded, an error was expected"
        exit 1
    fi
    echo "filterrun failed as expected after $(wc -l < "$tmp/out") frames:"
    sed 's/^\[Parsed_\([a-z_]*\)_[0-9]* @ [^]]*\]/[\1]/' "$CHECKED_ERR" | grep "^\[mestimate"
    ;;
help)
    run_ok_print "$tool" -hide_banner -h filter=mestimate_cuda || exit 1
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
