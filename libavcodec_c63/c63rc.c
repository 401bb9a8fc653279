/*
 * Codec63 rate control: the quantiser scale of each frame
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

/**
 * @file
 * One-pass average bitrate control and constant quantiser scale for the
 * c63 encoder. The scale q makes the tables base * q / 10 (c63.h); the
 * -quality factor qp is the scale 100 / qp. A frame's bits are modelled as
 * complexity / q^ALPHA, with one complexity for keyframes and one for
 * inter frames (the latter decayed so that it follows the content): they
 * give the scale at which frames cost what they are given on average, and
 * the bits spent beyond (or short of) what the frames so far were given
 * scale it up (down) until they are caught up.
 */

#include <math.h>
#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/common.h"
#include "libavutil/log.h"
#include "libavcodec/avcodec.h"

#include "c63.h"
#include "c63rc.h"

/* bits ~ q^-ALPHA: fitted to whole streams of camera footage at quality
 * 10, 25 and 50 (0.32, 0.46 and 0.72 bits per pixel at 768x576) */
#define ALPHA       0.5
#define BPP_AT_Q1   1.0
/* weight of an inter frame's complexity one frame later */
#define DECAY       0.98
/* the bits spent beyond what was given that double the scale, in seconds
 * of the bitrate */
#define BUFFER_SECS 1.0

/* libavcodec's defaults of -qmin and -qmax */
#define QMIN_DEFAULT 2
#define QMAX_DEFAULT 31

int ff_c63_rc_init(C63RateControl *rc, AVCodecContext *avctx, int qp)
{
    const int cq = !!(avctx->flags & AV_CODEC_FLAG_QSCALE);
    const int qlimits = avctx->qmin != QMIN_DEFAULT || avctx->qmax != QMAX_DEFAULT;
    double fps;

    memset(rc, 0, sizeof(*rc));
    rc->mode = C63_RC_QUALITY;
    if (avctx->rc_max_rate > 0 || avctx->rc_min_rate > 0 || avctx->rc_buffer_size != 0 ||
        avctx->flags & (AV_CODEC_FLAG_PASS1 | AV_CODEC_FLAG_PASS2)) {
        av_log(avctx, AV_LOG_ERROR,
               "-minrate, -maxrate, -bufsize and -pass are not supported: "
               "c63 controls the average bitrate (-b:v) or codes at a constant scale (-q:v)\n");
        return AVERROR(EINVAL);
    }
    if (!cq && avctx->bit_rate <= 0) {
        if (qlimits) {
            av_log(avctx, AV_LOG_ERROR, "-qmin and -qmax apply only with -b:v\n");
            return AVERROR(EINVAL);
        }
        return 0;
    }
    if (cq && avctx->bit_rate > 0) {
        av_log(avctx, AV_LOG_ERROR, "-q:v and -b:v cannot be used together\n");
        return AVERROR(EINVAL);
    }
    if (qp != C63_QP_DEFAULT) {
        av_log(avctx, AV_LOG_ERROR, "-quality applies only without -b:v and -q:v\n");
        return AVERROR(EINVAL);
    }

    if (cq) {
        if (qlimits) {
            av_log(avctx, AV_LOG_ERROR, "-qmin and -qmax apply only with -b:v\n");
            return AVERROR(EINVAL);
        }
        rc->mode   = C63_RC_CQ;
        rc->qscale = avctx->global_quality / (double)FF_QP2LAMBDA;
        if (rc->qscale < C63_QSCALE_MIN || rc->qscale > C63_QSCALE_MAX) {
            av_log(avctx, AV_LOG_ERROR, "Quantiser scale (-q:v) %g out of range %d..%d\n",
                   rc->qscale, C63_QSCALE_MIN, C63_QSCALE_MAX);
            return AVERROR(EINVAL);
        }
        return 0;
    }

    rc->mode = C63_RC_ABR;
    rc->qmin = avctx->qmin;
    rc->qmax = avctx->qmax;
    if (avctx->qmin < C63_QSCALE_MIN || avctx->qmax > C63_QSCALE_MAX || avctx->qmin > avctx->qmax) {
        av_log(avctx, AV_LOG_ERROR,
               "Quantiser scale bounds -qmin %d, -qmax %d: need %d <= qmin <= qmax <= %d\n",
               avctx->qmin, avctx->qmax, C63_QSCALE_MIN, C63_QSCALE_MAX);
        return AVERROR(EINVAL);
    }
    if (avctx->framerate.num > 0 && avctx->framerate.den > 0)
        fps = av_q2d(avctx->framerate);
    else if (avctx->time_base.num > 0 && avctx->time_base.den > 0)
        fps = 1 / av_q2d(avctx->time_base);
    else {
        av_log(avctx, AV_LOG_ERROR, "-b:v needs the frame rate (or time base) of the input\n");
        return AVERROR(EINVAL);
    }
    rc->frame_bits  = avctx->bit_rate / fps;
    rc->key_share   = 1.0 / avctx->gop_size;
    rc->buffer_bits = avctx->bit_rate * BUFFER_SECS;
    /* the first C63_RC_LAG frames: the scale that the model gives at the
     * bits per pixel asked for */
    rc->qscale = av_clipd(pow(rc->frame_bits / ((double)avctx->width * avctx->height) / BPP_AT_Q1,
                              -1 / ALPHA), rc->qmin, rc->qmax);
    return 0;
}

