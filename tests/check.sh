#!/bin/sh
# The closing step of make check: the FATE results, then the groups of tests
# of the complete build, each summarised, then one "N passed, N failed" line
# for the whole run. Exits non-zero when anything failed or did not run.
#
#   check.sh OBJ BUILD PREFIX LICENSE TEST...   (FATE test names without fate-)
#       (FFMPEG_SOURCE in the environment: the release's tarball or tree,
#       for the check of the patches)
#   check.sh --clients OBJ BUILD PREFIX LICENSE (the package and PyAV only)
#
# OBJ is the small build the FATE tests ran in, BUILD the build folder (the
# complete build's programs are BUILD/ffmpeg etc., its tree BUILD/full, its
# package BUILD/c63-ffmpeg_*.deb), PREFIX where the complete build was
# installed for the tests.
clients_only=
[ "$1" = --clients ] && { clients_only=1; shift; }
OBJ=$1 BUILD=$2 PREFIX=$3 LICENSE=$4
shift 4
here=$(dirname "$0")
status=0
passed=0 failed=0

# group NAME LOG COMMAND...: runs a group, shows its failures, adds its
# closing "N passed, N failed" line to the totals
group() {
    name=$1 log=$2
    shift 2
    "$@" > "$log" 2>&1 || status=1
    grep -e '^FAILED' -e '^SKIP' "$log"
    last=$(tail -n 1 "$log")
    echo "check: $name: $last (log: $log)"
    p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
    f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
    if [ -z "$p" ]; then
        echo "check: $name: did not finish"
        status=1 failed=$((failed + 1))
        return
    fi
    passed=$((passed + p)) failed=$((failed + f))
}

deb=$(ls "$BUILD"/c63-ffmpeg_*.deb 2>/dev/null | tail -n 1)

if [ -z "$clients_only" ]; then
    group FATE "$BUILD/check-fate.log" sh "$here/summary.sh" "$OBJ" "$@"
    group "patches (git am -3, git format-patch)" "$BUILD/check-patches.log" \
        sh "$here/../tools/patches.sh" check "${FFMPEG_SOURCE:-}"
    group "installed libraries and API example" "$BUILD/check-install.log" \
        sh "$here/check-install.sh" "$PREFIX" "$BUILD" "$LICENSE"
    group "user pipelines" "$BUILD/check-pipelines.log" sh "$here/clients/pipelines.sh" "$BUILD"
    group "components against the distribution's ffmpeg" "$BUILD/check-coverage.log" \
        sh "$here/clients/coverage.sh" "$BUILD" "$(ls -d "$BUILD"/ffmpeg-[0-9]*/ | head -n 1)" "$BUILD/full"
    group "ffplay under Xvfb" "$BUILD/check-ffplay.log" sh "$here/clients/ffplay.sh" "$BUILD" "$BUILD/screenshots"
fi
group "Debian package in a fresh system" "$BUILD/check-deb.log" sh "$here/clients/deb.sh" "$deb"
group "PyAV" "$BUILD/check-pyav.log" sh "$here/clients/pyav.sh" "$PREFIX" "$BUILD/pyav"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ] || status=1
exit $status
