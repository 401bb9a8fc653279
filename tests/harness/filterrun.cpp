/*
 * filterrun: run a filter graph frame by frame, and time it or print the
 * checksum of every output frame
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
 * Usage: filterrun [OPTIONS] SOURCE FILTERS
 *
 * SOURCE is a graph with no input and one output (e.g.
 * "testsrc2=s=1920x1080:r=25,format=nv12"); its first DISTINCT frames are
 * made once, before anything else. FILTERS is the graph under test, with
 * one input and one output (e.g. "drawtext=..."). WARMUP + FRAMES frames
 * are fed to it one by one, cycling over the distinct pictures, with pts
 * 0, 1, 2, ... in a time base of 1/25. Each is a fresh writable frame: a
 * copy in system memory (whose memory filterrun frees after the timed
 * part), or with --cuda a frame of a CUDA frames pool that the picture
 * was uploaded to. Making that frame is not timed; what is
 * timed, per frame, is handing it to the graph and taking out what the
 * graph returns, and with --cuda then waiting for the device
 * (cuStreamSynchronize on the device's stream), so that the GPU work of
 * the frame is inside its time.
 *
 *   --cuda            feed CUDA frames (a CUDA device is created)
 *   -n FRAMES         frames measured (default 300)
 *   -w WARMUP         frames fed before them, not measured (default 10)
 *   -k DISTINCT       distinct source pictures (default 25)
 *   --md5             print "INDEX MD5" for every output frame (downloaded
 *                     first if it is a CUDA frame; the md5 of its visible
 *                     bytes, plane by plane) instead of the times
 *   --write N FILE TEXT
 *                     write TEXT to FILE before frame N is fed (N = 0:
 *                     before the graph is made); may be repeated
 *   --command N TARGET COMMAND ARG
 *                     send COMMAND with ARG to the filters TARGET names
 *                     (avfilter_graph_send_command()) before frame N is
 *                     fed, N > 0; may be repeated; a refused command is
 *                     an error
 *   --input FILE      the pictures are the first DISTINCT of FILE's video
 *                     stream, through SOURCE, which is then a filter chain
 *                     with one input (e.g. "scale=1920:1080,format=nv12")
 *   --then N SOURCE2  from frame N on, the pictures come from SOURCE2
 *                     (e.g. another size: a change mid-stream)
 *   --batch           throughput instead of per-frame times: every frame
 *                     is made first; then the frames after the warm-up
 *                     are fed back to back, and the device is waited for
 *                     only after the last one, so that host and GPU work
 *                     of successive frames overlap as in a pipeline
 *
 * Without --md5, prints to stdout one line:
 *   filterrun: FRAMES frames, mean M us, median D us, min A us, max B us
 * over the frames after the warm-up; with --batch:
 *   filterrun: FRAMES frames back to back, T us a frame Exits 0, or on an error prints
 * FFmpeg's message and exits 1.
 */

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#include "libavutil/imgutils.h"
#include "libavutil/md5.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"
#include "libavutil/time.h"
#include "libavfilter/avfilter.h"
#include "libavfilter/buffersink.h"
#include "libavfilter/buffersrc.h"
#include "libavformat/avformat.h"
#include "libavcodec/avcodec.h"
}

/* The buffers of fed system-memory frames are freed by filterrun, outside
 * the timed part, not by the unref in the graph. */
static void keep_free(void *opaque, uint8_t *data)
{
}

static int fail(const char *what, int err)
{
    char buf[AV_ERROR_MAX_STRING_SIZE];
    av_strerror(err, buf, sizeof(buf));
    fprintf(stderr, "filterrun: %s: %s\n", what, buf);
    return 1;
}

