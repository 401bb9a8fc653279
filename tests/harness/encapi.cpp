/*
 * encapi: the c63 encoder through libavcodec's API at one thread and at
 * more: delay, timestamps, opaque data, keyframes, and its errors
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
 * Usage: encapi THREADS INPUT.yuv WIDTHxHEIGHT
 *
 * Codes the first 10 pictures of INPUT (raw yuv420p) with a one-thread
 * and a THREADS-thread c63 encoder (-g 4), in three runs:
 *
 *   delay   every frame with its own pts, duration and opaque data
 *           (AV_CODEC_FLAG_COPY_OPAQUE, AV_CODEC_FLAG_FRAME_DURATION):
 *           each packet must carry its frame's, be a keyframe exactly
 *           when its frame is one of -g, and come out at the call that
 *           gave its frame (one thread) or at most one frame late (more)
 *   size    the third frame two pixels too narrow: refused with
 *           AVERROR(EINVAL), the frames after it coded as if it had not
 *           been given
 *   lost    the third packet's buffer not given (get_encode_buffer fails
 *           with ENOMEM): that error, then the same error from every
 *           receive_packet() after it, since the frames after it were
 *           coded against it (send_frame() then says EAGAIN: the frame it
 *           holds is not taken)
 *
 * In each run the packets of both encoders must be identical. Prints one
 * line a run and exits 0, or says what is wrong and exits 1.
 */

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "libavcodec/avcodec.h"
#include "libavutil/buffer.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
}

static const int NB_FRAMES = 10, GOP = 4, BAD = 2;

static std::string err_str(int err)
{
    char buf[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(err, buf, sizeof(buf));
    return buf;
}

struct Run {
    std::vector<AVPacket *> pkts;
    std::vector<int> sent_before;   ///< frames sent when each packet came out
    std::vector<int> errors;        ///< the error of each frame's calls (0: none)
    int calls = 0;                  ///< get_encode_buffer calls
    int fail_at = -1;               ///< the call of get_encode_buffer that fails

    ~Run()
    {
        for (AVPacket *p : pkts)
            av_packet_free(&p);
    }
};

static int get_encode_buffer(AVCodecContext *c, AVPacket *pkt, int flags)
{
    Run *r = static_cast<Run *>(c->opaque);
    if (r->calls++ == r->fail_at)
        return AVERROR(ENOMEM);
    return avcodec_default_get_encode_buffer(c, pkt, flags);
}

/* The pictures of a w x h yuv420p file (at most n). */
static bool read_pictures(const char *path, int w, int h, int n, std::vector<AVFrame *> &out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "encapi: cannot open %s\n", path);
        return false;
    }
    const int cw = (w + 1) >> 1, ch = (h + 1) >> 1;
    const int pw[3] = { w, cw, cw }, ph[3] = { h, ch, ch };
    bool ok = true;
    while (ok && (int)out.size() < n) {
        AVFrame *p = av_frame_alloc();
        if (!p)
            break;
        p->format = AV_PIX_FMT_YUV420P;
        p->width  = w;
        p->height = h;
        ok = av_frame_get_buffer(p, 0) >= 0;
        for (int c = 0; c < 3 && ok; c++)
            for (int y = 0; y < ph[c] && ok; y++)
                ok = fread(p->data[c] + (size_t)y * p->linesize[c], 1, pw[c], f) == (size_t)pw[c];
        if (ok)
            out.push_back(p);
        else
            av_frame_free(&p);
    }
    fclose(f);
    if ((int)out.size() < n)
        fprintf(stderr, "encapi: %s holds fewer than %d %dx%d pictures\n", path, n, w, h);
    return (int)out.size() == n;
}

/* Take every packet out; returns the error that ended it (0: EAGAIN or
 * EOF). */
static int drain(AVCodecContext *c, Run &r, int sent)
{
    for (;;) {
        AVPacket *pkt = av_packet_alloc();
        if (!pkt)
            return AVERROR(ENOMEM);
        int ret = avcodec_receive_packet(c, pkt);
        if (ret < 0) {
            av_packet_free(&pkt);
            return ret == AVERROR(EAGAIN) || ret == AVERROR_EOF ? 0 : ret;
        }
        r.pkts.push_back(pkt);
        r.sent_before.push_back(sent);
    }
}

