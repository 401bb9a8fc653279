#!/bin/sh
# Test driver for the framediff, framediffapply and cudadiff filters,
# called from tests/fate/cudadiff.mak. Writes what the reference holds to
# stdout; exits non-zero on any mismatch or unexpected result, and where
# ffmpeg does not end as required (tests/fate/checked.sh: a non-zero
# status, a signal or a sanitizer report where it must succeed; anything
# but a clean refusal where it must fail).
#
#   cudadiff.sh frames   FFMPEG SRC FILTERS [entries|threads]
#       run FILTERS (ending in framediff) on SRC; print the output frame
#       checksums, the lavfi.cudadiff metadata and the side data (header
#       and md5 of each list; every entry too with 'entries'). With
#       'threads', also check that 5 filter threads give the same results.
#   cudadiff.sh receiver FFMPEG SRC PREFILTERS OPTS
#       check that framediff=OPTS:mode=diff followed by framediffapply (which
#       sees only the side data) outputs exactly framediff=OPTS:mode=recon.
#   cudadiff.sh error    FFMPEG SRC FILTERS
#       expect ffmpeg to refuse cleanly; print the filter's error message.
#   cudadiff.sh gpu      FFMPEG SRC FORMAT OPTS
#       run framediff=OPTS and hwupload,cudadiff=OPTS,hwdownload on the
#       same frames; frames, metadata and side data must be identical. Prints
#       the framediff results. With CUDADIFF_CPU_ONLY=1 only framediff runs
#       (to write references on a machine without a GPU).
#
# SRC is a lavfi source, or @SAMPLES@/FILE for a file of tests/fate/samples.

mode=$1 ffmpeg=$2 src=$3
shift 3
case $src in
@SAMPLES@/*) src=$(dirname "$0")/samples/${src#@SAMPLES@/} lavfi= ;;
*)           lavfi="-f lavfi" ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudadiff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checked.sh"
CHECKED_ERR=$tmp/stderr

run_ffmpeg() {
    "$ffmpeg" -nostdin -nostats -hide_banner -v error -threads 1 "$@"
}

# framemd5 of one output, without its header.
hashes() {
    grep -v '^#' "$1"
}

sidedata() {
    echo "dump=$1.dump${entries:+:dump_entries=1}"
}

case $mode in
frames)
    filters=$1 entries= threads=
    [ "$2" = entries ] && entries=1
    [ "$2" = threads ] && threads=1
    for n in 1 ${threads:+5}; do
        run_ok run_ffmpeg -filter_threads $n $lavfi -i "$src" \
            -vf "$filters,framediffapply=passthrough=1:$(sidedata $tmp/o$n),metadata=print:file=$tmp/o$n.meta" \
            -bitexact -f framemd5 "$tmp/o$n.md5" || exit 1
    done
    if [ -n "$threads" ]; then
        for f in md5 meta dump; do
            cmp -s "$tmp/o1.$f" "$tmp/o5.$f" ||
                { echo "1 and 5 filter threads differ ($f)"; exit 1; }
        done
        echo "1 and 5 filter threads: identical"
    fi
    mv "$tmp/o1.md5" "$tmp/o.md5"; mv "$tmp/o1.meta" "$tmp/o.meta"; mv "$tmp/o1.dump" "$tmp/o.dump"
    echo "# frames"
    hashes "$tmp/o.md5"
    echo "# metadata"
    cat "$tmp/o.meta"
    echo "# side data"
    cat "$tmp/o.dump"
    ;;
receiver)
    pre=$1 opts=$2
    run_ok run_ffmpeg $lavfi -i "$src" -vf "$pre,framediff=$opts:mode=recon" \
        -bitexact -f framemd5 "$tmp/recon.md5" || exit 1
    run_ok run_ffmpeg $lavfi -i "$src" -vf "$pre,framediff=$opts:mode=diff,framediffapply" \
        -bitexact -f framemd5 "$tmp/rx.md5" || exit 1
    hashes "$tmp/recon.md5" > "$tmp/a"
    hashes "$tmp/rx.md5" > "$tmp/b"
    cat "$tmp/a"
    if cmp -s "$tmp/a" "$tmp/b"; then
        echo "receiver: identical to mode=recon"
    else
        echo "receiver: DIFFERS from mode=recon"
        diff "$tmp/a" "$tmp/b"
        exit 1
    fi
    ;;
error)
    filters=$1
    if ! run_refused run_ffmpeg $lavfi -i "$src" -vf "$filters" -f null -; then
        [ "$ran_status" = 0 ] && echo "ffmpeg succeeded, an error was expected"
        exit 1
    fi
    echo "ffmpeg failed as expected:"
    grep '^\[Parsed_' "$CHECKED_ERR" | sed 's/^\[Parsed_\([a-z_]*\)_[0-9]* @ [^]]*\]/[\1]/'
    ;;
gpu)
    fmt=$1 opts=${2:-threshold=20} entries=
    cpu="framediff=$opts,framediffapply=passthrough=1:$(sidedata $tmp/cpu),metadata=print:file=$tmp/cpu.meta"
    gpu="hwupload,cudadiff=$opts,hwdownload,format=$fmt,framediffapply=passthrough=1:$(sidedata $tmp/gpu),metadata=print:file=$tmp/gpu.meta"
    if [ "$CUDADIFF_CPU_ONLY" = 1 ]; then
        run_ok run_ffmpeg $lavfi -i "$src" -vf "format=$fmt,$cpu" \
            -bitexact -f framemd5 "$tmp/cpu.md5" || exit 1
    else
        run_ok run_ffmpeg -init_hw_device cuda=cu -filter_hw_device cu $lavfi -i "$src" \
            -filter_complex "[0:v]format=$fmt,split[a][b];[a]$cpu[ca];[b]$gpu[ga]" \
            -map "[ca]" -bitexact -f framemd5 "$tmp/cpu.md5" \
            -map "[ga]" -bitexact -f framemd5 "$tmp/gpu.md5" || exit 1
        fail=0
        for f in md5 meta dump; do
            if ! cmp -s "$tmp/cpu.$f" "$tmp/gpu.$f"; then
                echo "cudadiff and framediff differ ($f):"
                diff "$tmp/cpu.$f" "$tmp/gpu.$f" | head -n 20
                fail=1
            fi
        done
        [ $fail = 0 ] || exit 1
    fi
    echo "# frames"
    hashes "$tmp/cpu.md5"
    echo "# metadata"
    cat "$tmp/cpu.meta"
    echo "# side data"
    cat "$tmp/cpu.dump"
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
