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
 * The receiver of framediff/cudadiff: rebuild the receiver's picture from
 * the difference lists alone (libavutil/framediff.h), ignoring the pixels
 * of the frames that carry them. Can also dump the lists as text.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/error.h"
#include "libavutil/file_open.h"
#include "libavutil/framediff.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/md5.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "libavfilter/avfilter.h"
#include "libavfilter/filters.h"
#include "libavfilter/formats.h"
#include "libavfilter/video.h"

#include "libavfilter/cudadiff/diffcommon.h"

typedef struct FrameDiffApplyContext {
    const AVClass *class;

    char *dump_str;
    int dump_entries;
    int passthrough;

    FILE *dump;
    FrameDiffGeometry g;
    uint8_t *recv;
    int64_t nb_frames;
    int64_t next_index;
} FrameDiffApplyContext;

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

static av_cold int init(AVFilterContext *ctx)
{
    FrameDiffApplyContext *s = ctx->priv;

    if (s->dump_str) {
        if (!strcmp(s->dump_str, "-")) {
            s->dump = stdout;
        } else {
            s->dump = avpriv_fopen_utf8(s->dump_str, "w");
            if (!s->dump) {
                int err = AVERROR(errno);
                av_log(ctx, AV_LOG_ERROR, "Could not open %s: %s\n",
                       s->dump_str, av_err2str(err));
                return err;
            }
        }
    }
    return 0;
}

static int config_input(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    FrameDiffApplyContext *s = ctx->priv;
    int ret;

    ret = ff_framediff_geometry(&s->g, inlink->format, inlink->w, inlink->h, ctx);
    if (ret < 0)
        return ret;
    av_freep(&s->recv);
    s->recv = av_mallocz(s->g.size);
    if (!s->recv)
        return AVERROR(ENOMEM);
    s->nb_frames  = 0;
    s->next_index = 0;
    return 0;
}

static void dump_list(FrameDiffApplyContext *s, const uint8_t *h, size_t size)
{
    const uint32_t n = AV_RL32(h + AV_FRAME_DIFF_OFF_NB_SENT);
    const int nb_planes = h[AV_FRAME_DIFF_OFF_NB_PLANES];
    uint8_t md5[16];
    uint32_t k;
    int i;

    av_md5_sum(md5, h, size);
    fprintf(s->dump, "frame:%"PRId64" version:%d flags:%d planes:%d "
            "threshold:%d sent:%"PRIu32" size:%"PRIu32" index:%"PRIu32" lines:",
            s->nb_frames, h[AV_FRAME_DIFF_OFF_VERSION], h[AV_FRAME_DIFF_OFF_FLAGS],
            nb_planes, h[AV_FRAME_DIFF_OFF_THRESHOLD], n,
            AV_RL32(h + AV_FRAME_DIFF_OFF_FRAME_SIZE),
            AV_RL32(h + AV_FRAME_DIFF_OFF_FRAME_INDEX));
    for (i = 0; i < nb_planes; i++)
        fprintf(s->dump, "%s%"PRIu32"x%"PRIu32, i ? "," : "",
                AV_RL32(h + AV_FRAME_DIFF_OFF_WIDTH(i)),
                AV_RL32(h + AV_FRAME_DIFF_OFF_HEIGHT(i)));
    fprintf(s->dump, " bytes:%zu md5:", size);
    for (i = 0; i < 16; i++)
        fprintf(s->dump, "%02x", md5[i]);
    fprintf(s->dump, "\n");
    if (s->dump_entries) {
        /* position in the packed picture and new value of each sent byte */
        const uint8_t *bm  = h + AV_FRAME_DIFF_OFF_BITMAP;
        const uint8_t *val = bm + s->g.bitmap_start[s->g.nb_planes];
        for (i = 0, k = 0; i < s->g.nb_planes; i++) {
            const uint32_t plane = s->g.offset[i + 1] - s->g.offset[i];
            uint32_t q;
            for (q = 0; q < plane; q++)
                if (bm[s->g.bitmap_start[i] + (q >> 3)] >> (q & 7) & 1)
                    fprintf(s->dump, "  %"PRIu32" %d\n", s->g.offset[i] + q, val[k++]);
        }
    }
    fflush(s->dump);
}

