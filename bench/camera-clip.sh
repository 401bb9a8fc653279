#!/bin/sh
# Real camera footage for benchmarks and tests, from OpenCV's samples as
# Debian ships them in the opencv-doc package:
#
#   vtest  vtest.avi, 795 frames of a fixed camera over a pedestrian street
#          (768x576, 10 frames/s, MS-MPEG4v3); the default
#   box    box.mp4, 456 frames of a hand-held camera panning over a desk
#          with a box moved about (640x480, 29.97 frames/s, H.264)
#   cup    cup.mp4, 217 frames of a hand-held camera turning around a cup
#          (640x480, 26.8 frames/s, H.264)
#
#   sh bench/camera-clip.sh OUTDIR [NAME]
#
# Prints the path of OUTDIR/vtest.avi (OUTDIR/box.mp4, OUTDIR/cup.mp4),
# fetching it first if it is not there (apt-get download opencv-doc, then
# the one file out of the package; about 96 MB to download). CAMERA_CLIP=FILE
# uses FILE instead, when it has the same sha256. Exits non-zero, with a
# message, if the clip cannot be had.
#
# Larger sizes are made from them by the scripts that need them, with
# FFmpeg: `scale=1920:1080:flags=bicubic,noise=alls=3:allf=t` gives
# camera-like 1080p (real motion and texture, upscaled, with fresh
# sensor-like noise on every frame) and `-stream_loop -1` gives as many
# frames as wanted.
set -u
out=${1:?usage: camera-clip.sh OUTDIR [vtest|box|cup]}
doc=./usr/share/doc/opencv-doc
case ${2:-vtest} in
vtest) sha=45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf
       member=$doc/examples/data/vtest.avi file=vtest.avi ;;
box)   sha=62b744b99403f899707c43398a3822441add6160379ab6dd6c12bde9e3075f8d
       member=$doc/opencv4/html/box.mp4.gz file=box.mp4 ;;
cup)   sha=37db9cee98f70b1458985a15ad2e5b0183e90e24c281b534afcf812e5986154f
       member=$doc/opencv4/html/cup.mp4.gz file=cup.mp4 ;;
*)     echo "camera-clip: no clip named $2 (vtest, box, cup)" >&2; exit 1 ;;
esac
clip=$out/$file

check() { [ -f "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "$sha" ]; }

if check "$clip"; then echo "$clip"; exit 0; fi
mkdir -p "$out" || exit 1
if [ -n "${CAMERA_CLIP:-}" ]; then
    if check "$CAMERA_CLIP"; then cp "$CAMERA_CLIP" "$clip" && echo "$clip" && exit 0; fi
    echo "camera-clip: $CAMERA_CLIP is not $file (sha256 differs)" >&2
    exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && apt-get download opencv-doc > download.log 2>&1); then
    echo "camera-clip: apt-get download opencv-doc failed:" >&2
    tail -n 3 "$tmp/download.log" >&2
    exit 1
fi
dpkg-deb --fsys-tarfile "$tmp"/opencv-doc_*.deb | tar -x -C "$tmp" "$member" 2>/dev/null
got=$tmp/$member
case $member in *.gz) gunzip -f "$got" 2>/dev/null; got=${got%.gz} ;; esac
if ! check "$got"; then
    echo "camera-clip: opencv-doc has no $file with the expected sha256" >&2
    exit 1
fi
mv "$got" "$clip" && echo "$clip"
