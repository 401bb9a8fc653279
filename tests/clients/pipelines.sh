#!/bin/sh
# User pipelines on the complete build: what a user of ffmpeg and ffprobe
# does with a phone video, each result checked by checksums or by
# ffprobe's stream list (codec names, counts, durations), the expected
# values computed in the run by a second, independent route.
#
#   pipelines.sh BUILD
#
# BUILD holds the complete build's ffmpeg and ffprobe (BUILD/ffmpeg,
# BUILD/ffprobe). The input, phone.mp4 (H.264 by libx264 and AAC, 320x240,
# 25 fps, 2 s, 48 kHz stereo), is made here from lavfi sources.
#   (a) -c:v c63 into Matroska, the audio by the muxer's default encoder
#   (b) mp4 to raw .c63 against c63 of the same decoded frames
#   (c) .c63 back to H.264 (libx264) in MP4, PSNR against the c63 decode
#   (d) c63 beside Opus (libopus) and MP3 (libmp3lame) in Matroska and NUT,
#       MP3 also in MOV, the same c63 packets in each; MP4 refuses c63 and
#       MOV Opus, each with the muxer's message
#   (e) the framediff codec in NUT with FLAC beside it, in a file and over
#       TCP on 127.0.0.1, against framediff=...:mode=recon
#   (f) what any distribution's ffmpeg does: VP9 + Opus in WebM, HEVC
#       (libx265) + MP3 in MP4, AV1 by libaom and libsvtav1, decoded by
#       libdav1d and libaom alike
# Every run of ffmpeg and ffprobe must end as its check requires
# (tests/fate/checked.sh): exit status 0 and no sanitizer report where it
# must succeed, a clean refusal where it must refuse; output is checked
# only once the run that wrote it has ended so.
# Prints "PASS: what" / "FAILED: what (details)" and "N passed, N failed";
# exits non-zero on any failure.
set -u
if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD" >&2
    exit 2
fi
BUILD=$1
FF=$BUILD/ffmpeg
FP=$BUILD/ffprobe

TMP=$(mktemp -d "${TMPDIR:-/tmp}/c63-pipelines.XXXXXX") || exit 1
pids=
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export LC_ALL=C
. "$(dirname "$0")/../fate/listen.sh"
. "$(dirname "$0")/../fate/checked.sh"

pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "PASS: $1"; }
bad() { fail=$((fail + 1)); echo "FAILED: $1"; }
finish() {
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
}

