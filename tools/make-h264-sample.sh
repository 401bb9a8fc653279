#!/bin/sh
# tests/fate/samples/h264.mp4, the H.264 input of the GPU pipeline tests
# (tests/fate/pipelines-gpu.mak): 50 frames of testsrc2 at 320x240, 25 fps,
# coded by libx264 with the complete build (make), video only (the test
# build has no AAC decoder).
#
#   make-h264-sample.sh FFMPEG OUT
set -eu
"$1" -nostdin -hide_banner -v error -f lavfi -i testsrc2=s=320x240:r=25,trim=end_frame=50 \
    -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p -threads 1 -bitexact -an -y "$2"
