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
 * entropy coding. Slice-threaded over MCU rows, one pass of the threads a
 * frame; the output does not depend on the thread count. Also the CPU twin
 * of the c63_cuda encoder.
 */

#include <string.h>

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
#include "c63me.h"

enum {
    ENTROPY_ROWS,                   ///< ff_c63_write_frame(), row-parallel
    ENTROPY_TWIN,                   ///< ff_c63_write_frame_twin(), serial
};

typedef struct C63EncContext {
    const AVClass *class;
    int qp;

    C63DSPContext dsp;
    MECmpContext  mecc;
    C63Geometry   geo;
    C63Writer     writer;
    C63TwinWriter twin;
    int           entropy;          ///< ENTROPY_*
    int           range[3];
    uint8_t       q[3][64];

    uint8_t      *orig[3];          ///< padded input planes
    uint8_t      *recon[2][3];      ///< padded reconstructions: current, previous
    uint16_t     *bsum[2][3];       ///< 8x2 sums of recon[0] and recon[1]
    int           bsum_ready[2];    ///< bsum[i] holds the sums of recon[i]
    int           cur;
    int           since_key;
    C63CodedFrame coded;

    /* The frame's pass of the slice threads (encode_job()): its jobs, and
     * which half rows are reconstructed (1 when done) */
    const AVFrame  *pass_frame;
    int             pass_code;      ///< rows' entropy coding jobs (0 or mb_h)
    int             pass_sums;      ///< next reference's sums jobs (0 or mb_h)
    ThreadProgress *half_done;      ///< 2 * mb_h: the left, right half of each MCU row
} C63EncContext;

