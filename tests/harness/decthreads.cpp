/*
 * decthreads: one decoder at two thread counts on the same stream, frame
 * by frame in turns: times per frame, and the frames compared
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
 * Usage: decthreads [OPTIONS] INPUT.c63
 *
 * INPUT is a raw Codec63 stream (the .c63 format); it is read into memory
 * and cut into frames by the c63 parser first. Two c63 decoders are opened,
 * one with -a slice threads and one with -b; the stream is decoded -r
 * times over by both (each round from its first frame, which must be a
 * keyframe), in turns of -t frames: one decoder decodes a turn's frames,
 * then the other the same frames, who goes first alternating from turn to
 * turn. What is timed (steady clock) is, per frame and decoder,
 * avcodec_send_packet() and taking out the frame: the decoder as a program
 * linking libavcodec sees it, with no demuxer, muxer, file or other thread
 * of a command line beside it. The frames are compared (an MD5 of each
 * frame's visible planes, taken after the timing).
 *
 *   -a THREADS   threads of the first decoder (default 1)
 *   -b THREADS   threads of the second (default 2)
 *   -r ROUNDS    rounds (default 1)
 *   -t TURN      frames a turn (default 8)
 *   -O FILE      the first decoder's frames of the first round written to
 *                FILE as raw yuv420p (visible size)
 *
 * Prints one line to stdout:
 *   decthreads: c63 WxH, F frames: A threads X ms a frame (P fps),
 *   B threads Y ms a frame (Q fps), R.RRx (median of the frames' ratios
 *   M.MMx), frames identical
 * where F counts every round; with ROUNDS > 1, then
 *   best of ROUNDS: A threads X ms a frame, B threads Y ms a frame, R.RRx
 * from each frame's shortest time over the rounds, per decoder.
 * Exits 0; when a frame of one differs from the other's, says which and
 * exits 1; on an error prints FFmpeg's message and exits 1.
 */

#include <algorithm>
#include <array>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/md5.h"
}
#include "tests/c63/harness/turns.h"

typedef std::array<uint8_t, 16> Digest;

static int fail(const char *what, int err)
{
    char buf[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(err, buf, sizeof(buf));
    fprintf(stderr, "decthreads: %s: %s\n", what, buf);
    return 1;
}

/* The stream's frames, cut by the c63 parser. */
static int read_packets(const char *path, std::vector<AVPacket *> &out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "decthreads: cannot open %s\n", path);
        return AVERROR(errno);
    }
    std::vector<uint8_t> buf;
    uint8_t chunk[1 << 16];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        buf.insert(buf.end(), chunk, chunk + n);
    fclose(f);

    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_C63);
    AVCodecParserContext *pc = av_parser_init(AV_CODEC_ID_C63);
    AVCodecContext *c = codec ? avcodec_alloc_context3(codec) : NULL;
    int ret = 0;
    if (!pc || !c) {
        ret = AVERROR(ENOMEM);
    } else {
        const uint8_t *p = buf.data();
        int left = buf.size();
        for (;;) {
            uint8_t *data;
            int size;
            /* NULL, 0 when the input is spent: the parser's last frame */
            int used = av_parser_parse2(pc, c, &data, &size, left ? p : NULL, left,
                                        AV_NOPTS_VALUE, AV_NOPTS_VALUE, 0);
            p    += used;
            left -= used;
            if (size) {
                AVPacket *pkt = av_packet_alloc();
                if (!pkt || (ret = av_new_packet(pkt, size)) < 0) {
                    av_packet_free(&pkt);
                    ret = ret < 0 ? ret : AVERROR(ENOMEM);
                    break;
                }
                memcpy(pkt->data, data, size);
                out.push_back(pkt);
            } else if (!left) {
                break;
            }
        }
    }
    av_parser_close(pc);
    avcodec_free_context(&c);
    if (ret >= 0 && out.empty()) {
        fprintf(stderr, "decthreads: %s holds no c63 frame\n", path);
        return AVERROR_INVALIDDATA;
    }
    return ret;
}

static int open_decoder(int threads, AVCodecContext **out)
{
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_C63);
    AVCodecContext *c = codec ? avcodec_alloc_context3(codec) : NULL;
    int ret;

    if (!c)
        return codec ? AVERROR(ENOMEM) : AVERROR_DECODER_NOT_FOUND;
    c->thread_count = threads;
    c->thread_type  = FF_THREAD_SLICE;
    if ((ret = avcodec_open2(c, codec, NULL)) < 0)
        avcodec_free_context(&c);
    *out = c;
    return ret;
}

