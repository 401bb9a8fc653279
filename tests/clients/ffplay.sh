#!/bin/sh
# The receiver as a person sees it: the complete build's ffplay plays, in a
# real window on a virtual X server (Xvfb),
#   1. a .c63 file              ffplay still.c63
#   2. a framediff stream that a sender pushes over TCP
#                               ffplay -f nut "tcp://127.0.0.1:PORT?listen=1"
#                               ffmpeg -re -i still.y4m -c:v framediff -f nut tcp://127.0.0.1:PORT
# and a screenshot of the window (xwd) must show the picture that ffmpeg
# decodes from the same input (PSNR against its RGB conversion, see TOL).
# Each screenshot is also compared with two wrong pictures, which must fail
# the same check: a self-test of the comparison.
#
#   tests/clients/ffplay.sh BUILD [SHOTS]
#
# BUILD holds ffmpeg and ffplay (build, or build/dist/bin). SHOTS, if given,
# is a folder that keeps the screenshots and the expected pictures as PNG
# for a person to look at; otherwise they go to a temporary folder that is
# removed on exit. Needs Xvfb (Debian: xvfb) and xwd (x11-apps); without
# them it says SKIP and fails. Prints PASS:/FAILED: lines and
# "N passed, N failed"; exits non-zero on any failure. Every run of ffmpeg
# must succeed cleanly (tests/fate/checked.sh: exit status 0, no sanitizer
# report) before its output is used, and ffplay's log must hold no
# sanitizer report. SDL runs with
# SDL_VIDEODRIVER=x11 and SDL_AUDIODRIVER=dummy; SDL_RENDER_DRIVER, if set,
# picks its renderer.
#
# The content is still (25 identical frames; ffplay without -autoexit keeps
# showing the last one), so the moment of the screenshot does not matter:
# the window is captured until it shows the picture or 8 s have passed.
set -u
BUILD=${1:?usage: $0 BUILD [SHOTS]}
ffmpeg=$BUILD/ffmpeg ffplay=$BUILD/ffplay

# Picture size (CIF: <= 576 lines, so SDL's automatic YUV->RGB mode is
# BT.601 limited range, as swscale's default for untagged yuv420p), and the
# Xvfb screen, larger than the window.
W=352 H=288
SCREEN=640x480x24

# How the window converts YUV to RGB depends on SDL's renderer: the
# software renderer has no YUV textures, so ffplay converts with swscale, as
# ffmpeg -vf format=rgb24 does (bit-exact); GPU renderers (opengl,
# opengles2: Mesa's llvmpipe under Xvfb; a desktop's GPU) sample the
# half-size chroma planes with linear filtering and apply BT.601 in a
# shader. So a screenshot is compared with both renderings of the expected
# picture (swscale's, and swscale's with linearly interpolated centred
# chroma), and the better PSNR (average of R, G, B, in dB) counts; there is
# no scaling, as the window is exactly W x H. Measured on Debian bookworm
# (SDL 2.26.5, Mesa 22.3.6, Xvfb 21.1.7; SDL_RENDER_DRIVER picks one):
#                right picture     wrong: next frame   wrong: shifted 1 px
#   renderer     c63   framediff   c63   framediff     c63   framediff
#   opengl       38.3  40.2        20.5  20.5          24.3  24.6
#   opengles2    38.2  40.0        20.5  20.5          24.3  24.6
#   software     inf   inf         19.7  19.7          23.9  24.3
# and a window showing the right picture in the wrong colours gets 22.0
# (full range) or 24.5 (BT.709) under opengl. Against the plain
# format=rgb24 rendering alone, the GL window reaches only 27.3 dB
# (testsrc2's saturated bars make every chroma edge differ by up to 95
# levels), too close to the wrong pictures' 22-25 dB for one tolerance.
# TOL lies 7 dB (a factor 5 in squared error) below the lowest right
# picture and 6 dB above the closest wrong one.
TOL=31

pass=0 fail=0
ok()   { pass=$((pass + 1)); echo "PASS: $1"; }
bad()  { fail=$((fail + 1)); echo "FAILED: $1"; }
skip() { fail=$((fail + 1)); echo "SKIP: $1"; }
finish() { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit $?; }

missing=
for p in Xvfb:xvfb xwd:x11-apps; do
    command -v "${p%%:*}" > /dev/null 2>&1 || missing="$missing ${p%%:*} (Debian package ${p#*:})"