# ffmpeg as a user runs it (errors only), which must succeed (run_ok); its
# messages go to $TMP/err
ff() {
    CHECKED_ERR=$TMP/err
    run_ok timeout 120 "$FF" -nostdin -nostats -hide_banner -v error -y "$@"
}
# the same, which must refuse cleanly (run_refused)
ff_refused() {
    CHECKED_ERR=$TMP/err
    run_refused timeout 120 "$FF" -nostdin -nostats -hide_banner -v error -y "$@"
}
err() { tail -n 2 "$TMP/err" | tr '\n' ' '; }
# fp ARGS...: what ffprobe -v error ARGS prints, once it has succeeded
# (run_ok); else a line saying how it ended, which no check expects
fp() {
    CHECKED_ERR=$TMP/fp.err
    if run_ok "$FP" -v error "$@" > "$TMP/fp.out" 2> /dev/null; then
        cat "$TMP/fp.out"
    else
        echo "(ffprobe: $(ended $ran_status)$(sanitizer_report "$CHECKED_ERR" && echo ", a sanitizer report"))"
        return 1
    fi
}
# the streams of a file: "type:codec" a line, in order
streams() {
    fp -show_entries stream=codec_type,codec_name -of csv=p=0 "$1" > "$TMP/streams" || { cat "$TMP/streams"; return 1; }
    awk -F, '{ print $2 ":" $1 }' "$TMP/streams" | tr '\n' ' ' | sed 's/ $//'
}
# one field of one stream (SEL: v:0, a:0)
field() {       # field FILE SEL ENTRY [extra ffprobe options]
    f=$1 s=$2 e=$3
    shift 3
    fp "$@" -select_streams "$s" -show_entries stream="$e" -of csv=p=0 "$f" > "$TMP/field"
    head -n 1 "$TMP/field"
}
packets() { field "$1" "$2" nb_read_packets -count_packets; }
frames()  { field "$1" "$2" nb_read_frames -count_frames; }
duration() { fp -show_entries format=duration -of csv=p=0 "$1"; }
# psnr A B: the average PSNR of A against B, once ffmpeg has succeeded
# (run_ok; its log in $TMP/psnr.log); nothing where it failed
psnr() {
    CHECKED_ERR=$TMP/psnr.log
    if run_ok timeout 120 "$FF" -nostdin -hide_banner -i "$1" -i "$2" -lavfi "[0:v][1:v]psnr" -f null - \
            > /dev/null 2> "$TMP/psnr.why"; then
        sed -n 's/.*PSNR .* average:\([0-9.]*\).*/\1/p' "$TMP/psnr.log" | tail -n 1
    else
        cat "$TMP/psnr.why" >&2
    fi
}
# the checksums of a framemd5 file, one a line (no timestamps, which
# differ between containers' time bases)
sums() { grep -v '^#' "$1" | awk -F, '{ gsub(/ /, "", $NF); print $NF }'; }
# decoded frames of one stream as framemd5 (ffmpeg options before -i allowed)
decode() {      # decode OUT [input options] -i FILE [-map ...]
    out=$1
    shift
    ff "$@" -bitexact -f framemd5 "$out"
}
between() {     # between X LO HI
    awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x + 0 >= lo && x + 0 <= hi) }'
}
md5() { md5sum < "$1" | cut -d' ' -f1; }
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
bytes() { if [ -f "$1" ]; then wc -c < "$1"; else echo 0; fi; }

CHECKED_ERR=$TMP/v.err
for p in "$FF" "$FP"; do
    if ! run_ok "$p" -hide_banner -version > "$TMP/v" 2>&1; then
        bad "$p runs ($(tail -n 1 "$TMP/v"))"
        finish
    fi
done

# ---------------------------------------------------------------------------
# The phone video. 50 frames, 96000 samples a channel.
N=50
if ff -f lavfi -i testsrc2=s=320x240:r=25:d=2 \
      -f lavfi -i "aevalsrc=0.4*sin(2*PI*440*t)|0.4*sin(2*PI*660*t):s=48000:d=2" \
      -c:v libx264 -threads 1 -preset veryfast -crf 23 -g 25 -pix_fmt yuv420p \
      -c:a aac -b:a 128k -bitexact -map_metadata -1 "$TMP/phone.mp4"; then
    s=$(streams "$TMP/phone.mp4") n=$(packets "$TMP/phone.mp4" v:0)
    if [ "$s" = "video:h264 audio:aac" ] && [ "$n" = $N ]; then
        ok "input phone.mp4: $s, $n video frames"
    else
        bad "input phone.mp4 ($s, $n video frames, expected video:h264 audio:aac, $N)"
        finish
    fi
else
    bad "input phone.mp4 made with libx264 and aac ($(err))"
    finish
fi
P=$TMP/phone.mp4
# the decoded pictures, the reference for everything below
ff -i "$P" -map 0:v -pix_fmt yuv420p -f yuv4mpegpipe "$TMP/frames.y4m" ||
    { bad "phone.mp4 decodes ($(err))"; finish; }

