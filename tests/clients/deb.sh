#!/bin/sh
# The package installs on a fresh system: tools/make-deb.sh's package in a
# fresh minbase root file system of the host's own distribution and suite.
#
#   tests/clients/deb.sh DEB [REF_FFMPEG]
#
# DEB is c63-ffmpeg_<version>_<arch>.deb. REF_FFMPEG gives the expected md5s
# of the c63 pipeline (default: the project's build/ffmpeg, else the deb's
# own ffmpeg run on the host). The root file system is made by mmdebstrap
# (else debootstrap), --variant=minbase, from deb.debian.org (Debian: main
# of SUITE, SUITE-updates, SUITE-security) or archive.ubuntu.com (Ubuntu:
# main and universe, likewise), the suite that /etc/os-release names, with
# the distribution's ffmpeg and, for the checks, gcc, libc6-dev, pkg-config
# and man-db (no Recommends). The host's /var/cache/apt/archives, where it
# is on the same file system, is hard-linked in as a package cache: its
# files are only read, and the host's apt state is not touched.
#
# Then, in a chroot (/proc and /dev mounted; on exit, whatever happens,
# every mount under the root is undone before anything is deleted, and
# nothing is deleted while one remains): apt-get install ./DEB, the checks,
# apt-get remove --purge, the checks after removal. The runs of ffmpeg and
# ffprobe whose output a check reads must end cleanly (tests/fate/
# checked.sh: exit status 0, no sanitizer report), and their output is
# read from a file once they have. Prints PASS:/FAILED:
# lines, the time of each phase and "N passed, N failed"; exits non-zero on
# any failure. Without root, network or the tools it says SKIPPED and why,
# and exits 77 (never 0).
#
# The root file system is a tmpfs of its own (mounted on a folder of
# /var/tmp) where 4 GiB of memory are available: dpkg's writes to a disk
# are most of the bootstrap's time, and clean-up is then an unmount. Else
# it is on the disk, where the host's package cache can be hard-linked.
#
# Environment: KEEP_ROOT=1 keeps the root file system (on the disk,
# unmounted) and says where; DEB_TMP=DIR makes it on the disk in DIR
# (default /var/tmp, for the hard links); DEB_TMPFS=0 never uses a tmpfs;
# DEB_BOOTSTRAP=debootstrap uses debootstrap even where mmdebstrap is
# installed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/fate/checked.sh"

skip() { echo "SKIPPED (nothing was tested, this is not a pass): $*"; exit 77; }
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 DEB [REF_FFMPEG]" >&2; exit 2; }
[ -r "$1" ] || { echo "deb.sh: cannot read $1" >&2; exit 2; }
DEB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
REF=${2:-}
[ "$(id -u)" = 0 ] || skip "deb.sh needs root (mmdebstrap/debootstrap, chroot, mount); run it as root"
[ -r /etc/os-release ] || skip "no /etc/os-release: cannot tell the host's distribution"
[ "$(dpkg-deb -f "$DEB" Package 2>/dev/null)" = c63-ffmpeg ] || { echo "deb.sh: $DEB is not the c63-ffmpeg package" >&2; exit 2; }

# the host's distribution and suite
ID=$(. /etc/os-release && echo "${ID:-}")
SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
ARCH=$(dpkg --print-architecture)
case $ID in
debian)
    MIRROR=http://deb.debian.org/debian SECURITY=http://deb.debian.org/debian-security COMPONENTS=main ;;
ubuntu)
    case $ARCH in amd64|i386) MIRROR=http://archive.ubuntu.com/ubuntu ;;
                  *) MIRROR=http://ports.ubuntu.com/ubuntu-ports ;; esac
    SECURITY=$MIRROR COMPONENTS="main universe" ;;
