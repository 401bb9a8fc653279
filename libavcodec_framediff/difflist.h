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
 * Difference lists (version 2, described in libavutil/framediff.h) on the
 * CPU: the picture geometry they index, their place on a frame, and their
 * checking, application and making, the CPU side of the cudadiff kernel's
 * lists. Header-only, so that libavcodec (the framediff codec) and
 * libavfilter (framediff, cudadiff, framediffapply, which include it as
 * libavcodec/framediff/difflist.h) each build it without linking to each
 * other. The placement of the bits in the bitmap is the kernel's
 * (cuda_kernels/cudadiff.h).
 */

#ifndef AVCODEC_FRAMEDIFF_DIFFLIST_H
#define AVCODEC_FRAMEDIFF_DIFFLIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/framediff.h"
#include "libavutil/imgutils.h"
#include "libavutil/intmath.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#include "cuda_kernels/cudadiff.h"

/** The picture as the list indexes it: planes of bytes, packed. */
typedef struct FrameDiffGeometry {
    int      nb_planes;
    int      width[4];          ///< bytes per line
    int      height[4];         ///< lines
    uint32_t offset[5];         ///< start of each plane; offset[nb_planes] = size
    uint32_t size;              ///< bytes in the packed picture
    uint32_t bitmap_start[5];   ///< start of each plane's bitmap in the list's
                                ///< bitmap; bitmap_start[nb_planes] = its size
} FrameDiffGeometry;

/**
 * @return 1 if every byte of every plane of fmt is a whole 8-bit sample (or
 *         padding), so that the per-byte difference is meaningful.
 */
static inline int ff_framediff_list_format_ok(enum AVPixelFormat fmt)
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

/**
 * Fill g for a software format of 8-bit samples. Returns AVERROR(ENOSYS)
 * for another format, AVERROR(EINVAL) for a bad or too large size.
 */
static inline int ff_framediff_list_geometry(FrameDiffGeometry *g, enum AVPixelFormat fmt,
                                             int w, int h)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    uint64_t size = 0;
    int i;

    memset(g, 0, sizeof(*g));
    if (!ff_framediff_list_format_ok(fmt))
        return AVERROR(ENOSYS);
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
        g->bitmap_start[i + 1] = g->bitmap_start[i] +
            CUDADIFF_BITMAP_BYTES((uint64_t)lb * g->height[i]);
        size += (uint64_t)lb * g->height[i];
        /* the list, bitmap and every byte, must fit in 32 bits too */
        if (size > UINT32_MAX / 2)
            return AVERROR(EINVAL);
    }
    g->offset[g->nb_planes] = size;
    g->size = size;
    return 0;
}

/** Bytes of a list of this geometry that sends n bytes. */
static inline size_t ff_framediff_list_size(const FrameDiffGeometry *g, uint32_t n)
{
    return AV_FRAME_DIFF_SIZE(g->bitmap_start[g->nb_planes], n);
}

/**
 * Give frame a list of size bytes, to be written at the returned pointer:
 * the frame's list entry (the one av_frame_diff_get_side_data() finds) gets
 * a new buffer, or a new AV_FRAME_DATA_SEI_UNREGISTERED entry is added,
 * with AV_FRAME_DIFF_UUID before the list. The frame's other side data,
 * other entries of that type included, is left alone.
 * Returns NULL if out of memory.
 */
static inline uint8_t *ff_framediff_list_new_side_data(AVFrame *frame, size_t size)
{
    static const uint8_t uuid[AV_FRAME_DIFF_UUID_SIZE] = AV_FRAME_DIFF_UUID;
    AVFrameSideData *sd = av_frame_diff_get_side_data(frame);

    size += AV_FRAME_DIFF_UUID_SIZE;
    if (sd) {
        AVBufferRef *buf = av_buffer_alloc(size);
        if (!buf)
            return NULL;
        av_buffer_unref(&sd->buf);
        av_dict_free(&sd->metadata);
        sd->buf  = buf;
        sd->data = buf->data;
        sd->size = size;
    } else {
        sd = av_frame_new_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED, size);
        if (!sd)
            return NULL;
    }
    memcpy(sd->data, uuid, AV_FRAME_DIFF_UUID_SIZE);
    return sd->data + AV_FRAME_DIFF_UUID_SIZE;
}

/** Write the header of a list; the bitmap and values are the caller's. */
static inline void ff_framediff_list_header(uint8_t *h, const FrameDiffGeometry *g,
                                            int threshold, int refresh,
                                            uint32_t index, uint32_t nb_sent)
{
    int i;

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
}

/** Set bits in n bytes. */
static inline uint32_t ff_framediff_list_count_bits(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0, i = 0;

    for (; i + 4 <= n; i += 4)
        c += av_popcount(AV_RN32(p + i));
    for (; i < n; i++)
        c += av_popcount(p[i]);
    return c;
}

