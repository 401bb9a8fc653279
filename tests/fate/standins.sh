#!/bin/sh
# The FATE drivers against stand-ins for their programs (make check,
# tests/fate/standins.mak), run by fate-run.sh's runlocal from the build
# directory:
#
#   standins.sh SET SRC_TESTS
#
# SET names a driver: c63-test, c63-gpu-test (its modes without a device),
# cudadiff, drawtext, framediff-codec, mestimate, options or quality; its cases
# below are its modes that make check runs, on small inputs. Each case
# runs the driver with stand-ins in place of ffmpeg, ffprobe and the
# harness programs (tests/NAME): a stand-in runs the program itself, then,
# at one chosen run of the case, after the program has ended and its
# output is complete, misbehaves in one of these ways:
#
#   leak   a LeakSanitizer report on stderr, exit status 23
#   abort  killed by SIGABRT (status 134: abort_on_error=1)
#   ubsan  an UndefinedBehaviorSanitizer report, the program's own status
#          (as without halt_on_error: 0 where it succeeded)
#   segv   killed by SIGSEGV, at a run that ended in an error (the program
#          said so, then crashed)
#   asan   an AddressSanitizer report and exit status 1 (ffmpeg's status
#          for many errors too), at a run that ended in an error
#
# First the case runs with the stand-ins passing everything on (the
# programs themselves): the driver must pass, so that it is the
# misbehaviour that makes it fail; the stand-ins count the runs and note
# which ended in an error. Then, for each way and each of those runs (all
# of them if at most 6, else the first three and the last three), the
# case runs again with that one run misbehaving: the driver must fail.
# Prints a line per case for the control and one per case and way, and
# exits non-zero when a control failed or a driver passed with a run
# misbehaving (its output then goes to stderr; the line says whether the
# driver's stdout differed from the control's, which a reference would
# have caught).
#
# STANDINS_DRIVERS=DIR checks the drivers in DIR instead of those beside
# this file (the other files of tests/fate they read must be there too).

# ---- the stand-in itself: standins.sh --standin PROGRAM ARGS... ----------
if [ "$1" = --standin ]; then
    real=$2
    shift 2
    n=$(($(cat "$STANDIN_DIR/count") + 1))
    echo $n > "$STANDIN_DIR/count"
    "$real" "$@"
    status=$?
    echo "$n ${real##*/} $status" >> "$STANDIN_DIR/runs"
    [ "$STANDIN_AT" = "$n" ] || exit $status
    ulimit -c 0 2> /dev/null
    case $STANDIN_KIND in
    leak)
        printf '%s\n' "=================================================================" \
            "==$$==ERROR: LeakSanitizer: detected memory leaks" "" \
            "Direct leak of 64 byte(s) in 1 object(s) allocated from:" \
            "    #0 0x7f0000000000 in malloc (stand-in)" "" \
            "SUMMARY: AddressSanitizer: 64 byte(s) leaked in 1 allocation(s)." >&2
        exit 23 ;;
    abort)
        kill -ABRT $$ ;;
    segv)
        kill -SEGV $$ ;;
    asan)
        printf '%s\n' "=================================================================" \
            "==$$==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010" \
            "READ of size 1 at 0x602000000010 thread T0" \
            "    #0 0x7f0000000000 in main (stand-in)" \
            "SUMMARY: AddressSanitizer: heap-use-after-free (stand-in) in main" >&2
        exit 1 ;;
    ubsan)
        printf '%s\n' "stand-in.c:1:1: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'" \
            "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior stand-in.c:1:1" >&2
        exit $status ;;
    esac
    echo "standins.sh: unknown way $STANDIN_KIND" >&2
    exit 99
fi