*) skip "the host is '$ID', neither Debian nor Ubuntu" ;;
esac
[ -n "$SUITE" ] || skip "/etc/os-release names no VERSION_CODENAME"
[ "$(dpkg-deb -f "$DEB" Architecture)" = "$ARCH" ] || { echo "deb.sh: $DEB is not for $ARCH" >&2; exit 2; }
if [ -n "${DEB_BOOTSTRAP:-}" ]; then BOOTSTRAP=$DEB_BOOTSTRAP
elif command -v mmdebstrap >/dev/null 2>&1; then BOOTSTRAP=mmdebstrap
elif command -v debootstrap >/dev/null 2>&1; then BOOTSTRAP=debootstrap
else skip "neither mmdebstrap nor debootstrap is installed (apt-get install -y --no-install-recommends mmdebstrap)"
fi
case $BOOTSTRAP in mmdebstrap|debootstrap) ;; *) echo "deb.sh: DEB_BOOTSTRAP is mmdebstrap or debootstrap" >&2; exit 2 ;; esac
command -v $BOOTSTRAP >/dev/null 2>&1 || skip "$BOOTSTRAP is not installed (apt-get install -y --no-install-recommends $BOOTSTRAP)"
for t in chroot mount umount readelf md5sum; do
    command -v $t >/dev/null 2>&1 || skip "no $t on the host"
done
W=$(mktemp -d "${TMPDIR:-/tmp}/c63-deb.XXXXXX") || exit 1
if ! /usr/lib/apt/apt-helper download-file "$MIRROR/dists/$SUITE/InRelease" "$W/InRelease" >/dev/null 2>&1; then
    rm -rf "$W"; skip "no network: $MIRROR/dists/$SUITE/InRelease cannot be fetched"
fi

pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAILED: $1"; }
# check DESCRIPTION SHELL-CODE: the code is evaluated here, with inc and the
# variables at hand; returns its status, so that `|| show why` can follow
check() { if eval "$2"; then ok "$1"; else bad "$1"; return 1; fi; }
finish() { echo "time:$times total $(($(date +%s) - t0))s"; echo "$pass passed, $fail failed"; [ $fail = 0 ]; exit; }
t0=$(date +%s) tp=$t0 times=""
phase() { t=$(date +%s); times="$times $1 $((t - tp))s,"; tp=$t; }

# ---- the root file system, and its clean-up ------------------------------
TMPD=${DEB_TMP:-/var/tmp}
# every mount point at or under $1 (default: ROOT), deepest first
mounts_under() { awk -v r="${1:-$ROOT}" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r; }
unmount_all() {
    for m in $(mounts_under "$@"); do
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || echo "deb.sh: cannot unmount $m" >&2
    done
}
# the mounts inside ROOT, not ROOT itself (its tmpfs)
unmount_inside() {
    for m in $(mounts_under | grep -v -x -F "$ROOT"); do
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || echo "deb.sh: cannot unmount $m" >&2
    done
}
# a root file system left by a run that was killed (SIGKILL leaves it no
# clean-up): its ROOT.pid names a process that is gone
for pf in "$TMPD"/c63-deb-root.*.pid; do
    [ -f "$pf" ] || continue
    ! kill -0 "$(cat "$pf")" 2>/dev/null || continue
    r=${pf%.pid}
    echo "deb.sh: removing $r, left by a killed run"
    unmount_all "$r"
    [ -n "$(mounts_under "$r")" ] || { rm -rf --one-file-system "$r"; rm -f "$pf"; }
done
ROOT=$(mktemp -d "$TMPD/c63-deb-root.XXXXXX") || exit 1
case $ROOT in /?*/?*) ;; *) echo "deb.sh: odd root $ROOT" >&2; exit 1 ;; esac
echo $$ > "$ROOT.pid"
chmod 755 "$ROOT"     # mktemp's 0700 would lock _apt and every other user out
cleanup() {
    trap - EXIT INT TERM HUP
    unmount_all
    if [ -n "$(mounts_under)" ]; then
        echo "deb.sh: still mounted under $ROOT; NOT deleting it:" >&2; mounts_under >&2
    elif [ "${KEEP_ROOT:-0}" = 1 ]; then
        echo "root file system kept in $ROOT"; rm -f "$ROOT.pid"
    else
        rm -rf --one-file-system "$ROOT"; rm -f "$ROOT.pid"
    fi
    rm -rf "$W"
}
trap cleanup EXIT
trap 'echo "deb.sh: interrupted" >&2; exit 130' INT TERM HUP
# in memory where there is room for it (about 1 GB is written): dpkg's
# writes are what the bootstrap waits for on a disk, and clean-up is an
# unmount; else on the disk, with the host's package cache
avail=$(awk '/^MemAvailable:/ { print int($2 / 1048576) }' /proc/meminfo)
if [ "${DEB_TMPFS:-1}" = 1 ] && [ -z "${DEB_TMP:-}" ] && [ "${KEEP_ROOT:-0}" != 1 ] && [ "${avail:-0}" -ge 4 ]; then
    mount -t tmpfs -o size=3g,mode=755 c63-deb-root "$ROOT" && echo "root file system: tmpfs ($avail GiB of memory available)"
