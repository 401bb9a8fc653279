#!/bin/sh
# The closing step of make check: the FATE results and the installed
# libraries' checks, each summarised, then one "N passed, N failed" line
# for the whole run. Exits non-zero when anything failed or did not run.
#
#   check.sh OBJ BUILD PREFIX LICENSE TEST...   (FATE test names without fate-)
OBJ=$1 BUILD=$2 PREFIX=$3 LICENSE=$4
shift 4
here=$(dirname "$0")
status=0

sh "$here/summary.sh" "$OBJ" "$@" > "$BUILD/check-fate.log" || status=1
grep -v '^[0-9]* passed' "$BUILD/check-fate.log"
fate=$(tail -n 1 "$BUILD/check-fate.log")
echo "check: FATE: $fate"

sh "$here/check-install.sh" "$PREFIX" "$BUILD" "$LICENSE" > "$BUILD/check-install.log" 2>&1 || status=1
grep '^FAILED' "$BUILD/check-install.log"
inst=$(tail -n 1 "$BUILD/check-install.log")
echo "check: installed libraries and API example: $inst"

echo "$fate $inst" | awk '{ print $1 + $5 " passed, " $3 + $7 " failed" }'
exit $status
