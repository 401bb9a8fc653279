/*
 * Codec63 frame writer of the c63 encoder, and the checks shared with c63_cuda
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

#include <string.h>

#include "libavutil/avassert.h"
#include "libavutil/imgutils.h"
#include "libavutil/intmath.h"
#include "libavutil/intreadwrite.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"
#include "libavcodec/avcodec.h"
#include "libavcodec/encode.h"
#include "libavcodec/put_bits.h"

#include "c63.h"
#include "c63enc.h"

/* Worst case of one block in bits: use_mv, reuse, two vectors, DC and 63
 * AC codes of at most 16 + 10 bits. */
#define BLOCK_MAX_BITS (2 + 2 * (5 + 7) + 11 + 11 + 63 * 26)

int ff_c63_encode_check(AVCodecContext *avctx, int qp, int range[3])
{
    int ret;

    if (avctx->width < 1 || avctx->height < 1 ||
        avctx->width > 65535 || avctx->height > 65535) {
        av_log(avctx, AV_LOG_ERROR,
               "Frame size %dx%d is not supported: c63 codes 1x1 up to 65535x65535\n",
               avctx->width, avctx->height);
        return AVERROR(EINVAL);
    }
    if ((ret = av_image_check_size(FFALIGN(avctx->width, 16), FFALIGN(avctx->height, 16), 0, avctx)) < 0)
        return ret;
    if (qp < C63_QP_MIN || qp > C63_QP_MAX) {
        av_log(avctx, AV_LOG_ERROR, "Quality factor %d out of range %d..%d\n",
               qp, C63_QP_MIN, C63_QP_MAX);
        return AVERROR(EINVAL);
    }
    if (avctx->trellis < 0 || avctx->trellis > 2) {
        av_log(avctx, AV_LOG_ERROR, "Trellis quantisation (-trellis) is 0 (off), 1 (AC levels) "
               "or 2 (AC and DC levels), not %d\n", avctx->trellis);
        return AVERROR(EINVAL);
    }
    if (avctx->gop_size < 1) {
        av_log(avctx, AV_LOG_ERROR, "Keyframe interval (-g) must be at least 1, not %d\n",
               avctx->gop_size);
        return AVERROR(EINVAL);
    }
    if (avctx->me_range < 0 || avctx->me_range > C63_RANGE_MAX) {
        av_log(avctx, AV_LOG_ERROR, "Search range (-me_range) %d out of range 0..%d\n",
               avctx->me_range, C63_RANGE_MAX);
        return AVERROR(EINVAL);
    }
    range[0] = avctx->me_range ? avctx->me_range : C63_RANGE_DEFAULT;
    range[1] = range[2] = range[0] / 2;
    return 0;
}

static av_always_inline void put_value(PutBitContext *pb, const uint16_t *code,
                                       const uint8_t *len, int v)
{
    int s = v ? av_log2(FFABS(v)) + 1 : 0;
    put_bits(pb, len[s], code[s]);
    if (s)
        put_sbits(pb, s, v - (v < 0));
}

static av_always_inline void put_block(PutBitContext *pb, const int16_t *coef,
                                       int chroma, int *dc)
{
    const C63HuffCodes *h = &ff_c63_huff;
    const uint16_t *ac_code = h->ac_code[chroma];
    const uint8_t  *ac_len  = h->ac_len[chroma];
    uint64_t nz = 0;
    int prev = 0;

    put_value(pb, h->dc_code[chroma], h->dc_len[chroma], coef[0] - *dc);
    *dc = coef[0];

    for (int k = 1; k < 64; k++)
        nz |= (uint64_t)(coef[k] != 0) << k;
    while (nz) {
        int k = ff_ctzll(nz), run = k - prev - 1;
        int v = coef[k], s = av_log2(FFABS(v)) + 1;
        while (run >= 16) {
            put_bits(pb, ac_len[0xF0], ac_code[0xF0]);
            run -= 16;
        }
        put_bits(pb, ac_len[(run << 4) | s], ac_code[(run << 4) | s]);
        put_sbits(pb, s, v - (v < 0));
        prev = k;
        nz &= nz - 1;
    }
    if (prev < 63)
        put_bits(pb, ac_len[0x00], ac_code[0x00]);
}

