#!/bin/sh
# The README's NVDEC pipelines against their CPU twins (FATE, GPU), run by
# fate-run.sh's runlocal from the build directory:
#
#   pipelines-gpu.sh drawtext-c63 DEPTH SRC_TESTS
#       NVDEC -> drawtext_cuda -> c63_cuda, against the CPU decoder ->
#       drawtext -> c63 on the same H.264 file: the same bytes
#   pipelines-gpu.sh nvenc SRC_TESTS
#       NVDEC -> drawtext_cuda -> h264_nvenc: on a GPU with NVENC the
#       stream decodes to as many frames as went in; on one without (an
#       H100 has none) ffmpeg must fail with NVENC's own message saying so
#
# The input is tests/fate/samples/h264.mp4 (tools/make-h264-sample.sh); the font of
# the text is $DRAWTEXT_FONT (Debian's DejaVuSans.ttf by default).

. "$(dirname "$0")/c63-common.sh"

IN=$SAMPLES/h264.mp4
FONT=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
TEXT="drawtext=fontfile=$FONT:text='frame %{frame_num}':fontcolor=white:fontsize=24:box=1:boxcolor=black@0.5:x=8:y=8"
NVDEC="-hwaccel cuda -hwaccel_output_format cuda"

case $mode in
drawtext-c63)
    depth=$1
    run_ok ff -i "$IN" -an -vf "format=nv12,$TEXT,format=yuv420p" -c:v c63 -f c63 "$TMP/cpu.c63" || exit 1
    run_ok ff $NVDEC -i "$IN" -an -vf "${TEXT%%=*}_cuda=${TEXT#*=}" -c:v c63_cuda -depth "$depth" \
       -f c63 "$TMP/gpu.c63" || exit 1
    cpu=$(md5 < "$TMP/cpu.c63") gpu=$(md5 < "$TMP/gpu.c63")
    run_ok "$FFPROBE" -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 \
        "$TMP/gpu.c63" > "$TMP/frames" || exit 1
    frames=$(cat "$TMP/frames")
    if [ "$cpu" != "$gpu" ]; then
        echo "differ: CPU pipeline $cpu, NVDEC pipeline $gpu"
        exit 1
    fi
    echo "identical, $frames frames"
    ;;
nvenc)
    run_ok "$FFPROBE" -v error -count_frames -select_streams v -show_entries stream=nb_read_frames \
        -of csv=p=0 "$IN" > "$TMP/want" || exit 1
    want=$(cat "$TMP/want")
    # success, or a clean refusal; never a crash or a sanitizer report
    run_no_crash ff $NVDEC -i "$IN" -an -vf "${TEXT%%=*}_cuda=${TEXT#*=}" -c:v h264_nvenc \
        -f mp4 "$TMP/out.mp4" || exit 1
    cp "$CHECKED_ERR" "$TMP/err"
    if [ $ran_status -eq 0 ]; then
        run_ok "$FFPROBE" -v error -count_frames -show_entries stream=codec_name,nb_read_frames \
            -of csv=p=0 "$TMP/out.mp4" > "$TMP/got" || exit 1
        got=$(cat "$TMP/got")
        [ "$got" = "h264,$want" ] || { echo "h264_nvenc wrote $got, expected h264,$want"; exit 1; }
        echo "encoded: $got"
    elif grep -q -e 'unsupported device' -e 'No capable devices found' "$TMP/err"; then
        echo "refused: this GPU has no NVENC"
        sed 's/^/  /' "$TMP/err"
    else
        echo "h264_nvenc failed without saying that the GPU lacks NVENC:"
        cat "$TMP/err"
        exit 1
    fi
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
