/*
 * Codec63 encoder (CPU)
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
 * Codec63 encoder, bit-exact with the reference encoder: full-search motion
 * estimation against the previous reconstruction, float DCT, JPEG-style
 * entropy coding. Also the CPU twin of the c63_cuda encoder.
 *
 * The MCU rows of up to two frames run on the caller's thread and worker
 * threads (c63enc_thread.c); the jobs they run are here.
 */

#include <math.h>
#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/imgutils.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/codec_internal.h"
#include "libavcodec/encode.h"
#include "libavcodec/me_cmp.h"
#include "libavcodec/threadprogress.h"

#include "c63.h"
#include "c63dsp.h"
#include "c63enc.h"
#include "c63enc_thread.h"
#include "c63me.h"
#include "c63rc.h"
#include "c63scene.h"

/* The buffers a frame fills; the frame two after it takes them again, once
 * its packet is out. */
typedef struct C63EncBuffers {
    uint8_t      *orig[3];          ///< padded input planes
    uint8_t       q[3][64];         ///< the frame's quantisation tables
    double        qscale;           ///< their scale (rate control), or 0
    C63RDParams   rd;               ///< the lambdas for those tables
    C63CodedFrame coded;
    int          *dcz;              ///< -trellis 2: each block's exact DC (z4)
    uint8_t      *dcb;              ///< -trellis 2: the DC chain's way back
    C63Writer     writer;
} C63EncBuffers;

typedef struct C63EncContext {
    const AVClass *class;
    int qp;
    int tables;
    int mv_rd;
    int intra_rd;
    int sc_threshold;               ///< -sc_threshold
    int rd_modes;                   ///< C63_RD_MV | C63_RD_INTRA, as the options ask
    int sc;                         ///< the scene-cut threshold used (0: none)

    C63DSPContext dsp;
    MECmpContext  mecc;
    C63Geometry   geo;
    int           range[3];
    int           reach;            ///< MCU rows above and below a row that its search reads
    uint8_t       q[3][64];         ///< the tables of -quality
    C63RateControl rc;
    int           limit_ac;         ///< not the reference's choices: AC levels limited
    unsigned      hist[2][C63_SC_BINS]; ///< luma histograms of the last two frames submitted

    uint8_t      *recon[2][3];      ///< padded reconstructions
    uint16_t     *bsum[2][3];       ///< 8x2 sums of recon[0] and recon[1]
    C63EncBuffers buf[MAX_INFLIGHT];
    C63EncThreads th;               ///< the frames in flight and the threads

    AVFrame      *in;
    int64_t       nb_submitted;     ///< frames submitted
    int64_t       nb_output;        ///< frames output (or dropped by an error)
    int           since_key;
    int           cur;              ///< the last submitted frame's recon index
    int           eof;
    int           error;            ///< after a lost packet, every call fails
} C63EncContext;

