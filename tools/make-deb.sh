#!/bin/sh
# Build a Debian binary package of the complete build (build/full), packaged
# the way jellyfin-ffmpeg is: everything under a prefix of its own,
# /usr/lib/c63-ffmpeg, beside (never over) the distribution's ffmpeg:
#
#   make-deb.sh FULL OUTDIR
#
# prints OUTDIR/c63-ffmpeg_<version>_<arch>.deb. The package holds
#
#   /usr/lib/c63-ffmpeg/{bin,lib,include,lib/pkgconfig,share}
#                        tools/install-full.sh's tree (no static libraries);
#                        the programs find the libraries through their
#                        RUNPATH $ORIGIN/../lib (no ld.so.conf.d file)
#   /usr/bin/c63-ffmpeg, c63-ffprobe, c63-ffplay
#                        relative symlinks to the prefix's programs
#   /usr/share/man/man{1,3}/c63-*.gz
#                        FFmpeg's man pages, renamed with the c63- prefix
#                        (their NAME lines and cross references too) so
#                        that they never meet ffmpeg's or ffmpeg-doc's
#   /usr/share/doc/c63-ffmpeg/{copyright,changelog.Debian.gz}
#   /usr/share/lintian/overrides/c63-ffmpeg
#                        the tags this layout means to cause (see step 5)
#
# Programs built against it: PKG_CONFIG_PATH=/usr/lib/c63-ffmpeg/lib/pkgconfig.
#
# The version is <FFmpeg's RELEASE>+c63.N, N the number of commits of this
# repository (`git rev-list --count HEAD`; 0 outside git); Depends is
# computed by dpkg-shlibdeps over every ELF file, our own libraries found in
# the staged lib folder. No debian/ folder is kept in the repository: the
# few files dpkg-gencontrol needs are written into a scratch folder. Nothing
# is stripped beyond what FFmpeg's install does. File times are set to the
# commit's time (SOURCE_DATE_EPOCH, when set, wins) and the man pages and
# changelog are compressed with gzip -9n, so the same build and commit give
# the same package. Needs dpkg-dev (dpkg-shlibdeps, dpkg-gencontrol),
# binutils (readelf) and make.
set -eu

PKG=c63-ffmpeg
PREFIX=/usr/lib/$PKG

usage() { echo "usage: $0 FULL OUTDIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
die() { echo "make-deb.sh: $*" >&2; exit 1; }

need=""
for t in dpkg-deb:dpkg dpkg-gencontrol:dpkg-dev dpkg-shlibdeps:dpkg-dev readelf:binutils make:make gzip:gzip; do
    command -v "${t%%:*}" >/dev/null 2>&1 || need="$need ${t#*:}"
done
[ -z "$need" ] || die "missing tools; install them with: apt-get install -y --no-install-recommends$need"

top=$(cd "$(dirname "$0")/.." && pwd)
FULL=$(cd "$1" && pwd) || die "no such folder: $1"
[ -f "$FULL/ffbuild/config.mak" ] || die "$FULL is not a configured FFmpeg build"
[ -x "$FULL/ffmpeg" ] || die "$FULL has no ffmpeg: build it first"
mkdir -p "$2"
OUTDIR=$(cd "$2" && pwd)

# version: FFmpeg's own release (src/RELEASE of the build) + this repository
upstream=$(cat "$FULL/src/RELEASE" 2>/dev/null || sed -n 's/^#define FFMPEG_VERSION "n\{0,1\}\([0-9.]*\).*/\1/p' "$FULL/config.h" 2>/dev/null || true)
case $upstream in [0-9]*) ;; *) die "cannot tell FFmpeg's version from $FULL (src/RELEASE)" ;; esac
if n=$(git -C "$top" rev-list --count HEAD 2>/dev/null); then
    commit=$(git -C "$top" rev-parse --short=12 HEAD)
    : "${SOURCE_DATE_EPOCH:=$(git -C "$top" log -1 --format=%ct HEAD)}"
    maint=$(git -C "$top" log -1 --format='%an <%ae>' HEAD)
else
    n=0 commit=""
    : "${SOURCE_DATE_EPOCH:=$(stat -c %Y "$FULL/ffbuild/config.mak")}"
    maint=""
fi
export SOURCE_DATE_EPOCH
MAINTAINER=${C63_DEB_MAINTAINER:-${maint:-c63-ffmpeg maintainers <c63-ffmpeg@users.noreply.github.com>}}
VERSION=$upstream+c63.$n
ARCH=$(dpkg --print-architecture)
DEB=$OUTDIR/${PKG}_${VERSION}_$ARCH.deb
year=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)
suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unstable}")

umask 022
W=$(mktemp -d "${TMPDIR:-/tmp}/make-deb.XXXXXX")
trap 'rm -rf "$W"' EXIT
ST=$W/debian/$PKG          # the package's root, where dpkg-shlibdeps wants it
P=$ST$PREFIX