fi

# ---- on the host: the expected md5s, the package as shipped --------------
# c63: encode a testsrc2 clip, decode it
ENC="-nostdin -v error -f lavfi -i testsrc2=s=352x288:r=25 -frames:v 25 -c:v c63 -f c63"
DEC="-nostdin -v error -f c63 -i clip.c63 -f rawvideo -pix_fmt yuv420p"
mkdir -p "$W/x" && dpkg-deb -x "$DEB" "$W/x" || exit 1
CHECKED_ERR=$W/stderr
[ -n "$REF" ] || { [ -x "$top/build/ffmpeg" ] && REF=$top/build/ffmpeg; } || REF=$W/x/usr/lib/c63-ffmpeg/bin/ffmpeg
(cd "$W" && run_ok "$REF" $ENC clip.c63 && run_ok "$REF" $DEC clip.yuv) ||
    { echo "deb.sh: $REF cannot encode and decode the clip" >&2; exit 1; }
want_enc=$(md5sum < "$W/clip.c63" | cut -d' ' -f1)
want_dec=$(md5sum < "$W/clip.yuv" | cut -d' ' -f1)
rm -f "$W/clip.yuv"
echo "expected md5s (from $REF): c63 stream $want_enc, decoded $want_dec"

dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||; /^$/d' > "$W/contents"
outside=$(grep -v -E '^(/usr|/usr/bin|/usr/lib|/usr/share|/usr/share/man|/usr/share/man/man[13]|/usr/share/doc|/usr/share/lintian|/usr/share/lintian/overrides)$' "$W/contents" |
    grep -v -E '^(/usr/lib/c63-ffmpeg(/.*)?|/usr/bin/c63-[a-z]+|/usr/share/man/man[13]/c63-[^/]+\.[13]\.gz|/usr/share/doc/c63-ffmpeg(/.*)?|/usr/share/lintian/overrides/c63-ffmpeg)$')
check "every path of the package under its own names (the prefix, c63-*, its doc)" '[ -z "$outside" ]' ||
    echo "$outside" | head -n 5
