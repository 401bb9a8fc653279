#!/bin/sh
# Test driver for the framediff encoder and decoder, called from
# tests/fate/cudadiff.mak. Writes what the reference holds to stdout; exits
# non-zero on any mismatch or unexpected result, and where ffmpeg or
# ffprobe (the one beside FFMPEG) does not succeed cleanly
# (tests/fate/checked.sh: a non-zero status, a signal or a sanitizer
# report).
#
#   framediff-codec.sh codec  FFMPEG SRC PRE THRESHOLD G FORMAT [list]
#       encode PRE (the lavfi source SRC, filtered) with -c:v framediff
#       -threshold THRESHOLD -g G into FORMAT (nut, matroska, avi), decode
#       it: the decoded frames must equal framediff=THRESHOLD:refresh=G:
#       mode=recon. With 'list', framediff=...:mode=mask runs before the
#       encoder, which must send the filter's lists (not the mask picture).
#       Prints the packet sizes and flags and the decoded checksums.
#   framediff-codec.sh socket FFMPEG SRC PRE THRESHOLD G tcp|udp ["FIRST LAST"]
#       a sender and a receiver, two ffmpeg processes on 127.0.0.1 (NUT
#       over TCP, or over UDP with pkt_size): the receiver's decoded frames
#       must equal the sender's mode=recon output. With FIRST LAST, packets
#       FIRST to LAST are dropped before they are sent (the noise bitstream
#       filter's drop option): the receiver must be exact before them,
#       differ after them and be exact again from the next refresh on. Each process is bounded by a timeout; the port is one
#       that nothing uses on this machine, checked in /proc/net.
#   framediff-codec.sh nvdec-socket FFMPEG FILE PRE THRESHOLD G
#       (GPU) the same over TCP from FILE decoded by NVDEC: the sender runs
#       PRE (e.g. scale_cuda) and cudadiff on the CUDA frames before the
#       encoder; the receiver's frames must equal framediff=...:mode=recon
#       on the sender's frames after PRE, downloaded.
#   framediff-codec.sh cuda   FFMPEG SRC FORMAT THRESHOLD G
#       (GPU) cudadiff before the encoder on CUDA frames: the stream must
#       decode to what framediff's lists give, and the packets be the same.
#       With CUDADIFF_CPU_ONLY=1 only framediff runs (to write the reference
#       on a machine without a GPU).
#
# The font of the overlays is $DRAWTEXT_FONT, by default Debian's
# fonts-dejavu-core DejaVuSans.ttf; @FONT@ in SRC and PRE stands for it.

mode=$1 ffmpeg=$2 src=$3 pre=$4
shift 4

font=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
src=$(printf '%s' "$src" | sed "s|@FONT@|$font|g")
pre=$(printf '%s' "$pre" | sed "s|@FONT@|$font|g")
ffprobe=$(dirname "$ffmpeg")/ffprobe

tmp=$(mktemp -d "${TMPDIR:-/tmp}/framediff-codec.XXXXXX") || exit 1
pids=
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. "$(dirname "$0")/listen.sh"
. "$(dirname "$0")/checked.sh"
CHECKED_ERR=$tmp/stderr

run_ffmpeg() {
    "$ffmpeg" -nostdin -nostats -hide_banner -v error -threads 1 "$@"
}

# framemd5 of one output, without its header.
hashes() {
    grep -v '^#' "$1"
}

packets() {
    run_ok_print "$ffprobe" -v error -show_entries packet=pts,size,flags -of csv=p=0 "$1"
}

same() {    # same A B WHAT
    if cmp -s "$1" "$2"; then
        echo "$3: identical"
    else
        echo "$3: DIFFERS"
        diff "$1" "$2" | head -n 20
        exit 1
    fi
}

