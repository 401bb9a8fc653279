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
 * framediff encoder: the sender's difference list of each frame, compressed
 * by zlib. Frames carrying a list (libavutil/framediff.h, from the
 * framediff or cudadiff filter; of CUDA frames only the side data is
 * read) are sent as listed; the others are differenced here, as framediff
 * does, with the threshold and refresh interval (-g) options.
 */

#include <string.h>
#include <zlib.h>

#include "libavutil/hwcontext.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"

#include "libavcodec/avcodec.h"
#include "libavcodec/codec_internal.h"
#include "libavcodec/encode.h"
#include "libavcodec/hwconfig.h"

#include "difflist.h"
#include "framediff_stream.h"

typedef struct FrameDiffEncContext {
    const AVClass *class;
    int threshold;

    FrameDiffGeometry g;
    enum AVPixelFormat sw_format;
    uint8_t *recv;          ///< R, packed: what the receiver shows
    uint8_t *list;          ///< the list of a frame differenced here
    size_t list_max;
    uint8_t *zbuf;
    uLong zbuf_size;
    uint32_t frame_index;   ///< frames differenced here
    int level;
} FrameDiffEncContext;

static av_cold int framediff_encode_init(AVCodecContext *avctx)
{
    FrameDiffEncContext *s = avctx->priv_data;
    const char *name;
    size_t len;
    int ret;

    s->sw_format = avctx->pix_fmt;
    if (avctx->pix_fmt == AV_PIX_FMT_CUDA) {
        if (!avctx->hw_frames_ctx) {
            av_log(avctx, AV_LOG_ERROR, "CUDA frames without a hardware frames "
                   "context\n");
            return AVERROR(EINVAL);
        }
        s->sw_format = ((AVHWFramesContext *)avctx->hw_frames_ctx->data)->sw_format;
    }
    ret = ff_framediff_list_geometry(&s->g, s->sw_format, avctx->width, avctx->height);
    if (ret < 0) {
        av_log(avctx, AV_LOG_ERROR, "Unsupported picture %dx%d %s: formats of "
               "8-bit samples only\n", avctx->width, avctx->height,
               av_get_pix_fmt_name(s->sw_format));
        return ret;
    }
    s->level = avctx->compression_level == FF_COMPRESSION_DEFAULT ? 1 :
               avctx->compression_level;
    if (s->level < 0 || s->level > 9) {
        av_log(avctx, AV_LOG_ERROR, "Compression level %d out of range [0 - 9]\n",
               avctx->compression_level);
        return AVERROR(EINVAL);
    }

    s->list_max  = ff_framediff_list_size(&s->g, s->g.size);
    s->zbuf_size = compressBound(s->list_max);
    s->recv = av_mallocz(s->g.size);
    s->list = av_malloc(s->list_max);
    s->zbuf = av_malloc(s->zbuf_size);
    if (!s->recv || !s->list || !s->zbuf)
        return AVERROR(ENOMEM);

    name = av_get_pix_fmt_name(s->sw_format);
    len  = strlen(name);
    avctx->extradata = av_mallocz(FRAMEDIFF_EXTRADATA_NAME + len + 1 +
                                  AV_INPUT_BUFFER_PADDING_SIZE);
    if (!avctx->extradata)
        return AVERROR(ENOMEM);
    memcpy(avctx->extradata, FRAMEDIFF_EXTRADATA_TAG, 4);
    avctx->extradata[4] = FRAMEDIFF_EXTRADATA_VERSION;
    memcpy(avctx->extradata + FRAMEDIFF_EXTRADATA_NAME, name, len + 1);
    avctx->extradata_size = FRAMEDIFF_EXTRADATA_NAME + len + 1;
    return 0;
}

