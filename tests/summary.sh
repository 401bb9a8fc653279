#!/bin/sh
# Summarise a FATE run: summary.sh BUILD_DIR TEST... (names without fate-)
# Prints each failure and a closing "N passed, N failed" line; exits
# non-zero when any test failed or did not run.
dir=$1; shift
pass=0 fail=0
for t in "$@"; do
    rep="$dir/tests/data/fate/$t.rep"
    if [ -f "$rep" ] && [ "$(cut -d: -f2 "$rep")" = 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAILED: $t"
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
