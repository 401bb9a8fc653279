#!/bin/sh
# make check-install: install the shared libraries into a scratch prefix,
# build docs/examples/decode_c63.cpp against the installed pkg-config files
# (as any program using the libraries would be built), and check what it
# decodes and filters.
#
#   check-install.sh PREFIX BUILD LICENSE
#
# PREFIX holds the installed tree, BUILD the static build whose ffmpeg gives
# the filter references; LICENSE is "free", or "nonfree" for a build with
# CUDA_COMPILER=nvcc. Prints each failure and "N passed, N failed".
set -u
PREFIX=$1 BUILD=$2 LICENSE=${3:-free}
top=$(cd "$(dirname "$0")/.." && pwd)
SAMPLES=$top/tests/fate/samples
REF=$top/tests/fate/ref
TMP=${TMPDIR:-/tmp}/c63-install.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT

pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAILED: $1"; }

export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
LIBS="libavfilter libavformat libavcodec libavutil"
if flags=$(pkg-config --cflags --libs $LIBS) &&
   ${CXX:-c++} -std=c++17 -Wall -Werror -o "$TMP/decode_c63" "$top/docs/examples/decode_c63.cpp" \
       $flags -Wl,-rpath,"$PREFIX/lib"; then
    ok "example builds against the installed pkg-config files"
else
    bad "example builds against the installed pkg-config files"
    echo "$pass passed, $fail failed"
    exit 1
fi

# the installed framediff.h is usable on its own
printf '#include <libavutil/framediff.h>\nint main(void) { return AV_FRAME_DIFF_VERSION != 2 || AV_FRAME_DIFF_SIZE(AV_FRAME_DIFF_BITMAP_SIZE(9), 1) != AV_FRAME_DIFF_HEADER_SIZE + 3; }\n' > "$TMP/h.c"
if ${CC:-cc} $(pkg-config --cflags libavutil) -o "$TMP/h" "$TMP/h.c" && "$TMP/h"; then
    ok "libavutil/framediff.h installed"
else
    bad "libavutil/framediff.h installed"
fi

# decoding: the reference decoder's md5 of every vector
for v in tiny odd_height qcif_keyint cif_noise; do
    got=$("$TMP/decode_c63" "$SAMPLES/$v.c63" 2>"$TMP/err")
    if [ "$got" = "$(cat "$REF/c63-dec-$v")" ]; then
        ok "decode $v"
    else
        bad "decode $v ($got; $(tail -n 1 "$TMP/err"))"
    fi
done

# filtering through the installed libavfilter: the same bytes as the static
# ffmpeg gives for the same graph
for g in "framediff=threshold=20" "framediff=threshold=8:mode=mask,framediffapply" "scale=64:48"; do
    got=$("$TMP/decode_c63" "$SAMPLES/qcif_keyint.c63" "$g" 2>"$TMP/err")
    want=$("$BUILD/ffmpeg" -nostdin -v error -i "$SAMPLES/qcif_keyint.c63" -vf "$g" -f rawvideo - | md5sum | cut -d' ' -f1)
    if [ -n "$got" ] && [ "$got" = "$want" ]; then
        ok "filter $g"
    else
        bad "filter $g (example $got, ffmpeg $want; $(tail -n 1 "$TMP/err"))"
    fi
done

# errors: a file that is not c63, a missing file
"$BUILD/ffmpeg" -nostdin -v error -f lavfi -i testsrc2=s=32x32 -frames:v 1 -c:v png -f image2 "$TMP/x.png"
if ! "$TMP/decode_c63" "$TMP/x.png" 2>"$TMP/err" && grep -q 'not c63' "$TMP/err"; then
    ok "refuses a file that is not c63"
else
    bad "refuses a file that is not c63"
fi
if ! "$TMP/decode_c63" "$TMP/missing.c63" 2>/dev/null; then
    ok "fails on a missing file"
else
    bad "fails on a missing file"
fi

# the installed programs: a free build (unless nvcc was asked for)
if "$PREFIX/bin/ffmpeg" -hide_banner -L 2>/dev/null | grep -qi nonfree ||
   "$PREFIX/bin/ffmpeg" -hide_banner -buildconf 2>/dev/null | grep -q -- --enable-nonfree; then
    found=nonfree
else
    found=free
fi
if [ $found = "$LICENSE" ]; then
    ok "installed ffmpeg is a $LICENSE build"
else
    bad "installed ffmpeg is a $found build, expected $LICENSE"
fi
got=$("$PREFIX/bin/ffmpeg" -nostdin -v error -i "$SAMPLES/tiny.c63" -f rawvideo - | md5sum | cut -d' ' -f1)
if [ "$got" = "$(cat "$REF/c63-dec-tiny")" ]; then
    ok "installed ffmpeg decodes c63"
else
    bad "installed ffmpeg decodes c63"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