check "no ld.so.conf.d file (nothing under /etc), no static library" '! grep -q -E "^/etc|\.a$" "$W/contents"'
runpaths() {
    for p in ffmpeg ffprobe ffplay; do
        rp=$(readelf -d "$W/x/usr/lib/c63-ffmpeg/bin/$p" 2>/dev/null | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
        [ "$rp" = '$ORIGIN/../lib' ] || { echo "  $p: RUNPATH '$rp'"; return 1; }
    done
}
check "ffmpeg, ffprobe, ffplay have RUNPATH \$ORIGIN/../lib (readelf)" runpaths

phase host
# ---- bootstrap ------------------------------------------------------------
# (apt itself: an Ubuntu minbase leaves it out, and the package is installed
# with apt-get)
INCLUDE="apt ffmpeg gcc libc6-dev pkg-config man-db"
S1="deb $MIRROR $SUITE $COMPONENTS"
S2="deb $MIRROR $SUITE-updates $COMPONENTS"
S3="deb $SECURITY $SUITE-security $COMPONENTS"
# the host's package cache, hard-linked (not copied; the host's files are
# only read), where it is on the same file system
link_cache=""
if ls /var/cache/apt/archives/*.deb >/dev/null 2>&1 &&
   [ "$(stat -c %d /var/cache/apt/archives)" = "$(stat -c %d "$ROOT")" ]; then
    link_cache='mkdir -p "$1/var/cache/apt/archives" && cp -l /var/cache/apt/archives/*.deb "$1/var/cache/apt/archives/" 2>/dev/null || true'
    echo "package cache: the host's /var/cache/apt/archives ($(ls /var/cache/apt/archives/*.deb | wc -l) files, hard-linked)"
fi
echo "bootstrap: $BOOTSTRAP --variant=minbase $ID $SUITE $ARCH, with $INCLUDE"
if [ $BOOTSTRAP = mmdebstrap ]; then
    set -- --variant=minbase --mode=root --include="$(echo $INCLUDE | tr ' ' ,)" \
        --components="$(echo $COMPONENTS | tr ' ' ,)" --aptopt='Acquire::Retries "3"' --dpkgopt=force-unsafe-io \
        --skip=cleanup/apt/lists --skip=essential/unlink
    [ -z "$link_cache" ] || set -- "$@" --setup-hook="$link_cache"
    mmdebstrap -q "$@" "$SUITE" "$ROOT" "$S1" "$S2" "$S3" > "$W/bootstrap.log" 2>&1
    st=$?
else
    [ -z "$link_cache" ] || sh -c "$link_cache" sh "$ROOT"
    debootstrap --variant=minbase --components="$(echo $COMPONENTS | tr ' ' ,)" "$SUITE" "$ROOT" "$MIRROR" > "$W/bootstrap.log" 2>&1 &&
        printf '%s\n' "$S1" "$S2" "$S3" > "$ROOT/etc/apt/sources.list" &&
        echo force-unsafe-io > "$ROOT/etc/dpkg/dpkg.cfg.d/unsafe-io" &&
        rm -f "$ROOT/etc/resolv.conf" && cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" &&
        mount -t proc proc "$ROOT/proc" && mount --bind /dev "$ROOT/dev" &&
        chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
            "apt-get -q update && apt-get -q install -y --no-install-recommends $INCLUDE" >> "$W/bootstrap.log" 2>&1
    st=$?
    unmount_inside
fi
[ $st != 0 ] || [ -x "$ROOT/usr/bin/ffmpeg" ] || st=1
if [ $st != 0 ]; then
    tail -n 30 "$W/bootstrap.log"
    bad "a fresh $ID $SUITE root file system with the distribution's ffmpeg ($BOOTSTRAP)"
    finish
fi
ok "a fresh $ID $SUITE root file system with the distribution's ffmpeg ($BOOTSTRAP; $(du -sm --one-file-system "$ROOT" | cut -f1) MB)"
phase bootstrap

# ---- into the chroot ------------------------------------------------------
mount -t proc proc "$ROOT/proc" || { bad "mount /proc in the chroot"; finish; }
mount --bind /dev "$ROOT/dev" || { bad "mount /dev in the chroot"; finish; }
rm -f "$ROOT/etc/resolv.conf" && cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
T=$ROOT/tmp/c63
mkdir -p "$T" && cp "$DEB" "$T/"
# inc CMDLINE: runs CMDLINE in the chroot, in /tmp/c63, in a clean environment
inc() {
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LC_ALL=C TMPDIR=/tmp DEBIAN_FRONTEND=noninteractive sh -c "cd /tmp/c63 && $1"
}
# inc_out CMDLINE: what CMDLINE (one program, in the chroot) prints, once it
# has succeeded cleanly (run_ok); nothing where it has not
inc_out() {
    run_ok inc "$1" > "$W/inc.out" && cat "$W/inc.out"
}
# inc_md5 CMDLINE FILE: CMDLINE (one program, in the chroot) writes FILE in
# /tmp/c63 and must succeed cleanly (run_ok): FILE's md5, nothing where the
# run failed or FILE is empty (FILE is removed after)
inc_md5() {
    rm -f "$T/$2"
    if run_ok inc "$1" && [ -s "$T/$2" ]; then
        md5sum < "$T/$2" | cut -d' ' -f1
    fi
    rm -f "$T/$2"
}

# the distribution's ffmpeg, before: its version, and an encode and decode
dist_ver=$(inc "dpkg-query -W -f '\${Version}' ffmpeg")
dist_up=$(echo "$dist_ver" | sed 's/^[0-9]*://; s/-[^-]*$//')     # 7:5.1.9-0+deb12u1: 5.1.9
run_ok inc "ffmpeg -nostdin -v error -f lavfi -i testsrc2=s=160x120:r=25 -frames:v 10 -c:v mpeg4 dist.avi"
dist_md5=$(inc_md5 "ffmpeg -nostdin -v error -i dist.avi -f rawvideo -pix_fmt yuv420p dist.yuv" dist.yuv)
check "the distribution's ffmpeg encodes an MPEG-4 clip and decodes it" '[ -n "$dist_md5" ]'
echo "the distribution's ffmpeg: $dist_ver"

if inc "apt-get -q install -y --no-install-recommends ./$(basename "$DEB")" > "$W/install.log" 2>&1; then
    ok "apt-get install -y ./$(basename "$DEB") (dpkg set up $(grep -c "^Setting up" "$W/install.log") package(s))"
else
    tail -n 30 "$W/install.log"
    bad "apt-get install -y ./$(basename "$DEB")"
    finish
fi
phase install
# what dpkg lists, less the directories (shared ones stay)
inc "dpkg -L c63-ffmpeg" > "$W/list"
while read -r f; do if [ -L "$ROOT$f" ] || [ ! -d "$ROOT$f" ]; then echo "$f"; fi; done < "$W/list" > "$W/files"

# the programs, through /usr/bin's symlinks and RUNPATH alone
check "c63-ffmpeg -version shows 9.0.2" 'inc_out "c63-ffmpeg -version" | head -n 1 | grep -q "^ffmpeg version 9\.0\.2"'
check "c63-ffprobe and c63-ffplay run (-version)" \
    '{ run_ok inc "c63-ffprobe -version" && run_ok inc "c63-ffplay -version"; } >/dev/null 2>&1'
# (ldd of the real path: ldd of the symlink would take $ORIGIN for /usr/bin,
# where the kernel and ld.so, through /proc/self/exe, take the real one)
inc "ldd \$(readlink -f /usr/bin/c63-ffmpeg)" > "$W/ldd" 2>&1
check "c63-ffmpeg's libraries come from /usr/lib/c63-ffmpeg/lib, none missing (ldd)" \
    'grep -q -E "=> /usr/lib/c63-ffmpeg/(bin/\.\./)?lib/libavcodec\.so" "$W/ldd" && ! grep -q "not found" "$W/ldd"' || head -n 12 "$W/ldd"
# one FFmpeg per process: no external library may bring the distribution's
# libav*/libsw* along (bookworm's libchromaprint1 links libavcodec59)
other=$(grep -E '^[[:space:]]*lib(av|sw|postproc)[a-z]*\.so' "$W/ldd" | grep -v '=> /usr/lib/c63-ffmpeg/' | awk '{ print $1 }' | tr '\n' ' ')
check "c63-ffmpeg loads no FFmpeg library but its own (ldd${other:+: also $other})" '[ -z "$other" ]'
check "no ld.so.conf.d entry, nothing of the prefix in ld.so.cache" '! inc "cat /etc/ld.so.conf.d/* 2>/dev/null; ldconfig -p" | grep -q c63-ffmpeg'

# CPU pipelines: c63 encode and decode, the md5s of the host's build
got_enc=
run_ok inc "c63-ffmpeg $ENC clip.c63" && [ -s "$T/clip.c63" ] && got_enc=$(md5sum < "$T/clip.c63" | cut -d' ' -f1)
got_dec=$(inc_md5 "c63-ffmpeg $DEC clip.yuv" clip.yuv)
check "c63 encode: the host's md5 ($got_enc)" '[ -n "$got_enc" ] && [ "$got_enc" = "$want_enc" ]'
check "c63 decode: the host's md5 ($got_dec)" '[ -n "$got_dec" ] && [ "$got_dec" = "$want_dec" ]'
# H.264 (libx264) + AAC in MP4, then c63 + AAC in Matroska
run_ok inc "c63-ffmpeg -nostdin -v error -f lavfi -i testsrc2=s=320x240:r=25 -f lavfi -i sine=f=440:r=48000 -t 2 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -b:a 96k h264.mp4" > "$W/err" 2>&1 &&
    mp4=$(inc_out "c63-ffprobe -v error -show_entries stream=codec_name -of csv=p=0 h264.mp4" | tr '\n' ' ') ||
    mp4="(failed)"
check "libx264 + AAC into MP4 ($mp4)" '[ "$mp4" = "h264 aac " ]' || cat "$W/err"
run_ok inc "c63-ffmpeg -nostdin -v error -i h264.mp4 -c:v c63 -c:a aac out.mkv" > "$W/err" 2>&1 &&
    probe=$(inc_out "c63-ffprobe -v error -show_entries stream=codec_type,codec_name:format=format_name -of compact=p=0 out.mkv" | tr '\n' ' ') ||
    probe="(failed)"
check "MP4 to c63 + AAC in Matroska; ffprobe: $probe" \
    'case $probe in *"codec_name=c63|codec_type=video"*"codec_name=aac|codec_type=audio"*"format_name=matroska"*) ;; *) false ;; esac' || cat "$W/err"
frames=$(inc_out "c63-ffmpeg -nostdin -v error -i out.mkv -map 0:v -f framemd5 -" | grep -c '^0,')
check "the Matroska file decodes ($frames frames of 50)" '[ "$frames" = 50 ]'

# the distribution's ffmpeg is untouched and still the distribution's
dist_line=$(inc_out "ffmpeg -version" | head -n 1)
check "/usr/bin/ffmpeg is still the distribution's $dist_ver (dpkg -S; $(echo "$dist_line" | cut -d' ' -f1-3))" \
    'inc "dpkg -S /usr/bin/ffmpeg" | grep -q "^ffmpeg: /usr/bin/ffmpeg\$" && [ ! -L "$ROOT/usr/bin/ffmpeg" ] &&
     case $dist_line in "ffmpeg version $dist_up"*) ;; *) false ;; esac && ! inc "ldd /usr/bin/ffmpeg" | grep -q c63-ffmpeg'
