#!/bin/sh
# make fuzz: run each libFuzzer target for FUZZ_SECONDS and report.
#
#   run-fuzz.sh FUZZ_DIR SECONDS TARGET...
#
# Each target starts from its seed corpus: the reference vectors and the
# hostile samples of tests/samples for the decoder and the demuxer, and the
# committed corpus in tests/fuzz/corpus/NAME (minimized inputs that reached
# new code in earlier runs). New inputs go to FUZZ_DIR/corpus/NAME, crashes,
# leaks and timeouts to FUZZ_DIR/artifacts/NAME. Prints one line per target
# (runs, executions per second, what was found) and "N passed, N failed".
set -u
dir=$1 secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
samples=$here/../samples
pass=0 fail=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
for t in "$@"; do
    corpus=$dir/corpus/$t art=$dir/artifacts/$t
    mkdir -p "$corpus" "$art"
    seeds=""
    [ -d "$here/corpus/$t" ] && seeds="$here/corpus/$t"
    case $t in
    *c63*) cp "$samples"/*.c63 "$corpus"/ 2>/dev/null
           dict="-dict=$here/c63.dict" ;;
    *) dict= ;;
    esac
    "$dir/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
        -print_final_stats=1 -artifact_prefix="$art/" $dict "$corpus" $seeds \
        > "$dir/$t.log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/$t.log")
    found=$(ls "$art" | wc -l)
    if [ $status -eq 0 ] && [ "$found" -eq 0 ]; then
        pass=$((pass + 1))
        echo "fuzz: $t: ${runs:-?} runs in ${secs} s (${rate:-?}/s), $(ls "$corpus" | wc -l) corpus files, nothing found"
    else
        fail=$((fail + 1))
        echo "FAILED: fuzz: $t: exit $status, ${runs:-?} runs, found: $(ls "$art" | tr '\n' ' ')"
        grep -m3 -E "ERROR: |runtime error|SUMMARY" "$dir/$t.log" | sed 's/^/    /'
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