/* One encoder through a run; false on an error outside the run's plan. */
static bool encode(const char *run, int threads, const std::vector<AVFrame *> &pics, Run &r)
{
    const AVCodec *codec = avcodec_find_encoder_by_name("c63");
    AVCodecContext *c = codec ? avcodec_alloc_context3(codec) : NULL;
    AVFrame *frame = av_frame_alloc();
    bool ok = c && frame;

    if (ok) {
        c->width        = pics[0]->width;
        c->height       = pics[0]->height;
        c->pix_fmt      = AV_PIX_FMT_YUV420P;
        c->time_base    = AVRational{ 1, 250 };
        c->gop_size     = GOP;
        c->thread_count = threads;
        c->flags       |= AV_CODEC_FLAG_COPY_OPAQUE | AV_CODEC_FLAG_FRAME_DURATION;
        c->opaque       = &r;
        if (!strcmp(run, "lost")) {
            c->get_encode_buffer = get_encode_buffer;
            r.fail_at = BAD;
        }
        int ret = avcodec_open2(c, codec, NULL);
        if (ret < 0) {
            fprintf(stderr, "encapi: opening the encoder: %s\n", err_str(ret).c_str());
            ok = false;
        }
    }
    for (int i = 0; ok && i <= NB_FRAMES; i++) {
        int ret = 0;
        if (i < NB_FRAMES) {
            if ((ret = av_frame_ref(frame, pics[i])) < 0) {
                fprintf(stderr, "encapi: referencing a picture: %s\n", err_str(ret).c_str());
                ok = false;
                break;
            }
            if (i == BAD && !strcmp(run, "size"))
                frame->width -= 2;
            frame->pts        = 10 * i;
            frame->duration   = 10;
            frame->opaque     = (void *)(intptr_t)(i + 1);
            frame->opaque_ref = av_buffer_alloc(1);
            if (!frame->opaque_ref) {
                fprintf(stderr, "encapi: %s\n", err_str(AVERROR(ENOMEM)).c_str());
                av_frame_unref(frame);
                ok = false;
                break;
            }
            frame->opaque_ref->data[0] = i;
        }
        ret = avcodec_send_frame(c, i < NB_FRAMES ? frame : NULL);
        av_frame_unref(frame);
        /* EAGAIN: the encoder holds a frame it did not take, after an
         * error; what it says is then receive_packet()'s to say */
        if (ret >= 0 || ret == AVERROR(EAGAIN)) {
            int err = drain(c, r, i + 1);
            if (ret >= 0 || err < 0)
                ret = err;
        }
        r.errors.push_back(ret);
    }
    av_frame_free(&frame);
    avcodec_free_context(&c);   /* with frames in flight after an error */
    return ok;
}

/* What each packet carries is its frame's: pts, dts, duration, opaque data, key flag. */
static bool check_props(const char *what, const Run &r, int skip)
{
    for (size_t k = 0; k < r.pkts.size(); k++) {
        const AVPacket *p = r.pkts[k];
        const int i = skip >= 0 && (int)k >= skip ? k + 1 : k;   /* its frame */
        const int key = skip >= 0 && i > skip ? (i - 1) % GOP == 0 : i % GOP == 0;
        if (p->pts != 10 * i || p->dts != p->pts || p->duration != 10 ||
            p->opaque != (void *)(intptr_t)(i + 1) || !p->opaque_ref ||
            p->opaque_ref->data[0] != i || !!(p->flags & AV_PKT_FLAG_KEY) != key) {
            printf("%s: packet %zu: pts %lld dts %lld duration %lld opaque %p key %d, not frame %d's\n",
                   what, k, (long long)p->pts, (long long)p->dts, (long long)p->duration,
                   p->opaque, !!(p->flags & AV_PKT_FLAG_KEY), i);
            return false;
        }
    }
    return true;
}

