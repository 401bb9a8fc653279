#!/bin/sh
# make fuzz: run each libFuzzer target for FUZZ_SECONDS and report.
#
#   run-fuzz.sh FUZZ_DIR SECONDS TARGET...
#
# Each target starts from its seed corpus: the reference vectors and the
# hostile samples of tests/fate/samples for the decoder and the demuxer, and the
# committed corpus in tests/fuzz/corpus/NAME (minimized inputs that reached
# new code in earlier runs). New inputs go to FUZZ_DIR/corpus/NAME, crashes,
# leaks and timeouts (FUZZ_TIMEOUT seconds an input, default 10) to
# FUZZ_DIR/artifacts/NAME. Inputs are at most FUZZ_MAX_LEN bytes (default
# 8192; longer seeds are cut there): the cost of an input grows with its
# length, and larger ones found nothing the short ones did not (see
# docs/ROBUSTNESS.md). FUZZ_PARALLEL=1 runs the targets at the same
# time, FUZZ_FORK=N runs each in libFuzzer's fork mode with N processes.
# A target fails when it exits non-zero, leaves an artifact or its log holds
# a sanitizer report (tests/fate/checked.sh: a report that did not stop
# the run, as UndefinedBehaviorSanitizer's without halt_on_error).
# Prints one line per target (runs, executions per second, what was found)
# and "N passed, N failed".
set -u
dir=$1 secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
samples=$here/../fate/samples
. "$here/../fate/checked.sh"
pass=0 fail=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# one target: its line in $dir/$t.result, "PASS" or "FAIL" in $dir/$t.status
fuzz_one() {
    t=$1 corpus=$dir/corpus/$1 art=$dir/artifacts/$1
    mkdir -p "$corpus" "$art"
    seeds=""
    [ -d "$here/corpus/$t" ] && seeds="$here/corpus/$t"
    case $t in
    *c63*) cp "$samples"/*.c63 "$corpus"/ 2>/dev/null
           dict="-dict=$here/c63.dict" ;;
    *) dict= ;;
    esac
    fork=
    [ "${FUZZ_FORK:-0}" -gt 0 ] && fork="-fork=$FUZZ_FORK"
    # The entropic schedule keeps a list of rare features, and before
    # LLVM 18 libFuzzer searches it through for every feature an input
    # hits. It keeps at least its 100 rarest features, and by default every
    # one seen fewer than 255 times: after a corpus is loaded (a run that
    # goes on from an earlier one, every job of fork mode) that is nearly
    # all of them, and the search took three quarters of the time. Keep
    # the 100 rarest only.
    "$dir/$t" $fork -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 \
        -max_len="${FUZZ_MAX_LEN:-8192}" -entropic_feature_frequency_threshold=1 \
        -print_final_stats=1 -artifact_prefix="$art/" $dict "$corpus" $seeds \
        > "$dir/$t.log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/$t.log")
    if [ -n "$fork" ]; then
        # fork mode: the last "#RUNS: ... exec/s: RATE" progress line
        runs=$(sed -n 's/^#\([0-9]*\): .*/\1/p' "$dir/$t.log" | tail -n 1)
        rate=$(sed -n 's/^#[0-9]*: .*exec\/s:* \([0-9]*\).*/\1/p' "$dir/$t.log" | tail -n 1)
        fork=" with $FUZZ_FORK processes"
    fi
    found=$(ls "$art" | wc -l)
    if [ $status -eq 0 ] && [ "$found" -eq 0 ] && ! sanitizer_report "$dir/$t.log"; then
        echo "fuzz: $t: ${runs:-?} runs in ${secs} s$fork (${rate:-?}/s), $(ls "$corpus" | wc -l) corpus files, nothing found" > "$dir/$t.result"
        echo PASS > "$dir/$t.status"
    else
        {
            echo "FAILED: fuzz: $t: $(ended $status), ${runs:-?} runs, found: $(ls "$art" | tr '\n' ' ')$(sanitizer_report "$dir/$t.log" && echo "(a sanitizer report in $dir/$t.log)")"
            grep -m3 -E "ERROR: |runtime error|SUMMARY" "$dir/$t.log" | sed 's/^/    /'
        } > "$dir/$t.result"
        echo FAIL > "$dir/$t.status"
    fi
}

for t in "$@"; do
    rm -f "$dir/$t.result" "$dir/$t.status"
    if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
        fuzz_one "$t" &
    else
        fuzz_one "$t"
    fi
done
wait
for t in "$@"; do
    cat "$dir/$t.result" 2>/dev/null || echo "FAILED: fuzz: $t: no result"
    if [ "$(cat "$dir/$t.status" 2>/dev/null)" = PASS ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