case $mode in
codec)
    thr=$1 g=$2 fmt=$3 list=$4
    case $fmt in nut) ext=nut ;; matroska) ext=mkv ;; avi) ext=avi ;; *) ext=$fmt ;; esac
    enc=$pre
    [ "$list" = list ] && enc="$pre,framediff=threshold=$thr:refresh=$g:mode=mask"
    run_ok run_ffmpeg -f lavfi -i "$src" -vf "$enc" -c:v framediff -threshold "$thr" -g "$g" \
        -f "$fmt" "$tmp/s.$ext" || exit 1
    run_ok run_ffmpeg -f lavfi -i "$src" -vf "$pre,framediff=threshold=$thr:refresh=$g:mode=recon" \
        -bitexact -f framemd5 "$tmp/recon.md5" || exit 1
    run_ok run_ffmpeg -i "$tmp/s.$ext" -bitexact -f framemd5 "$tmp/dec.md5" || exit 1
    packets "$tmp/s.$ext" > "$tmp/s.pk" || exit 1
    echo "# packets (pts, size, flags)"
    cat "$tmp/s.pk"
    echo "# decoded"
    hashes "$tmp/dec.md5" | tee "$tmp/b" > /dev/null
    hashes "$tmp/recon.md5" > "$tmp/a"
    cat "$tmp/a"
    same "$tmp/a" "$tmp/b" "decoded vs mode=recon"
    ;;