/* the first n pictures of the video stream of a file */
static int decode_input(const char *path, int n, std::vector<AVFrame *> &out)
{
    AVFormatContext *fmt = NULL;
    AVCodecContext *dec = NULL;
    const AVCodec *codec = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *f = av_frame_alloc();
    int ret, si, eof = 0;

    if (!pkt || !f) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    if ((ret = avformat_open_input(&fmt, path, NULL, NULL)) < 0 ||
        (ret = avformat_find_stream_info(fmt, NULL)) < 0 ||
        (ret = si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)) < 0)
        goto end;
    if (!(dec = avcodec_alloc_context3(codec))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    if ((ret = avcodec_parameters_to_context(dec, fmt->streams[si]->codecpar)) < 0 ||
        (ret = avcodec_open2(dec, codec, NULL)) < 0)
        goto end;
    while ((int)out.size() < n) {
        ret = avcodec_receive_frame(dec, f);
        if (ret >= 0) {
            out.push_back(f);
            if (!(f = av_frame_alloc())) {
                ret = AVERROR(ENOMEM);
                goto end;
            }
            continue;
        }
        if (ret == AVERROR_EOF)
            break;
        if (ret != AVERROR(EAGAIN))
            goto end;
        if (eof)
            break;
        ret = av_read_frame(fmt, pkt);
        if (ret == AVERROR_EOF) {
            eof = 1;
            ret = avcodec_send_packet(dec, NULL);
        } else if (ret >= 0) {
            if (pkt->stream_index == si)
                ret = avcodec_send_packet(dec, pkt);
            av_packet_unref(pkt);
        }
        if (ret < 0)
            goto end;
    }
    ret = out.empty() ? AVERROR_EOF : 0;
end:
    av_frame_free(&f);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    return ret;
}

/* the first n frames out of a graph: with pics, a filter chain fed with
 * them in order; without, a source graph (no input) */
static int filter_pictures(const char *desc, const std::vector<AVFrame *> &pics, int n,
                           std::vector<AVFrame *> &out)
{
    AVFilterGraph *g = avfilter_graph_alloc();
    AVFilterContext *src = NULL, *sink = NULL;
    AVFilterInOut *in = avfilter_inout_alloc(), *outp = NULL;
    char args[256];
    int ret;
    size_t i = 0;

    if (!g || !in) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    if ((ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                            NULL, NULL, g)) < 0)
        goto end;
    in->name = av_strdup("out");
    in->filter_ctx = sink;
    if (!pics.empty()) {
        snprintf(args, sizeof(args), "video_size=%dx%d:pix_fmt=%d:time_base=1/25:pixel_aspect=1/1",
                 pics[0]->width, pics[0]->height, pics[0]->format);
        if ((ret = avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
                                                args, NULL, g)) < 0)
            goto end;
        if (!(outp = avfilter_inout_alloc())) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        outp->name = av_strdup("in");
        outp->filter_ctx = src;
    }
    if ((ret = avfilter_graph_parse_ptr(g, desc, &in, &outp, NULL)) < 0 ||
        (ret = avfilter_graph_config(g, NULL)) < 0)
        goto end;
    while ((int)out.size() < n) {
        AVFrame *f = av_frame_alloc();
        if (!f) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        ret = av_buffersink_get_frame(sink, f);
        if (ret >= 0) {
            out.push_back(f);
            continue;
        }
        av_frame_free(&f);
        if (ret == AVERROR_EOF)
            break;
        if (ret != AVERROR(EAGAIN) || !src)
            goto end;
        if (i < pics.size()) {
            AVFrame *c = av_frame_clone(pics[i]);
            if (!c) {
                ret = AVERROR(ENOMEM);
                goto end;
            }
            c->pts = i++;
            ret = av_buffersrc_add_frame(src, c);
            av_frame_free(&c);
        } else {
            ret = av_buffersrc_add_frame(src, NULL);
        }
        if (ret < 0)
            goto end;
    }
    ret = out.empty() ? AVERROR_EOF : 0;
end:
    avfilter_inout_free(&in);
    avfilter_inout_free(&outp);
    avfilter_graph_free(&g);
    return ret;
}

/* a CUDA frames pool for pictures like p */
static int make_pool(AVBufferRef *dev, const AVFrame *p, AVBufferRef **pool)
{
    AVHWFramesContext *fc;

    if (!(*pool = av_hwframe_ctx_alloc(dev)))
        return AVERROR(ENOMEM);
    fc = (AVHWFramesContext *)(*pool)->data;
    fc->format    = AV_PIX_FMT_CUDA;
    fc->sw_format = (enum AVPixelFormat)p->format;
    fc->width     = p->width;
    fc->height    = p->height;
    return av_hwframe_ctx_init(*pool);
}