static int framediff_encode_frame(AVCodecContext *avctx, AVPacket *pkt,
                                  const AVFrame *frame, int *got_packet)
{
    FrameDiffEncContext *s = avctx->priv_data;
    const AVFrameSideData *sd = av_frame_diff_get_side_data(frame);
    const uint8_t *list;
    size_t size;
    uLongf zlen = s->zbuf_size;
    uint32_t index;
    int refresh, ret;

    if (sd) {
        /* the filter's list, as is; R follows it, for frames without one */
        list = sd->data + AV_FRAME_DIFF_UUID_SIZE;
        size = sd->size - AV_FRAME_DIFF_UUID_SIZE;
        ret  = ff_framediff_list_check_frame(list, size, &s->g, avctx);
        if (ret < 0)
            return ret;
        ff_framediff_list_apply(s->recv, list, &s->g);
        s->frame_index = AV_RL32(list + AV_FRAME_DIFF_OFF_FRAME_INDEX) + 1;
    } else if (frame->format == AV_PIX_FMT_CUDA) {
        av_log(avctx, AV_LOG_ERROR, "CUDA frame without a difference list: "
               "put cudadiff before the encoder, or give it software frames\n");
        return AVERROR(EINVAL);
    } else if (frame->width != avctx->width || frame->height != avctx->height) {
        av_log(avctx, AV_LOG_ERROR, "Frame of %dx%d, but the encoder was opened "
               "for %dx%d\n", frame->width, frame->height, avctx->width, avctx->height);
        return AVERROR(EINVAL);
    } else {
        const int gop = avctx->gop_size;
        refresh = gop > 0 && s->frame_index % gop == 0;
        size = ff_framediff_list_make(s->list, s->recv, frame->data, frame->linesize,
                                      &s->g, refresh ? -1 : s->threshold,
                                      s->threshold, refresh, s->frame_index);
        list = s->list;
        s->frame_index++;
    }
    index   = AV_RL32(list + AV_FRAME_DIFF_OFF_FRAME_INDEX);
    refresh = list[AV_FRAME_DIFF_OFF_FLAGS] & AV_FRAME_DIFF_FLAG_REFRESH;

    if (compress2(s->zbuf, &zlen, list, size, s->level) != Z_OK) {
        av_log(avctx, AV_LOG_ERROR, "zlib failed on a list of %zu bytes\n", size);
        return AVERROR_EXTERNAL;
    }
    if ((ret = ff_get_encode_buffer(avctx, pkt, zlen, 0)) < 0)
        return ret;
    memcpy(pkt->data, s->zbuf, zlen);
    /* the first list, from an all-zero R, and refresh lists need no past */
    if (refresh || index == 0)
        pkt->flags |= AV_PKT_FLAG_KEY;
    *got_packet = 1;
    return 0;
}

static av_cold int framediff_encode_close(AVCodecContext *avctx)
{
    FrameDiffEncContext *s = avctx->priv_data;

    av_freep(&s->recv);
    av_freep(&s->list);
    av_freep(&s->zbuf);
    return 0;
}

#define OFFSET(x) offsetof(FrameDiffEncContext, x)
#define VE AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_ENCODING_PARAM
static const AVOption options[] = {
    { "threshold", "send a byte if it differs from the receiver's by more than this "
      "(frames without a difference list; -g sets their refresh interval, "
      "-compression_level zlib's level, 0..9)", OFFSET(threshold), AV_OPT_TYPE_INT,
      { .i64 = 20 }, 0, 255, VE },
    { NULL },
};

static const AVClass framediff_class = {
    .class_name = "framediff encoder",
    .item_name  = av_default_item_name,
    .option     = options,
    .version    = LIBAVUTIL_VERSION_INT,
};

/* -g: refresh interval of frames differenced here (0: never);
 * -compression_level: zlib's level, 0..9 */
static const FFCodecDefault framediff_defaults[] = {
    { "g",                 "50" },
    { "compression_level", "1"  },
    { NULL },
};

static const AVCodecHWConfigInternal *const framediff_hw_configs[] = {
    HW_CONFIG_ENCODER_FRAMES(CUDA, CUDA),
    NULL,
};

const FFCodec ff_framediff_encoder = {
    .p.name         = "framediff",
    CODEC_LONG_NAME("Frame difference lists (bytes changed beyond a threshold)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_FRAMEDIFF,
    .p.capabilities = AV_CODEC_CAP_DR1,
    .priv_data_size = sizeof(FrameDiffEncContext),
    .init           = framediff_encode_init,
    FF_CODEC_ENCODE_CB(framediff_encode_frame),
    .close          = framediff_encode_close,
    CODEC_PIXFMTS(AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVA420P,
                  AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_NV12,
                  AV_PIX_FMT_NV21, AV_PIX_FMT_GRAY8, AV_PIX_FMT_YUYV422,
                  AV_PIX_FMT_UYVY422, AV_PIX_FMT_RGB24, AV_PIX_FMT_BGR24,
                  AV_PIX_FMT_0RGB, AV_PIX_FMT_RGB0, AV_PIX_FMT_0BGR, AV_PIX_FMT_BGR0,
                  AV_PIX_FMT_RGBA, AV_PIX_FMT_BGRA, AV_PIX_FMT_GBRP,
                  AV_PIX_FMT_CUDA),
    .p.priv_class   = &framediff_class,
    .defaults       = framediff_defaults,
    .hw_configs     = framediff_hw_configs,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
