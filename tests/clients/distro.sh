#!/bin/sh
# The README's two commands on another distribution: `make run` and `make
# check` from the repository's committed tree, in a fresh minbase root
# file system of SUITE made by mmdebstrap, as a user would run them on a
# fresh machine of that distribution (only `make` installed first; and apt,
# which an Ubuntu minbase leaves out and every Ubuntu machine has).
#
#   tests/clients/distro.sh SUITE [LOGDIR]
#
# SUITE: a Debian suite (bookworm, trixie, ...; from deb.debian.org, main,
# with its -updates and -security) or an Ubuntu one (noble, ...; from
# archive.ubuntu.com, main and universe, with -updates and -security).
# LOGDIR (default build/distro-SUITE) receives run.log, check.log and the
# logs of make check's groups (check-*.log). The
# upstream tarballs are passed on when FFMPEG_TARBALL and NVHEADERS_TARBALL
# name them (as .ci/run does), so that the run does not depend on which
# suite carries them; the build fetches them itself otherwise.
#
# Needs root, network, mmdebstrap, the suite's archive keyring
# (debian-archive-keyring, ubuntu-keyring: in Debian from trixie on; or a
# file named by DISTRO_KEYRING), and the disk for a root file system with
# a complete build (about 10 GiB, in DISTRO_TMP, default /var/tmp). Takes
# as long as `make check` on a fresh machine. Not part of make check; its
# results are recorded in tests/README.md ("Distributions"). Exits
# with make check's status; mounts are undone and the root file system is
# removed whatever happens (KEEP_ROOT=1 keeps it, unmounted).
set -u
SUITE=${1:?usage: distro.sh SUITE [LOGDIR]}
top=$(cd "$(dirname "$0")/../.." && pwd)
LOGDIR=${2:-$top/build/distro-$SUITE}
[ "$(id -u)" = 0 ] || { echo "distro.sh: needs root (mmdebstrap, chroot, mount)"; exit 2; }
command -v mmdebstrap >/dev/null 2>&1 || { echo "distro.sh: needs mmdebstrap"; exit 2; }
case $SUITE in
bookworm|trixie|forky|sid)
    list="deb http://deb.debian.org/debian $SUITE main
deb-src http://deb.debian.org/debian $SUITE main"
    [ "$SUITE" = sid ] || list="$list
deb http://deb.debian.org/debian $SUITE-updates main
deb http://deb.debian.org/debian-security $SUITE-security main"
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg package=debian-archive-keyring ;;
focal|jammy|noble|oracular|plucky)
    m=http://archive.ubuntu.com/ubuntu
    list="deb $m $SUITE main universe
deb-src $m $SUITE main universe
deb $m $SUITE-updates main universe
deb $m $SUITE-security main universe"
    keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg package=ubuntu-keyring ;;
*) echo "distro.sh: unknown suite $SUITE"; exit 2 ;;
esac
keyring=${DISTRO_KEYRING:-$keyring}
[ -f "$keyring" ] || { echo "distro.sh: needs $keyring (apt-get install $package; or DISTRO_KEYRING=FILE)"; exit 2; }
mkdir -p "$LOGDIR" || exit 1
LOGDIR=$(cd "$LOGDIR" && pwd)
ROOT=$(mktemp -d "${DISTRO_TMP:-/var/tmp}/c63-distro-$SUITE.XXXXXX") || exit 1
chmod 755 "$ROOT"

mounts_under() { awk -v r="$ROOT" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r; }
cleanup() {
    trap - EXIT INT TERM HUP
    for m in $(mounts_under); do umount "$m" 2>/dev/null || umount -l "$m"; done
    if [ -n "$(mounts_under)" ]; then
        echo "distro.sh: mounts remain under $ROOT; not removing it"
    elif [ "${KEEP_ROOT:-0}" = 1 ]; then
        echo "distro.sh: kept $ROOT"
    else
        rm -rf --one-file-system "$ROOT"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

t0=$(date +%s)
echo "distro.sh: $SUITE root in $ROOT"
printf '%s\n' "$list" | mmdebstrap --variant=minbase --include=apt,make,ca-certificates --keyring="$keyring" \
    "$SUITE" "$ROOT" - > "$LOGDIR/mmdebstrap.log" 2>&1 ||
    { tail -n 20 "$LOGDIR/mmdebstrap.log"; exit 1; }
echo "distro.sh: root made in $(($(date +%s) - t0)) s ($(. "$ROOT/etc/os-release" && echo "$PRETTY_NAME"))"

# the committed tree, as a fresh clone has it, and the tarballs
mkdir -p "$ROOT/src" "$ROOT/cache"
git -C "$top" archive HEAD | tar -x -C "$ROOT/src" || exit 1
args=
for v in FFMPEG_TARBALL NVHEADERS_TARBALL; do
    eval "f=\${$v:-}"
    [ -n "$f" ] && [ -f "$f" ] || continue
    cp "$f" "$ROOT/cache/" && args="$args $v=/cache/$(basename "$f")"
done
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
# pip (PyAV's test) reaches PyPI as the host does: its configuration file,
# its PIP_* settings and the certificate bundle they name come along
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$ROOT/etc/pip.conf"
pipenv=$(env | grep '^PIP_[A-Z_]*=' | tr '\n' ' ')
for f in ${PIP_CERT:-} $(sed -n 's/^ *cert *= *//p' /etc/pip.conf 2>/dev/null); do
    [ -f "$f" ] && mkdir -p "$ROOT$(dirname "$f")" && cp "$f" "$ROOT$f.host" &&
        pipenv="$pipenv PIP_CERT=$f.host"
done
mount -t proc proc "$ROOT/proc" && mount -t sysfs sys "$ROOT/sys" &&
    mount --bind /dev "$ROOT/dev" && mount --bind /dev/pts "$ROOT/dev/pts" &&
    mount -t tmpfs tmpfs "$ROOT/tmp" && mount -t tmpfs -o size=50% tmpfs "$ROOT/dev/shm" ||
    { echo "distro.sh: cannot mount"; exit 1; }

inroot() { chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 $pipenv "$@"; }
t1=$(date +%s)
inroot sh -c "cd /src && make $args run" > "$LOGDIR/run.log" 2>&1
run=$?
echo "distro.sh: make run: exit $run in $(($(date +%s) - t1)) s; last lines:"
tail -n 6 "$LOGDIR/run.log" | sed 's/^/    /'
t2=$(date +%s)
inroot sh -c "cd /src && make $args check" > "$LOGDIR/check.log" 2>&1
check=$?
cp "$ROOT"/src/build/check-*.log "$LOGDIR/" 2>/dev/null
echo "distro.sh: make check: exit $check in $(($(date +%s) - t2)) s; its summary:"
grep -e '^check: ' -e '^FAILED' -e 'passed, [0-9]* failed' "$LOGDIR/check.log" | tail -n 20 | sed 's/^/    /'
echo "distro.sh: $SUITE: make run exit $run, make check exit $check, $(($(date +%s) - t0)) s in all (logs: $LOGDIR)"
[ $run -eq 0 ] && [ $check -eq 0 ]