/** 1 if a and b are the same planes. */
static inline int ff_framediff_list_same_geometry(const FrameDiffGeometry *a,
                                                  const FrameDiffGeometry *b)
{
    int i, same = a->nb_planes == b->nb_planes && a->size == b->size;

    for (i = 0; same && i < a->nb_planes; i++)
        same = a->width[i] == b->width[i] && a->height[i] == b->height[i];
    return same;
}

/**
 * Check a list of size bytes against the geometry g the receiver expects
 * (g may be NULL: then only its own consistency is checked, and the list's
 * geometry is returned in *lg if lg is not NULL). Logs what is wrong and
 * returns AVERROR_INVALIDDATA, or 0.
 */
static inline int ff_framediff_list_check(const uint8_t *h, size_t size,
                                          const FrameDiffGeometry *g,
                                          FrameDiffGeometry *lg, void *log_ctx)
{
    FrameDiffGeometry own = { 0 };
    uint64_t fsize = 0, bsize = 0;
    uint32_t n, sent = 0;
    int i, nb_planes;

    if (size < AV_FRAME_DIFF_HEADER_SIZE) {
        av_log(log_ctx, AV_LOG_ERROR, "Difference list of %zu bytes, "
               "shorter than its %d-byte header\n", size, AV_FRAME_DIFF_HEADER_SIZE);
        return AVERROR_INVALIDDATA;
    }
    if (h[AV_FRAME_DIFF_OFF_VERSION] != AV_FRAME_DIFF_VERSION) {
        if (h[AV_FRAME_DIFF_OFF_VERSION] == 1)
            av_log(log_ctx, AV_LOG_ERROR, "Difference list of version 1 "
                   "(positions and deltas): no longer supported, only version %d "
                   "(bitmap and values); re-create it with this version's "
                   "framediff or cudadiff\n", AV_FRAME_DIFF_VERSION);
        else
            av_log(log_ctx, AV_LOG_ERROR, "Difference list of unknown version %d\n",
                   h[AV_FRAME_DIFF_OFF_VERSION]);
        return AVERROR_INVALIDDATA;
    }
    nb_planes = h[AV_FRAME_DIFF_OFF_NB_PLANES];
    if (nb_planes < 1 || nb_planes > 4) {
        av_log(log_ctx, AV_LOG_ERROR, "Difference list of %d planes\n", nb_planes);
        return AVERROR_INVALIDDATA;
    }
    own.nb_planes = nb_planes;
    for (i = 0; i < 4; i++) {
        uint32_t w = AV_RL32(h + AV_FRAME_DIFF_OFF_WIDTH(i));
        uint32_t l = AV_RL32(h + AV_FRAME_DIFF_OFF_HEIGHT(i));
        if (i >= nb_planes ? w || l : !w || !l || w > INT_MAX || l > INT_MAX) {
            av_log(log_ctx, AV_LOG_ERROR, "Difference list: plane %d of "
                   "%"PRIu32"x%"PRIu32" bytes in a %d-plane list\n", i, w, l, nb_planes);
            return AVERROR_INVALIDDATA;
        }
        if (i >= nb_planes)
            continue;
        own.width[i]  = w;
        own.height[i] = l;
        own.offset[i] = fsize;
        own.bitmap_start[i] = bsize;
        fsize += (uint64_t)w * l;
        bsize += CUDADIFF_BITMAP_BYTES((uint64_t)w * l);
        if (fsize > UINT32_MAX / 2) {
            av_log(log_ctx, AV_LOG_ERROR, "Difference list of a too large picture\n");
            return AVERROR_INVALIDDATA;
        }
    }
    own.offset[nb_planes] = own.size = fsize;
    own.bitmap_start[nb_planes] = bsize;
    if (AV_RL32(h + AV_FRAME_DIFF_OFF_FRAME_SIZE) != fsize) {
        av_log(log_ctx, AV_LOG_ERROR, "Difference list: frame size %"PRIu32
               " is not the planes' %"PRIu64"\n",
               AV_RL32(h + AV_FRAME_DIFF_OFF_FRAME_SIZE), fsize);
        return AVERROR_INVALIDDATA;
    }
    if (g && !ff_framediff_list_same_geometry(g, &own)) {
        av_log(log_ctx, AV_LOG_ERROR, "Difference list describes another "
               "picture geometry than the %d-plane, %"PRIu32"-byte one "
               "expected\n", g->nb_planes, g->size);
        return AVERROR_INVALIDDATA;
    }
    n = AV_RL32(h + AV_FRAME_DIFF_OFF_NB_SENT);
    if (n > fsize || size != ff_framediff_list_size(&own, n)) {
        av_log(log_ctx, AV_LOG_ERROR, "Difference list sending %"PRIu32" bytes "
               "has %zu bytes, not %zu\n", n, size,
               n > fsize ? 0 : ff_framediff_list_size(&own, n));
        return AVERROR_INVALIDDATA;
    }
    for (i = 0; i < nb_planes; i++) {
        const uint8_t *bm = h + AV_FRAME_DIFF_OFF_BITMAP + own.bitmap_start[i];
        uint32_t nbytes   = own.bitmap_start[i + 1] - own.bitmap_start[i];
        uint32_t tail     = (own.offset[i + 1] - own.offset[i]) & 7;
        if (tail && bm[nbytes - 1] >> tail) {
            av_log(log_ctx, AV_LOG_ERROR, "Difference list: bits set past "
                   "the end of plane %d\n", i);
            return AVERROR_INVALIDDATA;
        }
        sent += ff_framediff_list_count_bits(bm, nbytes);
    }
    if (sent != n) {
        av_log(log_ctx, AV_LOG_ERROR, "Difference list: the bitmap sends "
               "%"PRIu32" bytes, the header says %"PRIu32"\n", sent, n);
        return AVERROR_INVALIDDATA;
    }
    if (lg)
        *lg = own;
    return 0;
}

