#!/bin/sh
# Obtain the pinned FFmpeg source tarball into $BUILD.
#
# Tried in order:
#   1. FFMPEG_TARBALL=/path/to/ffmpeg-X.tar.xz  (must match the pinned checksum)
#   2. a tarball already fetched into $BUILD
#   3. the upstream .orig tarball from Debian's source package, fetched by
#      apt-get with a private sources list and state directory (the system's
#      apt configuration is not touched and none of Debian's patches are used)
#   4. a download from ffmpeg.org
# FFMPEG_SRC (an unpacked tree) is handled by the Makefile, not here.
set -eu

: "${BUILD:?}" "${FFMPEG_VERSION:?}" "${FFMPEG_SHA256:?}" "${FFMPEG_DEB_VERSION:?}"
OUT="$BUILD/ffmpeg_$FFMPEG_VERSION.orig.tar.xz"

checksum_ok() {
    [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$FFMPEG_SHA256" ]
}

mkdir -p "$BUILD"

if [ -n "${FFMPEG_TARBALL:-}" ]; then
    if ! checksum_ok "$FFMPEG_TARBALL"; then
        echo "error: $FFMPEG_TARBALL is not FFmpeg $FFMPEG_VERSION (sha256 must be $FFMPEG_SHA256)" >&2
        exit 1
    fi
    cp "$FFMPEG_TARBALL" "$OUT.tmp" && mv "$OUT.tmp" "$OUT"
    echo "fetch: using $FFMPEG_TARBALL"
    exit 0
fi

if checksum_ok "$OUT"; then
    echo "fetch: using $OUT"
    exit 0
fi
rm -f "$OUT"

# Debian source package, through a private apt configuration.
if command -v apt-get >/dev/null 2>&1; then
    APT="$BUILD/apt"
    mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/dl"
    : > "$APT/sources.list"
    for suite in bookworm bookworm-updates; do
        echo "deb-src http://deb.debian.org/debian $suite main" >> "$APT/sources.list"
    done
    echo "deb-src http://deb.debian.org/debian-security bookworm-security main" >> "$APT/sources.list"
    OPTS="-o Dir::Etc::SourceList=$(cd "$APT" && pwd)/sources.list -o Dir::Etc::SourceParts=/dev/null \
          -o Dir::State::Lists=$(cd "$APT" && pwd)/lists -o Dir::Cache=$(cd "$APT" && pwd)/cache \
          -o Dir::State::status=/dev/null -o APT::Sandbox::User=$(id -un) -qq"
    echo "fetch: trying Debian's source package ffmpeg=$FFMPEG_DEB_VERSION"
    if apt-get $OPTS update >"$APT/log" 2>&1 &&
       (cd "$APT/dl" && apt-get $OPTS source --download-only "ffmpeg=$FFMPEG_DEB_VERSION") >>"$APT/log" 2>&1 &&
       checksum_ok "$APT/dl/ffmpeg_$FFMPEG_VERSION.orig.tar.xz"; then
        mv "$APT/dl/ffmpeg_$FFMPEG_VERSION.orig.tar.xz" "$OUT"
        rm -rf "$APT"
        echo "fetch: got $OUT from Debian's source package"
        exit 0
    fi
    echo "fetch: Debian's source package not available (see $APT/log)"
fi

URL="https://ffmpeg.org/releases/ffmpeg-$FFMPEG_VERSION.tar.xz"
for get in "curl -fsSL --connect-timeout 15 -o" "wget -q -T 15 -O"; do
    tool=${get%% *}
    command -v "$tool" >/dev/null 2>&1 || continue
    echo "fetch: trying $URL"
    if $get "$OUT.tmp" "$URL" 2>/dev/null && checksum_ok "$OUT.tmp"; then
        mv "$OUT.tmp" "$OUT"
        echo "fetch: got $OUT"
        exit 0
    fi
    rm -f "$OUT.tmp"
done

cat >&2 <<MSG
error: could not obtain the FFmpeg $FFMPEG_VERSION source.
Provide it in one of these ways and run make again:
  make FFMPEG_TARBALL=/path/to/ffmpeg-$FFMPEG_VERSION.tar.xz   (sha256 $FFMPEG_SHA256)
  make FFMPEG_SRC=/path/to/ffmpeg-$FFMPEG_VERSION               (an unpacked, unmodified tree)
  or put ffmpeg_$FFMPEG_VERSION.orig.tar.xz into $BUILD/
MSG
exit 1