static Digest digest(const AVFrame *f)
{
    Digest d;
    AVMD5 *md5 = av_md5_alloc();
    if (!md5)
        abort();
    av_md5_init(md5);
    for (int c = 0; c < 3; c++) {
        const int w = c ? (f->width + 1) >> 1 : f->width, h = c ? (f->height + 1) >> 1 : f->height;
        for (int y = 0; y < h; y++)
            av_md5_update(md5, f->data[c] + (ptrdiff_t)y * f->linesize[c], w);
    }
    av_md5_final(md5, d.data());
    av_free(md5);
    return d;
}

static bool write_frame(FILE *f, const AVFrame *fr)
{
    for (int c = 0; c < 3; c++) {
        const int w = c ? (fr->width + 1) >> 1 : fr->width, h = c ? (fr->height + 1) >> 1 : fr->height;
        for (int y = 0; y < h; y++)
            if (fwrite(fr->data[c] + (ptrdiff_t)y * fr->linesize[c], 1, w, f) != (size_t)w)
                return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    int threads[2] = { 1, 2 }, rounds = 1, turn_len = 8;
    const char *out_path = NULL;
    int i, ret;

    for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
        const char *o = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "decthreads: %s needs a value\n", o);
            return 1;
        }
        const char *v = argv[i + 1];
        if (!strcmp(o, "-a"))      threads[0] = atoi(v);
        else if (!strcmp(o, "-b")) threads[1] = atoi(v);
        else if (!strcmp(o, "-r")) rounds = atoi(v);
        else if (!strcmp(o, "-t")) turn_len = atoi(v);
        else if (!strcmp(o, "-O")) out_path = v;
        else {
            fprintf(stderr, "decthreads: unknown option %s\n", o);
            return 1;
        }
    }
    if (argc - i != 1 || threads[0] < 1 || threads[1] < 1 || rounds < 1 || turn_len < 1) {
        fprintf(stderr, "usage: decthreads [-a THREADS] [-b THREADS] [-r ROUNDS] [-t TURN] "
                        "[-O FILE] INPUT.c63\n");
        return 1;
    }

    std::vector<AVPacket *> pkts;
    if ((ret = read_packets(argv[i], pkts)) < 0)
        return fail("reading the input", ret);
    const int per_round = pkts.size(), frames = per_round * rounds;

    AVCodecContext *dec[2] = { NULL, NULL };
    for (int d = 0; d < 2; d++)
        if ((ret = open_decoder(threads[d], &dec[d])) < 0)
            return fail("opening the decoder", ret);

    FILE *out = NULL;
    if (out_path && !(out = fopen(out_path, "wb"))) {
        fprintf(stderr, "decthreads: cannot write %s\n", out_path);
        return 1;
    }
    AVFrame *frame = av_frame_alloc();
    if (!frame)
        return fail("allocating", AVERROR(ENOMEM));
    std::vector<Digest> sums[2];
    TurnTimes times(frames, per_round, 1);
    int w = 0, h = 0;
    /* turns of TURN frames: decoder d decodes frames n0 .. n0 + TURN - 1,
     * then the other one the same frames; who goes first alternates */
    for (int n0 = 0, turn = 0; n0 < frames; n0 += turn_len, turn++) {
        const int n1 = std::min(n0 + turn_len, frames);
        for (int k = 0; k < 2; k++) {
            const int d = (turn & 1) ^ k;
            for (int n = n0; n < n1; n++) {
                const AVPacket *pkt = pkts[n % per_round];
                auto t0 = std::chrono::steady_clock::now();
                if ((ret = avcodec_send_packet(dec[d], pkt)) < 0)
                    return fail("decoding", ret);
                ret = avcodec_receive_frame(dec[d], frame);
                auto t1 = std::chrono::steady_clock::now();
                if (ret < 0)
                    return fail("taking a frame", ret);
                times.add(d, n, std::chrono::duration<double>(t1 - t0).count());
                if (n < per_round) {
                    sums[d].push_back(digest(frame));
                    if (out && !d && !write_frame(out, frame)) {
                        fprintf(stderr, "decthreads: cannot write %s\n", out_path);
                        return 1;
                    }
                }
                w = frame->width;
                h = frame->height;
                av_frame_unref(frame);
            }
        }
    }
    if (out && fclose(out)) {
        fprintf(stderr, "decthreads: cannot write %s\n", out_path);
        return 1;
    }

    int differ = 0;
    for (int n = 0; n < per_round && !differ; n++)
        if (sums[0][n] != sums[1][n]) {
            fprintf(stderr, "decthreads: frame %d differs between %d and %d threads\n",
                    n, threads[0], threads[1]);
            differ = 1;
        }

    char what[64];
    snprintf(what, sizeof(what), "c63 %dx%d", w, h);
    times.print("decthreads", what, threads, rounds, "frames", differ);

    for (int d = 0; d < 2; d++)
        avcodec_free_context(&dec[d]);
    av_frame_free(&frame);
    for (AVPacket *p : pkts)
        av_packet_free(&p);
    return differ;
}
