#!/bin/sh
# Real camera footage for benchmarks and tests: vtest.avi, 795 frames of a
# fixed camera over a pedestrian street (768x576, 10 frames/s, MS-MPEG4v3),
# from OpenCV's samples as Debian ships them in the opencv-doc package.
#
#   sh bench/camera-clip.sh OUTDIR
#
# Prints the path of OUTDIR/vtest.avi, fetching it first if it is not there
# (apt-get download opencv-doc, then the one file out of the package; about
# 96 MB to download, 8 MB kept). CAMERA_CLIP=FILE uses FILE instead, when it
# has the same sha256. Exits non-zero, with a message, if the clip cannot be
# had.
#
# Larger sizes are made from it by the scripts that need them, with FFmpeg:
# `scale=1920:1080:flags=bicubic,noise=alls=3:allf=t` gives camera-like
# 1080p (real motion and texture, upscaled, with fresh sensor-like noise on
# every frame) and `-stream_loop -1` gives as many frames as wanted.
set -u
out=${1:?usage: camera-clip.sh OUTDIR}
sha=45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf
clip=$out/vtest.avi

check() { [ -f "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "$sha" ]; }

if check "$clip"; then echo "$clip"; exit 0; fi
mkdir -p "$out" || exit 1
if [ -n "${CAMERA_CLIP:-}" ]; then
    if check "$CAMERA_CLIP"; then cp "$CAMERA_CLIP" "$clip" && echo "$clip" && exit 0; fi
    echo "camera-clip: $CAMERA_CLIP is not vtest.avi (sha256 differs)" >&2
    exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && apt-get download opencv-doc > download.log 2>&1); then
    echo "camera-clip: apt-get download opencv-doc failed:" >&2
    tail -n 3 "$tmp/download.log" >&2
    exit 1
fi
dpkg-deb --fsys-tarfile "$tmp"/opencv-doc_*.deb |
    tar -x -C "$tmp" ./usr/share/doc/opencv-doc/examples/data/vtest.avi 2>/dev/null
if ! check "$tmp/usr/share/doc/opencv-doc/examples/data/vtest.avi"; then
    echo "camera-clip: opencv-doc has no vtest.avi with the expected sha256" >&2
    exit 1
fi
mv "$tmp/usr/share/doc/opencv-doc/examples/data/vtest.avi" "$clip" && echo "$clip"
