/*
 * encthreads: one encoder at two thread counts on the same frames, in
 * turns of a few frames: times per frame, and the packets compared
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Usage: encthreads [OPTIONS] INPUT WIDTHxHEIGHT
 *
 * INPUT is raw yuv420p of the given size; its frames are read into memory
 * first (at most -k of them). Two encoder contexts are opened with the
 * same options, one with -a threads and one with -b; the -n frames
 * (cycling over the pictures read, pts 0, 1, 2, ...) are given to both in
 * turns: the -w warm-up frames, then each round in turns of -t frames
 * (the last of a round shorter). One encoder codes a turn's frames, then
 * the other the same frames, who goes first alternating from turn to
 * turn. What is timed (steady clock) is, per frame and encoder,
 * avcodec_send_frame() and taking out every packet it made: the encoder
 * as a program linking libavcodec sees it, with no demuxer, muxer or
 * other thread of a command line beside it. The first two frames of each
 * turn are not timed: at the first, an encoder with delay (c63 with two
 * or more threads keeps one frame in flight) hands out the packet of the
 * last frame of its turn before, which it finished while the other
 * encoder had its turn, and the threads it starts have been idle through
 * that turn, which in a long run they never are (on a virtual machine,
 * waking an idle core can take milliseconds); the second waits for the
 * first's work. From the third frame on, each call waits for one frame's
 * work, as in a long run. Since the two encoders take short turns, a change of the
 * host's speed during the run weighs on both alike; since the turns are
 * of several frames, each encoder finds its own data in the caches after
 * its first frame of a turn, as when it runs alone.
 *
 *   -c CODEC     encoder (default c63)
 *   -a THREADS   threads of the first encoder (default 1)
 *   -b THREADS   threads of the second (default 2)
 *   -n FRAMES    frames coded a round (default: the pictures read)
 *   -r ROUNDS    rounds (default 1): the frames are coded ROUNDS times
 *                over (the encoders going on from one round to the next)
 *   -k PICTURES  at most this many pictures read (default 400)
 *   -w WARMUP    frames coded first and not timed (default 5)
 *   -t TURN      frames a turn (default 20)
 *   -o KEY=VALUE an option of both encoders (may be repeated)
 *   -O FILE      the first encoder's packets written to FILE, one after
 *                the other (for c63: a .c63 stream)
 *
 * Prints one line to stdout:
 *   encthreads: CODEC WxH, F frames: A threads X ms a frame (P fps),
 *   B threads Y ms a frame (Q fps), R.RRx (median of the frames' ratios
 *   M.MMx), packets identical
 * where F counts the frames timed, in every round; with ROUNDS > 1, then
 *   best of ROUNDS: A threads X ms a frame, B threads Y ms a frame, R.RRx
 * from each turn's shortest time over the rounds, per encoder: what is
 * left when a busy host slowed some of the runs of a turn but not all (by
 * turns, not frames: with delay, the work of a frame is spread over two
 * calls).
 * and exits 0; when a packet of one differs from the other's, says which
 * and exits 1; on an error prints FFmpeg's message and exits 1.
 */

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/imgutils.h"
}
#include "tests/c63/harness/turns.h"

static int fail(const char *what, int err)
{
    char buf[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(err, buf, sizeof(buf));
    fprintf(stderr, "encthreads: %s: %s\n", what, buf);
    return 1;
}

static int read_pictures(const char *path, int w, int h, int max,
                         std::vector<AVFrame *> &out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "encthreads: cannot open %s\n", path);
        return AVERROR(errno);
    }
    const int cw = (w + 1) >> 1, ch = (h + 1) >> 1;
    const int pw[3] = { w, cw, cw }, ph[3] = { h, ch, ch };
    int ret = 0;
    while ((int)out.size() < max) {
        AVFrame *p = av_frame_alloc();
        if (!p) {
            ret = AVERROR(ENOMEM);
            break;
        }
        p->format = AV_PIX_FMT_YUV420P;
        p->width  = w;
        p->height = h;
        if ((ret = av_frame_get_buffer(p, 0)) < 0) {
            av_frame_free(&p);
            break;
        }
        bool whole = true;
        for (int c = 0; c < 3 && whole; c++)
            for (int y = 0; y < ph[c] && whole; y++)
                whole = fread(p->data[c] + (size_t)y * p->linesize[c], 1, pw[c], f) == (size_t)pw[c];
        if (!whole) {
            av_frame_free(&p);
            break;
        }
        out.push_back(p);
    }
    fclose(f);
    if (ret >= 0 && out.empty()) {
        fprintf(stderr, "encthreads: %s holds no whole %dx%d yuv420p picture\n", path, w, h);
        return AVERROR_INVALIDDATA;
    }
    return ret;
}

