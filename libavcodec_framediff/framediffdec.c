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
 * framediff decoder: the receiver. Keeps the picture R, applies each
 * packet's difference list to it and outputs it.
 */

#include <string.h>
#include <zlib.h>

#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"

#include "libavcodec/avcodec.h"
#include "libavcodec/codec_internal.h"
#include "libavcodec/decode.h"

#include "difflist.h"
#include "framediff_stream.h"

typedef struct FrameDiffDecContext {
    FrameDiffGeometry g;
    uint8_t *recv;          ///< R, packed
    uint8_t *list;          ///< the packet, uncompressed
    size_t list_max;
    int64_t next_index;     ///< -1 before the first packet
    int stale;              ///< lists were lost since the last refresh
} FrameDiffDecContext;

static av_cold int framediff_decode_init(AVCodecContext *avctx)
{
    FrameDiffDecContext *s = avctx->priv_data;
    const uint8_t *ed = avctx->extradata;
    int ret;

    if (avctx->extradata_size > FRAMEDIFF_EXTRADATA_NAME &&
        !memcmp(ed, FRAMEDIFF_EXTRADATA_TAG, 4)) {
        const char *name = (const char *)ed + FRAMEDIFF_EXTRADATA_NAME;
        enum AVPixelFormat fmt;
        if (ed[4] != FRAMEDIFF_EXTRADATA_VERSION ||
            !memchr(name, 0, avctx->extradata_size - FRAMEDIFF_EXTRADATA_NAME)) {
            av_log(avctx, AV_LOG_ERROR, "Unsupported extradata (version %d)\n", ed[4]);
            return AVERROR_INVALIDDATA;
        }
        fmt = av_get_pix_fmt(name);
        if (fmt == AV_PIX_FMT_NONE) {
            av_log(avctx, AV_LOG_ERROR, "Unknown pixel format '%s'\n", name);
            return AVERROR_INVALIDDATA;
        }
        avctx->pix_fmt = fmt;
    } else if (avctx->pix_fmt == AV_PIX_FMT_NONE) {
        av_log(avctx, AV_LOG_WARNING, "No extradata: assuming yuv420p\n");
        avctx->pix_fmt = AV_PIX_FMT_YUV420P;
    }

    ret = ff_framediff_list_geometry(&s->g, avctx->pix_fmt, avctx->width, avctx->height);
    if (ret < 0) {
        av_log(avctx, AV_LOG_ERROR, "Unsupported picture %dx%d %s\n", avctx->width,
               avctx->height, av_get_pix_fmt_name(avctx->pix_fmt));
        return ret == AVERROR(ENOSYS) ? AVERROR_INVALIDDATA : ret;
    }
    s->list_max = ff_framediff_list_size(&s->g, s->g.size);
    s->recv     = av_mallocz(s->g.size);
    s->list     = av_malloc(s->list_max);
    if (!s->recv || !s->list)
        return AVERROR(ENOMEM);
    s->next_index = -1;
    return 0;
}

static int framediff_decode_frame(AVCodecContext *avctx, AVFrame *frame,
                                  int *got_frame, AVPacket *avpkt)
{
    FrameDiffDecContext *s = avctx->priv_data;
    uLongf len = s->list_max;
    uint32_t index;
    int refresh, p, ret, zret;

    if (avpkt->size <= 0) {
        av_log(avctx, AV_LOG_ERROR, "Empty packet\n");
        return AVERROR_INVALIDDATA;
    }
    zret = uncompress(s->list, &len, avpkt->data, avpkt->size);
    if (zret != Z_OK) {
        av_log(avctx, AV_LOG_ERROR, "Packet of %d bytes does not inflate to a "
               "list of at most %zu bytes (zlib error %d)\n",
               avpkt->size, s->list_max, zret);
        return AVERROR_INVALIDDATA;
    }
    ret = ff_framediff_list_check(s->list, len, &s->g, NULL, avctx);
    if (ret < 0)
        return ret;

    index   = AV_RL32(s->list + AV_FRAME_DIFF_OFF_FRAME_INDEX);
    refresh = s->list[AV_FRAME_DIFF_OFF_FLAGS] & AV_FRAME_DIFF_FLAG_REFRESH;
    if (refresh) {
        if (s->stale)
            av_log(avctx, AV_LOG_INFO, "Refresh at list %"PRIu32": the picture "
                   "is exact again\n", index);
        s->stale = 0;
    } else if (index != (s->next_index < 0 ? 0 : (uint32_t)s->next_index) && !s->stale) {
        av_log(avctx, AV_LOG_WARNING, "Expected list %"PRId64", got %"PRIu32": "
               "lists were lost; bytes not sent since show stale values until "
               "the next refresh\n", s->next_index < 0 ? 0 : s->next_index, index);
        s->stale = 1;
    }
    s->next_index = (int64_t)index + 1;

    ff_framediff_list_apply(s->recv, s->list, &s->g);

    if ((ret = ff_get_buffer(avctx, frame, 0)) < 0)
        return ret;
    for (p = 0; p < s->g.nb_planes; p++)
        av_image_copy_plane(frame->data[p], frame->linesize[p],
                            s->recv + s->g.offset[p], s->g.width[p],
                            s->g.width[p], s->g.height[p]);
    if (refresh)
        frame->flags |= AV_FRAME_FLAG_KEY;
    if (s->stale)
        frame->flags |= AV_FRAME_FLAG_CORRUPT;
    frame->pict_type = refresh ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_P;
    *got_frame = 1;
    return avpkt->size;
}

static void framediff_decode_flush(AVCodecContext *avctx)
{
    FrameDiffDecContext *s = avctx->priv_data;

    /* after a seek, the picture is stale until a refresh */
    if (s->next_index >= 0)
        s->stale = 1;
}

static av_cold int framediff_decode_close(AVCodecContext *avctx)
{
    FrameDiffDecContext *s = avctx->priv_data;

    av_freep(&s->recv);
    av_freep(&s->list);
    return 0;
}

const FFCodec ff_framediff_decoder = {
    .p.name         = "framediff",
    CODEC_LONG_NAME("Frame difference lists (bytes changed beyond a threshold)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_FRAMEDIFF,
    .p.capabilities = AV_CODEC_CAP_DR1,
    .priv_data_size = sizeof(FrameDiffDecContext),
    .init           = framediff_decode_init,
    .close          = framediff_decode_close,
    .flush          = framediff_decode_flush,
    FF_CODEC_DECODE_CB(framediff_decode_frame),
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