struct C63WriterLock {
    AVMutex mutex;              ///< held while rows are joined
};

int ff_c63_write_begin(C63Writer *w, const C63Geometry *g)
{
    const int nb_rows = g->mb_h;
    const size_t row_max = (size_t)g->mb_w * 6 * (BLOCK_MAX_BITS / 8 + 1) + 16;
    const size_t row_stride = FFALIGN(row_max + 32, 64);

    if (row_stride * nb_rows > INT_MAX / 2)
        return AVERROR(EINVAL);
    av_fast_padded_malloc(&w->rows, &w->rows_size, row_stride * nb_rows);
    av_fast_padded_malloc(&w->bits, &w->bits_size, row_max * nb_rows + 1);
    /* every byte 0xFF at worst, each followed by a 0x00 */
    av_fast_padded_malloc(&w->out, &w->out_size, 2 * row_max * nb_rows);
    if (!w->rows || !w->bits || !w->out)
        return AVERROR(ENOMEM);
    if (!w->lock) {
        if (!(w->lock = av_mallocz(sizeof(*w->lock))))
            return AVERROR(ENOMEM);
        if (ff_mutex_init(&w->lock->mutex, NULL)) {
            av_freep(&w->lock);
            return AVERROR(ENOMEM);
        }
    }
    if (w->nb_rows != nb_rows) {
        av_freep(&w->row_bits);
        av_freep(&w->row_coded);
        w->nb_rows = 0;
        w->row_bits  = av_malloc_array(nb_rows, sizeof(*w->row_bits));
        w->row_coded = av_malloc(nb_rows);
        if (!w->row_bits || !w->row_coded)
            return AVERROR(ENOMEM);
        w->nb_rows = nb_rows;
    }
    memset(w->row_coded, 0, nb_rows);
    w->row_max    = row_max;
    w->row_stride = row_stride;
    w->joined     = 0;
    w->nbits      = 0;
    w->out_len    = 0;
    return 0;
}

/* Append row v, the next in order, to the joined bits, then stuff the bytes
 * that are now whole into out (those from the one the row began in). The
 * byte holding the end of the joined bits has zeros after them, as has the
 * last byte of a row's buffer. */
static void join_row(C63Writer *w, int v)
{
    const uint8_t *src = w->rows + v * w->row_stride;
    const uint64_t off = w->nbits, end = off + w->row_bits[v];
    const size_t m = (w->row_bits[v] + 7) >> 3;
    const int sh = off & 7;             /* bits of the rows above in dst[0] */
    uint8_t *dst = w->bits + (off >> 3);
    const uint8_t *p = dst, *e = w->bits + (end >> 3);  /* bytes now whole */
    uint8_t *o = w->out + w->out_len;

    if (!sh) {
        memcpy(dst, src, m);
    } else if (m) {
        size_t j = 1;
        dst[0] |= src[0] >> sh;
        for (; j + 8 <= m; j += 8)
            AV_WB64(dst + j, AV_RB64(src + j - 1) << (8 - sh) | src[j + 7] >> sh);
        for (; j < m; j++)
            dst[j] = src[j - 1] << (8 - sh) | src[j] >> sh;
        dst[m] = src[m - 1] << (8 - sh);
    }
    w->nbits = end;

    /* a 0x00 after each 0xFF */
    while (p < e) {
        const uint8_t *ff = memchr(p, 0xFF, e - p);
        size_t n = (ff ? ff + 1 : e) - p;
        memcpy(o, p, n);
        o += n;
        p += n;
        if (ff)
            *o++ = 0x00;
    }
    w->out_len = o - w->out;
}