static int open_encoder(const AVCodec *codec, int w, int h, int threads,
                        const AVDictionary *opts, AVCodecContext **out)
{
    AVCodecContext *c = avcodec_alloc_context3(codec);
    AVDictionary *d = NULL;
    int ret;

    if (!c)
        return AVERROR(ENOMEM);
    c->width        = w;
    c->height       = h;
    c->pix_fmt      = AV_PIX_FMT_YUV420P;
    c->time_base    = AVRational{ 1, 25 };
    c->framerate    = AVRational{ 25, 1 };
    c->thread_count = threads;
    if ((ret = av_dict_copy(&d, opts, 0)) >= 0)
        ret = avcodec_open2(c, codec, &d);
    if (ret >= 0 && av_dict_count(d)) {
        fprintf(stderr, "encthreads: option %s not found\n", av_dict_iterate(d, NULL)->key);
        ret = AVERROR_OPTION_NOT_FOUND;
    }
    av_dict_free(&d);
    if (ret < 0)
        avcodec_free_context(&c);
    *out = c;
    return ret;
}

/* The packets an encoder gives for frame (NULL: the end), appended to out
 * (their references moved, not their data copied: this is timed). */
static int encode(AVCodecContext *c, const AVFrame *frame, std::vector<AVPacket *> &out)
{
    int ret = avcodec_send_frame(c, frame);
    if (ret < 0)
        return ret;
    for (;;) {
        AVPacket *pkt = av_packet_alloc();
        if (!pkt)
            return AVERROR(ENOMEM);
        if ((ret = avcodec_receive_packet(c, pkt)) < 0) {
            av_packet_free(&pkt);
            break;
        }
        out.push_back(pkt);
    }
    return ret == AVERROR(EAGAIN) || ret == AVERROR_EOF ? 0 : ret;
}

static bool same_packet(const AVPacket *a, const AVPacket *b)
{
    return a->size == b->size && !memcmp(a->data, b->data, a->size);
}