set=$1 base=$(cd "$2" && pwd) || exit 1
self=$(cd "$(dirname "$0")" && pwd)/standins.sh
D=$(cd "${STANDINS_DRIVERS:-$(dirname "$0")}" && pwd) || exit 1
build=$(pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/c63-standins.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/bin" "$TMP/work"
export STANDIN_DIR=$TMP

# the stand-ins: $TMP/bin/NAME for ffmpeg, ffprobe and tests/NAME
for p in ffmpeg ffprobe tests/c63refdec tests/c63syms tests/cudactx tests/cudahog tests/decthreads tests/ecserial tests/hdserial \
         tests/encapi tests/encthreads tests/filterrun tests/mvdump tests/yuvquality; do
    [ -x "$build/$p" ] || continue
    printf '#!/bin/sh\nexec sh "%s" --standin "%s" "$@"\n' "$self" "$build/$p" > "$TMP/bin/${p#tests/}"
    chmod +x "$TMP/bin/${p#tests/}"
done
S=$TMP/bin

bad=0
# drive KIND N DRIVER ARGS...: the driver from a folder of its own, run N
# of the programs misbehaving in the way KIND; its stdout in $TMP/out, its
# stderr in $TMP/err, its status in $drv
drive() {
    echo 0 > "$TMP/count"
    : > "$TMP/runs"
    rm -rf "$TMP/work" && mkdir "$TMP/work"
    (cd "$TMP/work" && STANDIN_KIND=$1 STANDIN_AT=$2 FFMPEG=$S/ffmpeg FFPROBE=$S/ffprobe &&
     C63REFDEC=$S/c63refdec && C63HDSERIAL=$S/hdserial &&
     export STANDIN_KIND STANDIN_AT FFMPEG FFPROBE C63REFDEC C63HDSERIAL && shift 2 && exec timeout 300 "$@") \
        > "$TMP/out" 2> "$TMP/err"
    drv=$?
}

# pick RUN...: the runs to try, all of them if at most 6, else the first
# three and the last three; "where" says which in words
pick() {
    if [ $# -le 6 ]; then
        picked="$*" where="run$([ $# = 1 ] || echo s) $*"
    else
        picked="$1 $2 $3" where="runs $1 $2 $3"
        shift $(($# - 3))
        picked="$picked $*" where="$where and $*"
    fi
}

# case LABEL DRIVER ARGS...
case_() {
    label=$1
    shift
    drive none none "$@"
    runs=$(cat "$TMP/count")
    if [ $drv -ne 0 ]; then
        echo "$label: with the programs themselves: FAILS (status $drv)"
        cat "$TMP/out" "$TMP/err" | sed 's/^/    /' >&2
        bad=1
        return
    fi
    cp "$TMP/out" "$TMP/control.out"
    if [ "$runs" -eq 0 ]; then
        echo "$label: runs no program through the stand-ins"
        bad=1
        return
    fi
    sort -n "$TMP/runs" > "$TMP/control"
    errors=$(awk '$3 != 0 { printf "%s%s", s, $1; s = " " }' "$TMP/control")
    progs=$(cut -d' ' -f2 "$TMP/control" | sort | uniq -c | awk '{ printf "%s%s %s", s, $1, $2; s = ", " }')
    echo "$label: with the programs themselves: passes ($runs run$([ "$runs" = 1 ] || echo s): $progs;" \
        "ended in an error: ${errors:-none})"
    # leak, abort and ubsan at any run, segv and asan at those that end
    # in an error (where the driver expects or tolerates one)
    for kind in leak abort ubsan segv asan; do
        case $kind in
        segv|asan) [ -n "$errors" ] || continue
                   pick $errors; where="$where (those that end in an error)" ;;
        *)         pick $(seq 1 "$runs") ;;
        esac
        same= changed= hung=
        for n in $picked; do
            drive $kind "$n" "$@"
            if [ $drv -eq 124 ]; then
                hung="$hung $n"
            elif [ $drv -ne 0 ]; then
                continue
            elif cmp -s "$TMP/out" "$TMP/control.out"; then
                same="$same $n"
            else
                changed="$changed $n"
            fi
            { echo "--- $label, $kind at run $n ($(awk -v n="$n" '$1 == n' "$TMP/control")): status $drv"
              cat "$TMP/out" "$TMP/err" | sed 's/^/    /'; } >&2
        done
        if [ -z "$same$changed$hung" ]; then
            echo "$label: $kind: the driver fails at $where"
        else
            msg=
            [ -z "$same" ] || msg="$same (the driver passes, its output unchanged)"
            [ -z "$changed" ] || msg="${msg:+$msg,}$changed (the driver passes, its output changed)"
            [ -z "$hung" ] || msg="${msg:+$msg,}$hung (the driver timed out)"
            echo "$label: $kind: NOT CAUGHT at run(s)$msg"
            bad=1
        fi
    done
}

C63="sh $D/c63-test.sh"
CLIP=testsrc2=s=32x32:r=25
case $set in
c63-test)
    case_ "dec tiny"              $C63 dec tiny "$base"
    case_ "dec-cpu0 tiny"         $C63 dec-cpu0 tiny "$base"
    case_ "dec-threads tiny"      $C63 dec-threads tiny "$base"
    case_ "enc tiny"              $C63 enc tiny "$base"
    case_ "ecserial tiny"         $C63 ecserial "$S/ecserial" tiny -quality 1 "$base"
    case_ "remux tiny nut"        $C63 remux tiny nut "$base"
    case_ "probe tiny"            $C63 probe tiny "$base"
    case_ "probe-jpeg"            $C63 probe-jpeg "$base"
    case_ "bad truncated"         $C63 bad truncated "$base"
    case_ "bad no-reference"      $C63 bad no-reference "$base"
    case_ "fuzz tiny 2"           $C63 fuzz tiny 2 "$base"
    case_ "size 17x9"             $C63 size 17x9 "$base"
    case_ "encopt"                $C63 encopt "$CLIP,trim=end_frame=3" -g 2 "$base"
    case_ "threads tiny"          $C63 threads tiny "$base"
    case_ "threads-opts tiny"     $C63 threads-opts tiny -me_range 4 "$base"
    case_ "encthreads tiny"       $C63 encthreads "$S/encthreads" tiny 1 2 "$base"
    case_ "encapi odd_height"     $C63 encapi "$S/encapi" odd_height 2 "$base"
    case_ "decthreads tiny"       $C63 decthreads "$S/decthreads" tiny 1 2 "$base"
    case_ "hdserial tiny"         $C63 hdserial "$S/hdserial" tiny "$base"
    case_ "psnr"                  $C63 psnr "$CLIP,trim=end_frame=3" 10 99 "$base"
    case_ "rate"                  $C63 rate "$CLIP" 10 100000 100 "$base"
    case_ "twopass"               $C63 twopass "$CLIP" 10 100000 100 "$base"
    case_ "twopass-more"          $C63 twopass-more "$CLIP" "$base"
    case_ "ratewarn"              $C63 ratewarn "$CLIP" 5 -b:v 1k "$base"
    case_ "rd tiny"               $C63 rd tiny "$S/c63syms" -trellis 1 "$base"
    case_ "vbv"                   $C63 vbv "$CLIP" 10 100000 150000 100000 0 100 "$base"
    case_ "vbv-none"              $C63 vbv-none 2000000 1000000 "$base"
    case_ "scenecut"              $C63 scenecut -tables flat "$base"
    case_ "q3"                    $C63 q3 "$S/c63syms" "$base"
    case_ "refuse"                $C63 refuse "$CLIP" -quality 0 "$base"
    case_ "refuse-cuda"           $C63 refuse-cuda "$CLIP" -b:v 500k -depth 3 "$base"
    ;;
c63-gpu-test)
    case_ "hognodevice"           sh "$D/c63-gpu-test.sh" hognodevice "$S/cudahog" "$base"
    case_ "ctxnodevice"           sh "$D/c63-gpu-test.sh" ctxnodevice "$S/cudactx" "$base"
    ;;
