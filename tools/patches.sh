#!/bin/sh
# The patches to FFmpeg's own files as a git branch, and back.
#
#   sh tools/patches.sh tree DIR [SOURCE]
#       DIR becomes a git repository: the release (SOURCE: its tarball or
#       unpacked tree, default the pinned tarball in build/) committed on branch `release` and tagged
#       n$FFMPEG_VERSION, then patches/*.patch applied with `git am -3` on
#       branch `c63`. Edit, reorder or squash the commits there
#       (git rebase -i), then export them.
#   sh tools/patches.sh export DIR
#       Replace patches/*.patch with DIR's commits since the release, as
#       `git format-patch` writes them (no diffstat, no signature, zero
#       commit ids, so that the files change only where the patches do).
#   sh tools/patches.sh check [SOURCE]
#       Both in a temporary directory: every patch applies with
#       `git am -3`, and exporting gives back exactly the files in patches/
#       (ends with "1 passed, 0 failed" or "0 passed, 1 failed").
#
# docs/rebasing.md says how to move the patches to the next release.
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
VERSION=${FFMPEG_VERSION:-$(sed -n 's/^FFMPEG_VERSION *:= *//p' "$TOP/Makefile")}
GIT="git -c user.name=c63-developers -c user.email=dev@c63.invalid -c core.autocrlf=false"

usage() {
    sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
    exit 2
}

tree() {
    dir=$1
    src=${2:-$TOP/build/ffmpeg_$VERSION.orig.tar.xz}
    [ -r "$src" ] || { echo "patches.sh: no FFmpeg source $src (make fetch)" >&2; exit 1; }
    [ ! -e "$dir" ] || { echo "patches.sh: $dir exists" >&2; exit 1; }
    mkdir -p "$dir"
    if [ -d "$src" ]; then
        cp -pR "$src/." "$dir/"
    else
        tar -xJf "$src" -C "$dir" --strip-components=1
    fi
    cd "$dir"
    $GIT init -q -b release
    $GIT add -A -f
    GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
        $GIT commit -q -m "FFmpeg $VERSION (release tarball)"
    $GIT tag "n$VERSION"
    $GIT checkout -q -b c63
    for p in "$TOP"/patches/*.patch; do
        $GIT am -q -3 --committer-date-is-author-date "$p" || {
            echo "patches.sh: $(basename "$p") does not apply; resolve in $dir (git am --continue)" >&2
            exit 1
        }
    done
    echo "$dir: branch c63, $($GIT rev-list --count "n$VERSION"..) patches on n$VERSION"
}

export_() {
    dir=$1
    out=$(mktemp -d)
    $GIT -C "$dir" format-patch -q --no-stat --no-signature --zero-commit \
        --no-numbered --abbrev=12 -o "$out" "n$VERSION"
    rm -f "$TOP"/patches/*.patch
    mv "$out"/*.patch "$TOP/patches/"
    rmdir "$out"
    echo "patches/: $(ls "$TOP"/patches/*.patch | wc -l) patches"
}

case ${1:-} in
tree)   [ $# -ge 2 ] || usage; tree "$2" "${3:-}";;
export) [ $# -eq 2 ] || usage; export_ "$2";;
check)  [ $# -le 2 ] || usage
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if ! (tree "$tmp/ff" "${2:-}") >"$tmp/log" 2>&1; then
        cat "$tmp/log"
        echo "0 passed, 1 failed"
        exit 1
    fi
    $GIT -C "$tmp/ff" format-patch -q --no-stat --no-signature --zero-commit \
        --no-numbered --abbrev=12 -o "$tmp/out" "n$VERSION"
    if diff -r "$TOP/patches" "$tmp/out" >"$tmp/diff"; then
        echo "patches: $(ls "$tmp/out" | wc -l) apply with git am -3 and export unchanged"
        echo "1 passed, 0 failed"
    else
        head -n 40 "$tmp/diff"
        echo "FAILED: exporting does not give back patches/ (sh tools/patches.sh export)"
        echo "0 passed, 1 failed"
        exit 1
    fi;;
*)      usage;;
esac
