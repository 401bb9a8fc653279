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

#include <stdio.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/dict.h"
#include "libavutil/framediff.h"
#include "libavutil/imgutils.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#include "libavfilter/cudadiff/framediff.h"

int ff_framediff_format_is_8bit(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    int i;

    if (!desc || !desc->nb_components ||
        desc->flags & (AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_PAL |
                       AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_FLOAT))
        return 0;
    for (i = 0; i < desc->nb_components; i++)
        if (desc->comp[i].depth != 8 || desc->comp[i].shift ||
            desc->comp[i].step < 1)
            return 0;
    return 1;
}

int ff_framediff_geometry(FrameDiffGeometry *g, enum AVPixelFormat fmt,
                          int w, int h, void *log_ctx)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    uint64_t size = 0;
    int i;

    memset(g, 0, sizeof(*g));
    if (!ff_framediff_format_is_8bit(fmt)) {
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported pixel format '%s': "
               "only formats of 8-bit samples are supported\n",
               av_get_pix_fmt_name(fmt));
        return AVERROR(ENOSYS);
    }
    if (w <= 0 || h <= 0)
        return AVERROR(EINVAL);

    g->nb_planes = av_pix_fmt_count_planes(fmt);
    for (i = 0; i < g->nb_planes; i++) {
        int chroma = i == 1 || i == 2;
        int lb = av_image_get_linesize(fmt, w, i);
        if (lb <= 0)
            return lb < 0 ? lb : AVERROR(EINVAL);
        g->width[i]  = lb;
        g->height[i] = chroma ? AV_CEIL_RSHIFT(h, desc->log2_chroma_h) : h;
        g->offset[i] = size;
        size += (uint64_t)lb * g->height[i];
        if (size > UINT32_MAX) {
            av_log(log_ctx, AV_LOG_ERROR, "Picture %dx%d is too large\n", w, h);
            return AVERROR(EINVAL);
        }
    }
    g->offset[g->nb_planes] = size;
    g->size = size;
    return 0;
}

int ff_framediff_new_side_data(AVFrame *frame, const FrameDiffGeometry *g,
                               int threshold, int refresh, uint32_t index,
                               uint32_t nb_sent, uint8_t **pos, uint8_t **delta)
{
    AVFrameSideData *sd;
    uint8_t *h;
    int i;

    av_frame_remove_side_data(frame, AV_FRAME_DATA_DIFF_LIST);
    sd = av_frame_new_side_data(frame, AV_FRAME_DATA_DIFF_LIST,
                                AV_FRAME_DIFF_SIZE(nb_sent));
    if (!sd)
        return AVERROR(ENOMEM);

    h = sd->data;
    memset(h, 0, AV_FRAME_DIFF_HEADER_SIZE);
    h[AV_FRAME_DIFF_OFF_VERSION]   = AV_FRAME_DIFF_VERSION;
    h[AV_FRAME_DIFF_OFF_FLAGS]     = refresh ? AV_FRAME_DIFF_FLAG_REFRESH : 0;
    h[AV_FRAME_DIFF_OFF_NB_PLANES] = g->nb_planes;
    h[AV_FRAME_DIFF_OFF_THRESHOLD] = threshold;
    AV_WL32(h + AV_FRAME_DIFF_OFF_NB_SENT,     nb_sent);
    AV_WL32(h + AV_FRAME_DIFF_OFF_FRAME_SIZE,  g->size);
    AV_WL32(h + AV_FRAME_DIFF_OFF_FRAME_INDEX, index);
    for (i = 0; i < g->nb_planes; i++) {
        AV_WL32(h + AV_FRAME_DIFF_OFF_WIDTH(i),  g->width[i]);
        AV_WL32(h + AV_FRAME_DIFF_OFF_HEIGHT(i), g->height[i]);
    }
    *pos   = h + AV_FRAME_DIFF_OFF_POS;
    *delta = h + AV_FRAME_DIFF_OFF_DELTA(nb_sent);
    return 0;
}

/* Number of entries of the sorted list pos[0..n) below v. */
static uint32_t lower_bound(const uint8_t *pos, uint32_t n, uint32_t v)
{
    uint32_t lo = 0, hi = n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (AV_RL32(pos + 4 * mid) < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ff_framediff_set_metadata(AVFrame *frame, const FrameDiffGeometry *g)
{
    AVFrameSideData *sd = av_frame_get_side_data(frame, AV_FRAME_DATA_DIFF_LIST);
    const uint8_t *pos;
    char key[64], val[64];
    uint32_t n;
    int i, ret;

    if (!sd || sd->size < AV_FRAME_DIFF_HEADER_SIZE)
        return AVERROR_BUG;
    n   = AV_RL32(sd->data + AV_FRAME_DIFF_OFF_NB_SENT);
    pos = sd->data + AV_FRAME_DIFF_OFF_POS;

    snprintf(val, sizeof(val), "%"PRIu32, n);
    if ((ret = av_dict_set(&frame->metadata, "lavfi.cudadiff.sent", val, 0)) < 0)
        return ret;
    snprintf(val, sizeof(val), "%.6f", g->size ? (double)n / g->size : 0.0);
    if ((ret = av_dict_set(&frame->metadata, "lavfi.cudadiff.sent_ratio", val, 0)) < 0)
        return ret;
    for (i = 0; i < g->nb_planes; i++) {
        uint32_t a = lower_bound(pos, n, g->offset[i]);
        uint32_t b = lower_bound(pos, n, g->offset[i + 1]);
        snprintf(key, sizeof(key), "lavfi.cudadiff.sent.%d", i);
        snprintf(val, sizeof(val), "%"PRIu32, b - a);
        if ((ret = av_dict_set(&frame->metadata, key, val, 0)) < 0)
            return ret;
    }
    return 0;
}