# ---------------------------------------------------------------------------
# (a) ffmpeg -i phone.mp4 -c:v c63 out.mkv: the audio by Matroska's default
ff -h muxer=matroska > "$TMP/mkv.h" || bad "(a) ffmpeg -h muxer=matroska ($(err))"
mkvaudio=$(sed -n 's/^ *Default audio codec: \([a-z0-9_]*\)\.$/\1/p' "$TMP/mkv.h")
if ff -i "$P" -c:v c63 "$TMP/a.mkv" && ff -i "$P" -c:v c63 -an "$TMP/a.c63"; then
    s=$(streams "$TMP/a.mkv") n=$(packets "$TMP/a.mkv" v:0) d=$(duration "$TMP/a.mkv")
    if [ -n "$mkvaudio" ] && [ "$s" = "video:c63 audio:$mkvaudio" ] && [ "$n" = $N ] && between "$d" 1.95 2.1; then
        ok "(a) phone.mp4 -> c63 in out.mkv: $s (Matroska's default audio codec), $n frames, $d s"
    else
        bad "(a) out.mkv streams ($s, $n frames, $d s; expected video:c63 audio:${mkvaudio:-?}, $N frames, 2 s)"
    fi
    s=$(streams "$TMP/a.c63") n=$(frames "$TMP/a.c63" v:0) wh=$(field "$TMP/a.c63" v:0 width,height)
    if [ "$s" = "video:c63" ] && [ "$n" = $N ] && [ "$wh" = "320,240" ]; then
        ok "(a) out.c63 decodes with our decoder: $s, $n frames, $wh"
    else
        bad "(a) out.c63 ($s, $n frames, $wh)"
    fi
    if decode "$TMP/a.mkv.md5" -i "$TMP/a.mkv" -map 0:v && sums "$TMP/a.mkv.md5" > "$TMP/a.mkv.s" &&
       decode "$TMP/a.c63.md5" -i "$TMP/a.c63" && sums "$TMP/a.c63.md5" > "$TMP/a.s" &&
       [ "$(lines "$TMP/a.s")" = $N ] && cmp -s "$TMP/a.mkv.s" "$TMP/a.s"; then
        ok "(a) the c63 stream of out.mkv decodes to what out.c63 decodes to ($N frames)"
    else
        bad "(a) out.mkv's c63 stream and out.c63 decode alike ($(lines "$TMP/a.mkv.s") and $(lines "$TMP/a.s") frames; $(err))"
    fi
else
    bad "(a) ffmpeg -i phone.mp4 -c:v c63 out.mkv / -an out.c63 ($(err))"
fi

# ---------------------------------------------------------------------------
# (b) mp4 -> raw .c63 against c63 of the same pictures decoded first
if ff -i "$TMP/frames.y4m" -c:v c63 "$TMP/b.c63"; then
    if cmp -s "$TMP/a.c63" "$TMP/b.c63"; then
        ok "(b) c63 of phone.mp4 and c63 of its decoded pictures: identical bytes"
    else
        bad "(b) c63 of phone.mp4 and of its decoded pictures differ ($(cmp "$TMP/a.c63" "$TMP/b.c63" 2>&1 | head -n 1))"
    fi
    if decode "$TMP/b.md5" -i "$TMP/b.c63" && sums "$TMP/b.md5" > "$TMP/b.s" &&
       [ "$(lines "$TMP/b.s")" = $N ] && cmp -s "$TMP/a.s" "$TMP/b.s"; then
        ok "(b) framemd5 of both decodes equal ($N frames)"
    else
        bad "(b) framemd5 of the decodes ($(lines "$TMP/b.s") and $(lines "$TMP/a.s") frames, $(err))"
    fi
    # and c63 is near the pictures it coded
    q=$(psnr "$TMP/b.c63" "$TMP/frames.y4m")
    if between "$q" 28 99; then
        ok "(b) c63 decode against the pictures it coded: PSNR $q dB"
    else
        bad "(b) c63 decode against the pictures it coded: PSNR ${q:-?} dB, expected > 28"
    fi
else
    bad "(b) c63 of the decoded pictures ($(err))"
fi

# ---------------------------------------------------------------------------
# (c) .c63 back to H.264 in MP4
if ff -i "$TMP/a.c63" -c:v libx264 -crf 18 -preset veryfast -threads 1 "$TMP/c.mp4"; then
    s=$(streams "$TMP/c.mp4") n=$(frames "$TMP/c.mp4" v:0) r=$(field "$TMP/c.mp4" v:0 r_frame_rate) d=$(duration "$TMP/c.mp4")
    if [ "$s" = "video:h264" ] && [ "$n" = $N ] && [ "$r" = 25/1 ] && between "$d" 1.95 2.05; then
        ok "(c) out.c63 -> H.264 in MP4: $s, $n frames decoded, $r fps, $d s"
    else
        bad "(c) c63 -> H.264 MP4 ($s, $n frames, $r fps, $d s; expected video:h264, $N, 25/1, 2 s)"
    fi
    q=$(psnr "$TMP/c.mp4" "$TMP/a.c63")
    if between "$q" 30 99; then
        ok "(c) H.264 (crf 18) against the c63 decode: PSNR $q dB"
    else
        bad "(c) H.264 (crf 18) against the c63 decode: PSNR ${q:-?} dB, expected > 30"
    fi