cudadiff)
    SRC=testsrc2=s=32x16:r=10:d=0.3
    case_ "frames"                sh "$D/cudadiff.sh" frames "$S/ffmpeg" "$SRC,format=yuv420p" "framediff=threshold=10:mode=diff"
    case_ "frames threads"        sh "$D/cudadiff.sh" frames "$S/ffmpeg" "$SRC,format=yuv420p" "framediff" threads
    case_ "receiver"              sh "$D/cudadiff.sh" receiver "$S/ffmpeg" "$SRC" "format=yuv420p" "threshold=15"
    case_ "error"                 sh "$D/cudadiff.sh" error "$S/ffmpeg" "$SRC" "format=yuv420p,framediffapply"
    case_ "gpu, CPU only"         env CUDADIFF_CPU_ONLY=1 sh "$D/cudadiff.sh" gpu "$S/ffmpeg" "$SRC" yuv420p "threshold=20"
    ;;
drawtext)
    SRC=testsrc2=s=64x32:r=10
    OPTS="fontfile=@FONT@:fontsize=12:fontcolor=white"
    TOPTS="$OPTS:textfile=@TEXTFILE@:reload=1"
    case_ "cpu"                   sh "$D/drawtext.sh" cpu "$S/ffmpeg" "$SRC:d=0.2" yuv420p "$OPTS:text=Hi"
    case_ "error"                 sh "$D/drawtext.sh" error "$S/ffmpeg" "$SRC:d=0.2" "format=yuv420p,drawtext_cuda=$OPTS:text=x"
    case_ "reload"                sh "$D/drawtext.sh" reload cpu "$S/filterrun" "$SRC" yuv420p "$TOPTS"
    case_ "command"               sh "$D/drawtext.sh" command cpu "$S/filterrun" "$SRC" yuv420p "$OPTS:textfile=@TEXTFILE@" "line_spacing=9"
    case_ "texts"                 sh "$D/drawtext.sh" texts cpu "$S/filterrun" "$SRC" yuv420p "$TOPTS" @SAMPLES@/drawtext-lines.txt
    case_ "time"                  sh "$D/drawtext.sh" time cpu "$S/filterrun" "$SRC,format=nv12" "$OPTS:text=x"
    case_ "help"                  sh "$D/drawtext.sh" help "$S/ffmpeg"
    ;;
