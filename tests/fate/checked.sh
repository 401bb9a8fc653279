# How a test's program ended, judged from its exit status and its stderr
# (sourced, not run; POSIX sh). Every test driver runs the programs whose
# outcome it checks (ffmpeg, ffprobe, the harness programs) through these,
# never in a pipe whose status is another program's:
#
#   run_ok CMD ARGS...       CMD must succeed: exit status 0 and no
#                            sanitizer report in its stderr
#   run_refused CMD ARGS...  CMD must refuse cleanly: a non-zero status that
#                            is the program's own (not a signal, a timeout
#                            or a program that could not be run) and no
#                            sanitizer report
#   run_no_crash CMD ARGS... either of the two (hostile input, where an
#                            error is as good as a success)
#   run_ok_print CMD ARGS... run_ok with CMD's stdout kept in a file and
#                            printed once the run has succeeded
#
# Each returns 0 when the run ended as required. CMD's stdout goes where the
# caller sends it (a file, to be checked or hashed once the run has ended);
# its stderr goes to the file $CHECKED_ERR, which the driver sets (in its
# own temporary folder) and may read after the run. run_ok passes that
# stderr on to the driver's stderr, the other two only when the run ended
# otherwise than required; then a line says how it ended, so that a failed
# test shows why in its log. The status is left in ran_status.
#
# A sanitizer build reports at exit, after the output is complete: a leak
# leaves the output intact and changes only the status (LeakSanitizer's own
# 23, or a SIGABRT with abort_on_error=1), and the status of AddressSanitizer
# (1 by default) or of UndefinedBehaviorSanitizer without halt_on_error (the
# program's own) can pass for a program's. Hence the report in stderr
# counts, whatever the status.
#
# ffmpeg's own error statuses are an AVERROR's low byte, above 128 too
# (183 for invalid data, 234 for an invalid argument): a signal is a status
# of 129 to 159 (128 plus signals 1 to 31), which no AVERROR of the tests
# gives (only the network errnos 97 to 127 would).

CHECKED_REPORT='ERROR: AddressSanitizer|ERROR: LeakSanitizer|ERROR: MemorySanitizer|ERROR: ThreadSanitizer|WARNING: ThreadSanitizer|runtime error:|SUMMARY: [A-Za-z]*Sanitizer'

# sanitizer_report FILE...: true when one of the files holds a report
sanitizer_report() {
    grep -E -q -e "$CHECKED_REPORT" "$@" 2> /dev/null
}

# ended STATUS: how a process with that exit status ended, in words
ended() {
    case $1 in
    124)     echo "timed out (exit status 124)" ;;
    126|127) echo "could not be run (exit status $1)" ;;
    129|13[0-9]|14[0-9]|15[0-9])
             echo "killed by signal $(kill -l "$1" 2> /dev/null || echo $(($1 - 128))) (exit status $1)" ;;
    *)       echo "exit status $1" ;;
    esac
}

# own_error STATUS: a non-zero status that the program exited with itself
own_error() {
    case $1 in
    0|124|126|127|129|13[0-9]|14[0-9]|15[0-9]) return 1 ;;
    esac
    return 0
}

# checked_fail HELPER WHY CMD...: stderr of the run, then why it failed
checked_fail() {
    cat "$CHECKED_ERR" >&2
    checked_who=$1 checked_why=$2
    shift 2
    echo "$checked_who: $checked_why: $*" >&2
    return 1
}

run_ok() {
    "$@" 2> "${CHECKED_ERR:?CHECKED_ERR is not set}"
    ran_status=$?
    if [ $ran_status -ne 0 ]; then
        checked_fail run_ok "$(ended $ran_status), success expected" "$@"
    elif sanitizer_report "$CHECKED_ERR"; then
        checked_fail run_ok "a sanitizer report (exit status 0)" "$@"
    else
        cat "$CHECKED_ERR" >&2
    fi
}

run_refused() {
    "$@" 2> "${CHECKED_ERR:?CHECKED_ERR is not set}"
    ran_status=$?
    if sanitizer_report "$CHECKED_ERR"; then
        checked_fail run_refused "a sanitizer report ($(ended $ran_status)), a clean refusal expected" "$@"
    elif [ $ran_status -eq 0 ]; then
        checked_fail run_refused "exit status 0, a refusal expected" "$@"
    elif ! own_error $ran_status; then
        checked_fail run_refused "$(ended $ran_status), a clean refusal expected" "$@"
    fi
}

run_no_crash() {
    "$@" 2> "${CHECKED_ERR:?CHECKED_ERR is not set}"
    ran_status=$?
    if sanitizer_report "$CHECKED_ERR"; then
        checked_fail run_no_crash "a sanitizer report ($(ended $ran_status))" "$@"
    elif [ $ran_status -ne 0 ] && ! own_error $ran_status; then
        checked_fail run_no_crash "$(ended $ran_status)" "$@"
    fi
}

run_ok_print() {
    run_ok "$@" > "$CHECKED_ERR.out" && cat "$CHECKED_ERR.out"
}