int main(int argc, char **argv)
{
    const char *name = "c63";
    int threads[2] = { 1, 2 }, frames = -1, max_pics = 400, warmup = 5, rounds = 1, turn_len = 20;
    AVDictionary *opts = NULL;
    const char *out_path = NULL;
    int i, w, h, ret;

    for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
        const char *o = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "encthreads: %s needs a value\n", o);
            return 1;
        }
        const char *v = argv[i + 1];
        if (!strcmp(o, "-c"))      name = v;
        else if (!strcmp(o, "-a")) threads[0] = atoi(v);
        else if (!strcmp(o, "-b")) threads[1] = atoi(v);
        else if (!strcmp(o, "-n")) frames = atoi(v);
        else if (!strcmp(o, "-k")) max_pics = atoi(v);
        else if (!strcmp(o, "-w")) warmup = atoi(v);
        else if (!strcmp(o, "-r")) rounds = atoi(v);
        else if (!strcmp(o, "-t")) turn_len = atoi(v);
        else if (!strcmp(o, "-O")) out_path = v;
        else if (!strcmp(o, "-o")) {
            const char *eq = strchr(v, '=');
            if (!eq) {
                fprintf(stderr, "encthreads: -o wants KEY=VALUE, not %s\n", v);
                return 1;
            }
            av_dict_set(&opts, std::string(v, eq - v).c_str(), eq + 1, 0);
        } else {
            fprintf(stderr, "encthreads: unknown option %s\n", o);
            return 1;
        }
    }
    if (argc - i != 2 || sscanf(argv[i + 1], "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0 ||
        threads[0] < 1 || threads[1] < 1 || max_pics < 1 || warmup < 0 || rounds < 1 ||
        turn_len < 1) {
        fprintf(stderr, "usage: encthreads [-c CODEC] [-a THREADS] [-b THREADS] [-n FRAMES] "
                        "[-k PICTURES] [-w WARMUP] [-r ROUNDS] [-t TURN] [-o KEY=VALUE]... [-O FILE] "
                        "INPUT.yuv WIDTHxHEIGHT\n");
        return 1;
    }

    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec) {
        fprintf(stderr, "encthreads: no encoder %s\n", name);
        return 1;
    }
    std::vector<AVFrame *> pics;
    if ((ret = read_pictures(argv[i], w, h, max_pics, pics)) < 0)
        return fail("reading the input", ret);
    if (frames < 0)
        frames = pics.size();
    const int per_round = frames;
    frames *= rounds;

    AVCodecContext *enc[2] = { NULL, NULL };
    for (int e = 0; e < 2; e++)
        if ((ret = open_encoder(codec, w, h, threads[e], opts, &enc[e])) < 0)
            return fail("opening the encoder", ret);
    av_dict_free(&opts);

    AVFrame *frame = av_frame_alloc();
    if (!frame)
        return fail("allocating", AVERROR(ENOMEM));
    std::vector<AVPacket *> out[2];
    TurnTimes times(frames, per_round, turn_len);
    /* turns: the warm-up frames, then each round in turns of TURN frames
     * (the last one of a round shorter): encoder e codes a turn's frames,
     * then the other one the same frames; who goes first alternates */
    std::vector<int> starts;
    if (warmup)
        starts.push_back(0);
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < per_round; k += turn_len)
            starts.push_back(warmup + r * per_round + k);
    starts.push_back(warmup + frames);
    for (size_t turn = 0; turn + 1 < starts.size(); turn++) {
        const int n0 = starts[turn], n1 = starts[turn + 1];
        for (int k = 0; k < 2; k++) {
            const int e = (turn & 1) ^ k;
            for (int n = n0; n < n1; n++) {
                if ((ret = av_frame_ref(frame, pics[n % pics.size()])) < 0)
                    return fail("referencing a picture", ret);
                frame->pts = n;
                auto t0 = std::chrono::steady_clock::now();
                ret = encode(enc[e], frame, out[e]);
                auto t1 = std::chrono::steady_clock::now();
                av_frame_unref(frame);
                if (ret < 0)
                    return fail("encoding", ret);
                /* not the first two frames of a turn: at the first, an
                 * encoder with delay (frames in flight) hands out the
                 * packet of the last frame of its turn before, coded
                 * meanwhile, and its threads, idle through the other's
                 * turn, wake up; the second waits for the first */
                if (n >= warmup && n > n0 + 1)
                    times.add(e, n - warmup, std::chrono::duration<double>(t1 - t0).count());
            }
        }
    }
    for (int e = 0; e < 2; e++)
        if ((ret = encode(enc[e], NULL, out[e])) < 0)
            return fail("flushing the encoder", ret);

    int differ = out[0].size() != out[1].size();
    for (size_t p = 0; !differ && p < out[0].size(); p++)
        if (!same_packet(out[0][p], out[1][p])) {
            fprintf(stderr, "encthreads: packet %zu differs between %d and %d threads\n",
                    p, threads[0], threads[1]);
            differ = 1;
        }
    if (differ && out[0].size() != out[1].size())
        fprintf(stderr, "encthreads: %zu packets with %d threads, %zu with %d\n",
                out[0].size(), threads[0], out[1].size(), threads[1]);

    if (out_path) {
        FILE *f = fopen(out_path, "wb");
        bool ok = f;
        for (const AVPacket *p : out[0])
            ok = ok && fwrite(p->data, 1, p->size, f) == (size_t)p->size;
        if (f && fclose(f))
            ok = false;
        if (!ok) {
            fprintf(stderr, "encthreads: cannot write %s\n", out_path);
            return 1;
        }
    }

    char what[64];
    snprintf(what, sizeof(what), "%s %dx%d", name, w, h);
    times.print("encthreads", what, threads, rounds, "packets", differ);

    for (int e = 0; e < 2; e++)
        avcodec_free_context(&enc[e]);
    for (AVFrame *p : pics)
        av_frame_free(&p);
    av_frame_free(&frame);
    for (int e = 0; e < 2; e++)
        for (AVPacket *p : out[e])
            av_packet_free(&p);
    return differ;
}