done
for p in "$ffmpeg" "$ffplay"; do
    [ -x "$p" ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
    skip "the window cannot be tested, missing:$missing"
    finish
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ffplay-client.XXXXXX") || exit 1
if [ $# -ge 2 ]; then
    shots=$2 keep=1
    mkdir -p "$shots" || exit 1
else
    shots=$tmp/shots keep=
    mkdir "$shots"
fi
pids=
cleanup() {
    for p in $pids; do kill "$p" 2> /dev/null; done
    for p in $pids; do wait "$p" 2> /dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
. "$(dirname "$0")/../fate/listen.sh"
. "$(dirname "$0")/../fate/checked.sh"

ff() {
    CHECKED_ERR=$tmp/ff.err
    run_ok timeout 30 "$ffmpeg" -nostdin -nostats -hide_banner -loglevel error "$@"
}

# a virtual screen on a display number that no other server uses: Xvfb
# picks it (-displayfd) and writes it once it accepts connections
timeout 120 Xvfb -displayfd 3 -screen 0 $SCREEN -nolisten tcp -noreset \
    3> "$tmp/display" > "$tmp/xvfb.log" 2>&1 &
xvfb=$!
pids=$xvfb
w=0
while [ $w -lt 100 ] && ! grep -q '^[0-9]' "$tmp/display" 2> /dev/null; do
    kill -0 $xvfb 2> /dev/null || break
    sleep 0.1
    w=$((w + 1))
done
if ! grep -q '^[0-9]' "$tmp/display"; then
    bad "Xvfb did not start: $(tail -n 3 "$tmp/xvfb.log" | tr '\n' ' ')"
    finish
fi
DISPLAY=:$(head -n 1 "$tmp/display")
export DISPLAY
export SDL_VIDEODRIVER=x11 SDL_AUDIODRIVER=dummy

# The picture: testsrc2's first frame, 25 times (1 s at 25 fps). Two wrong
# pictures, which must fail the check: the source's next frame (40 ms
# later: the clock and the moving shapes differ, the rest is the same), and
# the picture shifted left by one pixel (a misplaced window or crop).
ff -f lavfi -i testsrc2=s=${W}x$H:r=25 -vf trim=end_frame=1,loop=loop=-1:size=1 \
    -frames:v 25 -pix_fmt yuv420p "$tmp/still.y4m" &&
ff -f lavfi -i testsrc2=s=${W}x$H:r=25 -vf trim=start_frame=1:end_frame=2 \
    -pix_fmt yuv420p "$tmp/next.y4m" &&
ff -i "$tmp/still.y4m" -vf crop=$((W - 1)):$H:1:0,pad=$W:$H -frames:v 1 "$tmp/shifted.y4m" ||
    { bad "making the test pictures"; finish; }

# expect INPUT NAME: INPUT's last picture as a window may show it (which
# ffplay keeps showing at the end): $shots/NAME.png, converted by swscale
# (-vf format=rgb24), and $tmp/NAME-linear.png, with the chroma
# interpolated linearly from centred samples, as a GPU renderer does
expect() {
    ff -i "$1" -vf format=rgb24 -update 1 -y "$shots/$2.png" &&
    ff -i "$1" -vf scale=flags=bilinear+full_chroma_int+accurate_rnd:in_chroma_loc=center,format=rgb24 \
        -update 1 -y "$tmp/$2-linear.png"
}
# match SHOT NAME: the PSNR of the screenshot against NAME's two renderings,
# the better one ("inf" if identical; empty if not computed, or if ffmpeg
# did not succeed cleanly)
match() {
    CHECKED_ERR=$tmp/match.log
    run_ok timeout 30 "$ffmpeg" -nostdin -nostats -hide_banner -loglevel info \
        -i "$1" -i "$shots/$2.png" -i "$tmp/$2-linear.png" -lavfi \
        '[0:v]format=rgb24,split[s0][s1];[1:v]format=rgb24[a];[2:v]format=rgb24[b];[s0][a]psnr;[s1][b]psnr' \
        -f null - > /dev/null 2> "$tmp/match.why" || { cat "$tmp/match.why" >&2; return; }
    sed -n 's/.*PSNR r:.* average:\([0-9.inf]*\).*/\1/p' "$tmp/match.log" |
        awk '$1 == "inf" { m = "inf" } m != "inf" && (m == "" || $1 + 0 > m + 0) { m = $1 } END { print m }'
}
# at_least VALUE LIMIT: VALUE is a number >= LIMIT, or inf
at_least() {
    [ "$1" = inf ] || awk -v v="$1" -v l="$2" 'BEGIN { exit !(v != "" && v + 0 >= l) }'
}
expect "$tmp/next.y4m" wrong-next && expect "$tmp/shifted.y4m" wrong-shifted ||
    { bad "converting the wrong pictures"; finish; }

# screenshot PNG: the window's W x H at 0,0 of the screen, as rgb24 PNG
screenshot() {
    timeout 10 xwd -root -silent > "$tmp/shot.xwd" &&
    ff -f xwd_pipe -i "$tmp/shot.xwd" -vf crop=$W:$H:0:0,format=rgb24 -frames:v 1 -y "$1"
}

# window NAME PID: capture the window until it shows the expected picture
# (expect ... NAME-expected) or 8 s have passed, then judge the last screenshot, and
# check that the wrong pictures fail against it
window() {
    name=$1 pid=$2
    shot=$shots/$name.png
    end=$(($(date +%s) + 8)) got=
    while [ "$(date +%s)" -lt $end ]; do
        if kill -0 "$pid" 2> /dev/null && screenshot "$shot"; then
            got=$(match "$shot" "$name-expected")
            at_least "$got" $TOL && break
        fi
        sleep 0.2
    done
    if ! kill -0 "$pid" 2> /dev/null; then
        bad "$name: ffplay exited early: $(tail -n 3 "$tmp/$name.log" | tr '\n' ' ')"
        return
    fi
    if [ -z "$got" ]; then
        bad "$name: no screenshot of the window"
        return
    fi
    if at_least "$got" $TOL; then
        r=$(sed -n 's/.*Initialized \(.*\) renderer.*/\1/p' "$tmp/$name.log" | head -n 1)
        ok "$name: the window shows the decoded picture (PSNR $got dB >= $TOL, SDL renderer ${r:-unknown})"
    else
        bad "$name: the window does not show the decoded picture (PSNR $got dB < $TOL${keep:+; see $shot})"
    fi
    next=$(match "$shot" wrong-next)
    shifted=$(match "$shot" wrong-shifted)
    if [ -n "$next" ] && [ -n "$shifted" ] && ! at_least "$next" $TOL && ! at_least "$shifted" $TOL; then
        ok "$name: wrong pictures fail the check (next frame $next dB, shifted by a pixel $shifted dB < $TOL)"
    else
        bad "$name: a wrong picture passes the check (next frame ${next:-none} dB, shifted by a pixel ${shifted:-none} dB)"
    fi
}

# play NAME ARGS...: ffplay in a W x H window at 0,0, borderless (and there
# is no window manager to move it); its log goes to a file, at the verbose
# level for the name of SDL's renderer (the YUV->RGB conversion differs)
play() {
    name=$1
    shift
    timeout 60 "$ffplay" -nostats -loglevel verbose -an -noborder -left 0 -top 0 \
        -x $W -y $H -window_title "$name" "$@" < /dev/null > "$tmp/$name.log" 2>&1 &
    player=$!
    pids="$pids $player"
}
stop() {    # stop PID (and forget it)
    kill "$1" 2> /dev/null
    wait "$1" 2> /dev/null
    pids=$(for p in $pids; do [ "$p" = "$1" ] || echo "$p"; done)
}
# reported NAME: ffplay's log holds no sanitizer report (it leaves the
# window as it was: only the log shows it)
reported() {
    if sanitizer_report "$tmp/$1.log"; then
        bad "$1: ffplay made a sanitizer report: $(grep -m1 -E "$CHECKED_REPORT" "$tmp/$1.log")"
    fi
}

# 1. a .c63 file (every frame a key frame, so every frame decodes alike);
# expected: the last decoded frame, which ffplay keeps showing
if ff -i "$tmp/still.y4m" -c:v c63 -g 1 "$tmp/still.c63" &&
   expect "$tmp/still.c63" c63-expected; then
    play c63 "$tmp/still.c63"
    window c63 "$player"
    stop "$player"
    reported c63
else
    bad "c63: encoding or decoding the file"
fi

# 2. framediff over TCP: ffplay listens, as a receiver does, the sender
# connects and pushes 25 frames in real time (-re). Expected: the same
# stream written to a file and decoded by ffmpeg.
if ! ff -i "$tmp/still.y4m" -c:v framediff -f nut "$tmp/still.nut" ||
   ! expect "$tmp/still.nut" framediff-expected; then
    bad "framediff: encoding or decoding the stream"
else
    start_player() {
        play framediff -f nut "tcp://127.0.0.1:$1?listen=1"
        listener=$player
    }
    if ! listen_start tcp 10 start_player; then
        bad "framediff: ffplay does not listen on a port ($listen_error): $(tail -n 3 "$tmp/framediff.log" | tr '\n' ' ')"
    elif ! ff -re -i "$tmp/still.y4m" -c:v framediff -f nut "tcp://127.0.0.1:$port"; then
        bad "framediff: the sender failed ($(ended "$ran_status")): $(tail -n 3 "$tmp/ff.err" | tr '\n' ' ')"
        stop "$player"
        reported framediff
    else
        window framediff "$player"
        stop "$player"
        reported framediff
    fi
fi

[ -n "$keep" ] && echo "screenshots and expected pictures in $shots"
finish