static int filter_frame(AVFilterLink *inlink, AVFrame *in)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *outlink = ctx->outputs[0];
    FrameDiffApplyContext *s = ctx->priv;
    const AVFrameSideData *sd = av_frame_diff_get_side_data(in);
    const uint8_t *list;
    AVFrame *out;
    uint32_t index;
    size_t size;
    int p, y, ret;

    if (!sd) {
        av_log(ctx, AV_LOG_ERROR, "Frame %"PRId64" carries no difference list; "
               "framediffapply must follow framediff or cudadiff\n", s->nb_frames);
        av_frame_free(&in);
        return AVERROR(EINVAL);
    }
    list = sd->data + AV_FRAME_DIFF_UUID_SIZE;
    size = sd->size - AV_FRAME_DIFF_UUID_SIZE;
    ret  = ff_framediff_list_check_frame(list, size, &s->g, ctx);
    if (ret < 0) {
        av_frame_free(&in);
        return ret;
    }
    if (s->dump)
        dump_list(s, list, size);

    index = AV_RL32(list + AV_FRAME_DIFF_OFF_FRAME_INDEX);
    if (index != (uint32_t)s->next_index)
        av_log(ctx, AV_LOG_WARNING, "Expected list %"PRIu32", got %"PRIu32": "
               "lists were lost, bytes not sent since stay stale until a refresh\n",
               (uint32_t)s->next_index, index);
    s->next_index = (int64_t)index + 1;

    ff_framediff_list_apply(s->recv, list, &s->g);
    s->nb_frames++;

    if (s->passthrough)
        return ff_filter_frame(outlink, in);

    out = ff_get_video_buffer(outlink, outlink->w, outlink->h);
    if (!out) {
        av_frame_free(&in);
        return AVERROR(ENOMEM);
    }
    ret = av_frame_copy_props(out, in);
    av_frame_free(&in);
    if (ret < 0) {
        av_frame_free(&out);
        return ret;
    }
    for (p = 0; p < s->g.nb_planes; p++)
        for (y = 0; y < s->g.height[p]; y++)
            memcpy(out->data[p] + (ptrdiff_t)y * out->linesize[p],
                   s->recv + s->g.offset[p] + (size_t)y * s->g.width[p],
                   s->g.width[p]);
    return ff_filter_frame(outlink, out);
}

static av_cold void uninit(AVFilterContext *ctx)
{
    FrameDiffApplyContext *s = ctx->priv;

    if (s->dump && s->dump != stdout)
        fclose(s->dump);
    s->dump = NULL;
    av_freep(&s->recv);
}

#define OFFSET(x) offsetof(FrameDiffApplyContext, x)
#define FLAGS (AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM)

static const AVOption framediffapply_options[] = {
    { "dump", "write each difference list as text to this file ('-': stdout)",
        OFFSET(dump_str), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "dump_entries", "also write every entry of each list",
        OFFSET(dump_entries), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "passthrough", "output the input frames instead of the rebuilt picture",
        OFFSET(passthrough), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { NULL }
};

AVFILTER_DEFINE_CLASS(framediffapply);

static const AVFilterPad framediffapply_inputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_input,
        .filter_frame = filter_frame,
    },
};

static const AVFilterPad framediffapply_outputs[] = {
    {
        .name = "default",
        .type = AVMEDIA_TYPE_VIDEO,
    },
};

const FFFilter ff_vf_framediffapply = {
    .p.name        = "framediffapply",
    .p.description = NULL_IF_CONFIG_SMALL("Rebuild the receiver's picture from framediff or cudadiff side data."),
    .p.priv_class  = &framediffapply_class,
    .priv_size     = sizeof(FrameDiffApplyContext),
    .init          = init,
    .uninit        = uninit,
    FILTER_INPUTS(framediffapply_inputs),
    FILTER_OUTPUTS(framediffapply_outputs),
    FILTER_QUERY_FUNC2(query_formats),
};