static av_cold int c63_encode_init(AVCodecContext *avctx)
{
    C63EncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    size_t total;
    int ret;

    if ((ret = ff_c63_encode_check(avctx, s->qp, s->range)) < 0 ||
        (ret = ff_c63_rc_init(&s->rc, avctx, s->qp)) < 0)
        return ret;

    ff_c63_geometry(&s->geo, avctx->width, avctx->height);
    /* luma: range pixels around 16-pixel rows; chroma: range / 2 around 8 */
    s->reach = (s->range[0] + 15) / 16;
    ff_c63_quant_tables(s->q, s->tables, s->qp);
    s->rd_modes = (s->mv_rd ? C63_RD_MV : 0) | (s->intra_rd ? C63_RD_INTRA : 0);
    s->limit_ac = ff_c63_own_choices(avctx, &s->rc, s->tables, s->rd_modes, s->sc_threshold,
                                     &s->sc);
    ff_c63_init_huff_codes();
    ff_c63dsp_init(&s->dsp);
    ff_me_cmp_init(&s->mecc, avctx);
    if ((ret = ff_c63enc_thread_init(&s->th, avctx, s, g->mb_h)) < 0)
        return ret;

    /* Coefficients and vectors of the three planes in one buffer each. */
    total = (size_t)g->w[0] * g->h[0] + 2 * (size_t)g->w[1] * g->h[1];
    for (int i = 0; i < s->th.depth; i++) {
        C63EncBuffers *b = &s->buf[i];
        b->coded.coef[0] = av_malloc_array(total, sizeof(int16_t));
        b->coded.mv[0]   = av_calloc(total / 64, sizeof(C63MV));
        if (!b->coded.coef[0] || !b->coded.mv[0])
            return AVERROR(ENOMEM);
        if (avctx->trellis == 2 &&
            (!(b->dcz = av_malloc_array(total / 64, sizeof(*b->dcz))) ||
             !(b->dcb = av_malloc(total / 64))))
            return AVERROR(ENOMEM);
        for (int p = 0; p < 3; p++) {
            if (!(b->orig[p] = av_mallocz((size_t)g->w[p] * g->h[p])))
                return AVERROR(ENOMEM);
            if (p) {
                b->coded.coef[p] = b->coded.coef[p - 1] + (size_t)g->w[p - 1] * g->h[p - 1];
                b->coded.mv[p]   = b->coded.mv[p - 1] + (size_t)g->w[p - 1] * g->h[p - 1] / 64;
            }
        }
    }
    for (int p = 0; p < 3; p++) {
        size_t n = (size_t)g->w[p] * g->h[p];
        s->recon[0][p] = av_mallocz(n);
        s->recon[1][p] = av_mallocz(n);
        /* zeroed: me_search reads (and ignores) entries past the last
         * position a row's sums are computed for */
        s->bsum[0][p]  = av_calloc(n, sizeof(*s->bsum[0][p]));
        s->bsum[1][p]  = av_calloc(n, sizeof(*s->bsum[1][p]));
        if (!s->recon[0][p] || !s->recon[1][p] || !s->bsum[0][p] || !s->bsum[1][p])
            return AVERROR(ENOMEM);
    }
    if (!(s->in = av_frame_alloc()))
        return AVERROR(ENOMEM);
    s->since_key = avctx->gop_size;
    return 0;
}

/* 8x2 sums of reconstruction i (planes) for the rows of MCU row v, into
 * bsum[i]. */
static void bsum_rows(C63EncContext *s, int i, int v)
{
    for (int p = 0; p < 3; p++) {
        int rows = p ? 8 : 16;
        ff_c63_block_sums(&s->dsp, s->bsum[i][p], s->recon[i][p], s->geo.w[p], s->geo.h[p],
                          v * rows, rows);
    }
}

/* Wait until MCU row v of f is reconstructed (v may be outside the
 * frame: nothing to wait for). */
static void row_wait(const C63EncContext *s, const C63EncFrame *f, int v)
{
    if (v >= 0 && v < s->geo.mb_h)
        ff_thread_progress_await(&f->row_done[v], 1);
}

/* The reference decoder reads the luma AC code of run 0, size 10 wrongly
 * (docs/c63-format.md, quirk Q3): luma AC levels are kept to size 9, the
 * others to size 10, the largest an AC code has. */
static void limit_ac(int16_t *coef, int p)
{
    const int lim = p ? 1023 : 511;
    for (int k = 1; k < 64; k++)
        coef[k] = av_clip(coef[k], -lim, lim);
}

static int has_ac(const int16_t *coef)
{
    int any = 0;
    for (int k = 1; k < 64; k++)
        any |= coef[k];
    return any != 0;
}

/* Reconstruct block (bx, by) of plane p from its levels and vector. */
static void reconstruct(const C63RowCoding *c, int p, int bx, int by)
{
    const ptrdiff_t stride = c->g->w[p];
    const size_t bi = (size_t)by * (stride / 8) + bx;
    const uint8_t *pred = NULL;

    if (!c->coded->keyframe && c->coded->mv[p][bi].x != C63_MV_INTRA)
        pred = c->ref[p] + (8 * by + c->coded->mv[p][bi].y) * stride + 8 * bx +
               c->coded->mv[p][bi].x;
    c->dsp->dequant_idct_add(c->rec[p] + 8 * by * stride + 8 * bx, stride, pred, stride,
                             c->coded->coef[p] + 64 * bi, c->q[p], 8);
}

