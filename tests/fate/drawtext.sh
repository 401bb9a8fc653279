#!/bin/sh
# Test driver for drawtext_cuda and its CPU twin drawtext, called from
# tests/fate/drawtext.mak. Writes what the reference holds to stdout; exits
# non-zero on any mismatch or unexpected result, and where ffmpeg or
# tests/filterrun does not end as required (tests/fate/checked.sh: a
# non-zero status, a signal or a sanitizer report where it must succeed;
# anything but a clean refusal where it must fail).
#
# The font is $DRAWTEXT_FONT, by default Debian's fonts-dejavu-core
# DejaVuSans.ttf (the GPU bundle carries its own copy). In OPTS, @FONT@
# stands for it and @SAMPLES@ for tests/fate/samples.
#
#   drawtext.sh cpu|gpu FFMPEG SRC FORMAT OPTS [PRE]
#       cpu (make check): the frame checksums of drawtext=OPTS on SRC in
#       FORMAT. gpu (make check-gpu): also hwupload,drawtext_cuda=OPTS,
#       hwdownload in the same run; the two must be identical, and the
#       checksums printed are drawtext's, so that both modes share one
#       reference. PRE (framediff/cudadiff options) puts the
#       difference filter before the text filter, so that its metadata can
#       be printed; POST=1 in the environment puts it after instead.
#       yuyv422 and uyvy422 are drawn by drawtext as yuv422p (drawutils
#       does not draw on packed 4:2:2), which is what drawtext_cuda does.
#   drawtext.sh error FFMPEG SRC FILTERS
#       expect ffmpeg to refuse cleanly; print the filters' error messages.
#   drawtext.sh reload cpu|gpu FILTERRUN SRC FORMAT OPTS
#       textfile=@TEXTFILE@ with reload=1 in OPTS: tests/filterrun feeds
#       8 frames one by one and rewrites the file before frames 0, 3 and 6;
#       prints the frame checksums (gpu: drawtext_cuda's must be equal).
#   drawtext.sh command cpu|gpu FILTERRUN SRC FORMAT OPTS NEW
#       a three-line text with a tab in textfile=@TEXTFILE@; before
#       frame 3, tests/filterrun sends the commands that set the options
#       NEW (name=value:...); frames 3 to 7 must be those of OPTS:NEW from
#       the start; prints the frame checksums (gpu: drawtext_cuda's must
#       be equal).
#   drawtext.sh texts cpu|gpu FILTERRUN SRC FORMAT OPTS TEXTS
#       textfile=@TEXTFILE@ with reload=1 in OPTS: tests/filterrun writes
#       line N of the file TEXTS (\n: a line break) before frame N, so
#       that drawtext shapes only the changed parts of the text again; the
#       frames must equal those of the same run with a command (fontcolor,
#       to OPTS' value) before every frame, after which drawtext lays the
#       text out anew; prints the frame checksums (gpu: drawtext_cuda's
#       must be equal).
#   drawtext.sh time cpu|gpu FILTERRUN SRC OPTS
#       the timed runner of the benchmark measures 5 frames.
#   drawtext.sh sizechange FILTERRUN SRC1 SRC2 OPTS
#       CUDA frames of SRC1, then of SRC2 (another size): must be refused.
#   drawtext.sh help  FFMPEG
#       the filter is registered and -h filter=drawtext_cuda lists the
#       options.

mode=$1 ffmpeg=$2   # for reload, command and time, cpu|gpu; for sizechange, FILTERRUN
shift 2

here=$(cd "$(dirname "$0")" && pwd)
font=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
if [ ! -r "$font" ]; then
    echo "drawtext.sh: font $font not found: install fonts-dejavu-core or set DRAWTEXT_FONT" >&2
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/drawtext.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$here/checked.sh"
CHECKED_ERR=$tmp/stderr

run_ffmpeg() {
    "$ffmpeg" -nostdin -nostats -hide_banner -v error -threads 1 "$@"
}

subst() {
    printf '%s' "$1" | sed "s|@FONT@|$font|g; s|@SAMPLES@|$here/samples|g"
}

hashes() {
    grep -v '^#' "$1"
}

case $mode in
cpu|gpu)
    src=$1 fmt=$2 opts=$(subst "$3") pre=$4
    case $fmt in
    yuyv422|uyvy422) cpu="format=yuv422p,drawtext=$opts,format=$fmt" ;;
    *)               cpu="drawtext=$opts" ;;
    esac
    gpu="drawtext_cuda=$opts"
    if [ -n "$pre" ]; then
        if [ "$POST" = 1 ]; then
            cpu="$cpu,framediff=$pre"
            gpu="$gpu,cudadiff=$pre"
        else
            cpu="framediff=$pre,$cpu"
            gpu="cudadiff=$pre,$gpu"
        fi
    fi
    if [ $mode = cpu ]; then
        run_ok run_ffmpeg -f lavfi -i "$src" -vf "format=$fmt,$cpu" \
            -bitexact -f framemd5 "$tmp/cpu.md5" || exit 1
    else
        run_ok run_ffmpeg -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "$src" \
            -filter_complex "[0:v]format=$fmt,split[a][b];[a]$cpu[ca];[b]hwupload,$gpu,hwdownload,format=$fmt[ga]" \
            -map "[ca]" -bitexact -f framemd5 "$tmp/cpu.md5" \
            -map "[ga]" -bitexact -f framemd5 "$tmp/gpu.md5" || exit 1
        hashes "$tmp/cpu.md5" > "$tmp/a"
        hashes "$tmp/gpu.md5" > "$tmp/b"
        if ! cmp -s "$tmp/a" "$tmp/b"; then
            echo "drawtext_cuda and drawtext differ:"
            diff "$tmp/a" "$tmp/b" | head -n 20
            exit 1
        fi
    fi
    hashes "$tmp/cpu.md5"
    ;;
