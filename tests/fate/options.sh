#!/bin/sh
# Bad parameters everywhere: every option of a component at and past each
# end of its range, as ffmpeg -h lists it, and small and odd sizes. Each
# value must be either accepted (and then the run works, or fails only for
# want of a CUDA device) or refused with a message naming the problem;
# never a crash (a signal), a hang, a sanitizer report or a silent failure.
# Prints one line per value, which the FATE reference holds, and exits
# non-zero when a value did any of those (tests/fate/checked.sh).
#
#   options.sh FFMPEG encoder|filter NAME
set -u
FF="timeout 60 $1" kind=$2 name=$3
TMP=${TMPDIR:-/tmp}/c63-options.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/checked.sh"
CHECKED_ERR=$TMP/stderr
failed=0
INPUT="-f lavfi -i testsrc2=s=32x16:r=25"

case $kind:$name in
encoder:*)         run_with() { $FF -nostdin -hide_banner -v error $INPUT -frames:v 2 -c:v "$name" "$@" -f null -; } ;;
filter:cudadiff)   # software frames: the options are checked when the filter is
                   # created, before the formats are negotiated (which needs CUDA frames)
                   run_with() { $FF -nostdin -hide_banner -v error $INPUT -frames:v 2 \
                                   -vf "format=yuv420p,$name$1" -f null -; } ;;
filter:framediffapply) run_with() { $FF -nostdin -hide_banner -v error $INPUT -frames:v 2 \
                                   -vf "format=yuv420p,framediff,$name$1" -f null -; } ;;
filter:*)          run_with() { $FF -nostdin -hide_banner -v error $INPUT -frames:v 2 \
                                   -vf "format=yuv420p,$name$1" -f null -; } ;;
esac

# classify OPTION VALUE ARGS...: accepted, or refused with the reason
classify() {
    label=$1; shift
    run_with "$@" > "$TMP/out" 2> "$TMP/err"
    status=$?
    if sanitizer_report "$TMP/err"; then
        echo "$label: SANITIZER REPORT ($(ended $status))"; failed=1
        cat "$TMP/err" >&2
    elif [ $status -eq 124 ]; then
        echo "$label: HANG"; failed=1
    elif [ $status -ne 0 ] && ! own_error $status; then
        echo "$label: CRASH ($(ended $status))"; failed=1
        cat "$TMP/err" >&2
    elif grep -qi 'out of range\|invalid value\|unable to parse\|must be\|not supported\|cannot be\|too large\|too small\|apply only' "$TMP/err"; then
        echo "$label: refused: $(grep -m1 -i 'out of range\|invalid value\|unable to parse\|must be\|not supported\|cannot be\|too large\|too small\|apply only' "$TMP/err" |
                                 sed 's/^\[[^]]*\] *//; s/ 0x[0-9a-f]*//g')"
    elif [ $status -eq 0 ] || grep -qi 'libcuda\|CUDA device' "$TMP/err" ||
         { [ "$name" = cudadiff ] && grep -q 'Impossible to convert' "$TMP/err"; }; then
        # accepted: the run worked, or failed only for want of a CUDA
        # device (or, for cudadiff, of CUDA frames, which this graph does
        # not give it: its options are checked before that)
        echo "$label: accepted"
    else
        echo "$label: FAILED WITHOUT A REASON (status $status): $(tail -n 1 "$TMP/err")"; failed=1
    fi
}

# the options with a numeric range, from the help text
run_ok $FF -hide_banner -h "$kind=$name" > "$TMP/help" || exit 1
sed -n 's/^ *-\{0,1\}\([a-z_0-9]*\)  *<\(int\|int64\|boolean\|float\|double\)>.*(from \([-0-9.INT_MAX]*\) to \([-0-9.INT_MAX]*\)).*/\1 \3 \4/p;
            s/^ *-\{0,1\}\([a-z_0-9]*\)  *<boolean>.*/\1 0 1/p' "$TMP/help" | sort -u > "$TMP/opts"
# generic codec options the encoders check themselves
# (and the rate control ones: the c63 encoders take -b:v and -q:v 2..255;
# -maxrate and -bufsize only with -b:v, so alone they are refused)
[ "$kind" = encoder ] && printf 'g 1 INT_MAX\nme_range 0 64\n' >> "$TMP/opts"
case $kind:$name in
encoder:c63*) printf 'b 0 0\nmaxrate 0 0\nbufsize 0 0\nq:v 2 255\n' >> "$TMP/opts" ;;
esac

while read -r opt lo hi; do
    for v in below "$lo" "$hi" above; do
        case $v in
        below) [ "$lo" = INT_MIN ] && continue; v=$(( ${lo#INT_MAX} - 1 )) ;;
        above) [ "$hi" = INT_MAX ] && v=2147483648 || v=$((hi + 1)) ;;
        INT_MAX) v=2147483647 ;;
        esac
        if [ "$kind" = encoder ]; then
            classify "$name $opt=$v" "-$opt" "$v"
        else
            classify "$name $opt=$v" "=$opt=$v"
        fi
    done
done < "$TMP/opts"

# sizes: the smallest, odd, and (encoders) one past the largest
sizes="1x1 2x2 3x5 17x9"
[ "$kind" = encoder ] && sizes="$sizes 65535x2 65536x2"
for sz in $sizes; do
    INPUT="-f rawvideo -s $sz -pix_fmt yuv420p -i /dev/zero"
    if [ "$kind" = encoder ]; then classify "$name size $sz" -g 1; else classify "$name size $sz" ""; fi
done
exit $failed
