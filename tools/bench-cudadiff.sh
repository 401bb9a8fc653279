#!/bin/sh
# cudadiff kernel benchmark: kernel time per 1080p and 2160p frame, achieved
# GB/s and the device's measured copy bandwidth (see tools/bench-cudadiff.cpp).
#
#   sh tools/bench-cudadiff.sh [BUILD] [FRAMES] [NOISE]
#
# BUILD is the build folder (default build/); the kernel is the one the
# filter embeds, left as PTX by the FFmpeg build.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
frames=${2:-100}
noise=${3:-24}
ptx=$build/obj/libavfilter/cuda_kernels/cudadiff.ptx
bin=$build/bench-cudadiff

if [ ! -f "$ptx" ]; then
    echo "bench-cudadiff: $ptx not found; build first (make)" >&2
    exit 1
fi
# rebuilt when missing, or when out of date in the build tree (not in a
# bundle copied to another machine, whose timestamps say nothing)
if [ ! -x "$bin" ] || { [ "$frames" = --build-only ] &&
    { [ "$top/tools/bench-cudadiff.cpp" -nt "$bin" ] || [ "$top/kernels/cudadiff.h" -nt "$bin" ]; }; }; then
    ${CXX:-c++} -O2 -std=c++17 -Wall -I"$top/kernels" \
        -I"$build/nv-codec-headers/include" $(pkg-config --cflags ffnvcodec 2>/dev/null) \
        -o "$bin" "$top/tools/bench-cudadiff.cpp" -ldl
fi
[ "$frames" = --build-only ] && exit 0
exec "$bin" "$ptx" "$frames" "$noise"
