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

#include "libavfilter/cudadiff/diffcommon.h"

int ff_framediff_format_is_8bit(enum AVPixelFormat fmt)
{
    return ff_framediff_list_format_ok(fmt);
}

int ff_framediff_geometry(FrameDiffGeometry *g, enum AVPixelFormat fmt,
                          int w, int h, void *log_ctx)
{
    int ret = ff_framediff_list_geometry(g, fmt, w, h);

    if (ret == AVERROR(ENOSYS))
        av_log(log_ctx, AV_LOG_ERROR, "Unsupported pixel format '%s': "
               "only formats of 8-bit samples are supported\n",
               av_get_pix_fmt_name(fmt));
    else if (ret < 0 && w > 0 && h > 0)
        av_log(log_ctx, AV_LOG_ERROR, "Picture %dx%d is too large\n", w, h);
    return ret;
}

int ff_framediff_new_side_data(AVFrame *frame, const FrameDiffGeometry *g,
                               int threshold, int refresh, uint32_t index,
                               uint32_t nb_sent, uint8_t **bitmap, uint8_t **values)
{
    const uint32_t bitmap_size = g->bitmap_start[g->nb_planes];
    uint8_t *list = ff_framediff_list_new_side_data(frame,
                                                    ff_framediff_list_size(g, nb_sent));

    if (!list)
        return AVERROR(ENOMEM);

    ff_framediff_list_header(list, g, threshold, refresh, index, nb_sent);
    *bitmap = list + AV_FRAME_DIFF_OFF_BITMAP;
    *values = *bitmap + bitmap_size;
    memset(*bitmap, 0, bitmap_size);
    return 0;
}

int ff_framediff_set_metadata(AVFrame *frame, const FrameDiffGeometry *g)
{
    const AVFrameSideData *sd = av_frame_diff_get_side_data(frame);
    const uint8_t *list, *bitmap;
    char key[64], val[64];
    uint32_t n;
    int i, ret;

    if (!sd || sd->size - AV_FRAME_DIFF_UUID_SIZE < ff_framediff_list_size(g, 0))
        return AVERROR_BUG;
    list   = sd->data + AV_FRAME_DIFF_UUID_SIZE;
    n      = AV_RL32(list + AV_FRAME_DIFF_OFF_NB_SENT);
    bitmap = list + AV_FRAME_DIFF_OFF_BITMAP;

    snprintf(val, sizeof(val), "%"PRIu32, n);
    if ((ret = av_dict_set(&frame->metadata, "lavfi.cudadiff.sent", val, 0)) < 0)
        return ret;
    snprintf(val, sizeof(val), "%.6f", g->size ? (double)n / g->size : 0.0);
    if ((ret = av_dict_set(&frame->metadata, "lavfi.cudadiff.sent_ratio", val, 0)) < 0)
        return ret;
    for (i = 0; i < g->nb_planes; i++) {
        snprintf(key, sizeof(key), "lavfi.cudadiff.sent.%d", i);
        snprintf(val, sizeof(val), "%"PRIu32,
                 ff_framediff_list_count_bits(bitmap + g->bitmap_start[i],
                            g->bitmap_start[i + 1] - g->bitmap_start[i]));
        if ((ret = av_dict_set(&frame->metadata, key, val, 0)) < 0)
            return ret;
    }
    return 0;
}