void ff_c63_write_row(C63Writer *w, const C63Geometry *g, const C63CodedFrame *f, int v)
{
    const C63HuffCodes *h = &ff_c63_huff;
    const int bw[3] = { g->w[0] / 8, g->w[1] / 8, g->w[2] / 8 };
    PutBitContext pb;
    int dc[3] = { 0 };

    /* the DC predictors at the start of the row: the last DC values of
     * the row above */
    if (v) {
        dc[0] = f->coef[0][64 * ((size_t)(2 * v - 1) * bw[0] + bw[0] - 1)];
        dc[1] = f->coef[1][64 * ((size_t)(v - 1) * bw[1] + bw[1] - 1)];
        dc[2] = f->coef[2][64 * ((size_t)(v - 1) * bw[2] + bw[2] - 1)];
    }
    init_put_bits(&pb, w->rows + v * w->row_stride, w->row_max);

    for (int u = 0; u < g->mb_w; u++) {
        for (int i = 0; i < 6; i++) {
            int p  = i < 4 ? 0 : i - 3;
            int bx = p ? u : 2 * u + (i & 1);
            int by = p ? v : 2 * v + (i >> 1);
            size_t b = (size_t)by * bw[p] + bx;

            if (f->keyframe || f->mv[p][b].x == C63_MV_INTRA) {
                put_bits(&pb, 1, 0);
            } else {
                const C63MV mv = f->mv[p][b];
                put_bits(&pb, 1, 1);
                /* (a left neighbour without a vector has x C63_MV_INTRA) */
                if (bx && f->mv[p][b - 1].x == mv.x && f->mv[p][b - 1].y == mv.y) {
                    put_bits(&pb, 1, 1);
                } else {
                    put_bits(&pb, 1, 0);
                    put_value(&pb, h->dc_code[0], h->dc_len[0], mv.x);
                    put_value(&pb, h->dc_code[0], h->dc_len[0], mv.y);
                }
            }
            put_block(&pb, f->coef[p] + 64 * b, p > 0, &dc[p]);
        }
    }
    w->row_bits[v] = put_bits_count(&pb);
    flush_put_bits(&pb);

    /* Join this row and those below it that are coded, if the rows above
     * are joined; otherwise the thread that codes the last of those will. */
    ff_mutex_lock(&w->lock->mutex);
    w->row_coded[v] = 1;
    while (w->joined < w->nb_rows && w->row_coded[w->joined]) {
        w->row_coded[w->joined] = 0;
        join_row(w, w->joined++);
    }
    ff_mutex_unlock(&w->lock->mutex);
}

int ff_c63_write_end(AVCodecContext *avctx, C63Writer *w, AVPacket *pkt,
                     const C63Geometry *g, const uint8_t q[3][64],
                     const C63CodedFrame *f)
{
    const uint64_t nbits = w->nbits;
    int tail_nonzero = 0, ret;
    uint8_t *dst;

    av_assert0(w->nb_rows == g->mb_h && w->joined == w->nb_rows);

    /* Quirk Q2: the reference ends the data with one more byte (the pending
     * bits, left-aligned, or 0x00 when none are pending) if and only if any
     * of the last 32 bits written is set. The pending bits are followed by
     * zeros, so that byte is never 0xFF. */
    for (uint64_t i = nbits > 32 ? nbits - 32 : 0; i < nbits && !tail_nonzero; i++)
        tail_nonzero = w->bits[i >> 3] >> (7 - (i & 7)) & 1;

    ret = ff_get_encode_buffer(avctx, pkt, C63_HEADER_SIZE + w->out_len + tail_nonzero + 2, 0);
    if (ret < 0)
        return ret;
    dst = pkt->data;
    ff_c63_write_header(dst, g->width, g->height, f->keyframe, q);
    dst += C63_HEADER_SIZE;
    memcpy(dst, w->out, w->out_len);
    dst += w->out_len;
    if (tail_nonzero)
        *dst++ = nbits & 7 ? w->bits[nbits >> 3] : 0x00;
    *dst++ = 0xFF;
    *dst++ = C63_EOI;
    av_assert1(dst == pkt->data + pkt->size);

    if (f->keyframe)
        pkt->flags |= AV_PKT_FLAG_KEY;
    return 0;
}

void ff_c63_writer_free(C63Writer *w)
{
    av_freep(&w->rows);
    av_freep(&w->bits);
    av_freep(&w->out);
    av_freep(&w->row_bits);
    av_freep(&w->row_coded);
    if (w->lock) {
        ff_mutex_destroy(&w->lock->mutex);
        av_freep(&w->lock);
    }
    w->rows_size = w->bits_size = w->out_size = 0;
    w->nb_rows   = 0;
}