void ff_c63_encode_row(const C63RowCoding *c, int v)
{
    const C63Geometry *g = c->g;
    const AVFrame *frame = c->src;
    const int key = c->coded->keyframe;
    const C63RDParams *rd = c->rd;
    int16_t res[64];
    int z4[64];

    /* The row's input into the padded planes (only this row reads it). */
    for (int p = 0; p < 3; p++) {
        const int rows = p ? 8 : 16, y0 = v * rows;
        const int w = p ? AV_CEIL_RSHIFT(g->width,  1) : g->width;
        const int h = p ? AV_CEIL_RSHIFT(g->height, 1) : g->height;
        if (y0 < h)
            av_image_copy_plane(c->orig[p] + (ptrdiff_t)y0 * g->w[p], g->w[p],
                                frame->data[p] + (ptrdiff_t)y0 * frame->linesize[p],
                                frame->linesize[p], w, FFMIN(rows, h - y0));
    }

    for (int p = 0; p < 3; p++) {
        const ptrdiff_t stride = g->w[p];
        const int bw = g->w[p] / 8, rows = p ? 1 : 2;
        const size_t first = (size_t)(c->coded->coef[p] - c->coded->coef[0]) / 64;
        const uint8_t *ref = c->ref[p];
        const uint16_t *ref_sums = c->ref_sums[p];

        for (int by = v * rows; by < (v + 1) * rows; by++) {
            for (int bx = 0; bx < bw; bx++) {
                size_t bi = (size_t)by * bw + bx;
                const uint8_t *src = c->orig[p] + 8 * by * stride + 8 * bx;
                const uint8_t *pred = NULL;
                int16_t *coef = c->coded->coef[p] + 64 * bi;

                if (!key) {
                    C63MV mv = c->dsp->me_search != ff_c63_me_search_c ?
                        ff_c63_motion_search_full(c->dsp, c->orig[p], ref, ref_sums,
                                                  g->w[p], g->h[p], bx, by, c->range[p]) :
                        ff_c63_motion_search(c->mecc, c->orig[p], ref, ref_sums,
                                             g->w[p], g->h[p], bx, by, c->range[p]);
                    if (rd->lambda_me) {
                        const C63MV l = bx ? c->coded->mv[p][bi - 1] : mv;
                        const C63ECMV left = { l.x, l.y };
                        const C63ECMV v = c63_rd_choose_mv(src, ref, g->w[p], g->h[p], bx, by,
                                                           (C63ECMV){ mv.x, mv.y },
                                                           bx ? &left : NULL, rd->lambda_me,
                                                           rd->modes, c->q[p][0]);
                        mv.x = v.x;
                        mv.y = v.y;
                    }
                    c->coded->mv[p][bi] = mv;
                    if (mv.x != C63_MV_INTRA)
                        pred = ref + (8 * by + mv.y) * stride + 8 * bx + mv.x;
                }
                c->dsp->sub_pred(res, src, stride, pred, stride);
                c->dsp->fdct_quant(coef, res, c->q[p]);
                if (c->limit_ac)
                    limit_ac(coef, p);
                /* the trellis only makes levels smaller: a block without
                 * AC levels has nothing for it */
                if (rd->dc || (rd->lambda && has_ac(coef))) {
                    ff_c63_fdct_z4(z4, res);
                    if (has_ac(coef))
                        c63_rd_quant(coef, z4, c->q[p], ff_c63_huff.ac_len[!!p], rd->lambda);
                    if (rd->dc)
                        c->dcz[first + bi] = z4[0];
                }
                /* with the DC chain, the row is reconstructed once it is
                 * decided */
                if (!rd->dc)
                    reconstruct(c, p, bx, by);
            }
        }
        if (rd->dc) {
            c63_rd_dc_chain(c->coded->coef[p], c->dcz + first, c->dcb + first, bw, v, !p,
                            c->q[p][0], ff_c63_huff.dc_len[!!p], rd->lambda);
            for (int by = v * rows; by < (v + 1) * rows; by++)
                for (int bx = 0; bx < bw; bx++)
                    reconstruct(c, p, bx, by);
        }
    }
}

void ff_c63enc_job_row(C63EncContext *s, C63EncFrame *f, int v)
{
    const C63Geometry *g = &s->geo;
    const C63EncFrame *prev = f->prev;
    C63EncBuffers *b = f->buf;
    C63RowCoding c = {
        .dsp   = &s->dsp,
        .mecc  = &s->mecc,
        .g     = g,
        .q     = b->q,
        .limit_ac = s->limit_ac,
        .rd    = &b->rd,
        .range = s->range,
        .src   = f->frame,
        .coded = &b->coded,
        .dcz   = b->dcz,
        .dcb   = b->dcb,
    };

    if (prev && !b->coded.keyframe) {
        /* The reference's rows that the search reads, v - reach .. v +
         * reach, and their sums (a row's sums are made after that row and
         * the row below, so this also waits for what the next case waits
         * for). */
        for (int r = FFMAX(v - s->reach, 0); r <= FFMIN(v + s->reach, g->mb_h - 1); r++)
            ff_thread_progress_await(&prev->sums_done[r], 1);
    } else if (prev) {
        /* This row of recon[cur] is read by rows v - reach .. v + reach of
         * the frame before, as its reference. */
        for (int r = v - s->reach; r <= v + s->reach; r++)
            row_wait(s, prev, r);
    }

    for (int p = 0; p < 3; p++) {
        c.orig[p]     = b->orig[p];
        c.ref[p]      = s->recon[!f->cur][p];
        c.ref_sums[p] = s->bsum[!f->cur][p];
        c.rec[p]      = s->recon[f->cur][p];
    }
    ff_c63_encode_row(&c, v);
}

