/*
 * mvdump: run a filter graph and print the motion vector side data of
 * every output frame
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
 * Usage: mvdump [--cuda] [--all] [--time] GRAPH
 *
 * GRAPH is a filter graph with no input and one output (a lavfi source,
 * then filters, e.g. "testsrc2=s=96x64:d=1,format=yuv420p,mestimate"). For
 * each output frame mvdump prints its number, pts and vector count and the
 * md5 of its AV_FRAME_DATA_MOTION_VECTORS side data, serialised field by
 * field (source, w, h, src_x, src_y, dst_x, dst_y, flags: the fields
 * mestimate sets; motion_x, motion_y and motion_scale it leaves
 * uninitialised, and the struct has padding, so raw bytes would not
 * compare), and with --all every vector in that serialisation. A frame
 * without side data prints "no vectors". --cuda creates a CUDA device and
 * gives it to every filter (for hwupload and mestimate_cuda).
 * --time prints the number of output frames, the wall time from the first
 * request to the end of the stream and its mean per output frame to stderr.
 * Errors from the graph are printed with FFmpeg's log and exit 1.
 */

#include <stdio.h>
#include <string.h>

#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/md5.h"
#include "libavutil/mem.h"
#include "libavutil/motion_vector.h"
#include "libavutil/time.h"
#include "libavfilter/avfilter.h"
#include "libavfilter/buffersink.h"

static int vector_line(char *buf, size_t size, const AVMotionVector *mv)
{
    return snprintf(buf, size, "%d %d %d %d %d %d %d %llu\n", mv->source, mv->w, mv->h,
                    mv->src_x, mv->src_y, mv->dst_x, mv->dst_y,
                    (unsigned long long)mv->flags);
}

int main(int argc, char **argv)
{
    int cuda = 0, all = 0, timing = 0, i, ret = 1;
    const char *desc = NULL;
    AVFilterGraph *graph = NULL;
    AVFilterInOut *outputs = NULL, *inputs = NULL;
    AVFilterGraphSegment *seg = NULL;
    AVFilterContext *sink = NULL;
    AVBufferRef *device = NULL;
    AVFrame *frame = NULL;
    struct AVMD5 *md5 = NULL;
    int64_t n = 0, t0;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cuda"))
            cuda = 1;
        else if (!strcmp(argv[i], "--all"))
            all = 1;
        else if (!strcmp(argv[i], "--time"))
            timing = 1;
        else if (!desc && argv[i][0] != '-')
            desc = argv[i];
        else
            desc = NULL, i = argc;
    }
    if (!desc) {
        fprintf(stderr, "usage: %s [--cuda] [--all] [--time] GRAPH\n", argv[0]);
        return 2;
    }

    graph = avfilter_graph_alloc();
    frame = av_frame_alloc();
    md5   = av_md5_alloc();
    if (!graph || !frame || !md5)
        goto end;
    graph->nb_threads = 1;
    if (cuda && av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_CUDA, NULL, NULL, 0) < 0) {
        fprintf(stderr, "mvdump: no CUDA device\n");
        goto end;
    }
    if (avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"),
                                     "out", NULL, NULL, graph) < 0)
        goto end;
    /* the filters created, then given the device, then initialised (as
     * ffmpeg does it: hwupload needs the device when it is initialised),
     * then linked, the chain's free output to the sink */
    if (avfilter_graph_segment_parse(graph, desc, 0, &seg) < 0 ||
        avfilter_graph_segment_create_filters(seg, 0) < 0)
        goto end;
    if (device)
        for (i = 0; i < graph->nb_filters; i++) {
            if (graph->filters[i] == sink)
                continue;
            graph->filters[i]->hw_device_ctx = av_buffer_ref(device);
            if (!graph->filters[i]->hw_device_ctx)
                goto end;
        }
    if (avfilter_graph_segment_apply_opts(seg, 0) < 0 || avfilter_graph_segment_init(seg, 0) < 0 ||
        avfilter_graph_segment_link(seg, 0, &inputs, &outputs) < 0)
        goto end;
    if (inputs || !outputs || outputs->next) {
        fprintf(stderr, "mvdump: the graph must have no input and one output\n");
        goto end;
    }
    if (avfilter_link(outputs->filter_ctx, outputs->pad_idx, sink, 0) < 0)
        goto end;
    if (avfilter_graph_config(graph, NULL) < 0)
        goto end;

    t0 = av_gettime_relative();
    for (;;) {
        const AVFrameSideData *sd;
        int r = av_buffersink_get_frame(sink, frame);
        if (r == AVERROR_EOF)
            break;
        if (r < 0) {
            fprintf(stderr, "mvdump: the graph failed: %s\n", av_err2str(r));
            goto end;
        }
        sd = av_frame_get_side_data(frame, AV_FRAME_DATA_MOTION_VECTORS);
        if (!sd) {
            printf("frame %"PRId64" pts %"PRId64": no vectors\n", n, frame->pts);
        } else {
            const AVMotionVector *mv = (const AVMotionVector *)sd->data;
            const int nb = sd->size / sizeof(*mv);
            uint8_t digest[16];
            char line[160];
            int j;

            av_md5_init(md5);
            for (j = 0; j < nb; j++) {
                int len = vector_line(line, sizeof(line), &mv[j]);
                av_md5_update(md5, (const uint8_t *)line, len);
            }
            av_md5_final(md5, digest);
            printf("frame %"PRId64" pts %"PRId64": %d vectors%s md5 ", n, frame->pts, nb,
                   sd->size % sizeof(*mv) ? " (size not a multiple)" : "");
            for (j = 0; j < 16; j++)
                printf("%02x", digest[j]);
            printf("\n");
            if (all)
                for (j = 0; j < nb; j++) {
                    vector_line(line, sizeof(line), &mv[j]);
                    fputs(line, stdout);
                }
        }
        n++;
        av_frame_unref(frame);
    }
    if (timing && n)
        fprintf(stderr, "mvdump: %"PRId64" frames, %.3f ms in all, %.3f ms per frame\n", n,
                (av_gettime_relative() - t0) / 1000.0,
                (av_gettime_relative() - t0) / 1000.0 / n);
    ret = 0;

end:
    avfilter_graph_segment_free(&seg);
    avfilter_inout_free(&inputs);
    avfilter_inout_free(&outputs);
    avfilter_graph_free(&graph);
    av_buffer_unref(&device);
    av_frame_free(&frame);
    av_free(md5);
    return ret;
}