error)
    src=$1 filters=$(subst "$2")
    if ! run_refused run_ffmpeg -f lavfi -i "$src" -vf "$filters" -f null -; then
        [ "$ran_status" = 0 ] && echo "ffmpeg succeeded, an error was expected"
        exit 1
    fi
    echo "ffmpeg failed as expected:"
    sed 's/^\[Parsed_\([a-z_]*\)_[0-9]* @ [^]]*\]/[\1]/' "$CHECKED_ERR" |
        sed "s|$font|FONT|g; s|$here/samples|SAMPLES|g; s| \[Eval @ [^]]*\]||" |
        grep -o "^\[drawtext.*\|^Impossible to convert between the formats supported by the filter '[^']*' and the filter '[^']*'"
    ;;
reload)
    # textfile with reload=1, the file rewritten before frames 0, 3 and 6;
    # gpu: drawtext_cuda's frames must equal drawtext's
    side=$ffmpeg run=$1 src=$2 fmt=$3 opts=$(subst "$4" | sed "s|@TEXTFILE@|$tmp/text.txt|g")
    case $fmt in
    yuyv422|uyvy422) cpu="format=yuv422p,drawtext=$opts,format=$fmt" ;;
    *)               cpu="drawtext=$opts" ;;
    esac
    w0="First text" w3="Second text,
two lines" w6="3"
    run_ok "$run" --md5 -w 0 -n 8 --write 0 "$tmp/text.txt" "$w0" --write 3 "$tmp/text.txt" "$w3" \
        --write 6 "$tmp/text.txt" "$w6" "$src,format=$fmt" "$cpu" > "$tmp/cpu" || exit 1
    # the reload must show: with the first text kept, frames 3 to 7 differ
    run_ok "$run" --md5 -w 0 -n 8 --write 0 "$tmp/text.txt" "$w0" "$src,format=$fmt" "$cpu" > "$tmp/same" ||
        exit 1
    if [ "$(head -n 3 "$tmp/cpu")" != "$(head -n 3 "$tmp/same")" ] ||
       [ -n "$(tail -n 5 "$tmp/cpu" | grep -F -x -f - "$tmp/same")" ]; then
        echo "drawtext: the reloaded text does not show as expected"
        exit 1
    fi
    if [ "$side" = gpu ]; then
        run_ok "$run" --cuda --md5 -w 0 -n 8 --write 0 "$tmp/text.txt" "$w0" --write 3 "$tmp/text.txt" "$w3" \
            --write 6 "$tmp/text.txt" "$w6" "$src,format=$fmt" "drawtext_cuda=$opts" > "$tmp/gpu" || exit 1
        if ! cmp -s "$tmp/cpu" "$tmp/gpu"; then
            echo "drawtext_cuda and drawtext differ:"
            diff "$tmp/cpu" "$tmp/gpu"
            exit 1
        fi
    fi
    cat "$tmp/cpu"
    ;;
command)
    # commands before frame 3 set the options NEW (name=value:...) of a
    # text that does not change: frames 0 to 2 must be those of the first
    # options, 3 to 7 those of a graph given NEW from the start, and differ
    # from the first options' (the layout was measured anew); gpu:
    # drawtext_cuda's frames must equal drawtext's
    side=$ffmpeg run=$1 src=$2 fmt=$3 opts=$(subst "$4" | sed "s|@TEXTFILE@|$tmp/text.txt|g") new=$5
    case $fmt in
    yuyv422|uyvy422) wrap="format=yuv422p,@,format=$fmt" ;;
    *)               wrap="@" ;;
    esac
    text="Tab	stop
