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
 *
 * With -maxrate and -bufsize the scale is then bounded by the decoder's
 * buffer. There a frame's bits are expected from its input and its kind
 * before it is coded, as ratio x (activity + area) / q^ALPHA
 * (c63_scene.h), with the ratios learnt from keyframes and from inter
 * frames, their mean and a decaying maximum of each: the scale is coarse
 * enough that the frame, were it VBV_SAFETY times as costly as the maximum
 * says, leaves VBV_LOW of the buffer after the frames in flight took as
 * much, and, where the channel never stops (-maxrate = -b:v), fine enough
 * that it takes out what would overflow the buffer, were it VBV_SAFETY
 * times less costly than the mean says.
 */

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libavutil/common.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/encode.h"

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
/* the share of the buffer a frame must leave, were it VBV_SAFETY times
 * as costly as the maximum ratio of its kind says */
#define VBV_LOW     0.1
/* how much costlier than the maximum, or cheaper than the mean, a frame may be */
#define VBV_SAFETY  1.25
/* the weight of the maximum ratio one frame of its kind later */
#define VBV_MAX_DECAY 0.95
/* the ratio until a frame of the kind is known */
#define VBV_RATIO_PRIOR 1.0

/* room for one line of first-pass statistics */
/* lambda = C63_RD_LAMBDA x step^2 (squared error per bit): about what
 * a uniform quantiser at high rate gives, 2 ln 2 / 12. lambda_me =
 * C63_RD_LAMBDA_ME x sqrt(lambda) (SAD per bit). */
#define C63_RD_LAMBDA    0.12
#define C63_RD_LAMBDA_ME 1.0

#define STATS_LINE 96

/* libavcodec's defaults of -qmin and -qmax */
#define QMIN_DEFAULT 2
#define QMAX_DEFAULT 31

/*
 * The first pass's statistics (stats_in): a line per frame, in order,
 * "frame:N key:K q:Q bits:B;". Each frame's complexity at the scale it was
 * coded at is what the second pass plans with.
 */
static int read_stats(C63RateControl *rc, AVCodecContext *avctx)
{
    const char *p = avctx->stats_in;
    int64_t n = 0;

    if (!p || !*p) {
        av_log(avctx, AV_LOG_ERROR, "-pass 2 needs the first pass's statistics (-passlogfile)\n");
        return AVERROR(EINVAL);
    }
    for (const char *c = p; *c; c++)
        n += *c == ';';
    if (n > INT_MAX / sizeof(*rc->stats) || !(rc->stats = av_malloc_array(n, sizeof(*rc->stats))))
        return AVERROR(ENOMEM);
    for (int64_t i = 0; i < n; i++) {
        int64_t frame, bits;
        int key, len = 0;
        double q;
        if (sscanf(p, " frame:%"SCNd64" key:%d q:%lf bits:%"SCNd64";%n", &frame, &key, &q, &bits,
                   &len) != 4 || !len || frame != i || (unsigned)key > 1 ||
            !(q >= C63_QSCALE_MIN && q <= C63_QSCALE_MAX) || bits <= 0 || bits > INT64_MAX / 2) {
            av_log(avctx, AV_LOG_ERROR, "Invalid first-pass statistics at frame %"PRId64"\n", i);
            return AVERROR_INVALIDDATA;
        }
        rc->stats[i].key  = key;
        rc->stats[i].cplx = bits * pow(q, ALPHA);
        rc->cplx_left    += rc->stats[i].cplx;
        p += len;
    }
    if (!n) {
        av_log(avctx, AV_LOG_ERROR, "The first pass's statistics have no frames\n");
        return AVERROR_INVALIDDATA;
    }
    rc->nb_stats = n;
    return 0;
}

