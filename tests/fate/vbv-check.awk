# A leaky-bucket check of a video stream, written apart from any encoder's
# model: awk -f vbv-check.awk -v fps=NUM/DEN -v rate=MAXRATE -v size=BUFSIZE
# [-v init=INIT] [-v constant=1], with the packet sizes in bytes on stdin,
# one a line, in decoding order.
#
# The decoder's buffer holds INIT bits at the start (0 or unset: three
# quarters of BUFSIZE, libavcodec's default), gains MAXRATE / fps bits in
# each frame's time and gives up each frame's bits at once at its time: a
# frame larger than what the buffer holds underflows it. With constant=1
# the channel never stops, so a buffer that would hold more than BUFSIZE
# overflows; otherwise the channel stops while the buffer is full (capped
# variable bitrate). Prints the frames, the lowest and the highest
# fullness and the violations; exits 1 on any.
BEGIN {
    split(fps, f, "/")
    per = rate * (f[2] ? f[2] : 1) / f[1]
    fill = init > 0 ? init : size * 3 / 4
    lo = hi = fill
}
{
    bits = 8 * $1
    n++
    if (bits > fill) { under++; fill = 0 } else fill -= bits
    if (fill < lo) lo = fill
    fill += per
    if (fill > size) { if (constant) over++; fill = size }
    if (fill > hi) hi = fill
}
END {
    printf "frames: %d\nbuffer: %.1f%% to %.1f%% full\nunderflows: %d, overflows: %d\n",
           n, 100 * lo / size, 100 * hi / size, under, over
    exit under + over > 0
}