h264_c63=$(inc_md5 "c63-ffmpeg -nostdin -v error -i h264.mp4 -map 0:v -f rawvideo -pix_fmt yuv420p h264.yuv" h264.yuv)
h264_dist=$(inc_md5 "ffmpeg -nostdin -v error -i h264.mp4 -map 0:v -f rawvideo -pix_fmt yuv420p h264.yuv" h264.yuv)
check "the distribution's ffmpeg decodes c63-ffmpeg's H.264 to the same frames" '[ -n "$h264_dist" ] && [ "$h264_dist" = "$h264_c63" ]'

# a program built against the package's pkg-config files
cat > "$T/t.c" <<'EOF'
#include <stdio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
int main(void)
{
    const AVCodec *c = avcodec_find_decoder_by_name("c63");
    if (!c)
        return 1;
    printf("%s %s %u\n", c->name, av_version_info(), avcodec_version());
    return 0;
}
EOF
PC=PKG_CONFIG_PATH=/usr/lib/c63-ffmpeg/lib/pkgconfig
libs=$(inc "$PC pkg-config --libs libavcodec libavutil")
onlyl() { [ -n "$libs" ] || return 1; for a in $libs; do case $a in -L/usr/lib/c63-ffmpeg/lib|-l*) ;; *) return 1 ;; esac; done; }
check "pkg-config --libs has only -L/-l ($libs)" onlyl
check "headers in /usr/lib/c63-ffmpeg/include" '[ -f "$ROOT/usr/lib/c63-ffmpeg/include/libavcodec/avcodec.h" ]'
inc "export $PC; gcc -Wall -o t t.c \$(pkg-config --cflags --libs libavcodec libavutil) -Wl,-rpath,\$(pkg-config --variable=libdir libavcodec)" > "$W/err" 2>&1
out=$(inc_out "./t" 2>&1)
check "a C program built with $PC runs and finds the c63 decoder ($out)" \
    'case $out in "c63 9.0.2 "*) ;; *) false ;; esac' || {
    cat "$W/err"; inc "ldd ./t" | grep 'not found'
    # why: the libraries' own dependencies on one another are not searched
    # in the program's DT_RUNPATH (only DT_RPATH is inherited)
    inc "export $PC; gcc -o t2 t.c \$(pkg-config --cflags --libs libavcodec libavutil) -Wl,--disable-new-dtags,-rpath,\$(pkg-config --variable=libdir libavcodec) && ./t2" > "$W/err2" 2>&1 &&
        echo "  note: it runs when linked with -Wl,--disable-new-dtags (DT_RPATH): the libraries lack RUNPATH \$ORIGIN, so their own NEEDED libraries (libswresample, ...) are not found through the program's DT_RUNPATH"
    readelf -d "$W/x/usr/lib/c63-ffmpeg/lib/libavcodec.so" | grep -q 'R.*PATH' || echo "  note: libavcodec.so has no RUNPATH"
}