# 1. the tree, under its own prefix
sh "$top/tools/install-full.sh" "$FULL" "$PREFIX" "$ST" > "$W/install.log" 2>&1 ||
    { tail -n 20 "$W/install.log" >&2; die "install-full.sh failed"; }
[ -z "$(find "$P" -name '*.a')" ] || die "static libraries in the staged tree"
[ ! -e "$ST/etc" ] || die "the install wrote under /etc"
for f in "$P"/bin/*; do
    rp=$(readelf -d "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [ "$rp" = '$ORIGIN/../lib' ] || die "$(basename "$f") has RUNPATH '$rp', not \$ORIGIN/../lib"
done

# (the libraries themselves find one another only where they have RUNPATH
# $ORIGIN: a program built against them with -Wl,-rpath, which gives it
# DT_RUNPATH, does not lend that path to libavcodec's own NEEDED entries)
norp=""
for f in "$P"/lib/lib*.so; do
    readelf -d "$f" | grep -q 'RUNPATH.*\[\$ORIGIN\]' || norp="$norp ${f##*/}"
done
[ -z "$norp" ] || echo "make-deb.sh: warning: no RUNPATH \$ORIGIN in$norp: programs built against them with -Wl,-rpath,$PREFIX/lib (DT_RUNPATH) will not find their FFmpeg dependencies; configure the build with --extra-ldsoflags='-Wl,-rpath,\$\$ORIGIN'" >&2

