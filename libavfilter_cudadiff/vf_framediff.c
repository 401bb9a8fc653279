/*
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

/**
 * @file
 * Send only the bytes that changed by more than a threshold, keeping the
 * picture the receiver shows (CPU twin of cudadiff).
 */

#include <string.h>

#include "libavutil/common.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "libavfilter/avfilter.h"
#include "libavfilter/filters.h"
#include "libavfilter/formats.h"
#include "libavfilter/video.h"

#include "libavfilter/cudadiff/diffcommon.h"
#include "cuda_kernels/cudadiff.h"

typedef struct FrameDiffContext {
    const AVClass *class;

    int threshold;
    int mode;
    int refresh;

    FrameDiffGeometry g;
    int w, h;
    enum AVPixelFormat format;

    uint8_t  *recv;         ///< the receiver's picture R, packed
    uint32_t *pos;          ///< scratch entries (position in the plane),
                            ///< indexed like the picture
    uint8_t  *value;        ///< their new values
    uint32_t *count;        ///< entries per (plane, job)
    int nb_jobs;
    uint32_t frame_index;
} FrameDiffContext;

typedef struct ThreadData {
    const AVFrame *in;
    AVFrame *out;
    int threshold;
} ThreadData;

static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *formats = NULL;
    const AVPixFmtDescriptor *desc = NULL;
    int ret;

    while ((desc = av_pix_fmt_desc_next(desc))) {
        enum AVPixelFormat fmt = av_pix_fmt_desc_get_id(desc);
        if (ff_framediff_format_is_8bit(fmt) &&
            (ret = ff_add_format(&formats, fmt)) < 0) {
            ff_formats_unref(&formats);
            return ret;
        }
    }
    return ff_set_common_formats2(ctx, cfg_in, cfg_out, formats);
}

static int config_input(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    FrameDiffContext *s  = ctx->priv;
    int ret;

    ret = ff_framediff_geometry(&s->g, inlink->format, inlink->w, inlink->h, ctx);
    if (ret < 0)
        return ret;

    s->w      = inlink->w;
    s->h      = inlink->h;
    s->format = inlink->format;
    s->nb_jobs = FFMAX(1, FFMIN(ff_filter_get_nb_threads(ctx), s->g.height[0]));

    av_freep(&s->recv);
    av_freep(&s->pos);
    av_freep(&s->value);
    av_freep(&s->count);
    s->recv  = av_mallocz(s->g.size);
    s->pos   = av_malloc_array(s->g.size, sizeof(*s->pos));
    s->value = av_malloc(s->g.size);
    s->count = av_calloc(4 * s->nb_jobs, sizeof(*s->count));
    if (!s->recv || !s->pos || !s->value || !s->count)
        return AVERROR(ENOMEM);
    s->frame_index = 0;
    return 0;
}

static int diff_slice(AVFilterContext *ctx, void *arg, int jobnr, int nb_jobs)
{
    FrameDiffContext *s = ctx->priv;
    const ThreadData *td = arg;
    const int thr  = td->threshold;
    const int mode = s->mode;
    int p;

    for (p = 0; p < s->g.nb_planes; p++) {
        const int lb = s->g.width[p];
        const int y0 = s->g.height[p] *  jobnr      / nb_jobs;
        const int y1 = s->g.height[p] * (jobnr + 1) / nb_jobs;
        const uint32_t first = s->g.offset[p] + (uint32_t)y0 * lb;
        uint32_t *pos  = s->pos   + first;
        uint8_t *value = s->value + first;
        uint32_t n = 0;
        int x, y;

        for (y = y0; y < y1; y++) {
            const uint8_t *src = td->in->data[p]  + (ptrdiff_t)y * td->in->linesize[p];
            uint8_t *dst       = td->out->data[p] + (ptrdiff_t)y * td->out->linesize[p];
            uint8_t *r         = s->recv + s->g.offset[p] + (size_t)y * lb;
            const uint32_t base = (uint32_t)y * lb;

            for (x = 0; x < lb; x++) {
                const int d = src[x] - r[x];
                if (FFABS(d) > thr) {
                    r[x]       = src[x];
                    pos[n]     = base + x;
                    value[n++] = src[x];
                    dst[x] = mode == FRAMEDIFF_MODE_RECON ? src[x] :
                             mode == FRAMEDIFF_MODE_DIFF  ? av_clip_uint8(128 + d) : 255;
                } else {
                    dst[x] = mode == FRAMEDIFF_MODE_RECON ? r[x] :
                             mode == FRAMEDIFF_MODE_DIFF  ? 128 : 0;
                }
            }
        }
        s->count[p * nb_jobs + jobnr] = n;
    }
    return 0;
}