/* md5 of the visible bytes of a frame in system memory, plane by plane */
static void frame_md5(const AVFrame *f, char *hex)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get((enum AVPixelFormat)f->format);
    struct AVMD5 *md5 = av_md5_alloc();
    uint8_t sum[16];

    av_md5_init(md5);
    for (int p = 0; p < 4 && f->data[p]; p++) {
        int bytes = av_image_get_linesize((enum AVPixelFormat)f->format, f->width, p);
        int lines = (p == 1 || p == 2) ? AV_CEIL_RSHIFT(f->height, desc->log2_chroma_h)
                                       : f->height;
        for (int y = 0; y < lines; y++)
            av_md5_update(md5, f->data[p] + (ptrdiff_t)y * f->linesize[p], bytes);
    }
    av_md5_final(md5, sum);
    av_free(md5);
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", sum[i]);
}

struct Write {
    int n;
    const char *path, *text;
};

struct Command {
    int n;
    const char *target, *cmd, *arg;
};

static int do_commands(AVFilterGraph *g, const std::vector<Command> &commands, int n)
{
    for (const Command &c : commands) {
        char res[256] = "";
        int ret;
        if (c.n != n)
            continue;
        if ((ret = avfilter_graph_send_command(g, c.target, c.cmd, c.arg, res, sizeof(res), 0)) < 0)
            return fail(c.cmd, ret);
    }
    return 0;
}

