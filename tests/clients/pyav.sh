#!/bin/sh
# PyAV, built from source against the installed libraries, decodes, encodes
# and filters with the c63 codecs and the framediff filters.
#
#   tests/clients/pyav.sh PREFIX [WORKDIR]
#
# PREFIX is an installed tree (make install PREFIX=..., or
# tools/install-full.sh), with lib/pkgconfig/lib{avformat,avcodec,avdevice,
# avutil,avfilter,swscale,swresample}.pc and shared libraries. PyAV
# $PYAV_VERSION is built from its source distribution (pip install
# --no-binary av) in a virtual environment (python3 -m venv), with
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig and its extension modules linked with
# the RUNPATH PREFIX/lib (LDFLAGS=-Wl,-rpath,PREFIX/lib -Wl,--no-as-needed),
# so that they load PREFIX's libav* and not the system's (Debian's
# libavcodec59 and the rest).
# PyAV refuses pkg-config output with flags it does not understand (an
# -Wl,-rpath or a -pthread in the .pc files): the build then fails, plainly.
#
# Then, each as a PASS:/FAILED: line:
#   - the build, and ldd of every extension module: each libav*/libsw* it
#     loads is PREFIX's (a library that drags in another FFmpeg is named);
#   - tests/clients/pyav/test_pyav.py (decoding the reference vectors,
#     encoding with c63, framediff's side data, framediffapply; see there);
# and "N passed, N failed" last. Exits non-zero on any failure; 77 (never 0)
# when python3, its venv module or its headers, pkg-config or a compiler is
# missing (Debian: python3-venv python3-dev pkg-config gcc).
#
# WORKDIR (default: a temporary folder under ${TMPDIR:-/tmp}, removed on
# exit) holds the virtual environment (WORKDIR/venv) and the build's log
# (WORKDIR/build.log). Given, it is kept, and a later run reuses the
# environment without building again as long as the key is the same: the
# md5 of the PyAV version, the Python interpreter and version, PREFIX, the
# .pc files and the installed headers (what the extension modules are
# compiled from; a library rebuilt with the same headers needs no new build,
# as the modules link to it at run time). Anything else rebuilds it
# from scratch. pip's wheel cache is not used (--no-cache-dir), so a build
# is never a wheel built earlier against other libraries.
#
# Environment: PYTHON (default python3); PYAV_JOBS, the C compilations at
# once (default nproc); PIP_INDEX_URL etc. as pip reads them.
set -u
. "$(dirname "$0")/../fate/checked.sh"

