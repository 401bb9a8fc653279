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
 * Shared by the framediff, cudadiff and framediffapply filters: picture
 * geometry, and the export of the sent list as side data and metadata.
 */

#ifndef AVFILTER_CUDADIFF_DIFFCOMMON_H
#define AVFILTER_CUDADIFF_DIFFCOMMON_H

#include <stddef.h>
#include <stdint.h>

#include "libavutil/frame.h"
#include "libavutil/opt.h"
#include "libavutil/pixfmt.h"

#include "libavcodec/framediff/difflist.h"

enum FrameDiffMode {
    FRAMEDIFF_MODE_RECON,
    FRAMEDIFF_MODE_DIFF,
    FRAMEDIFF_MODE_MASK,
    FRAMEDIFF_MODE_NB,
};

/**
 * @return 1 if every byte of every plane of fmt is a whole 8-bit sample (or
 *         padding), so that the per-byte difference is meaningful.
 */
int ff_framediff_format_is_8bit(enum AVPixelFormat fmt);

/**
 * Fill g for a software format. Logs and returns an AVERROR if the format
 * is not an 8-bit one or the picture is too large.
 */
int ff_framediff_geometry(FrameDiffGeometry *g, enum AVPixelFormat fmt,
                          int w, int h, void *log_ctx);

/**
 * Attach a list (version 2, libavutil/framediff.h) of nb_sent bytes sent to
 * frame, replacing the frame's earlier list but no other side data, write
 * its header and clear its bitmap. The caller sets the bits at *bitmap
 * (g->bitmap_start[nb_planes] bytes) and writes the nb_sent values at
 * *values.
 */
int ff_framediff_new_side_data(AVFrame *frame, const FrameDiffGeometry *g,
                               int threshold, int refresh, uint32_t index,
                               uint32_t nb_sent, uint8_t **bitmap, uint8_t **values);

/**
 * Set the lavfi.cudadiff.* metadata of frame from its list (counted per
 * plane from the bitmap).
 */
int ff_framediff_set_metadata(AVFrame *frame, const FrameDiffGeometry *g);


/**
 * The options shared by cudadiff and framediff (same names, ranges and
 * defaults); Ctx must have int threshold, mode and refresh.
 */
#define FRAMEDIFF_OPTIONS(Ctx, flags)                                                  \
    { "threshold", "send a byte if it differs from the receiver's by more than this", \
        offsetof(Ctx, threshold), AV_OPT_TYPE_INT, { .i64 = 20 }, 0, 255, flags },    \
    { "mode", "output picture", offsetof(Ctx, mode), AV_OPT_TYPE_INT,                   \
        { .i64 = FRAMEDIFF_MODE_RECON }, 0, FRAMEDIFF_MODE_NB - 1, flags, "mode" },     \
        { "recon", "the receiver's picture after the update", 0, AV_OPT_TYPE_CONST,     \
            { .i64 = FRAMEDIFF_MODE_RECON }, 0, 0, flags, "mode" },                     \
        { "diff",  "128 + difference where sent, 128 elsewhere", 0, AV_OPT_TYPE_CONST,  \
            { .i64 = FRAMEDIFF_MODE_DIFF },  0, 0, flags, "mode" },                     \
        { "mask",  "255 where sent, 0 elsewhere", 0, AV_OPT_TYPE_CONST,                 \
            { .i64 = FRAMEDIFF_MODE_MASK },  0, 0, flags, "mode" },                     \
    { "refresh", "every this many frames send every byte, a whole picture (0: never)", \
        offsetof(Ctx, refresh), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, flags },

#endif /* AVFILTER_CUDADIFF_DIFFCOMMON_H */