/** Write the planes of g as "WxH,WxH,..." (bytes per line x lines). */
static inline void ff_framediff_list_planes_str(char *buf, size_t buf_size,
                                                const FrameDiffGeometry *g)
{
    size_t len = 0;
    int i;

    buf[0] = 0;
    for (i = 0; i < g->nb_planes && len < buf_size; i++)
        len += snprintf(buf + len, buf_size - len, "%s%dx%d", i ? "," : "",
                        g->width[i], g->height[i]);
}

/**
 * Check the list of size bytes that a frame carries against the geometry g
 * of the frame's picture, as ff_framediff_list_check() does. A frame keeps
 * its list through filters that scale or convert it (the side data type
 * does not depend on the picture's size): a list made for another picture
 * is refused with a message that names both.
 */
static inline int ff_framediff_list_check_frame(const uint8_t *h, size_t size,
                                                const FrameDiffGeometry *g,
                                                void *log_ctx)
{
    FrameDiffGeometry lg;
    char lp[96], fp[96];
    int ret = ff_framediff_list_check(h, size, NULL, &lg, log_ctx);

    if (ret < 0 || ff_framediff_list_same_geometry(g, &lg))
        return ret;
    ff_framediff_list_planes_str(lp, sizeof(lp), &lg);
    ff_framediff_list_planes_str(fp, sizeof(fp), g);
    av_log(log_ctx, AV_LOG_ERROR, "Difference list made for planes of %s "
           "bytes x lines, not this picture's %s: was the frame scaled or "
           "converted after the list was made?\n", lp, fp);
    return AVERROR_INVALIDDATA;
}

/**
 * Apply a checked list to the packed picture recv of geometry g:
 * every sent byte takes its value.
 */
static inline void ff_framediff_list_apply(uint8_t *recv, const uint8_t *h,
                                           const FrameDiffGeometry *g)
{
    const uint8_t *bm  = h + AV_FRAME_DIFF_OFF_BITMAP;
    const uint8_t *val = bm + g->bitmap_start[g->nb_planes];
    int p;

    for (p = 0; p < g->nb_planes; p++) {
        uint8_t *r = recv + g->offset[p];
        uint32_t b;
        for (b = g->bitmap_start[p]; b < g->bitmap_start[p + 1]; b++, r += 8) {
            unsigned bits = bm[b];
            if (bits == 0xff) {
                memcpy(r, val, 8);
                val += 8;
                continue;
            }
            while (bits) {
                int k = ff_ctz(bits);
                r[k]  = *val++;
                bits &= bits - 1;
            }
        }
    }
}

/**
 * Make the list of the packed picture: the bytes of src (plane p at
 * src[p], lines linesize[p] apart) that differ from recv by more than
 * threshold are sent and copied to recv. buf holds
 * ff_framediff_list_size(g, g->size) bytes; its header is written.
 * Returns the size of the list.
 */
static inline size_t ff_framediff_list_make(uint8_t *buf, uint8_t *recv,
                                            uint8_t *const src[4], const int linesize[4],
                                            const FrameDiffGeometry *g, int threshold,
                                            int option_threshold, int refresh,
                                            uint32_t index)
{
    uint8_t *bm  = buf + AV_FRAME_DIFF_OFF_BITMAP;
    uint8_t *val = bm + g->bitmap_start[g->nb_planes];
    uint32_t n = 0;
    int p, x, y;

    memset(bm, 0, g->bitmap_start[g->nb_planes]);
    for (p = 0; p < g->nb_planes; p++) {
        for (y = 0; y < g->height[p]; y++) {
            const uint8_t *s = src[p] + (ptrdiff_t)y * linesize[p];
            uint8_t *r = recv + g->offset[p] + (size_t)y * g->width[p];
            const uint32_t q = (uint32_t)y * g->width[p];
            for (x = 0; x < g->width[p]; x++) {
                const int d = s[x] - r[x];
                if (FFABS(d) > threshold) {
                    r[x]     = s[x];
                    val[n++] = s[x];
                    cudadiff_bitmap_or(bm, g->bitmap_start[p], q + x, 1);
                }
            }
        }
    }
    ff_framediff_list_header(buf, g, option_threshold, refresh, index, n);
    return ff_framediff_list_size(g, n);
}

#endif /* AVCODEC_FRAMEDIFF_DIFFLIST_H */