void ff_c63enc_job_sums(C63EncContext *s, C63EncFrame *f, int v)
{
    bsum_rows(s, f->cur, v);
}

void ff_c63enc_job_code(C63EncContext *s, C63EncFrame *f, int v)
{
    ff_c63_write_row(&f->buf->writer, &s->geo, &f->buf->coded, v);
}

/* Set up frame (its reference moved in) as the next frame and publish its
 * jobs. */
static int submit_frame(AVCodecContext *avctx, AVFrame *frame)
{
    C63EncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    const C63EncFrame *prev = s->nb_submitted ? &s->th.fr[(s->nb_submitted - 1) % NB_PROGRESS]
                                              : NULL;
    C63EncBuffers *b  = &s->buf[s->nb_submitted % s->th.depth];
    C63EncFrame *f;
    int ret, key, cut = 0;

    if (frame->width != avctx->width || frame->height != avctx->height) {
        av_log(avctx, AV_LOG_ERROR, "Frame size %dx%d differs from the encoder's %dx%d\n",
               frame->width, frame->height, avctx->width, avctx->height);
        return AVERROR(EINVAL);
    }
    if (s->sc) {
        unsigned *h = s->hist[s->nb_submitted & 1];
        c63_sc_hist(h, frame->data[0], frame->linesize[0], avctx->width, avctx->height);
        if (s->nb_submitted) {
            const long long change = c63_sc_change(h, s->hist[!(s->nb_submitted & 1)]);
            cut = c63_sc_cut(change, avctx->width, avctx->height, s->sc);
            av_log(avctx, AV_LOG_DEBUG, "Frame %"PRId64": %.1f%% of the samples change bin%s\n",
                   s->nb_submitted, 100.0 * change / c63_sc_samples(avctx->width, avctx->height),
                   cut ? ": scene cut" : "");
        }
    }
    key = c63_sc_key(frame->pict_type == AV_PICTURE_TYPE_I, s->nb_submitted > 0, s->since_key,
                     avctx->gop_size, cut);
    /* the buffers of the frame two before are free: its packet is out */
    if ((ret = ff_c63_rc_frame_q(&s->rc, avctx, s->nb_submitted, key,
                                 s->rc.vbv ? ff_c63_activity(&s->mecc, frame->data[0],
                                                             frame->linesize[0], avctx->width,
                                                             avctx->height) : 0,
                                 &b->qscale)) < 0 ||
        (ret = ff_c63_write_begin(&b->writer, g)) < 0)
        return ret;

    /* the set of the frame two before */
    f = ff_c63enc_thread_frame(&s->th, s->nb_submitted);
    av_frame_move_ref(f->frame, frame);
    f->buf     = b;
    f->prev    = prev;
    f->cur     = !s->cur;
    b->coded.keyframe = key;
    if (s->rc.mode == C63_RC_QUALITY)
        memcpy(b->q, s->q, sizeof(b->q));
    else
        ff_c63_quant_tables_scale(b->q, s->tables, b->qscale);
    ff_c63_rd_params(&b->rd, b->q, avctx->trellis, s->rd_modes);
    s->cur       = f->cur;
    s->since_key = key ? 1 : s->since_key + 1;
    /* the sums of this reconstruction, unless the next frame is due to be
     * a keyframe (then, the next frame being inter, they are always made) */
    f->nb_sums = s->since_key < avctx->gop_size ? g->mb_h : 0;
    av_assert0(key || (prev && prev->nb_sums));
    return ff_c63enc_thread_submit(&s->th, f, s->nb_submitted++);
}