# the man pages
mw=$(inc "man -w c63-ffmpeg c63-ffprobe c63-ffplay c63-ffmpeg-codecs; man -w 3 c63-libavcodec" 2>&1 | tr '\n' ' ')
check "man -w c63-ffmpeg c63-ffprobe c63-ffplay c63-ffmpeg-codecs, man -w 3 c63-libavcodec" \
    '[ "$mw" = "/usr/share/man/man1/c63-ffmpeg.1.gz /usr/share/man/man1/c63-ffprobe.1.gz /usr/share/man/man1/c63-ffplay.1.gz /usr/share/man/man1/c63-ffmpeg-codecs.1.gz /usr/share/man/man3/c63-libavcodec.3.gz " ]' ||
    echo "  $mw"
check "man c63-ffmpeg renders; its SEE ALSO names c63-ffmpeg-all(1)" \
    'inc "MANWIDTH=80 MANPAGER=cat man c63-ffmpeg 2>/dev/null" | grep -q "c63-ffmpeg-all(1)"'
phase checks

# ---- removal --------------------------------------------------------------
if inc "apt-get -q remove --purge -y c63-ffmpeg" > "$W/remove.log" 2>&1; then
    ok "apt-get remove --purge -y c63-ffmpeg"
else
    tail -n 20 "$W/remove.log"; bad "apt-get remove --purge -y c63-ffmpeg"
