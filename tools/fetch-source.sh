#!/bin/sh
# Obtain a pinned upstream source tarball and check its sha256.
#
#   fetch-source.sh OUT SHA256 DEB_SOURCE UPSTREAM_VERSION [URL]
#
# OUT is where the tarball goes (DEB_SOURCE_UPSTREAM_VERSION.orig.tar.xz in
# the build folder). Tried in order:
#   1. $TARBALL, a file named by the user (make FFMPEG_TARBALL=...)
#   2. OUT itself, from an earlier fetch
#   3. the .orig tarball of Debian's source package DEB_SOURCE, in whichever
#      of the suites below carries UPSTREAM_VERSION (only the .orig file is
#      used: Debian's revision and patches come and go), fetched by apt-get
#      with a private sources list and state folder, so that the system's apt
#      configuration is not touched
#   4. URL, the upstream release download, when one is given
# Whatever the source, the file must match SHA256.
set -eu

OUT=$1 SHA256=$2 DEB_SOURCE=$3 VERSION=$4 URL=${5:-}
SUITES="unstable testing stable stable-backports oldstable-backports"
BUILD=$(dirname "$OUT")
NAME="$DEB_SOURCE $VERSION"

checksum_ok() {
    [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$SHA256" ]
}

mkdir -p "$BUILD"

if [ -n "${TARBALL:-}" ]; then
    if ! checksum_ok "$TARBALL"; then
        echo "error: $TARBALL is not $NAME (its sha256 must be $SHA256)" >&2
        exit 1
    fi
    cp "$TARBALL" "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
    echo "fetch: $NAME from $TARBALL"
    exit 0
fi

if checksum_ok "$OUT"; then
    echo "fetch: $NAME from $OUT"
    exit 0
fi
rm -f "$OUT"

if command -v apt-get >/dev/null 2>&1; then
    . "$(dirname "$0")/apt-private.sh"
    APT="$BUILD/apt-$DEB_SOURCE"
    apt_private "$APT" "$(for suite in $SUITES; do
        echo "deb-src http://deb.debian.org/debian $suite main"
    done)"
    APT=$(cd "$APT" && pwd)
    mkdir -p "$APT/dl"
    OPTS=$APT_OPTS
    echo "fetch: looking for $NAME in Debian's source packages ($SUITES)"
    if apt-get $OPTS update >"$APT/log" 2>&1; then
        # the Debian versions whose upstream part is VERSION, e.g. 7:9.0.2-1
        for v in $(apt-cache $OPTS showsrc "$DEB_SOURCE" 2>>"$APT/log" |
                   sed -n 's/^Version: //p' | sort -u |
                   grep -E "^([0-9]+:)?$(echo "$VERSION" | sed 's/\./\\./g')-"); do
            # apt-get fails when the revision's own files are gone from the
            # mirror; the .orig file may still have come, so check for it.
            (cd "$APT/dl" && apt-get $OPTS source --download-only "$DEB_SOURCE=$v") >>"$APT/log" 2>&1 || true
            if checksum_ok "$APT/dl/${DEB_SOURCE}_$VERSION.orig.tar.xz"; then
                mv "$APT/dl/${DEB_SOURCE}_$VERSION.orig.tar.xz" "$OUT"
                rm -rf "$APT"
                echo "fetch: $NAME from Debian's source package $DEB_SOURCE=$v"
                exit 0
            fi
        done
    fi
    echo "fetch: not found in Debian's source packages (see $APT/log)"
fi

if [ -n "$URL" ]; then
    for get in "curl -fsSL --connect-timeout 15 -o" "wget -q -T 15 -O"; do
        tool=${get%% *}
        command -v "$tool" >/dev/null 2>&1 || continue
        echo "fetch: trying $URL"
        if $get "$OUT.tmp" "$URL" 2>/dev/null && checksum_ok "$OUT.tmp"; then
            mv "$OUT.tmp" "$OUT"
            echo "fetch: $NAME from $URL"
            exit 0
        fi
        rm -f "$OUT.tmp"
    done
fi

cat >&2 <<MSG
error: could not obtain $NAME (sha256 $SHA256).
Download it where you can, then pass it to make, or put it at
  $OUT
and run make again.
MSG
exit 1