framediff-codec)
    SRC=testsrc2=s=32x16:r=25
    case_ "codec"                 sh "$D/framediff-codec.sh" codec "$S/ffmpeg" "$SRC:d=0.2" format=yuv420p 20 2 nut
    case_ "socket tcp"            sh "$D/framediff-codec.sh" socket "$S/ffmpeg" "$SRC:d=0.4" format=yuv420p 20 5 tcp
    case_ "cuda, CPU only"        env CUDADIFF_CPU_ONLY=1 sh "$D/framediff-codec.sh" cuda "$S/ffmpeg" "$SRC:d=0.2" "" nv12 20 5
    ;;
mestimate)
    SRC=testsrc2=s=32x32:r=10:d=0.3
    case_ "cpu"                   sh "$D/mestimate.sh" cpu "$S/mvdump" "$SRC" yuv420p method=esa
    case_ "gpu, CPU only"         env MESTIMATE_CPU_ONLY=1 sh "$D/mestimate.sh" gpu "$S/mvdump" "$SRC" yuv420p method=esa all
    case_ "error"                 sh "$D/mestimate.sh" error "$S/ffmpeg" "testsrc2=s=14x14:r=5:d=1" "format=yuv420p,mestimate=mb_size=12"
    case_ "error nodevice"        sh "$D/mestimate.sh" error "$S/ffmpeg" "testsrc2=s=64x48:r=5:d=1" "hwupload_cuda,mestimate_cuda" nodevice
    case_ "help"                  sh "$D/mestimate.sh" help "$S/ffmpeg"
    ;;
options)
    case_ "filter framediffapply" sh "$D/options.sh" "$S/ffmpeg" filter framediffapply
    ;;
quality)
    # the options at the -quality points around the default's bytes; the
    # tables for SSIM with the other options stay below them even at
    # -quality 50, and are compared with the default's points there
    case_ "psnr tiny"             sh "$D/quality.sh" psnr tiny "$S/yuvquality" -99 -trellis 1 "$base"
    case_ "ssim tiny"             sh "$D/quality.sh" ssim tiny "$S/yuvquality" -99 \
                                      -tables ssim -trellis 1 -mv_rd 1 -intra_rd 1 "$base"
    ;;
*)
    echo "standins.sh: unknown set $set" >&2
    exit 2 ;;
esac
exit $bad