/* The buffer model of -maxrate, -bufsize and -rc_init_occupancy. */
static int vbv_init(C63RateControl *rc, AVCodecContext *avctx, double fps)
{
    if (!avctx->rc_max_rate && !avctx->rc_min_rate && !avctx->rc_buffer_size &&
        !avctx->rc_initial_buffer_occupancy)
        return 0;
    if (avctx->rc_max_rate <= 0 || avctx->rc_buffer_size <= 0) {
        av_log(avctx, AV_LOG_ERROR, "A buffer model needs both -maxrate and -bufsize\n");
        return AVERROR(EINVAL);
    }
    if (avctx->rc_max_rate < avctx->bit_rate) {
        av_log(avctx, AV_LOG_ERROR, "-maxrate %"PRId64" is below -b:v %"PRId64"\n",
               avctx->rc_max_rate, avctx->bit_rate);
        return AVERROR(EINVAL);
    }
    if (avctx->rc_min_rate && (avctx->rc_min_rate != avctx->rc_max_rate ||
                               avctx->rc_min_rate != avctx->bit_rate)) {
        av_log(avctx, AV_LOG_ERROR, "-minrate applies only as a constant bitrate, equal to "
               "-b:v and -maxrate\n");
        return AVERROR(EINVAL);
    }
    if (avctx->rc_initial_buffer_occupancy < 0 ||
        avctx->rc_initial_buffer_occupancy > avctx->rc_buffer_size) {
        av_log(avctx, AV_LOG_ERROR, "-rc_init_occupancy %d out of range 0..%d (-bufsize)\n",
               avctx->rc_initial_buffer_occupancy, avctx->rc_buffer_size);
        return AVERROR(EINVAL);
    }
    rc->vbv        = avctx->rc_max_rate == avctx->bit_rate ? C63_VBV_CONSTANT : C63_VBV_CAPPED;
    rc->vbv_size   = avctx->rc_buffer_size;
    rc->vbv_in     = avctx->rc_max_rate / fps;
    /* libavcodec's default: three quarters of the buffer */
    rc->vbv_fill   = avctx->rc_initial_buffer_occupancy ? avctx->rc_initial_buffer_occupancy
                                                        : avctx->rc_buffer_size * 3.0 / 4;
    rc->pixels     = (double)avctx->width * avctx->height;
    /* at a constant bitrate the bits over or short of the target are what
     * the buffer lost or gained: catch them up within half of it */
    if (rc->vbv == C63_VBV_CONSTANT)
        rc->buffer_bits = FFMIN(rc->buffer_bits, rc->vbv_size / 2);
    return 0;
}

/* Frame n of size bits leaves the buffer, and the bits of a frame's time
 * arrive. */
static void vbv_update(C63RateControl *rc, AVCodecContext *avctx, int64_t n, double bits)
{
    if (bits > rc->vbv_fill) {
        rc->nb_under++;
        av_log(avctx, AV_LOG_WARNING, "Frame %"PRId64" underflows the buffer by %.0f bits\n",
               n, bits - rc->vbv_fill);
    }
    rc->vbv_fill = FFMAX(rc->vbv_fill - bits, 0) + rc->vbv_in;
    if (rc->vbv_fill > rc->vbv_size) {
        if (rc->vbv == C63_VBV_CONSTANT) {
            rc->nb_over++;
            av_log(avctx, AV_LOG_WARNING, "Frame %"PRId64" overflows the buffer by %.0f bits\n",
                   n, rc->vbv_fill - rc->vbv_size);
        }
        rc->vbv_fill = rc->vbv_size;
    }
}

/* The bits of frame slot i at scale q from the ratios of its kind, their
 * mean (m = 0) or maximum (m = 1); a frame of unknown kind is taken as the
 * costlier. */
static double vbv_bits(const C63RateControl *rc, int i, double q, int m)
{
    const double key   = rc->ratio_key[m] ? rc->ratio_key[m] : VBV_RATIO_PRIOR;
    const double inter = rc->ratio_inter[m] ? rc->ratio_inter[m] : key;
    const double ratio = rc->key[i] > 0 ? key : rc->key[i] ? FFMAX(key, inter) : inter;

    return ratio * (rc->act[i] + rc->pixels) * pow(q, -ALPHA);
}