# The first PyAV that builds against FFmpeg 9.0 (18.1.0's changelog:
# "Support building from source against FFmpeg 9.0"; 18.0.0 and older
# support FFmpeg up to 8.x), and the newest that `pip index versions av`
# lists here. Pinned: a new release is a new test. PyAV 19 requires Python
# 3.12 or later (Debian bookworm has 3.11) and reads side data types it does
# not know as UNKNOWN_<n> instead of raising ValueError.
PYAV_VERSION=18.1.0
# and its build requirements (pyproject.toml: setuptools>=77, cython>=3.1,<4),
# pinned too (PIP_CONSTRAINT reaches pip's isolated build environment)
BUILD_PINS="cython==3.3.1 setuptools==84.2.1"
LIBS="libavformat libavcodec libavdevice libavutil libavfilter libswscale libswresample"
# FFmpeg's libraries, of any version (for ldd: whose are they)
FFLIBS='lib(avcodec|avformat|avutil|avfilter|avdevice|swscale|swresample|postproc|avresample)[.]so'

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 PREFIX [WORKDIR]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
case $1 in /*) PREFIX=$1 ;; *) PREFIX=$(pwd)/$1 ;; esac
PREFIX=${PREFIX%/}
PYTHON=${PYTHON:-python3}
JOBS=${PYAV_JOBS:-$(nproc 2> /dev/null || echo 1)}

pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAILED: $1"; }
skip() { echo "SKIPPED (nothing was tested, this is not a pass): $*"; exit 77; }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit $?; }

for lib in $LIBS; do
    [ -r "$PREFIX/lib/pkgconfig/$lib.pc" ] || { echo "pyav.sh: no $PREFIX/lib/pkgconfig/$lib.pc" >&2; exit 2; }
done
command -v "$PYTHON" > /dev/null 2>&1 || skip "no $PYTHON (Debian: python3)"
"$PYTHON" -c 'import venv, ensurepip' 2> /dev/null || skip "$PYTHON has no venv/ensurepip module (Debian: python3-venv)"
inc=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -r "$inc/Python.h" ] || skip "no Python.h in $inc (Debian: python3-dev)"
command -v pkg-config > /dev/null 2>&1 || skip "no pkg-config (Debian: pkg-config)"
command -v "${CC:-cc}" > /dev/null 2>&1 || skip "no C compiler ${CC:-cc} (Debian: gcc)"

if [ $# -eq 2 ]; then
    mkdir -p "$2" || exit 2
    W=$(cd "$2" && pwd)
else
    W=$(mktemp -d "${TMPDIR:-/tmp}/pyav.XXXXXX") || exit 2
    trap 'rm -rf "$W"' EXIT
fi
VENV=$W/venv

export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR 2> /dev/null
# the modules' RUNPATH, not the caller's environment, says where libav* is
unset LD_LIBRARY_PATH 2> /dev/null

# Every module links all seven libraries (--no-as-needed): the installed
# libraries have no RUNPATH of their own, so a module linked only to, say,
# libavcodec would find libavcodec's own libavutil nowhere (ldd: not found)
# or, where the system has that soname, in the system.
ldflags="-Wl,-rpath,$PREFIX/lib -Wl,--no-as-needed${LDFLAGS:+ $LDFLAGS}"
key=$({
    echo "pyav $PYAV_VERSION $BUILD_PINS"
    echo "LDFLAGS $ldflags"
    "$PYTHON" -c 'import sys; print(sys.executable, sys.version)'
    echo "$PREFIX"
    cat "$PREFIX"/lib/pkgconfig/lib*.pc
    find "$PREFIX/include" -type f -name '*.h' | LC_ALL=C sort | xargs md5sum
} | md5sum | cut -d' ' -f1)

# What pkg-config gives PyAV (its setup.py asks for exactly this).
flags=$(pkg-config --cflags --libs $LIBS) || { bad "pkg-config $LIBS"; finish; }
echo "pkg-config: $flags"

if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.pyav-key" 2> /dev/null)" = "$key" ]; then
    echo "reusing $VENV (PyAV $PYAV_VERSION, key $key)"
    ok "PyAV $PYAV_VERSION built against $PREFIX (cached)"
else
    rm -rf "$VENV"
    start=$(date +%s)
    echo "building PyAV $PYAV_VERSION from source into $VENV (log: $W/build.log)"
    # the C compilations of build_ext in parallel (setuptools reads the file
    # that DIST_EXTRA_CONFIG names); Cython runs before, one module at a time
    printf '[build_ext]\nparallel = %s\n' "$JOBS" > "$W/build_ext.cfg"
    printf '%s\n' $BUILD_PINS > "$W/constraints.txt"
    if "$PYTHON" -m venv "$VENV" > "$W/build.log" 2>&1 &&
       LDFLAGS="$ldflags" DIST_EXTRA_CONFIG="$W/build_ext.cfg" PIP_CONSTRAINT="$W/constraints.txt" \
       "$VENV/bin/python" -m pip install -v --no-cache-dir --disable-pip-version-check \
           --no-binary av "av==$PYAV_VERSION" >> "$W/build.log" 2>&1; then
        echo "$key" > "$VENV/.pyav-key"
        ok "PyAV $PYAV_VERSION built against $PREFIX ($(($(date +%s) - start)) s)"
    else
        # the end of the log, then PyAV's own words (e.g. "pkg-config
        # returned flags we don't understand: -Wl,-rpath,...") or the
        # compiler's first errors in the FAILED line
        echo "--- last lines of $W/build.log:"
        tail -n 30 "$W/build.log"
        echo "---"
        why=$(grep -E "flags we don't understand|could not find libraries|is required for building|static FFmpeg|: error:|No matching distribution" \
                  "$W/build.log" | sed 's/^ *//' | awk '!seen[$0]++' | head -n 3 | tr '\n' ' ')
        why=${why% }
        bad "PyAV $PYAV_VERSION built against $PREFIX${why:+ ($why)}"
        rm -rf "$VENV"
        finish
    fi
