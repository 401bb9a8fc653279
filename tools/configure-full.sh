#!/bin/sh
# Configure the complete build: FFmpeg's whole native component set, ours,
# and every external library of the distribution's own ffmpeg that this
# machine has in a version FFmpeg accepts.
#
#   configure-full.sh SRC DIR "LIBRARIES" CONFIGURE_FLAGS...
#
# LIBRARIES are configure switch names (libx264, gnutls, ...). Each is
# checked before configure runs:
#   - a switch that SRC's configure no longer knows was removed upstream;
#   - a library that configure looks for through pkg-config is left out
#     when pkg-config does not find the version configure asks for, or
#     when its shared object links FFmpeg's own libraries (the
#     distribution's), which would load a second FFmpeg beside ours;
#   - any other library configure itself refuses ("ERROR: ... not found")
#     is left out and configure runs again, and so is the second of two
#     libraries that configure says cannot be used together.
# The programs get RUNPATH $ORIGIN/../lib and the libraries $ORIGIN, so that
# an installed tree finds its own libraries wherever it is
# (tools/install-full.sh), also from a program that links only some of
# them with a run path of its own. (LDSOFLAGS goes through one more make
# expansion than LDEXEFLAGS, hence its four dollars.)
# Hardware APIs (VAAPI, VDPAU, Vulkan, OpenCL, ...) and SDL2 are left to
# configure's own detection. DIR/external-libraries.txt gets what was
# enabled and what was left out, with the reason; it is also printed.
set -eu
SRC=$1 DIR=$2 LIBS=$3
shift 3
mkdir -p "$DIR"
cd "$DIR"
report=external-libraries.txt
left=""

note() {    # note NAME REASON
    left="$left$1: $2
"
}

# The pkg-config module and version that configure asks for: the argument
# after the name in its `enabled NAME && require_pkg_config NAME "SPEC" ...`
# line (pkg_spec), or in any pkg-config check of NAME (pkg_spec_any: for
# messages only, as such checks may have fallbacks).
pkg_spec() {
    sed -nE "s/^enabled $1 +&& +require_pkg_config(_cxx)? $1 (\"[^\"]*\"|[^ ]+) .*/\2/p" "$SRC/configure" |
        head -n 1 | tr -d '"'
}

pkg_spec_any() {
    sed -nE "s/.*(require|check|test)_pkg_config(_cxx|_header_only)? $1 (\"[^\"]*\"|[^ ]+) .*/\3/p" "$SRC/configure" |
        head -n 1 | tr -d '"'
}

pkg_found() {   # what pkg-config has of the modules of SPEC
    for m in $(echo "$1" | sed -E 's/[<>=!]+ *[^ ]+//g'); do
        v=$(pkg-config --modversion "$m" 2>/dev/null) && printf '%s%s %s' "${sep:-}" "$m" "$v" && sep=", "
    done
    return 0
}

# A library whose own shared object links FFmpeg's libraries (the
# distribution's: bookworm's libchromaprint links libavcodec.so.59) would
# bring a second FFmpeg into every process of ours.
links_ffmpeg() {
    spec=$(pkg_spec_any "$1")
    [ -n "$spec" ] || return 1
    m=${spec%% *}
    dir=$(pkg-config --variable=libdir "$m" 2>/dev/null) || return 1
    for l in $(pkg-config --libs-only-l "$m" 2>/dev/null | sed 's/-l//g'); do
        [ -f "$dir/lib$l.so" ] || continue
        readelf -d "$dir/lib$l.so" 2>/dev/null |
            sed -nE 's/.*NEEDED.*\[(lib(avcodec|avformat|avutil|avfilter|avdevice|swscale|swresample)\.so[^]]*)\].*/\1/p' |
            tr '\n' ' '
    done | grep . 
}

use=""
for lib in $LIBS; do
    if ! grep -qx "    $lib" "$SRC/configure"; then
        note "$lib" "removed upstream (FFmpeg's configure has no such switch)"
        continue
    fi
    spec=$(pkg_spec "$lib")
    if [ -n "$spec" ] && ! pkg-config --exists "$spec" 2>/dev/null; then
        found=$(pkg_found "$spec")
        note "$lib" "needs $spec (pkg-config: ${found:-not installed})"
        continue
    fi
    if theirs=$(links_ffmpeg "$lib"); then
        note "$lib" "its library links the distribution's FFmpeg (${theirs% }): a second FFmpeg in every process"
        continue
    fi
    use="$use $lib"
done

# configure, leaving out what it refuses
tries=0
while :; do
    tries=$((tries + 1))
    flags=""
    for lib in $use; do flags="$flags --enable-$lib"; done
    if "$SRC/configure" "$@" --extra-ldexeflags="-Wl,-rpath,'\\\$\\\$ORIGIN/../lib'" \
            --extra-ldsoflags="-Wl,-rpath,'\\\$\\\$\\\$\\\$ORIGIN'" $flags > configure.log 2>&1; then
        break
    fi
    msg=$(grep -m1 '^ERROR:' configure.log || true)
    what=$(echo "$msg" | sed -nE 's/^ERROR: (.*) not found.*/\1/p' | sed 's/ using pkg-config//')
    # two alternatives that exclude each other (libmfx, libvpl): the second goes
    what=${what:-$(echo "$msg" | sed -nE 's/^ERROR: can not use [^ ]+ and ([^ ]+) together.*/\1/p')}
    bad=""
    for lib in $use; do
        if [ "$what" = "$lib" ] || [ "${what%% *}" = "$lib" ] || { [ -n "$what" ] &&
           grep -E "^ *enabled $lib +&&" "$SRC/configure" | grep -qF -- "$what"; }; then
            bad=$lib
            break
        fi
    done
    if [ -z "$bad" ] || [ $tries -gt 20 ]; then
        tail -n 20 configure.log
        tail -n 40 ffbuild/config.log
        exit 1
    fi
    note "$bad" "configure: ${msg#ERROR: }"
    use=$(echo " $use " | sed "s/ $bad / /")
done

# the hardware APIs and programs configure detected by itself
hw=""
for api in cuda_llvm ffnvcodec nvenc nvdec cuvid vaapi vdpau vulkan opencl libdrm v4l2_m2m sdl2; do
    if grep -q "^#define CONFIG_$(echo $api | tr a-z A-Z) 1" config.h; then
        hw="$hw $api"
    else
        spec=$(pkg_spec_any $api)
        found=$([ -n "$spec" ] && pkg_found "$spec" || true)
        note "$api" "not detected${spec:+ (needs $spec; pkg-config: ${found:-not installed})}"
    fi
done

{
    echo "external libraries enabled:$use"
    echo "hardware APIs and SDL2 enabled:$hw"
    echo "left out:"
    printf '%s' "$left" | sed 's/^/  /'
} > $report
sed 's/^/configure: /' $report