socket|nvdec-socket)
    if [ $mode = socket ]; then
        thr=$1 g=$2 proto=$3 drop=$4
        set -- -f lavfi -i "$src"
        twin="$pre,framediff=threshold=$thr:refresh=$g:mode=recon"
        send="$pre" encopts="-threshold $thr -g $g"
    else
        # SRC a file that NVDEC decodes, PRE filters on its CUDA frames
        # (scale_cuda...); the sender's cudadiff lists against framediff's
        # on the same frames downloaded
        thr=$1 g=$2 proto=tcp drop=
        set -- -hwaccel cuda -hwaccel_output_format cuda -i "$src"
        twin="$pre,hwdownload,format=nv12,framediff=threshold=$thr:refresh=$g:mode=recon"
        send="$pre,cudadiff=threshold=$thr:refresh=$g" encopts=
    fi
    run_ok run_ffmpeg "$@" -vf "$twin" -bitexact -f framemd5 "$tmp/tx.md5" || exit 1
    nb=$(hashes "$tmp/tx.md5" | wc -l)
    bsf= want=$nb
    if [ -n "$drop" ]; then
        d0=${drop% *} d1=${drop#* }
        bsf="noise=drop=between(n\\,$d0\\,$d1)"
        want=$((nb - (d1 - d0 + 1)))
    fi
    # the receiver, on a port nothing uses (tests/fate/listen.sh)
    start_rx() {
        if [ "$proto" = tcp ]; then
            url="tcp://127.0.0.1:$1"
            rx_in="$url?listen=1&listen_timeout=20000"
            tx_out="$url"
        else
            url="udp://127.0.0.1:$1"
            rx_in="$url?localaddr=127.0.0.1&pkt_size=1316&fifo_size=100000&overrun_nonfatal=1&timeout=10000000"
            tx_out="$url?pkt_size=1316"
        fi
        timeout 60 "$ffmpeg" -nostdin -nostats -hide_banner -v info -threads 1 \
            -f nut -i "$rx_in" -frames:v "$want" -fps_mode passthrough \
            -bitexact -f framemd5 "$tmp/rx.md5" 2> "$tmp/rx.log" &
        listener=$! rx=$! pids=$!
    }
    listen_start "$proto" 20 start_rx ||
        { echo "$listen_error"; cat "$tmp/rx.log" 2>/dev/null; exit 1; }
    # a paced sender, so that no datagram is lost to a full socket buffer
    run_ok timeout 60 "$ffmpeg" -nostdin -nostats -hide_banner -v error -threads 1 \
        -readrate 4 "$@" -vf "$send" -c:v framediff $encopts \
        ${bsf:+-bsf:v "$bsf"} -f nut "$tx_out" || { echo "sender failed"; exit 1; }
    wait $rx
    rc=$?
    pids=
    if [ $rc != 0 ] || sanitizer_report "$tmp/rx.log"; then
        echo "receiver failed ($(ended $rc)$(sanitizer_report "$tmp/rx.log" && echo ", a sanitizer report"))"
        cat "$tmp/rx.log"
        exit 1
    fi
    echo "$proto: sent $nb frames, received $(hashes "$tmp/rx.md5" | wc -l)"
    if [ -z "$drop" ]; then
        hashes "$tmp/tx.md5" > "$tmp/a"
        hashes "$tmp/rx.md5" > "$tmp/b"
        cat "$tmp/a"
        same "$tmp/a" "$tmp/b" "receiver vs sender's mode=recon"
    else
        # frame by frame, matched by pts (column 3): exact before the
        # drop and from the first refresh after it on, stale in between
        refresh=$(( (d1 / g + 1) * g ))
        echo "dropped packets $d0 to $d1; next refresh: frame $refresh"
        grep -c "lists were lost" "$tmp/rx.log" | sed 's/^/gaps reported: /'
        grep -o "Refresh at list [0-9]*" "$tmp/rx.log"
        hashes "$tmp/tx.md5" | tr -d ' ' > "$tmp/a"
        hashes "$tmp/rx.md5" | tr -d ' ' > "$tmp/b"
        awk -F, -v d0="$d0" -v d1="$d1" -v r="$refresh" '
            NR == FNR { tx[$3] = $6; next }
            { pts = $3; ok = tx[pts] == $6
              if (pts >= d0 && pts <= d1) { bad = bad " " pts "(dropped, yet received)" }
              else if (pts < d0 || pts >= r) { if (ok) exact++; else bad = bad " " pts }
              else if (!ok) stale++ }
            END { printf "exact %d, stale %d (between the drop and the refresh)\n", exact, stale
                  if (bad != "" || !stale) { print "UNEXPECTED:" bad; exit 1 } }' "$tmp/a" "$tmp/b" ||
            exit 1
    fi
    ;;
cuda)
    fmt=$1 thr=$2 g=$3
    opts="threshold=$thr:refresh=$g"
    if [ "$CUDADIFF_CPU_ONLY" = 1 ]; then
        # framediff's half only, to write the reference without a GPU
        run_ok run_ffmpeg -f lavfi -i "$src" -vf "format=$fmt,framediff=$opts" \
            -c:v framediff -f nut "$tmp/cpu.nut" || exit 1
        cp "$tmp/cpu.nut" "$tmp/gpu.nut"
    else
        run_ok run_ffmpeg -init_hw_device cuda=cu -filter_hw_device cu -f lavfi -i "$src" \
            -filter_complex "[0:v]format=$fmt,split[a][b];[a]framediff=$opts[ca];[b]hwupload,cudadiff=$opts[ga]" \
            -map "[ca]" -c:v framediff -f nut "$tmp/cpu.nut" \
            -map "[ga]" -c:v framediff -f nut "$tmp/gpu.nut" || exit 1
    fi
    packets "$tmp/cpu.nut" > "$tmp/cpu.pk" || exit 1
    packets "$tmp/gpu.nut" > "$tmp/gpu.pk" || exit 1
    run_ok run_ffmpeg -i "$tmp/cpu.nut" -bitexact -f framemd5 "$tmp/cpu.md5" || exit 1
    run_ok run_ffmpeg -i "$tmp/gpu.nut" -bitexact -f framemd5 "$tmp/gpu.md5" || exit 1
    hashes "$tmp/cpu.md5" > "$tmp/a"
    hashes "$tmp/gpu.md5" > "$tmp/b"
    cat "$tmp/a"
    same "$tmp/cpu.pk" "$tmp/gpu.pk" "packets of cudadiff vs framediff lists"
    same "$tmp/a" "$tmp/b" "decoded, cudadiff vs framediff lists"
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
