#!/bin/sh
# Install what the build needs from Debian/Ubuntu packages when running as
# root; otherwise print the exact apt-get line to run.
#
# CUDA_COMPILER=clang (the default) needs Debian's clang, any version from
# 14 on (and its sanitizer runtimes for make check-asan and make fuzz); CUDA_COMPILER=nvcc needs NVIDIA's CUDA toolkit, which is not in
# Debian main and is not installed here.
set -eu

need=""
command -v cc      >/dev/null 2>&1 || need="$need gcc"
command -v c++     >/dev/null 2>&1 || need="$need g++"
command -v make    >/dev/null 2>&1 || need="$need make"
command -v nasm    >/dev/null 2>&1 || need="$need nasm"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v xz      >/dev/null 2>&1 || need="$need xz-utils"
command -v diff    >/dev/null 2>&1 || need="$need diffutils"
command -v patch   >/dev/null 2>&1 || need="$need patch"
command -v perl    >/dev/null 2>&1 || need="$need perl"
command -v makeinfo >/dev/null 2>&1 || need="$need texinfo"   # HTML manual (make install)
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"  # make check-valgrind
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
# drawtext and drawtext_cuda: text rendering, shaping, font lookup, and the
# font the tests name.
pkg-config --exists freetype2  2>/dev/null || need="$need libfreetype-dev"
pkg-config --exists harfbuzz   2>/dev/null || need="$need libharfbuzz-dev"
pkg-config --exists fontconfig 2>/dev/null || need="$need libfontconfig-dev"
pkg-config --exists fribidi    2>/dev/null || need="$need libfribidi-dev"
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need="$need fonts-dejavu-core"

have_clang() {
    for c in clang clang-21 clang-20 clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
        command -v $c >/dev/null 2>&1 && return 0
    done
    return 1
}

# clang's sanitizer and libFuzzer runtimes (make check-asan, make fuzz)
have_clang_rt() {
    for c in clang clang-21 clang-20 clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
        command -v $c >/dev/null 2>&1 || continue
        echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
            $c -fsanitize=fuzzer,address,undefined -x c - -o /dev/null 2>/dev/null
        return
    done
    return 1
}
have_clang_rt || need="$need libclang-rt-dev"

case "${CUDA_COMPILER:-clang}" in
clang)
    have_clang || need="$need clang"
    ;;
nvcc)
    if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
        echo "error: CUDA_COMPILER=nvcc, but nvcc was found neither on PATH nor in /usr/local/cuda/bin." >&2
        echo "  Install NVIDIA's CUDA toolkit, pass NVCC=/path/to/nvcc, or build with clang (the default)." >&2
        exit 1
    fi
    ;;
esac

if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "deps: installing$need"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends $need >/dev/null
    else
        echo "error: missing build dependencies. Run:" >&2
        echo "  sudo apt-get install$need" >&2
        exit 1
    fi
fi
exit 0