/* The scale q of frame n bounded by the buffer (see the top). */
static double vbv_q(C63RateControl *rc, int64_t n, double q)
{
    const int slot = n % (C63_RC_LAG + 1);
    double low = rc->vbv_fill, high = rc->vbv_fill, room;

    /* the frames in flight: costlier (low) and less costly (high) */
    for (int64_t j = rc->nb_done; j < n; j++) {
        const int i = j % (C63_RC_LAG + 1);
        low  = FFMAX(low  - VBV_SAFETY * vbv_bits(rc, i, rc->q[i], 1), 0) + rc->vbv_in;
        high = FFMAX(high - vbv_bits(rc, i, rc->q[i], 0) / VBV_SAFETY, 0) + rc->vbv_in;
        low  = FFMIN(low,  rc->vbv_size);
        high = FFMIN(high, rc->vbv_size);
    }
    /* the bits at scale 1 give the scale of any bits: q = (bits1 / bits)^(1 / ALPHA) */
    if (rc->vbv == C63_VBV_CONSTANT && high + rc->vbv_in > rc->vbv_size)
        q = FFMIN(q, pow(vbv_bits(rc, slot, 1, 0) / VBV_SAFETY /
                         (high + rc->vbv_in - rc->vbv_size), 1 / ALPHA));
    room = low - VBV_LOW * rc->vbv_size;
    return room > 0 ? FFMAX(q, pow(VBV_SAFETY * vbv_bits(rc, slot, 1, 1) / room, 1 / ALPHA))
                    : C63_QSCALE_MAX;
}