# 2. the programs on PATH under names that do not shadow the distribution's
mkdir -p "$ST/usr/bin"
progs=""
for f in "$P"/bin/*; do
    b=$(basename "$f")
    ln -s "../lib/$PKG/bin/$b" "$ST/usr/bin/c63-$b"
    progs="$progs $b"
done

# 3. the man pages: c63-NAME.N.gz in /usr/share/man. Their titles, NAME
# lines (what whatis and apropos show), .so requests and cross references
# to one another (\fBffmpeg\-codecs\fR\|(1)) get the c63- prefix too.
if [ -d "$P/share/man" ]; then
    sedf=$W/man.sed
    cat > "$sedf" <<'SED'
s/^\.TH "/.TH "C63-/
s/^\.TH \([A-Za-z0-9]\)/.TH C63-\1/
/^\.SH "\{0,1\}NAME"\{0,1\}$/,/^\.SH/s/^\([a-z][^ ]*\) \\- /c63\\-\1 \\- /
s/^\.so man\([0-9]\)\/\([^/]*\)$/.so man\1\/c63-\2/
SED
    # a page's name where it stands whole, not in another one (ffmpeg in
    # ffmpeg-all): between \fB and \fR, followed by its section
    for m in $(cd "$P/share/man" && for f in man*/*; do b=${f##*/}; echo "${b%.*}"; done | sort -u); do
        q=$(printf '%s' "$m" | sed 's/[].[\*^$/]/\\&/g; s/-/\\\\-/g')
        r=$(printf '%s' "$m" | sed 's/-/\\\\-/g')
        printf 's/\\\\fB%s\\\\fR\\\\|(/\\\\fBc63\\\\-%s\\\\fR\\\\|(/g\n' "$q" "$r" >> "$sedf"
        printf 's/\\\\fB%s\\\\fR(/\\\\fBc63\\\\-%s\\\\fR(/g\n' "$q" "$r" >> "$sedf"
    done
    for d in "$P"/share/man/man*; do
        s=${d##*/}
        mkdir -p "$ST/usr/share/man/$s"
        for f in "$d"/*; do
            sed -f "$sedf" "$f" > "$ST/usr/share/man/$s/c63-${f##*/}"
            gzip -9n "$ST/usr/share/man/$s/c63-${f##*/}"
        done
    done
    rm -rf "$P/share/man"
fi
for p in $progs; do
    [ -f "$ST/usr/share/man/man1/c63-$p.1.gz" ] || die "no man page for $p (was the build configured without --disable-manpages and with pod2man?)"
done

# 4. /usr/share/doc/c63-ffmpeg
D=$ST/usr/share/doc/$PKG
mkdir -p "$D"
cat > "$D/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: FFmpeg
Upstream-Contact: FFmpeg developers <ffmpeg-devel@ffmpeg.org>
Source: https://ffmpeg.org/releases/ffmpeg-$upstream.tar.xz
Comment: FFmpeg $upstream with the Codec63 codec, the CUDA filters and the
 framediff codec built in, configured with --enable-gpl and linked with
 GPL-licensed external libraries (libx264, libx265, libxvid, ...), so that
 the programs and libraries of this package as a whole are under the GNU
 General Public License, version 2 or later. The source files of the
 libraries are themselves mostly under the GNU Lesser General Public
 License, version 2.1 or later; see LICENSE.md of FFmpeg's source.

Files: *
Copyright: 2000-$year the FFmpeg developers
License: GPL-2+

License: GPL-2+
 This program is free software; you can redistribute it and/or modify
 it under the terms of the GNU General Public License as published by
 the Free Software Foundation; either version 2 of the License, or
 (at your option) any later version.
 .
 This program is distributed in the hope that it will be useful,
 but WITHOUT ANY WARRANTY; without even the implied warranty of
 MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
 GNU General Public License for more details.
 .
 You should have received a copy of the GNU General Public License
 along with this program; if not, write to the Free Software
 Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA.
 .
 On Debian systems, the complete text of the GNU General Public License
 version 2 can be found in \`/usr/share/common-licenses/GPL-2'.
EOF
mkdir -p "$W/debian"
cat > "$W/debian/changelog" <<EOF
$PKG ($VERSION) $suite; urgency=medium

  * FFmpeg $upstream with Codec63, complete build${commit:+ (commit $commit)}.

 -- $MAINTAINER  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
EOF
cp "$W/debian/changelog" "$D/changelog.Debian"
gzip -9n "$D/changelog.Debian"

# 5. lintian's overrides: what this layout means to be
mkdir -p "$ST/usr/share/lintian/overrides"
cat > "$ST/usr/share/lintian/overrides/$PKG" <<EOF
# A private prefix, as jellyfin-ffmpeg's: the programs live in its bin/
# (reached through /usr/bin/c63-*), its libraries in its lib/, FFmpeg's HTML
# manual and examples in its share/.
$PKG: executable-in-usr-lib [usr/lib/$PKG/bin/*]
$PKG: repeated-path-segment lib [usr/lib/$PKG/lib/]
$PKG: package-contains-documentation-outside-usr-share-doc [usr/lib/$PKG/share/*]
# The version (FFmpeg's + c63.N) has no Debian revision, yet the changelog
# is Debian's, not upstream's.
$PKG: wrong-name-for-changelog-of-native-package [usr/share/doc/$PKG/changelog.Debian.gz]
EOF

# 6. modes and times: as dh_fixperms would, and the commit's time
find "$ST" -type d -exec chmod 755 {} +
find "$ST" -type f -exec chmod 644 {} +
chmod 755 "$P"/bin/*
find "$ST" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

# 7. control: Depends from dpkg-shlibdeps over every ELF file, our own
# libraries taken from the staged lib folder (a private folder, so they need
# no shlibs or symbols information)
cat > "$W/debian/control" <<EOF
Source: $PKG
Section: video
Priority: optional
Maintainer: $MAINTAINER
Standards-Version: 4.6.2
Homepage: https://ffmpeg.org/
Rules-Requires-Root: no

Package: $PKG
Architecture: $ARCH
Depends: \${shlibs:Depends}, \${misc:Depends}
Description: FFmpeg $upstream with Codec63, beside the distribution's ffmpeg
 A complete build of FFmpeg $upstream (shared libraries, ffmpeg, ffprobe,
 ffplay, headers, pkg-config files and manual pages) with the Codec63 codec
 (c63, c63_cuda), the CUDA filters (cudadiff, drawtext_cuda,
 mestimate_cuda), framediff and the external libraries Debian's ffmpeg uses.
 .
 Everything lives under /usr/lib/$PKG, so that it never replaces or
 shadows the distribution's ffmpeg: the programs are c63-ffmpeg,
 c63-ffprobe and c63-ffplay, the manual pages c63-ffmpeg(1),
 c63-ffmpeg-codecs(1), ..., and programs are built against its libraries
 with PKG_CONFIG_PATH=/usr/lib/$PKG/lib/pkgconfig.
EOF
elves=$(find "$ST" -type f ! -path "$ST/DEBIAN/*" | sort | while read -r f; do
    if [ "$(od -An -c -N4 "$f" | tr -d ' ')" = '177ELF' ]; then printf '%s\n' "$f"; fi
done)
[ -n "$elves" ] || die "no ELF files staged"
mkdir -p "$ST/DEBIAN"       # how dpkg-shlibdeps knows the package's root
(cd "$W" && dpkg-shlibdeps -l"$P/lib" -Tdebian/$PKG.substvars $(printf '%s\n' "$elves" | sed "s|^$W/||")) ||
    die "dpkg-shlibdeps failed"
echo "misc:Depends=" >> "$W/debian/$PKG.substvars"

(cd "$ST" && find . -type f ! -path './DEBIAN/*' | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' md5sum) > "$ST/DEBIAN/md5sums"
chmod 644 "$ST/DEBIAN/md5sums"
(cd "$W" && dpkg-gencontrol -p$PKG -P"debian/$PKG" -Tdebian/$PKG.substvars -fdebian/files)
touch -h -d "@$SOURCE_DATE_EPOCH" "$ST/DEBIAN" "$ST/DEBIAN"/*

dpkg-deb --root-owner-group -Zxz --build "$ST" "$DEB" >/dev/null
echo "$DEB"