fi
left=$(while read -r f; do if [ -e "$ROOT$f" ] || [ -L "$ROOT$f" ]; then echo "$f"; fi; done < "$W/files")
check "no file of the package left (the $(wc -l < "$W/files") files of dpkg -L)" \
    '[ -z "$left" ] && [ ! -e "$ROOT/usr/lib/c63-ffmpeg" ] && [ ! -e "$ROOT/usr/share/doc/c63-ffmpeg" ]' || echo "$left" | head -n 5
status=$(inc "dpkg-query -W -f '\${Status}' c63-ffmpeg 2>/dev/null")
check "dpkg knows no c63-ffmpeg any more (${status:-no entry})" 'case $status in ""|*" not-installed") ;; *) false ;; esac'
after=$(inc_md5 "ffmpeg -nostdin -v error -i dist.avi -f rawvideo -pix_fmt yuv420p dist.yuv" dist.yuv)
check "the distribution's ffmpeg and libav* still decode (the md5 of before)" '[ -n "$after" ] && [ "$after" = "$dist_md5" ]'
h264_after=$(inc_md5 "ffmpeg -nostdin -v error -i h264.mp4 -map 0:v -f rawvideo -pix_fmt yuv420p h264.yuv" h264.yuv)
check "the distribution's ffmpeg still decodes the H.264 clip" '[ -n "$h264_after" ] && [ "$h264_after" = "$h264_c63" ]'
# (the installed packages of FFmpeg's libraries only: dpkg also knows
# packages it has not installed, and others whose names start alike, such as
# trixie's libswupdate)
verify=$(inc 'dpkg --verify ffmpeg $(dpkg-query -W -f "\${db:Status-Abbrev} \${Package}\n" "libavcodec*" \
    "libavformat*" "libavutil*" "libavfilter*" "libavdevice*" "libswscale*" "libswresample*" "libpostproc*" \
    2>/dev/null | awk "/^ii/ { print \$2 }")' 2>&1)
check "dpkg --verify: the files of ffmpeg and its libav*, libsw*, libpostproc* unchanged" '[ -z "$verify" ]' ||
    echo "$verify" | head -n 5
phase removal
finish