static int do_writes(const std::vector<Write> &writes, int n)
{
    for (const Write &w : writes) {
        FILE *f;
        if (w.n != n)
            continue;
        if (!(f = fopen(w.path, "w")) || fputs(w.text, f) < 0 || fclose(f)) {
            fprintf(stderr, "filterrun: cannot write %s\n", w.path);
            return AVERROR(EIO);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int cuda = 0, frames = 300, warmup = 10, distinct = 25, md5 = 0, then_n = -1;
    const char *src_desc, *filt_desc, *then_desc = NULL, *input = NULL;
    std::vector<AVFrame *> pics, pics2;
    std::vector<Write> writes;
    std::vector<Command> commands;
    std::vector<double> times;
    AVBufferRef *dev = NULL, *pool = NULL, *pool2 = NULL;
    AVFilterGraph *g = NULL;
    AVFilterContext *src = NULL, *sink = NULL;
    AVFilterInOut *in = NULL, *out = NULL;
    AVBufferSrcParameters *par = NULL;
    AVFrame *outf = av_frame_alloc(), *swf = av_frame_alloc();
    CudaFunctions *cu = NULL;
    AVCUDADeviceContext *hwctx = NULL;
    int i, ret, argi = 1, nout = 0, batch = 0;
    double sum = 0;
    std::vector<AVFrame *> made;
    std::vector<AVBufferRef *> kept;
    int64_t tb0 = 0;

    for (; argi < argc && argv[argi][0] == '-'; argi++) {
        if (!strcmp(argv[argi], "--cuda"))
            cuda = 1;
        else if (!strcmp(argv[argi], "--md5"))
            md5 = 1;
        else if (!strcmp(argv[argi], "--batch"))
            batch = 1;
        else if (!strcmp(argv[argi], "-n") && argi + 1 < argc)
            frames = atoi(argv[++argi]);
        else if (!strcmp(argv[argi], "-w") && argi + 1 < argc)
            warmup = atoi(argv[++argi]);
        else if (!strcmp(argv[argi], "-k") && argi + 1 < argc)
            distinct = atoi(argv[++argi]);
        else if (!strcmp(argv[argi], "--write") && argi + 3 < argc) {
            writes.push_back({ atoi(argv[argi + 1]), argv[argi + 2], argv[argi + 3] });
            argi += 3;
        } else if (!strcmp(argv[argi], "--command") && argi + 4 < argc) {
            commands.push_back({ atoi(argv[argi + 1]), argv[argi + 2], argv[argi + 3], argv[argi + 4] });
            argi += 4;
        } else if (!strcmp(argv[argi], "--input") && argi + 1 < argc) {
            input = argv[++argi];
        } else if (!strcmp(argv[argi], "--then") && argi + 2 < argc) {
            then_n    = atoi(argv[++argi]);
            then_desc = argv[++argi];
        } else
            break;
    }
    if (argc - argi != 2 || frames < 1 || warmup < 0 || distinct < 1 || (batch && md5)) {
        fprintf(stderr, "usage: filterrun [--cuda] [--md5 | --batch] [-n FRAMES] [-w WARMUP] [-k DISTINCT] "
                        "[--input FILE] [--write N FILE TEXT]... [--command N TARGET COMMAND ARG]... "
                        "[--then N SOURCE2] SOURCE FILTERS\n");
        return 2;
    }
    src_desc  = argv[argi];
    filt_desc = argv[argi + 1];
    if (!outf || !swf)
        return fail("frame", AVERROR(ENOMEM));

    if (input) {
        std::vector<AVFrame *> decoded;
        if ((ret = decode_input(input, distinct, decoded)) < 0)
            return fail(input, ret);
        ret = filter_pictures(src_desc, decoded, distinct, pics);
        for (AVFrame *f : decoded)
            av_frame_free(&f);
        if (ret < 0)
            return fail("source filters", ret);
    } else if ((ret = filter_pictures(src_desc, {}, distinct, pics)) < 0)
        return fail("source graph", ret);
    if (then_desc && (ret = filter_pictures(then_desc, {}, distinct, pics2)) < 0)
        return fail("second source graph", ret);

    if (cuda) {
        if ((ret = av_hwdevice_ctx_create(&dev, AV_HWDEVICE_TYPE_CUDA, NULL, NULL, 0)) < 0)
            return fail("CUDA device", ret);
        hwctx = (AVCUDADeviceContext *)((AVHWDeviceContext *)dev->data)->hwctx;
        cu    = hwctx->internal->cuda_dl;
        if ((ret = make_pool(dev, pics[0], &pool)) < 0 ||
            (then_desc && (ret = make_pool(dev, pics2[0], &pool2)) < 0))
            return fail("CUDA frames", ret);
    }
    if ((ret = do_writes(writes, 0)) < 0)
        return 1;

    g   = avfilter_graph_alloc();
    par = av_buffersrc_parameters_alloc();
    in  = avfilter_inout_alloc();
    out = avfilter_inout_alloc();
    if (!g || !par || !in || !out)
        return fail("graph", AVERROR(ENOMEM));
    src = avfilter_graph_alloc_filter(g, avfilter_get_by_name("buffer"), "in");
    if (!src)
        return fail("graph", AVERROR(ENOMEM));
    par->format              = cuda ? AV_PIX_FMT_CUDA : pics[0]->format;
    par->width               = pics[0]->width;
    par->height              = pics[0]->height;
    par->time_base           = av_make_q(1, 25);
    par->sample_aspect_ratio = av_make_q(1, 1);
    par->hw_frames_ctx       = pool;
    if ((ret = av_buffersrc_parameters_set(src, par)) < 0 ||
        (ret = avfilter_init_dict(src, NULL)) < 0)
        return fail("buffer source", ret);
    if ((ret = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                            NULL, NULL, g)) < 0)
        return fail("buffer sink", ret);
    out->name = av_strdup("in");
    out->filter_ctx = src;
    in->name = av_strdup("out");
    in->filter_ctx = sink;
    if ((ret = avfilter_graph_parse_ptr(g, filt_desc, &in, &out, NULL)) < 0 ||
        (ret = avfilter_graph_config(g, NULL)) < 0)
        return fail("filter graph", ret);

    /* frame i, fresh and writable, where the filter takes it */
    auto make_frame = [&](int i, AVFrame **pf) -> int {
        int second = then_desc && i >= then_n;
        const AVFrame *p = second ? pics2[i % pics2.size()] : pics[i % pics.size()];
        AVFrame *f = av_frame_alloc();
        int ret;

        *pf = f;
        if (!f)
            return fail("frame", AVERROR(ENOMEM));
        if (cuda) {
            if ((ret = av_hwframe_get_buffer(second ? pool2 : pool, f, 0)) < 0 ||
                (ret = av_hwframe_transfer_data(f, p, 0)) < 0)
                return fail("upload", ret);
            cu->cuCtxPushCurrent(hwctx->cuda_ctx);
            cu->cuStreamSynchronize(hwctx->stream);
            cu->cuCtxPopCurrent(NULL);
        } else {
            f->format = p->format;
            f->width  = p->width;
            f->height = p->height;
            if ((ret = av_frame_get_buffer(f, 0)) < 0 || (ret = av_frame_copy(f, p)) < 0)
                return fail("frame copy", ret);
            for (int k = 0; k < AV_NUM_DATA_POINTERS && f->buf[k]; k++) {
                AVBufferRef *b = av_buffer_create(f->buf[k]->data, f->buf[k]->size,
                                                  keep_free, NULL, 0);
                if (!b)
                    return fail("frame", AVERROR(ENOMEM));
                kept.push_back(f->buf[k]);
                f->buf[k] = b;
            }
        }
        if ((ret = av_frame_copy_props(f, p)) < 0)
            return fail("frame copy", ret);
        f->pts      = i;
        f->duration = 1;
        return 0;
    };
    if (batch) {
        made.resize(warmup + frames);
        for (i = 0; i < warmup + frames; i++)
            if (make_frame(i, &made[i]))
                return 1;
    }

    for (i = 0; i <= warmup + frames; i++) {
        int last = i == warmup + frames;
        AVFrame *f = NULL;
        int64_t t0, t1;

        if (i > 0 && !last && ((ret = do_writes(writes, i)) < 0 || do_commands(g, commands, i)))
            return 1;
        if (!last && batch) {
            f = made[i];
            made[i] = NULL;
        } else if (!last && make_frame(i, &f)) {
            return 1;
        }

        if (batch && i == warmup) {
            if (cuda) {
                cu->cuCtxPushCurrent(hwctx->cuda_ctx);
                cu->cuStreamSynchronize(hwctx->stream);
                cu->cuCtxPopCurrent(NULL);
            }
            tb0 = av_gettime_relative();
        }

        /* the last pass sends EOF and drains what the graph still holds */
        t0 = av_gettime_relative();
        if ((ret = av_buffersrc_add_frame_flags(src, f, AV_BUFFERSRC_FLAG_PUSH)) < 0)
            return fail("filtering", ret);
        while ((ret = av_buffersink_get_frame(sink, outf)) >= 0) {
            if (md5) {
                const AVFrame *o = outf;
                char hex[33];
                if (outf->hw_frames_ctx) {
                    av_frame_unref(swf);
                    if ((ret = av_hwframe_transfer_data(swf, outf, 0)) < 0)
                        return fail("download", ret);
                    o = swf;
                }
                frame_md5(o, hex);
                printf("%d %s\n", nout, hex);
            }
            nout++;
            av_frame_unref(outf);
        }
        if (ret != AVERROR(EAGAIN) && !(last && ret == AVERROR_EOF))
            return fail("filtering", ret);
        if (cuda && (!batch || i == warmup + frames - 1)) {
            cu->cuCtxPushCurrent(hwctx->cuda_ctx);
            cu->cuStreamSynchronize(hwctx->stream);
            cu->cuCtxPopCurrent(NULL);
        }
        t1 = av_gettime_relative();
        av_frame_free(&f);
        if (!batch || last) {
            for (AVBufferRef *b : kept)
                av_buffer_unref(&b);
            kept.clear();
        }
        if (batch && i == warmup + frames - 1)
            printf("filterrun: %d frames back to back, %.1f us a frame\n",
                   frames, (double)(t1 - tb0) / frames);
        if (i >= warmup && !last)
            times.push_back((double)(t1 - t0));
    }

    if (!md5 && !batch) {
        for (double t : times)
            sum += t;
        std::sort(times.begin(), times.end());
        printf("filterrun: %d frames, mean %.1f us, median %.1f us, min %.1f us, max %.1f us\n",
               (int)times.size(), sum / times.size(), times[times.size() / 2], times.front(),
               times.back());
    }

    av_frame_free(&outf);
    av_frame_free(&swf);
    avfilter_inout_free(&in);
    avfilter_inout_free(&out);
    avfilter_graph_free(&g);
    av_free(par);
    for (AVFrame *f : pics)
        av_frame_free(&f);
    for (AVFrame *f : pics2)
        av_frame_free(&f);
    av_buffer_unref(&pool);
    av_buffer_unref(&pool2);
    av_buffer_unref(&dev);
    return 0;
}
