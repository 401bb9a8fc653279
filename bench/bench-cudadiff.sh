#!/bin/sh
# cudadiff kernel benchmark: kernel time per 1080p and 2160p frame, achieved
# GB/s and the device's measured copy bandwidth (see bench/bench-cudadiff.cpp).
#
#   sh bench/bench-cudadiff.sh [BUILD] [FRAMES] [NOISE]
#
# BUILD is the build folder (default build/); the kernels are those the
# filter embeds (kernels/cudadiff.cu), built as the FFmpeg build builds
# them, with the three modes' kernels in one module.
#
#   AGAINST=REV sh bench/bench-cudadiff.sh [BUILD] --build-only
#
# also builds revision REV's benchmark and kernel (taken from git, compiled
# with the build's own CUDA compiler and flags) as BUILD/bench-cudadiff-old
# and BUILD/cudadiff-old.ptx, with REV's name in BUILD/cudadiff-old.rev.
# Where those exist, a run times the old kernel and today's in the same run,
# in turn, twice each (old, new, old, new), so that version 1 and version 2
# lists are compared on one GPU at one time.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
frames=${2:-100}
noise=${3:-24}
ptx=$build/bench-cudadiff.ptx
bin=$build/bench-cudadiff

# kernels/cudadiff.cu with the build's own CUDA compiler and flags, as the
# FFmpeg build runs it, from its object folder; NVCC FLAGS SOURCE OUT
build_ptx() {
    (cd "$build/obj" && $1 $2 -I"$(dirname "$3")" -o "$4" "$3")
}
cfg=$build/obj/ffbuild/config.mak
if [ -f "$cfg" ]; then
    nvcc=$(sed -n 's/^NVCC=//p' "$cfg")
    nvccflags=$(sed -n 's/^NVCCFLAGS=//p' "$cfg")
fi
# rebuilt as the benchmark is (a bundle copied to another machine has it)
if [ ! -f "$ptx" ] || { [ "$frames" = --build-only ] &&
    { [ "$top/kernels/cudadiff.cu" -nt "$ptx" ] || [ "$top/kernels/cudadiff.h" -nt "$ptx" ]; }; }; then
    if [ ! -f "$cfg" ]; then
        echo "bench-cudadiff: $cfg not found; build first (make)" >&2
        exit 1
    fi
    build_ptx "$nvcc" "$nvccflags" "$top/kernels/cudadiff.cu" "$ptx"
fi
# rebuilt when missing, or when out of date in the build tree (not in a
# bundle copied to another machine, whose timestamps say nothing)
if [ ! -x "$bin" ] || { [ "$frames" = --build-only ] &&
    { [ "$top/bench/bench-cudadiff.cpp" -nt "$bin" ] || [ "$top/kernels/cudadiff.h" -nt "$bin" ]; }; }; then
    ${CXX:-c++} -O2 -std=c++17 -Wall -I"$top/kernels" \
        -I"$build/nv-codec-headers/include" $(pkg-config --cflags ffnvcodec 2>/dev/null) \
        -o "$bin" "$top/bench/bench-cudadiff.cpp" -ldl
fi
if [ "$frames" = --build-only ] && [ -n "${AGAINST:-}" ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-cudadiff.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    mkdir -p "$tmp/kernels" "$tmp/bench"
    for f in kernels/cudadiff.cu kernels/cudadiff.h kernels/cuda_compat.h; do
        git -C "$top" show "$AGAINST:$f" > "$tmp/$f"
    done
    # in bench/, or in tools/ in the revisions before bench/ existed
    git -C "$top" show "$AGAINST:bench/bench-cudadiff.cpp" > "$tmp/bench/bench-cudadiff.cpp" 2>/dev/null ||
        git -C "$top" show "$AGAINST:tools/bench-cudadiff.cpp" > "$tmp/bench/bench-cudadiff.cpp"
    build_ptx "$nvcc" "$nvccflags" "$tmp/kernels/cudadiff.cu" "$tmp/cudadiff.ptx"
    ${CXX:-c++} -O2 -std=c++17 -Wall -I"$tmp/kernels" \
        -I"$build/nv-codec-headers/include" $(pkg-config --cflags ffnvcodec 2>/dev/null) \
        -o "$build/bench-cudadiff-old" "$tmp/bench/bench-cudadiff.cpp" -ldl
    cp "$tmp/cudadiff.ptx" "$build/cudadiff-old.ptx"
    git -C "$top" log -1 --format='%h %s' "$AGAINST" > "$build/cudadiff-old.rev"
fi
[ "$frames" = --build-only ] && exit 0
if [ -x "$build/bench-cudadiff-old" ] && [ -f "$build/cudadiff-old.ptx" ]; then
    old="$(cat "$build/cudadiff-old.rev" 2>/dev/null)"
    for round in 1 2; do
        echo "bench-cudadiff: round $round, old kernel ($old):"
        "$build/bench-cudadiff-old" "$build/cudadiff-old.ptx" "$frames" "$noise"
        echo "bench-cudadiff: round $round, today's kernel:"
        "$bin" "$ptx" "$frames" "$noise"
    done
    exit 0
fi
exec "$bin" "$ptx" "$frames" "$noise"