else
    bad "(c) ffmpeg -i out.c63 -c:v libx264 out.mp4 ($(err))"
fi

# ---------------------------------------------------------------------------
# (d) c63 with Opus and MP3 in Matroska, NUT and MOV; the c63 packets are
# those of out.c63 in every one, the audio packets the same in each. The
# mov muxer of 9.0 has no tag for c63 in MP4 (in MOV it takes the AVI
# FourCC, with a warning) and takes Opus only in MP4: those two must be
# refused with the muxer's message, cleanly (a status of ffmpeg's own, no
# sanitizer report).
refused() {     # refused WHAT FILE MESSAGE [ffmpeg options]
    what=$1 out=$2 msg=$3
    shift 3
    if ff_refused -i "$P" "$@" "$out"; then
        if grep -qF "$msg" "$TMP/err"; then
            ok "(d) $what refused with a clear error: $(grep -m1 -F "$msg" "$TMP/err")"
        else
            bad "(d) $what refused, but not with \"$msg\" ($(err))"
        fi
    elif [ "$ran_status" = 0 ] && ! sanitizer_report "$TMP/err"; then
        bad "(d) $what refused (it was accepted: $(streams "$out"))"
    else
        bad "(d) $what refused cleanly ($(ended "$ran_status")$(sanitizer_report "$TMP/err" && echo ", a sanitizer report"): $(err))"
    fi
}
for enc in libopus:opus:mkv,nut libmp3lame:mp3:mkv,nut,mov; do
    lib=${enc%%:*} rest=${enc#*:} codec=${rest%%:*} exts=${rest#*:}
    asum=
    for ext in $(echo "$exts" | tr , ' '); do
        f=$TMP/d-$codec.$ext
        if ! ff -i "$P" -c:v c63 -c:a "$lib" -b:a 96k "$f"; then
            bad "(d) c63 + $lib in .$ext ($(err))"
            continue
        fi
        s=$(streams "$f") n=$(packets "$f" v:0) ar=$(field "$f" a:0 sample_rate,channels)
        if ff -i "$f" -map 0:a -f s16le -ac 2 "$TMP/d.pcm"; then
            ns=$(( $(bytes "$TMP/d.pcm") / 4 ))
        else
            ns="? (the audio decode failed: $(err))"
        fi
        if [ "$s" = "video:c63 audio:$codec" ] && [ "$n" = $N ] && [ "$ar" = 48000,2 ] && between "$ns" 93000 99000; then
            ok "(d) c63 + $lib in .$ext: $s, $n frames, $ar, $ns samples decoded"
        else
            bad "(d) c63 + $lib in .$ext ($s, $n frames, $ar, $ns samples; expected video:c63 audio:$codec, $N, 48000,2, ~96000)"
        fi
        if ff -i "$f" -map 0:v -c copy -f c63 "$TMP/d.c63" && cmp -s "$TMP/d.c63" "$TMP/a.c63"; then
            ok "(d) c63 packets of .$ext (with $codec), copied back to raw .c63: the bytes of out.c63"
        else
            bad "(d) c63 packets of .$ext (with $codec) copied back to raw .c63 differ from out.c63 ($(err))"
        fi
        rm -f "$TMP/d.a"
        if ! ff -i "$f" -map 0:a -c copy -f data "$TMP/d.a" || [ ! -s "$TMP/d.a" ]; then
            bad "(d) $codec packets of .$ext copied out ($(bytes "$TMP/d.a") bytes; $(err))"
            continue
        fi
        sum=$(md5 "$TMP/d.a")
        if [ -z "$asum" ]; then
            asum=$sum first=$ext
        elif [ "$sum" = "$asum" ]; then
            ok "(d) $codec packets in .$ext: those in .$first"
        else
            bad "(d) $codec packets in .$ext differ from those in .$first"
        fi
    done
    refused "c63 + $codec in MP4" "$TMP/d-$codec.mp4" \
        "Could not find tag for codec c63 in stream #0, codec not currently supported in container" -c:v c63 -c:a "$lib"
done
refused "Opus in MOV (beside c63)" "$TMP/d-opus.mov" "opus only supported in MP4." -c:v c63 -c:a libopus

# ---------------------------------------------------------------------------
# (e) the framediff codec in NUT with 16-bit FLAC beside it: the video decodes to
# framediff=...:mode=recon of the same pictures, the audio to the AAC
# decode of phone.mp4
T=20 G=25
if decode "$TMP/e-recon.md5" -i "$P" -map 0:v -vf "framediff=threshold=$T:refresh=$G:mode=recon"; then
    sums "$TMP/e-recon.md5" > "$TMP/e-recon.s"
else
    bad "(e) framediff=...:mode=recon on phone.mp4 ($(err))"
fi
ff -i "$P" -map 0:a -f s16le "$TMP/e-aac.pcm" || bad "(e) the AAC of phone.mp4 decodes ($(err))"
echeck() {      # echeck WHAT FILE: streams, video against recon, audio against AAC
    s=$(streams "$2")
    if [ "$s" = "video:framediff audio:flac" ]; then
        ok "(e) $1: $s"
    else
        bad "(e) $1: streams $s, expected video:framediff audio:flac"
    fi
    if decode "$TMP/e.md5" -i "$2" -map 0:v && sums "$TMP/e.md5" > "$TMP/e.s" &&
       [ "$(lines "$TMP/e.s")" = $N ] && cmp -s "$TMP/e.s" "$TMP/e-recon.s"; then
        ok "(e) $1: $N frames decode to framediff=threshold=$T:refresh=$G:mode=recon"
    else
        bad "(e) $1: decoded video against mode=recon ($(lines "$TMP/e.s") frames, $(err))"
    fi
    if ff -i "$2" -map 0:a -f s16le "$TMP/e.pcm" && cmp -s "$TMP/e.pcm" "$TMP/e-aac.pcm"; then
        ok "(e) $1: FLAC decodes to the AAC decode of phone.mp4"
    else
        bad "(e) $1: FLAC against the AAC decode ($(bytes "$TMP/e.pcm") and $(bytes "$TMP/e-aac.pcm") bytes)"
    fi
}
if ff -i "$P" -c:v framediff -threshold $T -g $G -c:a flac -sample_fmt s16 "$TMP/e.nut"; then
    echeck "framediff + FLAC in NUT" "$TMP/e.nut"
else
    bad "(e) framediff + FLAC into NUT ($(err))"
fi

# the same as a stream: NUT over TCP, both ends on 127.0.0.1, each bounded
# by a timeout; the port is one nothing uses (tests/fate/listen.sh)
start_rx() {
    rm -f "$TMP/rx.log"
    timeout 30 "$FF" -nostdin -nostats -hide_banner -v error -y \
        -f nut -i "tcp://127.0.0.1:$1?listen=1&listen_timeout=10000" \
        -map 0 -c copy -f nut "$TMP/e-rx.nut" 2> "$TMP/rx.log" &
    listener=$! rx=$! pids=$!
}
if listen_start tcp 20 start_rx; then
    ff -i "$P" -c:v framediff -threshold $T -g $G -c:a flac -sample_fmt s16 -f nut "tcp://127.0.0.1:$port"
    txrc=$?
    [ $txrc = 0 ] || kill "$rx" 2>/dev/null
    wait "$rx"
    rxrc=$?
    pids=
    # (a sanitizer report of the receiver fails it like a status of its own)
    [ $rxrc != 0 ] || ! sanitizer_report "$TMP/rx.log" || rxrc="0 with a sanitizer report"
    if [ $txrc = 0 ] && [ "$rxrc" = 0 ]; then
        echeck "framediff + FLAC in NUT over TCP (127.0.0.1:$port)" "$TMP/e-rx.nut"
    else
        bad "(e) NUT over TCP: sender $txrc, receiver $rxrc ($(err) $(tail -n 1 "$TMP/rx.log"))"
    fi
else
    pids=
    bad "(e) NUT over TCP: $listen_error ($(tail -n 1 "$TMP/rx.log" 2>/dev/null))"
fi

# ---------------------------------------------------------------------------
# (f) transcodes any distribution's ffmpeg does
# WebM: VP9 (libvpx-vp9) + Opus; the native vp9 decoder and libvpx agree
if ff -i "$P" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 300k -c:a libopus -b:a 64k "$TMP/f.webm"; then
    s=$(streams "$TMP/f.webm") n=$(frames "$TMP/f.webm" v:0) d=$(duration "$TMP/f.webm")
    if [ "$s" = "video:vp9 audio:opus" ] && [ "$n" = $N ] && between "$d" 1.95 2.1; then
        ok "(f) phone.mp4 -> WebM: $s, $n frames, $d s"
    else
        bad "(f) phone.mp4 -> WebM ($s, $n frames, $d s; expected video:vp9 audio:opus, $N, 2 s)"
    fi
    if decode "$TMP/f1.md5" -c:v vp9 -i "$TMP/f.webm" -map 0:v && decode "$TMP/f2.md5" -c:v libvpx-vp9 -i "$TMP/f.webm" -map 0:v &&
       sums "$TMP/f1.md5" > "$TMP/f1.s" && sums "$TMP/f2.md5" > "$TMP/f2.s" &&
       [ "$(lines "$TMP/f1.s")" = $N ] && cmp -s "$TMP/f1.s" "$TMP/f2.s"; then
        ok "(f) VP9: the native decoder and libvpx-vp9 decode alike ($N frames)"
    else
        bad "(f) VP9: native and libvpx-vp9 decodes ($(err))"
    fi
else
    bad "(f) phone.mp4 -> WebM with libvpx-vp9 + libopus ($(err))"
fi
# MP4: HEVC (libx265) + MP3
if ff -i "$P" -c:v libx265 -preset ultrafast -x265-params log-level=error -c:a libmp3lame "$TMP/f.mp4"; then
    s=$(streams "$TMP/f.mp4") n=$(frames "$TMP/f.mp4" v:0)
    if [ "$s" = "video:hevc audio:mp3" ] && [ "$n" = $N ]; then
        ok "(f) phone.mp4 -> HEVC + MP3 in MP4: $s, $n frames"
    else
        bad "(f) phone.mp4 -> HEVC + MP3 in MP4 ($s, $n frames)"
    fi
else
    bad "(f) phone.mp4 -> MP4 with libx265 + libmp3lame ($(err))"
fi
# AV1 by libaom and by SVT-AV1, each decoded by libdav1d and libaom
for e in "libaom-av1:-usage realtime -cpu-used 8 -b:v 200k:mkv" "libsvtav1:-preset 12:mp4"; do
    enc=${e%%:*} rest=${e#*:} opts=${rest%:*} ext=${rest##*:}
    f=$TMP/f-$enc.$ext
    # shellcheck disable=SC2086
    if ff -i "$P" -an -c:v "$enc" $opts "$f"; then
        s=$(streams "$f")
        if decode "$TMP/f1.md5" -c:v libdav1d -i "$f" && decode "$TMP/f2.md5" -c:v libaom-av1 -i "$f" &&
           sums "$TMP/f1.md5" > "$TMP/f1.s" && sums "$TMP/f2.md5" > "$TMP/f2.s" &&
           [ "$s" = "video:av1" ] && [ "$(lines "$TMP/f1.s")" = $N ] && cmp -s "$TMP/f1.s" "$TMP/f2.s"; then
            ok "(f) AV1 by $enc in .$ext: $s, $N frames decoded by libdav1d, the same by libaom"
        else
            bad "(f) AV1 by $enc in .$ext ($s; $(lines "$TMP/f1.s") frames by libdav1d, $(lines "$TMP/f2.s") by libaom; $(err))"
        fi
    else
        bad "(f) phone.mp4 -> AV1 with $enc ($(err))"
    fi
done

finish