second line
3"
    set --
    for nv in $(echo "$new" | tr ':' ' '); do
        set -- "$@" --command 3 drawtext "${nv%%=*}" "${nv#*=}"
    done
    feed() {  # feed FILTER [FILTERRUN OPTIONS]: the md5 of every frame
        f=$1; shift
        run_ok "$run" --md5 -w 0 -n 8 --write 0 "$tmp/text.txt" "$text" "$@" "$src,format=$fmt" \
            "$(echo "$wrap" | sed "s|@|$f|")"
    }
    feed "drawtext=$opts" "$@" > "$tmp/cmd" || exit 1
    feed "drawtext=$opts" > "$tmp/old" || exit 1
    feed "drawtext=$opts:$new" > "$tmp/new" || exit 1
    if [ "$(head -n 3 "$tmp/cmd")" != "$(head -n 3 "$tmp/old")" ] ||
       [ "$(tail -n 5 "$tmp/cmd")" != "$(tail -n 5 "$tmp/new")" ] ||
       [ -n "$(tail -n 5 "$tmp/cmd" | grep -F -x -f - "$tmp/old")" ]; then
        echo "drawtext: the frames after the commands are not those of $new"
        exit 1
    fi
    if [ "$side" = gpu ]; then
        set --
        for nv in $(echo "$new" | tr ':' ' '); do
            set -- "$@" --command 3 drawtext_cuda "${nv%%=*}" "${nv#*=}"
        done
        run_ok "$run" --cuda --md5 -w 0 -n 8 --write 0 "$tmp/text.txt" "$text" "$@" "$src,format=$fmt" \
            "drawtext_cuda=$opts" > "$tmp/gpu" || exit 1
        if ! cmp -s "$tmp/cmd" "$tmp/gpu"; then
            echo "drawtext_cuda and drawtext differ:"
            diff "$tmp/cmd" "$tmp/gpu"
            exit 1
        fi
    fi
    cat "$tmp/cmd"
    ;;
texts)
    side=$ffmpeg run=$1 src=$2 fmt=$3 opts=$(subst "$4" | sed "s|@TEXTFILE@|$tmp/text.txt|g")
    texts=$(subst "$5")
    color=$(printf '%s' "$opts" | sed -n 's/.*fontcolor=\([^:]*\).*/\1/p')
    set --
    n=0
    while IFS= read -r line; do
        set -- "$@" --write $n "$tmp/text.txt" "$(printf '%b' "$line")"
        n=$((n + 1))
    done < "$texts"
    run_ok "$run" --md5 -w 0 -n $n "$@" "$src,format=$fmt" "drawtext=$opts" > "$tmp/parts" || exit 1
    if [ "$side" = gpu ]; then
        run_ok "$run" --cuda --md5 -w 0 -n $n "$@" "$src,format=$fmt" "drawtext_cuda=$opts" > "$tmp/gpu" || exit 1
        if ! cmp -s "$tmp/parts" "$tmp/gpu"; then
            echo "drawtext_cuda and drawtext differ:"
            diff "$tmp/parts" "$tmp/gpu"
            exit 1
        fi
    fi
    i=1
    while [ $i -lt $n ]; do
        set -- "$@" --command $i drawtext fontcolor "$color"
        i=$((i + 1))
    done
    run_ok "$run" --md5 -w 0 -n $n "$@" "$src,format=$fmt" "drawtext=$opts" > "$tmp/whole" || exit 1
    if [ $(wc -l < "$tmp/parts") -ne $n ] || ! cmp -s "$tmp/parts" "$tmp/whole"; then
        echo "drawtext: the frames laid out from the last layout differ from those laid out anew:"
        diff "$tmp/whole" "$tmp/parts"
        exit 1
    fi
    cat "$tmp/parts"
    ;;
time)
    # the timed runner works: 5 frames measured
    side=$ffmpeg run=$1 src=$2 opts=$(subst "$3")
    if [ "$side" = gpu ]; then
        run_ok "$run" --cuda -w 2 -n 5 "$src" "drawtext_cuda=$opts" > "$tmp/out" || exit 1
    else
        run_ok "$run" -w 2 -n 5 "$src" "drawtext=$opts" > "$tmp/out" || exit 1
    fi
    sed 's/,.*//' "$tmp/out"
    ;;
sizechange)
    # CUDA frames of another size from frame 2 on: refused with a message
    run=$ffmpeg src1=$1 src2=$2 opts=$(subst "$3")
    if ! run_refused "$run" --cuda --md5 -w 0 -n 4 --then 2 "$src2" "$src1" "drawtext_cuda=$opts" \
            > "$tmp/out"; then
        [ "$ran_status" = 0 ] && echo "filterrun succeeded, an error was expected"
        exit 1
    fi
    echo "filterrun failed as expected after $(wc -l < "$tmp/out") frames:"
    sed 's/^\[Parsed_\([a-z_]*\)_[0-9]* @ [^]]*\]/[\1]/' "$CHECKED_ERR" | grep -o "^\[drawtext.*"
    ;;
help)
    run_ok run_ffmpeg -filters > "$tmp/filters" || exit 1
    grep -w 'drawtext\|drawtext_cuda' "$tmp/filters" | sed 's/^ *//'
    run_ok run_ffmpeg -h filter=drawtext_cuda > "$tmp/h" || exit 1
    grep -q '^Filter drawtext_cuda' "$tmp/h" || { echo "no drawtext_cuda in -h"; exit 1; }
    cat "$tmp/h"
    ;;
*)
    echo "drawtext.sh: unknown mode $mode" >&2
    exit 1
    ;;
esac
