#!/bin/sh
# Install the complete build (build/full) under any prefix, without
# configuring or compiling again:
#
#   install-full.sh FULL PREFIX [DESTDIR]
#
# FFmpeg's own `make install` is run with its prefix variable set to PREFIX
# (every installation folder of ffbuild/config.mak derives from it), and the
# pkg-config files, which configure wrote for the prefix it was given, are
# rewritten for PREFIX. The programs find the libraries through their
# RUNPATH $ORIGIN/../lib, and the libraries each other through $ORIGIN, so
# the tree works wherever it is put. One thing keeps the configured prefix
# (/usr/local): where ffmpeg looks for -vpre/-fpre preset files
# (FFMPEG_DATADIR, which the environment variable of that name overrides).
# DESTDIR stages the files for a package. The static libraries of the build (used by the tests) are not
# installed.
set -eu
FULL=$1 PREFIX=$2 DESTDIR=${3:-}
case $PREFIX in /*) ;; *) echo "install-full.sh: PREFIX must be absolute: $PREFIX" >&2; exit 1 ;; esac
[ -z "$DESTDIR" ] || DESTDIR=$(mkdir -p "$DESTDIR" && cd "$DESTDIR" && pwd)
ROOT=$DESTDIR$PREFIX

log=$FULL/install.log
${MAKE:-make} -s --no-print-directory -C "$FULL" install prefix="$PREFIX" DESTDIR="$DESTDIR" > "$log" 2>&1 ||
    { tail -n 30 "$log"; echo "install-full.sh: installing into $ROOT failed (log: $log)" >&2; exit 1; }
rm -f "$ROOT"/lib/lib*.a

old=$(sed -n 's/^prefix=//p' "$FULL/ffbuild/config.mak" | head -n 1)
for pc in "$ROOT"/lib/pkgconfig/lib*.pc; do
    sed -e "s|^prefix=.*|prefix=$PREFIX|" \
        -e "s|^libdir=$old/|libdir=\${prefix}/|" \
        -e "s|^includedir=$old/|includedir=\${prefix}/|" "$pc" > "$pc.tmp"
    mv "$pc.tmp" "$pc"
    chmod 644 "$pc"
done
