/*
 * libFuzzer target: hostile difference lists (libavutil/framediff.h) fed
 * to the framediffapply filter through the public API (buffer ->
 * framediffapply -> buffersink), as an application receiving lists from a
 * network would.
 *
 * Input layout:
 *   byte 0      picture format and size (an index into the table below)
 *   byte 1      options: bit 0 passthrough, bit 1 dump_entries (to /dev/null)
 *   then, repeated: a 16-bit little-endian length L and L bytes, the list
 *   of one frame (a length past the end takes what is left), which the
 *   frame carries after the list's UUID
 *
 * framediffapply must refuse every malformed list with an error, never
 * read or write outside its picture, and never leak.
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

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libavfilter/avfilter.h"
#include "libavfilter/buffersink.h"
#include "libavfilter/buffersrc.h"
#include "libavutil/frame.h"
#include "libavutil/framediff.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
    enum AVPixelFormat fmt;
    int w, h;
} pictures[] = {
    { AV_PIX_FMT_GRAY8,    16,  8 },
    { AV_PIX_FMT_YUV420P,  17,  9 },
    { AV_PIX_FMT_YUV420P,   1,  1 },
    { AV_PIX_FMT_NV12,     32, 18 },
    { AV_PIX_FMT_YUYV422,   7,  3 },
    { AV_PIX_FMT_RGB0,      5,  4 },
    { AV_PIX_FMT_YUVA420P, 10,  6 },
    { AV_PIX_FMT_RGB24,     3,  2 },
};

#define MAX_FRAMES 64

static int drain(AVFilterContext *sink, AVFrame *out)
{
    int ret;
    while ((ret = av_buffersink_get_frame(sink, out)) >= 0)
        av_frame_unref(out);
    return ret == AVERROR(EAGAIN) || ret == AVERROR_EOF ? 0 : ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t uuid[AV_FRAME_DIFF_UUID_SIZE] = AV_FRAME_DIFF_UUID;
    AVFilterGraph *graph = NULL;
    AVFilterContext *src = NULL, *apply = NULL, *sink = NULL;
    AVFrame *frame = NULL, *out = NULL;
    char args[256], sink_args[64];
    int pic, opts, n = 0, ret;

    if (size < 2)
        return 0;
    av_log_set_level(AV_LOG_PANIC);
    pic  = data[0] % FF_ARRAY_ELEMS(pictures);
    opts = data[1];
    data += 2;
    size -= 2;

    graph = avfilter_graph_alloc();
    frame = av_frame_alloc();
    out   = av_frame_alloc();
    if (!graph || !frame || !out)
        goto end;
    /* Each input builds a graph: a pool of threads started for each, and
     * a sink that offers every pixel format to negotiate, took most of the
     * time. The filter has no slice threading, and one format comes in. */
    graph->nb_threads = 1;

    snprintf(args, sizeof(args), "video_size=%dx%d:pix_fmt=%s:time_base=1/25:pixel_aspect=1/1",
             pictures[pic].w, pictures[pic].h, av_get_pix_fmt_name(pictures[pic].fmt));
    if (avfilter_graph_create_filter(&src, avfilter_get_by_name("buffer"), "in",
                                     args, NULL, graph) < 0)
        goto end;
    snprintf(sink_args, sizeof(sink_args), "pixel_formats=%s",
             av_get_pix_fmt_name(pictures[pic].fmt));
    snprintf(args, sizeof(args), "passthrough=%d%s", opts & 1,
             opts & 2 ? ":dump=/dev/null:dump_entries=1" : "");
    if (avfilter_graph_create_filter(&apply, avfilter_get_by_name("framediffapply"), "apply",
                                     args, NULL, graph) < 0 ||
        avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out",
                                     sink_args, NULL, graph) < 0 ||
        avfilter_link(src, 0, apply, 0) < 0 || avfilter_link(apply, 0, sink, 0) < 0 ||
        avfilter_graph_config(graph, NULL) < 0)
        goto end;

    while (size >= 2 && n < MAX_FRAMES) {
        size_t len = AV_RL16(data);
        AVFrameSideData *sd;

        data += 2;
        size -= 2;
        len = FFMIN(len, size);

        frame->format = pictures[pic].fmt;
        frame->width  = pictures[pic].w;
        frame->height = pictures[pic].h;
        frame->pts    = n;
        if (av_frame_get_buffer(frame, 0) < 0)
            break;
        av_frame_make_writable(frame);
        for (int p = 0; p < 4 && frame->buf[p]; p++)
            memset(frame->buf[p]->data, 0x55, frame->buf[p]->size);
        sd = av_frame_new_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED,
                                    AV_FRAME_DIFF_UUID_SIZE + len);
        if (!sd)
            break;
        memcpy(sd->data, uuid, AV_FRAME_DIFF_UUID_SIZE);
        if (len)
            memcpy(sd->data + AV_FRAME_DIFF_UUID_SIZE, data, len);
        data += len;
        size -= len;
        n++;

        ret = av_buffersrc_add_frame(src, frame);
        av_frame_unref(frame);
        if (ret < 0 || drain(sink, out) < 0)
            break;
    }
    if (av_buffersrc_add_frame(src, NULL) >= 0)
        drain(sink, out);

end:
    av_frame_free(&frame);
    av_frame_free(&out);
    avfilter_graph_free(&graph);
    return 0;
}
