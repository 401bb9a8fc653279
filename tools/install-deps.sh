#!/bin/sh
# Install what the build needs from Debian/Ubuntu packages when running as
# root; otherwise print the exact apt-get lines to run.
#
# The complete build uses the external libraries of the distribution's own
# ffmpeg: the build dependencies of the distribution's ffmpeg source
# package are installed (apt-get build-dep). Its Build-Depends field is read
# once through a private apt configuration (tools/apt-private.sh) from the
# distribution's own suite and kept in $BUILD/deps/debian/control; later
# runs only check it with dpkg-checkbuilddeps.
#
# GOALS (make's goals) adds what the tests need: for check and
# check-clients, the distribution's ffmpeg (compared with ours), Xvfb and
# xwd (ffplay's window), dpkg-dev (the package), mmdebstrap (a
# fresh system for the package), python3-venv, python3-dev (PyAV) and git
# (the check of the patches); for bench, gnuplot-nox (the rate-distortion
# curves of bench/bench-c63rd.sh, which skips them without it).
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
# FFmpeg compiles the shaders of its Vulkan filters, encoders and hwaccels
# with a GLSL compiler program (configure: spirv_compiler); without one they
# are left out where the distribution's ffmpeg has them
command -v glslang >/dev/null 2>&1 || command -v glslangValidator >/dev/null 2>&1 ||
    command -v glslc >/dev/null 2>&1 || need="$need glslang-tools"

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

case " ${GOALS:-} " in
*" check "*|*" check-clients "*|*" deb "*)
    command -v dpkg-shlibdeps >/dev/null 2>&1 || need="$need dpkg-dev"
    ;;
esac
case " ${GOALS:-} " in
*" check "*|*" check-clients "*)
    [ -x /usr/bin/ffmpeg ]         || need="$need ffmpeg"
    command -v git >/dev/null 2>&1     || need="$need git"   # the check of the patches
    command -v Xvfb >/dev/null 2>&1    || need="$need xvfb"
    command -v xwd >/dev/null 2>&1     || need="$need x11-apps"
    command -v mmdebstrap >/dev/null 2>&1 || need="$need mmdebstrap"
    python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need="$need python3-venv"
    [ -n "$(python3-config --includes 2>/dev/null)" ] || need="$need python3-dev"
    ;;
esac

case " ${GOALS:-} " in
*" bench "*)
    command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
    ;;
esac

# The distribution's ffmpeg: its build dependencies, as its source package
# names them.
. /etc/os-release
BUILD=${BUILD:-build}
DEPS=$BUILD/deps
if [ ! -s "$DEPS/debian/control" ] && command -v apt-get >/dev/null 2>&1; then
    . "$(dirname "$0")/apt-private.sh"
    case $ID in
    ubuntu) src=$(for s in "$VERSION_CODENAME" "$VERSION_CODENAME-updates" "$VERSION_CODENAME-security"; do
                echo "deb-src http://archive.ubuntu.com/ubuntu $s main universe"; done) ;;
    *)      src=$(for s in "$VERSION_CODENAME" "$VERSION_CODENAME-updates"; do
                echo "deb-src http://deb.debian.org/debian $s main"; done
                echo "deb-src http://deb.debian.org/debian-security $VERSION_CODENAME-security main") ;;
    esac
    apt_private "$BUILD/apt-deps" "$src"
    if apt-get $APT_OPTS update > "$BUILD/apt-deps/log" 2>&1 &&
       bd=$(apt-cache $APT_OPTS showsrc ffmpeg 2>>"$BUILD/apt-deps/log" | grep -m1 '^Build-Depends:') &&
       [ -n "$bd" ]; then
        mkdir -p "$DEPS/debian"
        printf 'Source: ffmpeg\n%s\n\nPackage: ffmpeg-build-deps\nArchitecture: any\n' "$bd" > "$DEPS/debian/control"
        rm -rf "$BUILD/apt-deps"
    else
        echo "deps: warning: could not read the Build-Depends of $PRETTY_NAME's ffmpeg (see $BUILD/apt-deps/log);" >&2
        echo "deps: the complete build gets only the external libraries already installed" >&2
    fi
fi
builddep=""
if [ -s "$DEPS/debian/control" ]; then
    command -v dpkg-checkbuilddeps >/dev/null 2>&1 || need="$need dpkg-dev"
    if ! command -v dpkg-checkbuilddeps >/dev/null 2>&1 ||
       ! dpkg-checkbuilddeps -B "$DEPS/debian/control" >/dev/null 2>&1; then
        # apt-get takes a directory only as a path (./dir or /dir)
        case $DEPS in /*) builddep=$DEPS ;; *) builddep=./$DEPS ;; esac
    fi
fi

if [ -n "$need$builddep" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        if [ -n "$need" ]; then
            echo "deps: installing$need"
            apt-get install -y -qq --no-install-recommends $need >/dev/null
        fi
        if [ -n "$builddep" ]; then
            echo "deps: installing the build dependencies of $PRETTY_NAME's ffmpeg"
            apt-get build-dep -y -qq --no-install-recommends "$builddep" >/dev/null
        fi
    else
        echo "error: missing build dependencies. Run:" >&2
        [ -z "$need" ] || echo "  sudo apt-get install$need" >&2
        [ -z "$builddep" ] || echo "  sudo apt-get build-dep $builddep" >&2
        exit 1
    fi
fi
exit 0