/* The packet of the oldest frame in flight, once its jobs are done. */
static int output_frame(AVCodecContext *avctx, AVPacket *pkt)
{
    C63EncContext *s = avctx->priv_data;
    C63EncFrame *f = &s->th.fr[s->nb_output % NB_PROGRESS];
    C63EncBuffers *b = f->buf;
    int ret;

    ff_c63enc_thread_wait(&s->th, f);
    s->nb_output++;
    ret = ff_c63_write_end(avctx, &b->writer, pkt, &s->geo, b->q, &b->coded);
    if (ret >= 0)
        ret = ff_c63_rc_packet(&s->rc, avctx, s->nb_output - 1, pkt, b->qscale,
                               b->coded.keyframe);
    if (ret >= 0) {
        pkt->pts      = f->frame->pts;
        pkt->dts      = f->frame->pts;
        pkt->duration = f->frame->duration;
        ret = ff_encode_reordered_opaque(avctx, pkt, f->frame);
    }
    av_frame_unref(f->frame);
    if (ret < 0) {
        /* The frames after it are coded against it: the stream cannot go on. */
        av_log(avctx, AV_LOG_ERROR, "Packet of frame %"PRId64" lost; no more packets\n",
               s->nb_output - 1);
        s->error = ret;
    }
    return ret;
}

static int c63_receive_packet(AVCodecContext *avctx, AVPacket *pkt)
{
    C63EncContext *s = avctx->priv_data;
    int ret;

    if (s->error)
        return s->error;
    while (!s->eof && s->nb_submitted - s->nb_output < s->th.depth) {
        ret = ff_encode_get_frame(avctx, s->in);
        if (ret == AVERROR_EOF) {
            s->eof = 1;
            break;
        }
        if (ret == AVERROR(EAGAIN)) {
            /* room for more input: only a packet that is ready */
            if (s->nb_submitted > s->nb_output &&
                ff_c63enc_thread_done(&s->th.fr[s->nb_output % NB_PROGRESS]))
                return output_frame(avctx, pkt);
            return ret;
        }
        if (ret < 0)
            return ret;
        ret = submit_frame(avctx, s->in);
        av_frame_unref(s->in);
        if (ret < 0)
            return ret;
    }
    if (s->nb_submitted == s->nb_output) {
        ff_c63_rc_end(&s->rc, avctx, s->nb_output);
        return AVERROR_EOF;
    }
    return output_frame(avctx, pkt);
}

static av_cold int c63_encode_close(AVCodecContext *avctx)
{
    C63EncContext *s = avctx->priv_data;

    ff_c63enc_thread_free(&s->th);
    for (int p = 0; p < 3; p++) {
        av_freep(&s->recon[0][p]);
        av_freep(&s->recon[1][p]);
        av_freep(&s->bsum[0][p]);
        av_freep(&s->bsum[1][p]);
    }
    for (int i = 0; i < MAX_INFLIGHT; i++) {
        C63EncBuffers *b = &s->buf[i];
        for (int p = 0; p < 3; p++)
            av_freep(&b->orig[p]);
        av_freep(&b->coded.coef[0]);
        av_freep(&b->coded.mv[0]);
        av_freep(&b->dcz);
        av_freep(&b->dcb);
        ff_c63_writer_free(&b->writer);
    }
    av_frame_free(&s->in);
    ff_c63_rc_uninit(&s->rc, avctx);
    return 0;
}

#define OFFSET(x) offsetof(C63EncContext, x)
#define VE AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_ENCODING_PARAM
static const AVOption options[] = {
    C63_ENCODER_OPTIONS(C63EncContext)
    { NULL },
};

static const AVClass c63_class = {
    .class_name = "c63 encoder",
    .item_name  = av_default_item_name,
    .option     = options,
    .version    = LIBAVUTIL_VERSION_INT,
};

static const FFCodecDefault c63_defaults[] = {
    C63_ENCODER_DEFAULTS
};

const FFCodec ff_c63_encoder = {
    .p.name         = "c63",
    CODEC_LONG_NAME("Codec63 (University of Oslo teaching codec)"),
    .p.type         = AVMEDIA_TYPE_VIDEO,
    .p.id           = AV_CODEC_ID_C63,
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_DELAY | AV_CODEC_CAP_OTHER_THREADS |
                      AV_CODEC_CAP_ENCODER_REORDERED_OPAQUE,
    .priv_data_size = sizeof(C63EncContext),
    .init           = c63_encode_init,
    FF_CODEC_RECEIVE_PACKET_CB(c63_receive_packet),
    .close          = c63_encode_close,
    CODEC_PIXFMTS(AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P),
    .p.priv_class   = &c63_class,
    .defaults       = c63_defaults,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP | FF_CODEC_CAP_AUTO_THREADS,
};