static bool same_packets(const Run &a, const Run &b)
{
    if (a.pkts.size() != b.pkts.size())
        return false;
    for (size_t k = 0; k < a.pkts.size(); k++)
        if (a.pkts[k]->size != b.pkts[k]->size ||
            memcmp(a.pkts[k]->data, b.pkts[k]->data, a.pkts[k]->size))
            return false;
    return true;
}

static int max_delay(const Run &r)
{
    int d = 0;
    for (size_t k = 0; k < r.pkts.size(); k++)
        d = std::max(d, r.sent_before[k] - (int)k - 1);
    return d;
}

int main(int argc, char **argv)
{
    int threads, w, h;
    if (argc != 4 || (threads = atoi(argv[1])) < 2 || sscanf(argv[3], "%dx%d", &w, &h) != 2 ||
        w <= 2 || h <= 0) {
        fprintf(stderr, "usage: encapi THREADS(>1) INPUT.yuv WIDTHxHEIGHT\n");
        return 1;
    }
    std::vector<AVFrame *> pics;
    if (!read_pictures(argv[2], w, h, NB_FRAMES, pics))
        return 1;

    bool ok = true;
    for (const char *run : { "delay", "size", "lost" }) {
        Run r[2];
        const int t[2] = { 1, threads };
        for (int e = 0; e < 2 && ok; e++)
            ok = encode(run, t[e], pics, r[e]);
        if (!ok)
            break;
        if (!strcmp(run, "delay")) {
            bool all = true;
            for (int e = 0; e < 2; e++)
                for (int err : r[e].errors)
                    all = all && !err;
            ok = all && r[0].pkts.size() == (size_t)NB_FRAMES && r[1].pkts.size() == (size_t)NB_FRAMES &&
                 check_props("delay, 1 thread", r[0], -1) && check_props("delay", r[1], -1) &&
                 same_packets(r[0], r[1]) && max_delay(r[0]) == 0 && max_delay(r[1]) <= 1;
            printf("delay: %zu and %zu packets for %d frames, identical, each with its frame's "
                   "timestamps, opaque data and key flag, out at the call of its frame with "
                   "1 thread and at most one frame late with %d: %s\n", r[0].pkts.size(),
                   r[1].pkts.size(), NB_FRAMES, threads, ok ? "yes" : "NO");
        } else if (!strcmp(run, "size")) {
            /* frame BAD's own call fails (at one thread; at more, its
             * frame is taken at the same call), every other one succeeds */
            bool errs = true;
            for (int e = 0; e < 2; e++)
                for (int i = 0; i <= NB_FRAMES; i++)
                    errs = errs && (i == BAD ? r[e].errors[i] == AVERROR(EINVAL) : !r[e].errors[i]);
            ok = errs && r[0].pkts.size() == (size_t)NB_FRAMES - 1 &&
                 check_props("size, 1 thread", r[0], BAD) && check_props("size", r[1], BAD) &&
                 same_packets(r[0], r[1]);
            printf("size: frame %d of %dx%d refused (%s), the %d others coded, identical: %s\n",
                   BAD, w - 2, h, err_str(r[1].errors[BAD]).c_str(), NB_FRAMES - 1, ok ? "yes" : "NO");
        } else {
            /* one thread: the third call fails; more: the third or,
             * when the packet comes a frame late, the fourth; and every
             * call after it */
            bool errs = true;
            for (int e = 0; e < 2; e++) {
                int first = BAD;
                while (first <= NB_FRAMES && !r[e].errors[first])
                    first++;
                errs = errs && (first == BAD || (e && first == BAD + 1));
                for (int i = first; i <= NB_FRAMES; i++)
                    errs = errs && r[e].errors[i] == AVERROR(ENOMEM);
            }
            ok = errs && r[0].pkts.size() == (size_t)BAD && same_packets(r[0], r[1]);
            printf("lost: packet %d not given (%s), %zu and %zu packets before it, every call "
                   "after it failing the same way, identical: %s\n", BAD,
                   err_str(AVERROR(ENOMEM)).c_str(), r[0].pkts.size(), r[1].pkts.size(),
                   ok ? "yes" : "NO");
        }
        if (!ok)
            break;
    }
    for (AVFrame *p : pics)
        av_frame_free(&p);
    return !ok;
}