static av_cold int c63_encode_init(AVCodecContext *avctx)
{
    C63EncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    size_t total;
    int ret;

    if ((ret = ff_c63_encode_check(avctx, s->qp, s->range)) < 0)
        return ret;

    ff_c63_geometry(&s->geo, avctx->width, avctx->height);
    ff_c63_quant_tables(s->q, s->qp);
    ff_c63_init_huff_codes();
    ff_c63dsp_init(&s->dsp);
    ff_me_cmp_init(&s->mecc, avctx);

    /* Coefficients and vectors of the three planes in one buffer each,
     * as the GPU coder's twin takes them. */
    total = (size_t)g->w[0] * g->h[0] + 2 * (size_t)g->w[1] * g->h[1];
    s->coded.coef[0] = av_malloc_array(total, sizeof(int16_t));
    s->coded.mv[0]   = av_calloc(total / 64, sizeof(C63MV));
    if (!s->coded.coef[0] || !s->coded.mv[0])
        return AVERROR(ENOMEM);
    for (int p = 0; p < 3; p++) {
        size_t n = (size_t)g->w[p] * g->h[p];
        s->orig[p]     = av_mallocz(n);
        s->recon[0][p] = av_mallocz(n);
        s->recon[1][p] = av_mallocz(n);
        /* zeroed: me_search reads (and ignores) entries past the last
         * position a row's sums are computed for */
        s->bsum[0][p]  = av_calloc(n, sizeof(*s->bsum[0][p]));
        s->bsum[1][p]  = av_calloc(n, sizeof(*s->bsum[1][p]));
        if (p) {
            s->coded.coef[p] = s->coded.coef[p - 1] + (size_t)g->w[p - 1] * g->h[p - 1];
            s->coded.mv[p]   = s->coded.mv[p - 1] + (size_t)g->w[p - 1] * g->h[p - 1] / 64;
        }
        if (!s->orig[p] || !s->recon[0][p] || !s->recon[1][p] ||
            !s->bsum[0][p] || !s->bsum[1][p])
            return AVERROR(ENOMEM);
    }
    s->half_done = av_calloc(2 * g->mb_h, sizeof(*s->half_done));
    if (!s->half_done)
        return AVERROR(ENOMEM);
    for (int i = 0; i < 2 * g->mb_h; i++)
        if ((ret = ff_thread_progress_init(&s->half_done[i], 1)) < 0)
            return ret;
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

/* Thread job: the sums of the reference (arg: its index) for MCU row v. */
static int ref_sums_job(AVCodecContext *avctx, void *arg, int v, int thread)
{
    bsum_rows(avctx->priv_data, *(const int *)arg, v);
    return 0;
}

/* Motion estimation, transform and reconstruction of half (half: the left
 * or the right macroblocks) of MCU row v of the frame. */
static void encode_half_row(C63EncContext *s, const AVFrame *frame, int v, int half)
{
    const C63Geometry *g = &s->geo;
    const int key = s->coded.keyframe;
    const int u0 = half ? g->mb_w / 2 : 0, u1 = half ? g->mb_w : g->mb_w / 2;
    int16_t res[64];

    /* The half row's input into the padded planes (only this job reads it). */
    for (int p = 0; p < 3; p++) {
        const int rows = p ? 8 : 16, y0 = v * rows, m = p ? 8 : 16;
        const int w = p ? AV_CEIL_RSHIFT(g->width,  1) : g->width;
        const int h = p ? AV_CEIL_RSHIFT(g->height, 1) : g->height;
        const int x0 = u0 * m, x1 = FFMIN(u1 * m, w);
        if (y0 < h && x0 < x1)
            av_image_copy_plane(s->orig[p] + (ptrdiff_t)y0 * g->w[p] + x0, g->w[p],
                                frame->data[p] + (ptrdiff_t)y0 * frame->linesize[p] + x0,
                                frame->linesize[p], x1 - x0, FFMIN(rows, h - y0));
    }

    for (int p = 0; p < 3; p++) {
        const ptrdiff_t stride = g->w[p];
        const int bw = g->w[p] / 8, rows = p ? 1 : 2;
        const int bx0 = p ? u0 : 2 * u0, bx1 = p ? u1 : 2 * u1;
        const uint8_t *ref = s->recon[!s->cur][p];
        const uint16_t *ref_sums = s->bsum[!s->cur][p];
        uint8_t *rec = s->recon[s->cur][p];

        for (int by = v * rows; by < (v + 1) * rows; by++) {
            for (int bx = bx0; bx < bx1; bx++) {
                size_t b = (size_t)by * bw + bx;
                const uint8_t *src = s->orig[p] + 8 * by * stride + 8 * bx;
                const uint8_t *pred = NULL;
                int16_t *coef = s->coded.coef[p] + 64 * b;

                if (!key) {
                    C63MV mv = s->dsp.me_search ?
                        ff_c63_motion_search_full(&s->dsp, s->orig[p], ref, ref_sums,
                                                  g->w[p], g->h[p], bx, by, s->range[p]) :
                        ff_c63_motion_search(&s->mecc, s->orig[p], ref, ref_sums,
                                             g->w[p], g->h[p], bx, by, s->range[p]);
                    s->coded.mv[p][b] = mv;
                    pred = ref + (8 * by + mv.y) * stride + 8 * bx + mv.x;
                }
                s->dsp.sub_pred(res, src, stride, pred, stride);
                s->dsp.fdct_quant(coef, res, s->q[p]);
                s->dsp.dequant_idct_add(rec + 8 * by * stride + 8 * bx, stride, pred, stride,
                                        coef, s->q[p], 8);
            }
        }
    }
}

/* Wait until both halves of MCU row v are reconstructed. */
static void row_wait(C63EncContext *s, int v)
{
    ff_thread_progress_await(&s->half_done[2 * v],     1);
    ff_thread_progress_await(&s->half_done[2 * v + 1], 1);
}

/*
 * Thread job of the frame's one pass, in this order:
 *   2 * mb_h  the half rows: motion estimation, transform, reconstruction;
 *   pass_code the MCU rows' entropy coding (row v needs rows v - 1 and v);
 *   pass_sums the sums of this reconstruction, the next frame's reference
 *             (row v needs rows v and v + 1; they go to the other buffer
 *             of sums than the one the motion search reads).
 * The threads take the jobs in this order, so a job waits only for jobs
 * taken before it, which do not wait for it: with one thread, never.
 * Half rows make the jobs small enough that the threads finish the frame
 * within a short time of each other.
 */
static int encode_job(AVCodecContext *avctx, void *arg, int job, int thread)
{
    C63EncContext *s = avctx->priv_data;
    const int mb_h = s->geo.mb_h;

    if (job < 2 * mb_h) {
        encode_half_row(s, s->pass_frame, job >> 1, job & 1);
        ff_thread_progress_report(&s->half_done[job], 1);
        return 0;
    }
    job -= 2 * mb_h;
    if (job < s->pass_code) {
        if (job)
            row_wait(s, job - 1);
        row_wait(s, job);
        ff_c63_write_row(&s->writer, &s->geo, &s->coded, job);
        return 0;
    }
    job -= s->pass_code;
    row_wait(s, job);
    if (job + 1 < mb_h)
        row_wait(s, job + 1);
    bsum_rows(s, s->cur, job);
    return 0;
}

static int c63_encode_frame(AVCodecContext *avctx, AVPacket *pkt,
                            const AVFrame *frame, int *got_packet)
{
    C63EncContext *s = avctx->priv_data;
    const C63Geometry *g = &s->geo;
    const int since_key = s->since_key;
    int ret;

    s->coded.keyframe = s->since_key >= avctx->gop_size ||
                        frame->pict_type == AV_PICTURE_TYPE_I;
    s->since_key      = s->coded.keyframe ? 1 : s->since_key + 1;
    s->cur ^= 1;
    s->bsum_ready[s->cur] = 0;

    /* The sums of the reference, unless the last frame's pass made them. */
    if (!s->coded.keyframe && !s->bsum_ready[!s->cur]) {
        int ref = !s->cur;
        avctx->execute2(avctx, ref_sums_job, &ref, NULL, g->mb_h);
        s->bsum_ready[ref] = 1;
    }

    s->pass_code = 0;
    if (s->entropy == ENTROPY_ROWS) {
        if ((ret = ff_c63_write_begin(&s->writer, g)) < 0)
            goto fail;
        s->pass_code = g->mb_h;
    }
    /* the sums of this reconstruction, unless the next frame is due to be
     * a keyframe */
    s->pass_sums  = s->since_key < avctx->gop_size ? g->mb_h : 0;
    s->pass_frame = frame;
    for (int i = 0; i < 2 * g->mb_h; i++)
        ff_thread_progress_reset(&s->half_done[i]);
    avctx->execute2(avctx, encode_job, NULL, NULL, 2 * g->mb_h + s->pass_code + s->pass_sums);
    s->pass_frame = NULL;
    s->bsum_ready[s->cur] = s->pass_sums > 0;

    if (s->entropy == ENTROPY_TWIN)
        ret = ff_c63_write_frame_twin(avctx, &s->twin, pkt, g, s->q, &s->coded);
    else
        ret = ff_c63_write_end(avctx, &s->writer, pkt, g, s->q, &s->coded);
    if (ret < 0)
        goto fail;
    *got_packet = 1;
    return 0;

fail:
    /* no packet: the next frame is coded against the last one that made
     * one, as a decoder will have it (whose sums bsum_ready still tells) */
    s->since_key = since_key;
    s->cur ^= 1;
    return ret;
}

static av_cold int c63_encode_close(AVCodecContext *avctx)
{
    C63EncContext *s = avctx->priv_data;

    for (int p = 0; p < 3; p++) {
        av_freep(&s->orig[p]);
        av_freep(&s->recon[0][p]);
        av_freep(&s->recon[1][p]);
        av_freep(&s->bsum[0][p]);
        av_freep(&s->bsum[1][p]);
    }
    if (s->half_done)
        for (int i = 0; i < 2 * s->geo.mb_h; i++)
            ff_thread_progress_destroy(&s->half_done[i]);
    av_freep(&s->half_done);
    av_freep(&s->coded.coef[0]);
    av_freep(&s->coded.mv[0]);
    ff_c63_writer_free(&s->writer);
    ff_c63_twin_writer_free(&s->twin);
    return 0;
}

#define OFFSET(x) offsetof(C63EncContext, x)
#define VE AV_OPT_FLAG_VIDEO_PARAM | AV_OPT_FLAG_ENCODING_PARAM
static const AVOption options[] = {
    C63_ENCODER_OPTIONS(C63EncContext)
    { "entropy", "Entropy coder (the output is the same)", OFFSET(entropy),
      AV_OPT_TYPE_INT, { .i64 = ENTROPY_ROWS }, ENTROPY_ROWS, ENTROPY_TWIN, VE, .unit = "entropy" },
    { "rows", "MCU rows in parallel on the slice threads", 0, AV_OPT_TYPE_CONST,
      { .i64 = ENTROPY_ROWS }, 0, 0, VE, .unit = "entropy" },
    { "twin", "c63_cuda's GPU coder emulated serially (slow; for testing it without a GPU)", 0,
      AV_OPT_TYPE_CONST, { .i64 = ENTROPY_TWIN }, 0, 0, VE, .unit = "entropy" },
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
    .p.capabilities = AV_CODEC_CAP_DR1 | AV_CODEC_CAP_SLICE_THREADS,
    .priv_data_size = sizeof(C63EncContext),
    .init           = c63_encode_init,
    FF_CODEC_ENCODE_CB(c63_encode_frame),
    .close          = c63_encode_close,
    CODEC_PIXFMTS(AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P),
    .p.priv_class   = &c63_class,
    .defaults       = c63_defaults,
    .caps_internal  = FF_CODEC_CAP_INIT_CLEANUP,
};