/* the size of frame nb_done into the model */
static void take_in(C63RateControl *rc)
{
    const int i = rc->nb_done++ % (C63_RC_LAG + 1);
    const double cplx = rc->bits[i] * pow(rc->q[i], ALPHA);

    av_assert0(rc->bits[i] >= 0);
    if (rc->key[i]) {
        rc->cplx_key = rc->nb_key++ ? (rc->cplx_key + cplx) / 2 : cplx;
    } else {
        rc->cplx_inter_sum = rc->cplx_inter_sum * DECAY + cplx;
        rc->inter_weight   = rc->inter_weight   * DECAY + 1;
    }
    rc->bits_total   += rc->bits[i];
    rc->wanted_total += rc->frame_bits;
}

double ff_c63_rc_frame_q(C63RateControl *rc, AVCodecContext *avctx, int64_t n, int key)
{
    const int slot = n % (C63_RC_LAG + 1);
    double q;

    if (rc->mode != C63_RC_ABR)
        return rc->mode == C63_RC_CQ ? rc->qscale : 0;

    /* take in the frames that are C63_RC_LAG or more before this one */
    while (rc->nb_done <= n - C63_RC_LAG)
        take_in(rc);

    if (!rc->nb_done) {
        q = rc->qscale;
    } else {
        /* one scale for both kinds of frame, at which a stretch of frames
         * with keyframes as often as -g has them would cost what it is
         * given (the keyframes' complexity stands for the inter frames'
         * until one of those is known) */
        const double cplx_inter = rc->inter_weight ? rc->cplx_inter_sum / rc->inter_weight
                                                   : rc->cplx_key;
        const double cplx = rc->key_share * rc->cplx_key + (1 - rc->key_share) * cplx_inter;
        const double overflow = av_clipd(1 + (rc->bits_total - rc->wanted_total) / rc->buffer_bits,
                                         0.5, 2.0);
        q = pow(cplx / rc->frame_bits, 1 / ALPHA) * overflow;
        rc->nb_above += q > rc->qmax;
        rc->nb_below += q < rc->qmin;
        q = av_clipd(q, rc->qmin, rc->qmax);
        av_log(avctx, AV_LOG_DEBUG, "rc: frame %"PRId64"%s: complexity %.0f (key %.0f, "
               "inter %.0f), %.0f bits over, scale %.3f\n", n, key ? " (key)" : "", cplx,
               rc->cplx_key, cplx_inter, rc->bits_total - rc->wanted_total, q);
    }
    rc->q[slot]    = q;
    rc->key[slot]  = key;
    rc->bits[slot] = -1;
    return q;
}

void ff_c63_rc_frame_done(C63RateControl *rc, int64_t n, int64_t bits)
{
    if (rc->mode == C63_RC_ABR)
        rc->bits[n % (C63_RC_LAG + 1)] = bits;
}

void ff_c63_rc_end(C63RateControl *rc, AVCodecContext *avctx, int64_t nb_frames)
{
    double off;

    if (rc->mode != C63_RC_ABR)
        return;
    while (rc->nb_done < nb_frames)
        take_in(rc);
    if (!rc->nb_done)
        return;
    off = rc->bits_total / rc->wanted_total - 1;
    if (rc->nb_above && off > 0.02)
        av_log(avctx, AV_LOG_WARNING, "The stream is %.1f%% above the bitrate asked for: "
               "%"PRId64" of %"PRId64" frames needed a scale coarser than -qmax %g (at most %d)\n",
               100 * off, rc->nb_above, rc->nb_done, rc->qmax, C63_QSCALE_MAX);
    if (rc->nb_below && off < -0.02)
        av_log(avctx, AV_LOG_WARNING, "The stream is %.1f%% below the bitrate asked for: "
               "%"PRId64" of %"PRId64" frames needed a scale finer than -qmin %g (at least %d)\n",
               -100 * off, rc->nb_below, rc->nb_done, rc->qmin, C63_QSCALE_MIN);
}