int ff_c63_rc_init(C63RateControl *rc, AVCodecContext *avctx, int qp)
{
    const int cq = !!(avctx->flags & AV_CODEC_FLAG_QSCALE);
    const int qlimits = avctx->qmin != QMIN_DEFAULT || avctx->qmax != QMAX_DEFAULT;
    double fps;
    int ret;

    memset(rc, 0, sizeof(*rc));
    rc->mode = C63_RC_QUALITY;
    rc->pass = avctx->flags & AV_CODEC_FLAG_PASS1 ? 1 : avctx->flags & AV_CODEC_FLAG_PASS2 ? 2 : 0;
    if (rc->pass && (cq || avctx->bit_rate <= 0)) {
        av_log(avctx, AV_LOG_ERROR, "-pass needs -b:v (and no -q:v)\n");
        return AVERROR(EINVAL);
    }
    if ((avctx->rc_max_rate > 0 || avctx->rc_min_rate > 0 || avctx->rc_buffer_size ||
         avctx->rc_initial_buffer_occupancy) && (cq || avctx->bit_rate <= 0)) {
        av_log(avctx, AV_LOG_ERROR, "-maxrate, -minrate, -bufsize and -rc_init_occupancy "
               "apply only with -b:v\n");
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
    if ((ret = vbv_init(rc, avctx, fps)) < 0)
        return ret;
    /* the first C63_RC_LAG frames: the scale that the model gives at the
     * bits per pixel asked for */
    rc->qscale = av_clipd(pow(rc->frame_bits / ((double)avctx->width * avctx->height) / BPP_AT_Q1,
                              -1 / ALPHA), rc->qmin, rc->qmax);
    if (rc->pass == 1 && !(avctx->stats_out = av_mallocz(STATS_LINE)))
        return AVERROR(ENOMEM);
    if (rc->pass == 2)
        return read_stats(rc, avctx);
    return 0;
}

/* the size of frame nb_done into the model */
static void take_in(C63RateControl *rc, AVCodecContext *avctx)
{
    const int i = rc->nb_done++ % (C63_RC_LAG + 1);
    /* a frame whose packet was lost (an error the caller has had) counts
     * as what it was given */
    const double bits = rc->bits[i] >= 0 ? rc->bits[i] : rc->frame_bits;
    const double cplx = bits * pow(rc->q[i], ALPHA);

    if (rc->key[i] > 0) {
        rc->cplx_key = rc->nb_key++ ? (rc->cplx_key + cplx) / 2 : cplx;
    } else {
        rc->cplx_inter_sum = rc->cplx_inter_sum * DECAY + cplx;
        rc->inter_weight   = rc->inter_weight   * DECAY + 1;
    }
    if (rc->vbv) {
        const double ratio = cplx / (rc->act[i] + rc->pixels);
        double *r = rc->key[i] > 0 ? rc->ratio_key : rc->ratio_inter;
        r[0] = r[0] ? (r[0] + ratio) / 2 : ratio;
        r[1] = FFMAX(r[1] * VBV_MAX_DECAY, ratio);
        av_log(avctx, AV_LOG_DEBUG, "rc: frame %"PRId64"%s: %.0f bits, complexity / (activity "
               "+ area) %.3f\n", rc->nb_done - 1, rc->key[i] > 0 ? " (key)" : "", bits, ratio);
        vbv_update(rc, avctx, rc->nb_done - 1, bits);
    }
    rc->bits_total   += bits;
    rc->wanted_total += rc->frame_bits;
    if (rc->pass == 2)
        rc->predicted += rc->stats[rc->nb_done - 1].cplx * pow(rc->q[i], -ALPHA);
}

/* Second pass: the scale at which the frames from n on cost what is left
 * of the budget of all the first pass's frames, once the frame in flight
 * is counted; the model is corrected by what the frames so far cost
 * against what it predicted for them. */
static double second_pass_q(C63RateControl *rc, int64_t n)
{
    const double fix = rc->predicted > 0 ? rc->bits_total / rc->predicted : 1;
    double left = rc->frame_bits * rc->nb_stats - rc->bits_total;

    for (int64_t j = rc->nb_done; j < n; j++)
        left -= fix * rc->stats[j].cplx * pow(rc->q[j % (C63_RC_LAG + 1)], -ALPHA);
    if (left <= 0)
        return rc->qmax * 2;
    return pow(fix * rc->cplx_left / left, 1 / ALPHA);
}

int ff_c63_rc_frame_q(C63RateControl *rc, AVCodecContext *avctx, int64_t n, int key,
                      uint64_t activity, double *qscale)
{
    const int slot = n % (C63_RC_LAG + 1);
    double q;

    if (rc->mode != C63_RC_ABR) {
        *qscale = rc->mode == C63_RC_CQ ? rc->qscale : 0;
        return 0;
    }
    if (rc->pass == 2 && n >= rc->nb_stats) {
        av_log(avctx, AV_LOG_ERROR, "Frame %"PRId64" is past the %"PRId64" frames of the first "
               "pass: the input of the two passes must be the same\n", n, rc->nb_stats);
        return AVERROR(EINVAL);
    }

    /* take in the frames that are C63_RC_LAG or more before this one */
    while (rc->nb_done <= n - C63_RC_LAG)
        take_in(rc, avctx);
    /* the complexity of the frames from n on (second pass) */
    while (rc->pass == 2 && rc->nb_planned < n)
        rc->cplx_left -= rc->stats[rc->nb_planned++].cplx;

    if (rc->pass == 2) {
        q = second_pass_q(rc, n);
        rc->nb_above += q > rc->qmax;
        rc->nb_below += q < rc->qmin;
        q = av_clipd(q, rc->qmin, rc->qmax);
    } else if (!rc->nb_done) {
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
        av_log(avctx, AV_LOG_DEBUG, "rc: frame %"PRId64": complexity %.0f (key %.0f, "
               "inter %.0f), %.0f bits over, scale %.3f\n", n, cplx,
               rc->cplx_key, cplx_inter, rc->bits_total - rc->wanted_total, q);
    }
    rc->act[slot] = activity;
    rc->key[slot] = key;
    /* the buffer may take the scale past -qmin and -qmax */
    if (rc->vbv)
        q = av_clipd(vbv_q(rc, n, q), C63_QSCALE_MIN, C63_QSCALE_MAX);
    rc->q[slot]    = q;
    rc->bits[slot] = -1;
    *qscale = q;
    return 0;
}

int ff_c63_rc_packet(C63RateControl *rc, AVCodecContext *avctx, int64_t n, AVPacket *pkt,
                     double qscale, int key)
{
    const int slot = n % (C63_RC_LAG + 1);
    const int64_t bits = 8 * (int64_t)pkt->size;

    if (rc->mode == C63_RC_ABR) {
        rc->bits[slot] = bits;
        rc->key[slot]  = key;
        if (rc->pass == 1)
            snprintf(avctx->stats_out, STATS_LINE, "frame:%"PRId64" key:%d q:%.17g bits:%"PRId64";\n",
                     n, key, rc->q[slot], bits);
        if (rc->pass == 2 && key != rc->stats[n].key && !rc->key_warned) {
            av_log(avctx, AV_LOG_WARNING, "Frame %"PRId64" is %s keyframe in this pass and %s in "
                   "the first: use the same options and input in both\n", n,
                   key ? "a" : "not a", rc->stats[n].key ? "one" : "not");
            rc->key_warned = 1;
        }
    }
    if (!qscale)
        return 0;
    return ff_encode_add_stats_side_data(pkt, lrint(qscale * FF_QP2LAMBDA), NULL, 0,
                                         key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_P);
}

void ff_c63_rc_uninit(C63RateControl *rc, AVCodecContext *avctx)
{
    av_freep(&rc->stats);
    if (rc->pass == 1)
        av_freep(&avctx->stats_out);
}

void ff_c63_rc_end(C63RateControl *rc, AVCodecContext *avctx, int64_t nb_frames)
{
    double off;

    if (rc->mode != C63_RC_ABR || rc->ended)
        return;
    rc->ended = 1;
    while (rc->nb_done < nb_frames)
        take_in(rc, avctx);
    if (!rc->nb_done)
        return;
    off = rc->bits_total / rc->wanted_total - 1;
    if (rc->nb_above && off > 0.02)
        av_log(avctx, AV_LOG_WARNING, "The stream is %.1f%% above the bitrate asked for: "
               "%"PRId64" of %"PRId64" frames needed a scale coarser than -qmax %g (at most %d)\n",
               100 * off, rc->nb_above, rc->nb_done, rc->qmax, C63_QSCALE_MAX);
    if (rc->nb_under || rc->nb_over)
        av_log(avctx, AV_LOG_WARNING, "%"PRId64" of %"PRId64" frames underflowed and %"PRId64
               " overflowed the buffer (-bufsize %.0f bits at -maxrate)\n", rc->nb_under,
               rc->nb_done, rc->nb_over, rc->vbv_size);
    if (rc->nb_below && off < -0.02)
        av_log(avctx, AV_LOG_WARNING, "The stream is %.1f%% below the bitrate asked for: "
               "%"PRId64" of %"PRId64" frames needed a scale finer than -qmin %g (at least %d)\n",
               -100 * off, rc->nb_below, rc->nb_done, rc->qmin, C63_QSCALE_MIN);
}

void ff_c63_rd_params(C63RDParams *rd, const uint8_t q[3][64], int trellis, int modes)
{
    double lambda;
    int sum = 0;

    for (int k = 0; k < 16; k++)
        sum += q[0][k];
    lambda = C63_RD_LAMBDA * (sum / 16.0) * (sum / 16.0);
    rd->lambda    = trellis ? llrint(256 * lambda) : 0;
    rd->dc        = trellis == 2;
    rd->lambda_me = modes ? lrint(16 * C63_RD_LAMBDA_ME * sqrt(lambda)) : 0;
    rd->modes     = modes;
}

int ff_c63_own_choices(const AVCodecContext *avctx, const C63RateControl *rc, int tables,
                       int rd_modes, int sc_threshold, int *sc)
{
    const int own = rc->mode != C63_RC_QUALITY || tables != C63_TABLES_ANNEXK ||
                    avctx->trellis || rd_modes;

    *sc = sc_threshold >= 0 ? sc_threshold : own ? C63_SC_THRESHOLD_DEFAULT : 0;
    return own || *sc;
}