static int filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *outlink = ctx->outputs[0];
    FrameDiffContext *s  = ctx->priv;
    const int refresh = s->refresh && s->frame_index % s->refresh == 0;
    ThreadData td;
    AVFrame *out;
    uint8_t *bitmap, *values;
    uint32_t total = 0, k = 0;
    int p, j, ret;

    if (in->width != s->w || in->height != s->h || in->format != s->format) {
        av_log(ctx, AV_LOG_ERROR, "Input changed from %dx%d %s to %dx%d %s "
               "mid-stream; the receiver's picture cannot follow\n",
               s->w, s->h, av_get_pix_fmt_name(s->format),
               in->width, in->height, av_get_pix_fmt_name(in->format));
        av_frame_free(&in);
        return AVERROR(EINVAL);
    }

    out = ff_get_video_buffer(outlink, outlink->w, outlink->h);
    if (!out) {
        av_frame_free(&in);
        return AVERROR(ENOMEM);
    }
    ret = av_frame_copy_props(out, in);
    if (ret < 0)
        goto fail;

    td.in  = in;
    td.out = out;
    td.threshold = refresh ? -1 : s->threshold;   /* -1: every byte */
    ff_filter_execute(ctx, diff_slice, &td, NULL, s->nb_jobs);

    for (j = 0; j < 4 * s->nb_jobs; j++)
        total += s->count[j];

    ret = ff_framediff_new_side_data(out, &s->g, s->threshold, refresh,
                                     s->frame_index, total, &bitmap, &values);
    if (ret < 0)
        goto fail;

    for (p = 0; p < s->g.nb_planes; p++) {
        for (j = 0; j < s->nb_jobs; j++) {
            const uint32_t first = s->g.offset[p] +
                (uint32_t)(s->g.height[p] * j / s->nb_jobs) * s->g.width[p];
            const uint32_t n = s->count[p * s->nb_jobs + j];
            uint32_t i;
            for (i = 0; i < n; i++, k++) {
                cudadiff_bitmap_or(bitmap, s->g.bitmap_start[p], s->pos[first + i], 1);
                values[k] = s->value[first + i];
            }
        }
    }

    ret = ff_framediff_set_metadata(out, &s->g);
    if (ret < 0)
        goto fail;

    s->frame_index++;
    av_frame_free(&in);
    return ff_filter_frame(outlink, out);

fail:
    av_frame_free(&in);
    av_frame_free(&out);
    return ret;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    FrameDiffContext *s = ctx->priv;

    av_freep(&s->recv);
    av_freep(&s->pos);
    av_freep(&s->value);
    av_freep(&s->count);
}

#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)

static const AVOption framediff_options[] = {
    FRAMEDIFF_OPTIONS(FrameDiffContext, FLAGS)
    { NULL }
};

AVFILTER_DEFINE_CLASS(framediff);

static const AVFilterPad framediff_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input,
        .filter_frame = filter_frame,
    },
};

static const AVFilterPad framediff_outputs[] = {
    {
        .name = "default",
        .type = AVMEDIA_TYPE_VIDEO,
    },
};

const FFFilter ff_vf_framediff = {
    .p.name        = "framediff",
    .p.description = NULL_IF_CONFIG_SMALL("Send only the bytes that changed by more than a threshold."),
    .p.priv_class  = &framediff_class,
    .p.flags       = AVFILTER_FLAG_SLICE_THREADS,
    .priv_size     = sizeof(FrameDiffContext),
    .uninit        = uninit,
    FILTER_INPUTS(framediff_inputs),
    FILTER_OUTPUTS(framediff_outputs),
    FILTER_QUERY_FUNC2(query_formats),
};