fi

# ldd: every libav*/libsw* the extension modules load is PREFIX's, found
# through their RUNPATH.
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
find "$site/av" -name '*.so' > "$W/modules"
norpath=
while read -r so; do
    rp=$(readelf -d "$so" 2> /dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]$/\1/p' | tr '\n' :)
    case ":$rp" in *":$PREFIX/lib:"*) ;; *) norpath="$norpath ${so#$site/}" ;; esac
done < "$W/modules"
if [ ! -s "$W/modules" ]; then
    bad "ldd: no extension module under $site/av"
elif [ -n "$norpath" ]; then
    bad "the extension modules' RUNPATH is $PREFIX/lib (not in:$norpath)"
else
    while read -r so; do ldd "$so"; done < "$W/modules" |
        awk '$2 == "=>" { print $1, $3 }' | LC_ALL=C sort -u > "$W/ldd"
    awk -v p="$PREFIX/lib/" -v re="^$FFLIBS[.]" '$1 ~ re && $2 != "not" && index($2, p) != 1' "$W/ldd" > "$W/foreign"
    awk '$2 == "not" { print $1 }' "$W/ldd" > "$W/notfound"
    nmod=$(wc -l < "$W/modules")
    if [ -s "$W/foreign" ] || [ -s "$W/notfound" ]; then
        # who needs whom among the loaded libraries, to name the culprit:
        # "X (needed by Y [needed by libavformat.so.63])"
        while read -r name path; do
            [ -r "$path" ] && readelf -d "$path" 2> /dev/null |
                sed -n "s/.*(NEEDED).*\[\(.*\)\]\$/$name \1/p"
        done < "$W/ldd" > "$W/needed"
        needers() { awk -v n="$1" '$2 == n { printf "%s%s", s, $1; s = " " }' "$W/needed"; }
        msg=
        while read -r name path; do
            by=
            for b in $(needers "$name"); do
                case $b in
                libav*|libsw*|libpostproc*) ;;
                *) b="$b [needed by $(needers "$b" | sed 's/ /, /g')]" ;;
                esac
                by="${by:+$by, }$b"
            done
            msg="$msg; $name => $path (needed by ${by:-?})"
        done < "$W/foreign"
        [ -s "$W/notfound" ] && msg="$msg; not found: $(tr '\n' ' ' < "$W/notfound")"
        bad "ldd: the $nmod extension modules load only $PREFIX/lib's libav*${msg}"
    else
        ok "ldd: the $nmod extension modules load only $PREFIX/lib's libav* ($(awk -v re="^$FFLIBS[.]" '$1 ~ re { printf "%s%s", s, $1; s = " " }' "$W/ldd"))"
    fi
fi

"$VENV/bin/python" "$top/tests/clients/pyav/test_pyav.py" --prefix "$PREFIX" > "$W/test.out" 2>&1
status=$?
cat "$W/test.out"
last=$(tail -n 1 "$W/test.out")
case $last in
*" passed, "*" failed")
    set -- $last
    pass=$((pass + $1)) fail=$((fail + $3))
    [ $status -eq 0 ] || [ "$3" -ne 0 ] || bad "test_pyav.py ended with $(ended $status)" ;;
*)  bad "test_pyav.py ended without its summary ($(ended $status))" ;;
esac
! sanitizer_report "$W/test.out" || bad "test_pyav.py: a sanitizer report in its output"
echo "total:"
finish
